"""The MCP23017 station board's INT line when it fails: stuck active (a short to GND) or never
active (a broken wire), on the register model and gpiozero's MockFactory."""

from __future__ import annotations

import logging

import pytest
from gpiozero.pins.mock import MockFactory

import mcpkit
from mcpkit import BITS, INT_PIN, wire_int
from pitboard.hw import mcp23017 as mcp
from pitboard.hw.events import SlotPressed, StationEvent
from pitboard.hw.inputs import Mcp23017StationInputs
from rig import FakeClock

POLL_S = 1 / 512  # the game loop's poll (2 ms), a power of two: exact fake time
SLOT_1 = BITS["slot 1"]

factory = mcpkit.factory  # the shared pytest fixture


def board(factory: MockFactory, clock: FakeClock, *, wired: bool
          ) -> tuple[mcp.Mcp23017Model, Mcp23017StationInputs, list[StationEvent]]:
    chip = mcp.Mcp23017Model()
    if wired:
        wire_int(chip, factory)
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(station=2, bus=chip, int_pin=INT_PIN, pin_factory=factory,
                                   post=events.append, clock=clock)
    return chip, inputs, events


def run(inputs: Mcp23017StationInputs, clock: FakeClock, seconds: float) -> None:
    for _ in range(round(seconds / POLL_S)):
        clock.advance(POLL_S)
        inputs.poll()


def test_a_stuck_int_line_falls_back_to_the_safety_poll_and_recovers(
        factory: MockFactory, caplog: pytest.LogCaptureFixture) -> None:
    """INT shorted to GND: the review estimated ~500 reads/s for ever; now two reads find it
    stuck, one log line, reads every 0.1 s; when the line is freed, reads on interrupt again."""
    clock = FakeClock()
    chip, inputs, events = board(factory, clock, wired=False)
    run(inputs, clock, 0.5)
    factory.pin(INT_PIN).drive_low()  # the short
    reads = chip.reads
    with caplog.at_level(logging.INFO, logger="pitboard"):
        run(inputs, clock, 1.0)
        assert inputs.int_stuck
        # the safety poll's rate (each read followed by one more), not one per 2 ms poll
        assert chip.reads - reads <= 2 * (1 / 0.1) + 3
        stuck = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert stuck == ["S3: INT line GPIO 17 stays active after reads: reading every 0.1 s "
                         "instead (check the INT wire, RJ45 pin 7, for a short to GND)"]
        chip.set_input(*SLOT_1, False)  # presses still count, by the safety poll
        run(inputs, clock, 0.25)
        assert events[-1] == SlotPressed(station=2, slot=0)
        factory.pin(INT_PIN).drive_high()  # the short removed
        run(inputs, clock, POLL_S)
        assert not inputs.int_stuck
        assert "S3: INT line GPIO 17 inactive again: reads on interrupt" in caplog.messages
    assert [r.levelno for r in caplog.records].count(logging.WARNING) == 1


def test_a_broken_int_wire_is_counted_and_logged_once(
        factory: MockFactory, caplog: pytest.LogCaptureFixture) -> None:
    """No interrupt ever: presses arrive by the safety read alone (late); each change it finds
    with INT inactive is counted; with the wire in place none is."""
    for wired in (True, False):
        clock = FakeClock()
        chip, inputs, events = board(factory, clock, wired=wired)
        run(inputs, clock, 0.25)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="pitboard"):
            for _ in range(3):
                chip.set_input(*SLOT_1, False)
                run(inputs, clock, 0.25)
                chip.set_input(*SLOT_1, None)
                run(inputs, clock, 0.25)
        assert events.count(SlotPressed(station=2, slot=0)) == 3
        assert inputs.missed_ints == (0 if wired else 6)
        assert [r.getMessage() for r in caplog.records] == ([] if wired else [
            "S3: input changes arrive without an interrupt: presses are read only every 0.1 s "
            "(check the INT wire, RJ45 pin 7, to GPIO 17)"])
        inputs.close()
        factory.reset()


def test_check_int_finds_a_stuck_line_without_waiting(factory: MockFactory) -> None:
    """hw-test asks once, before or after its live view."""
    clock = FakeClock()
    _, inputs, _ = board(factory, clock, wired=False)
    inputs.check_int()
    assert not inputs.int_stuck
    factory.pin(INT_PIN).drive_low()
    inputs.check_int()
    assert inputs.int_stuck
    inputs.close()
