"""MCP23017 register model and the MCP23017 station backend (INT, safety poll, bus faults)."""

from __future__ import annotations

import errno
from collections.abc import Iterator

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

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

INT_PIN = 17


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(revision="c03111")  # Pi 4B
    yield f
    f.reset()
    f.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


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


# ---- the register model --------------------------------------------------------------------


def test_power_on_values() -> None:
    chip = mcp.Mcp23017Model()
    values = [chip.read_byte_data(0x20, reg) for reg in range(mcp.REGISTER_COUNT)]
    assert values[mcp.IODIRA] == values[mcp.IODIRB] == 0xFF
    assert all(v == 0 for i, v in enumerate(values) if i not in (mcp.IODIRA, mcp.IODIRB))


def test_iocon_is_one_register_at_two_addresses() -> None:
    chip = mcp.Mcp23017Model()
    chip.write_byte_data(0x20, mcp.IOCON_ALT, mcp.IOCON_MIRROR)
    assert chip.read_byte_data(0x20, mcp.IOCON) == mcp.IOCON_MIRROR


def test_bank1_is_refused() -> None:
    with pytest.raises(NotImplementedError):
        mcp.Mcp23017Model().write_byte_data(0x20, mcp.IOCON, mcp.IOCON_BANK)


def test_open_pins_float_low_without_pull_ups_and_read_high_with_them() -> None:
    chip = mcp.Mcp23017Model()
    assert chip.read_byte_data(0x20, mcp.GPIOA) == 0x00
    chip.write_byte_data(0x20, mcp.GPPUA, 0xFF)
    assert chip.read_byte_data(0x20, mcp.GPIOA) == 0xFF
    chip.set_input("A", 3, False)
    assert chip.read_byte_data(0x20, mcp.GPIOA) == 0xF7
    chip.write_byte_data(0x20, mcp.IPOLA, 0xFF)  # inverted: closed contact reads 1
    assert chip.read_byte_data(0x20, mcp.GPIOA) == 0x08


def test_outputs_read_back_the_latch() -> None:
    chip = mcp.Mcp23017Model()
    chip.write_byte_data(0x20, mcp.IODIRB, 0x0F)
    chip.write_byte_data(0x20, mcp.GPIOB, 0xA5)  # writing GPIO writes OLAT
    assert chip.read_byte_data(0x20, mcp.OLATB) == 0xA5
    assert chip.read_byte_data(0x20, mcp.GPIOB) == 0xA0  # inputs float low, outputs = latch


def test_sequential_and_byte_mode_block_reads() -> None:
    chip = mcp.Mcp23017Model()
    chip.write_byte_data(0x20, mcp.OLATA, 0x11)
    chip.write_byte_data(0x20, mcp.OLATB, 0x22)
    assert chip.read_i2c_block_data(0x20, mcp.OLATA, 4) == [0x11, 0x22, 0xFF, 0xFF]  # wraps
    chip.write_byte_data(0x20, mcp.IOCON, mcp.IOCON_SEQOP)
    assert chip.read_i2c_block_data(0x20, mcp.OLATA, 4) == [0x11, 0x22, 0x11, 0x22]


def test_bus_errors_look_like_a_nack() -> None:
    chip = mcp.Mcp23017Model(address=0x21)
    with pytest.raises(OSError) as wrong_address:
        chip.read_byte_data(0x20, mcp.GPIOA)
    assert wrong_address.value.errno == errno.EREMOTEIO
    chip.fail = True
    with pytest.raises(OSError):
        chip.write_byte_data(0x21, mcp.GPPUA, 0xFF)
    with pytest.raises(OSError):
        chip.read_i2c_block_data(0x21, mcp.GPIOA, 2)


def _interrupt_chip(iocon: int) -> tuple[mcp.Mcp23017Model, list[bool]]:
    chip = mcp.Mcp23017Model()
    levels: list[bool] = []
    chip.connect_int(levels.append)
    for reg, value in (
        (mcp.IOCON, iocon),
        (mcp.GPPUA, 0xFF),
        (mcp.GPPUB, 0xFF),
        (mcp.IPOLA, 0xFF),
        (mcp.GPINTENA, 0xFF),
        (mcp.GPINTENB, 0xFF),
    ):
        chip.write_byte_data(0x20, reg, value)
    return chip, levels


def test_interrupt_on_change_captures_the_first_event_and_clears_on_gpio_read() -> None:
    chip, levels = _interrupt_chip(mcp.IOCON_MIRROR | mcp.IOCON_ODR)
    assert chip.int_level("A") is True  # open drain, released
    chip.set_input("A", 1, False)
    assert chip.register(mcp.INTFA) == 0x02
    assert chip.register(mcp.INTCAPA) == 0x02
    assert chip.int_level("A") is False and levels == [False]
    chip.set_input("A", 2, False)  # a second event does not touch the capture
    assert chip.register(mcp.INTFA) == 0x02
    assert chip.register(mcp.INTCAPA) == 0x02
    assert chip.read_byte_data(0x20, mcp.GPIOA) == 0x06  # clears the interrupt
    assert chip.register(mcp.INTFA) == 0
    assert chip.int_level("A") is True and levels == [False, True]


