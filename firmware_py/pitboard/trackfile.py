"""Track files: read and check the small TOML files that describe a circuit.

The shipped files live in ``pitboard/tracks/<key>.toml``; their header comment explains every
field. Owners whose printed board differs edit those files by hand, so the loader trusts nothing:
every mistake becomes a :class:`TrackFileError` with a one-line message naming the file, the key
and the problem, never a traceback.

Example::

    >>> from pitboard.trackfile import load_track, track_names
    >>> track_names()
    ['usa', 'france', 'great_britain', 'italy', 'japan', 'mexico', 'netherlands', 'spain']
    >>> gb = load_track("GB")
    >>> gb.spaces, [c.at for c in gb.corners]
    (63, [15, 30, 37, 43, 48])
"""

from __future__ import annotations

import codecs
import difflib
import functools
import json
import math
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import NoReturn, TypeGuard

from pitboard.catalog import TRACKS
from pitboard.track import Corner, SpotPlace, Track
from pitboard.userfile import UserFileError, escape, parse_toml, read_user_file

__all__ = ["TrackFileError", "load_track", "load_track_file", "track_names", "track_ref"]

#: shipped tracks, in the order of the base box
_SHIPPED = TRACKS
_ALIASES = {"gb": "great_britain", "uk": "great_britain", "italia": "italy",
            "nederland": "netherlands", "holland": "netherlands", "the_netherlands": "netherlands",
            "nl": "netherlands", "espana": "spain", "españa": "spain", "méxico": "mexico"}

_TOP_KEYS = ("key", "name", "spaces", "laps", "heat", "stress", "grid", "flooded", "tunnels",
             "press_corners", "corners", "spots")
_TOP_OPTIONAL = frozenset({"flooded", "tunnels", "press_corners", "spots"})
_CORNER_KEYS = ("at", "limit", "racing_spot", "legends_line", "chicane", "aggressive",
                "double_aggressive", "x", "y")
_CORNER_OPTIONAL = frozenset({"chicane", "aggressive", "double_aggressive", "x", "y"})

MIN_SPACES = 10
MIN_GRID = 6  # one spot per car: the engine seats up to 6 cars
# Sanity caps far above any real board: they stop a typo (an extra 0) from making the engine
# allocate or loop for ever.
MAX_SPACES = 999
MAX_COUNT = 99
#: drawing coordinates: pixels of a board picture (BGA's are ~1700 x 1100), degrees of a heading
MAX_COORDINATE = 100_000.0
MAX_ANGLE = 360.0
#: a space this many times further from the one before it than the track's usual step is a
#: typo (an extra digit, a swapped x and y): the shipped boards stay under 2.7 (Japan's bridge)
MAX_STEP_RATIO = 4.0

_KEY_RE = re.compile(r"[a-z0-9_]+")
_RANGE_RE = re.compile(r"\s*(\d+)\s*-\s*(\d+)\s*")
_BARE_RE = re.compile(r"[A-Za-z0-9_-]+")
_TOML_ERROR_RE = re.compile(
    r"(?P<what>.*?)\s*\(at (?:line (?P<line>\d+), column (?P<col>\d+)|end of document)\)\s*$"
)


class TrackFileError(ValueError):
    """A track file (or track name) that cannot be used.

    ``str()`` is one line, ``<path>: <key>: <what is wrong>``; ``key`` is a dotted path into the
    file with 1-based indexes counted from the top of the file (``corners[2].limit`` is the second
    ``[[corners]]`` block), or ``line N, column M`` for a TOML syntax error.

    Example::

        >>> err = TrackFileError("usa.toml", "corners[2].limit", "must be at least 1, got 0")
        >>> str(err)
        'usa.toml: corners[2].limit: must be at least 1, got 0'
        >>> err.key
        'corners[2].limit'
    """

    def __init__(self, path: str | os.PathLike[str], key: str, problem: str) -> None:
        self.path = _one_line(os.fspath(path))
        self.key = _one_line(key)
        self.problem = _one_line(problem)
        # The three parts as args keep the exception picklable (pickle calls cls(*args)).
        super().__init__(self.path, self.key, self.problem)

    def __str__(self) -> str:
        return f"{self.path}: {self.key}: {self.problem}"


