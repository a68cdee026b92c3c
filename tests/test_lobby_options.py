"""Module options chosen at the table: the lobby's OPTS pages (tray buttons, no keyboard), the
console's garage/legends/weather/draft commands, and a profile's Garage preset. Every station
names the chosen modules before the race; a value the engine refuses is one line, and nothing
is lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import pitboard.engine  # noqa: F401  (registers the shipped modules)
from pitboard.app import App
from pitboard.console import ConsoleProtocol
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.hwconfig import load_config
from pitboard.table import flow
from pitboard.table.lobby_options import PAGE_KEY, choices
from pitboard.table.table import Table
from rig import Grid6, shows

PIN = "2468"


@pytest.fixture
def rig() -> Iterator[Grid6]:
    r = Grid6(seed=11)
    yield r
    r.close()


def lines(table: Table, station: int = 0) -> tuple[str, ...]:
    view = table.views[station]
    assert view is not None and view.kind == "lobby"
    return view.lines


def press(table: Table, *slots: int, station: int = 0) -> None:
    for slot in slots:
        table.handle(SlotPressed(station=station, slot=slot))


def test_modules_chosen_with_the_tray_buttons_through_the_pins(rig: Grid6) -> None:
    """S1 turns on a Garage draft of basic cards, 2 Legends and foggy weather with road
    conditions with its tray buttons alone; every station names them before the race."""
    table = rig.table
    for i in range(2):
        rig.go(i)
    rig.slot(0, PAGE_KEY)  # OPTS: the Garage page
    assert shows(rig.panels[0], "S1 GARAGE".replace("S1", "Ann"), "Garage: off")
    rig.slot(0, 0)  # TYPE off -> random
    rig.slot(0, 0)  # random -> draft
    rig.slot(0, 1)  # POOL all -> basic
    assert shows(rig.panels[0], "Garage: draft", "basic cards, expansions off")
    rig.slot(0, PAGE_KEY)  # the Legends page
    rig.slot(0, 0)
    rig.slot(0, 0)  # 2 Legend cars
    rig.slot(0, 1)  # Pro Legends +1
    assert shows(rig.panels[0], "Legends: 2 cars", "pro +1, aggressive off")
    rig.slot(0, PAGE_KEY)  # the Weather page
    rig.slot(0, 0)  # off -> random
    rig.slot(0, 0)  # random -> cloud
    rig.slot(0, 0)  # cloud -> fog
    rig.slot(0, 1)  # road conditions on
    assert shows(rig.panels[0], "weather: fog", "road: on")
    rig.slot(0, PAGE_KEY)  # the Season page (championship: off)
    assert shows(rig.panels[0], "championship: off", "RACE starts one race")
    rig.slot(0, PAGE_KEY)  # back to the race page
    assert table.modules == {
        "garage": {"choose": "draft", "pool": "basic", "expansions": False},
        "legends": {"cars": 2, "pro": 1}, "weather": {"weather": "fog", "road": True}}
    for i in range(6):  # every station, joined or not, names them
        assert shows(rig.panels[i], "+ Garage draft basic", "+ 2 Legends pro+1",
                     "+ weather fog road"), f"S{i + 1}"
    rig.check_glass()
    rig.slot(1, 6)  # RACE from S2: 2 players, 2 Legends, the set-up checklist, the draft
    race = table.race
    assert race is not None and table.state == flow.SETUP
    while table.state == flow.SETUP:
        rig.go(1)
    assert table.state == flow.DRAFT
    assert race.setup.modules == table.modules and race.setup.cars == 4


def test_each_station_keeps_its_own_page() -> None:
    table = Table(stations=2, seed=1)
    press(table, PAGE_KEY)
    view0, view1 = table.views
    assert view0 is not None and view0.title == "S1 GARAGE"
    assert view0.soft_keys == ("TYPE", "POOL", "EXP", "OPTS", "", "", "RACE")
    assert view1 is not None and view1.title == "S2 LOBBY"
    assert view1.soft_keys == ("TRK", "LAPS", "CARS", "OPTS", "", "", "RACE")
    press(table, 0, station=1)  # S2's first button is still TRK
    assert table.track != "usa" and table.modules == {}


def test_an_option_of_a_module_that_is_off_says_what_to_press_first() -> None:
    table = Table(stations=1, seed=1)
    press(table, PAGE_KEY, 1)  # POOL with the Garage off
    assert lines(table)[:2] == ("THE GARAGE IS OFF: TYPE FIRST", "Garage: off")
    assert table.modules == {}
    press(table, PAGE_KEY, 2)  # AGGR without Legends
    assert lines(table)[0] == "NO LEGENDS: CARS FIRST"


def test_a_value_the_engine_refuses_is_skipped_and_the_station_says_why() -> None:
    table = Table(stations=3, seed=1)
    for i in range(3):
        table.handle(GoPressed(station=i))
    press(table, PAGE_KEY, PAGE_KEY)  # the Legends page
    press(table, 0, 0, 0)  # 3 Legends: 3 players + 3 = 6 cars
    assert table.modules["legends"] == {"cars": 3}
    press(table, 0)  # 4 and 5 do not fit beside 3 players: back to none
    assert "legends" not in table.modules
    assert lines(table)[:2] == ("SKIPPED: 3 PLAYERS + 4 LEGENDS: A", "RACE HAS AT MOST 6 CARS")
    press(table, 0)  # 1 Legend: fits, the message goes
    assert table.modules["legends"] == {"cars": 1} and lines(table)[0] == "Legends: 1 car"


def test_road_conditions_alone_bring_a_random_weather_and_off_takes_both() -> None:
    table = Table(stations=1, seed=1)
    press(table, PAGE_KEY, PAGE_KEY, PAGE_KEY, 1)  # Weather page: ROAD
    assert table.modules == {"weather": {"weather": "random", "road": True}}
    press(table, 0, 0, 0, 0, 0, 0)  # random -> cloud ... sun
    assert table.modules == {"weather": {"weather": "sun", "road": True}}
    press(table, 0)  # off, but the road tokens still want a weather: drawn at random
    assert table.modules == {"weather": {"weather": "random", "road": True}}
    press(table, 1)  # ROAD off
    assert table.modules == {"weather": {"weather": "random"}}
    press(table, 0, 0, 0, 0, 0, 0, 0)  # ... sun -> off: no Weather module at all
    assert table.modules == {} and lines(table)[:2] == ("weather: off", "road: off")


def test_console_commands_in_the_lobbys_words() -> None:
    table = Table(stations=2, seed=1)
    proto = ConsoleProtocol(table, staff_pin=PIN)
    proto.handle_line(f"pin {PIN}")
    assert proto.handle_line("legends pro=2") == [
        "ERR legends is not on: legends 0-5 [pro=0-6] [aggressive=on|off]"]
    assert proto.handle_line("garage draft pool=basic")[0].endswith(" modules=garage")
    assert proto.handle_line("garage expansions=on")[0].startswith("OK ")
    assert table.modules["garage"] == {"choose": "draft", "pool": "basic", "expansions": True}
    assert proto.handle_line("legends 2 aggressive=on")[0].endswith(" modules=garage,legends")
    assert proto.handle_line("weather rain road=on")[0].endswith(
        " modules=garage,legends,weather")
    assert table.modules["weather"] == {"weather": "rain", "road": True}
    assert proto.handle_line("garage sometimes") == [
        "ERR usage: garage off|random|draft|snake [pool=P] [expansions=on|off]"]
    assert proto.handle_line("legends 7") == [
        "ERR usage: legends 0-5 [pro=0-6] [aggressive=on|off]"]
    proto.handle_line("input 1 go")
    proto.handle_line("input 2 go")
    assert proto.handle_line("legends 5") == [
        "ERR 2 players + 5 Legends: a race has at most 6 cars"]
    assert table.modules["legends"] == {"cars": 2, "aggressive": True}  # nothing lost
    assert proto.handle_line("draft") == ["ERR no draft yet: it starts with the race"]
    started = proto.handle_line("new-race cars=2 seed=3")[0]
    assert " state=setup " in started and started.endswith(" modules=garage,legends,weather")
    while table.state == flow.SETUP:  # the set-up checklist's pages, then the draft
        proto.handle_line("input 1 go")
    assert table.state == flow.DRAFT
    reply = proto.handle_line("draft")[0]
    assert reply.startswith("OK draft round=1/3 pick=S") and " market=U" in reply
    assert reply.endswith(" picks=1:-;2:-")
    assert proto.handle_line("weather off") == [
        "ERR a race is on (draft): modules apply to the next race, 'reset' first"]
    proto.handle_line("reset")
    assert proto.handle_line("garage off")[0].endswith(" modules=legends,weather")
    proto.handle_line("new-race seed=3")
    assert proto.handle_line("draft") == [
        "ERR the Garage is not on in this race (garage draft|snake turns it on for the next "
        "one)"]


def test_a_kiosk_profile_races_a_garage_draft_and_bots_pick_for_idle_seats(
        tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(f"""
