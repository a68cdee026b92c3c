"""Tests for pitboard.trackfile: the shipped track files (numbers, grids, racing spots,
coordinates) and how tracks are named, found and cached (malformed files:
test_trackfile_errors.py)."""

from __future__ import annotations

import pickle
from importlib import resources
from pathlib import Path

import pytest

from pitboard.track import SpotPlace
from pitboard.trackfile import (
    TrackFileError,
    load_track,
    load_track_file,
    track_names,
)

TRACKS_DIR = Path(str(resources.files("pitboard") / "tracks"))

# Numbers from tracks.md (BGA data, cross-checked): key -> (spaces, laps, corners as
# (at, limit, racing_spot, legends_line)).
EXPECTED: dict[str, tuple[int, int, list[tuple[int, int, int, int]]]] = {
    "usa": (69, 2, [(12, 7, 2, 2), (33, 3, 2, 27), (49, 3, 2, 43), (57, 2, 1, 52)]),
    "france": (
        60,
        2,
        [(12, 5, 1, 4), (20, 2, 1, 15), (27, 4, 2, 20), (39, 3, 1, 33), (47, 4, 1, 40)],
    ),
    "great_britain": (
        63,
        2,
        [(15, 10, 1, 2), (30, 6, 1, 21), (37, 5, 2, 30), (43, 4, 2, 37), (48, 3, 1, 43)],
    ),
    "italy": (54, 3, [(10, 5, 1, 2), (19, 2, 2, 14), (26, 3, 1, 20)]),
    "japan": (60, 2, [(10, 4, 2, 3), (12, 4, 1, 10), (18, 2, 2, 13), (45, 5, 1, 37),
                      (53, 3, 1, 47)]),
    "mexico": (60, 3, [(14, 7, 1, 4), (19, 7, 2, 14), (38, 6, 2, 29), (44, 4, 1, 38),
                       (50, 2, 2, 45), (51, 2, 1, 50)]),
    "netherlands": (55, 3, [(9, 5, 1, 1), (13, 5, 2, 9), (16, 3, 1, 13), (26, 8, 2, 16),
                            (34, 4, 1, 27)]),
    "spain": (109, 1, [(11, 5, 1, 3), (15, 4, 1, 11), (29, 4, 2, 22), (32, 4, 1, 22),
                       (44, 2, 1, 39), (65, 5, 1, 57), (85, 2, 2, 80), (92, 3, 1, 86),
                       (95, 4, 2, 92), (98, 4, 1, 95), (103, 3, 1, 98)]),
}
#: (Heat, Stress) where a track differs from the usual 6 and 3; Japan's 7 is BGA's (a fan
#: dataset has 6: tracks.md)
HEAT_STRESS = {"japan": (7, 3), "mexico": (6, 2)}
#: corner lines (1-based, as printed) that are a chicane's second line (tracks.md)
CHICANES = {"japan": [2], "mexico": [2, 6], "netherlands": [2], "spain": [4, 10]}
BASE = ["usa", "france", "great_britain", "italy"]


# -- the shipped tracks ---------------------------------------------------------------------------


def test_track_names_are_the_base_tracks_then_the_expansions() -> None:
    assert track_names() == [*BASE, "japan", "mexico", "netherlands", "spain"]
    assert sorted(p.stem for p in TRACKS_DIR.glob("*.toml")) == sorted(track_names())


@pytest.mark.parametrize("key", list(EXPECTED))
def test_shipped_track_numbers(key: str) -> None:
    spaces, laps, corners = EXPECTED[key]
    track = load_track(key)
    assert track.key == key
    assert (track.spaces, track.laps) == (spaces, laps)
    assert (track.heat, track.stress) == HEAT_STRESS.get(key, (6, 3))
    got = [(c.at, c.limit, c.racing_spot, c.legends_line) for c in track.corners]
    assert got == corners
    chicanes = [i for i, c in enumerate(track.corners, start=1) if c.chicane]
    assert chicanes == CHICANES.get(key, [])  # none in the base game


