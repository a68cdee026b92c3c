"""Faults at the table (grid6 profile): lever wiring, bouncing and between-gears levers,
simultaneous presses, a station board that stops answering, and a failing OLED.

Everything goes through the station boards' pins (MCP23017 models, INT on gpiozero mock pins)
and is checked on the bytes the displays were sent (see ``rig.py``). Time is the rig's fake
clock: the debounce and the display backoff run on it, nothing sleeps.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator
from itertools import pairwise

import pytest

from pitboard.engine.decisions import Plan
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.hw.oled import FRAME_BYTES
from pitboard.table import flow
from rig import SETTLE_S, Grid6, Players, shows


@pytest.fixture
def rig() -> Iterator[Grid6]:
    r = Grid6(seed=23)
    yield r
    r.close()


def start(rig: Grid6, players: int = 2, *, one_lap: bool = False) -> None:
    """S1..S<players> join, S1 presses RACE: everyone planning in gear 1."""
    for i in range(players):
        rig.go(i)
    if one_lap:
        rig.slot(0, 1)  # LAPS: 2 -> 3
        rig.slot(0, 1)  # 3 -> 1
    rig.slot(0, 6)
    assert rig.table.state == flow.PLANNING
    assert [rig.view(i).kind for i in range(players)] == ["planning"] * players


def playable_buttons(rig: Grid6, station: int) -> list[int]:
    """Tray buttons under cards the station's screen offers (not greyed, not selected)."""
    return [b for b, card in enumerate(rig.view(station).cards)
            if card.code and not card.disabled and not card.selected]


def frames_to(rig: Grid6, station: int) -> int:
    return rig.displays[station].stats.frames_sent


# -- the gear lever ------------------------------------------------------------------------------


def test_two_lever_contacts_show_a_fault_and_refuse_go(rig: Grid6) -> None:
    start(rig)
    card = playable_buttons(rig, 0)[0]
    rig.slot(0, card)  # a legal gear-1 plan, ready for GO
    assert rig.view(0).cards[card].selected

    rig.contacts(0, 1, 2)  # a second contact closes: wiring fault
    rig.settle()
    rig.check_glass()
    assert rig.view(0).kind == "fault"
    assert shows(rig.panels[0], "FAULT", "Gear lever fault:", "contacts 1+2", "check the wiring")
    assert rig.view(1).kind == "planning"  # S2 carries on

    shown = frames_to(rig, 0)
    rig.slot(0, card)  # neither the tray...
    rig.go(0)  # ...nor GO does anything while the lever is faulty
    assert rig.view(0).kind == "fault" and frames_to(rig, 0) == shown
    assert rig.table.race is not None and not rig.table.race.cars[0].planned

    rig.contacts(0, 1)  # fixed: back to one contact, gear 1
    rig.settle()
    rig.check_glass()
    view = rig.view(0)
    assert view.kind == "planning" and view.target_gear == 1
    assert view.cards[card].selected  # the selection survived the fault
    assert shows(rig.panels[0], "fix the gear lever")  # why the GO was refused
    rig.go(0)
    assert rig.view(0).kind == "locked"
    assert shows(rig.panels[0], "LOCKED")


def test_fault_clearing_into_another_gear_moves_the_lever(rig: Grid6) -> None:
    start(rig)
    rig.contacts(0, 2, 3)
    rig.settle()
    assert rig.view(0).kind == "fault" and shows(rig.panels[0], "contacts 2+3")
    rig.contacts(0, 3)
    rig.settle()
    assert rig.view(0).kind == "planning" and rig.view(0).target_gear == 3
    rig.check_glass()


def test_lever_bounce_settles_to_the_right_gear(rig: Grid6) -> None:
    start(rig)
    rig.handled.clear()
    shown = frames_to(rig, 0)
    # 1 -> 2 through a worn gate: break, chatter on 2, a brush of 3, none held for 20 ms
    chatter: list[tuple[tuple[int, ...], float]] = [
        ((), 0.004), ((2,), 0.003), ((), 0.002), ((2,), 0.006), ((2, 3), 0.002),
        ((2,), 0.005), ((), 0.001), ((1,), 0.004), ((2,), 0.003),
    ]
    for contacts, hold in chatter:
        rig.contacts(0, *contacts)  # INT fires: the board is read at once
        rig.poll(hold)  # the loop polls while the contacts are still moving
        assert rig.view(0).target_gear == 1 and rig.view(0).kind == "planning"
    assert frames_to(rig, 0) == shown  # no flicker, no fault flash on the glass
    rig.poll(0.010)
    assert rig.handled == []
    rig.poll(0.010)  # gear 2 now held for 23 ms
    assert rig.handled == [LeverMoved(station=0, gear=2)]
    assert rig.view(0).target_gear == 2 and frames_to(rig, 0) == shown + 1
    rig.check_glass()


def test_between_gears_keeps_the_last_gear(rig: Grid6) -> None:
    start(rig)
    rig.lever(0, 2)
    shown = frames_to(rig, 0)
    rig.handled.clear()
    rig.contacts(0)  # lever resting between gates: no contact at all
    for _ in range(20):  # over a second of loop passes, safety reads included
        rig.settle()
    assert rig.handled == []  # no event at all: not a move, not a fault
    assert rig.view(0).target_gear == 2 and rig.view(0).kind == "planning"
    assert frames_to(rig, 0) == shown

    first, second = playable_buttons(rig, 0)[:2]  # still between gears: play gear 2
    rig.slot(0, first)
    rig.slot(0, second)
    rig.go(0)
    view = rig.view(0)
    assert view.kind == "locked" and view.target_gear == 2, view.message
    assert shows(rig.panels[0], "LOCKED")
    rig.check_glass()


