"""Garage symbols at the table: each optional symbol of the played cards is a soft key on the turn
screen, salvage shows the discard pile in the tray, mandatory effects show as they happen. Each
turn is set up from the symbol's scenario file (tests/scenarios/garage_*.txt) and played with
the station's lever and buttons (MCP23017 models on gpiozero's mock pins), read back from the
OLED glass, every decision journalled."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitboard.engine import decisions as dec
from pitboard.engine.decisions import Decision, Plan, React, Slipstream
from pitboard.garage_bots import GarageBot
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.journal import Journal
from pitboard.scenario import Scenario, load_scenario
from pitboard.table import flow
from pitboard.table.autoplay import hands_bot, next_input
from pitboard.table.icons import ICON, MANDATORY_ICON
from pitboard.table.recorder import JournalRecorder, SavedRace
from pitboard.table.screens import render
from pitboard.table.table import Table
from pitboard.table.turn import BOOST_KEY, DISCARD_KEY, GO_KEY, SLIP_KEY
from pitboard.table.turn_symbols import MORE_KEY, symbol_keys
from pitboard.table.view import StationView
from rig import Grid6, Players, shows

SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Grid6]:
    r = Grid6(seed=11)
    r.table.recorder = JournalRecorder(Journal(tmp_path / "journal"))
    yield r
    r.close()


def seat(rig: Grid6, name: str) -> Scenario:
    """The table resumes the scenario's race before its first decision, car i at station i."""
    sc = load_scenario(SCENARIOS / f"garage_{name}.txt")
    seats: list[int | None] = [*range(sc.setup.cars), *[None] * (6 - sc.setup.cars)]
    recorder = rig.table.recorder
    assert isinstance(recorder, JournalRecorder)
    recorder.race_started(sc.setup, seats)
    rig.table.restore(SavedRace(setup=sc.setup, seats=seats))
    return sc


def plan(rig: Grid6, decision: Decision) -> None:
    """The scenario's plan with the lever, the tray buttons and GO."""
    assert isinstance(decision, Plan)
    rig.lever(decision.car, decision.gear)
    Players(rig).cards(decision.car, decision.cards)
    rig.go(decision.car)


def plans(rig: Grid6, sc: Scenario) -> None:
    for _, decision in sc.decisions:
        if isinstance(decision, Plan):
            plan(rig, decision)
    race = rig.table.race
    assert race is not None and race.current is not None


def journalled(rig: Grid6) -> list[Decision]:
    recorder = rig.table.recorder
    assert isinstance(recorder, JournalRecorder)
    saved = JournalRecorder(Journal(recorder.journal.directory)).recover()
    assert saved is not None
    return saved.log


def press(rig: Grid6, label: str, station: int = 0) -> list[Decision]:
    """Press the soft key ``label`` (it must be on the glass); the decisions it made."""
    view = rig.view(station)
    assert label in view.soft_keys, (label, view.soft_keys)
    assert shows(rig.panels[station], label), label
    race = rig.table.race
    assert race is not None
    before = len(race.log)
    rig.slot(station, view.soft_keys.index(label))
    rig.check_glass([station])
    return race.log[before:]


def log_after_go(rig: Grid6, station: int = 0) -> list[Decision]:
    race = rig.table.race
    assert race is not None
    before = len(race.log)
    rig.go(station)
    return race.log[before:]


def test_speed_choice_is_a_key(rig: Grid6) -> None:
    plans(rig, seat(rig, "speed_choice"))  # Brakes 1/5
    view = rig.view(0)
    assert view.soft_keys[MORE_KEY] == "TURN" and view.message == "Brakes 1/5 at 5"
    assert press(rig, "SP5") == [React(0, "speed", 5, "U10")]
    view = rig.view(0)
    assert "Brakes 1/5 at 5" in view.lines[0]
    assert "SP5" not in view.soft_keys and view.soft_keys[:1] == ("ADR",)  # the toggles
    assert journalled(rig) == rig.table.race.log  # type: ignore[union-attr]


def test_direct_play_then_its_mandatory_heat_shows(rig: Grid6) -> None:
    plans(rig, seat(rig, "direct"))  # Gas Pedal 4 in hand: direct, heat 1, cooldown 1
    assert press(rig, ICON["direct"] + "4") == [React(0, "direct", 0, "U27")]
    view = rig.view(0)
    assert view.heat_paid == ("1 Heat for Gas Pedal 4",)
    assert "played Gas Pedal 4" in view.lines[0]
    race = rig.table.race
    assert race is not None and race.cars[0].d == 21


