"""The table as the console reports it (game thread): :func:`status_line` and
:func:`state_dict`, the answers to ``status`` and ``state``; and the table's own events that
the ``events`` stream carries beside the race's (:class:`TableStateChanged`,
:class:`RaceUndone`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.snapshot import race_to_dict
from ..table import flow
from ..table.legend_moves import legend_move_count
from ..table.table import Table


# ---------------------------------------------------------------------- table views
def status_line(table: Table) -> str:
    """The ``status`` answer (game thread): ``key=value`` words, values without spaces.

    Example::

        >>> from pitboard.table.table import Table
        >>> line = status_line(Table(stations=3))
        >>> line[:57]
        'state=lobby track=usa laps=2 cars=1 round=- lap=- phase=-'
        >>> line[58:]
        'turn=- joined=- stations=3 modules=-'
    """
    race = table.race
    state = table.state
    joined = ",".join(str(st.index + 1) for st in table.stations if st.joined) or "-"
    if race is not None and state in (*flow.RACING, flow.RESULTS):
        lap = max(min(race.lap_of(c.d), race.laps) for c in race.cars)
        waiting = set(race.pending().cars)
        turn = ",".join(f"S{st.index + 1}" for st in table.stations
                        if st.car in waiting and not st.idle_bot) or "-"
        fields = [f"track={race.track.key}", f"laps={race.laps}", f"cars={race.setup.cars}",
                  f"round={race.round}", f"lap={max(lap, 1)}", f"phase={race.phase}",
                  f"turn={turn}"]
    else:
        track, laps, cars = table.lobby_summary()
        fields = [f"track={track}", f"laps={laps}", f"cars={cars}", "round=-", "lap=-",
                  "phase=-", "turn=-"]
    racing = race is not None and state in (*flow.RACING, flow.RESULTS)
    modules = race.setup.modules if race is not None and racing else table.modules
    words = [f"state={state}", *fields, f"joined={joined}", f"stations={len(table.stations)}",
             f"modules={','.join(modules) or '-'}"]
    season = table.season
    if season is not None:  # a championship season: which, and the race it is at
        words.append(f"season={season.setup.season}:{season.index + 1}/{len(season.plan)}")
    elif table.championship is not None:
        words.append(f"season={table.championship}")
    return " ".join(words)


def state_dict(table: Table) -> dict[str, Any]:
    """The ``state`` answer (game thread): the table, its stations and the race as JSON types."""
    track, laps, cars = table.lobby_summary()
    return {
        "table": table.state,
        "lobby": {"track": track, "laps": laps, "cars": cars, "modules": table.modules,
                  "championship": table.championship},
        "stations": [
            {"station": st.index + 1, "name": st.name, "joined": st.joined, "car": st.car,
             "lever": st.lever, "bot": st.idle_bot, "message": st.message,
             "lever_fault": list(st.lever_fault), "input_fault": st.input_fault}
            for st in table.stations
        ],
        "legends": legends_dict(table),
        "race": race_to_dict(table.race) if table.race is not None else None,
        "season": None if table.season is None else {
            "setup": table.season.setup.to_dict(), "race": table.season.index,
            "races": len(table.season.plan), "points": table.season.totals(),
            "standings": table.season.standings()},
    }


def legends_dict(table: Table) -> dict[str, Any] | None:
    """Where the board stands against the race's Legend cars (None without Legends): how many
    Legend moves the race has made, how many the players confirmed on the board, and the move
    a GO waits for now (a car to put back after an undo comes first), or null.

    Example::

        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, laps=1,
        ...               modules={"legends": {"cars": 1, "colours": ["red"]}})
        >>> legends_dict(table) is None  # (no race yet)
        True
    """
    race = table.race
    if race is None or "legends" not in race.hooks.by_key:
        return None
    waiting = table.legend_moves_waiting()
    first = waiting[0] if waiting else None
    return {
        "moves": legend_move_count(race), "confirmed": table.legends_confirmed,
        "waiting": len(waiting),
        "next": None if first is None else {
            "car": first.car, "name": first.name, "from": first.frm, "to": first.to,
            "spot": first.spot, "lap": first.lap, "back": first.back,
            "instruction": first.instruction()},
    }


# ---------------------------------------------------------------------- the table's own events
@dataclass(frozen=True, slots=True)
class TableStateChanged:
    """The table flow moved to ``state``: streamed beside the race's events.

    Example::

        >>> event = TableStateChanged("planning")
        >>> event.to_dict(), event.text()
        ({'type': 'table', 'state': 'planning'}, 'table planning')
    """

    state: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "table", "state": self.state}

    def text(self) -> str:
        return f"table {self.state}"


@dataclass(frozen=True, slots=True)
class RaceUndone:
    """Staff undo: the race went back to round ``round`` with ``decisions`` decisions kept
    (the replayed events are not streamed again).

    Example::

        >>> event = RaceUndone(decisions=17, round=3)
        >>> event.to_dict(), event.text()
        ({'type': 'undo', 'decisions': 17, 'round': 3}, 'undo: back to round 3, 17 decisions kept')
    """

    decisions: int
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "undo", "decisions": self.decisions, "round": self.round}

    def text(self) -> str:
        n = self.decisions
        return f"undo: back to round {self.round}, {n} decision{'' if n == 1 else 's'} kept"
