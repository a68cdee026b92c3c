"""Kiosk mode: the store demo runs itself. Attract loop, join with GO, a quick race with bots,
idle seats taken over, back to the attract loop after results or when everyone walks away.
Time is a fake clock advanced by Tick events; nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.recorder import JournalRecorder
from pitboard.table.screens import render
from pitboard.table.table import KioskOptions, Table, Tick


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Screen:
    def __init__(self) -> None:
        self.frames = 0

    def show(self, image: object) -> None:
        self.frames += 1


KIOSK = KioskOptions(seat_idle_seconds=30, table_idle_seconds=60, join_seconds=15,
                     results_seconds=20, attract_step=0.5)


def kiosk_table(clock: Clock, *, stations: int = 4, journal: Path | None = None,
                seed: int = 7) -> Table:
    recorder = JournalRecorder(Journal(journal)) if journal is not None else None
    return Table(stations=stations, clock=clock, seed=seed, kiosk=KIOSK, recorder=recorder,
                 screens=[Screen() for _ in range(stations)], render=render)


def wait(table: Table, clock: Clock, seconds: float, *, step: float = 0.5) -> None:
    end = clock.now + seconds
    while clock.now < end:
        clock.now += step
        table.handle(Tick(clock.now))


def play_people(table: Table, clock: Clock, *, stations: set[int] | None = None,
                limit: int = 20000) -> None:
    """Players press their buttons promptly (a second per press) until nobody is asked."""
    for _ in range(limit):
        event = next_input(table, stations=stations)
        if event is None:
            return
        clock.now += 1
        table.handle(event)
    raise AssertionError("people never stopped being asked")


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_attract_loop_races_bots_on_the_displays(clock: Clock) -> None:
    table = kiosk_table(clock)
    assert table.state == flow.ATTRACT
    view = table.views[0]
    assert view is not None and view.kind == "attract"
    frames = [s.frames for s in table.screens]  # type: ignore[attr-defined]
    first = table.attract
    wait(table, clock, 20)
    assert table.attract is first and first is not None
    assert len(first.log) == 40  # a bot decision every attract_step
    assert all(s.frames > f for s, f in zip(table.screens, frames, strict=True))  # type: ignore[attr-defined]


def test_attract_loop_starts_a_new_bot_race_after_one_ends(clock: Clock) -> None:
    table = kiosk_table(clock)
    first = table.attract
    wait(table, clock, 3600, step=0.5)
    assert table.attract is not first
    assert table.state == flow.ATTRACT


def test_go_joins_and_a_quick_race_starts_after_the_countdown(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=2))
    assert table.state == flow.LOBBY and table.stations[2].joined
    view = table.views[2]
    assert view is not None and "start in 15s" in view.lines[2]
    table.handle(GoPressed(station=0))  # a friend joins too: the countdown restarts
    wait(table, clock, 14)
    assert table.state == flow.LOBBY
    wait(table, clock, 2)
    assert table.state in (flow.PLANNING, flow.RESOLUTION)
    race = table.race
    assert race is not None
    assert (race.track.key, race.laps, race.setup.cars) == ("usa", 1, KIOSK.cars)
    assert [st.car for st in table.stations] == [0, None, 1, None]
    assert set(table.bots) == {2, 3}


def test_a_full_kiosk_race_returns_to_the_attract_loop(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=1))
    wait(table, clock, 16)
    play_people(table, clock)
    assert table.state == flow.RESULTS
    wait(table, clock, 19)
    assert table.state == flow.RESULTS
    wait(table, clock, 2)
    assert table.state == flow.ATTRACT
    assert not any(st.joined for st in table.stations)


def test_an_idle_seat_is_taken_over_by_a_bot(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    wait(table, clock, 16)
    # station 1 walks away; station 0 keeps playing
    play_people(table, clock, stations={0})
    wait(table, clock, 61)
    assert table.stations[1].idle_bot and 1 in table.bots
    view = table.views[1]
    assert view is not None
    play_people(table, clock, stations={0})
    assert table.race is not None and table.race.over and table.state == flow.RESULTS


def test_everyone_leaving_returns_to_the_attract_loop(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=3))
    wait(table, clock, 16)
    assert table.state == flow.PLANNING
    wait(table, clock, 61)
    assert table.state == flow.ATTRACT
    assert table.race is None and not any(st.joined for st in table.stations)


def test_nobody_joins_back_to_attract(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=0))  # changed their mind
    wait(table, clock, 16)
    assert table.state == flow.ATTRACT


def test_staff_reset_returns_to_the_attract_loop(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    wait(table, clock, 16)
    table.do_reset()
    assert table.state == flow.ATTRACT and table.race is None


def test_a_power_cut_mid_race_resumes_and_the_day_goes_on(clock: Clock, tmp_path: Path) -> None:
    table = kiosk_table(clock, journal=tmp_path)
    table.handle(GoPressed(station=0))
    wait(table, clock, 16)
    for _ in range(30):
        event = next_input(table)
        assert event is not None
        clock.now += 1
        table.handle(event)
    assert table.race is not None
    log = list(table.race.log)

    # the plug is pulled; the kiosk boots again into the same race
    again = kiosk_table(clock, journal=tmp_path, seed=99)
    recorder = again.recorder
    assert isinstance(recorder, JournalRecorder)
    saved = recorder.recover()
    assert saved is not None and not saved.ended
    again.restore(saved)
    assert again.race is not None and again.race.log == log
    assert again.stations[0].car == 0 and not again.stations[0].idle_bot
    play_people(again, clock)
    wait(again, clock, 21)
    assert again.state == flow.ATTRACT
    # the finished race is not resumed a second time
    fresh = kiosk_table(clock, journal=tmp_path)
    saved = JournalRecorder(Journal(tmp_path)).recover()
    assert saved is not None and saved.ended
    assert fresh.state == flow.ATTRACT


def test_a_day_of_visitors(clock: Clock) -> None:
    """Many cycles of attract → join → race (some walk away) → results → attract."""
    table = kiosk_table(clock, stations=6)
    for visitor in range(12):
        wait(table, clock, 30)
        assert table.state == flow.ATTRACT
        seats = {visitor % 6, (visitor * 5 + 1) % 6}
        for station in seats:
            table.handle(GoPressed(station=station))
        wait(table, clock, 16)
        if visitor % 4 == 3:  # they all wander off mid-race
            wait(table, clock, 61)
        else:
            play_people(table, clock)
            wait(table, clock, 21)
        assert table.state == flow.ATTRACT, visitor


def test_staff_reset_from_the_console(clock: Clock) -> None:
    from pitboard.console import ConsoleProtocol

    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    wait(table, clock, 16)
    assert table.state == flow.PLANNING
    console = ConsoleProtocol(table, staff_pin="2468")
    assert console.handle_line("reset")[-1].startswith("ERR locked")
    assert console.handle_line("pin 2468")[-1] == "OK unlocked"
    assert console.handle_line("reset")[-1].startswith("OK state=attract")
    assert table.state == flow.ATTRACT and table.race is None


def test_a_player_who_comes_back_takes_the_seat_again(clock: Clock, tmp_path: Path) -> None:
    table = kiosk_table(clock, journal=tmp_path)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    wait(table, clock, 16)
    play_people(table, clock, stations={0})
    wait(table, clock, 61)
    st = table.stations[1]
    assert st.idle_bot
    view = table.views[1]
    assert view is not None and view.message == "BOT: press to play"
    assert table.race is not None
    log = len(table.race.log)
    table.handle(SlotPressed(station=1, slot=3))  # "I'm back": taken as that, not as a card
    assert not st.idle_bot and st.car not in table.bots and not st.selected
    assert table.race is not None and len(table.race.log) == log
    # after a power cut the seat is still theirs
    again = kiosk_table(clock, journal=tmp_path)
    recorder = again.recorder
    assert isinstance(recorder, JournalRecorder)
    saved = recorder.recover()
    assert saved is not None and saved.idle_bots == set()
    again.restore(saved)
    assert not again.stations[1].idle_bot and 1 not in again.bots
    play_people(again, clock)
    assert again.state == flow.RESULTS


def test_after_a_bot_took_a_walked_away_seat_its_next_go_joins(clock: Clock) -> None:
    """Clearing a seat clears every per-seat flag: the takeover flag once outlived the race and
    swallowed that station's next GO in the attract loop."""
    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    wait(table, clock, 16)
    play_people(table, clock, stations={0})  # station 1 walks away...
    wait(table, clock, 61)
    assert table.stations[1].idle_bot  # ... and a bot drives for it
    play_people(table, clock, stations={0})
    assert table.state == flow.RESULTS
    wait(table, clock, 21)
    assert table.state == flow.ATTRACT
    for st in table.stations:
        assert (st.car, st.joined, st.idle_bot, st.selected, st.page) == (None, False, False,
                                                                          set(), 0)
    table.handle(GoPressed(station=1))  # the next visitor at that station
    assert table.state == flow.LOBBY and table.stations[1].joined


