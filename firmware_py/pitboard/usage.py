"""Command-line parsing shared by every ``pitboard`` command: one-line argument errors."""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

#: exit status for bad input: arguments, config, scenario or track files
EXIT_BAD_INPUT = 2


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line like every other bad input, exit status 2.

    Example::

        >>> p = Parser(prog="pitboard simulate")
        >>> _ = p.add_argument("--races", type=int)
        >>> p.parse_args(["--races", "x"])
        Traceback (most recent call last):
        SystemExit: 2

    prints ``pitboard simulate: argument --races: invalid int value: 'x' (see pitboard
    simulate --help)`` on stderr instead of the whole usage.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


def isatty(stream: Any) -> bool:
    """Whether ``stream`` is a terminal; False for a closed stream or one without ``isatty``
    (``pitboard run`` and ``pitboard sim`` decide on it whether to draw the stations).

    Example::

        >>> import io
        >>> isatty(io.StringIO()), isatty(None)
        (False, False)
    """
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
