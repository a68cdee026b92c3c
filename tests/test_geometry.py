"""Track geometry (pitboard.geometry) and its SVG drawing (pitboard.tracksvg, ``pitboard tracks
--svg``): every shipped track drawn from its file's coordinates, a file without them on a
generated outline with the same spaces and corners, the JSON a web page reads, and the SVG's
every mark, checked by parsing the document."""

from __future__ import annotations

import dataclasses
import json
import math
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import pytest

from pitboard.cli import EXIT_BAD_INPUT, main
from pitboard.geometry import GENERATED_LANE, GENERATED_STEP, Point, track_geometry
from pitboard.track import Track
from pitboard.trackfile import load_track, track_names
from pitboard.tracksvg import track_svg

SVG = "{http://www.w3.org/2000/svg}"
TRACKS_DIR = Path(str(resources.files("pitboard") / "tracks"))


def bare(key: str) -> Track:
    """A shipped track as a hand-made file without [spots] would load."""
    return dataclasses.replace(load_track(key), places={})


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def marks(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if cls in e.get("class", "").split()]


# ---------------------------------------------------------------- the geometry
@pytest.mark.parametrize("key", track_names())
@pytest.mark.parametrize("generated", [False, True], ids=["file", "generated"])
def test_every_space_two_spots_and_lines_between_spaces(key: str, generated: bool) -> None:
    track = bare(key) if generated else load_track(key)
    geo = track_geometry(track)
    n = track.spaces
    assert geo.generated is generated
    assert set(geo.spots) == {(s, p) for s in range(1, n + 1) for p in (1, 2)}
    if not generated:
        assert geo.spots == track.places  # the file's own coordinates, untouched
    # a line after space k crosses the track between the middles of spaces k and k + 1
    for k in (1, n // 2, n):
        line = geo.line_after(k)
        between = geo.space_centre(k).towards(geo.space_centre(k % n + 1), 0.5)
        assert line.mid.distance(between) < 0.2 * geo.lane
        assert line.a.distance(line.b) == pytest.approx(2 * geo.lane, rel=0.35)
    assert geo.finish_line == geo.line_after(n)
    assert [(c.number, c.at, c.limit, c.chicane) for c in geo.corners] == \
        [(i + 1, c.at, c.limit, c.chicane) for i, c in enumerate(track.corners)]
    for mark, corner in zip(geo.corners, track.corners, strict=True):
        assert mark.line == geo.line_after(corner.at)
        assert mark.legends == geo.line_after(corner.legends_line)
        assert len(mark.aggressive) == corner.aggressive
        assert mark.aggressive[-1:] in ((), (corner.at,))  # up to the space before the line


@pytest.mark.parametrize("key", ["usa", "spain"])
def test_generated_outline_is_an_even_closed_loop(key: str) -> None:
    geo = track_geometry(bare(key))
    n = geo.track.spaces
    steps = [geo.space_centre(s).distance(geo.space_centre(s % n + 1)) for s in range(1, n + 1)]
    assert max(steps) == pytest.approx(GENERATED_STEP, abs=0.5)  # over the finish line too
    assert min(steps) > 0.95 * GENERATED_STEP  # a chord of the half circles: barely shorter
    assert geo.lane == pytest.approx(GENERATED_LANE, abs=0.2)
    assert min(min(p.x, p.y) for p in geo.spots.values()) > 2 * GENERATED_LANE  # a margin
    # spot 1 on the left of the way the cars go (y down)
    for s in range(1, n + 1):
        a = math.radians(geo.spot(s, 1).angle)
        one, two = geo.spot_centre(s, 1), geo.spot_centre(s, 2)
        assert (one.x - two.x) * math.sin(a) - (one.y - two.y) * math.cos(a) > 0


@pytest.mark.parametrize("key", track_names())
def test_sectors_cover_the_lap_once_and_start_after_a_chicane(key: str) -> None:
    track = load_track(key)
    geo = track_geometry(track)
    covered = [s for sector in geo.sectors for s in sector.spaces]
    assert sorted(covered) == list(range(1, track.spaces + 1))
    assert [s.corner for s in geo.sectors] == track.token_corners()
    for sector in geo.sectors:
        first = track.corners[sector.corner]
        last_line = max(i for i in range(len(track.corners))
                         if track.token_corner(i) == sector.corner)
        assert sector.spaces[0] == track.corners[last_line].at % track.spaces + 1, first
    japan = track_geometry(load_track("japan"))
    (after_chicane,) = [s for s in japan.sectors if s.corner == 0]
    assert after_chicane.spaces[0] == 13  # not 11: the chicane's second line is after 12


def test_labels_stand_off_the_track() -> None:
    geo = track_geometry(load_track("usa"))
    centres = [geo.spot_centre(s, p) for s in range(1, 70) for p in (1, 2)]
    for space in range(1, 70):
        label = geo.beside(space, 1.05 * geo.lane)
        assert min(label.distance(c) for c in centres) > 0.45 * geo.lane, space


def test_json_for_a_web_page() -> None:
    data = track_geometry(load_track("netherlands")).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert len(data["spots"]) == 110 and data["spots"][0][:2] == [1, 1]
    assert data["racing_spots"][0] == load_track("netherlands").racing_spot(1)
    first = data["corners"][0]
    assert (first["at"], first["limit"], first["double_aggressive"]) == (9, 5, [9])
    assert first["aggressive"] == [7, 8, 9]
    assert [s["corner"] for s in data["sectors"]] == [1, 3, 4, 5]
    assert data["generated"] is False and len(data["finish"]) == 2


def test_point_helpers() -> None:
    assert Point(0, 0).distance(Point(3, 4)) == 5
    assert Point(0.4, -0.4).rounded() == Point(0.0, 0.0)


# ---------------------------------------------------------------- the SVG
@pytest.mark.parametrize("key", track_names())
def test_svg_draws_every_mark(key: str) -> None:
    track = load_track(key)
    root = parse(track_svg(track))
    spots = marks(root, "rect", "spot")
    assert len(spots) == 2 * track.spaces
    assert {(int(e.get("data-space", 0)), int(e.get("data-spot", 0))) for e in spots} == \
        set(track.places)
    racing = [e for e in spots if "racing" in e.get("class", "")]
    assert {int(e.get("data-space", 0)): int(e.get("data-spot", 0)) for e in racing} == \
        {s: track.racing_spot(s) for s in range(1, track.spaces + 1)}
    assert len([e for e in spots if "flooded" in e.get("class", "")]) == 2 * len(track.flooded)
    assert len([e for e in spots if "tunnel" in e.get("class", "")]) == 2 * len(track.tunnels)
    corners = marks(root, "line", "corner")
    assert [int(e.get("data-limit", 0)) for e in corners] == [c.limit for c in track.corners]
    signs = [t.text for t in marks(root, "text", "limit")]
    assert signs == [str(c.limit) for c in track.corners]
    assert len(marks(root, "line", "legends")) == len(track.corners)
    assert len(marks(root, "line", "finish")) == 1
    assert len(marks(root, "polyline", "road")) == len(track.token_corners())
    chevrons = marks(root, "polyline", "chevron")
    assert len(chevrons) == sum(c.aggressive + c.double_aggressive for c in track.corners)
    numbers = sorted(int(t.text or 0) for t in marks(root, "text", "number"))
    assert numbers == list(range(1, track.spaces + 1))
    assert sorted(int(t.text or 0) for t in marks(root, "text", "grid")) == \
        list(range(1, len(track.grid) + 1))
    assert root.findtext(f"{SVG}title") == track.name


def test_svg_of_a_file_without_spots_says_generated(tmp_path: Path) -> None:
    text = (TRACKS_DIR / "italy.toml").read_text(encoding="utf-8")
    path = tmp_path / "home.toml"
    path.write_text(text.split("\n[spots]\n")[0].replace('name = "Italy"',
                                                     'name = "Home <Ring> & Co"'))
    root = parse(track_svg(load_track(str(path))))
    assert len(marks(root, "rect", "spot")) == 108
    assert root.findtext(f"{SVG}title") == "Home <Ring> & Co"  # escaped, and read back
    title = [t.text or "" for t in marks(root, "text", "title")]
    assert "generated outline" in title[0]


def test_svg_is_the_same_twice() -> None:
    assert track_svg(load_track("spain")) == track_svg(track_geometry(load_track("spain")))


# ---------------------------------------------------------------- pitboard tracks --svg
def test_tracks_svg_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tracks", "--svg", "Japan"]) == 0
    out = capsys.readouterr().out
    assert parse(out).get("data-track") == "japan"


def test_tracks_svg_of_a_broken_file_is_one_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = (TRACKS_DIR / "usa.toml").read_text(encoding="utf-8")
    path = tmp_path / "typo.toml"
    path.write_text(text.replace('"12" = [[1568, 878,', '"12" = [[15680, 878,'))
    assert main(["tracks", "--svg", str(path)]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (
        f"pitboard: {path}: spots.12: 7046 from space 11, where the track's usual step is 70: "
        "a typo in x or y?")


def test_tracks_lists_every_shipped_track(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tracks"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == track_names()
    assert "Spain: 109 spaces, 1 lap," in lines[-1] and "tunnels 17-24" in lines[-1]
    assert "(chicanes 1-2, 5-6)" in lines[5]
