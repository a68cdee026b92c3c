"""When the table redraws (pitboard.table.table): a Tick (time passing, ten times a second on
the device) only for what time changed -- the kiosk's timers acting, the kiosk lobby's
countdown, a redraw still owed; a redraw answering an input leaves the other stations' screens
to the next one when another event already waits. Every view the table ends with is the one
its state gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

import pitboard.table.table as table_module
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.feed import TableFeed
from pitboard.table.table import CUT_LIMIT, Call, KioskOptions, Table, Tick
from pitboard.table.views import station_view


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def assert_views_are_the_state(table: Table) -> None:
    """Each station shows what a redraw from scratch would build now."""
    scene = table.scene()
    for st in table.stations:
        assert table.views[st.index] == station_view(scene, st), st.index


def counted_views(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The stations whose view the table builds from now on."""
    built: list[int] = []
    real = table_module.station_view

    def counting(scene: Any, st: Any) -> Any:
        built.append(st.index)
        return real(scene, st)

    monkeypatch.setattr(table_module, "station_view", counting)
    return built


def test_a_quiet_tick_builds_no_view_and_publishes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(stations=3, seed=1, laps=1)
    feeds: list[TableFeed] = []
    table.view_observers.append(feeds.append)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    table.handle(SlotPressed(station=0, slot=6))  # RACE
    while table.state != flow.RESOLUTION:  # into the race, planning done
        event = next_input(table)
        assert event is not None
        table.handle(event)
    views, published = list(table.views), len(feeds)
    built = counted_views(monkeypatch)
    for _ in range(5):
        table.tick()
    assert built == [] and len(feeds) == published
    assert all(a is b for a, b in zip(table.views, views, strict=True))
    table.handle(next_input(table))  # type: ignore[arg-type]  # an input: every view again
    assert sorted(built) == [0, 1, 2]


def test_views_after_ticks_are_the_state_over_random_races() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        table = Table(stations=3, seed=seed, laps=1, cars=4)
        for st in table.stations:
            table.handle(GoPressed(station=st.index))
        table.handle(SlotPressed(station=0, slot=6))  # RACE
        while (event := next_input(table)) is not None:
            table.handle(event)
            if rng.random() < 0.3:
                table.tick()
                assert_views_are_the_state(table)
        table.tick()
        assert_views_are_the_state(table)


def test_kiosk_ticks_redraw_what_time_changes() -> None:
    """The countdown, the race it starts, idle seats to bots, results timing out: after every
    Tick each screen is what the state gives, over a kiosk's random afternoon."""
    clock = Clock()
    kiosk = KioskOptions(seat_idle_seconds=4, table_idle_seconds=30, join_seconds=3,
                         results_seconds=2, attract_step=0.5)
    table = Table(stations=3, seed=5, clock=clock, kiosk=kiosk)
    rng = random.Random(5)
    seen = set()
    for _ in range(3000):
        seen.add(table.state)
        if table.state == flow.ATTRACT and rng.random() < 0.2:
            table.handle(GoPressed(station=rng.randrange(3)))
        elif rng.random() < 0.5:  # visitors press now and then; sometimes one walks away
            event = next_input(table, stations={0} if rng.random() < 0.7 else {0, 1})
            if event is not None:
                table.handle(event)
        clock.now += rng.choice((0.1, 0.3, 1.0))
        table.handle(Tick(clock.now))
        assert_views_are_the_state(table)
    assert {flow.ATTRACT, flow.LOBBY, flow.PLANNING, flow.RESOLUTION} <= seen


def test_the_countdown_moves_on_the_lobby_with_each_second() -> None:
    clock = Clock()
    table = Table(stations=2, seed=1, clock=clock, kiosk=KioskOptions(join_seconds=15))
    table.handle(GoPressed(station=0))
    for left in (14, 13):
        clock.now += 0.5
        table.tick()  # half a second: the same whole seconds on the screen
        clock.now += 0.5
        table.tick()
        view = table.views[0]
        assert view is not None and f"start in {left}s" in " ".join(view.lines)


def test_a_tick_redraws_what_a_failed_redraw_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(stations=2, seed=1)
    feeds: list[TableFeed] = []
    table.view_observers.append(feeds.append)
    real = table_module.station_view
    failing = [True]

    def buggy(scene: Any, st: Any) -> Any:  # a screen whose builder fails once
        if failing[0] and st.index == 1:
            raise RuntimeError("a bug")
        return real(scene, st)

    monkeypatch.setattr(table_module, "station_view", buggy)
    table.post(GoPressed(station=0))
    assert table.step(timeout=0)  # handled; its redraw failed after station 1 (logged)
    published = len(feeds)
    failing[0] = False
    table.tick()
    assert len(feeds) == published + 1
    assert_views_are_the_state(table)
    view = table.views[1]
    assert view is not None and "1 car: 1 player" in view.lines
    table.tick()  # drawn: nothing owed any more
    assert len(feeds) == published + 1


