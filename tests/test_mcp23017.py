"""The MCP23017 station backend: configuration, INT-driven reads, the safety poll, bus faults."""

from __future__ import annotations

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

import mcpkit
from mcpkit import (
    GO,
    INT_PIN,
    LEVER,
    SLOT,
    configured,
    press,
    release,
    wire_int,
)
from pitboard.hw import mcp23017 as mcp
from pitboard.hw.events import (
    GoPressed,
    InputFault,
    InputFaultCleared,
    LeverMoved,
    SlotPressed,
    StationEvent,
)
from pitboard.hw.inputs import Mcp23017StationInputs
from rig import FakeClock

factory = mcpkit.factory  # the shared pytest fixtures
clock = mcpkit.clock


def test_configuration(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model(address=0x23)
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(
        station=2, bus=chip, address=0x23, post=events.append, clock=clock
    )
    assert configured(chip) == dict(Mcp23017StationInputs.CONFIG)
    assert chip.register(mcp.IOCON) == mcp.IOCON_MIRROR | mcp.IOCON_ODR
    assert events == [] and not inputs.faulted
    assert chip.output_only_input_reads == 0  # GPA7/GPB7 were outputs before the first read
    inputs.close()


def test_configuration_follows_the_bit_map() -> None:
    regs = dict(Mcp23017StationInputs.CONFIG)
    for port, bank in enumerate(("A", "B")):
        wired = {bit for b, bit, _ in mcp.STATION_BITS if b == bank}
        for bit in range(8):
            where = f"GP{bank}{bit}"
            is_input = bool(regs[mcp.IODIRA + port] >> bit & 1)
            if bit == mcp.OUTPUT_ONLY_BIT:  # an output driven low, no interrupt
                assert not is_input, where
                assert not regs[mcp.OLATA + port] >> bit & 1, where
            else:  # an input with its pull-up, inverted (closed = 1)
                assert is_input, where
                assert regs[mcp.GPPUA + port] >> bit & 1, where
                assert regs[mcp.IPOLA + port] >> bit & 1, where
            assert bool(regs[mcp.GPINTENA + port] >> bit & 1) == (bit in wired), where
        assert regs[mcp.INTCONA + port] == 0  # interrupt on change, DEFVAL unused
        assert regs[mcp.DEFVALA + port] == 0
    assert (regs[mcp.GPINTENA], regs[mcp.GPINTENB]) == (0x7F, 0x1F)
    assert (regs[mcp.IODIRA], regs[mcp.IODIRB]) == (0x7F, 0x7F)
    # the latches are set before the pins become outputs, so GPA7/GPB7 never drive high
    order = [reg for reg, _ in Mcp23017StationInputs.CONFIG]
    assert max(order.index(mcp.OLATA), order.index(mcp.OLATB)) < order.index(mcp.IODIRA)


def test_every_station_input_reaches_the_logic(clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(station=0, bus=chip, post=events.append, clock=clock)
    expected: list[StationEvent] = []
    for slot, where in enumerate(SLOT):
        press(chip, where)
        clock.advance(0.01)
        inputs.poll()
        clock.advance(0.02)
        inputs.poll()
        release(chip, where)
        clock.advance(0.03)
        inputs.poll()
        expected.append(SlotPressed(station=0, slot=slot))
    press(chip, GO)
    clock.advance(0.01)
    inputs.poll()
    clock.advance(0.02)
    inputs.poll()
    expected.append(GoPressed(station=0))
    assert events == expected
    assert chip.output_only_input_reads == 0
    inputs.close()


def test_a_button_still_wired_to_gpa7_reads_nothing(clock: FakeClock) -> None:
    """A board built to the old map (tray slot 4 on GPA7): the low output just shorts to GND."""
    chip = mcp.Mcp23017Model()
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(station=0, bus=chip, post=events.append, clock=clock)
    chip.set_input("A", 7, False)
    for _ in range(3):
        clock.advance(0.02)
        inputs.poll()
    assert events == []
    assert chip.register(mcp.GPIOA) & 0x80 == 0  # an output reads back its latch (low)
    assert chip.output_only_input_reads == 0
    inputs.close()


def test_int_driven_read(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    wire_int(chip, factory)
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(
        station=1, bus=chip, int_pin=INT_PIN, pin_factory=factory, post=events.append, clock=clock
    )
    reads = chip.reads
    press(chip, GO)  # INT falls, the backend reads at once and the read releases INT
    assert chip.reads == reads + 1
    assert chip.int_level() is True and factory.pin(INT_PIN).state is True
    assert inputs.busy
    clock.advance(0.003)
    inputs.poll()  # a second read confirms (a change may have hidden inside the first)
    assert events == [GoPressed(station=1)]
    assert chip.reads == reads + 2 and not inputs.busy
    clock.advance(0.05)
    inputs.poll()  # then no bus traffic before the safety poll is due
    assert chip.reads == reads + 2
    inputs.close()


def test_int_bounce_gives_one_event_per_input(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    wire_int(chip, factory)
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(
        station=0, bus=chip, int_pin=INT_PIN, pin_factory=factory, post=events.append, clock=clock
    )
    for _ in range(3):  # slot 5 bounces; the lever bounces from gear 1 into gear 2
        press(chip, SLOT[5])
        press(chip, LEVER[0])
        clock.advance(0.001)
        inputs.poll()
        release(chip, SLOT[5])
        release(chip, LEVER[0])
        press(chip, LEVER[1])
        clock.advance(0.001)
        inputs.poll()
        release(chip, LEVER[1])
    press(chip, SLOT[5])
    press(chip, LEVER[1])
    clock.advance(0.001)
    inputs.poll()
    assert events == []
    for _ in range(3):
        clock.advance(0.001)
        inputs.poll()
    assert events == [LeverMoved(station=0, gear=2), SlotPressed(station=0, slot=5)]
    inputs.close()


def test_safety_poll_catches_a_lost_interrupt(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()  # INT not wired: every interrupt is lost
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(
        station=0,
        bus=chip,
        int_pin=INT_PIN,
        pin_factory=factory,
        post=events.append,
        clock=clock,
        safety_poll_s=0.25,
    )
    clock.advance(0.003)
    inputs.poll()  # the first read's lever state is confirmed by a second one
    clock.advance(0.003)
    inputs.poll()  # which, like every read, is followed by one more (an INT it cleared)
    press(chip, SLOT[0])
    reads = chip.reads
    clock.advance(0.2)
    inputs.poll()
    assert chip.reads == reads and events == []
    clock.advance(0.05)
    inputs.poll()  # safety read sees the press
    assert chip.reads == reads + 1
    clock.advance(0.003)
    inputs.poll()  # and a second read confirms it
    assert events == [SlotPressed(station=0, slot=0)]
    inputs.close()


def test_poll_reads_while_int_is_stuck_active(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(
        station=0, bus=chip, int_pin=INT_PIN, pin_factory=factory, post=events.append, clock=clock
    )
    factory.pin(INT_PIN).drive_low()  # an edge the backend handles, then INT stays low
    reads = chip.reads
    clock.advance(0.01)
    inputs.poll()
    assert chip.reads == reads + 1
    inputs.close()


def test_without_int_every_poll_reads(clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(station=4, bus=chip, post=events.append, clock=clock)
    reads = chip.reads
    press(chip, LEVER[3])
    clock.advance(0.01)
    inputs.poll()
    clock.advance(0.02)
    inputs.poll()
    assert chip.reads == reads + 2
    assert events == [LeverMoved(station=4, gear=4)]


def test_i2c_error_then_recovery(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    wire_int(chip, factory)
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(
        station=3,
        bus=chip,
        int_pin=INT_PIN,
        pin_factory=factory,
        post=events.append,
        clock=clock,
        bus_label="I2C bus 25",
        retry_s=1.0,
    )
    chip.fail = True  # cable pulled
    for _ in range(5):
        clock.advance(0.25)
        inputs.poll()  # never raises
    assert events == [
        InputFault(station=3, message="MCP23017 0x20 on I2C bus 25: [Errno 121] Remote I/O error")
    ]
    assert inputs.faulted and inputs.errors == 2  # first safety read, one retry a second later
    chip.power_cycle()  # cable back in: a freshly powered chip
    chip.fail = False
    clock.advance(0.5)
    inputs.poll()  # the next retry is not due yet (last attempt at t=1.25)
    assert inputs.faulted
    clock.advance(0.5)
    inputs.poll()
    assert events[-1] == InputFaultCleared(station=3)
    assert configured(chip) == dict(Mcp23017StationInputs.CONFIG)
    press(chip, GO)  # interrupts work again
    clock.advance(0.02)
    inputs.poll()
    assert events[-1] == GoPressed(station=3)
    inputs.close()


def test_error_in_the_int_callback_does_not_raise(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(
        station=0, bus=chip, int_pin=INT_PIN, pin_factory=factory, post=events.append, clock=clock
    )
    chip.fail = True
    factory.pin(INT_PIN).drive_low()
    assert [type(e) for e in events] == [InputFault]
    inputs.close()


def test_missing_board_at_start(clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model(fail=True)
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(station=5, bus=chip, post=events.append, clock=clock)
    assert inputs.faulted
    assert [type(e) for e in events] == [InputFault]
    chip.fail = False
    clock.advance(1.0)
    inputs.poll()
    assert events[-1] == InputFaultCleared(station=5)


def test_chip_reset_is_configured_again_without_spurious_events(clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    events: list[StationEvent] = []
    inputs = Mcp23017StationInputs(station=0, bus=chip, post=events.append, clock=clock)
    press(chip, LEVER[1])
    clock.advance(0.01)
    inputs.poll()
    clock.advance(0.02)
    inputs.poll()
    assert events == [LeverMoved(station=0, gear=2)]
    chip.power_cycle()  # brown-out: pull-ups and inversion gone, no bus error
    clock.advance(0.01)
    inputs.poll()
    clock.advance(0.05)
    inputs.poll()
    assert inputs.reconfigurations == 1
    assert configured(chip) == dict(Mcp23017StationInputs.CONFIG)
    assert events == [LeverMoved(station=0, gear=2)]
    # only the read that found the chip reset was made with GPA7/GPB7 as inputs
    assert chip.output_only_input_reads == 1


class _NotAnMcp:
    """Answers every read with zeros and ignores writes: some other chip at that address."""

    def read_byte_data(self, i2c_addr: int, register: int, /) -> int:
        return 0

    def write_byte_data(self, i2c_addr: int, register: int, value: int, /) -> None:
        pass

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int, /) -> list[int]:
        return [0] * length


def test_a_chip_that_does_not_keep_its_configuration_is_a_fault(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    Mcp23017StationInputs(station=0, bus=_NotAnMcp(), post=events.append, clock=clock)
    assert events == [
        InputFault(
            station=0,
            message="MCP23017 0x20 on I2C: configuration did not stick "
            "(IOCON=0x00, GPPU=0x0000): is this an MCP23017?",
        )
    ]


def test_close_releases_the_int_pin(factory: MockFactory, clock: FakeClock) -> None:
    chip = mcp.Mcp23017Model()
    inputs = Mcp23017StationInputs(
        station=0, bus=chip, int_pin=INT_PIN, pin_factory=factory, post=lambda e: None, clock=clock
    )
    inputs.close()
    inputs.close()  # idempotent
    inputs.poll()  # harmless after close
    DigitalInputDevice(INT_PIN, pin_factory=factory).close()


class _ClosableModel(mcp.Mcp23017Model):
    closed = False

    def close(self) -> None:
        self.closed = True


def test_int_pin_conflict_closes_an_owned_bus(factory: MockFactory, clock: FakeClock) -> None:
    blocker = DigitalInputDevice(INT_PIN, pin_factory=factory)
    chip = _ClosableModel()
    with pytest.raises(GPIOPinInUse):
        Mcp23017StationInputs(
            station=0,
            bus=chip,
            int_pin=INT_PIN,
            pin_factory=factory,
            post=lambda e: None,
            clock=clock,
            owns_bus=True,
        )
    assert chip.closed
    blocker.close()
