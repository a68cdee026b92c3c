"""Argument types for the command lines: a whole number or a number within bounds, refused
with one line that says what was expected (argparse puts the option's name in front).

Example::

    >>> laps = whole_in(1, 9, "laps")
    >>> laps("3")
    3
    >>> number_in(0, 10, "delay", " seconds")("2.5")
    2.5
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_in(low: int, high: int | None = None, what: str = "") -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (None: no upper bound)."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if n < low or (high is not None and n > high):
            bounds = f"{low} or more" if high is None else f"{low}..{high}"
            raise argparse.ArgumentTypeError(f"{what} must be {bounds}, got {n}".lstrip())
        return n

    parse.__name__ = what or "number"  # argparse names the type in some of its messages
    return parse


def number_in(low: float, high: float, what: str, unit: str = "") -> Callable[[str], float]:
    """A number (fractions allowed) from ``low`` to ``high``; ``unit`` follows the bounds in
    the message (" seconds")."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not low <= value <= high:  # (NaN is never within)
            raise argparse.ArgumentTypeError(
                f"{what} must be {low:g}..{high:g}{unit}, got {text}")
        return value

    parse.__name__ = what
    return parse