def test_accelerate(rig: Grid6) -> None:
    plans(rig, seat(rig, "accelerate"))  # 4WD 0 (boost 1, accelerate 1) and a Stress card
    race = rig.table.race
    assert race is not None
    speed = race.cars[0].speed
    assert press(rig, ICON["accelerate"] + "1") == [React(0, "accelerate")]
    assert race.cars[0].speed == speed + 2  # one per [+]: the Stress flip and the boost


def test_reduce_takes_the_most_stress(rig: Grid6) -> None:
    plans(rig, seat(rig, "reduce"))  # Body 3: reduce 2, three Stress in hand
    assert press(rig, ICON["reduce"] + "2") == [React(0, "reduce", 2)]
    race = rig.table.race
    assert race is not None and race.cars[0].hand.count("S") == 1


def test_salvage_shows_the_discard_pile_to_choose_from(rig: Grid6) -> None:
    plans(rig, seat(rig, "salvage"))  # Fuel 2: salvage 2; discard 4 1 H 4
    assert press(rig, ICON["salvage"] + "2") == []
    view = rig.view(0)
    assert [c.code for c in view.cards] == ["4", "4", "1", "H"]  # best first
    assert view.message == "salvage 0/2: pick, then GO"
    assert shows(rig.panels[0], "salvage 0/2: pick, then GO")
    rig.slot(0, 0)
    view = rig.view(0)
    assert [c.selected for c in view.cards] == [True, False, False, False]
    assert view.message == "salvage 1/2: pick, then GO"
    rig.check_glass([0])
    race = rig.table.race
    assert race is not None
    before = len(race.log)
    rig.slot(0, 1)  # the second of two: taken at once, no GO needed
    assert race.log[before:before + 2] == [React(0, "salvage", 0, "4")] * 2
    assert sorted(race.cars[0].discard)[:2] == ["1", "H"]
    assert journalled(rig) == race.log


def test_salvage_takes_fewer_with_go(rig: Grid6) -> None:
    plans(rig, seat(rig, "salvage"))
    press(rig, ICON["salvage"] + "2")
    rig.slot(0, 2)  # the 1
    rig.slot(0, 2)  # changed my mind
    rig.slot(0, 0)  # a 4 only
    assert log_after_go(rig)[:1] == [React(0, "salvage", 0, "4")]


def test_salvage_with_nothing_chosen_salvages_nothing(rig: Grid6) -> None:
    plans(rig, seat(rig, "salvage"))
    press(rig, ICON["salvage"] + "2")
    assert log_after_go(rig) == []  # back to the symbols page
    assert rig.view(0).soft_keys[0] == ICON["salvage"] + "2"


def test_supercool(rig: Grid6) -> None:
    plans(rig, seat(rig, "supercool"))  # Air Intake 3: supercool 1, scrap 3; discard H H
    view = rig.view(0)
    assert "scrapped 2 2 2" in view.lines[0]  # the mandatory scrap, as it happened
    assert press(rig, ICON["supercool"] + "1") == [React(0, "supercool", 1)]


def test_draft_moves_up_to_the_car_ahead(rig: Grid6) -> None:
    sc = seat(rig, "draft_symbol")
    plans(rig, sc)
    race = rig.table.race
    assert race is not None
    if race.current is not None and race.current.id == 1:  # the leader goes first: keep all
        rig.go(1)
    assert rig.view(0).message == "close up 1"
    assert press(rig, ICON["draft"] + "1") == [React(0, "draft", 1)]
    assert race.cars[0].d == 18


def test_refresh(rig: Grid6) -> None:
    plans(rig, seat(rig, "refresh"))
    assert press(rig, ICON["refresh"] + "4") == [React(0, "refresh", 0, "U34")]
    rig.go(0)
    race = rig.table.race
    assert race is not None and "U34" in race.cars[0].hand


def test_the_card_cooldown_joins_cool(rig: Grid6) -> None:
    plans(rig, seat(rig, "cooldown"))  # 4WD 0: boost 1, cooldown 3
    view = rig.view(0)
    assert symbol_keys(rig.table.race, 0) == ()  # type: ignore[arg-type]
    assert view.message.startswith("GO: cool 5")
    assert log_after_go(rig)[0] == React(0, dec.COOLDOWN, 5)


@pytest.mark.parametrize(("name", "line"), [
    ("heat", "2 Heat for Turbocharger 7"),
    ("heat_unpayable", "Wings 6 discarded: no Heat"),
    ("scrap", "scrapped 4 4 3 3 2 2"),
])
def test_mandatory_effects_show_as_they_happen(rig: Grid6, name: str, line: str) -> None:
    sc = seat(rig, name)
    plan(rig, sc.decisions[0][1])
    view = rig.view(0)
    assert view.kind == "resolution"
    assert any(line in shown for shown in (*view.heat_paid, *view.lines)), view
    rig.check_glass([0])