def test_staff_reset_and_everyone_leaving_clear_the_seat_flags(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=2))
    table.handle(GoPressed(station=3))
    wait(table, clock, 16)
    play_people(table, clock, stations={3})
    wait(table, clock, 61)
    assert table.stations[2].idle_bot
    table.do_reset()
    assert not any(st.idle_bot or st.joined or st.car is not None for st in table.stations)
    table.handle(GoPressed(station=2))
    assert table.state == flow.LOBBY and table.stations[2].joined


def test_a_stuck_lever_with_tray_taps_cannot_stall_the_race(
        clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
    """A lever stuck between two positions (two contacts: no valid gear) plus a tray tap every
    50 s once held a race for good: the taps reset the idle clock though the station could not
    plan. Only input that can advance the turn counts; the seat goes to a bot and it is logged."""
    from pitboard.hw.events import LeverFault, LeverFaultCleared

    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    wait(table, clock, 16)
    assert table.state == flow.PLANNING
    table.handle(LeverFault(station=1, contacts=(2, 3)))
    play_people(table, clock, stations={0})  # station 0 plans; the table waits for station 1
    assert table.state == flow.PLANNING
    with caplog.at_level("WARNING"):
        wait(table, clock, 20)  # a tap after 20 s: seat_idle_seconds (30) still runs out
        table.handle(SlotPressed(station=1, slot=0))
        table.handle(GoPressed(station=1))
        wait(table, clock, 11)
    st = table.stations[1]
    assert st.idle_bot and 1 in table.bots
    assert any("station S2: the gear lever has read no valid gear (contacts 2+3 closed)" in
               r.getMessage() for r in caplog.records)
    assert table.race is not None
    planned = table.race.round
    table.handle(GoPressed(station=1))  # a press while the lever is still stuck
    assert st.idle_bot and st.message == "fix the gear lever"
    play_people(table, clock, stations={0})
    assert table.race.over or table.race.round > planned  # the race moves on
    table.handle(LeverFaultCleared(station=1))
    if not table.race.over:
        table.handle(GoPressed(station=1))  # lever fixed: the player takes the seat back
        assert not st.idle_bot


def test_taps_that_can_advance_the_turn_keep_the_seat(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    wait(table, clock, 16)
    play_people(table, clock, stations={0})
    for _ in range(3):  # someone is there, picking cards slowly
        wait(table, clock, KIOSK.seat_idle_seconds - 5)
        table.handle(SlotPressed(station=1, slot=0))
    assert not table.stations[1].idle_bot


# -- the two idle times: a seat goes to a bot, the table goes back to the attract loop ---------


def test_a_seat_goes_to_a_bot_after_seat_idle_seconds_not_before(clock: Clock) -> None:
    table = kiosk_table(clock)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    wait(table, clock, 16)
    play_people(table, clock, stations={0})  # S1 has planned and waits for S2
    since = table.stations[1].last_input  # when the table started waiting for S2
    wait(table, clock, since + KIOSK.seat_idle_seconds - 1 - clock.now)
    assert not table.stations[1].idle_bot
    wait(table, clock, 2)
    assert table.stations[1].idle_bot and table.state != flow.ATTRACT


def test_a_lone_player_who_walks_away_keeps_the_seat_until_the_table_gives_up(
    clock: Clock,
) -> None:
    """Nobody is held up, so no bot plays for them; the table waits table_idle_seconds."""
    table = kiosk_table(clock)
    table.handle(GoPressed(station=2))
    wait(table, clock, 16)
    assert table.state == flow.PLANNING
    wait(table, clock, KIOSK.seat_idle_seconds + 5)
    assert not table.stations[2].idle_bot and table.state == flow.PLANNING
    table.handle(SlotPressed(station=2, slot=0))  # back just in time: the clock starts again
    wait(table, clock, KIOSK.table_idle_seconds - 1)
    assert table.state in (flow.PLANNING, flow.RESOLUTION)
    wait(table, clock, 2)
    assert table.state == flow.ATTRACT and table.race is None


def test_kiosk_defaults_split_the_idle_times() -> None:
    options = KioskOptions()
    assert options.seat_idle_seconds == 30
    assert options.table_idle_seconds > options.seat_idle_seconds
