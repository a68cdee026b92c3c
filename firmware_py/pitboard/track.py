"""The track model: spaces, corners, racing line, grid and board coordinates.

Pure data. Files on disk are read by :mod:`pitboard.trackfile`; the engine only sees :class:`Track`.

Conventions (as printed on the boards):

* spaces are numbered ``1..spaces`` from the finish line; the line lies between space ``spaces``
  and space 1;
* a corner "at k" is a line between space ``k`` and ``k + 1``;
* every space has two spots, 1 and 2; the racing-line spot of a space is the ``racing_spot`` of the
  last corner line before it (the stretch before the first corner uses the last corner's spot).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Corner:
    """One corner line.

    Example::

        Corner(at=12, limit=7, racing_spot=2, legends_line=2)
    """

    at: int
    limit: int
    racing_spot: int
    legends_line: int
    #: the second line of a chicane shares its road-condition token with the line before it
    chicane: bool = False
    #: how many spaces before the corner line the printed Aggressive-Legends chevrons cover (0 =
    #: none): a Legend starting there may cross two corner lines
    aggressive: int = 0
    #: where the corner sign sits on the board picture
    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True, slots=True)
class SpotPlace:
    """Where one spot sits on the board picture (pixels and heading in degrees).

    Example::

        >>> from pitboard.trackfile import load_track
        >>> load_track("usa").places[(1, 1)]
        SpotPlace(x=1289.0, y=194.0, angle=16.0)
    """

    x: float
    y: float
    angle: float


@dataclass(frozen=True, slots=True)
class Track:
    """A whole circuit.

    Example::

        >>> from pitboard.trackfile import load_track
        >>> usa = load_track("usa")
        >>> usa.spaces, usa.laps, [c.limit for c in usa.corners]
        (69, 2, [7, 3, 3, 2])
    """

    key: str
    name: str
    spaces: int
    laps: int
    heat: int
    stress: int
    corners: tuple[Corner, ...]
    #: grid spots in grid order, pole first, as (space, spot)
    grid: tuple[tuple[int, int], ...]
    #: board coordinates of every (space, spot)
    places: dict[tuple[int, int], SpotPlace] = field(default_factory=dict)
    #: racing-line spot per space, index 0 unused (derived)
    racing_spots: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.racing_spots and self.corners:
            object.__setattr__(self, "racing_spots", _racing_spots(self.spaces, self.corners))

    def racing_spot(self, space: int) -> int:
        """The racing-line spot (1 or 2) of board space ``space`` (1-based)."""
        return self.racing_spots[space]

    def sector_of(self, space: int) -> int:
        """Index of the corner whose sector holds ``space`` (-1 wraps to the last corner)."""
        idx = -1
        for i, c in enumerate(self.corners):
            if c.at < space:
                idx = i
        return idx if idx >= 0 else len(self.corners) - 1


def _racing_spots(spaces: int, corners: tuple[Corner, ...]) -> tuple[int, ...]:
    spots = [0] * (spaces + 1)
    ordered = sorted(corners, key=lambda c: c.at)
    for space in range(1, spaces + 1):
        spot = ordered[-1].racing_spot
        for c in ordered:
            if c.at < space:
                spot = c.racing_spot
        spots[space] = spot
    return tuple(spots)
