"""Tests for pitboard.trackfile's error messages: a small valid hand-made track, each broken
variant of it answered by one line naming the file and the field, and fuzzing (whatever a file
holds, the loader answers with a Track or a TrackFileError)."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitboard.track import SpotPlace, Track
from pitboard.trackfile import (
    TrackFileError,
    _Checker,
    _parse,
    load_track,
    load_track_file,
)

# -- a small valid hand-made track, and broken variants of it ------------------------------------

Doc = dict[
    str, Any
]  # {"top": {key: raw TOML}, "corners": [{key: raw TOML}], "spots": {...} | None}


def base_doc() -> Doc:
    return {
        "top": {
            "key": '"test"',
            "name": '"Test Ring"',
            "spaces": "12",
            "laps": "2",
            "heat": "6",
            "stress": "3",
            "grid": "[[12, 1], [12, 2], [11, 1], [11, 2], [10, 1], [10, 2]]",
        },
        "corners": [
            {"at": "3", "limit": "4", "racing_spot": "2", "legends_line": "1"},
            {
                "at": "8",
                "limit": "2",
                "racing_spot": "1",
                "legends_line": "6",
                "chicane": "true",
                "aggressive": "1",
                "x": "10.5",
                "y": "20",
            },
        ],
        "spots": {f'"{s}"': f"[[{s}, 0, 90], [{s}, 10, -90.5]]" for s in range(1, 13)},
    }


def render(doc: Doc) -> str:
    lines = ["# a hand-made test track"]
    lines += [f"{k} = {v}" for k, v in doc["top"].items()]
    for corner in doc["corners"]:
        lines += ["", "[[corners]]"] + [f"{k} = {v}" for k, v in corner.items()]
    if doc["spots"] is not None:
        lines += ["", "[spots]"] + [f"{k} = {v}" for k, v in doc["spots"].items()]
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, doc: Doc) -> Path:
    path = tmp_path / "test.toml"
    path.write_text(render(doc), encoding="utf-8")
    return path


def test_hand_made_track_loads(tmp_path: Path) -> None:
    track = load_track_file(write(tmp_path, base_doc()))
    assert isinstance(track, Track)
    assert (track.key, track.name, track.spaces, track.laps) == ("test", "Test Ring", 12, 2)
    second = track.corners[1]
    assert (second.chicane, second.aggressive, second.x, second.y) == (True, 1, 10.5, 20.0)
    assert track.corners[0].x == 0.0 and not track.corners[0].chicane
    assert track.places[(5, 2)] == SpotPlace(5.0, 10.0, -90.5)
    assert [track.racing_spot(s) for s in (1, 3, 4, 8, 9, 12)] == [1, 1, 2, 2, 1, 1]


def test_flooded_tunnels_and_double_chevrons_load(tmp_path: Path) -> None:
    doc = base_doc()
    doc["top"]["flooded"] = '["2-4", 9, " 11 - 12 "]'
    doc["top"]["tunnels"] = "[6]"
    doc["corners"][1]["double_aggressive"] = "1"
    track = load_track_file(write(tmp_path, doc))
    assert sorted(track.flooded) == [2, 3, 4, 9, 11, 12]
    assert track.tunnels == frozenset({6})
    assert [c.double_aggressive for c in track.corners] == [0, 1]
    assert track.features == ("flooded", "tunnels")


def test_spots_table_is_optional(tmp_path: Path) -> None:
    doc = base_doc()
    doc["spots"] = None
    track = load_track_file(write(tmp_path, doc))
    assert track.places == {}
    assert track.racing_spot(4) == 2


def test_longer_grid_is_kept_as_given(tmp_path: Path) -> None:
    doc = base_doc()
    doc["top"]["grid"] = (
        "[" + ", ".join(f"[{s}, {p}]" for s in (12, 11, 10, 9, 8) for p in (1, 2)) + "]"
    )
    track = load_track_file(write(tmp_path, doc))
    assert len(track.grid) == 10
    assert track.grid[-1] == (8, 2)


def test_bom_and_crlf_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "windows.toml"
    path.write_bytes(b"\xef\xbb\xbf" + render(base_doc()).replace("\n", "\r\n").encode())
    assert load_track_file(path).spaces == 12


Mutation = Callable[[Doc], None]


def set_top(key: str, value: str) -> Mutation:
    return lambda doc: doc["top"].__setitem__(key, value)


def del_top(key: str) -> Mutation:
    return lambda doc: doc["top"].pop(key)


def set_corner(index: int, key: str, value: str) -> Mutation:
    return lambda doc: doc["corners"][index].__setitem__(key, value)


def del_corner(index: int, key: str) -> Mutation:
    return lambda doc: doc["corners"][index].pop(key)


def set_spot(name: str, value: str) -> Mutation:
    return lambda doc: doc["spots"].__setitem__(name, value)


def del_spot(name: str) -> Mutation:
    return lambda doc: doc["spots"].pop(name)


def replace_section(section: str, top_value: str | None) -> Mutation:
    """Drop [[corners]] or [spots] and optionally give that key as a top-level value instead."""

    def mutate(doc: Doc) -> None:
        doc[section] = [] if section == "corners" else None
        if top_value is not None:
            doc["top"][section] = top_value

    return mutate


def both(first: Mutation, second: Mutation) -> Mutation:
    def mutate(doc: Doc) -> None:
        first(doc)
        second(doc)

    return mutate


BAD_CASES: list[tuple[str, Mutation, str, str]] = [
    # top-level keys
    ("unknown-key", set_top("lapz", "2"), "lapz", "unknown key (did you mean 'laps'?)"),
    ("unknown-key-far", set_top("colour", '"red"'), "colour", "allowed: key, name, spaces"),
    ("odd-key", set_top('"my key"', "1"), '"my key"', "unknown key"),
    ("missing-key", del_top("key"), "key", "required key is missing"),
    ("missing-heat", del_top("heat"), "heat", "required key is missing"),
    ("missing-grid", del_top("grid"), "grid", "required key is missing"),
    ("missing-corners", replace_section("corners", None), "corners", "required key is missing"),
    ("key-type", set_top("key", "5"), "key", "must be a string, got integer 5"),
    ("key-shape", set_top("key", '"Test Ring"'), "key", "lower-case letters"),
    ("name-empty", set_top("name", '"  "'), "name", "must not be empty"),
    ("name-newline", set_top("name", '"Test\\nRing"'), "name", "one line"),
    ("spaces-string", set_top("spaces", '"12"'), "spaces", 'must be an integer, got string "12"'),
    ("spaces-float", set_top("spaces", "12.0"), "spaces", "must be an integer, got float 12.0"),
    ("spaces-bool", set_top("spaces", "true"), "spaces", "must be an integer, got boolean true"),
    ("spaces-small", set_top("spaces", "9"), "spaces", "must be at least 10, got 9"),
    ("spaces-huge", set_top("spaces", "100000"), "spaces", "must be at most 999"),
    ("laps-zero", set_top("laps", "0"), "laps", "must be at least 1, got 0"),
    ("laps-huge", set_top("laps", "9" * 60), "laps", "must be at most 99, got " + "9" * 37 + "..."),
    ("heat-negative", set_top("heat", "-1"), "heat", "must be at least 0, got -1"),
    ("stress-negative", set_top("stress", "-2"), "stress", "must be at least 0, got -2"),
    ("stress-date", set_top("stress", "2024-01-01"), "stress", "must be an integer, got date"),
    # corners
    ("corners-int", replace_section("corners", "3"), "corners", "must be [[corners]] blocks"),
    ("corners-table", replace_section("corners", "{ at = 3 }"), "corners", "got a table"),
    ("corners-empty", replace_section("corners", "[]"), "corners", "needs at least one corner"),
    (
        "corners-not-tables",
        replace_section("corners", "[1, 2]"),
        "corners[1]",
        "must be a [[corners]] block",
    ),
    ("corner-unknown", set_corner(0, "speed", "4"), "corners[1].speed", "unknown key"),
    ("corner-missing", del_corner(1, "limit"), "corners[2].limit", "required key is missing"),
    (
        "corner-missing-spot",
        del_corner(0, "racing_spot"),
        "corners[1].racing_spot",
        "required key is missing",
    ),
    ("at-zero", set_corner(0, "at", "0"), "corners[1].at", "must be at least 1, got 0"),
    ("at-finish", set_corner(1, "at", "12"), "corners[2].at", "must be at most 11, got 12"),
    (
        "at-same",
        set_corner(1, "at", "3"),
        "corners[2].at",
        "must be greater than corners[1].at (3)",
    ),
    ("at-back", set_corner(1, "at", "2"), "corners[2].at", "board order"),
    ("at-string", set_corner(0, "at", '"3"'), "corners[1].at", "must be an integer, got string"),
    ("limit-zero", set_corner(0, "limit", "0"), "corners[1].limit", "must be at least 1, got 0"),
    (
        "spot-three",
        set_corner(0, "racing_spot", "3"),
        "corners[1].racing_spot",
        "must be 1 or 2, got 3",
    ),
    (
        "spot-zero",
        set_corner(1, "racing_spot", "0"),
        "corners[2].racing_spot",
        "must be 1 or 2, got 0",
    ),
    ("legends-off", set_corner(0, "legends_line", "13"), "corners[1].legends_line", "at most 12"),
    ("legends-zero", set_corner(0, "legends_line", "0"), "corners[1].legends_line", "at least 1"),
    (
        "chicane-int",
        set_corner(1, "chicane", "1"),
        "corners[2].chicane",
        "must be true or false, got integer 1",
    ),
    ("aggressive-neg", set_corner(1, "aggressive", "-1"), "corners[2].aggressive", "at least 0"),
    (
        "x-string",
        set_corner(1, "x", '"left"'),
        "corners[2].x",
        'must be a number, got string "left"',
    ),
    ("y-bool", set_corner(1, "y", "false"), "corners[2].y", "must be a number, got boolean false"),
    ("x-nan", set_corner(1, "x", "nan"), "corners[2].x", "must be a finite number, got nan"),
    # grid
    ("grid-string", set_top("grid", '"pole"'), "grid", "must be an array of [space, spot]"),
    ("grid-empty", set_top("grid", "[]"), "grid", "needs at least 6 spots (one per car), got 0"),
    (
        "grid-short",
        set_top("grid", "[[12, 1], [12, 2], [11, 1], [11, 2], [10, 1]]"),
        "grid",
        "got 5",
    ),
    (
        "grid-space-off",
        set_top("grid", "[[13, 1]]"),
        "grid[1]",
        "space must be between 1 and 12, got 13",
    ),
    ("grid-space-zero", set_top("grid", "[[12, 1], [0, 1]]"), "grid[2]", "got 0"),
    ("grid-spot", set_top("grid", "[[12, 1], [12, 3]]"), "grid[2]", "spot must be 1 or 2, got 3"),
    (
        "grid-dup",
        set_top("grid", "[[12, 1], [12, 2], [12, 1]]"),
        "grid[3]",
        "[12, 1] is already grid[1]",
    ),
    ("grid-one-number", set_top("grid", "[[12]]"), "grid[1]", "must be [space, spot]"),
    ("grid-three-numbers", set_top("grid", "[[12, 1, 1]]"), "grid[1]", "must be [space, spot]"),
    ("grid-bool", set_top("grid", "[[12, true]]"), "grid[1]", "got array [12, true]"),
    ("grid-flat", set_top("grid", "[12, 1]"), "grid[1]", "got integer 12"),
    # spots
    (
        "spots-int",
        replace_section("spots", "3"),
        "spots",
        "must be a table ([spots]), got integer 3",
    ),
    (
        "spots-empty",
        replace_section("spots", "{}"),
        "spots",
        "spaces 1, 2, 3, 4, 5, 6, 7, 8, ... (12 spaces)",
    ),
    ("spots-missing", del_spot('"5"'), "spots", "no coordinates for space 5;"),
    ("spots-missing-two", both(del_spot('"5"'), del_spot('"9"')), "spots", "spaces 5, 9;"),
    ("spots-extra", set_spot('"13"', "[[1, 2, 3], [4, 5, 6]]"), "spots.13", "no such space"),
    ("spots-zero", set_spot('"0"', "[[1, 2, 3], [4, 5, 6]]"), "spots.0", "no such space"),
    (
        "spots-leading-zero",
        both(del_spot('"5"'), set_spot('"05"', "[[1, 2, 3], [4, 5, 6]]")),
        "spots.05",
        "without leading zeros",
    ),
    ("spots-word", set_spot("five", "[[1, 2, 3], [4, 5, 6]]"), "spots.five", "not a space number"),
    (
        "spots-unicode-digit",
        set_spot('"٥"', "[[1, 2, 3], [4, 5, 6]]"),
        'spots."٥"',
        "not a space number",
    ),
    (
        "spots-one-spot",
        set_spot('"5"', "[[1, 2, 3]]"),
        "spots.5",
        "must be [[x, y, angle], [x, y, angle]]",
    ),
    ("spots-table", set_spot('"5"', "{ x = 1 }"), "spots.5", "got a table"),
    (
        "spots-short",
        set_spot('"5"', "[[1, 2, 3], [1, 2]]"),
        "spots.5",
        "spot 2 must be [x, y, angle]",
    ),
    (
        "spots-string",
        set_spot('"5"', '[[1, "a", 3], [1, 2, 3]]'),
        "spots.5",
        'spot 1 y must be a number, got string "a"',
    ),
    (
        "spots-inf",
        set_spot('"5"', "[[1, 2, 3], [1, 2, inf]]"),
        "spots.5",
        "spot 2 angle must be a finite number",
    ),
    (
        "spots-huge-int",
        set_spot('"5"', "[[1, 2, 3], [1, 1" + "0" * 400 + ", 3]]"),
        "spots.5",
        "spot 2 y is too large, got 1000",
    ),
    # drawing coordinates that load but cannot be right
    ("spots-angle", set_spot('"5"', "[[5, 0, 400], [5, 10, 0]]"), "spots.5",
     "spot 1 angle must be -360..360 degrees, got 400.0"),
    ("spots-far", set_spot('"5"', "[[1e6, 0, 0], [5, 10, 0]]"), "spots.5",
     "spot 1 x must be within +-100000, got 1000000.0"),
    ("spots-same-place", set_spot('"5"', "[[5, 0, 0], [5, 0, 7]]"), "spots.5",
     "spot 1 and spot 2 are at the same place: they must be side by side"),
    ("spots-on-top", set_spot('"5"', "[[4, 0, 0], [4, 10, 0]]"), "spots.5",
     "at the same place as space 4: each space needs its own"),
    ("spots-typo", set_spot('"5"', "[[50, 0, 0], [50, 10, 0]]"), "spots.5",
     "46 from space 4, where the track's usual step is 1: a typo in x or y?"),
    ("spots-typo-first", set_spot('"1"', "[[80, 0, 0], [80, 10, 0]]"), "spots.1",
     "68 from space 12, where the track's usual step is 1"),
    # flooded and tunnel spaces
    ("flooded-string", set_top("flooded", '"6-11"'), "flooded",
     'must be an array of space numbers and "FROM-TO" ranges'),
    ("flooded-dots", set_top("flooded", '["6..11"]'), "flooded[1]",
     'must be a space number or a range "FROM-TO", got string "6..11"'),
    ("flooded-float", set_top("flooded", "[2, 1.5]"), "flooded[2]", "got float 1.5"),
    ("flooded-back", set_top("flooded", '["11-6"]'), "flooded[1]",
     'range "11-6" runs backwards (write 6-11)'),
    ("flooded-off", set_top("flooded", '["10-13"]'), "flooded[1]",
     "no such space 13 (the track has spaces 1..12)"),
    ("flooded-zero", set_top("flooded", "[0]"), "flooded[1]", "no such space 0"),
    ("tunnels-twice", set_top("tunnels", '["2-4", 3]'), "tunnels[2]",
     "space 3 is already in tunnels[1]"),
    ("tunnel-typo", set_top("tunnel", "[3]"), "tunnel", "unknown key (did you mean 'tunnels'?)"),
    # chevrons and chicanes
    ("double-neg", set_corner(1, "double_aggressive", "-1"), "corners[2].double_aggressive",
     "must be at least 0, got -1"),
    ("chicane-first", set_corner(0, "chicane", "true"), "corners[1].chicane",
     "the first corner line cannot be a chicane's second line"),
]


@pytest.mark.parametrize(
    ("mutate", "key", "problem"),
    [case[1:] for case in BAD_CASES],
    ids=[case[0] for case in BAD_CASES],
)
def test_malformed_file(tmp_path: Path, mutate: Mutation, key: str, problem: str) -> None:
    doc = base_doc()
    mutate(doc)
    path = write(tmp_path, doc)
    with pytest.raises(TrackFileError) as info:
        load_track_file(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}: "), message
    assert problem in message, message
    assert info.value.key == key


def bad_text(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "bad.toml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    with pytest.raises(TrackFileError) as info:
        load_track(str(path))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return message[len(f"{path}: ") :]


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    text = render(base_doc()).replace("laps = 2", "laps = = 2")
    assert bad_text(tmp_path, text) == "line 5, column 8: invalid TOML: Invalid value"


def test_toml_error_at_end_of_file_still_gives_a_line(tmp_path: Path) -> None:
    text = 'key = "x"\nname = "y"\ngrid = [[12, 1],\n'
    assert bad_text(tmp_path, text) == "line 3, end of file: invalid TOML: Invalid value"


def test_toml_duplicate_table(tmp_path: Path) -> None:
    text = render(base_doc()) + "\n[spots]\n"
    assert "invalid TOML: Cannot declare ('spots',) twice" in bad_text(tmp_path, text)


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    data = render(base_doc()).encode().replace(b"Test Ring", b"Test \xff Ring")
    assert bad_text(tmp_path, data) == "line 3: not UTF-8 text"


def test_deep_nesting_is_a_track_file_error(tmp_path: Path) -> None:
    text = "grid = " + "[" * 5000 + "]" * 5000 + "\n"
    assert bad_text(tmp_path, text) == "file: invalid TOML: arrays or tables nested too deeply"


def test_long_values_are_cut_short(tmp_path: Path) -> None:
    doc = base_doc()
    doc["top"]["name"] = '"' + "x" * 200 + '\\n"'
    message = bad_text(tmp_path, render(doc))
    assert message.startswith('name: must be one line of printable text, got "xxx')
    assert len(message) < 120


def test_empty_file_lists_the_first_missing_key(tmp_path: Path) -> None:
    assert bad_text(tmp_path, "") == "key: required key is missing"


# -- fuzzing: whatever a file holds, the loader answers with a Track or a TrackFileError ----------

toml_values = st.recursive(
    st.one_of(
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20) | st.just(10**400),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=5),
        st.datetimes(),
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)

PATHS: list[tuple[Any, ...]] = [
    *[
        (k,)
        for k in ("key", "name", "spaces", "laps", "heat", "stress", "grid", "corners", "spots",
                  "flooded", "tunnels")
    ],
    *[("corners", 1, k) for k in ("at", "limit", "racing_spot", "legends_line", "chicane", "x",
                                  "double_aggressive")],
    ("corners", 0),
    ("grid", 2),
    ("grid", 2, 0),
    ("spots", "3"),
    ("spots", "3", 1),
    ("spots", "3", 1, 2),
    ("spots", "99"),
    ("extra",),
]


def _valid_parsed() -> dict[str, Any]:
    return tomllib.loads(render(base_doc()))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), value=toml_values, delete=st.booleans())
def test_fuzz_values(path: tuple[Any, ...], value: object, delete: bool) -> None:
    doc = copy.deepcopy(_valid_parsed())
    parent: Any = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if delete and ((isinstance(parent, dict) and last in parent) or isinstance(parent, list)):
        del parent[last]
    else:
        parent[last] = value
    try:
        result = _Checker("fuzz.toml").track(doc)
    except TrackFileError as err:
        assert str(err).startswith("fuzz.toml: ")
        assert "\n" not in str(err)
    else:
        assert isinstance(result, Track)


@settings(max_examples=200)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_fuzz_bytes(data: bytes) -> None:
    with pytest.raises(TrackFileError):
        _parse(data, "fuzz.toml")
