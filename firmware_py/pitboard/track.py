"""The track model: spaces, corners, racing line, grid and board coordinates.

Pure data. Files on disk are read by :mod:`pitboard.trackfile`; the engine only sees :class:`Track`.

Conventions (as printed on the boards):

* spaces are numbered ``1..spaces`` from the finish line; the line lies between space ``spaces``
  and space 1;
* a corner "at k" is a line between space ``k`` and ``k + 1``;
* every space has two spots, 1 and 2; the racing-line spot of a space is the ``racing_spot`` of the
  last corner line before it (the stretch before the first corner uses the last corner's spot);
* a chicane is two corner lines that make one corner: the second line has ``chicane = True``.
  They share one road-condition token, and the sector after a chicane starts after its second
  line (:meth:`Track.token_sector_of`);
* some expansion boards print rules on spaces: flooded spaces (Japan) and tunnel spaces (Spain).
  The rules they bring live in :mod:`pitboard.engine.track_features`.
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
    #: the same for a double chevron (Netherlands corner 1): a Legend starting there may cross
    #: three corner lines
    double_aggressive: int = 0
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
    #: flooded spaces (Japan): a downshift planned there costs 1 Heat more
    flooded: frozenset[int] = frozenset()
    #: tunnel spaces (Spain): no card may be discarded from a hand there
    tunnels: frozenset[int] = frozenset()
    #: the championship's Press Corner slots A, B, C... as corner numbers (1-based lines),
    #: when the board prints its own (Spain); empty: counted from the finish line
    press_corners: tuple[int, ...] = ()
    #: racing-line spot per space, index 0 unused (derived)
    racing_spots: tuple[int, ...] = ()
    #: :meth:`token_sector_of` per space, index 0 unused (derived from the corners, never
    #: given, so a ``replace()`` with other corners works it out again: the weather module's
    #: tables are rebuilt for every copy of a race, and the walk over the corners is done once)
    token_sectors: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.racing_spots and self.corners:
            object.__setattr__(self, "racing_spots", _racing_spots(self.spaces, self.corners))
        if self.corners:
            object.__setattr__(self, "token_sectors", (-1, *(
                self._token_sector(space) for space in range(1, self.spaces + 1))))

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

    def token_corner(self, index: int) -> int:
        """The corner line (0-based) whose road-condition token corner line ``index`` uses:
        itself, or for the second line of a chicane the chicane's first line.

        Example (Japan: corner lines 1 and 2 are one chicane)::

            >>> from pitboard.trackfile import load_track
            >>> japan = load_track("japan")
            >>> [japan.token_corner(i) for i in range(len(japan.corners))]
            [0, 0, 2, 3, 4]
        """
        while index > 0 and self.corners[index].chicane:
            index -= 1
        return index

    def token_corners(self) -> list[int]:
        """The corner lines (0-based) that take a road-condition token: every line but the
        second line of a chicane.

        Example::

            >>> from pitboard.trackfile import load_track
            >>> load_track("mexico").token_corners()   # chicanes: lines 1-2 and 5-6
            [0, 2, 3, 4]
        """
        return [i for i in range(len(self.corners)) if self.token_corner(i) == i]

    def token_sector_of(self, space: int) -> int:
        """The corner (0-based, a token-taking line) whose sector holds ``space``: the sector
        after a corner runs to the next corner, and the sector after a chicane starts after
        its second line, so the spaces between a chicane's two lines still belong to the
        sector before the chicane.

        Example (Japan: the chicane's lines lie after spaces 10 and 12)::

            >>> from pitboard.trackfile import load_track
            >>> japan = load_track("japan")
            >>> japan.token_sector_of(10), japan.token_sector_of(11), japan.token_sector_of(13)
            (4, 4, 0)
        """
        if 1 <= space <= self.spaces and self.token_sectors:
            return self.token_sectors[space]
        return self._token_sector(space)  # (off the board: worked out, as it always was)

    def _token_sector(self, space: int) -> int:
        index = self.sector_of(space)
        after = index + 1
        if after < len(self.corners) and self.corners[after].chicane:
            # between a chicane's lines: the sector before the chicane's first line goes on
            first = self.token_corner(index)
            index = first - 1 if first > 0 else len(self.corners) - 1
        return self.token_corner(index)

    def press_slots(self) -> list[int]:
        """The corner lines (0-based) of the championship's Press Corner slots A, B, C...: the
        track's own list, else every corner from the finish line with a chicane counted once,
        at its second line (where the sponsor is checked). An Event's letter past the last
        slot counts round again (modulo the slots).

        Example (Mexico: chicanes at lines 1-2 and 5-6; Spain prints its own)::

            >>> from pitboard.trackfile import load_track
            >>> load_track("mexico").press_slots(), load_track("spain").press_slots()
            ([1, 2, 3, 5], [1, 3, 5, 6, 9])
        """
        if self.press_corners:
            return [n - 1 for n in self.press_corners]
        slots: list[int] = []
        for i, corner in enumerate(self.corners):
            if corner.chicane and slots:
                slots[-1] = i  # the chicane's second line stands for the chicane
            else:
                slots.append(i)
        return slots

    def summary(self) -> str:
        """One line about the track: what ``pitboard tracks`` lists.

        Example::

            >>> from pitboard.trackfile import load_track
            >>> load_track("mexico").summary()
            'Mexico: 60 spaces, 3 laps, Heat 6, Stress 2; corners 7 7 6 4 2 2 (chicanes 1-2, 5-6)'
            >>> load_track("japan").summary().split("; ")[-1]
            'flooded 6-11, 39-45, 50-55'
        """
        laps = f"{self.laps} lap{'s' if self.laps != 1 else ''}"
        limits = " ".join(str(c.limit) for c in self.corners)
        chicanes = [f"{i}-{i + 1}" for i, c in enumerate(self.corners) if c.chicane]
        if chicanes:
            limits += f" (chicane{'s' if len(chicanes) > 1 else ''} {', '.join(chicanes)})"
        line = (f"{self.name}: {self.spaces} spaces, {laps}, Heat {self.heat}, "
                f"Stress {self.stress}; corners {limits}")
        for name, spaces in (("flooded", self.flooded), ("tunnels", self.tunnels)):
            if spaces:
                line += f"; {name} {_ranges(sorted(spaces))}"
        return line

    @property
    def features(self) -> tuple[str, ...]:
        """Names of the rules the track's spaces bring, for listings: ``flooded``, ``tunnels``.

        Example::

            >>> from pitboard.trackfile import load_track
            >>> load_track("japan").features, load_track("usa").features
            (('flooded',), ())
        """
        return (("flooded",) if self.flooded else ()) + (("tunnels",) if self.tunnels else ())


def _ranges(numbers: list[int]) -> str:
    """``[6, 7, 8, 40]`` as ``"6-8, 40"``."""
    out: list[str] = []
    for n in numbers:
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


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