def test_names_and_aggressive_chevrons() -> None:
    assert [load_track(k).name for k in track_names()] == [
        "USA", "France", "Great Britain", "Italy", "Japan", "Mexico", "Netherlands", "Spain",
    ]
    assert [c.aggressive for c in load_track("great_britain").corners] == [0, 1, 1, 1, 0]
    assert all(c.aggressive == 0 for c in load_track("usa").corners)
    assert [c.aggressive for c in load_track("spain").corners] == \
        [3, 0, 3, 0, 0, 0, 0, 2, 3, 1, 0]
    # the only double chevron: Netherlands corner 1
    doubles = {k: [c.double_aggressive for c in load_track(k).corners] for k in track_names()}
    assert {k: v for k, v in doubles.items() if any(v)} == {"netherlands": [1, 0, 0, 0, 0]}


def test_flooded_and_tunnel_spaces() -> None:
    japan, spain = load_track("japan"), load_track("spain")
    assert sorted(japan.flooded) == [*range(6, 12), *range(39, 46), *range(50, 56)]
    assert sorted(spain.tunnels) == [*range(17, 25), *range(38, 43), *range(46, 50),
                                     *range(62, 72), *range(80, 89)]
    assert (japan.features, spain.features) == (("flooded",), ("tunnels",))
    for key in track_names():
        if key not in ("japan", "spain"):
            assert load_track(key).features == (), key


def test_chicane_token_and_sector() -> None:
    mexico = load_track("mexico")  # lines after 14/19 and 50/51 are chicanes
    assert mexico.token_corners() == [0, 2, 3, 4]
    assert [mexico.token_corner(i) for i in range(6)] == [0, 0, 2, 3, 4, 4]
    # the sector after a chicane starts after its second line
    assert [mexico.token_sector_of(s) for s in (14, 15, 19, 20, 38, 39, 51, 52, 60, 1)] == \
        [4, 4, 4, 0, 0, 2, 3, 4, 4, 4]
    usa = load_track("usa")  # no chicane: the sector is the last corner line passed
    assert all(usa.token_sector_of(s) == usa.sector_of(s) for s in range(1, 70))


@pytest.mark.parametrize("key", list(EXPECTED))
def test_grid_is_the_last_spaces_pole_first(key: str) -> None:
    track = load_track(key)
    n = track.spaces
    assert track.grid[0] == (n, 1)
    assert len(track.grid) == 8
    assert len(set(track.grid)) == 8
    assert {space for space, _ in track.grid} == {n, n - 1, n - 2, n - 3}


def test_usa_racing_spot_per_space() -> None:
    usa = load_track("usa")
    # Before corner 1 (line after space 12) the last corner's spot applies.
    assert [usa.racing_spot(s) for s in range(1, 13)] == [1] * 12
    assert [usa.racing_spot(s) for s in range(13, 34)] == [2] * 21
    assert [usa.racing_spot(s) for s in range(34, 50)] == [2] * 16
    assert [usa.racing_spot(s) for s in range(50, 58)] == [2] * 8
    assert [usa.racing_spot(s) for s in range(58, 70)] == [1] * 12


@pytest.mark.parametrize("key", list(EXPECTED))
def test_racing_spot_follows_the_corner_before(key: str) -> None:
    track = load_track(key)
    corners = track.corners
    for space in range(1, track.spaces + 1):
        before = [c for c in corners if c.at < space]
        expected = (before[-1] if before else corners[-1]).racing_spot
        assert track.racing_spot(space) == expected, space
        assert corners[track.sector_of(space)].racing_spot == expected


@pytest.mark.parametrize("key", list(EXPECTED))
def test_every_spot_has_coordinates(key: str) -> None:
    track = load_track(key)
    want = {(s, p) for s in range(1, track.spaces + 1) for p in (1, 2)}
    assert set(track.places) == want
    assert all(isinstance(place, SpotPlace) for place in track.places.values())
    assert all(c.x > 0 and c.y > 0 for c in track.corners)


