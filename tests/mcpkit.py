"""Helpers for the MCP23017 tests: a mock Pi with the station board's INT wired to it, the
station's bits on the chip, presses and releases.

``factory`` and ``clock`` are pytest fixtures: a test file binds them (``factory =
mcpkit.factory``) to use them; an import would be flagged as unused by ruff."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from pitboard.hw import mcp23017 as mcp
from pitboard.hw.events import StationEvent
from pitboard.hw.inputs import Mcp23017StationInputs
from rig import FakeClock

INT_PIN = 17


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(revision="c03111")  # Pi 4B
    yield f
    f.reset()
    f.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(0.0)  # rig's clock, from 0 s: the timings in these tests step from there


def wire_int(chip: mcp.Mcp23017Model, factory: MockFactory, pin: int = INT_PIN) -> None:
    """Connect the chip's INTA to a mock Pi pin, as the station cable does."""
    mock_pin = factory.pin(pin)
    chip.connect_int(lambda high: mock_pin.drive_high() if high else mock_pin.drive_low())


def wired(factory: MockFactory, clock: FakeClock) -> tuple[
        mcp.Mcp23017Model, Mcp23017StationInputs, list[StationEvent]]:
    """Station 0's board with its INT wired to the mock Pi, and the events it posts."""
    chip = mcp.Mcp23017Model()
    wire_int(chip, factory)
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(station=0, bus=chip, int_pin=INT_PIN, pin_factory=factory,
                                   post=events.append, clock=clock)
    return chip, inputs, events


# Station wiring on the chip: (bank, bit) per input, from the one bit map the firmware uses.
BITS: dict[str, tuple[mcp.Bank, int]] = {f: (bank, bit) for bank, bit, f in mcp.STATION_BITS}
LEVER = [BITS[f"lever gear {gear}"] for gear in range(1, 5)]
SLOT = [BITS[f"slot {slot + 1}"] for slot in range(7)]  # by code index 0..6
GO = BITS["GO"]


def press(chip: mcp.Mcp23017Model, where: tuple[mcp.Bank, int]) -> None:
    chip.set_input(*where, False)


def release(chip: mcp.Mcp23017Model, where: tuple[mcp.Bank, int]) -> None:
    chip.set_input(*where, None)


def configured(chip: mcp.Mcp23017Model) -> dict[int, int]:
    return {reg: chip.register(reg) for reg, _ in Mcp23017StationInputs.CONFIG}

