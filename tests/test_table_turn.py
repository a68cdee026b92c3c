"""The turn screen: a car's React, slipstream and discard steps as one screen with the likely
answer preset, driven through the MCP23017 models on gpiozero's mock pins and checked on the
OLED glass, every decision journalled."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pitboard.engine import decisions as dec
from pitboard.engine.cards import HEAT
from pitboard.engine.decisions import Discard, React, Slipstream
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.recorder import JournalRecorder
from pitboard.table.turn import (
    ADRENALINE_KEY,
    COOL_KEY,
    DISCARD_KEY,
    SLIP_KEY,
    TurnChoices,
    choices,
)
from pitboard.table.view import StationView
from rig import Grid6, Players, shows


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Grid6]:
    r = Grid6(seed=11)
    r.table.recorder = JournalRecorder(Journal(tmp_path / "journal"))
    for i in range(6):
        r.go(i)
    r.slot(0, 6)  # RACE: six people
    yield r
    r.close()


def turn_screen(rig: Grid6, wanted: Callable[[StationView, TurnChoices], bool]) -> int:
    """Play (as the heuristic bot's hands) until a station's turn screen matches ``wanted``;
    return that station."""
    players = Players(rig)
    for _ in range(3000):
        st = rig.table.current_station()
        race = rig.table.race
        assert race is not None and not race.over
        if st is not None and race.phase in (dec.REACT, dec.SLIPSTREAM):
            view = rig.view(st.index)
            assert st.car is not None
            if wanted(view, choices(race, st.car)):
                return st.index
        players.step()
    raise AssertionError("no such turn screen in this race")


def journalled(rig: Grid6) -> list[dec.Decision]:
    recorder = rig.table.recorder
    assert isinstance(recorder, JournalRecorder)
    saved = JournalRecorder(Journal(recorder.journal.directory)).recover()
    assert saved is not None
    return saved.log


def test_one_go_cools_the_most_heat_and_keeps_the_hand(rig: Grid6) -> None:
    station = turn_screen(rig, lambda v, c: c.cool >= 2 and not c.adrenaline and not c.boost
                          and c.slipstream is None and c.discard is False)
    race = rig.table.race
    assert race is not None
    car = race.cars[station]
    view = rig.view(station)
    assert view.soft_keys[COOL_KEY] == "COOL" and COOL_KEY not in view.keys_off
    cool = min(car.cooldown, car.hand.count(HEAT))
    assert view.message == f"GO: cool {cool}, keep hand"
    assert shows(rig.panels[station], "COOL", "GO")
    before = len(race.log)
    rig.go(station)  # one press: cool, done, keep (bots may play on after)
    assert race.log[before:before + 3] == [React(station, dec.COOLDOWN, cool),
                                           React(station, dec.DONE), Discard(station, ())]
    assert rig.table.current_station() is not rig.table.stations[station]
    assert journalled(rig) == race.log  # durable before the next screen
    rig.check_glass()


def test_a_toggle_changes_what_go_does_and_is_drawn_outlined(rig: Grid6) -> None:
    station = turn_screen(rig, lambda v, c: bool(c.slipstream) and not c.boost)
    view = rig.view(station)
    assert SLIP_KEY not in view.keys_off and "slip" in view.message
    rig.slot(station, SLIP_KEY)  # no slipstream this time
    view = rig.view(station)
    assert SLIP_KEY in view.keys_off and "slip" not in view.message
    rig.check_glass([station])
    race = rig.table.race
    assert race is not None
    before = len(race.log)
    rig.go(station)
    assert Slipstream(station, False) in race.log[before:]
    assert Slipstream(station, True) not in race.log[before:]
    assert journalled(rig) == race.log


def test_adrenaline_toggled_on_is_played_by_go(rig: Grid6) -> None:
    station = turn_screen(rig, lambda v, c: c.adrenaline is False and not c.boost)
    assert ADRENALINE_KEY in rig.view(station).keys_off
    rig.slot(station, ADRENALINE_KEY)
    assert ADRENALINE_KEY not in rig.view(station).keys_off
    race = rig.table.race
    assert race is not None
    before = len(race.log)
    rig.go(station)
    assert React(station, dec.ADRENALINE) in race.log[before:]


def test_disc_finishes_the_turn_then_shows_the_hand_to_discard(rig: Grid6) -> None:
    station = turn_screen(rig, lambda v, c: c.discard is False and not c.boost
                          and c.slipstream is None)
    race = rig.table.race
    assert race is not None
    rig.slot(station, DISCARD_KEY)
    assert race.phase == dec.DISCARD and race.current is not None
    assert race.current.id == station
    view = rig.view(station)
    assert view.cards and view.message == "discard? then GO"
    button = next(i for i, c in enumerate(view.cards) if c.code and not c.disabled)
    code = view.cards[button].code
    rig.slot(station, button)
    before = len(race.log)
    rig.go(station)
    assert race.log[before] == Discard(station, (code,))
    assert journalled(rig) == race.log


def test_undo_after_go_takes_back_one_step_and_asks_again(rig: Grid6) -> None:
    station = turn_screen(rig, lambda v, c: c.discard is False and not c.boost
                          and c.slipstream is None)
    race = rig.table.race
    assert race is not None
    rig.go(station)
    assert rig.table.race is not None
    log = list(rig.table.race.log)
    while log[-1] != Discard(station, ()):  # bots may have moved after
        log.pop()
    rig.table.undo()
    race = rig.table.race
    assert race is not None
    # back to the discard step, which GO had answered "keep": it is asked now, not replayed
    assert race.log == log[:-1] and race.phase == dec.DISCARD
    assert race.current is not None and race.current.id == station
    while rig.table.cars_back:  # a car that moved after the discard goes back first, a GO each
        assert rig.view(station).message.startswith(f"undo: {rig.table.cars_back[0].name}")
        rig.go(station)
    assert rig.view(station).message == "discard? then GO"
    rig.go(station)
    assert race.log[len(log) - 1] == Discard(station, ())
    assert rig.table.state in (flow.RESOLUTION, flow.PLANNING)


def test_the_turn_screens_choices_follow_the_rules() -> None:
    from pitboard.engine.race import Race
    from pitboard.engine.setup import RaceSetup

    race = Race(RaceSetup(track="usa", cars=2, laps=1, seed=3, names=("A", "B")))
    assert race.phase == dec.PLAN
    shown = choices(race, 0)
    # while planning nothing of the turn screen is offered but keeping the hand
    assert shown.adrenaline is None and shown.boost is None and shown.cool == 0
    assert shown.slipstream is None and shown.discard is False
    assert shown.summary() == "GO: keep hand"
