"""The GO reveal on the bus: what the six displays are sent when the last plan locks in.

The reveal redraws every station at once, and on grid6 two stations share each I2C controller,
so its bus time is what the screens change. The screens after the reveal are drawn to share
rows with the screen before: a station that was locked in keeps its tray row (the cards played)
on the waiting screen, and the acting station's turn screen keeps SPEED and HEAT where the
planning and locked screens have them. Checked here on the bytes the panels were sent
(``rig.Panel`` decodes them into controller RAM); ``benchmarks/display_bytes.py`` prints the
bus time.
"""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from pitboard.app import with_writers
from pitboard.bots import HeuristicBot
from pitboard.engine.race import Race, RaceSetup
from pitboard.hw.display import StationDisplay
from pitboard.hw.oled import PANEL_WIDTH, RecordingSerial, to_pages
from pitboard.hwconfig import load_profile
from pitboard.table import flow
from pitboard.table.screens import BIG, SMALL, TINY, render, status_lines
from pitboard.table.view import (
    LOCKED,
    RESOLUTION,
    WAITING,
    CardView,
    CornerView,
    MoveView,
    StationView,
)
from pitboard.table.views import turn_corners
from rig import Grid6, Panel, Players, find_text

#: what a waiting station with a plan locked in is sent at the reveal: rows 24..39 (the
#: locked screen's header, pages 0-2, and tray stay)
NEWS_PAGES = {3, 4}


def _one_lap_race(seed: int) -> Grid6:
    rig = Grid6(seed=seed)
    for i in range(6):
        rig.go(i)
    rig.slot(5, 1)  # LAPS 2 -> 3
    rig.slot(5, 1)  # 3 -> 1
    rig.slot(5, 6)  # RACE
    assert rig.table.state == flow.PLANNING
    return rig


def test_the_reveal_sends_a_locked_station_two_pages() -> None:
    rig = _one_lap_race(seed=21)
    players = Players(rig, seed=7)
    reveals = waiting = 0
    while reveals < 4:
        before = [rig.view(i).kind for i in range(6)]
        for panel in rig.panels:
            panel.pages_written.clear()
        assert players.step()
        after = [rig.view(i).kind for i in range(6)]
        race = rig.table.race
        assert race is not None
        for i, kind in enumerate(after):  # a car whose turn is over has no plan in the tray
            if kind == "waiting" and i in race.order[:race.turn]:
                assert rig.view(i).cards == (), f"S{i + 1}: a stale tray"
        if "planning" not in before or "planning" in after:
            continue
        reveals += 1  # the last GO of a round
        rig.check_glass()
        assert after.count("resolution") <= 1
        for i, panel in enumerate(rig.panels):
            if before[i] == "locked" and after[i] == "waiting":
                waiting += 1
                assert panel.pages_written, f"S{i + 1}: the reveal did not reach the glass"
                assert panel.pages_written <= NEWS_PAGES, (
                    f"S{i + 1}: the reveal rewrote pages {sorted(panel.pages_written)}")
    rig.close()
    assert waiting >= 12


def _sent(before: StationView, after: StationView) -> tuple[set[int], int]:
    """Pages written and RAM bytes sent when ``after`` follows ``before`` on one display."""
    panel = Panel()
    display = StationDisplay(serial=panel, station="S1")
    display.show(render(before))
    panel.pages_written.clear()
    sent = panel.data_bytes
    display.show(render(after))
    assert panel.frame() == to_pages(render(after))
    return panel.pages_written, panel.data_bytes - sent


def test_locked_to_waiting_keeps_the_cards_played_in_place() -> None:
    cards = tuple(CardView(c, c, selected=c != "H") for c in "3H42")
    locked = StationView(LOCKED, 0, title="S1 Ann", cards=cards, gear=2, target_gear=3,
                         shift_cost=1, speed="9", engine=6, message="waiting for 1", lap=1,
                         laps=2, round=3)
    waiting = replace(locked, kind=WAITING, message="Bob to play", lines=("you: next", "Bob"),
                      move=MoveView(8, 30, "outside", 1, blocked=1),
                      order=tuple(f"{n} Car {n} L1 sp{40 - n}" for n in range(1, 7)))
    pages, nbytes = _sent(locked, waiting)
    assert pages == NEWS_PAGES
    assert nbytes <= len(NEWS_PAGES) * PANEL_WIDTH


