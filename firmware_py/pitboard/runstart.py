"""What ``pitboard run`` settles before it builds anything: where its log lines go, and whether
it draws the stations in this terminal. Light on purpose: a configuration that does not load is
reported before the table, the drivers and the web server are imported (on a Pi those take a
second or more).

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> draws_in_terminal(load_profile("duo"))  # wired stations: never at a terminal
    False
"""

from __future__ import annotations

import logging
import sys

from .hwconfig import HwConfig
from .usage import isatty


def draws_in_terminal(config: HwConfig) -> bool:
    """True when ``pitboard run`` should draw the stations in this terminal: every station is
    emulated (the sim profile) and stdin and stdout are a terminal (never under systemd)."""
    emulated = bool(config.stations) and all(
        st.display.bus == "emulated" and st.input.kind == "emulated" for st in config.stations)
    return emulated and isatty(sys.stdin) and isatty(sys.stdout)


def configure_logging(*, verbose: bool) -> None:
    """Log to stderr (the journal under systemd): Pitboard's own INFO lines and up (the
    start-up line, hardware waits, journal recovery), other libraries' warnings and errors.
    The transitions library logs every callback of every state change at INFO: those lines
    only with ``verbose`` (``pitboard run --verbose`` says the same)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("pitboard").setLevel(logging.INFO)
    logging.getLogger("transitions").setLevel(logging.INFO if verbose else logging.WARNING)
