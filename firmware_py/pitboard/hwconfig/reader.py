"""The generic half of profile validation: :class:`_Reader` collects every problem as one line
``<file>: <key path>: <what>`` and reads typed values (ints, strings, choices, ranges, I2C
addresses) out of parsed TOML tables; :mod:`.parse` builds the sections on top of it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pitboard.userfile import escape


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"float {value}"
    if isinstance(value, str):
        return f'string "{escape(value)}"'
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _quoted(options: Sequence[str]) -> str:
    return ", ".join(f'"{o}"' for o in options)


def _used_elsewhere(selector: str, keys: dict[str, tuple[str, ...]], chosen: str) -> dict[str, str]:
    """Keys valid only for other variants -> 'kind = "gpio" or kind = "mcp23017"'."""
    owners: dict[str, list[str]] = {}
    for variant, variant_keys in keys.items():
        for key in variant_keys:
            owners.setdefault(key, []).append(f'{selector} = "{variant}"')
    return {k: " or ".join(v) for k, v in owners.items() if k not in keys[chosen]}


class _Reader:
    """Collects problems and reads typed values; a wrong type or a missing key also counts in
    :attr:`type_errors`, so that the caller does not build a section that has one."""

    def __init__(self, label: str, source: Path) -> None:
        self.label = label
        self.source = source
        self.problems: list[str] = []
        #: missing keys and wrong types: a section with any of these is not built
        self.type_errors = 0
    def add(self, path: str, message: str) -> None:
        self.problems.append(f"{self.label}: {path}: {message}")

    def _type_problem(self, path: str, message: str) -> None:
        self.type_errors += 1
        self.add(path, message)

    def unknown_keys(
        self,
        table: dict[str, Any],
        path: str,
        allowed: Sequence[str],
        elsewhere: dict[str, str] | None = None,
    ) -> None:
        """``elsewhere`` maps keys valid in another variant to a hint (e.g. 'kind = "gpio"')."""
        for key in table:
            if key in allowed:
                continue
            if elsewhere and key in elsewhere:
                self.add(_join(path, key), f"only used with {elsewhere[key]}")
                continue
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            if close:
                hint = f'did you mean "{close[0]}"?'
            elif allowed:
                hint = f"valid keys: {', '.join(allowed)}"
            else:
                hint = "no keys are valid here"
            self.add(_join(path, key), f"unknown key ({hint})")

    def _get(
        self,
        table: dict[str, Any],
        path: str,
        key: str,
        expected: str,
        check: Callable[[Any], bool],
        required: bool,
    ) -> Any:
        full = _join(path, key)
        if key not in table:
            if required:
                self._type_problem(full, "missing required key")
            return None
        value = table[key]
        if not check(value):
            self._type_problem(full, f"expected {expected}, got {_describe(value)}")
            return None
        return value

    def table(
        self, parent: dict[str, Any], path: str, key: str, required: bool
    ) -> dict[str, Any] | None:
        value = self._get(parent, path, key, "a table", lambda v: isinstance(v, dict), required)
        return value if isinstance(value, dict) else None

    def int_(self, t: dict[str, Any], path: str, key: str, default: int) -> int:
        value = self._get(t, path, key, "an integer", _is_int, False)
        return default if value is None else int(value)

    def req_int(self, t: dict[str, Any], path: str, key: str) -> int:
        value = self._get(t, path, key, "an integer", _is_int, True)
        return 0 if value is None else int(value)

    def opt_int(self, t: dict[str, Any], path: str, key: str) -> int | None:
        value = self._get(t, path, key, "an integer", _is_int, False)
        return None if value is None else int(value)

    def str_(
        self, t: dict[str, Any], path: str, key: str, default: str, required: bool = False
    ) -> str:
        value = self._get(t, path, key, "a string", lambda v: isinstance(v, str), required)
        return default if value is None else str(value)

    def bool_(self, t: dict[str, Any], path: str, key: str, default: bool) -> bool:
        value = self._get(t, path, key, "a boolean", lambda v: isinstance(v, bool), False)
        return default if value is None else bool(value)

    def int_list(
        self, t: dict[str, Any], path: str, key: str, count: int, what: str
    ) -> tuple[int, ...]:
        value = self._get(
            t,
            path,
            key,
            f"an array of {count} integers",
            lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
            True,
        )
        if value is None:
            return ()
        if len(value) != count:
            self.add(_join(path, key), f"expected {count} pins ({what}), got {len(value)}")
        return tuple(int(x) for x in value)

    def in_range(
        self, path: str, value: int | None, lo: int, hi: int, *, hexa: bool = False
    ) -> None:
        if value is None or lo <= value <= hi:
            return
        if hexa:
            self.add(path, f"0x{value:02X} is outside 0x{lo:02X}–0x{hi:02X}")
        else:
            self.add(path, f"{value} is outside {lo}–{hi}")

    def choice(
        self,
        t: dict[str, Any],
        path: str,
        key: str,
        options: Sequence[str],
        required: bool,
        default: str = "",
    ) -> str | None:
        value = self._get(t, path, key, "a string", lambda v: isinstance(v, str), required)
        if value is None:
            return default or None
        if value not in options:
            close = difflib.get_close_matches(value, options, n=1, cutoff=0.6)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            self.add(_join(path, key), f'"{value}" is not one of {_quoted(options)}{hint}')
            return None
        return str(value)

    def i2c_address(self, path: str, value: int, lo: int, hi: int, device: str) -> None:
        if not 0x08 <= value <= 0x77:
            self.add(path, f"0x{value:02X} is not a 7-bit I2C device address (0x08–0x77)")
        elif not lo <= value <= hi:
            self.add(path, f"0x{value:02X} is outside the {device} range 0x{lo:02X}–0x{hi:02X}")