def lobby_table(stations: int = 3, seed: int = 1) -> tuple[Table, list[TableFeed]]:
    """A table in its lobby whose views a client beside it (a web server) is handed."""
    table = Table(stations=stations, seed=seed, laps=1)
    feeds: list[TableFeed] = []
    table.view_observers.append(feeds.append)
    return table, feeds


def test_an_event_waiting_leaves_the_other_screens_to_the_next_redraw() -> None:
    table, feeds = lobby_table()
    before = list(table.views)
    # a player at station 1 presses while station 0's join is answered
    table.answer_handovers.append(lambda station: table.post(GoPressed(station=1)))
    table.handle(GoPressed(station=0))
    assert table.views[0] != before[0]  # the answer: station 0 joined
    assert table.views[1] is before[1] and table.views[2] is before[2]  # left for later
    assert feeds[-1].views[0] == table.views[0]  # (the answer went out)
    table.answer_handovers.clear()
    assert table.step(timeout=0)  # station 1's press, then every screen
    assert_views_are_the_state(table)
    assert feeds[-1].views == tuple(table.views)
    table.tick()  # nothing owed
    assert feeds[-1].views == tuple(table.views)


def test_every_input_a_redraw_answers_is_drawn_before_it_is_cut() -> None:
    table, feeds = lobby_table(stations=4)
    table.post(GoPressed(station=2))
    table.post(GoPressed(station=0))  # two joins in one batch: 0 is drawn first, then 2
    table.answer_handovers.append(lambda station: table.post(GoPressed(station=3)))
    assert table.step(timeout=0)
    scene = table.scene()
    for i in (0, 2):  # both players see their join
        assert table.views[i] == station_view(scene, table.stations[i])
        assert feeds[-1].views[i] == table.views[i]
    assert table.views[1] != station_view(scene, table.stations[1])  # nobody's answer: later
    table.answer_handovers.clear()
    assert table.step(timeout=0)
    assert_views_are_the_state(table)


def test_a_tick_draws_what_a_cut_redraw_left_when_nothing_else_comes() -> None:
    table, _ = lobby_table()
    table.answer_handovers.append(
        lambda station: table.post(Call(lambda: None, lambda result: None)))
    table.handle(GoPressed(station=0))  # a console command came in meanwhile
    left = table.views[1]
    assert left != station_view(table.scene(), table.stations[1])
    table.tick()  # the command still waits: its own redraw comes right after it
    assert table.views[1] is left
    table.answer_handovers.clear()
    table.queue.get_nowait()  # (it went away: nothing comes)
    table.tick()
    assert_views_are_the_state(table)


def test_redraws_are_cut_at_most_cut_limit_times_in_a_row(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = lobby_table(stations=2)
    built = counted_views(monkeypatch)
    table.answer_handovers.append(lambda station: table.post(GoPressed(station=0)))  # always
    redraws = []
    table.handle(GoPressed(station=0))
    redraws.append(built.count(1))
    for _ in range(2 * CUT_LIMIT + 1):
        built.clear()
        assert table.step(timeout=0)
        redraws.append(built.count(1))
    assert redraws == ([0] * CUT_LIMIT + [1]) * 2  # station 1's screen: every fourth redraw


def test_a_console_commands_redraw_is_never_cut() -> None:
    table, _ = lobby_table()
    table.handle(GoPressed(station=0))
    table.post(GoPressed(station=1))
    def join() -> None:  # a console command that changes every lobby screen
        table.stations[2].joined = True
    table.handle(Call(join, lambda result: None))
    assert_views_are_the_state(table)  # drawn before the caller hears "done"


def presses_meanwhile(table: Table, rng: random.Random) -> None:
    """Now and then a player presses while the table answers another (at its handover)."""
    def meanwhile(station: int) -> None:
        if rng.random() < 0.5 and (event := next_input(table)) is not None:
            table.post(event)
    table.answer_handovers.append(meanwhile)


def test_views_end_as_the_state_when_players_press_during_redraws() -> None:
    cut = 0
    for seed in range(3):
        table, _ = lobby_table(seed=seed)
        for st in table.stations:
            table.handle(GoPressed(station=st.index))
        table.handle(SlotPressed(station=0, slot=6))  # RACE
        presses_meanwhile(table, random.Random(seed))
        while (event := next_input(table)) is not None:
            table.post(event)
            while table.step(timeout=0):
                scene = table.scene()
                cut += any(table.views[st.index] != station_view(scene, st)
                           for st in table.stations)
            table.tick()
            assert_views_are_the_state(table)
        assert table.race is not None and table.race.over
    assert cut  # (redraws were cut short)