[table]
name = "Store demo"
kiosk = true
kiosk_cars = 3
modules = {{ garage = {{ choose = "draft" }} }}

[console]
staff_pin = "{PIN}"

[journal]
dir = "{tmp_path / 'journal'}"

[[stations]]
input = {{ kind = "emulated" }}
display = {{ driver = "ssd1306", bus = "emulated" }}
""")
    config = load_config(path)
    assert config.table.modules == {"garage": {"choose": "draft"}}
    now = [0.0]
    app = App.build(config, clock=lambda: now[0], seed=1)
    app.boot()
    table = app.table
    table.handle(GoPressed(station=0))  # wakes the kiosk and joins
    assert "+ Garage draft all" in lines(table)
    now[0] += 60.0  # the countdown runs out: the kiosk race starts with its draft
    table.tick()
    assert table.state == flow.DRAFT and table.race is not None
    view = table.views[0]
    assert view is not None and view.kind == "draft"  # the bots' picks came at once
    now[0] += 200.0  # the visitor walks away mid-draft: back to the attract loop
    table.tick()
    assert table.state == flow.ATTRACT and table.race is None
    app.close()


def test_the_lobby_counts_the_cars_the_legends_leave() -> None:
    """CARS at 6 with 2 Legends on: the race gets 4 driven cars, and the lobby says so."""
    rig = Grid6(seed=11)
    try:
        table = rig.table
        table.cars = 6
        table.modules = {"legends": {"cars": 2}}
        rig.go(0)
        assert table.lobby_summary()[2] == 4
        setup = table._next_setup(table.modules, seed=1)
        assert setup.cars == 6 and setup.names[1:4] == ("Bot 1", "Bot 2", "Bot 3")
    finally:
        rig.close()


def test_stepping_a_legends_option_keeps_the_colours_a_profile_set() -> None:
    modules = {"legends": {"colours": ["red", "yellow", "green"], "pro": 1}}
    key, tries = choices("legends", 2, modules)  # AGGR
    assert key == "legends" and tries == [
        {"colours": ["red", "yellow", "green"], "cars": 3, "pro": 1, "aggressive": True}]
    key, tries = choices("legends", 0, modules)  # CARS 3 -> 4, 5 (more than the colours), 0, 1
    assert tries[0] == {"cars": 4, "pro": 1} and None in tries
    assert {"colours": ["red"], "cars": 1, "pro": 1} in tries