def test_some_coordinates_match_the_source() -> None:
    usa = load_track("usa")
    assert usa.places[(69, 1)] == SpotPlace(1208.0, 183.0, 2.0)
    assert usa.places[(1, 2)] == SpotPlace(1279.0, 228.0, 16.0)
    assert (usa.corners[0].x, usa.corners[0].y) == (1604.0, 948.0)


def test_files_note_the_disputed_values() -> None:
    text = (TRACKS_DIR / "great_britain.toml").read_text(encoding="utf-8")
    assert "49" in text.split("key =")[0]  # header mentions the other dataset's value
    japan = (TRACKS_DIR / "japan.toml").read_text(encoding="utf-8")
    assert "change heat to 6" in japan.split("key =")[0]
    assert "heat = 7  # BGA; a fan dataset has 6" in japan
    for key in track_names():
        header = (TRACKS_DIR / f"{key}.toml").read_text(encoding="utf-8").split("key =")[0]
        assert "Board Game Arena" in header
        assert "disagree" in header


# -- names, aliases, paths, cache -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("usa", "usa"),
        ("USA", "usa"),
        (" France ", "france"),
        ("great_britain", "great_britain"),
        ("Great-Britain", "great_britain"),
        ("great-britain", "great_britain"),
        ("Great Britain", "great_britain"),
        ("gb", "great_britain"),
        ("GB", "great_britain"),
        ("uk", "great_britain"),
        ("italy", "italy"),
        ("Italia", "italy"),
        ("Japan", "japan"),
        ("mexico", "mexico"),
        ("México", "mexico"),
        ("Netherlands", "netherlands"),
        ("Nederland", "netherlands"),
        ("the netherlands", "netherlands"),
        ("spain", "spain"),
        ("España", "spain"),
        ("espana", "spain"),
    ],
)
def test_aliases(name: str, key: str) -> None:
    assert load_track(name).key == key


def test_shipped_tracks_are_cached() -> None:
    assert load_track("gb") is load_track("great_britain")


def test_load_by_path(tmp_path: Path) -> None:
    source = TRACKS_DIR / "usa.toml"
    copy_ = tmp_path / "my_usa.toml"
    copy_.write_bytes(source.read_bytes())
    by_path = load_track(str(copy_))
    assert by_path == load_track("usa")
    assert by_path is not load_track("usa")
    assert load_track(copy_) == by_path  # a Path object works too
    assert load_track_file(copy_) == by_path


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(TrackFileError) as info:
        load_track("monaco")
    message = str(info.value)
    assert message.startswith("monaco: track: unknown track")
    for key in track_names():
        assert key in message
    assert "\n" not in message


def test_missing_path_is_a_track_file_error(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(TrackFileError) as info:
        load_track(str(path))
    assert str(info.value) == f"{path}: file: cannot read (No such file or directory)"


def test_directory_is_a_track_file_error(tmp_path: Path) -> None:
    with pytest.raises(TrackFileError) as info:
        load_track_file(tmp_path)
    assert str(info.value).startswith(f"{tmp_path}: file: not a regular file (a directory)")


def test_error_parts_and_pickling() -> None:
    err = TrackFileError("a.toml", "corners[2].at", "must be at least 1, got 0")
    assert str(err) == "a.toml: corners[2].at: must be at least 1, got 0"
    assert (err.path, err.key, err.problem) == (
        "a.toml",
        "corners[2].at",
        "must be at least 1, got 0",
    )
    assert isinstance(err, ValueError)
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == str(err)
    # one line, with the newline visible rather than lost (a value can carry one)
    assert str(TrackFileError("a\nb.toml", "k", "x\ny")) == "a\\nb.toml: k: x\\ny"
