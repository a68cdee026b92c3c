"""Rules data files (Legend cards, weather and road tokens): read a small TOML file and check it.

Owners correct these files by hand, so nothing in them is trusted: every mistake becomes a
:class:`DataFileError` whose message is one line naming the file, the field and the problem.

Example::

    >>> check = Fields("cards.toml")
    >>> check.integer({"speed": 12}, "speed", "cards[1].speed", 1, 30)
    12
    >>> check.integer({"speed": 0}, "speed", "cards[1].speed", 1, 30)
    Traceback (most recent call last):
    ...
    pitboard.engine.datafile.DataFileError: cards.toml: cards[1].speed: must be 1..30, got 0
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from ..userfile import UserFileError, parse_toml, read_user_file


class DataFileError(ValueError):
    """A broken rules data file; ``str()`` is ``FILE: FIELD: problem``.

    Example::

        >>> str(DataFileError("tokens.toml", "road[2].limit", "must be -1 or +1"))
        'tokens.toml: road[2].limit: must be -1 or +1'
    """

    def __init__(self, source: str, key: str, problem: str) -> None:
        super().__init__(f"{source}: {key}: {problem}" if key else f"{source}: {problem}")


def read_toml(package: str, name: str, path: str | Path | None = None
              ) -> tuple[str, dict[str, Any]]:
    """(source, parsed document) of ``path``, or of the file ``name`` shipped in ``package``."""
    try:
        if path is not None:
            source = str(path)
            # a regular file of sane size only: /dev/zero or a FIFO is refused, not read
            text = read_user_file(path).decode("utf-8")
        else:
            source = name
            text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except UserFileError as exc:
        raise DataFileError(source, "", exc.problem) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(source, "", f"cannot read: {exc}") from None
    try:
        return source, parse_toml(text)  # too-deep nesting is a syntax error, not a crash
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(source, "", f"not valid TOML: {exc}") from None


class Fields:
    """Typed reads from a parsed document; every failure names ``source`` and the field.

    Example::

        >>> try:
        ...     Fields("my-track.toml").table(3, "corner")
        ... except DataFileError as exc:
        ...     print(exc)
        my-track.toml: corner: must be a table, got 3
    """

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> NoReturn:
        raise DataFileError(self.source, key, problem)

    def table(self, value: object, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, f"must be a table, got {_describe(value)}")
        return value

    def tables(self, doc: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
        value = doc.get(key)
        if not isinstance(value, list) or not value:
            self.fail(key, f"needs [[{key}]] blocks, got {_describe(value)}")
        return [self.table(v, f"{key}[{i}]") for i, v in enumerate(value, start=1)]

    def keys(self, table: Mapping[str, Any], where: str, allowed: tuple[str, ...],
             optional: frozenset[str] = frozenset()) -> None:
        for key in table:
            if key not in allowed:
                self.fail(f"{where}.{key}" if where else key,
                          f"unknown field (known: {', '.join(allowed)})")
        for key in allowed:
            if key not in table and key not in optional:
                self.fail(f"{where}.{key}" if where else key, "missing")

    def integer(self, table: Mapping[str, Any], key: str, where: str, low: int, high: int,
                default: int | None = None) -> int:
        value = table.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(where, f"must be a whole number, got {_describe(value)}")
        if not low <= value <= high:
            self.fail(where, f"must be {low}..{high}, got {value}")
        return value

    def string(self, table: Mapping[str, Any], key: str, where: str) -> str:
        value = table.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(where, f"must be a non-empty string, got {_describe(value)}")
        return value

    def boolean(self, table: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false, got {_describe(value)}")
        return value


def _describe(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= 30 else value[:27] + "...")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
