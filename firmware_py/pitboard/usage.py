"""Command-line parsing shared by every ``pitboard`` command: one-line argument errors."""

from __future__ import annotations

import argparse
from typing import NoReturn

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
