"""The MCP23017 backend of the station inputs: :class:`Mcp23017StationInputs`, one MCP23017
per station over I2C, usually behind a TCA9548A mux (see :mod:`pitboard.hw.inputs`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from pitboard.hw import mcp23017 as mcp
from pitboard.hw.events import InputFault, InputFaultCleared, PostEvent
from pitboard.hw.inputs_logic import (
    DEFAULT_CONFIRM_S,
    DEFAULT_DEBOUNCE_S,
    Clock,
    StationInputs,
    StationLogic,
)
from pitboard.hw.mcp23017 import SMBusLike

log = logging.getLogger("pitboard")
#: reads in a row that find no change while INT stays active: the line is stuck
INT_STUCK_READS = 2


class Mcp23017StationInputs(StationInputs):
    """A station board with an MCP23017 (wiring: :data:`pitboard.hw.mcp23017.STATION_BITS`).

    Set-up (every value derived from ``STATION_BITS``, see :mod:`pitboard.hw.mcp23017`):
    GPA7/GPB7 outputs driven low (output-only pins: never inputs), the other 14 pins inputs with
    pull-ups, IPOL inverted so a closed contact reads 1, interrupt-on-change on the 12 wired
    pins, IOCON MIRROR + ODR so one open-drain INT line (active low, pulled up by the Pi) serves
    both ports. The output latches are written before IODIR, so GPA7/GPB7 never drive high.

    Reads: when ``int_pin`` goes active, one read of GPIOA..GPIOB (2 bytes: reading GPIO clears
    the interrupt; at 100 kHz ~0.9 ms with the mux select, where the whole register block took
    1.6 ms). The full read of IOCON..GPIOB (10 bytes) runs from ``poll()`` every
    ``safety_poll_s`` (or on every poll when there is no INT line): IOCON and GPPU in it expose
    a chip that has reset (brown-out, hot-plugged cable), which is then configured again. A
    reset chip raises no INT (GPINTEN is cleared), so only the safety read can meet one.

    No lost taps: a pin that changes while GPIO is being read raises the interrupt only for the
    read to clear it (the data sheet clears INT after the data is clocked out), so that change
    raises no INT of its own. Therefore every INT-triggered read is followed by a second read
    ``confirm_s`` later, a change is confirmed only by a second read that agrees
    (:class:`_Debounced`: two agreeing samples, then bounce ignored for the debounce time),
    reads repeat every ``confirm_s`` while any change is unconfirmed or INT stays active, and
    the safety read comes at least every ``safety_poll_s`` (0.1 s: a 150 ms tap always gets
    two). A press thus costs two short reads, and :meth:`set_on_edge` tells the display writer
    to keep its bus free for them and the answer.

    INT faults: a line still active after :data:`INT_STUCK_READS` reads in a row that found no
    change is stuck (a short to GND, a latched chip): :attr:`int_stuck`, logged once, and reads
    fall back to the safety poll's rate until it goes inactive (else ~500 reads/s forever). A
    safety read that finds a change while INT was inactive counts in :attr:`missed_ints` (a
    broken INT wire: presses still arrive, up to ``safety_poll_s`` late); hw-test names both.

    Bus errors never escape: they are counted in :attr:`errors`; the first of an episode posts
    :class:`InputFault`; ``poll()`` retries the configuration every ``retry_s`` and posts
    :class:`InputFaultCleared` when the chip answers again. The constructor does not raise on
    I2C errors either: a missing station board starts in the fault state.

    Example (with the register model as the bus)::

        >>> chip = mcp.Mcp23017Model(address=0x20)
        >>> events = []
        >>> now = [0.0]
        >>> inputs = Mcp23017StationInputs(station=0, bus=chip, post=events.append,
        ...                                clock=lambda: now[0])
        >>> chip.set_input("A", 0, False)             # lever into gear 1
        >>> now[0] = 0.001
        >>> inputs.poll()                              # no INT line: every poll reads
        >>> now[0] = 0.004
        >>> inputs.poll()                              # a 2nd read agrees >= 2 ms on: confirmed
        >>> events
        [LeverMoved(station=0, gear=1)]
    """

    #: register values written by the configuration and checked by the safety poll
    CONFIG: tuple[tuple[int, int], ...] = (
        (mcp.IOCON, mcp.IOCON_MIRROR | mcp.IOCON_ODR),
        (mcp.OLATA, mcp.STATION_OLATA),
        (mcp.OLATB, mcp.STATION_OLATB),
        (mcp.IODIRA, mcp.STATION_IODIRA),
        (mcp.IODIRB, mcp.STATION_IODIRB),
        (mcp.IPOLA, mcp.STATION_IPOLA),
        (mcp.IPOLB, mcp.STATION_IPOLB),
        (mcp.GPPUA, mcp.STATION_GPPUA),
        (mcp.GPPUB, mcp.STATION_GPPUB),
        (mcp.DEFVALA, 0x00),
        (mcp.DEFVALB, 0x00),
        (mcp.INTCONA, 0x00),
        (mcp.INTCONB, 0x00),
        (mcp.GPINTENA, mcp.STATION_GPINTENA),
        (mcp.GPINTENB, mcp.STATION_GPINTENB),
    )

    def __init__(
        self,
        *,
        station: int,
        bus: SMBusLike,
        post: PostEvent,
        address: int = 0x20,
        int_pin: int | None = None,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        confirm_s: float = DEFAULT_CONFIRM_S,
        safety_poll_s: float = 0.1,
        retry_s: float = 1.0,
        bus_label: str = "I2C",
        owns_bus: bool = False,
    ) -> None:
        self.station = station
        self.address = address
        self._bus = bus
        self._post = post
        self._clock = clock
        self._safety_poll_s = safety_poll_s
        self._retry_s = retry_s
        self._where = f"MCP23017 0x{address:02X} on {bus_label}"
        self._owns_bus = owns_bus
        self._lock = threading.RLock()
        self._closed = False
        #: kept off the bus by the mux guard (:meth:`hold_back`)
        self._held = False
        self.int_pin = int_pin
        #: INT stays active after reads that change nothing: reads at the safety-poll rate
        self.int_stuck = False
        #: changes a safety read found with INT inactive (a broken INT wire)
        self.missed_ints = 0
        self._int_idle_reads = 0
        #: I2C errors seen so far (every failed transaction counts)
        self.errors = 0
        #: times the chip was found reset and configured again
        self.reconfigurations = 0
        #: times the chip answered again after a fault
        self.recoveries = 0
        #: True between an InputFault and its InputFaultCleared
        self.faulted = False
        #: what the last failed transaction said (hw-test prints it for a faulted board)
        self.fault_message: str | None = None
        #: the last GPIOA/GPIOB read (1 = closed), for hw-test's live view
        self.raw: tuple[int, int] | None = None
        self._logic = StationLogic(station=station, post=post, debounce_s=debounce_s,
                                   confirm_s=confirm_s, clock=clock)
        #: a read must follow the last one (it was INT-triggered: a change may have hidden in it)
        self._follow_up = False
        #: successful reads of the input ports, and the data bytes they read (hw-test, the
        #: benchmarks)
        self.reads = 0
        self.read_bytes = 0
        self._confirm_s = confirm_s
        self._last_read = clock()
        self._last_attempt = self._last_read
        self._int: Any = None
        with self._lock:
            self._try(self._configure)
        if int_pin is not None:
            from gpiozero import DigitalInputDevice

            try:
                self._int = DigitalInputDevice(int_pin, pull_up=True, pin_factory=pin_factory)
            except BaseException:
                self.close()  # don't leak a bus we own when the pin is taken
                raise
            self._int.when_activated = self._on_int

    # ---- chip access (call with the lock held) -------------------------------------------

    def _configure(self) -> None:
        # In BANK=1 mode register 0x05 is IOCON: clearing it gets back to BANK=0 whatever state
        # the chip was left in; in BANK=0 it is GPINTENB, which is written again below.
        self._bus.write_byte_data(self.address, 0x05, 0x00)
        for reg, value in self.CONFIG:
            self._bus.write_byte_data(self.address, reg, value)
        self._read_state(after_configure=True)

    def _read_state(self, *, after_configure: bool = False, full: bool = True) -> None:
        """Read IOCON..GPIOB in one transaction (``full``: the configuration checked too), or
        GPIOA..GPIOB alone (2 bytes: a press's own reads, see the class docstring), and feed
        the logic."""
        if not full:
            gpio_a, gpio_b = self._bus.read_i2c_block_data(self.address, mcp.GPIOA, 2)
            self.read_bytes += 2
            self._take(gpio_a, gpio_b)
            return
        data = self._bus.read_i2c_block_data(self.address, mcp.IOCON, mcp.GPIOB - mcp.IOCON + 1)
        self.read_bytes += len(data)
        iocon, gppu_a, gppu_b = data[0], data[mcp.GPPUA - mcp.IOCON], data[mcp.GPPUB - mcp.IOCON]
        expected = dict(self.CONFIG)
        wanted = (expected[mcp.IOCON], expected[mcp.GPPUA], expected[mcp.GPPUB])
        if (iocon, gppu_a, gppu_b) != wanted:
            if after_configure:
                raise OSError(
                    f"configuration did not stick (IOCON=0x{iocon:02X}, "
                    f"GPPU=0x{gppu_a:02X}{gppu_b:02X}): is this an MCP23017?"
                )
            # The chip has been reset: its GPIO bits are not inverted any more, so don't use them.
            # (GPA7/GPB7 are inputs again until the configuration below: this one read of a
            # reset chip is the only one the driver makes in that state.)
            self.reconfigurations += 1
            self._configure()
            return
        self._take(data[mcp.GPIOA - mcp.IOCON], data[mcp.GPIOB - mcp.IOCON])

    def _take(self, gpio_a: int, gpio_b: int) -> None:
        lever, slots, go = mcp.split_station_bits(gpio_a, gpio_b)
        self.raw = (gpio_a, gpio_b)
        self.reads += 1
        self._last_read = self._clock()
        self._logic.update_all(lever=lever, slots=slots, go=go, now=self._last_read)

    def _try(self, action: Callable[[], None]) -> bool:
        """Run a bus action; turn OSError into fault bookkeeping. True on success."""
        self._last_attempt = self._clock()
        try:
            action()
        except OSError as exc:
            self.errors += 1
            self.fault_message = f"{self._where}: {exc}"
            if not self.faulted:
                self.faulted = True
                self._post(InputFault(station=self.station, message=self.fault_message))
            return False
        if self.faulted:
            self.faulted = False
            self.recoveries += 1
            self._post(InputFaultCleared(station=self.station))
        return True

    # ---- entry points ---------------------------------------------------------------------

    def raw_state(self) -> tuple[tuple[bool, ...], tuple[bool, ...], bool] | None:
        """The last GPIOA/GPIOB read, split into lever, slots and GO."""
        if self.raw is None:
            return None
        return mcp.split_station_bits(*self.raw)

    @property
    def board_resets(self) -> int:
        """Reconfigurations after a reset plus recoveries from a bus fault."""
        return self.reconfigurations + self.recoveries

    @property
    def busy(self) -> bool:
        """A read is due at the next poll: a follow-up read, or a change to confirm."""
        with self._lock:
            return not self._closed and not self.faulted and (
                self._follow_up or self._logic.pending)

    def set_on_edge(self, callback: Callable[[], None] | None) -> None:
        """Call ``callback`` when a read first sees a contact move (see StationLogic)."""
        self._logic.on_edge = callback

    def hold_back(self, held: bool) -> None:
        """Held: no reads, no retries (this station's channel hangs the bus); released: the
        configuration (if faulted) or the safety read runs at the next poll."""
        with self._lock:
            self._held = held
            if not held:
                self._last_attempt = self._last_read = float("-inf")

    def _on_int(self) -> None:
        with self._lock:
            if not self._closed and not self.faulted and not self._held:
                self._follow_up = self._try(lambda: self._read_state(full=False))

    def poll(self) -> None:
        """Safety read / fault recovery as due, then confirm debounced changes."""
        with self._lock:
            if self._closed or self._held:
                return
            now = self._clock()
            # every read clears the INT of a change made while it ran, which it did not
            # capture: like an INT read, a read started here is followed by one more (2 bytes,
            # confirm_s later); a follow-up read is not followed up itself
            if self.int_stuck and self._int is not None and not self._int.is_active:
                self.int_stuck = False
                log.info("S%d: INT line GPIO %s inactive again: reads on interrupt",
                         self.station + 1, self.int_pin)
            if self.faulted:
                if now - self._last_attempt >= self._retry_s:
                    self._follow_up = self._try(self._configure) and self._int is not None
            elif self._int is None or now - self._last_read >= self._safety_poll_s - 1e-9:
                int_before, before = self._int is not None and self._int.is_active, self.raw
                read = self._try(self._read_state)
                self._follow_up = read and self._int is not None
                if read and self._int is not None and not int_before and not self.int_stuck \
                        and before is not None and self.raw != before:
                    self._missed_int()
            elif ((self._follow_up or self._logic.pending
                   or (not self.int_stuck and bool(self._int.is_active)))
                  and now - self._last_read >= self._confirm_s - 1e-9):
                # a press's follow-up read confirms it: one read per confirm_s, 2 bytes
                follow_up, self._follow_up = self._follow_up, False
                before = self.raw
                read = self._try(lambda: self._read_state(full=False))
                self._follow_up = read and not follow_up
                if read:
                    self._check_int(before)
            if not self.faulted:
                # a failed read is no sample: nothing is confirmed on time alone (the state is
                # read again on recovery, and that read confirms or drops the change)
                self._logic.poll()

    def _check_int(self, before: tuple[int, int] | None) -> None:
        """After a read: INT still active though the read changed nothing, again and again,
        means the line is stuck (see the class docstring)."""
        if self._int is None or self.int_stuck:
            return
        if self._int.is_active and self.raw == before:
            self._int_idle_reads += 1
        else:
            self._int_idle_reads = 0
        if self._int_idle_reads >= INT_STUCK_READS:
            self._int_idle_reads = 0
            self.int_stuck = True
            log.warning("S%d: INT line GPIO %s stays active after reads: reading every %g s "
                        "instead (check the INT wire, RJ45 pin 7, for a short to GND)",
                        self.station + 1, self.int_pin, self._safety_poll_s)

    def _missed_int(self) -> None:
        self.missed_ints += 1
        if self.missed_ints == INT_STUCK_READS:  # one could be a read racing the edge
            log.warning("S%d: input changes arrive without an interrupt: presses are read "
                        "only every %g s (check the INT wire, RJ45 pin 7, to GPIO %s)",
                        self.station + 1, self._safety_poll_s, self.int_pin)

    def check_int(self) -> None:
        """hw-test: with INT active, read until it goes inactive (at most
        :data:`INT_STUCK_READS` times); still active: :attr:`int_stuck`."""
        with self._lock:
            for _ in range(INT_STUCK_READS):
                if (self._closed or self.faulted or self._int is None or self.int_stuck
                        or not self._int.is_active):
                    return
                before = self.raw
                if self._try(lambda: self._read_state(full=False)):
                    self._check_int(before)

    def close(self) -> None:
        """Release the INT pin (and the bus if this object opened it); idempotent."""
        with self._lock:
            self._closed = True
            int_device, self._int = self._int, None
        if int_device is not None:
            int_device.close()
        if self._owns_bus:
            self._owns_bus = False
            close = getattr(self._bus, "close", None)
            if close is not None:
                close()
