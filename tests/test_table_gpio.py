"""A whole race at the table driven only through mock GPIO pins (the duo profile).

Each player's choice comes from the heuristic bot, but reaches the table the way a person's
would: lever contacts and tray buttons on gpiozero's MockFactory, debounced by our own code on a
fake clock, posted to the table's queue and handled by the game loop's ``handle``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from pitboard.bots import HeuristicBot
from pitboard.engine.decisions import Plan
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.hw.inputs import build_station_inputs
from pitboard.hwconfig import GpioInput, load_profile
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.table import Table
from rig import close_lever


class Rig:
    """Two GPIO stations wired to a table, with a hand on every pin."""

    def __init__(self, factory: MockFactory) -> None:
        self.now = 0.0
        self.factory = factory
        self.config = load_profile("duo")
        self.table = Table(stations=2, clock=self.clock, seed=11)
        self.inputs = [build_station_inputs(self.config, i, self.table.post,
                                            pin_factory=factory, clock=self.clock)
                       for i in range(2)]
        for i in range(2):
            self.lever(i, 1)

    def clock(self) -> float:
        return self.now

    def spec(self, station: int) -> GpioInput:
        spec = self.config.stations[station].input
        assert isinstance(spec, GpioInput)
        return spec

    def settle(self) -> None:
        self.now += 0.05  # longer than the debounce
        for inputs in self.inputs:
            inputs.poll()
        while not self.table.queue.empty():
            self.table.handle(self.table.queue.get())

    def press(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()
        self.settle()
        self.factory.pin(pin).drive_high()
        self.settle()

    def slot(self, station: int, slot: int) -> None:
        self.press(self.spec(station).slots[slot])

    def go(self, station: int) -> None:
        self.press(self.spec(station).go)

    def lever(self, station: int, gear: int) -> None:
        close_lever(self.factory, self.spec(station).lever, gear)
        self.settle()

    def close(self) -> None:
        for inputs in self.inputs:
            inputs.close()


@pytest.fixture
def rig() -> Iterator[Rig]:
    factory = MockFactory()
    r = Rig(factory)
    yield r
    r.close()
    factory.reset()


def _press_cards(rig: Rig, station: int, cards: tuple[str, ...]) -> None:
    st = rig.table.stations[station]
    wanted = list(cards)
    while wanted:
        visible = st.visible_slots()
        for button, index in enumerate(visible):
            code = st.slots[index]
            if code in wanted and index not in st.selected:
                rig.slot(station, button)
                wanted.remove(code)
                break
        else:
            assert st.paged, f"card {wanted} not on the tray"
            rig.slot(station, 6)  # MORE


def test_lobby_join_and_start(rig: Rig) -> None:
    assert rig.table.state == flow.LOBBY
    rig.go(0)
    rig.go(1)
    assert [s.joined for s in rig.table.stations] == [True, True]
    assert rig.table.views[0] is not None and rig.table.views[0].kind == "lobby"
    rig.slot(0, 2)  # CARS: 3 with one bot
    rig.slot(0, 6)  # START
    assert rig.table.state == flow.PLANNING
    race = rig.table.race
    assert race is not None and race.setup.cars == 3
    assert [s.car for s in rig.table.stations] == [0, 1]


def test_go_refuses_a_wrong_card_count(rig: Rig) -> None:
    rig.go(0)
    rig.slot(0, 6)
    rig.lever(0, 2)
    rig.go(0)  # no card selected
    view = rig.table.views[0]
    assert view is not None and view.kind == "planning"
    assert view.message == "play 2 cards"
    assert rig.table.race is not None and not rig.table.race.cars[0].planned


def test_lever_with_two_contacts_shows_a_fault_and_blocks_go(rig: Rig) -> None:
    rig.go(0)
    rig.slot(0, 6)
    lever = rig.spec(0).lever
    rig.factory.pin(lever[1]).drive_low()
    rig.settle()  # gears 1 and 2 closed together
    view = rig.table.views[0]
    assert view is not None and view.kind == "fault"
    rig.lever(0, 2)
    view = rig.table.views[0]
    assert view is not None and view.kind == "planning" and view.target_gear == 2


def test_whole_race_through_the_pins(rig: Rig) -> None:
    table = rig.table
    rig.go(0)
    rig.go(1)
    rig.slot(0, 2)  # 3 cars: two people and a bot
    rig.slot(0, 6)
    brain = HeuristicBot(seed=5)
    presses = 0
    while table.state != flow.RESULTS:
        race = table.race
        assert race is not None
        pending = race.pending()
        car = pending.cars[0]
        station = next(s.index for s in table.stations if s.car == car)
        decision = brain.choose(race, car)
        if isinstance(decision, Plan):
            rig.lever(station, decision.gear)
            if decision.gear not in race.plan_rule(car).clogged:
                _press_cards(rig, station, decision.cards)
            rig.go(station)
            assert race.cars[car].planned, table.views[station]
        else:  # the turn screen: what a person's hands press for these choices
            event = next_input(table, brain=brain)
            assert event is not None and event.station == station, event
            if isinstance(event, GoPressed):
                rig.go(station)
            else:
                assert isinstance(event, SlotPressed), event
                rig.slot(station, event.slot)
        presses += 1
        assert presses < 5000
    race = table.race
    assert race is not None and race.over
    assert sorted(race.hall_of_fame) == [0, 1, 2]
    view = table.views[0]
    assert view is not None and view.kind == "results"
    assert [line.split(" ", 1)[1] for line in view.order] == \
        [race.cars[c].name for c in race.hall_of_fame]
    rig.go(1)  # NEXT
    assert table.state == flow.LOBBY


def test_undo_takes_back_the_last_plan(rig: Rig) -> None:
    table = rig.table
    rig.go(0)
    rig.go(1)
    rig.slot(0, 6)
    race = table.race
    assert race is not None
    _press_cards(rig, 0, (race.plan_rule(0).playable[0],))
    rig.go(0)  # gear 1, one card
    assert table.race is not None and table.race.cars[0].planned
    table.undo()
    assert table.race is not None and not table.race.cars[0].planned
    assert table.race.log == []
    assert table.state == flow.PLANNING
    view = table.views[0]
    assert view is not None and view.kind == "planning"
