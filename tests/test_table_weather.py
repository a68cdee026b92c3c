"""Weather on the stations: the sector effect where the car stands, the corner limits the road
tokens change in the warnings and forecasts, and the longer-slipstream choice on the turn
screen (SLIP cycles through the reaches a weather sector offers), driven with station
inputs."""

from __future__ import annotations

from typing import Any

from pitboard.engine.decisions import Slipstream
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.screens import _corner_texts, render
from pitboard.table.table import Table
from pitboard.table.turn import SLIP_KEY
from pitboard.table.view import StationView
from pitboard.table.weather_view import sector_line
from rig import Grid6, find_text

#: storm, and every corner's sector a weather sector: slipstream +2 all round the track
STORM_EVERYWHERE: dict[str, Any] = {
    "weather": {"weather": "storm", "road": {str(n): "weather" for n in (1, 2, 3, 4)}}}
#: every corner one slower than printed
SLOW_CORNERS: dict[str, Any] = {
    "weather": {"weather": "cloud", "road": {str(n): "limit-1" for n in (1, 2, 3, 4)}}}


def started(modules: dict[str, Any], *, stations: int = 2, seed: int = 5) -> Table:
    table = Table(stations=stations, render=render, seed=seed, clock=lambda: 0.0,
                  modules=modules)
    for i in range(stations):
        table.handle(GoPressed(station=i))
    table.start_race(track="usa", laps=1, cars=stations)
    while table.state == flow.SETUP:
        table.handle(GoPressed(station=0))
    return table


def test_every_station_names_the_sector_effect_where_its_car_stands() -> None:
    rig = Grid6(seed=3)
    rig.table.modules = {k: dict(v) for k, v in STORM_EVERYWHERE.items()}
    rig.go(0)
    rig.go(1)
    rig.slot(0, 6)
    for _ in range(4):
        rig.go(0)
    assert rig.table.state == flow.PLANNING and rig.table.race is not None
    for i in range(2):
        view = rig.view(i)
        assert view.kind == "planning" and view.sector == "sector: slipstream +2"
        assert not view.corners
        assert find_text(rig.panels[i].image(), "sector: slipstream +2") is not None
    assert sector_line(rig.table.race, 0) == "sector: slipstream +2"
    rig.check_glass()
    rig.close()


def test_the_corner_warnings_use_the_road_tokens_limits() -> None:
    table = started(SLOW_CORNERS)
    race = table.race
    assert race is not None
    seen: list[StationView] = []
    for _ in range(3000):
        views = [v for v in table.views if v is not None and v.kind == "planning" and v.corners]
        if views:
            seen = views
            break
        event = next_input(table)
        assert event is not None
        table.handle(event)
    assert seen, "no planning screen with a corner ahead"
    view = seen[0]
    for corner in view.corners:
        printed = race.track.corners[corner.number - 1].limit
        assert corner.limit == race.corner_limit(corner.number - 1) == printed - 1
        assert corner.adjust == -1 and corner.overheat == 0
    # the screen says the limit is the road token's, in whichever wording fits
    image = render(view)
    marked = [t for t in _corner_texts(view) if "-1)" in t]
    if len(view.corners) == 1:  # one corner: its left part, the Heat in the field beside it,
        c = view.corners[0]       # the road token's change below it when the row is free
        marked = [f"C{c.number} limit {c.limit} (road -1)", f"C{c.number} lim{c.limit} (road -1)",
                  f"C{c.number} lim{c.limit}(-1)"]
        if not (view.message or view.note):
            marked = ["road -1"]
    assert marked and any(find_text(image, t) is not None for t in marked)


def slip_screen(table: Table) -> int:
    """Play until a person's turn screen offers a choice of slipstream reach; its station."""
    for _ in range(5000):
        race = table.race
        assert race is not None and not race.over, "no longer slipstream offered"
        for st in table.stations:
            view = table.views[st.index]
            if view is not None and view.kind == "resolution" and \
                    view.soft_keys[SLIP_KEY:SLIP_KEY + 1] in (("SL2",), ("SL4",)):
                return st.index
        event = next_input(table)
        assert event is not None
        table.handle(event)
    raise AssertionError("no slipstream choice")


def test_slip_cycles_through_the_longer_reaches_and_go_takes_the_one_shown() -> None:
    table = started(STORM_EVERYWHERE, seed=7)
    station = slip_screen(table)
    race = table.race
    assert race is not None and race.current is not None
    car = race.current.id
    assert race.slipstream_reaches(race.cars[car]) == (2, 4)
    labels = []
    for _ in range(3):
        view = table.views[station]
        assert view is not None
        labels.append((view.soft_keys[SLIP_KEY], SLIP_KEY in view.keys_off))
        table.handle(SlotPressed(station=station, slot=SLIP_KEY))
    # from the likely answer, each press: the next reach, then none, then the shortest again
    cycle = [("SL2", False), ("SL4", False), ("SLIP", True)]
    start = cycle.index(labels[0])
    assert labels == [cycle[(start + i) % 3] for i in range(3)]
    view = table.views[station]
    assert view is not None
    if view.soft_keys[0] == "ADR" and 0 not in view.keys_off:
        table.handle(SlotPressed(station=station, slot=0))  # no +1: stay beside the car ahead
    while True:  # to 4 spaces
        view = table.views[station]
        assert view is not None
        if view.soft_keys[SLIP_KEY] == "SL4":
            break
        table.handle(SlotPressed(station=station, slot=SLIP_KEY))
    assert "slip 4" in view.message
    before = len(race.log)
    d0 = race.cars[car].d
    table.handle(GoPressed(station=station))
    slips = [d for d in race.log[before:] if isinstance(d, Slipstream)]
    assert slips == [Slipstream(car, True, 4)]
    moved = [e for e in race.events if e.kind == "move" and getattr(e, "car", None) == car]
    assert race.cars[car].d >= d0  # the car went on (blocking may cut a move short)
    assert moved
