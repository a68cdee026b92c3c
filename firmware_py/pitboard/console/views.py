"""The table as the console reports it (game thread): :func:`status_line` and
:func:`state_dict`, the answers to ``status`` and ``state``.
"""

from __future__ import annotations

from typing import Any

from ..engine.snapshot import race_to_dict
from ..table import flow
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
    return " ".join([f"state={state}", *fields, f"joined={joined}",
                     f"stations={len(table.stations)}", f"modules={','.join(modules) or '-'}"])


def state_dict(table: Table) -> dict[str, Any]:
    """The ``state`` answer (game thread): the table, its stations and the race as JSON types."""
    track, laps, cars = table.lobby_summary()
    return {
        "table": table.state,
        "lobby": {"track": track, "laps": laps, "cars": cars, "modules": table.modules},
        "stations": [
            {"station": st.index + 1, "name": st.name, "joined": st.joined, "car": st.car,
             "lever": st.lever, "bot": st.idle_bot, "message": st.message,
             "lever_fault": list(st.lever_fault), "input_fault": st.input_fault}
            for st in table.stations
        ],
        "race": race_to_dict(table.race) if table.race is not None else None,
    }
