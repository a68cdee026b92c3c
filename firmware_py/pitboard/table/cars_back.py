"""Cars back after an undo: where the players put the cars the undo took back.

An undo (:meth:`~pitboard.table.table.Table.undo`, from the console or the desktop sim) replays
the race to an earlier point, but the cars on the real board stay where the players put them.
So the table compares the board before the undo with the race after it and, for every car that
stands somewhere else now, shows where it goes back: ``undo: Red Legend 21→14 out`` (to the
outside spot; ``RL``: the racing line) on every seated station's status line (or big on the
race-control display), the same way and with the same confirm as a Legend move
(:mod:`~pitboard.table.legend_moves`): one GO on any seated station per car, the car furthest
back first (so no car is put back onto one still standing there), before any Legend move still
to make.

Where a car stands on the board: a driven car (a person's or a bot's) where the race last moved
it, since its screen told its player to move it there; a Legend car where its last *confirmed*
move put it (a move nobody confirmed was never made on the board); a car still waiting to go
back from an earlier undo, where it was before that. A Legend move the race makes again just
as it did before the undo stays confirmed: that car is already there.

The cars still to go back are journalled (``{"back": [...]}``) after the undo and after each
confirm, so a power cut shows the same instructions again.

Example::

    >>> b = CarBack(car=2, name="Red Legend", frm=Place(21, True, 1), to=Place(14, False, 1))
    >>> b.view().status()
    'undo: Red Legend 21→14 out: GO'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..engine.car import Car
from ..engine.legends import legend_cars
from ..engine.race import Race
from ..engine.snapshot import replay
from .legend_moves import LegendMovesMixin, LegendMoveView, legend_events
from .station import Station


class Place(NamedTuple):
    """Where a car stands on the board: the space (1..N from the finish line), which spot,
    and the lap.

    Example (the grid is behind the line: lap 0)::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1))
        >>> place_of(race, race.cars[1])
        Place(space=69, racing_line=True, lap=0)
    """

    space: int
    racing_line: bool
    lap: int


@dataclass(frozen=True, slots=True)
class CarBack:
    """One car to put back on the board after an undo, from where it stands to where it goes.

    Example::

        >>> CarBack(car=0, name="Ann", frm=Place(9, False, 1), to=Place(3, True, 1)).record()
        [0, [9, False, 1], [3, True, 1]]
    """

    car: int
    name: str
    frm: Place
    to: Place

    def view(self, number: int = 1, of: int = 1) -> LegendMoveView:
        """As a move for the status lines and the race-control display."""
        return LegendMoveView(car=self.car, colour="", frm=self.frm.space, to=self.to.space,
                              racing_line=self.to.racing_line, lap=self.to.lap, number=number,
                              of=of, back=True, label=self.name)

    def record(self) -> list[Any]:
        """The journal's form: ``[car, [space, racing line, lap] from, ... to]``."""
        return [self.car, list(self.frm), list(self.to)]


def place_of(race: Race, car: Car) -> Place:
    """Where the race has ``car`` now."""
    return Place(car.space, car.spot == race.racing_spot(car.d), race.lap_of(car.d))


def board(race: Race, confirmed: int, backs: Sequence[CarBack] = ()) -> dict[int, Place]:
    """Where each car of ``race`` stands on the board (see the module docstring), with the
    first ``confirmed`` Legend moves made and ``backs`` still waiting."""
    places = {car.id: place_of(race, car) for car in race.cars}
    events = legend_events(race)
    if len(events) > confirmed:  # a Legend whose next move nobody confirmed stands before it
        last = {e.car: e for e in events[:confirmed]}
        start: Race | None = None
        for car in {e.car for e in events[confirmed:]}:
            if car in last:
                e = last[car]
                places[car] = Place(e.space, e.racing_line, e.lap)
            else:  # not moved yet on the board: still on its grid spot
                start = start or replay(race.setup, [], track=race.track)
                places[car] = place_of(start, start.cars[car])
    for back in backs:
        places[back.car] = back.frm
    return places


