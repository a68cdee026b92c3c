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
