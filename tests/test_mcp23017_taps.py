"""No lost taps on the MCP23017 station backend (issue 15, point 4): every tap read, soon and
once, at any timing of the game loop's polls."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

import mcpkit
from mcpkit import (
    GO,
    INT_PIN,
    LEVER,
    SLOT,
    press,
    release,
    wire_int,
    wired,
)
from pitboard.hw import mcp23017 as mcp
from pitboard.hw.events import GoPressed, StationEvent
from pitboard.hw.inputs import Mcp23017StationInputs
from rig import FakeClock

factory = mcpkit.factory  # the shared pytest fixtures
clock = mcpkit.clock


def test_a_change_during_a_read_raises_no_interrupt_of_its_own(factory: MockFactory) -> None:
    """The trap: the read that INT triggered clears the interrupt of a change made during it."""
    chip = mcp.Mcp23017Model()
    wire_int(chip, factory)
    for reg, value in Mcp23017StationInputs.CONFIG:
        chip.write_byte_data(0x20, reg, value)
    press(chip, LEVER[0])  # INT asserted
    assert not chip.int_level()
    chip.during_read = lambda: press(chip, GO)
    chip.read_i2c_block_data(0x20, mcp.IOCON, 10)
    chip.during_read = None
    # GO is down, yet INT is released and nothing is pending: only another read will see it
    assert chip.int_level() and chip.register(mcp.INTFB) == 0
    assert chip.register(mcp.GPIOB) >> GO[1] & 1


def run_loop(inputs: Mcp23017StationInputs, clock: FakeClock, until: float,
             actions: dict[int, list]) -> None:  # type: ignore[type-arg]
    """The table loop on a 0.1 ms grid: polls every 1 ms while busy, else every 10 ms."""
    next_poll = clock.now
    tick = 0
    while clock.now < until:
        for action in actions.pop(tick, []):
            action()
        if clock.now >= next_poll - 1e-9:
            inputs.poll()
            next_poll = clock.now + (0.001 if inputs.busy else 0.01)
        clock.advance(0.0001)
        tick += 1


@pytest.mark.parametrize("during_read", [False, True, "safety"],
                         ids=["between reads", "inside a read", "inside a safety read"])
def test_no_150ms_tap_is_lost_at_any_timing(factory: MockFactory, clock: FakeClock,
                                            during_read: bool | str) -> None:
    """A 150 ms GO tap, started at every 1 ms offset across two safety-poll periods, either
    between reads, inside the read that a glitch's INT triggered, or inside the next read
    whatever started it (the safety read: the read sees nothing new and clears the interrupt
    of the press), counts exactly once."""
    for offset_ms in range(0, 200, 1):
        chip = mcp.Mcp23017Model()
        wire_int(chip, factory)
        events: list[StationEvent] = []
        inputs = Mcp23017StationInputs(station=0, bus=chip, int_pin=INT_PIN, pin_factory=factory,
                                       post=events.append, clock=clock)
        start = round(offset_ms * 10) + 300  # ticks of 0.1 ms, after the start-up settles
        actions: dict[int, list] = {}  # type: ignore[type-arg]
        if during_read:
            def arm(chip: mcp.Mcp23017Model = chip,
                    inputs: Mcp23017StationInputs = inputs) -> None:
                def hook() -> None:
                    chip.during_read = None
                    pin = inputs._int
                    assert pin is not None
                    # the read clears the press's interrupt before the Pi sees it
                    callback, pin.when_activated = pin.when_activated, None
                    press(chip, GO)
                    pin.when_activated = callback
                chip.during_read = hook
                if during_read != "safety":
                    chip.glitch(*LEVER[1])  # INT: the read it triggers hides the GO press
            actions[start] = [arm]
        else:
            actions[start] = [lambda chip=chip: press(chip, GO)]
        actions[start + 1500] = [lambda chip=chip: release(chip, GO)]
        run_loop(inputs, clock, clock.now + 0.5, actions)
        assert events.count(GoPressed(station=0)) == 1, (offset_ms, events)
        inputs.close()
        factory.reset()


def test_a_press_is_confirmed_within_5ms_of_its_first_edge(factory: MockFactory,
                                                           clock: FakeClock) -> None:
    """INT read at the edge, a confirming read confirm_s (2 ms) later: confirmed then."""
    chip, inputs, events = wired(factory, clock)
    run_loop(inputs, clock, clock.now + 0.05, {})
    edge = clock.now
    press(chip, GO)
    while not events:
        run_loop(inputs, clock, clock.now + 0.0001, {})
    assert events == [GoPressed(station=0)]
    assert clock.now - edge <= 0.005
    inputs.close()


def test_board_resets_count_reconfigurations_and_recoveries(clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    inputs = Mcp23017StationInputs(station=0, bus=chip, post=lambda e: None, clock=clock)
    assert inputs.board_resets == 0
    chip.power_cycle()  # brown-out: the next read finds IOCON/GPPU at power-on values
    clock.advance(0.01)
    inputs.poll()
    assert inputs.reconfigurations == 1 and inputs.board_resets == 1
    chip.fail = True
    clock.advance(0.01)
    inputs.poll()
    chip.fail = False
    clock.advance(1.0)
    inputs.poll()
    assert not inputs.faulted and inputs.board_resets == 2
    inputs.close()


def settle(inputs: Mcp23017StationInputs, clock: FakeClock) -> None:
    """Poll through the start-up state (four 1 ms loop turns)."""
    for _ in range(4):
        clock.advance(0.001)
        inputs.poll()


def test_a_press_costs_two_short_reads_and_holds_the_bus_once(factory: MockFactory,
                                                              clock: FakeClock) -> None:
    """Issue 15.13: the INT read at the first edge and one confirming read confirm_s later,
    each of GPIOA..GPIOB only (2 bytes); the display writer is told once, at the edge."""
    chip = mcp.Mcp23017Model()
    wire_int(chip, factory)
    events: list[StationEvent] = []
    edges: list[float] = []
    inputs = Mcp23017StationInputs(
        station=0, bus=chip, int_pin=INT_PIN, pin_factory=factory, post=events.append,
        clock=clock)
    inputs.set_on_edge(lambda: edges.append(clock()))
    settle(inputs, clock)
    reads, read_bytes = inputs.reads, inputs.read_bytes
    press(chip, GO)  # the INT callback reads at once
    assert inputs.reads == reads + 1 and edges == [clock()]
    for _ in range(5):  # the loop polls every 1 ms while the press is busy
        clock.advance(0.001)
        inputs.poll()
    assert events == [GoPressed(station=0)]
    assert inputs.reads == reads + 2 and inputs.read_bytes == read_bytes + 4
    release(chip, GO)  # a release answers nothing: no hold
    for _ in range(30):
        clock.advance(0.001)
        inputs.poll()
    assert len(edges) == 1 and events == [GoPressed(station=0)]
    inputs.close()


def test_a_glitch_gone_by_the_confirming_read_is_no_press(factory: MockFactory,
                                                         clock: FakeClock) -> None:
    """Long cables: a spike seen by the INT read but not by the read confirm_s later."""
    chip, inputs, events = wired(factory, clock)
    settle(inputs, clock)
    events.clear()
    press(chip, SLOT[2])
    clock.advance(0.0005)
    release(chip, SLOT[2])
    for _ in range(30):
        clock.advance(0.001)
        inputs.poll()
    assert events == []
    inputs.close()


def test_a_failed_confirming_read_confirms_nothing(factory: MockFactory, clock: FakeClock) -> None:
    """The INT read at a press's edge is one sample; when the confirming read fails (a cable
    wiggled), the press is not confirmed on elapsed time alone: the recovery reads again."""
    chip, inputs, events = wired(factory, clock)
    run_loop(inputs, clock, clock.now + 0.05, {})
    events.clear()
    press(chip, GO)  # the INT read sees it
    chip.fail = True  # the confirming reads fail (and the release's INT read)
    release(chip, GO)  # a glitch
    for _ in range(5):
        clock.advance(0.001)
        inputs.poll()
    assert inputs.faulted and GoPressed(station=0) not in events
    chip.fail = False
    run_loop(inputs, clock, clock.now + 1.5, {})  # recovery: the state read again
    assert not inputs.faulted and GoPressed(station=0) not in events
    inputs.close()


def test_a_release_hidden_in_a_safety_read_does_not_merge_two_taps(
        factory: MockFactory, clock: FakeClock) -> None:
    """GO released inside a safety read (the read sees it still down and clears the INT of
    the release), then tapped again 60 ms later: the follow-up read after the safety read sees
    the release, so the second tap counts too."""
    chip, inputs, events = wired(factory, clock)
    run_loop(inputs, clock, clock.now + 0.05, {})
    press(chip, GO)
    run_loop(inputs, clock, clock.now + 0.05, {})
    assert events.count(GoPressed(station=0)) == 1

    def hook() -> None:
        chip.during_read = None
        # the read clears the release's interrupt before the Pi sees it: no INT callback
        assert inputs._int is not None
        callback, inputs._int.when_activated = inputs._int.when_activated, None
        release(chip, GO)
        inputs._int.when_activated = callback

    chip.during_read = hook  # the next read is the safety read: the release lands inside it
    while chip.during_read is not None:
        run_loop(inputs, clock, clock.now + 0.001, {})
    run_loop(inputs, clock, clock.now + 0.06, {})
    press(chip, GO)  # the second tap
    run_loop(inputs, clock, clock.now + 0.03, {})
    release(chip, GO)
    run_loop(inputs, clock, clock.now + 0.2, {})
    assert events.count(GoPressed(station=0)) == 2, events
    inputs.close()
