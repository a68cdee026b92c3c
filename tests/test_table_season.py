"""A championship season at the table: the lobby's SEASON page and the console's
``championship``, a whole season played through the device's path (the desktop simulation:
App, journal, the stations' screens, the autopilot's key presses) with each race's Event card
and Press Corners on the set-up checklist and the sponsors earned announced, its standings
between races, a Press Corner's sponsor on the station and the race-control display, power cuts
between races and inside race 3, undo inside a race, and the kiosk keeping to single races."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolekit import PIN, make, one
from pitboard.engine.championship.season import Season
from pitboard.engine.championship.season import standings as standings_of
from pitboard.engine.decisions import Discard, Plan
from pitboard.engine.snapshot import race_to_dict
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.journal import Journal
from pitboard.scenario import load_scenario
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.lobby_options import PAGE_KEY, PAGES
from pitboard.table.recorder import JournalRecorder, SavedRace
from pitboard.table.screens import render
from pitboard.table.table import KioskOptions, Table
from pitboard.table.view import STANDINGS, UPGRADE_CARD
from pitboard.table.views import OUT_OF_RACE
from rig import find_text
from simkit import open_sim

SEASON_PAGE = PAGES.index("season")
SCENARIOS = Path(__file__).parent / "scenarios"


def season_of(table: Table) -> Season:
    assert table.season is not None
    return table.season


def test_the_lobby_season_page_steps_through_the_seasons() -> None:
    table = Table(stations=2, seed=1)
    table.handle(GoPressed(station=0))
    for _ in range(SEASON_PAGE):
        table.handle(SlotPressed(station=0, slot=PAGE_KEY))
    view = table.views[0]
    assert view.title == "S1 SEASON" and view.soft_keys[0] == "YEAR"
    assert "championship: off" in view.lines
    seen = []
    for _ in range(7):
        table.handle(SlotPressed(station=0, slot=0))  # YEAR
        seen.append(table.championship)
    assert seen == ["1961", "1962", "1963", "1964", "1965", "random", None]
    table.handle(SlotPressed(station=0, slot=0))
    assert table.views[0].lines[:3] == ("championship 1961", "3 races: Great Britain,",
                                        "USA, Italy")
    table.handle(SlotPressed(station=1, slot=0))  # station 2's race page names it too
    assert table.views[1].lines[0] == "championship 1961"
    with pytest.raises(ValueError, match="a championship is a whole season"):
        table.set_module("championship", {"event": "title_sponsor"})


def test_the_kiosk_keeps_to_single_races() -> None:
    table = Table(stations=2, seed=1, kiosk=KioskOptions())
    with pytest.raises(ValueError, match="the kiosk races single races"):
        table.set_championship("1961")
    assert table.championship is None


def test_a_whole_season_plays_at_the_table_through_the_devices_path(tmp_path: Path) -> None:
    sim = open_sim(2, seed=3, cars=3, journal=tmp_path,
                   modules={"garage": {"choose": "draft"}})
    table = sim.table
    table.set_championship("1961")
    firsts: list[str] = []  # the first screen of every race: its Event card
    checklists: list[tuple[str, ...]] = []  # ... its lines, and the Press Corners page's
    standings: list[tuple[str, ...]] = []
    grids: list[list[int]] = []
    sponsors_in_tray = False
    announced: set[str] = set()  # a sponsor earned, on a station and race control
    race = None
    while sim.autoplay_step() is not None:
        if table.race is not race:
            race = table.race
            assert race is not None
            firsts.append(table.views[0].title)
            grids.append(list(race.grid))
        view = table.views[0]
        if table.state == flow.SETUP and view.lines not in checklists:
            checklists.append(view.lines)
        for st_view in table.views:
            if st_view is not None and "SPONSOR: " in " ".join((st_view.message,
                                                                *st_view.lines)):
                announced.add("station")
        rc = table.race_control_view
        if rc is not None and any(": sponsor" in line for line in rc.lines):
            announced.add("race control")
        if table.state == flow.RESULTS and view.kind == STANDINGS and \
                (not standings or standings[-1] != view.order):
            standings.append(view.order)
        sponsors_in_tray |= any(c.code.startswith("P") and c.kind == UPGRADE_CARD
                                for c in view.cards)
    season = season_of(table)
    assert season.over and table.state == flow.RESULTS
    assert firsts == ["SET-UP 1/2 EVENT"] * 3  # every race starts with its Event card
    assert checklists[:2] == [
        ("race 1/3: Great Britain", "Inauguration of new", "grandstand", "first 3 cars to finish",
         "lap 1 earn a sponsor", "2 sponsors each in deck"),
        ("corner 1 (A)", "sponsor: at limit+2", "or by slipstream")]
    assert announced == {"station", "race control"}
    assert len(standings) == 3 and table.views[0].title == "1961 FINAL STANDINGS"
    results = season.results()
    assert [r.track for r in results] == ["great_britain", "usa", "italy"]
    for i in (1, 2):  # the grid of races 2 and 3: the standings before them, leader on pole
        assert grids[i] == standings_of(3, results[:i])
    assert sponsors_in_tray  # a sponsor drawn in a player's tray, as an upgrade card
    # every race's picks and decisions are in the one journal
    saved = JournalRecorder(Journal(tmp_path)).recover()
    assert saved is not None and saved.season is not None and saved.season.season == "1961"
    assert saved.season_logs == season.logs and saved.log == season.race.log
    table.handle(GoPressed(station=0))  # GO on the final standings: back to the lobby
    assert table.state == flow.LOBBY and table.season is None
    assert JournalRecorder(Journal(tmp_path)).recover().ended  # type: ignore[union-attr]


def _play_until(sim: object, done: object) -> None:
    while not done():  # type: ignore[operator]
        assert sim.autoplay_step() is not None  # type: ignore[attr-defined]


def test_a_season_survives_power_cuts_between_races_and_inside_race_3(tmp_path: Path) -> None:
    first = open_sim(2, seed=4, cars=3, journal=tmp_path, modules={"weather": {
        "weather": "random"}})
    first.table.set_championship("1962")
    _play_until(first, lambda: first.table.season is not None and first.table.season.between)
    season = season_of(first.table)
    totals, logs = season.totals(), season.all_logs()
    first.close()  # the plug is pulled on the standings screen
    second = open_sim(2, seed=99, journal=tmp_path)
    table = second.table
    assert table.state == flow.RESULTS and table.views[0].kind == STANDINGS
    assert season_of(table).totals() == totals and season_of(table).all_logs() == logs
    _play_until(second, lambda: season_of(table).index == 2 and len(table.race.log) > 25)
    season = season_of(table)
    state = race_to_dict(season.race, events=True)
    hands = [list(c.hand) for c in season.race.cars]
    logs = season.all_logs()
    second.close()  # ... and again in the middle of race 3
    third = open_sim(2, seed=5, journal=tmp_path)
    table = third.table
    resumed = season_of(table)
    assert resumed.index == 2 and resumed.all_logs() == logs
    assert race_to_dict(resumed.race) == {k: v for k, v in state.items() if k != "events"}
    assert [list(c.hand) for c in resumed.race.cars] == hands
    champ = resumed.race.hooks.by_key["championship"]
    assert champ.to_dict() == state["modules"]["championship"]  # the sponsor deck, as it was
    while third.autoplay_step() is not None:
        pass
    assert resumed.over and len(resumed.results()) == 3


def test_undo_works_inside_a_season_race_but_not_back_into_the_last() -> None:
    table = Table(stations=1, seed=2, cars=2)
    table.handle(GoPressed(station=0))
    table.set_championship("1961")
    table.start_race(seed=1)

    def play(until: object) -> None:
        while not until():  # type: ignore[operator]
            event = next_input(table)
            assert event is not None
            table.handle(event)

    play(lambda: season_of(table).between)
    table.handle(GoPressed(station=0))  # the next race
    assert season_of(table).index == 1 and table.state == flow.SETUP
    play(lambda: table.state == flow.PLANNING and len(table.race.log) > 6)
    before = list(table.race.log)
    table.undo()
    assert season_of(table).race is table.race and len(table.race.log) < len(before)
    while table.race.log:
        try:
            table.undo()
        except ValueError:
            break
    with pytest.raises(ValueError, match="nothing to undo"):
        table.undo()
    assert season_of(table).index == 1 and len(season_of(table).logs) == 1


def test_the_console_starts_a_season_and_reports_its_standings() -> None:
    _, proto, _ = make(stations=2)
    assert one(proto, "standings").startswith("ERR no championship season")
    assert one(proto, "championship 1961").startswith("ERR")  # needs the PIN
    one(proto, f"pin {PIN}")
    reply = one(proto, "championship 1963")
    assert reply.startswith("OK ") and reply.endswith("season=1963")
    assert one(proto, "championship 1999").startswith("ERR usage")
    assert one(proto, "standings").startswith("ERR no standings yet: the 1963 season")
    one(proto, "input 1 go")  # S1 joins
    assert one(proto, "new-race seed=3").startswith("OK seed=3 state=setup track=usa")
    assert "season=1963:1/4" in one(proto, "status")
    assert one(proto, "standings") == "OK season=1963 race=1/4 racing points=S1:0"
    assert one(proto, "championship off").startswith("ERR a race is on")
    one(proto, "reset")
    assert one(proto, "module championship {}").startswith("ERR a championship is a whole")
    assert one(proto, "championship off").endswith("modules=-")


def test_a_season_saved_with_other_championship_data_is_set_aside(tmp_path: Path) -> None:
    """The season's stamp covers the championship's data: an edit there (or to any race's
    track) sets a journalled season aside instead of replaying it differently."""
    from pitboard.engine.stamp import registered

    first = open_sim(1, seed=2, cars=2, journal=tmp_path)
    first.table.set_championship("1962")
    _play_until(first, lambda: first.table.race is not None and len(first.table.race.log) > 3)
    first.close()
    with registered("championship", "an owner's edit", "v2"):
        again = open_sim(1, seed=2, journal=tmp_path)
        assert again.table.race is None and again.table.state == flow.LOBBY
        assert again.app.table.recorder.problem is not None  # type: ignore[union-attr]
    assert list(tmp_path.glob("other-version-*"))


def test_a_station_discards_heat_when_the_event_lets_it_go() -> None:
    """Chicanes for safety (a random season drawn from seed 29 opens with it, on Italy): a
    Heat card is selectable on the discard step and goes; Heat is never selectable without
    the Event. The autopilot's hands select what its bot discards, as a person would."""
    table = Table(stations=1, seed=1, cars=2)
    table.handle(GoPressed(station=0))
    table.set_championship("random")
    table.start_race(seed=29)
    race = table.race
    assert race is not None and race.setup.modules["championship"]["event"] == \
        "chicanes_for_safety"
    while not race.over:
        if race.phase == "discard" and race.current is not None and race.current.id == 0 \
                and "H" in race.current.hand:
            table.refresh()
            tray = {c.code: c for c in table.views[0].cards if c.code}
            assert not tray["H"].disabled  # Heat may go this race
        event = next_input(table)
        assert event is not None
        table.handle(event)
    assert any(isinstance(d, Discard) and d.car == 0 and "H" in d.cards for d in race.log)