def test_reading_intcap_also_clears() -> None:
    chip, _ = _interrupt_chip(mcp.IOCON_ODR)
    chip.set_input("A", 0, False)
    assert chip.read_byte_data(0x20, mcp.INTCAPA) == 0x01
    assert chip.int_level("A") is True


def test_mirror_routes_port_b_to_inta() -> None:
    chip, _ = _interrupt_chip(mcp.IOCON_ODR)  # no mirror
    chip.set_input("B", 0, False)
    assert chip.int_level("A") is True and chip.int_level("B") is False
    chip.read_byte_data(0x20, mcp.GPIOB)
    chip.write_byte_data(0x20, mcp.IOCON, mcp.IOCON_ODR | mcp.IOCON_MIRROR)
    chip.set_input("B", 0, None)
    assert chip.int_level("A") is False and chip.int_level("B") is False


def test_push_pull_polarity() -> None:
    chip, _ = _interrupt_chip(mcp.IOCON_INTPOL)  # push-pull, active high
    assert chip.int_level("A") is False
    chip.set_input("A", 0, False)
    assert chip.int_level("A") is True


def test_defval_compare_reasserts_while_the_condition_holds() -> None:
    chip, _ = _interrupt_chip(mcp.IOCON_ODR)
    chip.write_byte_data(0x20, mcp.DEFVALA, 0xFF)  # pin levels are compared with DEFVAL
    chip.write_byte_data(0x20, mcp.INTCONA, 0x01)
    chip.set_input("A", 0, False)
    assert chip.int_level("A") is False
    chip.read_byte_data(0x20, mcp.GPIOA)
    assert chip.int_level("A") is False  # still low against DEFVAL: interrupt again
    chip.set_input("A", 0, None)
    chip.read_byte_data(0x20, mcp.GPIOA)
    assert chip.int_level("A") is True


def test_reads_are_counted_while_an_output_only_pin_is_an_input() -> None:
    chip = mcp.Mcp23017Model()
    chip.read_byte_data(0x20, mcp.GPIOA)  # power-on: GPA7 and GPB7 are inputs
    chip.read_i2c_block_data(0x20, mcp.INTCAPA, 4)
    assert chip.output_only_input_reads == 2
    chip.write_byte_data(0x20, mcp.IODIRA, 0x7F)
    chip.read_byte_data(0x20, mcp.GPIOA)  # GPB7 is still an input
    assert chip.output_only_input_reads == 3
    chip.write_byte_data(0x20, mcp.IODIRB, 0x7F)
    chip.read_i2c_block_data(0x20, mcp.IOCON, 10)
    chip.register(mcp.GPIOB)  # a peek is not a bus read
    assert chip.output_only_input_reads == 3


def test_station_bit_map() -> None:
    assert [f for _, _, f in mcp.STATION_BITS] == [
        *(f"lever gear {gear}" for gear in range(1, 5)),
        *(f"slot {slot}" for slot in range(1, 8)),  # tray slots as people count them
        "GO",
    ]
    pins = [(bank, bit) for bank, bit, _ in mcp.STATION_BITS]
    assert len(set(pins)) == len(pins) == 12
    assert all(bank in ("A", "B") and 0 <= bit <= 7 for bank, bit in pins)
    # GPA7 and GPB7 are output-only (data sheet rev. D): nothing is read on them
    assert mcp.OUTPUT_ONLY_BIT not in {bit for _, bit in pins}
    assert BITS["slot 4"] == ("B", 4)  # tray slot 4, index 3


def test_split_station_bits() -> None:
    lever, slots, go = mcp.split_station_bits(0b0010_0100, 0b0001_0010)
    assert lever == (False, False, True, False)
    assert slots == (False, True, False, True, False, True, False)
    assert go is False
    # GPA7/GPB7 and the unused GPB5/GPB6 never show up as inputs
    assert mcp.split_station_bits(0x80, 0xE0) == ((False,) * 4, (False,) * 7, False)
    for name, (bank, bit) in BITS.items():
        lever, slots, go = mcp.split_station_bits(
            1 << bit if bank == "A" else 0, 1 << bit if bank == "B" else 0
        )
        closed = [f"lever gear {i + 1}" for i, c in enumerate(lever) if c]
        closed += [f"slot {i + 1}" for i, c in enumerate(slots) if c] + ["GO"] * go
        assert closed == [name]


# ---- the MCP23017 station backend ---------------------------------------------------------


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


# ---- no lost taps (issue 15, point 4) ----------------------------------------------------------


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
