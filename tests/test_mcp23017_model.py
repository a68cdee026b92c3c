"""The MCP23017 register model: power-on values, pull-ups, interrupts, the station bit map."""

from __future__ import annotations

import errno

import pytest

from mcpkit import BITS
from pitboard.hw import mcp23017 as mcp


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