def test_hold_on_tight_lets_a_station_select_one_card_to_discard() -> None:
    """Hold on tight! (a random season drawn from seed 9 opens with it): a second card pressed
    on the discard step is refused in one line, the first stays selected."""
    table = Table(stations=1, seed=1, cars=2)
    table.handle(GoPressed(station=0))
    table.set_championship("random")
    table.start_race(seed=9)
    race = table.race
    assert race is not None and race.setup.modules["championship"]["event"] == "hold_on_tight"
    while not (race.phase == "discard" and race.current is not None and race.current.id == 0
               and len(race.pending().discardable) >= 2):
        event = next_input(table)
        assert event is not None, "no discard step with two cards"
        table.handle(event)
    st = table.stations[0]
    slots = [i for i, code in enumerate(st.slots) if code in race.pending().discardable][:2]
    table.handle(SlotPressed(station=0, slot=slots[0]))
    table.handle(SlotPressed(station=0, slot=slots[1]))
    assert st.selected == {slots[0]} and st.message == "at most 1 card this race"


def test_a_press_corner_sponsor_is_announced_on_the_station_and_race_control(
        tmp_path: Path) -> None:
    """tests/scenarios/champ_press_corner.txt at the simulated table (race-control display
    on): its plans pressed on the stations' levers and trays, the set-up checklist shown
    first; car 0 crosses Press Corner A (USA corner 1) at limit + 2 and earns Lord&Co."""
    sc = load_scenario(SCENARIOS / "champ_press_corner.txt")
    sim = open_sim(2, journal=tmp_path, seed=1)
    table = sim.table
    recorder = table.recorder
    assert isinstance(recorder, JournalRecorder)
    recorder.race_started(sc.setup, [0, 1])
    table.restore(SavedRace(setup=sc.setup, seats=[0, 1]))
    pages = []
    while table.state == flow.SETUP:  # the Event card, then the Press Corners
        pages.append((table.views[0].title, table.views[0].lines))
        table.handle(GoPressed(station=0))
    assert pages[0][0] == "SET-UP 1/2 EVENT" and "Title sponsor change" in pages[0][1]
    assert pages[1][1] == ("corner 1 (A)", "sponsor: at limit+2", "or by slipstream")
    for _, decision in sc.decisions[:2]:  # the two plans, as the players press them
        assert isinstance(decision, Plan)
        table.handle(LeverMoved(station=decision.car, gear=decision.gear))
        st = table.stations[decision.car]
        free = list(range(len(st.slots)))
        for code in decision.cards:
            slot = next(i for i in free if st.slots[i] == code)
            free.remove(slot)
            table.handle(SlotPressed(station=decision.car, slot=slot))
        table.handle(GoPressed(station=decision.car))
    table.handle(GoPressed(station=0))  # car 0's turn screen: GO (no Boost, no Adrenaline)
    race = table.race
    assert race is not None and race.cars[0].hand.count("P4") == 1
    assert "SPONSOR: Lord+Co. T.B. (C1)" in (table.views[0].message, *table.views[0].lines)
    rc = table.race_control_view
    assert rc is not None and rc.lines[0] == f"{race.cars[0].name}: sponsor at C1"
    assert "P4" in table.stations[0].slots  # in the tray, under a button
    assert sim.race_control is not None and sim.race_control.frames > 0


def test_the_planning_screen_says_when_a_spin_out_ends_the_race() -> None:
    """Sponsor withdraws - future unknown (tests/scenarios/champ_future_unknown.txt): car 0's
    plan crosses Italy's corner 1 at 9 with 2 Heat; the forecast, played on the engine, says
    the spin-out puts it out of the race, and the screen says so under the SPIN OUT band."""
    sc = load_scenario(SCENARIOS / "champ_future_unknown.txt")
    table = Table(stations=2, seed=1, render=render)
    table.restore(SavedRace(setup=sc.setup, seats=[0, 1]))
    while table.state == flow.SETUP:
        table.handle(GoPressed(station=0))
    table.handle(LeverMoved(station=0, gear=3))
    slots = table.stations[0].slots
    for slot in (slots.index("4"), len(slots) - 1 - slots[::-1].index("4"), slots.index("1")):
        table.handle(SlotPressed(station=0, slot=slot))
    view = table.views[0]
    assert view.spin_out and view.spin_odds == 100 and view.message == OUT_OF_RACE
    assert find_text(render(view), OUT_OF_RACE) is not None  # on the glass, in full
