"""The acting station (the one whose input the table just handled) is drawn first, with
``show_first``; a later redraw that no station's input caused (a Tick, a bot's move, a console
command) answers nobody: every frame goes out with ``show`` (pitboard.table.table)."""

from __future__ import annotations

from typing import Any

from pitboard.hw.events import GoPressed
from pitboard.table.table import Call, Table


class Recorded:
    """A screen with a display writer's two ways in, noting which one each frame took."""

    def __init__(self, index: int, log: list[tuple[int, str]]) -> None:
        self.index = index
        self.log = log

    def show(self, image: Any) -> None:
        self.log.append((self.index, "show"))

    def show_first(self, image: Any) -> None:
        self.log.append((self.index, "first"))


def recorded_table(log: list[tuple[int, str]]) -> Table:
    """Two stations whose screens note what they are sent, the first frames already out."""
    table = Table(stations=2, screens=[Recorded(i, log) for i in range(2)],
                  render=lambda view: view)  # type: ignore[arg-type,return-value]
    table.refresh()
    log.clear()
    return table


def late_news(table: Table, station: int) -> None:
    """A change nobody at ``station`` caused: a console command sets its message (a Tick
    redraws only what time changes)."""
    def news() -> None:
        table.stations[station].message = "late news"
    table.handle(Call(news, lambda result: None))


def test_a_redraw_after_the_event_sends_no_frame_first() -> None:
    log: list[tuple[int, str]] = []
    table = recorded_table(log)
    table.handle(GoPressed(station=0))
    assert log[0] == (0, "first")
    log.clear()
    late_news(table, 0)
    assert log == [(0, "show")]


def test_a_batch_of_events_draws_its_last_acting_station_first() -> None:
    log: list[tuple[int, str]] = []
    table = recorded_table(log)
    table.post(GoPressed(station=1))
    assert table.step(timeout=0)
    assert log[0] == (1, "first")
    log.clear()
    late_news(table, 1)
    assert log == [(1, "show")]


def test_a_phones_last_go_is_answered_by_its_locked_plan_before_the_new_screen() -> None:
    """A GO that brings a whole new picture reaches a phone as it reaches an OLED: first the
    plan with its LOCKED mark (answers.acknowledgement), then the new screen."""
    from pitboard.hw.events import SlotPressed
    from pitboard.table import flow
    from pitboard.table.autoplay import next_input
    from pitboard.table.feed import TableFeed
    from pitboard.table.view import LOCKED, PLANNING

    table = Table(stations=2, seed=3, laps=1)
    feeds: list[TableFeed] = []
    table.view_observers.append(feeds.append)
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    table.handle(SlotPressed(station=0, slot=6))  # RACE
    assert table.state == flow.PLANNING
    seen = 0
    while table.state in (flow.PLANNING, flow.RESOLUTION) and seen < 3:
        event = next_input(table)
        assert event is not None
        st = event.station
        before = table.views[st]
        last_go = isinstance(event, GoPressed) and before is not None \
            and before.kind == PLANNING and sum(
                v is not None and v.kind == PLANNING for v in table.views) == 1
        feeds.clear()
        table.handle(event)
        if last_go and table.state != flow.PLANNING:
            # (a car's move may go out to the TVs first, the screens as they were)
            first = next(f.views[st] for f in feeds if f.views[st] != before)
            final = feeds[-1].views[st]
            assert first is not None and first.kind == LOCKED and first.message == "all in"
            assert final == table.views[st] and final != first
            seen += 1
    assert seen >= 1
