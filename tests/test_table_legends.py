"""Module races at the table: the set-up checklist before round 1, the Legend moves the players
make on the board (status lines or the race-control display) and their confirm, through the
grid6 rig's mock pins and panels, and across power cuts."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from pitboard.bots import HeuristicBot
from pitboard.hw.display import StationDisplay
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.legend_moves import legend_move_count
from pitboard.table.recorder import JournalRecorder
from pitboard.table.screens import render
from pitboard.table.storage_problem import DAMAGED_RECOVERED
from pitboard.table.table import Table
from rig import Grid6, Panel, find_text, shows, shows_message

MODULES: dict[str, dict[str, Any]] = {
    "weather": {"weather": "storm",
                "road": {"1": "limit-1", "2": "weather", "3": "overheat", "4": "slipstream+1"}},
    "legends": {"colours": ["red", "blue"]},
}


def grid(seed: int = 3, *, race_control: bool = False, journal: Path | None = None) -> Grid6:
    """The grid6 rig racing S1 and S2 against two Legends, storm and road tokens."""
    rig = Grid6(seed=seed)
    rig.table.modules = {k: dict(v) for k, v in MODULES.items()}
    if race_control:
        rig.rc_panel = Panel("ssd1306", clock=rig.clock)  # type: ignore[attr-defined]
        rig.table.race_control = StationDisplay(serial=rig.rc_panel, driver="ssd1306",
                                                station="RC", clock=rig.clock)
    if journal is not None:
        rig.table.recorder = JournalRecorder(Journal(journal))
    rig.table.refresh()
    return rig


def start(rig: Grid6) -> None:
    rig.go(0)
    rig.go(1)
    rig.slot(0, 6)  # RACE
    rig.table.refresh()


def press(rig: Grid6, event: StationEvent) -> None:
    """The pins a person would move for ``event``."""
    if isinstance(event, GoPressed):
        rig.go(event.station)
    elif isinstance(event, SlotPressed):
        rig.slot(event.station, event.slot)
    else:
        assert isinstance(event, LeverMoved)
        rig.lever(event.station, event.gear)


def play_until_a_legend_move_waits(rig: Grid6) -> None:
    table = rig.table
    for _ in range(2000):
        if table.legend_moves_waiting():
            return
        event = next_input(table)
        assert event is not None, table.state
        press(rig, event)
    raise AssertionError("no Legend move")


def test_the_checklist_shows_on_every_station_and_go_starts_round_1() -> None:
    rig = grid()
    start(rig)
    table = rig.table
    assert table.state == flow.SETUP and table.race is not None
    for i in range(3):
        assert shows(rig.panels[i], "SET-UP 1/4 WEATHER", "billboard: Storm",
                     "sectors: slipstream +2", "nothing to count"), i
    assert shows(rig.panels[2], "the players set up the board")  # S3 does not play
    rig.slot(1, 6)  # NEXT on S2
    assert all(shows(rig.panels[i], "SET-UP 2/4 ROAD TOKENS", "corner 1: Speed limit -1")
               for i in range(2))
    assert rig.view(0).soft_keys[0] == "BACK"
    rig.slot(0, 0)  # BACK on S1
    assert table.setup_page == 0 and shows(rig.panels[1], "SET-UP 1/4 WEATHER")
    rig.go(2)  # S3 is not racing: its GO turns nothing
    assert table.setup_page == 0
    rig.go(0)
    rig.go(0)
    assert shows(rig.panels[0], "SET-UP 3/4 LEGEND GRID", "Red Legend", "Blue Legend")
    rig.go(1)
    assert shows(rig.panels[0], "SET-UP 4/4 CARDS", "each: +1 Stress in deck")
    assert rig.view(0).soft_keys[6] == "RACE"
    assert table.race.log == []  # nothing decided during the checklist
    rig.go(1)
    assert table.state == flow.PLANNING and rig.view(0).kind == "planning"
    rig.check_glass()
    rig.close()


def test_a_power_cut_during_the_checklist_resumes_there(tmp_path: Path) -> None:
    rig = grid(journal=tmp_path)
    start(rig)
    rig.go(0)
    rig.close()
    again = Grid6(seed=9)
    again.table.recorder = recorder = JournalRecorder(Journal(tmp_path))
    saved = recorder.recover()
    assert saved is not None and not saved.set_up
    again.table.restore(saved)
    assert again.table.state == flow.SETUP and again.table.setup_page == 0
    assert shows(again.panels[0], "SET-UP 1/4 WEATHER")
    for _ in range(4):
        again.go(1)
    assert again.table.state == flow.PLANNING
    again.close()
    # confirmed: the next power cut resumes the race, not the checklist
    third = Grid6(seed=9)
    third.table.recorder = recorder = JournalRecorder(Journal(tmp_path))
    saved = recorder.recover()
    assert saved is not None and saved.set_up
    third.table.restore(saved)
    assert third.table.state == flow.PLANNING
    third.close()


def raced_to_a_legend_move(**options: Any) -> Grid6:
    """The rig (``grid(**options)``) past the checklist, with a Legend move waiting."""
    rig = grid(**options)
    start(rig)
    for _ in range(4):
        rig.go(0)
    play_until_a_legend_move_waits(rig)
    return rig


def test_every_status_line_says_where_the_legend_goes_and_go_confirms() -> None:
    rig = raced_to_a_legend_move()
    table = rig.table
    assert table.race is not None
    first = table.legend_moves_waiting()[0]
    event = next(e for e in table.race.events if e.kind == "legend")
    assert first.colour == event.colour and first.to == event.space
    status = first.status()
    assert f"{first.frm}→{first.to}" in status and status.endswith(": GO")
    for i in range(2):  # every seated station, whatever screen it is on
        assert rig.view(i).message == status
        assert shows_message(rig.panels[i], rig.view(i)), i
    assert rig.view(2).message != status  # S3 does not play
    decisions, waiting = len(table.race.log), len(table.legend_moves_waiting())
    rig.go(1)  # "moved it": the GO confirms the move, it plans or resolves nothing
    assert len(table.race.log) == decisions
    assert table.legends_confirmed == 1
    assert len(table.legend_moves_waiting()) == waiting - 1
    rig.check_glass()
    rig.close()


def test_the_race_control_display_shows_the_moves_and_the_race() -> None:
    rig = grid(race_control=True)
    panel: Panel = rig.rc_panel  # type: ignore[attr-defined]
    assert shows(panel, "RACE CONTROL")
    start(rig)
    assert shows(panel, "SET-UP 1/4 WEATHER", "billboard: Storm")
    for _ in range(4):
        rig.go(0)
    assert shows(panel, "ROUND 1", "Storm")
    play_until_a_legend_move_waits(rig)
    move = rig.table.legend_moves_waiting()[0]
    assert shows(panel, f"MOVE {move.name}", f"{move.frm} → {move.to}")
    for i in range(2):
        assert rig.view(i).message == "Legends: race control, GO"
    while rig.table.legend_moves_waiting():
        rig.go(0)
    assert shows(panel, "ROUND") and not shows(panel, "MOVE")
    assert find_text(panel.image(), "Ann") is not None  # the race order
    rig.close()


def table_with_journal(directory: Path, *, race_control: bool) -> tuple[Table, Any]:
    recorder = JournalRecorder(Journal(directory))
    rc = RcScreen() if race_control else None
    table = Table(stations=3, render=render, seed=4, recorder=recorder, clock=lambda: 0.0,
                  modules=MODULES, race_control=rc)
    return table, recorder


class RcScreen:
    def __init__(self) -> None:
        self.frames = 0

    def show(self, image: Any) -> None:
        self.frames += 1


def play_to_a_legend_move(table: Table) -> None:
    table.handle(GoPressed(station=0))
    table.start_race(track="usa", laps=1, cars=2)
    for _ in range(3000):
        if table.state != flow.SETUP and table.legend_moves_waiting():
            return
        event = next_input(table)
        assert event is not None
        table.handle(event)
    raise AssertionError("no Legend move")


def test_waiting_legend_moves_survive_a_power_cut(tmp_path: Path) -> None:
    table, _ = table_with_journal(tmp_path, race_control=False)
    play_to_a_legend_move(table)
    table.handle(GoPressed(station=0))  # one confirmed...
    assert table.race is not None
    log, confirmed = list(table.race.log), table.legends_confirmed
    waiting = table.legend_moves_waiting()
    fresh, recorder = table_with_journal(tmp_path, race_control=False)
    saved = recorder.recover()
    assert saved is not None and saved.set_up and saved.legends_confirmed == confirmed
    fresh.restore(saved)
    assert fresh.race is not None and fresh.race.log == log
    assert fresh.legend_moves_waiting() == waiting  # ...the others still wait
    assert fresh.views[0] is not None and fresh.views[0].message == waiting[0].status()


def test_a_race_control_race_resumed_without_one_falls_back_to_status_lines(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    table, _ = table_with_journal(tmp_path, race_control=True)
    play_to_a_legend_move(table)
    assert table.race is not None
    log, waiting = list(table.race.log), table.legend_moves_waiting()
    assert table.views[0] is not None and table.views[0].message == "Legends: race control, GO"
    fresh, recorder = table_with_journal(tmp_path, race_control=False)
    saved = recorder.recover()
    assert saved is not None and saved.race_control
    with caplog.at_level(logging.WARNING, logger="pitboard.table"):
        fresh.restore(saved)
    lines = [r.getMessage() for r in caplog.records if "race-control" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert "status lines" in lines[0]
    assert fresh.race is not None and fresh.race.log == log  # nothing lost
    assert fresh.legend_moves_waiting() == waiting
    assert fresh.views[0] is not None and fresh.views[0].message == waiting[0].status()


def test_with_nobody_seated_the_moves_count_as_made(tmp_path: Path) -> None:
    table, _ = table_with_journal(tmp_path, race_control=False)
    play_to_a_legend_move(table)
    st = table.stations[0]
    assert st.car is not None and table.race is not None
    st.idle_bot = True  # the kiosk gave the only seat to a bot
    table.bots[st.car] = HeuristicBot(seed=1)
    table._drive()
    table.refresh()
    assert not table.legend_moves_waiting()
    assert table.legends_confirmed == legend_move_count(table.race)


def test_undo_forgets_legend_moves_the_race_no_longer_made(tmp_path: Path) -> None:
    table, _ = table_with_journal(tmp_path, race_control=False)
    play_to_a_legend_move(table)
    while table.legend_moves_waiting():
        table.handle(GoPressed(station=0))
    assert table.race is not None
    made = legend_move_count(table.race)
    table.undo()
    assert table.legends_confirmed <= legend_move_count(table.race) <= made + 2
    fresh, recorder = table_with_journal(tmp_path, race_control=False)
    saved = recorder.recover()
    assert saved is not None and recorder.problem is None
    fresh.restore(saved)
    assert fresh.legends_confirmed == table.legends_confirmed


def test_a_legend_record_past_the_moves_is_damage(tmp_path: Path) -> None:
    table, _ = table_with_journal(tmp_path, race_control=False)
    play_to_a_legend_move(table)
    table.refresh()
    assert table.race is not None
    moves = legend_move_count(table.race)
    with Journal(tmp_path) as journal:
        assert journal.load() is not None
        journal.append({"legends": moves + 5})
    fresh, recorder = table_with_journal(tmp_path, race_control=False)
    saved = recorder.recover()
    assert saved is not None
    assert recorder.problem is not None and recorder.problem.kind == DAMAGED_RECOVERED
    fresh.restore(saved)
    assert fresh.legend_moves_waiting() == table.legend_moves_waiting()


def test_the_desktop_sim_shows_the_race_control_display() -> None:
    from pitboard.sim.terminal import TerminalScreen
    from simkit import open_sim

    sim = open_sim(2, track="usa", laps=1, cars=2, seed=3, modules=MODULES)
    assert sim.race_control is not None and sim.race_control in sim.app.displays
    assert sim.table.race_control is sim.race_control
    for key in ("space", "tab", "space", "j"):  # both join, RACE
        sim.press(key)
    assert sim.table.state == flow.SETUP
    assert sim.race_control.image is not None
    assert find_text(sim.race_control.image, "SET-UP 1/4 WEATHER") is not None
    import io

    screen = TerminalScreen(sim, io.StringIO(), size=lambda: (300, 80))
    assert "race control" in screen.compose()


def test_a_kiosk_checklist_nobody_finishes_goes_back_to_the_attract_loop() -> None:
    from pitboard.table.table import KioskOptions, Tick

    now = [0.0]
    table = Table(stations=2, render=render, seed=4, clock=lambda: now[0],
                  kiosk=KioskOptions(join_seconds=5, table_idle_seconds=60), modules=MODULES)
    table.handle(GoPressed(station=0))  # a visitor wakes the kiosk and joins
    now[0] = 6
    table.handle(Tick(now[0]))
    assert table.state == flow.SETUP
    now[0] = 30
    table.handle(Tick(now[0]))
    assert table.state == flow.SETUP  # still reading the checklist
    now[0] = 70
    table.handle(Tick(now[0]))
    assert table.state == flow.ATTRACT and table.race is None


def test_the_race_control_display_says_whose_draft_pick_it_is() -> None:
    from pitboard.table.race_control import race_control_view

    table = Table(stations=2, render=render, seed=1, clock=lambda: 0.0,
                  modules={"garage": {"choose": "draft"}, "weather": {"weather": "rain"}},
                  race_control=RcScreen())
    table.handle(GoPressed(station=0))
    table.start_race(cars=2, laps=1)
    while table.state == flow.SETUP:
        table.handle(GoPressed(station=0))
    assert table.state == flow.DRAFT and table.race is not None
    view = race_control_view(table.scene())
    picking = table.race.cars[table.race.pending().cars[0]].name
    assert view.title == "GARAGE DRAFT" and view.right == "Rain"
    assert view.lines == (f"{picking} to pick",)
    assert table.race_control_view == view


def test_a_race_of_bots_alone_does_not_wait_for_a_checklist_nobody_can_confirm() -> None:
    """start-race from the console with nobody joined: no seated station could press GO on the
    set-up pages, so the race goes on (the Legend moves count as made likewise)."""
    rig = grid()
    try:
        rig.table.start_race(cars=3)
        assert rig.table.state != flow.SETUP and rig.table.race is not None
        assert rig.table.race.round >= 1
    finally:
        rig.close()


def test_legend_cars_are_named_by_the_colours_the_options_give() -> None:
    """MODULES seats a red and a blue Legend: the race order names them so, as the move prompt
    does (not the data file's first colours)."""
    rig = grid()
    try:
        start(rig)
        race = rig.table.race
        assert race is not None
        assert race.setup.names[-2:] == ("Red Legend", "Blue Legend")
    finally:
        rig.close()
