"""The store kiosk's module race: the shipped preset ([table.kiosk_modules]: visitors against 2
Legend cars, random weather, road tokens) on the duo profile, its GPIO pins on gpiozero's
MockFactory and its OLEDs as luma dummy devices. The attract loop shows the module race, GO
joins, the race runs with the modules, and the kiosk goes back to its presets after the results,
after everyone walks away, and after a power cut. Time is a fake clock; nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from pitboard.app import App
from pitboard.engine.legends import legend_cars
from pitboard.engine.weather import race_weather
from pitboard.hw.display import EmulatedDisplay
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from pitboard.hwconfig import GpioInput, load_profile, profiles_dir
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.recorder import JournalRecorder
from pitboard.table.screens import render
from pitboard.table.table import KioskOptions, Table, Tick
from rig import close_lever

#: the shipped profiles' kiosk demo
PRESET = {"legends": {"cars": 2}, "weather": {"weather": "random", "road": True}}
#: long enough for a contact to pass the 20 ms debounce
SETTLE = 0.05


class DuoKiosk:
    """The duo profile with ``kiosk = true``: App.build as ``pitboard run`` does, with mock
    pins and luma dummy displays, on one fake clock."""

    def __init__(self, tmp_path: Path, *, seed: int = 3) -> None:
        profile = tmp_path / "store.toml"
        profile.write_text((profiles_dir() / "duo.toml").read_text().replace(
            "kiosk = false", "kiosk = true"))
        self.config = load_profile(str(profile))
        self.now = 1000.0
        self.factory = MockFactory()
        self.displays = [EmulatedDisplay(station=st.label) for st in self.config.stations]
        self.app = App.build(self.config, journal=tmp_path / "journal", pin_factory=self.factory,
                             displays=self.displays, clock=lambda: self.now, seed=seed)
        self.table = self.app.table
        self.app.boot()
        for station in range(len(self.config.stations)):
            self.lever(station, 1)

    def spec(self, station: int) -> GpioInput:
        spec = self.config.stations[station].input
        assert isinstance(spec, GpioInput)
        return spec

    def loop(self) -> None:
        """One pass of the game loop after SETTLE: poll the pins and displays, handle events."""
        self.now += SETTLE
        self.app.poll()
        while self.table.step(timeout=0):
            pass

    def press(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()  # contacts close to GND (active low)
        self.loop()
        self.factory.pin(pin).drive_high()
        self.loop()

    def lever(self, station: int, gear: int) -> None:
        close_lever(self.factory, self.spec(station).lever, gear)
        self.loop()

    def hand(self, event: StationEvent) -> None:
        """What a visitor's hand does for this event, on the station's pins."""
        spec = self.spec(event.station)
        if isinstance(event, GoPressed):
            self.press(spec.go)
        elif isinstance(event, SlotPressed):
            self.press(spec.slots[event.slot])
        else:
            assert isinstance(event, LeverMoved), event
            self.lever(event.station, event.gear)

    def wait(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now += 0.5
            self.table.tick()

    def play(self, *, until_round: int | None = None, limit: int = 5000) -> None:
        """Visitors press promptly until nobody is asked (or the race reaches a round)."""
        for _ in range(limit):
            race = self.table.race
            if until_round is not None and race is not None and race.round >= until_round:
                return
            event = next_input(self.table)
            if event is None:
                return
            self.hand(event)
        raise AssertionError("the visitors were never done")

    def glass_matches_views(self) -> None:
        for display, view in zip(self.displays, self.table.views, strict=True):
            assert view is not None and display.image is not None
            assert display.image.tobytes() == render(view).tobytes()

    def close(self) -> None:
        self.app.close()
        self.factory.reset()


def test_the_attract_loop_shows_the_module_race(tmp_path: Path) -> None:
    kiosk = DuoKiosk(tmp_path)
    try:
        table = kiosk.table
        assert table.state == flow.ATTRACT
        attract = table.attract
        assert attract is not None and attract.setup.modules == PRESET
        assert sorted(legend_cars(attract).values()) == ["black", "blue"]
        view = table.views[0]
        assert view is not None and view.kind == "attract"
        assert view.lines[1].startswith("vs 2 Legends, ") and view.lines[1].endswith(
            ", road tokens")
        assert race_weather(attract) in view.lines[1]
        kiosk.wait(30)  # the demo race moves on the displays
        assert len(attract.log) > 0
        kiosk.glass_matches_views()
    finally:
        kiosk.close()


def test_a_visitor_races_the_legends_and_the_kiosk_resets_after_the_results(
        tmp_path: Path) -> None:
    kiosk = DuoKiosk(tmp_path)
    try:
        table = kiosk.table
        kiosk.press(kiosk.spec(1).go)  # a visitor at S2 presses GO
        assert table.state == flow.LOBBY
        lobby = table.views[1]
        assert lobby is not None and "2 cars: 1 player, 1 bot" in lobby.lines
        assert "+ 2 Legends" in lobby.lines  # the presets, a line each (lobby_options.py)
        assert any(line.startswith("+ weather ") for line in lobby.lines)
        kiosk.wait(table.kiosk.join_seconds + 1 if table.kiosk else 0)
        race = table.race
        # the set-up checklist first: tokens and Legend cars on the board
        assert race is not None and table.state == flow.SETUP
        assert race.setup.modules == PRESET and race_weather(race) is not None
        assert race.setup.names == ("S2", "Bot 1", "Black Legend", "Blue Legend")
        assert [st.car for st in table.stations] == [None, 0]
        kiosk.glass_matches_views()
        kiosk.play()
        assert table.state == flow.RESULTS and race.over
        kiosk.glass_matches_views()
        kiosk.wait(table.kiosk.results_seconds + 1 if table.kiosk else 0)
        assert table.state == flow.ATTRACT and table.race is None
        assert table.modules == PRESET and not any(st.joined for st in table.stations)
        assert table.attract is not None and table.attract.setup.modules == PRESET
        kiosk.glass_matches_views()
    finally:
        kiosk.close()
    again = DuoKiosk(tmp_path)  # the finished race is closed in the journal: not resumed
    try:
        assert again.table.state == flow.ATTRACT and again.table.race is None
    finally:
        again.close()


def test_after_a_power_cut_the_race_resumes_then_the_kiosk_resets_when_nobody_plays(
        tmp_path: Path) -> None:
    kiosk = DuoKiosk(tmp_path, seed=5)
    kiosk.press(kiosk.spec(0).go)
    kiosk.press(kiosk.spec(1).go)  # two visitors against the 2 Legends
    kiosk.wait(21)
    kiosk.play(until_round=2)
    race = kiosk.table.race
    assert race is not None and race.round == 2
    log = list(race.log)
    kiosk.factory.reset()  # the plug is pulled: nothing is closed, the journal is all there is

    back = DuoKiosk(tmp_path, seed=99)
    try:
        table = back.table
        resumed = table.race
        assert resumed is not None and list(resumed.log) == log
        assert resumed.setup.modules == PRESET and [st.car for st in table.stations] == [0, 1]
        assert table.state in (flow.PLANNING, flow.RESOLUTION)
        back.glass_matches_views()
        kiosk_options = table.kiosk
        assert kiosk_options is not None
        back.wait(kiosk_options.table_idle_seconds + 1)  # the visitors went home
        assert table.state == flow.ATTRACT and table.race is None
        assert table.modules == PRESET and table.cars == kiosk_options.cars
        assert not any(st.joined or st.idle_bot for st in table.stations)
        back.glass_matches_views()
    finally:
        back.close()
    third = DuoKiosk(tmp_path)  # the abandoned race is closed: the next boot starts clean
    try:
        assert third.table.state == flow.ATTRACT and third.table.race is None
    finally:
        third.close()


# -- the kiosk's presets, on the table itself --------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def wait(table: Table, clock: Clock, seconds: float) -> None:
    end = clock.now + seconds
    while clock.now < end:
        clock.now += 0.5
        table.handle(Tick(clock.now))


def test_legends_give_up_their_seats_to_visitors() -> None:
    """1 driven car and 3 Legends: one visitor races 3 Legends; five visitors leave room for
    one Legend; six fill the grid and race without the Legends module."""
    for joined, legends in ((1, 3), (5, 1), (6, 0)):
        clock = Clock()
        table = Table(stations=6, clock=clock, seed=2, kiosk=KioskOptions(
            cars=1, modules={"legends": {"cars": 3}, "weather": {"weather": "fog"}}))
        for station in range(joined):
            table.handle(GoPressed(station=station))
        wait(table, clock, 21)
        race = table.race
        assert race is not None, (joined, table.lobby_problem)
        assert race.setup.cars == joined + legends
        assert len(legend_cars(race)) == legends
        assert race.setup.modules["weather"] == {"weather": "fog"}
        assert ("legends" in race.setup.modules) == bool(legends)


def test_a_staff_change_lasts_one_race_then_the_kiosk_presets_return(tmp_path: Path) -> None:
    clock = Clock()
    table = Table(stations=2, clock=clock, seed=4, kiosk=KioskOptions(modules=PRESET),
                  recorder=JournalRecorder(Journal(tmp_path)))
    table.handle(GoPressed(station=0))
    table.set_module("weather", None)  # staff, over the console: no weather this time
    table.set_module("legends", {"cars": 1})
    wait(table, clock, 21)
    race = table.race
    assert race is not None and race.setup.modules == {"legends": {"cars": 1}}
    wait(table, clock, 121)  # the visitor walked away
    assert table.state == flow.ATTRACT and table.modules == PRESET
    assert table.attract is not None and table.attract.setup.modules == PRESET
    table.handle(GoPressed(station=1))
    wait(table, clock, 21)
    assert table.race is not None and table.race.setup.modules == PRESET


# -- the preset in the profile ---------------------------------------------------------------


def _store(tmp_path: Path, extra: str) -> Path:
    """The sim profile as a store kiosk, its demo preset replaced by ``extra``."""
    text = (profiles_dir() / "sim.toml").read_text().replace("kiosk = false", "kiosk = true")
    start = text.index("[table.kiosk_modules.legends]")
    end = text.index("[console]")
    path = tmp_path / "store.toml"
    path.write_text(text[:start] + extra + "\n" + text[end:])
    return path


def test_the_kiosk_preset_is_checked_like_the_lobby_presets(tmp_path: Path) -> None:
    from pitboard.hwconfig import ConfigError

    with pytest.raises(ConfigError) as unknown:
        load_profile(str(_store(tmp_path, "[table.kiosk_modules.nosuch]\nx = 1\n")))
    assert any("table.kiosk_modules.nosuch: unknown module (modules: " in p
               for p in unknown.value.problems)
    with pytest.raises(ConfigError) as refused:
        load_profile(str(_store(tmp_path, '[table.kiosk_modules.weather]\nweather = "hail"\n')))
    assert any("table.kiosk_modules.weather: " in p for p in refused.value.problems)


def test_without_a_kiosk_preset_the_kiosk_races_the_lobby_presets(tmp_path: Path) -> None:
    from pitboard.app import kiosk_options

    lobby = '[table.modules.weather]\nweather = "sun"\n'
    config = load_profile(str(_store(tmp_path, lobby)))
    assert config.table.kiosk_modules is None
    assert kiosk_options(config.table).modules == {"weather": {"weather": "sun"}}
    base = load_profile(str(_store(tmp_path, lobby + "[table.kiosk_modules]\n")))
    assert base.table.kiosk_modules == {}  # an empty preset: the base game at the kiosk
    assert kiosk_options(base.table).modules == {}
    shipped = load_profile("grid6")
    assert shipped.table.kiosk_modules == PRESET and shipped.table.modules == {}
