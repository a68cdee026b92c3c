"""Warnings about a valid profile: settings that work but should not stay as they are.

A staff PIN is "still the default" when it is one of the PINs the shipped profiles carry: those
are in the public repository, so anyone can unlock the console with them. It matters only when
the console is on (a ``[console] port``) or the web server listens beyond this machine
(``[web] enabled`` with a ``bind`` that is not a loopback address). systemd/install-pi.sh
warns by the same rule (``check-config --install-facts``: :mod:`.installfacts`).

Example::

    >>> is_default_pin("2468"), is_default_pin("80417")
    (True, False)
"""

from __future__ import annotations

import tomllib
from functools import cache

from .schema import HwConfig, profiles_dir


@cache
def shipped_pins() -> frozenset[str]:
    """Every ``[console] staff_pin`` of the shipped profiles."""
    pins: set[str] = set()
    for path in sorted(profiles_dir().glob("*.toml")):
        try:
            pin = tomllib.loads(path.read_text(encoding="utf-8")).get("console", {}).get(
                "staff_pin")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(pin, str):
            pins.add(pin)
    return frozenset(pins)


def is_default_pin(pin: str) -> bool:
    """True if ``pin`` is published with Pitboard (a shipped profile's staff PIN)."""
    return pin in shipped_pins()


def guards_with_default_pin(config: HwConfig) -> bool:
    """True when the staff PIN guards something (the console, or the lobby settings from a phone
    on the LAN) and is still a published one."""
    return (config.console.enabled or config.web.on_lan) and is_default_pin(
        config.console.staff_pin)


def config_warnings(config: HwConfig) -> list[str]:
    """One line per setting to change, naming the file and key (empty: nothing to say)."""
    warnings = []
    if guards_with_default_pin(config):
        # the PIN unlocks the console, and the lobby settings and seat takeovers on a phone
        warnings.append(
            f"{config.label}: console.staff_pin: still the default published with Pitboard; "
            "choose your own 4-8 digits")
    return warnings
