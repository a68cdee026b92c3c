"""Where the cars stand: spaces, spots, corners, landing, moves, slipstream reach (a race layer).

:class:`Course` is the lowest layer of :class:`~pitboard.engine.race.Race`: it knows the track's
geometry for this race (corner lines over every lap, racing-line spots) and moves cars along it.
The rules of a turn live in ``race.py``; this file answers "where", "which corners" and "how far a
slipstream may go".

Positions are one integer ``d`` per car: the spaces travelled since the start line, so board
space = ``(d - 1) % spaces + 1`` and the grid sits at ``d <= 0``. The finish line of lap ``L`` is
at ``d = L * spaces``; a corner "at k" on lap ``L`` is the line after ``d = (L - 1) * spaces + k``.
"""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter
from typing import TYPE_CHECKING

from ..track import Track
from .car import Car
from .events import Event, LapStarted, Moved, Place
from .modules import Hooks

if TYPE_CHECKING:
    from .setup import RaceSetup

SLIPSTREAM_SPACES = 2
_USUAL_REACH = (SLIPSTREAM_SPACES,)
_KEYED_CAR = itemgetter(3)  # (a listcomp costs more for a field of cars)


class Course:
    """The race's geometry and moves; :class:`~pitboard.engine.race.Race` builds on it.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.space_of(0), race.lap_of(1), race.corners_between(0, 0)
        (..., 1, [])
    """

    # Slots, not an instance dict, for every layer of the race: the engine reads its own
    # attributes hundreds of times a car-turn, and CPython 3.11 reads slots fastest (a race
    # has ~30 attributes, the most an instance dict shares its keys for: past that, every
    # read became a dict lookup)
    __slots__ = ("_corner_lines", "_line_ds", "_spaces", "_spots", "_taken", "cars", "events",
                 "finish_d", "hall_of_fame", "hooks", "laps", "record_events", "round", "track")

    track: Track
    laps: int
    hooks: Hooks
    cars: list[Car]
    hall_of_fame: list[int]
    record_events: bool
    events: list[Event]
    round: int
    _spaces: int
    _spots: tuple[int, ...]
    _corner_lines: list[tuple[int, int, int]]
    _line_ds: list[int]
    finish_d: int
    #: per board space, the spots held there by cars on the track, as bits (spot 1 = 1, spot
    #: 2 = 2): landing and the slipstream test read it instead of asking every car where it
    #: is (they did that ~3 times a car-turn, a fifth of the engine's bytecodes). Kept by
    #: every move here; rebuilt by :meth:`index_cars` (after a restore, or cars placed by hand)
    _taken: list[int]

    def index_cars(self) -> None:
        """Rebuild the record of held spots from the cars (call after placing cars by hand)."""
        taken = [0] * (self._spaces + 1)
        for c in self.cars:
            if c.on_track:
                taken[c.space] |= c.spot
        self._taken = taken

    def _place_cars(self, setup: RaceSetup, grid: list[int]) -> None:
        """Put every car on its grid spot, ``grid`` listing the cars from pole position back
        (cars the setup stacks elsewhere go there)."""
        track, n = self.track, setup.cars
        if len(track.grid) < n:
            raise ValueError(f"track {track.key} has {len(track.grid)} grid spots for {n} cars")
        slot_of = {car: i for i, car in enumerate(grid)}
        for i in range(n):
            space, spot = track.grid[slot_of[i]]
            car = Car(id=i, name=setup.name(i), d=space - track.spaces, spot=spot, space=space)
            stacked = setup.stacked.get(i)
            if stacked is not None:
                if stacked.gear is not None:
                    car.gear = stacked.gear
                if stacked.d is not None and stacked.spot is not None:
                    car.d, car.spot = stacked.d, stacked.spot
                    car.space = self.space_of(car.d)
            self.cars.append(car)
        self.index_cars()
        seen: dict[tuple[int, int], int] = {}
        for car in self.cars:
            other = seen.setdefault((car.space, car.spot), car.id)
            if other != car.id:
                raise ValueError(f"cars {other} and {car.id} start on the same spot "
                                 f"(space {car.space}, spot {car.spot})")

    def _put(self, car: Car, d: int, spot: int) -> None:
        """``car`` moves to ``spot`` of the space at ``d``."""
        space = (d - 1) % self._spaces + 1
        if car.on_track:
            taken = self._taken
            taken[car.space] &= ~car.spot
            taken[space] |= spot
        car.d, car.spot, car.space = d, spot, space

    def _derive_corners(self) -> None:
        limit = self.hooks.corner_limit
        self._corner_lines = self._corner_lines_of(self.track, self.laps)
        if limit:  # e.g. a road-condition token: the same for every car, all race
            self._corner_lines = [(d, i, limit(self, i, lim)) for d, i, lim in self._corner_lines]
        self._line_ds = [line for line, _, _ in self._corner_lines]

    def corner_limit(self, index: int) -> int:
        """The limit at corner ``index`` (0-based) for every car this race (modules included)."""
        return self._corner_lines[index][2]

    @staticmethod
    def _corner_lines_of(track: Track, laps: int) -> list[tuple[int, int, int]]:
        """Every corner line of the race as (d of the line, corner index, limit), in order."""
        lines = []
        for lap in range(laps):
            for i, c in enumerate(track.corners):
                lines.append((lap * track.spaces + c.at, i, c.limit))
        return lines

    def racing_spot(self, d: int) -> int:
        return self._spots[(d - 1) % self._spaces + 1]

    def space_of(self, d: int) -> int:
        return (d - 1) % self._spaces + 1

    def lap_of(self, d: int) -> int:
        """Lap being driven at ``d`` (0 on the grid, laps + 1 past the finish)."""
        return 0 if d <= 0 else (d - 1) // self._spaces + 1

    def ahead_key(self, car: Car) -> tuple[int, int]:
        """Sort key for 'ahead': further along, then the racing-line spot."""
        return (car.d, 1 if car.spot == self._spots[(car.d - 1) % self._spaces + 1] else 0)

    def leader_first(self, cars: list[Car]) -> list[Car]:
        """``cars`` from the one furthest ahead back (by :meth:`ahead_key`; equal keys keep
        their order). The keys are built here rather than by ``sort(key=self.ahead_key)``:
        a sort calling back into Python once per car cost more than all the rest of a round."""
        spots = self._spots
        keyed = [(c.d, c.spot == spots[c.space], -i, c) for i, c in enumerate(cars)]
        keyed.sort(reverse=True)
        return list(map(_KEYED_CAR, keyed))

    def standings(self) -> list[int]:
        """Finished cars in Hall of Fame order, then the rest by position."""
        rest = self.leader_first([c for c in self.cars if c.id not in self.hall_of_fame])
        return self.hall_of_fame + [c.id for c in rest]

    def landing(self, car: Car, target: int) -> tuple[int, int]:
        """Where ``car`` ends aiming for ``target``: (d, spot), stepping back while a space is full.

        The car itself is not in the way, so it never lands behind a space it could leave.
        """
        n = self._spaces
        spots = self._spots
        taken = self._taken
        d = target
        while True:
            space = (d - 1) % n + 1
            racing = spots[space]
            held = taken[space]
            if space == car.space and car.on_track:
                held &= ~car.spot
            if not held & racing:
                return d, racing
            if not held & (3 - racing):
                return d, 3 - racing
            d -= 1

    def corners_between(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """Corner lines crossed moving from ``start`` to ``end`` (none past the final line)."""
        ds = self._line_ds
        first = bisect_left(ds, start)
        return self._corner_lines[first:bisect_left(ds, end, first)]

    def corner_bill(self, start: int, end: int, speed: int, car: Car | None = None) -> int:
        """Heat that corners would charge a move from ``start`` to ``end`` at ``speed``;
        with ``car``, as they would charge that car (modules' limits and extra Heat too)."""
        ds = self._line_ds
        first = bisect_left(ds, start)
        if first == len(ds) or ds[first] >= end:  # no corner on the way (bots ask this
            return 0                              # after every move)
        last = bisect_left(ds, end, first)
        own_limit, heat_for = self.hooks.car_corner_limit, self.hooks.corner_heat
        bill = 0
        if car is None or not (own_limit or heat_for):  # the printed limits alone
            for _, _, limit in self._corner_lines[first:last]:
                if speed > limit:
                    bill += speed - limit
            return bill
        for _, index, limit in self._corner_lines[first:last]:
            if car is not None and own_limit:
                limit = own_limit(self, car, index, limit)
            if speed > limit:
                if car is not None and heat_for:  # e.g. an overheat road token
                    bill += heat_for(self, car, index, speed - limit)
                else:
                    bill += speed - limit
        return bill

    def corners_ahead(self, d: int, spaces: int) -> list[tuple[int, int, int]]:
        """Corner lines a move of up to ``spaces`` from ``d`` could cross."""
        return self.corners_between(d, d + spaces)

    # -------------------------------------------------------------- what modules may do
    def where(self, car: Car) -> Place:
        """Where ``car`` stands now (as :class:`~pitboard.engine.events.Moved` reports it)."""
        d = car.d  # car.space is kept equal to space_of(d)
        return Place(d, self.lap_of(d), car.space, car.spot, car.spot == self._spots[car.space])

    def move(self, car: Car, spaces: int, why: str) -> None:
        """Move ``car`` ``spaces`` forward (``why``: "cards", "boost", a module's reason...),
        stepping back while a space is full; records a
        :class:`~pitboard.engine.events.LapStarted` for each finish line crossed and a
        :class:`~pitboard.engine.events.Moved`."""
        frm = car.d
        d = frm + spaces
        # landing() and _put(), written out: 1.7 moves a car-turn, and the two calls cost 7% of
        # the engine (callgrind, 20 races replayed: 72,400 -> 77,900 instructions a car-turn)
        n, spots, taken = self._spaces, self._spots, self._taken
        on_track = car.on_track
        if on_track:  # lifted off first: a car is never in its own way. (Its bit is set, so
            # a subtraction clears it: cheaper than &= ~, which CPython 3.11 does not specialize)
            taken[car.space] -= car.spot
        while True:
            space = (d - 1) % n + 1
            spot = spots[space]
            held = taken[space]
            if not held & spot:
                break
            spot = 3 - spot
            if not held & spot:
                break
            d -= 1
        if on_track:
            taken[space] += spot  # (the bit was clear: the same as |=)
        car.d, car.spot, car.space = d, spot, space
        if self.record_events:
            events, round_ = self.events, self.round
            lap = -(-frm // n)  # first line at or after frm: line L*n starts lap L + 1
            while lap * n < d:
                if lap < self.laps:
                    events.append(LapStarted(car=car.id, lap=lap + 1, round=round_))
                lap += 1
            events.append(Moved(car=car.id, why=why, frm=frm, spaces=d - frm,
                                blocked=frm + spaces - d, d=d, lap=self.lap_of(d),
                                space=car.space, spot=car.spot,
                                racing_line=car.spot == self._spots[car.space], round=round_))

    def record(self, event: Event) -> None:
        """Add ``event`` to the race's events (kept only while ``record_events`` is on: test it
        before building one, so a simulation builds none)."""
        if self.record_events:
            self.events.append(event)

    def slipstream_spaces(self, car: Car) -> int:
        """How far ``car`` would slipstream now (2 in the base game)."""
        if self.hooks.slipstream_spaces:
            return self.hooks.slipstream_spaces(self, car, SLIPSTREAM_SPACES)
        return SLIPSTREAM_SPACES

    def slipstream_reaches(self, car: Car) -> tuple[int, ...]:
        """Every distance ``car`` may slipstream now, the usual one first (a module may offer
        longer ones: "may add 1 space"); none across the final finish line."""
        hooks = self.hooks
        if not (hooks.slipstream_spaces or hooks.slipstream_choices):
            return _USUAL_REACH  # the base game's (bots ask at every slipstream)
        spaces = self.slipstream_spaces(car)
        more = hooks.slipstream_choices
        if not more:
            return (spaces,)
        reaches = more(self, car, (spaces,))
        return tuple(n for i, n in enumerate(reaches)
                     if i == 0 or (car.d + n <= self.finish_d and n not in reaches[:i]))

    def slipstream_allowed(self, car: Car) -> bool:
        """Beside a car or right behind a space holding one, and not across the final line."""
        taken = self._taken
        beside = taken[car.space] - car.spot if car.on_track else taken[car.space]
        if not beside and not taken[car.d % self._spaces + 1]:  # nobody beside nor just ahead
            return False
        spaces = self.slipstream_spaces(car) if self.hooks.slipstream_spaces else \
            SLIPSTREAM_SPACES
        if car.d + spaces > self.finish_d:
            return False
        may = self.hooks.may_slipstream
        return may(self, car) if may else True