def test_the_turn_screen_keeps_speed_and_heat_where_planning_has_them() -> None:
    """The acting station's turn screen: when the speed, the Heat in the engine and the corner
    ahead are what the player saw while planning, only the columns between SPEED and HEAT
    change in the top rows, and the corner row's corner (page 3, left) not at all (its Heat,
    a MEDIUM chip over pages 3-4 while planning, is the turn screen's one-page chip)."""
    corner = (CornerView(2, 7, 2),)
    planning = StationView("planning", 0, title="S1 Ann", gear=3, target_gear=3, engine=6,
                           speed="9", cards=tuple(CardView(c, c, selected=True) for c in "342"),
                           corners=corner, heat_owed=2)
    turn = StationView(RESOLUTION, 0, title="S1 Ann", gear=3, target_gear=3, engine=6,
                       speed="9", move=MoveView(9, 21, "racing line", 1), round=3, lap=1,
                       laps=2, soft_keys=("", "BST", "COOL", "", "", "", "GO"), corners=corner,
                       heat_owed=2, message="GO: cool 1, keep hand")
    old, new = to_pages(render(planning)), to_pages(render(turn))
    corner = slice(3 * PANEL_WIDTH, 3 * PANEL_WIDTH + 64)  # page 3, the corner's text
    assert old[corner] == new[corner]
    for page in range(3):  # rows 0..23: the SPEED block on the left, HEAT on the right
        row = slice(page * PANEL_WIDTH, (page + 1) * PANEL_WIDTH)
        a, b = old[row], new[row]
        assert a[:24] == b[:24], f"page {page}: SPEED moved"
        assert a[110:] == b[110:], f"page {page}: HEAT moved"  # the block: x 111..125


def test_the_turn_screen_corner_row_is_what_the_turn_then_pays() -> None:
    """turn_corners (the turn screen's corner row) against the engine's own corner check:
    whenever the car's speed and position are unchanged when the turn is checked (no Boost,
    Adrenaline or Slipstream taken), each corner costs what the row said."""
    checked = 0
    for seed in range(6):
        race = Race(RaceSetup(track="usa", cars=4, seed=seed, laps=1))
        bot = HeuristicBot(seed=seed)
        shown: dict[int, tuple[int, int, tuple[CornerView, ...]]] = {}
        while not race.over:
            car_id = race.waiting_for()
            car = race.cars[car_id]
            if race.phase in ("react", "slipstream"):
                shown[car_id] = car.speed, car.d, turn_corners(race, car)
            events = len(race.events)
            race.apply(bot.choose(race, car_id))
            paid = [(e.corner, e.limit, e.heat) for e in race.events[events:]
                    if e.kind == "corner" and e.car == car_id]
            if car_id in shown and race.phase not in ("react", "slipstream"):
                speed, d, corners = shown.pop(car_id)
                spun = any(e.kind == "spin_out" for e in race.events[events:])
                if speed == car.speed and d == car.d and not spun:
                    assert paid == [(c.number, c.limit, c.heat) for c in corners]
                    checked += len(paid)
    assert checked >= 20


def test_a_long_status_on_the_waiting_screen_keeps_every_fact() -> None:
    """Two status lines take the MOVED label's row: the spaces lost to blocking move to the
    round and lap line, nothing is dropped."""
    view = StationView(WAITING, 0, message="undo: Red Legend 11→68 back: GO",
                       move=MoveView(-3, 12, "outside", 1, blocked=1), order=("1 Ann L1 sp3",),
                       lap=1, laps=3, round=2)
    image = render(view)
    for text in [*status_lines(view.message), "-3", "BLK -1 R2 L1/3", "1 ANN L1 SP3"]:
        assert find_text(image, text, (TINY, SMALL, BIG)) is not None, text


def test_the_race_control_display_goes_after_the_stations_reveal() -> None:
    """grid6's race-control display shares controller A with S1 and S2. Its frame is sent
    after theirs even when it was posted first (an update from the GO before the last one, not
    on the wire yet): it never delays a station's reveal."""
    config = load_profile("grid6")
    assert config.race_control is not None
    specs = [*(st.display for st in config.stations), config.race_control]
    displays = [StationDisplay(serial=RecordingSerial(), station=name)
                for name in [*(f"S{i + 1}" for i in range(6)), "race control"]]
    screens, writers = with_writers(config, displays, threaded=False, specs=specs)
    for screen in screens:
        screen.show(Image.new("1", (128, 64)))
    for writer in writers:
        writer.drain()
    lit = Image.new("1", (128, 64), 1)
    screens[6].show(lit)  # the race-control display's update, still queued
    screens[0].show(lit)  # the reveal on controller A
    screens[1].show(lit)
    screens[6].show(Image.new("1", (128, 64)))  # and its own reveal frame replaces it
    a = next(w for w in writers if w.name == "I2C A")
    assert a.order() == ["S1", "S2", "race control"]
