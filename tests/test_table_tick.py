"""A Tick (time passing, ten times a second on the device) redraws only what time changed:
the kiosk's timers acting, the kiosk lobby's countdown, or a redraw still owed (the last one
failed). Every view after a Tick is the one the table's state gives (pitboard.table.table)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import pitboard.table.table as table_module
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.feed import TableFeed
from pitboard.table.table import KioskOptions, Table, Tick
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
