"""Legend moves at the table: where the players move each Legend car, and their confirm.

The engine moves a Legend car by itself when its turn comes (``legend`` events); the physical
car on the board has to follow. After every Legend move the table shows exactly which car goes
from which space to which (colour, spaces, spot) on the race-control display or, without one,
on every station's status line, and waits: the next GO on any seated station confirms that the
car has been moved (one GO per Legend move, in race order). Until then that GO does nothing
else, so nobody plans or resolves against a board that is behind the race.

The count of confirmed moves is journalled (``{"legends": n}``), so a power cut shows the same
unconfirmed moves again. With no person left at the table (every seat driven by a bot) nobody
could confirm: the moves are then taken as done. A finished race waits for nobody.

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
    ...                       modules={"legends": {"cars": 1, "colours": ["red"]}}))
    >>> legend_move_count(race), pending_legend_moves(race, 0)
    (0, ())
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..engine.events import LegendMoved
from ..engine.legends.module import KEY as LEGENDS
from ..engine.race import Race
from .canvas import _L, _R
from .fonts import TINY
from .station import Station
from .table_base import TableBase

log = logging.getLogger("pitboard.table")


@dataclass(frozen=True, slots=True)
class LegendMoveView:
    """One Legend move to make on the board.

    Example::

        >>> m = LegendMoveView(car=3, colour="red", frm=14, to=21, racing_line=False, lap=1,
        ...                    number=1, of=2)
        >>> m.status(), m.instruction()
        ('1/2 Red Legend 14→21 out: GO', 'Red Legend: space 14 → 21, outside')
    """

    car: int
    colour: str
    #: board spaces (1..N from the finish line)
    frm: int
    to: int
    racing_line: bool
    lap: int
    #: this move's place among the moves waiting (1-based) and how many wait
    number: int = 1
    of: int = 1
    #: an undo takes the car back (cars_back.py): any car, named by ``label``
    back: bool = False
    label: str = ""

    @property
    def name(self) -> str:
        return self.label or f"{self.colour.capitalize()} Legend"

    @property
    def spot(self) -> str:
        return "racing line" if self.racing_line else "outside"

    def status(self) -> str:
        """One short line for a station's status line."""
        side = "RL" if self.racing_line else "out"
        if self.back:  # ": GO" when the line has room for it; a Legend's colour alone if not
            count = f" {self.number}/{self.of}" if self.of > 1 else ""
            text = f"undo{count}: {self.name} {self.frm}→{self.to} {side}"
            for line in (text + ": GO", text):
                if TINY.width(line) <= _R - _L + 1:
                    return line
            return text.replace(" Legend ", " ", 1)
        count = f"{self.number}/{self.of} " if self.of > 1 else ""
        return f"{count}{self.name} {self.frm}→{self.to} {side}: GO"

    def instruction(self) -> str:
        """The full instruction (race-control display, console, log)."""
        if self.back:
            return f"undo: {self.name} back from space {self.frm} to {self.to}, {self.spot}"
        return f"{self.name}: space {self.frm} → {self.to}, {self.spot}"


def legend_events(race: Race) -> list[LegendMoved]:
    """The race's Legend moves, oldest first."""
    if LEGENDS not in race.hooks.by_key:  # most races: no scan of the event list
        return []
    return [e for e in race.events if isinstance(e, LegendMoved)]


def legend_move_count(race: Race) -> int:
    """How many Legend moves the race has made so far."""
    if LEGENDS not in race.hooks.by_key:
        return 0
    return sum(1 for e in race.events if isinstance(e, LegendMoved))


def pending_legend_moves(race: Race | None, confirmed: int) -> tuple[LegendMoveView, ...]:
    """The Legend moves after the first ``confirmed``, oldest first (none once the race is
    over: nobody waits for the board then)."""
    if race is None or race.over:
        return ()
    events = legend_events(race)[confirmed:]
    n = race.track.spaces
    return tuple(LegendMoveView(car=e.car, colour=e.colour, frm=(e.frm - 1) % n + 1,
                                to=e.space, racing_line=e.racing_line, lap=e.lap, number=i,
                                of=len(events))
                 for i, e in enumerate(events, start=1))


class LegendMovesMixin(TableBase):
    """Confirming Legend moves (see the module docstring); a mixin of
    :class:`~pitboard.table.table.Table`.

    Example::

        >>> from pitboard.hw.events import GoPressed, SlotPressed
        >>> from pitboard.table.autoplay import next_input
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, laps=1,
        ...               modules={"legends": {"cars": 1, "colours": ["red"]}})
        >>> table.handle(GoPressed(station=0)); table.handle(SlotPressed(station=0, slot=6))
        >>> while not table.legend_moves_waiting():
        ...     table.handle(next_input(table))  # what the player would press
        >>> table.legend_moves_waiting()[0].status()
        'Red Legend 69→9 RL: GO'
        >>> table.handle(GoPressed(station=0))  # moved on the board
        >>> table.legend_moves_waiting(), table.legends_confirmed
        ((), 1)
    """

    def legend_moves_waiting(self) -> tuple[LegendMoveView, ...]:
        """The Legend moves shown now, waiting for a GO."""
        return pending_legend_moves(self.race, self.legends_confirmed)

    def _confirm_legend(self, st: Station) -> bool:
        """GO at ``st``: confirm the oldest Legend move waiting; False if none waits (the GO
        then does what it does otherwise). Only a seated player confirms."""
        if st.car is None or st.idle_bot:
            return False
        waiting = self.legend_moves_waiting()
        if not waiting:
            return False
        self._set_legends_confirmed(self.legends_confirmed + 1)
        st.message = ""
        return True

    def _legends_unattended(self) -> None:
        """With nobody seated to confirm (every seat a bot's), the moves count as made."""
        race = self.race
        if race is None or any(st.car is not None and not st.idle_bot for st in self.stations):
            return
        moves = legend_move_count(race)
        if moves > self.legends_confirmed:
            self._set_legends_confirmed(moves)

    def _set_legends_confirmed(self, confirmed: int) -> None:
        self.legends_confirmed = confirmed
        if self.recorder is not None:
            self.recorder.legends_moved(confirmed)
