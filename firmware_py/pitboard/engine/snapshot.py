"""Race state to JSON-ready dicts and back; replay and undo from the decision log."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from ..track import Track
from .decisions import Decision, decision_from_dict, decision_to_dict
from .events import event_from_dict
from .race import Car, Race
from .setup import RaceSetup

FORMAT = 1
_PILES = ("hand", "discard", "play")
#: Car fields a saved state leaves out: ``slip_from`` lives within one decision (a slipstream
#: and the corner check right after it), and ``retired`` is written only when true, so states
#: of races nobody left read and write byte for byte as before these fields were added
_NOT_SAVED = frozenset({"slip_from"})
_ONLY_TRUE = frozenset({"retired"})
_CAR_FIELDS = tuple(f.name for f in fields(Car) if f.name not in _NOT_SAVED)
_DEFAULTED = frozenset(f.name for f in fields(Car) if f.default is not MISSING)


def car_to_dict(race: Race, car: Car) -> dict[str, Any]:
    """A car as JSON: piles in order, draw pile TOP FIRST, plus its place on the board."""
    out: dict[str, Any] = {name: getattr(car, name) for name in _CAR_FIELDS
                           if name not in _ONLY_TRUE or getattr(car, name)}
    for name in _PILES:
        out[name] = list(out[name])
    out["draw"] = list(reversed(car.draw))
    out["lap"] = race.lap_of(car.d)
    out["racing_line"] = car.spot == race.racing_spot(car.d)
    return out


def race_to_dict(race: Race, *, events: bool = False) -> dict[str, Any]:
    """The whole state (and optionally the event log) as plain JSON types."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "setup": race.setup.to_dict(),
        "track": race.track.key,
        "laps": race.laps,
        "round": race.round,
        "phase": race.phase,
        "order": list(race.order),
        "turn": race.turn,
        "shuffles": race.shuffles,
        "car_turns": race.car_turns,
        "stress_reserve": race.stress_reserve,
        "hall_of_fame": list(race.hall_of_fame),
        "grid": list(race.grid),
        "cars": [car_to_dict(race, c) for c in race.cars],
        "log": [decision_to_dict(d) for d in race.log],
        "event_count": len(race.events),
    }
    if race.hooks.modules:
        out["modules"] = {m.key: m.to_dict() for m in race.hooks.modules}
    if events:
        out["events"] = [e.to_dict() for e in race.events]
    return out


def race_from_dict(data: dict[str, Any], *, track: Track | None = None) -> Race:
    """Rebuild a race from :func:`race_to_dict` output (the event log is restored if present).

    Raises ValueError with a one-line reason if the data is not a race state.
    """
    try:
        if data.get("format") != FORMAT:
            raise ValueError(f"unsupported state format {data.get('format')!r}")
        setup = RaceSetup.from_dict(data["setup"])
        race = Race.restore(setup, laps=int(data["laps"]), modules=data.get("modules", {}),
                            track=track)
        race.round = int(data["round"])
        race.phase = str(data["phase"])
        race.order = [int(i) for i in data["order"]]
        race.turn = int(data["turn"])
        race.shuffles = int(data["shuffles"])
        race.car_turns = int(data["car_turns"])
        race.stress_reserve = int(data["stress_reserve"])
        race.hall_of_fame = [int(i) for i in data["hall_of_fame"]]
        race.grid = [int(i) for i in data.get("grid", ())]
        race.log = [decision_from_dict(d) for d in data["log"]]
        race.events = [event_from_dict(e) for e in data.get("events", [])]
        for raw in data["cars"]:
            # a field added since the state was saved takes its default (retired, slip_from)
            values = {name: raw[name] for name in _CAR_FIELDS if name in raw or
                      name not in _DEFAULTED}
            for name in _PILES:
                values[name] = list(values[name])
            values["draw"] = list(reversed(raw["draw"]))
            race.cars.append(Car(**values))
        race.restored()
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a race state: missing or wrong field {exc}") from None
    return race


def replay(setup: RaceSetup, log: list[Decision], *, track: Track | None = None) -> Race:
    """Play ``log`` from ``setup``: the same race, decision for decision."""
    race = Race(setup, track=track)
    for decision in log:
        race.apply(decision)
    return race


def undo(race: Race) -> Race:
    """The race as it was before its last decision (replayed; the original is untouched)."""
    if not race.log:
        raise ValueError("nothing to undo")
    return replay(race.setup, race.log[:-1], track=race.track)
