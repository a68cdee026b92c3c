"""Where a track is drawn: every spot's centre and heading, the lines across the track (finish,
corners, Legends lines), sectors and label places, in one coordinate system.

The one model every drawing of a track reads: ``pitboard tracks --svg`` (:mod:`pitboard.tracksvg`)
and a TV view in a browser (:meth:`TrackGeometry.to_dict` is its JSON) draw the same spaces and
put cars on the same spots. It reads a :class:`~pitboard.track.Track` only: no race, no table.

Coordinates are those of the track file's ``[spots]`` table (pixels of the board picture, y
down, headings in degrees clockwise from +x). A file without them still draws: the spaces are
laid out evenly on a generated stadium outline (:attr:`TrackGeometry.generated`), with the same
spaces, corners, sectors and Legends lines.

Example::

    >>> from pitboard.trackfile import load_track
    >>> geo = track_geometry(load_track("usa"))
    >>> geo.spot_centre(1, 1), geo.generated
    (Point(x=1289.0, y=194.0), False)
    >>> corner = geo.corners[0]
    >>> corner.number, corner.limit, corner.line.mid.rounded()
    (1, 7, Point(x=1533.0, y=906.0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .track import SpotPlace, Track

#: spacing of a generated outline, in the units of the shipped boards' pixels: a space's
#: length along the track and the distance between its two spots
GENERATED_STEP = 64.0
GENERATED_LANE = 34.0
#: blank border around the drawing, in lane widths
MARGIN_LANES = 3.0


@dataclass(frozen=True, slots=True)
class Point:
    """A point of the drawing.

    Example::

        >>> Point(1.0, 2.0).towards(Point(3.0, 2.0), 0.5)
        Point(x=2.0, y=2.0)
    """

    x: float
    y: float

    def towards(self, other: Point, t: float) -> Point:
        """The point ``t`` of the way from here to ``other`` (0 here, 1 there)."""
        return Point(self.x + (other.x - self.x) * t, self.y + (other.y - self.y) * t)

    def distance(self, other: Point) -> float:
        return math.hypot(other.x - self.x, other.y - self.y)

    def rounded(self, digits: int = 0) -> Point:
        """Rounded coordinates (``digits`` after the point), for text and tests."""
        return Point(round(self.x, digits) + 0.0, round(self.y, digits) + 0.0)


@dataclass(frozen=True, slots=True)
class Segment:
    """A line from ``a`` to ``b`` (a line across the track runs from spot 1's side to spot 2's).

    Example::

        >>> Segment(Point(0, 0), Point(4, 0)).mid
        Point(x=2.0, y=0.0)
    """

    a: Point
    b: Point

    @property
    def mid(self) -> Point:
        return self.a.towards(self.b, 0.5)


@dataclass(frozen=True, slots=True)
class CornerMark:
    """One corner line as drawn: ``index`` 0-based, ``number`` as printed (from 1).

    ``label`` is where its speed limit is written (the corner sign of the board picture when the
    file gives it), ``token`` where a road-condition token lies (beside the outer end of the
    line; a chicane's second line shares its first line's), ``legends`` the Legends line of
    this corner. ``aggressive``/``double_aggressive``: the spaces whose chevrons lead to it.

    Example (Netherlands corner 1: chevrons on spaces 7-9, a double one on space 9)::

        >>> from pitboard.trackfile import load_track
        >>> mark = track_geometry(load_track("netherlands")).corners[0]
        >>> mark.at, mark.limit, mark.aggressive, mark.double_aggressive, mark.legends_line
        (9, 5, (7, 8, 9), (9,), 1)
    """

    index: int
    number: int
    at: int
    limit: int
    chicane: bool
    line: Segment
    label: Point
    token: Point
    legends_line: int
    legends: Segment
    aggressive: tuple[int, ...]
    double_aggressive: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SectorMark:
    """The stretch after a corner up to the next one (a road token's sector: it starts after a
    chicane's second line): its spaces in order, the racing-line spot where it starts, and a
    label place.

    Example (Japan: the sector after the chicane of corner lines 1 and 2)::

        >>> from pitboard.trackfile import load_track
        >>> sector = track_geometry(load_track("japan")).sectors[0]
        >>> sector.corner, sector.spaces, sector.racing_spot
        (0, (13, 14, 15, 16, 17, 18), 1)
    """

    corner: int
    spaces: tuple[int, ...]
    racing_spot: int
    label: Point


class TrackGeometry:
    """A track's drawing (see the module docstring); build it with :func:`track_geometry`.

    Example: a hand-made track without ``[spots]`` is laid out on a generated outline::

        >>> import dataclasses
        >>> from pitboard.trackfile import load_track
        >>> bare = dataclasses.replace(load_track("italy"), places={})
        >>> geo = track_geometry(bare)
        >>> geo.generated, len(geo.spots), [c.limit for c in geo.corners]
        (True, 108, [5, 2, 3])
        >>> round(geo.spot_centre(1, 1).distance(geo.spot_centre(1, 2)))
        34
    """

    def __init__(self, track: Track, places: dict[tuple[int, int], SpotPlace], *,
                 generated: bool) -> None:
        self.track = track
        self.generated = generated
        #: every spot, (space, spot) -> centre and heading
        self.spots = places
        n = track.spaces
        self._centres = centres = [self.space_centre(s) for s in range(1, n + 1)]
        steps = sorted(centres[i].distance(centres[i - 1]) for i in range(n))
        lanes = sorted(self.spot_centre(s, 1).distance(self.spot_centre(s, 2))
                       for s in range(1, n + 1))
        #: the usual distance from one space to the next, and from spot 1 to spot 2
        self.step = steps[n // 2]
        self.lane = lanes[n // 2]
        self.finish_line = self.line_after(n)
        self.corners = tuple(self._corner(i) for i in range(len(track.corners)))
        self.sectors = self._sectors()
        xs = [p.x for p in places.values()] + [c.label.x for c in self.corners]
        ys = [p.y for p in places.values()] + [c.label.y for c in self.corners]
        pad = MARGIN_LANES * self.lane
        #: (left, top, right, bottom) of everything drawn, with a margin
        self.bounds = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)

    # -- spots and spaces ------------------------------------------------------------------------
    def spot(self, space: int, spot: int) -> SpotPlace:
        """Centre and heading of ``spot`` (1 or 2) of board ``space`` (1..spaces)."""
        return self.spots[(space, spot)]

    def spot_centre(self, space: int, spot: int) -> Point:
        """Where a car on ``spot`` of ``space`` stands."""
        place = self.spots[(space, spot)]
        return Point(place.x, place.y)

    def space_centre(self, space: int) -> Point:
        """The middle of ``space``, between its two spots."""
        return self.spot_centre(space, 1).towards(self.spot_centre(space, 2), 0.5)

    def line_after(self, space: int) -> Segment:
        """The line across the track between ``space`` and the next one (the finish line after
        the last space), from spot 1's side to spot 2's, reaching the track's edges."""
        after = space % self.track.spaces + 1
        one = self.spot_centre(space, 1).towards(self.spot_centre(after, 1), 0.5)
        two = self.spot_centre(space, 2).towards(self.spot_centre(after, 2), 0.5)
        return Segment(two.towards(one, 1.5), one.towards(two, 1.5))

    def beside(self, space: int, distance: float) -> Point:
        """A point ``distance`` from the middle of ``space``, across the track, on the side
        with more room (the less crowded by the other spaces, near ones weighing most):
        where a label beside it is read."""
        centre = self.space_centre(space)
        one, two = self.spot_centre(space, 1), self.spot_centre(space, 2)
        across = one.distance(two) or 1.0
        sides = [centre.towards(end, distance / across * 2) for end in (one, two)]
        others = [c for s, c in enumerate(self._centres, start=1) if s != space]

        def crowding(p: Point) -> float:
            return sum(1.0 / max(p.distance(c), 1e-6) ** 2 for c in others)

        return min(sides, key=crowding)

    # -- corners and sectors ------------------------------------------------------------------
    def _corner(self, index: int) -> CornerMark:
        track = self.track
        c = track.corners[index]
        line = self.line_after(c.at)
        if self.generated or not (c.x or c.y):  # no sign on a board picture: beside the line
            label = self.beside(c.at, 2.3 * self.lane)
        else:
            label = Point(c.x, c.y)
        token = self.beside(track.corners[track.token_corner(index)].at, 3.2 * self.lane)

        def approach(spaces: int) -> tuple[int, ...]:  # the spaces `spaces` before the line
            return tuple((c.at - 1 - k) % track.spaces + 1 for k in range(spaces))[::-1]

        return CornerMark(index=index, number=index + 1, at=c.at, limit=c.limit,
                          chicane=c.chicane, line=line, label=label, token=token,
                          legends_line=c.legends_line, legends=self.line_after(c.legends_line),
                          aggressive=approach(c.aggressive),
                          double_aggressive=approach(c.double_aggressive))

    def _sectors(self) -> tuple[SectorMark, ...]:
        track = self.track
        by_corner: dict[int, list[int]] = {}
        start = track.corners[-1].at % track.spaces + 1  # walk from a sector's first space
        for k in range(track.spaces):
            space = (start - 1 + k) % track.spaces + 1
            by_corner.setdefault(track.token_sector_of(space), []).append(space)
        marks = []
        for corner in track.token_corners():
            spaces = by_corner.get(corner, [])
            if not spaces:
                continue
            label = self.beside(spaces[len(spaces) // 2], 1.9 * self.lane)
            marks.append(SectorMark(corner=corner, spaces=tuple(spaces),
                                    racing_spot=track.racing_spot(spaces[0]), label=label))
        return tuple(marks)

    # -- for a web page --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The drawing as plain JSON types, for a browser to draw and place cars with: spots
        as ``[space, spot, x, y, angle]``, lines as ``[[x, y], [x, y]]``.

        Example::

            >>> from pitboard.trackfile import load_track
            >>> data = track_geometry(load_track("japan")).to_dict()
            >>> data["spots"][0], data["flooded"][:3], data["corners"][1]["chicane"]
            ([1, 1, 882.0, 591.0, 9.0], [6, 7, 8], True)
        """
        def pt(p: Point) -> list[float]:
            return [round(p.x, 1), round(p.y, 1)]

        def seg(s: Segment) -> list[list[float]]:
            return [pt(s.a), pt(s.b)]

        track = self.track
        return {
            "key": track.key, "name": track.name, "spaces": track.spaces, "laps": track.laps,
            "generated": self.generated, "bounds": [round(v, 1) for v in self.bounds],
            "step": round(self.step, 1), "lane": round(self.lane, 1),
            "spots": [[space, spot, p.x, p.y, p.angle] for (space, spot), p in
                      sorted(self.spots.items())],
            "racing_spots": [track.racing_spot(s) for s in range(1, track.spaces + 1)],
            "finish": seg(self.finish_line),
            "grid": [list(g) for g in track.grid],
            "flooded": sorted(track.flooded), "tunnels": sorted(track.tunnels),
            "corners": [{"number": c.number, "at": c.at, "limit": c.limit,
                         "chicane": c.chicane, "line": seg(c.line), "label": pt(c.label),
                         "token": pt(c.token), "legends_line": c.legends_line,
                         "legends": seg(c.legends), "aggressive": list(c.aggressive),
                         "double_aggressive": list(c.double_aggressive)}
                        for c in self.corners],
            "sectors": [{"corner": s.corner + 1, "spaces": list(s.spaces),
                         "racing_spot": s.racing_spot, "label": pt(s.label)}
                        for s in self.sectors],
        }


def track_geometry(track: Track) -> TrackGeometry:
    """The drawing of ``track``: its file's coordinates, or a generated outline without them."""
    if track.places:
        return TrackGeometry(track, dict(track.places), generated=False)
    return TrackGeometry(track, generated_places(track.spaces), generated=True)


def generated_places(spaces: int, *, step: float = GENERATED_STEP,
                     lane: float = GENERATED_LANE) -> dict[tuple[int, int], SpotPlace]:
    """Spots for ``spaces`` spaces evenly along a stadium (two straights, two half circles),
    from the finish line in the middle of the bottom straight rightwards, then up, left and
    down (anticlockwise on screen), spot 1 on the left of the way the cars go.

    Example::

        >>> places = generated_places(60)
        >>> places[(1, 1)], places[(1, 2)]
        (SpotPlace(x=..., y=..., angle=0.0), SpotPlace(x=..., y=..., angle=0.0))
        >>> places[(1, 1)].y < places[(1, 2)].y    # left of heading 0 (east) is up (y down)
        True
    """
    perimeter = spaces * step
    radius = perimeter / (2 * math.pi + 4.8)  # straights 2.4 radii long: a 16:9-ish board
    straight = 2.4 * radius
    margin = MARGIN_LANES * lane + radius + lane
    half = straight / 2
    places = {}
    for space in range(1, spaces + 1):
        x, y, heading = _stadium((space - 0.5) * step, straight, radius)
        a = math.radians(heading)
        nx, ny = math.sin(a), -math.cos(a)  # the left of the heading, y down
        cx, cy = x + half + margin, y + margin
        for spot, side in ((1, 0.5), (2, -0.5)):
            places[(space, spot)] = SpotPlace(round(cx + nx * side * lane, 1),
                                              round(cy + ny * side * lane, 1),
                                              round(heading, 1) + 0.0)
    return places


def _stadium(t: float, straight: float, radius: float) -> tuple[float, float, float]:
    """(x, y, heading) at distance ``t`` along the stadium centred on (0, 0), from the middle
    of its bottom straight going right (y down)."""
    half = straight / 2
    arc = math.pi * radius
    legs = (half, arc, straight, arc, half)
    leg = 0
    while leg < len(legs) - 1 and t > legs[leg]:
        t -= legs[leg]
        leg += 1
    if leg == 0:
        return t, radius, 0.0
    if leg == 1:  # right half circle, upwards
        phi = math.pi / 2 - t / radius
        return half + radius * math.cos(phi), radius * math.sin(phi), math.degrees(phi) - 90.0
    if leg == 2:
        return half - t, -radius, 180.0
    if leg == 3:  # left half circle, downwards
        phi = -math.pi / 2 - t / radius
        return -half + radius * math.cos(phi), radius * math.sin(phi), \
            math.degrees(phi) - 90.0 + 360.0
    return -half + t, radius, 0.0