def test_mandatory_icons_are_inverted_on_the_tray(rig: Grid6) -> None:
    seat(rig, "heat")  # Turbo Charger 7: heat 2 (mandatory), cooldown 3 (optional)
    assert shows(rig.panels[0], MANDATORY_ICON["heat"] + "2", ICON["cooldown"] + "3")
    rig.slot(0, 0)  # the card's meaning on the detail line
    assert rig.view(0).detail[0] == "Turbocharger 7: pays 2 Heat, may cool 3"


@pytest.mark.parametrize("name", ["salvage_empty", "scrap_empty"])
def test_a_choice_that_cannot_change_anything_is_not_asked(rig: Grid6, name: str) -> None:
    sc = seat(rig, name)
    plan(rig, sc.decisions[0][1])
    race = rig.table.race
    assert race is not None
    if race.phase == dec.REACT:
        assert symbol_keys(race, 0) == ()
        view = rig.view(0)
        assert "TURN" not in view.soft_keys and "UPG" not in view.soft_keys


def test_more_turns_to_the_toggles_and_back(rig: Grid6) -> None:
    plans(rig, seat(rig, "speed_choice"))
    rig.slot(0, MORE_KEY)  # TURN
    view = rig.view(0)
    assert view.soft_keys[MORE_KEY] == "UPG" and view.soft_keys[GO_KEY] == "GO"
    rig.slot(0, MORE_KEY)  # UPG
    assert rig.view(0).soft_keys[0] == "SP5"


def test_go_stops_when_the_boost_lets_accelerate_in() -> None:
    # Gas Pedal 1 (direct, accelerate 1, scrap 5) played from the plan: no [+] yet, so no
    # accelerate until the Boost flips one; then GO stops before 'done' and asks
    from pitboard.engine.setup import RaceSetup, StackedDeck

    setup = RaceSetup(cars=1, laps=1, seed=2, modules={"garage": {"upgrades": {"0": [
        "U28", "U2", "U3"]}}}, stacked={0: StackedDeck(
            hand=("U28", "1", "1", "1", "1", "1", "1"), draw=("1",) * 6 + ("2", "2", "2", "2"),
            engine=6, gear=1)})
    table = Table(stations=1, seed=1)
    table.restore(SavedRace(setup=setup, seats=[0]))
    table.handle(LeverMoved(station=0, gear=1))
    table.handle(SlotPressed(station=0, slot=0))
    table.handle(GoPressed(station=0))
    race = table.race
    assert race is not None and race.phase == dec.REACT
    assert symbol_keys(race, 0) == ()
    st = table.stations[0]
    from pitboard.table.turn import shown_for

    if not shown_for(st.turn, race, 0).boost:
        table.handle(SlotPressed(station=0, slot=BOOST_KEY))
    before = len(race.log)
    table.handle(GoPressed(station=0))
    assert React(0, dec.BOOST) in race.log[before:] and race.phase == dec.REACT
    assert React(0, dec.DONE) not in race.log[before:]
    assert [k.decision for k in symbol_keys(race, 0)] == [React(0, "accelerate")]


def test_a_whole_garage_race_autoplays_at_the_table() -> None:
    views: list[StationView] = []

    def spy(view: StationView) -> object:
        views.append(view)
        return render(view)

    class Glass:
        def show(self, image: object) -> None:
            pass

    table = Table(stations=6, seed=1, cars=6, screens=[Glass() for _ in range(6)],
                  render=spy)  # type: ignore[arg-type]
    table.modules = {"garage": {"choose": "random", "expansions": True}}
    for i in range(6):
        table.handle(LeverMoved(station=i, gear=1))
        table.handle(GoPressed(station=i))
    table.handle(SlotPressed(station=0, slot=6))  # RACE
    race = table.race
    assert race is not None
    brain = hands_bot(race, seed=1)
    assert isinstance(brain, GarageBot)
    for _ in range(20_000):
        if table.state not in (flow.PLANNING, flow.RESOLUTION):
            break
        event = next_input(table, brain=brain)
        assert event is not None
        table.handle(event)
    assert race.over and table.state == flow.RESULTS
    used = Counter(d.action for d in race.log if isinstance(d, React))
    assert used["salvage"] and used["reduce"] and used["supercool"] and used["direct"]
    assert any(k.startswith(ICON["salvage"]) for v in views for k in v.soft_keys)


