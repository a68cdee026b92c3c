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
}


# -- the shipped tracks ---------------------------------------------------------------------------


def test_track_names_are_the_base_tracks() -> None:
    assert track_names() == ["usa", "france", "great_britain", "italy"]
    assert sorted(p.stem for p in TRACKS_DIR.glob("*.toml")) == sorted(track_names())


@pytest.mark.parametrize("key", list(EXPECTED))
def test_shipped_track_numbers(key: str) -> None:
    spaces, laps, corners = EXPECTED[key]
    track = load_track(key)
    assert track.key == key
    assert (track.spaces, track.laps, track.heat, track.stress) == (spaces, laps, 6, 3)
    got = [(c.at, c.limit, c.racing_spot, c.legends_line) for c in track.corners]
    assert got == corners
    assert not any(c.chicane for c in track.corners)  # no chicanes in the base game


def test_names_and_aggressive_chevrons() -> None:
    assert [load_track(k).name for k in track_names()] == [
        "USA",
        "France",
        "Great Britain",
        "Italy",
    ]
    assert [c.aggressive for c in load_track("great_britain").corners] == [0, 1, 1, 1, 0]
    assert all(c.aggressive == 0 for c in load_track("usa").corners)


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


def test_gb_file_notes_the_disputed_corner() -> None:
    text = (TRACKS_DIR / "great_britain.toml").read_text(encoding="utf-8")
    assert "49" in text.split("key =")[0]  # header mentions the other dataset's value
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
