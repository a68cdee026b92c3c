"""MCP23017 16-bit I/O expander: register map, station wiring and an in-memory chip model.

The station board wiring (the same on every station board; the wiring docs are generated from
:data:`STATION_BITS`)::

    GPA0..GPA3  gear lever contacts, gears 1..4 (closed = pulled to GND)
    GPA4..GPA6  card-tray slot buttons 1..3 (tray slots count from 1, left to right)
    GPA7        not connected: an output driven low (output-only pin, see below)
    GPB0..GPB2  card-tray slot buttons 5..7
    GPB3        GO button
    GPB4        card-tray slot button 4
    GPB5..GPB6  unused (inputs with pull-ups so they do not float)
    GPB7        not connected: an output driven low (output-only pin, see below)
    INTA        open-drain, mirrored (INTA = INTB), to a Pi GPIO with pull-up

GPA7 and GPB7 are output-only: Microchip's data sheet (DS20001952 revision D, 2022, and the
matching "GPA7/GPB7 cannot be used as inputs" notice) says that used as inputs, a level change
during an I2C read can corrupt SDA. They are therefore never inputs here (:data:`OUTPUT_ONLY_BIT`)
and are driven low, which is harmless even on a board still wired the old way with slot 4 on GPA7
(its button then shorts a low output to GND). Every register value the station driver writes is
derived from :data:`STATION_BITS` (``STATION_IODIRA`` and friends below).

Registers use the IOCON.BANK=0 addresses (the power-on layout). :class:`Mcp23017Model` stands in
for both the chip and the smbus2 bus object in tests and simulations.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import Final, Literal, Protocol

# Register addresses with IOCON.BANK = 0 (A/B pairs interleaved).
IODIRA: Final = 0x00
IODIRB: Final = 0x01
IPOLA: Final = 0x02
IPOLB: Final = 0x03
GPINTENA: Final = 0x04
GPINTENB: Final = 0x05
DEFVALA: Final = 0x06
DEFVALB: Final = 0x07
INTCONA: Final = 0x08
INTCONB: Final = 0x09
IOCON: Final = 0x0A
IOCON_ALT: Final = 0x0B  # the same register, reachable at both addresses
GPPUA: Final = 0x0C
GPPUB: Final = 0x0D
INTFA: Final = 0x0E
INTFB: Final = 0x0F
INTCAPA: Final = 0x10
INTCAPB: Final = 0x11
GPIOA: Final = 0x12
GPIOB: Final = 0x13
OLATA: Final = 0x14
OLATB: Final = 0x15
REGISTER_COUNT: Final = 0x16

# IOCON bits
IOCON_BANK: Final = 0x80
IOCON_MIRROR: Final = 0x40
IOCON_SEQOP: Final = 0x20
IOCON_DISSLW: Final = 0x10
IOCON_HAEN: Final = 0x08
IOCON_ODR: Final = 0x04
IOCON_INTPOL: Final = 0x02

#: 7-bit addresses selectable with A2..A0
ADDRESS_MIN: Final = 0x20
ADDRESS_MAX: Final = 0x27

Bank = Literal["A", "B"]

#: GPA7 and GPB7: output-only since data sheet revision D (as inputs they can corrupt SDA)
OUTPUT_ONLY_BIT: Final = 7

#: Station board wiring: (bank, bit) -> function, as people read it: gears 1..4, tray slots
#: 1..7 (the code's slot index is one less). Slot 4 is on GPB4 (it was on GPA7 before GPA7/GPB7
#: became output-only).
STATION_BITS: Final[tuple[tuple[Bank, int, str], ...]] = (
    ("A", 0, "lever gear 1"),
    ("A", 1, "lever gear 2"),
    ("A", 2, "lever gear 3"),
    ("A", 3, "lever gear 4"),
    ("A", 4, "slot 1"),
    ("A", 5, "slot 2"),
    ("A", 6, "slot 3"),
    ("B", 4, "slot 4"),
    ("B", 0, "slot 5"),
    ("B", 1, "slot 6"),
    ("B", 2, "slot 7"),
    ("B", 3, "GO"),
)


def _wired_mask(bank: Bank) -> int:
    mask = 0
    for b, bit, _ in STATION_BITS:
        if b == bank:
            mask |= 1 << bit
    return mask


#: pins that are outputs on a station board (GPA7/GPB7), driven low through OLAT = 0
STATION_OUTPUTS: Final = 1 << OUTPUT_ONLY_BIT
#: the wired inputs of each port (12 in all): interrupt-on-change enables
STATION_GPINTENA: Final = _wired_mask("A")
STATION_GPINTENB: Final = _wired_mask("B")
#: every other pin is an input (wired or not), with its pull-up on so an open pin reads high;
#: IPOL inverts the inputs so a closed contact reads 1
STATION_IODIRA: Final = 0xFF & ~STATION_OUTPUTS
STATION_IODIRB: Final = 0xFF & ~STATION_OUTPUTS
STATION_GPPUA: Final = STATION_IODIRA
STATION_GPPUB: Final = STATION_IODIRB
STATION_IPOLA: Final = STATION_IODIRA
STATION_IPOLB: Final = STATION_IODIRB
#: output latches: GPA7/GPB7 driven low
STATION_OLATA: Final = 0x00
STATION_OLATB: Final = 0x00

_LEVER_BITS: Final = tuple(
    next((b, bit) for b, bit, f in STATION_BITS if f == f"lever gear {g}") for g in range(1, 5)
)
_SLOT_BITS: Final = tuple(
    next((b, bit) for b, bit, f in STATION_BITS if f == f"slot {s}") for s in range(1, 8)
)
_GO_BIT: Final = next((b, bit) for b, bit, f in STATION_BITS if f == "GO")


def split_station_bits(gpio_a: int, gpio_b: int) -> tuple[tuple[bool, ...], tuple[bool, ...], bool]:
    """Turn GPIOA/GPIOB (1 = closed/pressed) into (lever contacts 1..4, slots 1..7, GO).

    The bit positions come from :data:`STATION_BITS`. Example (gear 3, slots 1 and 4, GO)::

        >>> split_station_bits(0b0001_0100, 0b0001_1000)
        ((False, False, True, False), (True, False, False, True, False, False, False), True)
    """
    ports = {"A": gpio_a, "B": gpio_b}

    def closed(where: tuple[Bank, int]) -> bool:
        return bool(ports[where[0]] >> where[1] & 1)

    return tuple(map(closed, _LEVER_BITS)), tuple(map(closed, _SLOT_BITS)), closed(_GO_BIT)


class SMBusLike(Protocol):
    """The part of :class:`smbus2.SMBus` the MCP23017 driver uses.

    Example::

        >>> bus: SMBusLike = Mcp23017Model(address=0x20)
        >>> bus.read_byte_data(0x20, IODIRA)
        255
    """

    def read_byte_data(self, i2c_addr: int, register: int, /) -> int: ...

    def write_byte_data(self, i2c_addr: int, register: int, value: int, /) -> None: ...

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int, /) -> list[int]: ...


def _port(bank: Bank) -> int:
    if bank == "A":
        return 0
    if bank == "B":
        return 1
    raise ValueError(f"bank must be 'A' or 'B', not {bank!r}")


class Mcp23017Model:
    """In-memory MCP23017 that also acts as the smbus2 bus object (for tests and simulation).

    What it models: the IOCON.BANK=0 register file with power-on values, IODIR/IPOL/GPPU on
    reads, interrupt-on-change (INTCON=0) and compare-with-DEFVAL (INTCON=1), INTF/INTCAP
    capture of the first event only, clearing by a read of GPIO or INTCAP of that port, INTA/INTB
    outputs with MIRROR, ODR (open-drain, active low) and INTPOL, sequential (SEQOP=0) and byte
    mode (SEQOP=1, toggles within an A/B pair) block reads. Outputs read back OLAT.

    Pin levels are electrical: ``set_input(bank, bit, False)`` pulls a pin to GND (a pressed
    button), ``None`` releases it (open contact): it then reads high if GPPU enables the pull-up,
    else low, so a driver that forgets the pull-ups sees every open contact as "pressed".

    Reads take time: the GPIO/INTCAP data is sampled first and the interrupt is cleared after
    the data has been clocked out (data sheet DS20001952, 3.6.5: "the interrupt condition is
    cleared after the LSb of the data is clocked out during a read command of GPIO or
    INTCAP"). ``during_read``, when set, is called in between, once per read transaction: a
    pin changed there raises INTF only for the end of the read to clear it, so that change
    raises no interrupt of its own, as on the chip. This is how a short tap gets lost by a
    driver that trusts INT alone.

    Bus errors: any address other than the model's, or ``fail = True``, raises
    ``OSError(EREMOTEIO)`` like a NACK on Linux. :meth:`power_cycle` simulates a brown-out.

    Output-only pins: GPA7/GPB7 still work as inputs in the model (as they appear to on real
    chips), but every read transaction made while either of them is an input is counted in
    :attr:`output_only_input_reads`: on a real chip a change on such a pin during a read can
    corrupt SDA, so a correct driver keeps the count at zero once it has configured the chip.

    Example::

        >>> chip = Mcp23017Model(address=0x20)
        >>> chip.write_byte_data(0x20, GPPUA, 0xFF)
        >>> chip.write_byte_data(0x20, IPOLA, 0xFF)
        >>> chip.set_input("A", 2, False)          # lever in gear 3
        >>> chip.read_byte_data(0x20, GPIOA)
        4
    """

    def __init__(self, *, address: int = 0x20, fail: bool = False) -> None:
        self.address = address
        #: when true, every transaction raises OSError (cable unplugged)
        self.fail = fail
        self.reads = 0
        self.writes = 0
        #: read transactions made while GPA7 or GPB7 (output-only pins) was an input
        self.output_only_input_reads = 0
        #: called inside every read transaction, after the data is sampled and before the
        #: interrupt is cleared (see the class docstring)
        self.during_read: Callable[[], None] | None = None
        self._regs = bytearray(REGISTER_COUNT)
        self._driven: list[list[bool | None]] = [[None] * 8, [None] * 8]
        self._last_level = [0, 0]  # pin levels at the last evaluation (interrupt-on-change)
        self._int_listeners: list[tuple[Bank, Callable[[bool], None]]] = []
        self._int_seen: dict[Bank, bool] = {}
        self.power_cycle()

    # ---- simulation side -------------------------------------------------------------------

    def power_cycle(self) -> None:
        """Reset every register to its power-on value (IODIR = 0xFF, all others 0)."""
        self._regs[:] = bytes(REGISTER_COUNT)
        self._regs[IODIRA] = self._regs[IODIRB] = 0xFF
        self._last_level = [self._pin_levels(0), self._pin_levels(1)]
        self._refresh_int()

    def set_input(self, bank: Bank, bit: int, level: bool | None) -> None:
        """Drive pin ``GP<bank><bit>``: True = high, False = low (to GND), None = released."""
        if not 0 <= bit <= 7:
            raise ValueError(f"bit must be 0..7, not {bit}")
        self._driven[_port(bank)][bit] = level
        self._evaluate(_port(bank))
        self._refresh_int()

    def glitch(self, bank: Bank, bit: int) -> None:
        """A pulse on ``GP<bank><bit>`` too short for any read to see (EMI on a long cable,
        contact chatter): interrupt-on-change captures it and INT is asserted, but by the time
        GPIO is read the pin is back at its old level."""
        port = _port(bank)
        before = self._driven[port][bit]
        level = bool(self._pin_levels(port) >> bit & 1)
        self._driven[port][bit] = not level
        self._evaluate(port)
        self._driven[port][bit] = before
        self._evaluate(port)
        self._refresh_int()

    def register(self, reg: int) -> int:
        """Peek at a register without side effects (no interrupt clearing)."""
        if reg in (GPIOA, GPIOB):
            return self._gpio_value(reg - GPIOA)
        return self._regs[reg]

    def int_level(self, pin: Bank = "A") -> bool:
        """Electrical level of INTA/INTB (True = high; an open-drain output released = high)."""
        port = _port(pin)
        iocon = self._regs[IOCON]
        if iocon & IOCON_MIRROR:
            active = bool(self._regs[INTFA] or self._regs[INTFB])
        else:
            active = bool(self._regs[INTFA + port])
        if iocon & IOCON_ODR:
            return not active  # open drain: pulls low when active, else the pull-up wins
        active_high = bool(iocon & IOCON_INTPOL)
        return active if active_high else not active

    def connect_int(self, callback: Callable[[bool], None], pin: Bank = "A") -> None:
        """Call ``callback(level)`` whenever INTA/INTB changes level (e.g. drive a mock pin)."""
        self._int_listeners.append((pin, callback))
        self._int_seen[pin] = self.int_level(pin)

    # ---- smbus2 side -----------------------------------------------------------------------

    def read_byte_data(self, i2c_addr: int, register: int, /) -> int:
        """smbus2-compatible single register read."""
        return self.read_i2c_block_data(i2c_addr, register, 1)[0]

    def write_byte_data(self, i2c_addr: int, register: int, value: int, /) -> None:
        """smbus2-compatible single register write."""
        self._check(i2c_addr)
        self.writes += 1
        self._write(register, value & 0xFF)
        self._refresh_int()

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int, /) -> list[int]:
        """smbus2-compatible block read (at most 32 bytes, like SMBus)."""
        self._check(i2c_addr)
        if not 1 <= length <= 32:
            raise ValueError("SMBus block reads are 1..32 bytes")
        self.reads += 1
        if (self._regs[IODIRA] | self._regs[IODIRB]) >> OUTPUT_ONLY_BIT & 1:
            self.output_only_input_reads += 1
        data: list[int] = []
        cleared: set[int] = set()
        reg = register
        for _ in range(length):
            data.append(self._read(reg))
            if reg in (GPIOA, GPIOB, INTCAPA, INTCAPB):
                cleared.add(reg & 1)
            if self._regs[IOCON] & IOCON_SEQOP:
                reg ^= 1  # byte mode with BANK=0: the pointer toggles within the A/B pair
            else:
                reg = (reg + 1) % REGISTER_COUNT
        if self.during_read is not None:
            self.during_read()
        for port in sorted(cleared):
            self._clear_interrupt(port)
        self._refresh_int()
        return data

    def close(self) -> None:
        """smbus2-compatible no-op."""

    # ---- internals -------------------------------------------------------------------------

    def _check(self, i2c_addr: int) -> None:
        if self.fail or i2c_addr != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def _pin_levels(self, port: int) -> int:
        pull_ups = self._regs[GPPUA + port]
        value = 0
        for bit, driven in enumerate(self._driven[port]):
            level = bool(pull_ups >> bit & 1) if driven is None else driven
            value |= int(level) << bit
        return value

    def _gpio_value(self, port: int) -> int:
        inputs = self._regs[IODIRA + port]
        levels = self._pin_levels(port) ^ self._regs[IPOLA + port]
        return (levels & inputs) | (self._regs[OLATA + port] & ~inputs & 0xFF)

    def _evaluate(self, port: int) -> None:
        """Raise INTF/INTCAP for pins that meet their interrupt condition."""
        levels = self._pin_levels(port)
        changed = levels ^ self._last_level[port]
        self._last_level[port] = levels
        enabled = self._regs[GPINTENA + port] & self._regs[IODIRA + port]
        compare = self._regs[INTCONA + port]
        mismatch = levels ^ self._regs[DEFVALA + port]
        cause = enabled & ((changed & ~compare) | (mismatch & compare))
        # Only the first event is captured; later ones wait until INTCAP/GPIO is read.
        if cause and not self._regs[INTFA + port]:
            self._regs[INTFA + port] = cause
            self._regs[INTCAPA + port] = self._gpio_value(port)

    def _read(self, reg: int) -> int:
        if reg in (GPIOA, GPIOB):
            return self._gpio_value(reg & 1)
        return self._regs[reg]

    def _clear_interrupt(self, port: int) -> None:
        """End of a GPIO/INTCAP read: clear the interrupt (changes since included)."""
        self._regs[INTFA + port] = 0
        self._last_level[port] = self._pin_levels(port)
        # a DEFVAL-compare condition that still holds re-asserts at once
        compare = self._regs[GPINTENA + port] & self._regs[INTCONA + port]
        if compare & (self._last_level[port] ^ self._regs[DEFVALA + port]):
            self._regs[INTFA + port] = compare & (
                self._last_level[port] ^ self._regs[DEFVALA + port]
            )
            self._regs[INTCAPA + port] = self._gpio_value(port)

    def _write(self, reg: int, value: int) -> None:
        if not 0 <= reg < REGISTER_COUNT:
            return  # unimplemented addresses ignore writes
        if reg in (IOCON, IOCON_ALT):
            if value & IOCON_BANK:
                raise NotImplementedError("Mcp23017Model supports IOCON.BANK = 0 only")
            self._regs[IOCON] = self._regs[IOCON_ALT] = value & 0xFE
            return
        if reg in (INTFA, INTFB, INTCAPA, INTCAPB):
            return  # read-only
        if reg in (GPIOA, GPIOB):
            reg += OLATA - GPIOA  # writing GPIO writes the output latch
        self._regs[reg] = value
        if reg in (GPPUA, GPPUB, IODIRA, IODIRB, GPINTENA, GPINTENB, DEFVALA, DEFVALB):
            self._evaluate(reg & 1)

    def _refresh_int(self) -> None:
        # Re-read the level before each call: a listener may read the chip (clearing it).
        for pin, callback in list(self._int_listeners):
            level = self.int_level(pin)
            if self._int_seen.get(pin) != level:
                self._int_seen[pin] = level
                callback(level)
