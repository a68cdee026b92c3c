"""A track drawn as SVG, so an owner can check an edited track file (``pitboard tracks --svg``).

It draws what :mod:`pitboard.geometry` gives: every space with both its spots (the racing-line
spot darker, flooded spaces blue, tunnel spaces grey, the grid numbered), space numbers, the
finish line, each corner line in red with its speed limit, the Legends line of each corner
(dashed), the Aggressive-Legends chevrons before a corner, and each sector's number and
racing-line spot. Every mark carries a class (``spot``, ``corner``, ``legends``...) and a
``data-`` attribute or two, so a test or a style sheet can find it.

Example::

    >>> from pitboard.trackfile import load_track
    >>> svg = track_svg(load_track("usa"))
    >>> svg.startswith("<svg"), svg.count('class="spot'), svg.count('class="corner"')
    (True, 138, 4)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from xml.sax.saxutils import escape, quoteattr

from .geometry import Point, Segment, TrackGeometry, track_geometry
from .track import Track

_STYLE = """
.board { fill: #f4f1ea; }
.spot { fill: #ffffff; stroke: #5b5b5b; stroke-width: 1.5; }
.spot.racing { fill: #d9d4c7; }
.spot.flooded { fill: #9cc7ec; }
.spot.flooded.racing { fill: #6fa8d8; }
.spot.tunnel { fill: #9a9a9a; }
.spot.tunnel.racing { fill: #7a7a7a; }
.road { fill: none; stroke-linecap: round; stroke-linejoin: round; opacity: 0.3; }
.road.s0 { stroke: #c47f1a; } .road.s1 { stroke: #2f7d4a; } .road.s2 { stroke: #7a4fb0; }
.finish { stroke: #000000; stroke-width: 9; }
.finish-check { stroke: #ffffff; stroke-width: 9; }
.corner { stroke: #d0021b; stroke-width: 5; stroke-linecap: round; }
.corner-sign { fill: #d0021b; stroke: #ffffff; stroke-width: 2; }
.legends { stroke: #1f5fbf; stroke-width: 3; stroke-dasharray: 6 4; }
.chevron { fill: none; stroke: #e08a00; stroke-width: 3; }
text { font-family: sans-serif; text-anchor: middle; dominant-baseline: central; }
.limit { fill: #ffffff; font-weight: bold; }
.number { fill: #6b6b6b; }
.grid { fill: #000000; font-weight: bold; }
.label { fill: #1f5fbf; }
.sector { fill: #2f2f2f; }
.title { text-anchor: start; fill: #000000; font-weight: bold; }
.key { text-anchor: start; fill: #3b3b3b; }
"""


def track_svg(track: Track | TrackGeometry) -> str:
    """The SVG document (a string) of ``track`` or of a geometry already built."""
    geo = track if isinstance(track, TrackGeometry) else track_geometry(track)
    return "\n".join(_document(geo)) + "\n"


def _n(value: float) -> str:
    """A coordinate, short: 1 decimal at most, no trailing zeros."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _line(seg: Segment, cls: str, extra: str = "") -> str:
    return (f'<line class="{cls}" x1="{_n(seg.a.x)}" y1="{_n(seg.a.y)}" x2="{_n(seg.b.x)}" '
            f'y2="{_n(seg.b.y)}"{extra}/>')


def _text(p: Point, text: str, cls: str, size: float, extra: str = "") -> str:
    return (f'<text class="{cls}" x="{_n(p.x)}" y="{_n(p.y)}" font-size="{_n(size)}"{extra}>'
            f"{escape(text)}</text>")


def _document(geo: TrackGeometry) -> Iterator[str]:
    track = geo.track
    left, top, right, bottom = geo.bounds
    lane = geo.lane
    font = 0.42 * lane
    head = 1.6 * lane  # title above, key below
    top -= head
    bottom += head
    width, height = right - left, bottom - top
    yield (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(left)} {_n(top)} '
           f'{_n(width)} {_n(height)}" width="{_n(width)}" height="{_n(height)}" '
           f'data-track={quoteattr(track.key)}>')
    yield f"<title>{escape(track.name)}</title>"
    yield f"<style>{_STYLE}</style>"
    yield (f'<rect class="board" x="{_n(left)}" y="{_n(top)}" width="{_n(width)}" '
           f'height="{_n(height)}"/>')
    about = (f"{track.name}: {track.spaces} spaces, {track.laps} lap"
             f"{'s' if track.laps != 1 else ''}, Heat {track.heat}, Stress {track.stress}")
    if geo.generated:
        about += " (generated outline: the file gives no [spots])"
    yield _text(Point(left + lane, top + head / 2), about, "title", 0.6 * lane)
    yield from _sectors(geo)
    yield from _spots(geo, font)
    yield from _sector_labels(geo, font)
    yield from _chevrons(geo)
    for c in geo.corners:
        yield _line(c.legends, "legends", f' data-corner="{c.number}"')
        yield _text(c.legends.a.towards(c.legends.b, -0.25), f"L{c.number}", "label", font)
    yield from _finish(geo)
    for c in geo.corners:
        yield _line(c.line, "corner", f' data-corner="{c.number}" data-limit="{c.limit}"')
    for c in geo.corners:  # the signs last: on top of everything
        radius = 0.55 * lane
        yield (f'<circle class="corner-sign" cx="{_n(c.label.x)}" cy="{_n(c.label.y)}" '
               f'r="{_n(radius)}" data-corner="{c.number}"/>')
        yield _text(c.label, str(c.limit), "limit", 0.7 * lane)
        name = f"corner {c.number}" + (" (chicane)" if c.chicane else "")
        yield _text(Point(c.label.x, c.label.y + radius + 0.4 * lane), name, "label",
                    0.8 * font)
    key = ("red: corner line and speed limit; blue dashes: Legends line (Ln: corner n's); "
           "orange: Aggressive-Legends chevrons; darker spot: racing line; blue: flooded "
           "space; grey: tunnel space; S: sector (bands of colour); black and white: finish")
    yield _text(Point(left + lane, bottom - head / 2), key, "key", 0.75 * font)
    yield "</svg>"


def _spots(geo: TrackGeometry, font: float) -> Iterator[str]:
    track = geo.track
    length, width = 0.92 * geo.step, 0.92 * geo.lane
    grid = {place: i for i, place in enumerate(track.grid, start=1)}
    for space in range(1, track.spaces + 1):
        racing = track.racing_spot(space)
        kind = " flooded" if space in track.flooded else " tunnel" if space in track.tunnels \
            else ""
        for spot in (1, 2):
            p = geo.spot(space, spot)
            cls = "spot" + kind + (" racing" if spot == racing else "")
            yield (f'<rect class="{cls}" x="{_n(-length / 2)}" y="{_n(-width / 2)}" '
                   f'width="{_n(length)}" height="{_n(width)}" rx="{_n(width / 6)}" '
                   f'transform="translate({_n(p.x)} {_n(p.y)}) rotate({_n(p.angle)})" '
                   f'data-space="{space}" data-spot="{spot}"/>')
            if (space, spot) in grid:
                yield _text(Point(p.x, p.y), str(grid[(space, spot)]), "grid", font)
        yield _text(geo.beside(space, 1.05 * geo.lane), str(space), "number", 0.8 * font)


def _sectors(geo: TrackGeometry) -> Iterator[str]:
    """Each sector as a band of colour under its spaces (two colours, in turn)."""
    last = len(geo.sectors) - 1
    for i, sector in enumerate(geo.sectors):
        points = " ".join(f"{_n(p.x)},{_n(p.y)}" for p in
                          (geo.space_centre(s) for s in sector.spaces))
        colour = 2 if i == last and i % 2 == 0 and i else i % 2  # never two alike in a row
        yield (f'<polyline class="road s{colour}" points="{points}" '
               f'stroke-width="{_n(2.5 * geo.lane)}" data-sector="{i + 1}" '
               f'data-corner="{sector.corner + 1}"/>')


def _sector_labels(geo: TrackGeometry, font: float) -> Iterator[str]:
    for i, sector in enumerate(geo.sectors):
        yield _text(sector.label, f"S{i + 1} (racing spot {sector.racing_spot})", "sector",
                    font)


def _chevrons(geo: TrackGeometry) -> Iterator[str]:
    """A chevron beside each space the corner's Aggressive-Legends marks cover (two for a
    double chevron), outside the track, pointing the way the cars go."""
    size = 0.3 * geo.lane
    for c in geo.corners:
        doubled = set(c.double_aggressive)
        for space in c.aggressive:
            place = geo.spot(space, 1)
            centre = geo.beside(space, 1.75 * geo.lane)
            a = math.radians(place.angle)
            ux, uy = math.cos(a), math.sin(a)
            for shift in ((-0.5, 0.5) if space in doubled else (0.0,)):
                tip = Point(centre.x + ux * size * (1 + shift * 2),
                            centre.y + uy * size * (1 + shift * 2))
                back = Point(tip.x - ux * size * 2, tip.y - uy * size * 2)
                wing1 = Point(back.x - uy * size, back.y + ux * size)
                wing2 = Point(back.x + uy * size, back.y - ux * size)
                yield (f'<polyline class="chevron" points="{_n(wing1.x)},{_n(wing1.y)} '
                       f'{_n(tip.x)},{_n(tip.y)} {_n(wing2.x)},{_n(wing2.y)}" '
                       f'data-corner="{c.number}" data-space="{space}"/>')


def _finish(geo: TrackGeometry) -> Iterator[str]:
    line = geo.finish_line
    dash = line.a.distance(line.b) / 6
    yield _line(line, "finish")
    yield _line(line, "finish-check", f' stroke-dasharray="{_n(dash)} {_n(dash)}"')