# -- several hands at once -----------------------------------------------------------------------


def test_simultaneous_presses_on_every_station(rig: Grid6) -> None:
    for i in range(6):  # six GO buttons go down in the same instant...
        rig.pin(i, "GO", True)
    rig.settle()  # ...and are confirmed by one loop pass
    assert rig.handled[-6:] == [GoPressed(station=i) for i in range(6)]
    assert all(shows(p, "JOINED - GO to leave", "6 cars: 6 players") for p in rig.panels)
    for i in range(6):
        rig.pin(i, "GO", False)
    rig.settle()
    rig.slot(0, 6)
    assert rig.table.state == flow.PLANNING

    rig.lever(0, 2)  # S1 plays gear 2 and presses both of its cards at once
    both = playable_buttons(rig, 0)[:2]
    picks = {i: playable_buttons(rig, i)[0] for i in range(1, 6)}
    for button in both:
        rig.pin(0, f"slot {button + 1}", True)
    for i, button in picks.items():
        rig.pin(i, f"slot {button + 1}", True)
    start = len(rig.handled)
    rig.settle()
    assert sorted((e.station, e.slot) for e in rig.handled[start:]
                  if isinstance(e, SlotPressed)) == sorted(
        [(0, b) for b in both] + list(picks.items()))
    for button in both:
        rig.pin(0, f"slot {button + 1}", False)
    for i, button in picks.items():
        rig.pin(i, f"slot {button + 1}", False)
    rig.settle()
    rig.check_glass()
    assert all(rig.view(0).cards[b].selected for b in both)
    assert all(rig.view(i).cards[b].selected for i, b in picks.items())

    for i in range(6):  # everyone locks in at the same moment
        rig.pin(i, "GO", True)
    rig.settle()
    for i in range(6):
        rig.pin(i, "GO", False)
    rig.settle()
    race = rig.table.race
    assert race is not None
    plans = [d for d in race.log if isinstance(d, Plan)]
    assert sorted(p.car for p in plans) == list(range(6))  # six plans from one loop pass
    assert [len(p.cards) for p in sorted(plans)] == [2, 1, 1, 1, 1, 1]
    assert not any(rig.view(i).kind == "planning" for i in range(6))
    rig.check_glass()


# -- a station board that stops answering --------------------------------------------------------


def test_station_board_lost_and_found(rig: Grid6) -> None:
    start(rig)
    rig.chips[1].fail = True  # S2's cable pulled: the next safety read NACKs
    for _ in range(6):
        rig.settle()
    assert rig.view(1).kind == "fault"
    assert shows(rig.panels[1], "FAULT", "Buttons not answering")
    assert rig.view(0).kind == "planning"
    rig.chips[1].fail = False
    for _ in range(25):  # the board is retried every second
        rig.settle()
    assert rig.view(1).kind == "planning"
    rig.check_glass()
    rig.go(1)  # and its buttons work again: no cards picked, so GO is refused
    assert shows(rig.panels[1], "play 1 card")
    assert rig.chips[1].output_only_input_reads == 0  # GPA7/GPB7 stayed outputs throughout


# -- a failing display ---------------------------------------------------------------------------


def test_failing_display_is_retried_with_backoff_and_recovers(
    rig: Grid6, caplog: pytest.LogCaptureFixture
) -> None:
    start(rig, players=6, one_lap=True)
    players = Players(rig, seed=3)
    for _ in range(3):
        assert players.step()
    others = [0, 1, 3, 4, 5]
    panel, display = rig.panels[2], rig.displays[2]
    others_before = [frames_to(rig, i) for i in others]

    with caplog.at_level(logging.DEBUG, logger="pitboard.hw.display"):
        panel.unplug(OSError(errno.EREMOTEIO, "Remote I/O error"))
        attempts = panel.attempts
        unplugged_at = rig.clock()
        while rig.clock() < unplugged_at + 10:  # ten seconds of racing with S3 dark
            assert players.step(), "the race ended while S3 was dark"
            rig.check_glass(others)
            assert not display.healthy
        retries = panel.attempt_times[attempts:]
        round_before = rig.table.race.round if rig.table.race else 0

        panel.plug()
        while not display.healthy:  # nobody needs to press anything: the loop retries
            rig.settle()
        rig.check_glass()  # S3 lit again, initialised and showing the current frame

    # the race went on: the others kept getting frames, S3's own moves were made blind
    assert all(frames_to(rig, i) > n for i, n in zip(others, others_before, strict=True))
    assert round_before >= 2 or players.actions > 20
    # the first frame after the unplug fails; then retries on the fake clock after 0.5 s,
    # doubling each time, each one made by the first loop pass that finds it due
    gaps = [b - a for a, b in pairwise(retries)]
    assert len(gaps) >= 4
    for k, gap in enumerate(gaps):
        backoff = min(0.5 * 2**k, 30.0)
        assert backoff <= gap < backoff + SETTLE_S, (k, gaps)
    assert display.stats.errors == len(retries)
    assert display.stats.frames_deferred > 0  # frames that arrived during the backoff
    assert display.stats.recoveries == 1 and display.stats.full_frames == 2
    assert panel.data_bytes >= 2 * FRAME_BYTES

    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "S3" in warnings[0].getMessage() and "Remote I/O error" in warnings[0].getMessage()
    assert any(r.levelno == logging.INFO and "S3 recovered" in r.getMessage()
               for r in caplog.records)

    while players.step():  # and the race runs to the end with all six screens right
        rig.check_glass()
    assert all(shows(p, "RESULTS") for p in rig.panels)