def track_names() -> list[str]:
    """Keys of the tracks shipped with pitboard: the base box's, then the expansions'.

    Example::

        >>> track_names()
        ['usa', 'france', 'great_britain', 'italy', 'japan', 'mexico', 'netherlands', 'spain']
    """
    return list(_SHIPPED)


def load_track(name: str | os.PathLike[str]) -> Track:
    """A shipped track by key (any case; aliases such as ``gb``, ``italia``, ``great-britain``,
    ``nederland``, ``españa``) or a track file by path (anything ending in ``.toml`` or
    containing a path separator).

    Shipped tracks are cached: the same :class:`Track` object comes back each time, so treat its
    ``places`` dict as read-only. Files given by path are read afresh on every call.

    Example::

        >>> load_track("Italia").laps
        3
        >>> load_track("great-britain") is load_track("gb")
        True
        >>> load_track("monaco")
        Traceback (most recent call last):
        ...
        pitboard.trackfile.TrackFileError: monaco: track: unknown track; known tracks: ...
    """
    if not isinstance(name, str) or _looks_like_path(name):
        return load_track_file(name)
    wanted = re.sub(r"[\s-]+", "_", name.strip().lower())
    wanted = _ALIASES.get(wanted, wanted)
    if wanted not in _SHIPPED:
        raise TrackFileError(
            name,
            "track",
            f"unknown track; known tracks: {', '.join(_SHIPPED)} "
            "(or the path of a .toml track file)",
        )
    return _load_shipped(wanted)


def track_ref(name: str) -> str:
    """What a race setup keeps to name the track ``name`` means: a shipped track's key, or a
    track file's path (so that a resumed race reads the same file again).

    Example::

        >>> track_ref("Italia")
        'italy'
    """
    track = load_track(name)
    return name if _looks_like_path(name) else track.key


def load_track_file(path: str | os.PathLike[str]) -> Track:
    """Read, check and build the track in the TOML file ``path``.

    Raises :class:`TrackFileError` for anything wrong with the file, including a missing file,
    text that is not UTF-8 and TOML syntax errors.

    Example::

        >>> track = load_track_file("firmware_py/pitboard/tracks/usa.toml")
        >>> track.grid[0], track.racing_spot(13)
        ((69, 1), 2)
    """
    try:
        data = read_user_file(path)
    except UserFileError as exc:
        raise TrackFileError(path, "file", exc.problem) from None
    return _parse(data, os.fspath(path))


@functools.cache  # the engine loads tracks often; shipped files do not change while running
def _load_shipped(key: str) -> Track:
    resource = resources.files("pitboard") / "tracks" / f"{key}.toml"
    source = str(resource)
    try:
        data = resource.read_bytes()
    except OSError as exc:
        raise TrackFileError(source, "file", f"cannot read ({exc.strerror or exc})") from None
    track = _parse(data, source)
    if track.key != key:
        # The engine and the saved settings refer to tracks by key; a renamed key would break them.
        raise TrackFileError(
            source, "key", f"must be {_show(key)} (the file name), got {_short(track.key)}"
        )
    return track


def _looks_like_path(name: str) -> bool:
    return name.lower().endswith(".toml") or "/" in name or os.sep in name


def _parse(data: bytes, source: str) -> Track:
    # Windows editors like to add a byte-order mark; tomllib would reject it.
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise TrackFileError(source, f"line {line}", "not UTF-8 text") from None
    try:
        doc = parse_toml(text)
    except tomllib.TOMLDecodeError as exc:
        where, what = _syntax_error(exc, text)
        raise TrackFileError(source, where, f"invalid TOML: {what}") from None
    return _Checker(source).track(doc)


