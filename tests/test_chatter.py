"""Chattering contacts on the grid6 rig: every tray button and GO toggling every 25 ms reach the
table as hundreds of presses a second. Redraws are coalesced per display (one frame per pass of
the game loop, the latest state wins; the acting station's at most two: a press's small answer
and its new screen behind it, answers.acknowledgement), so the I2C bus is never asked for more
than it carries; a chattering input is reported once and ignored until it is quiet. The loop
runs on the rig's fake clock, and every byte sent to a display costs its I2C time on that
clock."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from pitboard.table import flow
from pitboard.table.chatter import ChatterGuard
from rig import SETTLE_S, Grid6

#: one I2C byte is 9 clocks at 400 kHz; the six displays share the bus behind the mux
BYTE_SECONDS = 9 / 400_000
TOGGLE_SECONDS = 0.025
BUTTONS = [f"slot {i}" for i in range(1, 8)] + ["GO"]  # as the wiring names them


@pytest.fixture
def rig() -> Iterator[Grid6]:
    r = Grid6(seed=23)
    yield r
    r.close()


def start(rig: Grid6) -> None:
    rig.go(0)
    rig.go(1)
    rig.slot(0, 6)  # RACE
    assert rig.table.state == flow.PLANNING


def game_loop(rig: Grid6, seconds: float, chattering: list[tuple[int, str]]) -> dict[str, int]:
    """``App.run``'s loop: toggle the chattering contacts as time goes, poll the boards, one
    ``Table.step``; the clock then moves on by the bus time of the bytes that step sent."""
    counts = {"steps": 0, "events": 0, "most_frames_per_step": 0}
    end = rig.clock.now + seconds
    while rig.clock.now < end:
        closed = int(rig.clock.now / TOGGLE_SECONDS) % 2 == 0
        for station, name in chattering:
            rig.pin(station, name, closed)
        for inputs in rig.inputs:
            inputs.poll()
        counts["events"] += rig.table.queue.qsize()
        frames = [d.stats.frames_sent for d in rig.displays]
        sent = sum(d.stats.bytes_sent for d in rig.displays)
        if rig.table.step(timeout=0):
            counts["steps"] += 1
        per_display = [d.stats.frames_sent - f for d, f in zip(rig.displays, frames, strict=True)]
        counts["most_frames_per_step"] = max(counts["most_frames_per_step"], *per_display)
        busy = (sum(d.stats.bytes_sent for d in rig.displays) - sent) * BYTE_SECONDS
        rig.clock.advance(max(busy, 0.001))
    return counts


def test_chatter_on_every_input_is_coalesced_to_what_the_bus_carries(rig: Grid6) -> None:
    start(rig)
    frames = [d.stats.frames_sent for d in rig.displays]
    counts = game_loop(rig, 2.0, [(s, b) for s in range(6) for b in BUTTONS])
    sent = [d.stats.frames_sent - f for d, f in zip(rig.displays, frames, strict=True)]
    assert counts["events"] >= 2 * 400  # hundreds of presses a second reach the table
    # one frame per display per loop pass (two for the acting one: an answer, then its screen)
    assert counts["most_frames_per_step"] <= 2
    assert sum(sent) < counts["events"] / 4  # most intermediate states were never drawn
    assert rig.table.queue.empty()  # and the loop kept up: nothing backs up, watchdog fed
    assert rig.table.healthy()
    # the chatter stops: every display shows the latest state, exactly as rendered
    for s in range(6):
        for name in BUTTONS:
            rig.pin(s, name, False)
    rig.settle()
    rig.table.step(timeout=0)
    rig.check_glass()
    frames = [d.stats.frames_sent for d in rig.displays]
    rig.table.refresh()  # nothing left to draw: the glass already shows the latest state
    assert [d.stats.frames_sent for d in rig.displays] == frames


def test_a_chattering_input_is_reported_once_and_ignored_until_quiet(
        rig: Grid6, caplog: pytest.LogCaptureFixture) -> None:
    rig.table.chatter = ChatterGuard()  # as App builds it for physical inputs
    start(rig)
    with caplog.at_level(logging.WARNING, logger="pitboard.table"):
        game_loop(rig, 3.0, [(0, "slot 2")])
    reports = [r.getMessage() for r in caplog.records if "chattering" in r.getMessage()]
    assert reports == ["Ann slot 2 is chattering (21 presses in 1 s): ignored until quiet for "
                       "5 s; check the switch and its wiring"]
    assert rig.view(0).message == "slot 2 chattering"
    selected = set(rig.table.stations[0].selected)
    game_loop(rig, 1.0, [(0, "slot 2")])  # still chattering: nothing toggles any more
    assert rig.table.stations[0].selected == selected
    rig.pin(0, "slot 2", False)
    rig.poll(6.0)  # quiet for longer than 5 s
    rig.slot(0, 1)  # a person presses it: heard again
    assert rig.table.stations[0].selected == selected ^ {1}
    rig.poll(SETTLE_S)


def test_a_long_backlog_is_handled_in_order_in_bounded_steps() -> None:
    from pitboard.table.table import BACKLOG_LIMIT, Call, Table

    table = Table(stations=2)
    seen: list[int] = []
    for i in range(BACKLOG_LIMIT + 7):
        table.post(Call(fn=lambda i=i: seen.append(i), reply=lambda result: None))
    assert table.step(timeout=0)
    assert seen == list(range(BACKLOG_LIMIT))  # one bounded batch
    assert table.step(timeout=0)
    assert seen == list(range(BACKLOG_LIMIT + 7))  # the rest, in order
    assert not table.step(timeout=0)