def after_undo(old: Race, old_confirmed: int, old_backs: Sequence[CarBack], new: Race
               ) -> tuple[int, tuple[CarBack, ...]]:
    """The Legend moves still confirmed in ``new`` and the cars to put back, when an undo
    replaced the race ``old`` (``old_confirmed`` Legend moves made on the board, ``old_backs``
    still waiting) with ``new``."""
    made = legend_events(old)[:old_confirmed]
    again = legend_events(new)
    kept = 0
    while kept < min(len(made), len(again)) and made[kept] == again[kept]:
        kept += 1
    before = board(old, old_confirmed, old_backs)
    after = board(new, kept)
    colours = legend_cars(new)
    backs = [CarBack(car=c, name=_name(new, c, colours), frm=before[c], to=after[c])
             for c in before if before[c] != after[c]]
    backs.sort(key=lambda b: (b.to.lap, b.to.space, b.car))  # furthest back first
    return kept, tuple(backs)


def backs_from_records(race: Race, records: Sequence[Sequence[Any]]) -> tuple[CarBack, ...]:
    """The cars to put back, from their journal form (see :meth:`CarBack.record`)."""
    colours = legend_cars(race)
    return tuple(CarBack(car=int(car), name=_name(race, int(car), colours),
                         frm=Place(int(f[0]), bool(f[1]), int(f[2])),
                         to=Place(int(t[0]), bool(t[1]), int(t[2])))
                 for car, f, t in records)


class CarsBackMixin(LegendMovesMixin):
    """Legend moves and the cars to put back after an undo, both confirmed by GO; a mixin of
    :class:`~pitboard.table.table.Table`.

    Example (a Legend move made on the board, then undone from the console)::

        >>> from pitboard.hw.events import GoPressed, SlotPressed
        >>> from pitboard.table.autoplay import next_input
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, laps=1,
        ...               modules={"legends": {"cars": 1, "colours": ["red"]}})
        >>> table.handle(GoPressed(station=0)); table.handle(SlotPressed(station=0, slot=6))
        >>> while not table.legend_moves_waiting():
        ...     table.handle(next_input(table))  # what the player would press
        >>> table.handle(GoPressed(station=0)); table.undo()
        >>> [move.status() for move in table.legend_moves_waiting()]
        ['undo 1/2: S1 8→69 out: GO', 'undo 2/2: Red Legend 9→69 RL: GO']
    """

    #: cars the players still have to put back, in the order shown
    cars_back: tuple[CarBack, ...] = ()

    def legend_moves_waiting(self) -> tuple[LegendMoveView, ...]:
        """The cars to put back, then the Legend moves to make: every one waits for a GO."""
        race = self.race
        if race is None or race.over:  # nobody waits for the board then
            return ()
        backs = tuple(b.view(i, len(self.cars_back)) for i, b in enumerate(self.cars_back, 1))
        return backs + super().legend_moves_waiting()

    def _confirm_legend(self, st: Station) -> bool:
        if self.cars_back and st.car is not None and not st.idle_bot:
            self._set_cars_back(self.cars_back[1:])
            st.message = ""
            return True
        return super()._confirm_legend(st)

    def _legends_unattended(self) -> None:
        super()._legends_unattended()
        if self.cars_back and not any(st.car is not None and not st.idle_bot
                                      for st in self.stations):
            self._set_cars_back(())

    def _board_after_undo(self, old: Race, old_confirmed: int) -> None:
        """An undo replaced ``old`` (``old_confirmed`` Legend moves made) with ``self.race``:
        what goes back on the board (journalled after the undo and the steps it replayed)."""
        race = self.race
        if race is None:
            return
        confirmed, backs = after_undo(old, old_confirmed, self.cars_back, race)
        if confirmed != self.legends_confirmed:
            self._set_legends_confirmed(confirmed)
        if backs or self.cars_back:
            self._set_cars_back(backs)

    def _load_cars_back(self, records: Sequence[Sequence[Any]]) -> None:
        """A new race (none to put back) or a resumed one (its journal's records)."""
        race = self.race
        self.cars_back = backs_from_records(race, records) if race is not None else ()

    def _set_cars_back(self, backs: tuple[CarBack, ...]) -> None:
        self.cars_back = backs
        if self.recorder is not None:
            self.recorder.cars_back([b.record() for b in backs])


def _name(race: Race, car: int, colours: Mapping[int, str]) -> str:
    colour = colours.get(car)
    return f"{colour.capitalize()} Legend" if colour else race.cars[car].name
