"""Undo at the table: the cars it takes back are put back on the board. Every seated station's
status line (and the race-control display) says which car goes back from which space to which,
a GO confirms each, and the instructions survive a power cut -- through the grid6 rig's mock
pins and panels, the console's ``undo`` and the journal."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

from pitboard.console import ConsoleProtocol, DirectLink
from pitboard.engine.snapshot import replay
from pitboard.hw.events import GoPressed
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.cars_back import CarBack, Place, after_undo, board, place_of
from pitboard.table.fonts import TINY
from pitboard.table.legend_moves import legend_move_count
from pitboard.table.recorder import JournalRecorder
from pitboard.table.screens import render
from pitboard.table.storage_problem import DAMAGED_RECOVERED
from pitboard.table.table import Table
from rig import Grid6, Panel, shows, shows_message
from test_table_legends import MODULES, play_to_a_legend_move, raced_to_a_legend_move


def rig_after_an_undo(*, race_control: bool = False,
                      journal: Path | None = None) -> tuple[Grid6, int]:
    """The grid6 rig with a Legend move made on the board (confirmed) and then undone; the
    Legend moves the race had made before the undo."""
    rig = raced_to_a_legend_move(race_control=race_control, journal=journal)
    table = rig.table
    while table.legend_moves_waiting():
        rig.go(0)
    assert table.race is not None
    made = legend_move_count(table.race)
    assert table.legends_confirmed == made
    table.undo()
    rig.settle()
    return rig, made


def test_every_seated_station_says_which_cars_go_back_and_go_confirms_each() -> None:
    rig, made = rig_after_an_undo()
    table = rig.table
    race = table.race
    assert race is not None
    assert legend_move_count(race) < made  # the undo took a confirmed Legend move back
    backs = table.cars_back
    legends = [b for b in backs if b.name.endswith("Legend")]
    assert legends, backs
    # the Legend goes back from where its confirmed move put it to where the race has it now
    car = race.cars[legends[0].car]
    assert legends[0].to == Place(car.space, car.spot == race.racing_spot(car.d),
                                  race.lap_of(car.d))
    # the person whose car the race moved after the undone decision puts it back too
    assert any(not b.name.endswith("Legend") for b in backs), backs
    assert [b.to for b in backs] == sorted((b.to for b in backs),
                                           key=lambda p: (p.lap, p.space))  # furthest back first
    waiting = table.legend_moves_waiting()
    assert [m.back for m in waiting[:len(backs)]] == [True] * len(backs)
    for back in backs:
        # which car, from where to where, the side (racing line or outside) and, while more
        # than one waits, how many
        left = len(table.cars_back)
        count = f" 1/{left}" if left > 1 else ""
        side = "RL" if back.to.racing_line else "out"
        status = f"undo{count}: {back.name} {back.frm.space}→{back.to.space} {side}"
        for i in range(2):  # both seated stations, whatever screen they are on
            assert rig.view(i).message.startswith(status), (i, rig.view(i).message)
        # on the glass of both: the station waiting, and the one on its turn screen (where
        # flips, Heat paid and a pressed card's meaning must not crowd it out)
        assert rig.view(1).kind == "waiting"
        for i in range(2):
            assert shows_message(rig.panels[i], rig.view(i)), (i, rig.view(i))
        assert not rig.view(2).message.startswith("undo")  # S3 does not play
        decisions = len(race.log)
        rig.go(1)  # "put it back": the GO decides nothing
        assert len(race.log) == decisions
    assert table.cars_back == ()
    assert not any(m.back for m in table.legend_moves_waiting())
    rig.check_glass()
    rig.close()


def test_the_race_control_display_shows_the_car_going_back() -> None:
    rig, _ = rig_after_an_undo(race_control=True)
    panel: Panel = rig.rc_panel  # type: ignore[attr-defined]
    first = rig.table.cars_back[0]
    assert shows(panel, f"UNDO: BACK {first.name}", f"{first.frm.space} → {first.to.space}")
    # the stations spell it out too: a car going back is no Legend move race control owns
    assert rig.view(0).message.startswith("undo") and first.name in rig.view(0).message
    while rig.table.cars_back:
        rig.go(0)
    assert not shows(panel, "UNDO")
    rig.close()


def test_the_console_undo_puts_cars_back_the_same_way() -> None:
    table = Table(stations=2, render=render, seed=4, clock=lambda: 0.0, modules=MODULES)
    proto = ConsoleProtocol(table, staff_pin="1234", clock=lambda: 0.0, link=DirectLink(table))
    play_to_a_legend_move(table)
    while table.legend_moves_waiting():
        table.handle(GoPressed(station=0))
    assert proto.handle_line("pin 1234")[0].startswith("OK")
    assert proto.handle_line("undo")[0].startswith("OK")
    assert table.cars_back
    first = table.cars_back[0]
    assert table.views[0] is not None
    assert table.views[0].message == first.view(1, len(table.cars_back)).status()


def test_cars_still_to_go_back_survive_a_power_cut(tmp_path: Path) -> None:
    rig, _ = rig_after_an_undo(journal=tmp_path)
    backs = rig.table.cars_back
    assert len(backs) >= 2
    rig.go(0)  # the first is back on its space
    rig.close()
    again = Grid6(seed=9)
    again.table.modules = {k: dict(v) for k, v in MODULES.items()}
    again.table.recorder = recorder = JournalRecorder(Journal(tmp_path))
    saved = recorder.recover()
    assert saved is not None and recorder.problem is None
    again.table.restore(saved)
    assert again.table.cars_back == backs[1:]
    assert again.view(0).message.startswith("undo") and backs[1].name in again.view(0).message
    again.close()


def test_a_damaged_back_record_is_journal_damage(tmp_path: Path) -> None:
    rig, _ = rig_after_an_undo(journal=tmp_path)
    backs = rig.table.cars_back
    rig.close()
    with Journal(tmp_path) as journal:
        assert journal.load() is not None
        journal.append({"back": [[99, [1, True, 1], [2, False, 1]]]})
    fresh = Table(stations=6, render=render, seed=4, clock=lambda: 0.0)
    fresh.recorder = recorder = JournalRecorder(Journal(tmp_path))
    saved = recorder.recover()
    assert saved is not None and recorder.problem is not None
    assert recorder.problem.kind == DAMAGED_RECOVERED
    fresh.restore(saved)
    assert fresh.cars_back == backs  # everything before the damage


def test_a_legend_move_made_again_the_same_way_stays_made() -> None:
    rig, _ = rig_after_an_undo()
    race = rig.table.race
    assert race is not None
    moves = legend_move_count(race)
    same = replay(race.setup, list(race.log), track=race.track)
    assert after_undo(race, moves, (), same) == (moves, ())
    rig.close()


def test_a_legend_move_nobody_made_on_the_board_does_not_go_back() -> None:
    rig = raced_to_a_legend_move()
    table = rig.table
    waiting = table.legend_moves_waiting()
    assert waiting and table.race is not None
    table.undo()  # the move was shown, never confirmed: that car is still where it was
    assert not any(b.car == waiting[0].car for b in table.cars_back), table.cars_back
    rig.close()


def test_with_nobody_seated_nothing_waits_to_go_back() -> None:
    rig, _ = rig_after_an_undo()
    table = rig.table
    assert table.cars_back
    for st in table.stations:
        st.idle_bot = st.car is not None
    table.refresh()
    assert table.cars_back == () and not table.legend_moves_waiting()
    rig.close()


def test_the_status_line_fits_the_glass() -> None:
    width = 124  # the status line between the screens' margins
    long = CarBack(car=1, name="Yellow Legend", frm=Place(21, True, 2), to=Place(14, False, 2))
    assert long.view().status() == "undo: Yellow Legend 21→14 out"  # no room for ": GO"
    # one of several: the count squeezes the Legend's name to its colour
    assert long.view(2, 3).status() == "undo 2/3: Yellow 21→14 out"
    for status in (long.view().status(), long.view(2, 3).status()):
        assert TINY.width(status) <= width
    short = CarBack(car=0, name="Ann", frm=Place(9, False, 1), to=Place(3, True, 1))
    assert short.view().status() == "undo: Ann 9→3 RL: GO"
    assert short.view(1, 2).status() == "undo 1/2: Ann 9→3 RL: GO"
    assert short.view().instruction() == "undo: Ann back from space 9 to 3, racing line"


@pytest.mark.parametrize("seed", [1, 8])
def test_after_any_undo_and_its_confirms_the_board_is_the_race(seed: int) -> None:
    """Autoplayed module races with undos at random moments: whenever nothing waits for a GO,
    where the table believes each car stands on the board is where the race has it."""
    rng = random.Random(seed)
    table = Table(stations=3, render=render, seed=seed, clock=lambda: 0.0, modules=MODULES)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    table.start_race(track="usa", laps=1, cars=3)
    undos = backs = 0
    while (race := table.race) is not None and not race.over:
        if table.state in (flow.PLANNING, flow.RESOLUTION) and rng.random() < 0.03:
            with contextlib.suppress(ValueError):  # nothing a person decided yet
                table.undo()
                undos += 1
                backs += len(table.cars_back)
            continue
        if not table.legend_moves_waiting():
            believed = board(race, table.legends_confirmed, table.cars_back)
            assert believed == {car.id: place_of(race, car) for car in race.cars}
        event = next_input(table)
        assert event is not None
        table.handle(event)
    assert undos >= 5 and backs >= 5, (undos, backs)