def test_slipstream_plus_n_is_a_choice_of_distance(rig: Grid6) -> None:
    sc = seat(rig, "slipstream")  # R.P.M. 1 (slipstream +2) right behind car 1
    plans(rig, sc)
    race = rig.table.race
    assert race is not None
    if race.current is not None and race.current.id == 1:
        rig.go(1)
    view = rig.view(0)
    assert view.soft_keys[SLIP_KEY] == "SLIP" and SLIP_KEY in view.keys_off  # no Heat spare
    rig.slot(0, SLIP_KEY)
    assert rig.view(0).soft_keys[SLIP_KEY] == "SL2" and rig.view(0).message == \
        "GO: slip 2, keep hand"
    rig.slot(0, SLIP_KEY)
    assert rig.view(0).soft_keys[SLIP_KEY] == "SL4"
    assert shows(rig.panels[0], "SL4", "slip 4")  # (the GO line in fixed fields)
    rig.slot(0, SLIP_KEY)  # and round again: off
    assert SLIP_KEY in rig.view(0).keys_off
    rig.slot(0, SLIP_KEY)
    rig.slot(0, SLIP_KEY)
    done = log_after_go(rig)
    assert Slipstream(0, True, 4) in done and race.cars[0].d == 24
    assert journalled(rig) == race.log


def test_the_discard_step_spells_out_the_card_pressed(rig: Grid6) -> None:
    plans(rig, seat(rig, "direct"))  # Gas Pedal 4 stays in hand: not played directly
    rig.slot(0, MORE_KEY)  # TURN: the toggles
    rig.slot(0, DISCARD_KEY)  # DISC
    race = rig.table.race
    assert race is not None and race.phase == dec.DISCARD
    view = rig.view(0)
    rig.slot(0, [c.code for c in view.cards].index("U27"))
    view = rig.view(0)
    assert view.detail[0] == "Gas Pedal 4: play it from hand, pays 1 Heat, may cool 1"
    assert shows(rig.panels[0], "GAS PEDAL 4: DIRECT HEAT 1! COOL 1")  # one line: terse
    rig.check_glass([0])
    assert log_after_go(rig)[0] == dec.Discard(0, ("U27",))


def test_adjusted_corner_limits_show(rig: Grid6) -> None:
    sc = seat(rig, "adjust")
    plan(rig, sc.decisions[0][1])
    view = rig.view(0)
    assert any("corner limits" in line for line in view.lines), view


def test_a_power_cut_between_two_symbols_resumes_on_the_symbols_page(tmp_path: Path) -> None:
    first = Grid6(seed=11)
    first.table.recorder = JournalRecorder(Journal(tmp_path / "journal"))
    try:
        plans(first, seat(first, "salvage"))
        press(first, ICON["salvage"] + "2")
        first.slot(0, 0)  # one 4 of the two the symbol allows
        first.go(0)
        assert first.view(0).soft_keys[0] == ICON["salvage"] + "1"
        log = list(first.table.race.log)  # type: ignore[union-attr]
    finally:
        first.close()
    # the power comes back: the journal replays, the turn screen asks what is left
    second = Grid6(seed=11)
    try:
        saved = JournalRecorder(Journal(tmp_path / "journal")).recover()
        assert saved is not None and saved.log == log
        second.table.restore(saved)
        second.table.refresh()
        assert second.view(0).soft_keys[0] == ICON["salvage"] + "1"
        assert shows(second.panels[0], ICON["salvage"] + "1")
    finally:
        second.close()


def test_two_cards_offering_the_same_speed_show_one_key_for_it(rig: Grid6) -> None:
    """Brakes 1/2/3/4 and Brakes 1/3 both offer 3: one SP3 key, on the card with fewer choices
    (the other keeps all of its own); the next page shows the other card's values."""
    plans(rig, seat(rig, "speed_choices_shared"))
    race = rig.table.race
    assert race is not None
    keys = symbol_keys(race, 0)
    labels = [k.label for k in keys]
    assert labels == ["SP2", "SP3", "SP4"], labels
    assert keys[1].decision == React(0, "speed", 3, "U8")
    soft = rig.view(0).soft_keys
    assert [k for k in soft if k.startswith("SP")] == ["SP2", "SP3", "SP4"]
    assert press(rig, "SP3") == [React(0, "speed", 3, "U8")]
    assert [k.label for k in symbol_keys(race, 0)] == ["SP2", "SP3", "SP4"]  # U7's own
    assert {k.decision.card for k in symbol_keys(race, 0)} == {"U7"}