def _syntax_error(exc: tomllib.TOMLDecodeError, text: str) -> tuple[str, str]:
    """Split tomllib's ``"Invalid value (at line 3, column 7)"`` into where and what."""
    message = str(exc)
    match = _TOML_ERROR_RE.match(message)
    if match is None:  # e.g. nesting too deep: tomllib gives no position
        return "file", message
    if match["line"] is None:
        # tomllib only says "end of document" (e.g. an unclosed array): still give a line.
        return f"line {max(1, len(text.splitlines()))}, end of file", match["what"]
    return f"line {match['line']}, column {match['col']}", match["what"]


class _Checker:
    """Validates a parsed document; every ``fail`` names the file and the key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> NoReturn:
        raise TrackFileError(self.source, key, problem)

    # -- the document ---------------------------------------------------------------------------

    def track(self, doc: Mapping[str, object]) -> Track:
        self.keys(doc, "", _TOP_KEYS, _TOP_OPTIONAL)
        key = self.string(doc, "key", "key")
        if not _KEY_RE.fullmatch(key):
            self.fail(
                "key", f"must be lower-case letters, digits and _ (like usa), got {_short(key)}"
            )
        name = self.string(doc, "name", "name")
        spaces = self.integer(doc, "spaces", "spaces", MIN_SPACES, MAX_SPACES)
        laps = self.integer(doc, "laps", "laps", 1, MAX_COUNT)
        heat = self.integer(doc, "heat", "heat", 0, MAX_COUNT)
        stress = self.integer(doc, "stress", "stress", 0, MAX_COUNT)
        corners = self.corners(doc["corners"], spaces)
        grid = self.grid(doc["grid"], spaces)
        flooded = self.space_set(doc, "flooded", spaces)
        tunnels = self.space_set(doc, "tunnels", spaces)
        places = self.spots(doc["spots"], spaces) if "spots" in doc else {}
        press = self.press_corners(doc, len(corners))
        return Track(
            key=key,
            name=name,
            spaces=spaces,
            laps=laps,
            heat=heat,
            stress=stress,
            corners=corners,
            grid=grid,
            places=places,
            flooded=flooded,
            tunnels=tunnels,
            press_corners=press,
        )

    def press_corners(self, doc: Mapping[str, object], corners: int) -> tuple[int, ...]:
        """The optional ``press_corners``: corner numbers (1-based, as the [[corners]] are
        listed), each once, the championship's Press Corner slots A, B, C... in order."""
        value = doc.get("press_corners", [])
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            self.fail("press_corners", f"must be an array of corner numbers, got "
                      f"{_describe(value)}")
        seen: set[int] = set()
        for i, n in enumerate(value, start=1):
            if not 1 <= n <= corners:
                self.fail(f"press_corners[{i}]", f"must be a corner number 1..{corners}, got {n}")
            if n in seen:
                self.fail(f"press_corners[{i}]", f"corner {n} is listed twice")
            seen.add(n)
        return tuple(value)

    def corners(self, value: object, spaces: int) -> tuple[Corner, ...]:
        if not isinstance(value, list):
            self.fail("corners", f"must be [[corners]] blocks, got {_describe(value)}")
        if not value:
            self.fail("corners", "needs at least one corner")
        corners: list[Corner] = []
        for i, table in enumerate(value, start=1):
            where = f"corners[{i}]"
            if not isinstance(table, dict):
                self.fail(where, f"must be a [[corners]] block (a table), got {_describe(table)}")
            self.keys(table, where, _CORNER_KEYS, _CORNER_OPTIONAL)
            at = self.integer(table, "at", f"{where}.at", 1, spaces - 1)
            if corners and at <= corners[-1].at:
                self.fail(
                    f"{where}.at",
                    f"must be greater than corners[{i - 1}].at ({corners[-1].at}): "
                    "corners go in board order from the finish line",
                )
            chicane = self.boolean(table, "chicane", f"{where}.chicane", default=False)
            if chicane and i == 1:
                self.fail(
                    f"{where}.chicane",
                    "the first corner line cannot be a chicane's second line "
                    "(chicane = true goes on the second line of the two)",
                )
            corners.append(
                Corner(
                    at=at,
                    limit=self.integer(table, "limit", f"{where}.limit", 1, MAX_COUNT),
                    racing_spot=self.integer(table, "racing_spot", f"{where}.racing_spot", 1, 2),
                    legends_line=self.integer(
                        table, "legends_line", f"{where}.legends_line", 1, spaces
                    ),
                    chicane=chicane,
                    aggressive=self.integer(
                        table, "aggressive", f"{where}.aggressive", 0, MAX_COUNT, default=0
                    ),
                    double_aggressive=self.integer(
                        table, "double_aggressive", f"{where}.double_aggressive", 0, MAX_COUNT,
                        default=0,
                    ),
                    x=self.number(table, "x", f"{where}.x", default=0.0),
                    y=self.number(table, "y", f"{where}.y", default=0.0),
                )
            )
        return tuple(corners)

    def grid(self, value: object, spaces: int) -> tuple[tuple[int, int], ...]:
        if not isinstance(value, list):
            self.fail("grid", f"must be an array of [space, spot], got {_describe(value)}")
        seen: dict[tuple[int, int], int] = {}
        for i, entry in enumerate(value, start=1):
            where = f"grid[{i}]"
            if not isinstance(entry, list) or len(entry) != 2 or not all(_is_int(v) for v in entry):
                self.fail(where, f"must be [space, spot] (two integers), got {_describe(entry)}")
            space, spot = entry
            if not 1 <= space <= spaces:
                self.fail(where, f"space must be between 1 and {spaces}, got {_short(space)}")
            if spot not in (1, 2):
                self.fail(where, f"spot must be 1 or 2, got {_short(spot)}")
            if (space, spot) in seen:
                self.fail(where, f"[{space}, {spot}] is already grid[{seen[(space, spot)]}]")
            seen[(space, spot)] = i
        if len(seen) < MIN_GRID:
            self.fail("grid", f"needs at least {MIN_GRID} spots (one per car), got {len(seen)}")
        return tuple(seen)

    def space_set(self, doc: Mapping[str, object], name: str, spaces: int) -> frozenset[int]:
        """An optional list of spaces: numbers and ``"FROM-TO"`` ranges (``["6-11", 39]``)."""
        if name not in doc:
            return frozenset()
        value = doc[name]
        shape = 'an array of space numbers and "FROM-TO" ranges, e.g. ["6-11", 40]'
        if not isinstance(value, list):
            self.fail(name, f"must be {shape}, got {_describe(value)}")
        found: dict[int, int] = {}
        for i, entry in enumerate(value, start=1):
            where = f"{name}[{i}]"
            if _is_int(entry):
                low = high = entry
            elif isinstance(entry, str) and (match := _RANGE_RE.fullmatch(entry)):
                low, high = int(match[1]), int(match[2])
                if low > high:
                    self.fail(where, f"range {_short(entry)} runs backwards (write {high}-{low})")
            else:
                self.fail(where, f"must be a space number or a range \"FROM-TO\", "
                                 f"got {_describe(entry)}")
            for space in (low, high):
                if not 1 <= space <= spaces:
                    self.fail(where, f"no such space {space} (the track has spaces 1..{spaces})")
            for space in range(low, high + 1):
                if space in found:
                    self.fail(where, f"space {space} is already in {name}[{found[space]}]")
                found[space] = i
        return frozenset(found)

    def spots(self, value: object, spaces: int) -> dict[tuple[int, int], SpotPlace]:
        if not isinstance(value, dict):
            self.fail("spots", f"must be a table ([spots]), got {_describe(value)}")
        places: dict[tuple[int, int], SpotPlace] = {}
        for name, pair in value.items():
            where = _subkey("spots", name)
            space = self.space_number(where, name, spaces)
            shape = "[[x, y, angle], [x, y, angle]] for spot 1 and spot 2"
            if not isinstance(pair, list) or len(pair) != 2:
                self.fail(where, f"must be {shape}, got {_describe(pair)}")
            for spot, triple in enumerate(pair, start=1):
                if not isinstance(triple, list) or len(triple) != 3:
                    self.fail(where, f"spot {spot} must be [x, y, angle], got {_describe(triple)}")
                x, y, angle = (
                    self.finite(where, f"spot {spot} {label}", v)
                    for label, v in zip(("x", "y", "angle"), triple, strict=True)
                )
                for label, v in (("x", x), ("y", y)):
                    if abs(v) > MAX_COORDINATE:
                        self.fail(where, f"spot {spot} {label} must be within "
                                         f"+-{MAX_COORDINATE:.0f}, got {_short(v)}")
                if abs(angle) > MAX_ANGLE:
                    self.fail(where, f"spot {spot} angle must be -360..360 degrees, "
                                     f"got {_short(angle)}")
                places[(space, spot)] = SpotPlace(x, y, angle)
            one, two = places[(space, 1)], places[(space, 2)]
            if (one.x, one.y) == (two.x, two.y):
                self.fail(where, "spot 1 and spot 2 are at the same place: "
                                 "they must be side by side")
        missing = [s for s in range(1, spaces + 1) if (s, 1) not in places]
        if missing:
            self.fail(
                "spots",
                f"no coordinates for {_spaces_list(missing)}; "
                "give every space or remove the whole [spots] table",
            )
        self.steps(places, spaces)
        return dict(sorted(places.items()))

    def steps(self, places: Mapping[tuple[int, int], SpotPlace], spaces: int) -> None:
        """Each space drawn where the one before it leads: a space far from its neighbour
        (an extra digit, x and y swapped) or on top of it is a mistake in the file."""

        def centre(space: int) -> tuple[float, float]:
            a, b = places[(space, 1)], places[(space, 2)]
            return (a.x + b.x) / 2, (a.y + b.y) / 2

        steps = []
        for space in range(1, spaces + 1):
            (x0, y0), (x1, y1) = centre(space - 1 if space > 1 else spaces), centre(space)
            steps.append(math.hypot(x1 - x0, y1 - y0))
        usual = sorted(steps)[len(steps) // 2]
        for space, step in enumerate(steps, start=1):
            if step == 0:
                self.fail(_subkey("spots", str(space)), f"at the same place as space "
                          f"{space - 1 if space > 1 else spaces}: each space needs its own")
        far = [step > MAX_STEP_RATIO * usual for step in steps]  # far[i]: into space i + 1
        # a space far from both neighbours is the mistake; else the space after a long step
        # (but for the step over the finish line: a hand-made drawing may leave it open)
        for both in (True, False):
            for i, step in enumerate(steps):
                if far[i] and (far[(i + 1) % spaces] if both else i > 0):
                    before = i if i > 0 else spaces
                    self.fail(_subkey("spots", str(i + 1)),
                              f"{step:.0f} from space {before}, where the track's usual step is "
                              f"{usual:.0f}: a typo in x or y?")

    def space_number(self, where: str, name: str, spaces: int) -> int:
        if not name.isascii() or not name.isdigit():
            self.fail(where, f"not a space number (expected 1..{spaces})")
        number = int(name)
        if str(number) != name:
            self.fail(where, f"write the space number without leading zeros ({number})")
        if not 1 <= number <= spaces:
            self.fail(where, f"no such space (the track has spaces 1..{spaces})")
        return number

    # -- single values --------------------------------------------------------------------------

    def keys(
        self,
        table: Mapping[str, object],
        where: str,
        allowed: Sequence[str],
        optional: frozenset[str],
    ) -> None:
        for name in table:
            if name not in allowed:
                close = difflib.get_close_matches(name, allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(allowed)}"
                self.fail(_subkey(where, name), f"unknown key ({hint})")
        for name in allowed:
            if name not in optional and name not in table:
                self.fail(_subkey(where, name), "required key is missing")

    def string(self, table: Mapping[str, object], name: str, where: str) -> str:
        value = table[name]
        if not isinstance(value, str):
            self.fail(where, f"must be a string, got {_describe(value)}")
        if not value.strip():
            self.fail(where, "must not be empty")
        if not value.isprintable():
            self.fail(where, f"must be one line of printable text, got {_short(value)}")
        return value

    def integer(
        self,
        table: Mapping[str, object],
        name: str,
        where: str,
        low: int,
        high: int,
        default: int | None = None,
    ) -> int:
        if name not in table and default is not None:
            return default
        value = table[name]
        if not _is_int(value):
            self.fail(where, f"must be an integer, got {_describe(value)}")
        if low <= value <= high:
            return value
        if (low, high) == (1, 2):
            self.fail(where, f"must be 1 or 2, got {_short(value)}")
        if value < low:
            self.fail(where, f"must be at least {low}, got {_short(value)}")
        self.fail(where, f"must be at most {high}, got {_short(value)}")

    def boolean(self, table: Mapping[str, object], name: str, where: str, default: bool) -> bool:
        value = table.get(name, default)
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false, got {_describe(value)}")
        return value

    def number(self, table: Mapping[str, object], name: str, where: str, default: float) -> float:
        return self.finite(where, "", table[name]) if name in table else default

    def finite(self, where: str, label: str, value: object) -> float:
        prefix = f"{label} " if label else ""
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(where, f"{prefix}must be a number, got {_describe(value)}")
        try:
            number = float(value)
        except OverflowError:  # tomllib keeps integers of any size
            self.fail(where, f"{prefix}is too large, got {_short(value)}")
        if not math.isfinite(number):
            self.fail(where, f"{prefix}must be a finite number, got {_short(value)}")
        return number


def _is_int(value: object) -> TypeGuard[int]:
    # TOML booleans arrive as Python bools, which are ints too.
    return isinstance(value, int) and not isinstance(value, bool)


def _describe(value: object) -> str:
    """A value's TOML type and spelling, e.g. ``string "two"``; long values are cut short."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, bool):
        kind = "boolean"
    elif isinstance(value, int):
        kind = "integer"
    elif isinstance(value, float):
        kind = "float"
    elif isinstance(value, str):
        kind = "string"
    elif isinstance(value, list):
        kind = "array"
    else:
        kind = "date/time"
    return f"{kind} {_short(value)}"


def _short(value: object) -> str:
    """:func:`_show`, cut to 40 characters so that messages stay one readable line."""
    text = _show(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _show(value: object, depth: int = 0) -> str:
    """``value`` written back as TOML (not Python: ``true``, ``"a"``), nesting cut at 3 levels."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, list):
        if depth >= 3:
            return "[...]"
        return "[" + ", ".join(_show(v, depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        if depth >= 3:
            return "{...}"
        items = (f"{_subkey('', str(k))} = {_show(v, depth + 1)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    return str(value)


def _subkey(parent: str, name: str) -> str:
    part = name if _BARE_RE.fullmatch(name) else json.dumps(name, ensure_ascii=False)
    return f"{parent}.{part}" if parent else part


def _spaces_list(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8])
    if len(numbers) == 1:
        return f"space {shown}"
    more = f", ... ({len(numbers)} spaces)" if len(numbers) > 8 else ""
    return f"spaces {shown}{more}"


def _one_line(text: str) -> str:
    return escape(text)
