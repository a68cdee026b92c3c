"""Station inputs: gear lever, 7 card-slot buttons and GO, debounced, posted as events.

Layers:

* pure logic, hardware-free: :class:`GearLever`, :class:`DebouncedButton` and
  :class:`StationLogic` take raw samples plus a clock and post
  :mod:`pitboard.hw.events` to a ``post`` callback;
* backends (:class:`StationInputs`): :class:`GpioStationInputs` (gpiozero, one Pi GPIO per
  input), :class:`Mcp23017StationInputs` (one MCP23017 per station over I2C, usually behind a
  TCA9548A mux) and :class:`NullStationInputs` (emulated stations: the desktop simulation posts
  events itself);
* :func:`build_station_inputs` makes the right backend from a hardware profile.

Debounce is our own: gpiozero's mock pins ignore ``bounce_time`` and lgpio's debounce differs by
backend. It is built for speed without letting glitches through (:class:`_Debounced`): a new
raw state is confirmed once two samples agree on it and it has held for ``confirm_s`` (3 ms by
default), so a press counts about 3 ms after its first edge instead of after a whole debounce
time; a glitch on a long cable that is over within ``confirm_s`` never counts. After a change is
confirmed, the input ignores its raw state for ``debounce_s`` (contact bounce), then confirms
whatever the contact settled to. ``poll()`` confirms, so the table loop must call it often, and
every millisecond while :attr:`StationInputs.busy` (a change is waiting to be confirmed).

Threads: on a Pi, gpiozero callbacks run in lgpio's thread while ``poll()`` runs in the table
loop; each backend serialises both with a lock, and ``post`` must only enqueue.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pitboard.hw import mcp23017 as mcp
from pitboard.hw.events import (
    GoPressed,
    InputFault,
    InputFaultCleared,
    LeverFault,
    LeverFaultCleared,
    LeverMoved,
    PostEvent,
    SlotPressed,
)
from pitboard.hw.mcp23017 import SMBusLike

if TYPE_CHECKING:
    from pitboard.hwconfig import HwConfig

Clock = Callable[[], float]
#: after a confirmed change, raw changes are ignored for this long (contact bounce)
DEFAULT_DEBOUNCE_S = 0.02
#: a new raw state must hold this long, seen by two agreeing samples, to be confirmed
DEFAULT_CONFIRM_S = 0.003
GEARS = 4
SLOTS = 7

T = TypeVar("T")


class _Debounced(Generic[T]):
    """A value confirmed fast, then held through contact bounce.

    A new raw value is confirmed once it has held for ``confirm_s``: at a later sample that
    agrees (``update``), or at ``settle`` when the backend knows nothing changed since (edge
    callbacks; the backends also re-sample on every poll before settling, so in practice a
    second agreeing sample confirms). Any different sample starts over, so a glitch shorter
    than ``confirm_s`` is rejected. Once confirmed, raw changes are ignored for ``debounce_s``
    (the contact bouncing); then the settled raw value is confirmed the same way.

    Example (a press at t=0 confirmed at 3 ms; its bounce ignored; the release after it)::

        >>> d = _Debounced(stable=False, debounce_s=0.02, confirm_s=0.003, now=0.0)
        >>> d.update(True, 0.0), d.update(False, 0.001), d.update(True, 0.002)  # a glitch
        (False, False, False)
        >>> d.update(True, 0.004), d.update(True, 0.005)
        (False, True)
        >>> d.update(False, 0.006), d.update(True, 0.007), d.update(False, 0.024)
        (False, False, False)
        >>> d.update(False, 0.026), d.settle(0.027), d.stable
        (False, True, False)
    """

    __slots__ = ("_confirm_s", "_debounce_s", "_quiet_until", "_raw", "_since", "stable")

    def __init__(self, *, stable: T, debounce_s: float, now: float,
                 confirm_s: float = DEFAULT_CONFIRM_S) -> None:
        self.stable = stable
        self._raw = stable
        self._since = now
        self._debounce_s = debounce_s
        self._confirm_s = min(confirm_s, debounce_s)
        self._quiet_until = now

    @property
    def pending(self) -> bool:
        """A raw value differs from the confirmed one (confirmation or a bounce is under way)."""
        return self._raw != self.stable

    def update(self, value: T, now: float) -> bool:
        """Record a raw sample; True when the confirmed value changed."""
        if value != self._raw:
            self._raw = value
            self._since = now
        return self.settle(now)

    def settle(self, now: float) -> bool:
        """True when the raw value has just been confirmed."""
        if self._raw == self.stable or now < self._quiet_until - 1e-9:
            return False
        # 1 ns of slack: float clock arithmetic must not add a poll period
        if now - self._since >= self._confirm_s - 1e-9:
            self.stable = self._raw
            self._quiet_until = now + self._debounce_s
            return True
        return False


class GearLever:
    """Debounced 4-contact, one-hot gear lever.

    One closed contact = that gear (posts :class:`LeverMoved` when the gear changes, and once
    for the first settled position); no contact = between gears, the last gear stands (no
    event); two or more = wiring fault (:class:`LeverFault` once, :class:`LeverFaultCleared`
    when back to at most one contact).

    Example::

        >>> events = []
        >>> now = [0.0]
        >>> lever = GearLever(station=0, post=events.append, clock=lambda: now[0])
        >>> lever.update((False, True, False, False))
        >>> now[0] = 0.003
        >>> lever.update((False, True, False, False))
        >>> events, lever.gear
        ([LeverMoved(station=0, gear=2)], 2)
    """

    def __init__(
        self,
        *,
        station: int,
        post: PostEvent,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        confirm_s: float = DEFAULT_CONFIRM_S,
        clock: Clock = time.monotonic,
    ) -> None:
        self.station = station
        self._post = post
        self._clock = clock
        # None = nothing seen yet, so the first settled pattern always counts
        self._contacts: _Debounced[tuple[bool, ...] | None] = _Debounced(
            stable=None, debounce_s=debounce_s, confirm_s=confirm_s, now=clock()
        )
        #: last settled gear (1..4), None until the lever has first settled in a gear
        self.gear: int | None = None
        #: True between a LeverFault and its LeverFaultCleared
        self.faulted = False

    @property
    def pending(self) -> bool:
        """A contact change is waiting to be confirmed."""
        return self._contacts.pending

    def update(self, contacts: Sequence[bool], *, now: float | None = None) -> None:
        """Feed the raw state of the 4 contacts (True = closed), gear 1 first."""
        if len(contacts) != GEARS:
            raise ValueError(f"a gear lever has {GEARS} contacts, got {len(contacts)}")
        t = self._clock() if now is None else now
        if self._contacts.update(tuple(bool(c) for c in contacts), t):
            self._settled()

    def poll(self, *, now: float | None = None) -> None:
        """Confirm a pattern that has stopped changing for ``debounce_s``."""
        if self._contacts.settle(self._clock() if now is None else now):
            self._settled()

    def _settled(self) -> None:
        contacts = self._contacts.stable
        assert contacts is not None
        closed = tuple(gear for gear, c in enumerate(contacts, start=1) if c)
        if len(closed) >= 2:
            if not self.faulted:
                self.faulted = True
                self._post(LeverFault(station=self.station, contacts=closed))
            return
        if self.faulted:
            self.faulted = False
            self._post(LeverFaultCleared(station=self.station))
        if len(closed) == 1 and closed[0] != self.gear:
            self.gear = closed[0]
            self._post(LeverMoved(station=self.station, gear=self.gear))


class DebouncedButton:
    """A push button that calls ``on_press`` once per debounced press.

    ``pressed`` seeds the state: a button already held when the station starts does not count
    as a press (a stuck GO must not start a race); it counts after a release and a new press.

    Example::

        >>> presses = []
        >>> now = [0.0]
        >>> button = DebouncedButton(on_press=lambda: presses.append(now[0]),
        ...                          clock=lambda: now[0])
        >>> button.update(True); now[0] = 0.001; button.update(False)   # a 1 ms glitch
        >>> now[0] = 0.010; button.update(True)                         # a real press
        >>> now[0] = 0.012; button.update(True)                         # 2nd sample agrees
        >>> now[0] = 0.013; button.poll()                               # held 3 ms: counts
        >>> presses
        [0.013]
    """

    def __init__(
        self,
        *,
        on_press: Callable[[], None],
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        confirm_s: float = DEFAULT_CONFIRM_S,
        clock: Clock = time.monotonic,
        pressed: bool = False,
    ) -> None:
        self._on_press = on_press
        self._clock = clock
        self._state = _Debounced(stable=pressed, debounce_s=debounce_s, confirm_s=confirm_s,
                                 now=clock())

    @property
    def pressed(self) -> bool:
        """The debounced state."""
        return self._state.stable

    @property
    def pending(self) -> bool:
        """A change is waiting to be confirmed."""
        return self._state.pending

    def update(self, pressed: bool, *, now: float | None = None) -> None:
        """Feed a raw sample (True = pressed)."""
        if self._state.update(bool(pressed), self._clock() if now is None else now):
            self._changed()

    def poll(self, *, now: float | None = None) -> None:
        """Confirm a state that has stopped changing for ``debounce_s``."""
        if self._state.settle(self._clock() if now is None else now):
            self._changed()

    def _changed(self) -> None:
        if self._state.stable:
            self._on_press()


class StationLogic:
    """All of one station's debounced inputs: lever, slots 0..6 and GO.

    Backends feed raw samples; this posts :class:`LeverMoved`, :class:`LeverFault`,
    :class:`LeverFaultCleared`, :class:`SlotPressed` and :class:`GoPressed`.

    Example::

        >>> events = []
        >>> now = [0.0]
        >>> logic = StationLogic(station=1, post=events.append, clock=lambda: now[0])
        >>> for t in (0.0, 0.003):
        ...     now[0] = t
        ...     logic.update_all(lever=(True, False, False, False), slots=(False,) * 7, go=True)
        >>> events
        [LeverMoved(station=1, gear=1), GoPressed(station=1)]
    """

    def __init__(
        self,
        *,
        station: int,
        post: PostEvent,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        confirm_s: float = DEFAULT_CONFIRM_S,
        clock: Clock = time.monotonic,
        slots_pressed: Sequence[bool] = (False,) * SLOTS,
        go_pressed: bool = False,
    ) -> None:
        self.station = station
        self._clock = clock
        self.lever = GearLever(station=station, post=post, debounce_s=debounce_s,
                               confirm_s=confirm_s, clock=clock)
        self.slots = tuple(
            DebouncedButton(
                on_press=_poster(post, SlotPressed(station=station, slot=slot)),
                pressed=slots_pressed[slot],
                debounce_s=debounce_s,
                confirm_s=confirm_s,
                clock=clock,
            )
            for slot in range(SLOTS)
        )
        self.go = DebouncedButton(
            on_press=_poster(post, GoPressed(station=station)), pressed=go_pressed,
            debounce_s=debounce_s, confirm_s=confirm_s, clock=clock,
        )

    @property
    def pending(self) -> bool:
        """Some input's raw state differs from its confirmed one: sample again soon."""
        return (self.lever.pending or self.go.pending
                or any(button.pending for button in self.slots))

    def update_lever(self, contacts: Sequence[bool], *, now: float | None = None) -> None:
        """Raw lever contacts, gear 1 first."""
        self.lever.update(contacts, now=now)

    def update_slot(self, slot: int, pressed: bool, *, now: float | None = None) -> None:
        """Raw state of one slot button (0..6)."""
        self.slots[slot].update(pressed, now=now)

    def update_go(self, pressed: bool, *, now: float | None = None) -> None:
        """Raw state of the GO button."""
        self.go.update(pressed, now=now)

    def update_all(
        self,
        *,
        lever: Sequence[bool],
        slots: Sequence[bool],
        go: bool,
        now: float | None = None,
    ) -> None:
        """A complete raw sample of the station (e.g. one MCP23017 read)."""
        t = self._clock() if now is None else now
        self.lever.update(lever, now=t)
        for button, pressed in zip(self.slots, slots, strict=True):
            button.update(pressed, now=t)
        self.go.update(go, now=t)

    def poll(self, *, now: float | None = None) -> None:
        """Confirm every input whose raw state has been stable for the debounce time."""
        t = self._clock() if now is None else now
        self.lever.poll(now=t)
        for button in self.slots:
            button.poll(now=t)
        self.go.poll(now=t)


def _poster(post: PostEvent, event: SlotPressed | GoPressed) -> Callable[[], None]:
    return lambda: post(event)


# ---- backends ------------------------------------------------------------------------------


class StationInputs(ABC):
    """One station's input hardware. Call :meth:`poll` from the table loop (≈100 Hz).

    Example::

        >>> with NullStationInputs(station=0) as inputs:
        ...     inputs.poll()
    """

    station: int

    @property
    def busy(self) -> bool:
        """A change is waiting to be confirmed: call :meth:`poll` again within a millisecond."""
        return False

    def raw_state(self) -> tuple[tuple[bool, ...], tuple[bool, ...], bool] | None:
        """The last raw sample (lever contacts 1-4, slots 0-6, GO; True = closed), for
        ``pitboard hw-test``; None when there is nothing to read."""
        return None

    @property
    def board_resets(self) -> int:
        """How often the station board was found reset or came back after a fault: its
        display, on the same cable, may have lost power too (the app re-initialises it)."""
        return 0

    @abstractmethod
    def poll(self) -> None:
        """Confirm debounced changes and run any periodic hardware checks; never raises on I/O."""

    @abstractmethod
    def close(self) -> None:
        """Release pins and buses; idempotent."""

    def __enter__(self) -> StationInputs:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class NullStationInputs(StationInputs):
    """Inputs of an emulated station: nothing to read (the simulation posts events directly).

    Example::

        >>> NullStationInputs(station=2).station
        2
    """

    def __init__(self, *, station: int) -> None:
        self.station = station

    def poll(self) -> None:
        """Nothing to do."""

    def close(self) -> None:
        """Nothing to release."""


class GpioStationInputs(StationInputs):
    """A station wired straight to Pi GPIOs (contacts and buttons to GND, internal pull-ups).

    Each gpiozero callback only feeds :class:`StationLogic`, which posts the events; ``poll()``
    also re-samples every pin, so a missed edge cannot leave an input stuck.

    Example (with gpiozero's mock pins)::

        >>> from gpiozero.pins.mock import MockFactory
        >>> factory = MockFactory()
        >>> events = []
        >>> now = [0.0]
        >>> inputs = GpioStationInputs(
        ...     station=0, lever_pins=(4, 17, 27, 22), slot_pins=(10, 9, 11, 5, 6, 13, 19),
        ...     go_pin=26, post=events.append, pin_factory=factory, clock=lambda: now[0])
        >>> factory.pin(26).drive_low()
        >>> now[0] = 0.003
        >>> inputs.poll()
        >>> events
        [GoPressed(station=0)]
        >>> inputs.close()
    """

    def __init__(
        self,
        *,
        station: int,
        lever_pins: Sequence[int],
        slot_pins: Sequence[int],
        go_pin: int,
        post: PostEvent,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
    ) -> None:
        from gpiozero import DigitalInputDevice

        if len(lever_pins) != GEARS or len(slot_pins) != SLOTS:
            raise ValueError(f"need {GEARS} lever pins and {SLOTS} slot pins")
        self.station = station
        self._lock = threading.RLock()
        self._closed = False
        self._devices: list[Any] = []
        try:
            for pin in (*lever_pins, *slot_pins, go_pin):
                self._devices.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self._lever = self._devices[:GEARS]
        self._slots = self._devices[GEARS : GEARS + SLOTS]
        self._go = self._devices[-1]
        with self._lock:
            self._logic = StationLogic(
                station=station,
                post=post,
                debounce_s=debounce_s,
                clock=clock,
                slots_pressed=[bool(d.is_active) for d in self._slots],
                go_pressed=bool(self._go.is_active),
            )
            self._logic.update_lever(self._lever_state())
        for device in self._lever:
            device.when_activated = self._on_lever
            device.when_deactivated = self._on_lever
        for slot, device in enumerate(self._slots):
            device.when_activated = _bind(self._on_slot, slot, True)
            device.when_deactivated = _bind(self._on_slot, slot, False)
        self._go.when_activated = _bind(self._on_go, True)
        self._go.when_deactivated = _bind(self._on_go, False)

    def raw_state(self) -> tuple[tuple[bool, ...], tuple[bool, ...], bool] | None:
        """The pins now (True = closed)."""
        with self._lock:
            if self._closed:
                return None
            return (tuple(self._lever_state()), tuple(bool(d.is_active) for d in self._slots),
                    bool(self._go.is_active))

    @property
    def busy(self) -> bool:
        """A pin change is waiting to be confirmed."""
        with self._lock:
            return not self._closed and self._logic.pending

    def _lever_state(self) -> list[bool]:
        return [bool(d.is_active) for d in self._lever]

    def _on_lever(self) -> None:
        with self._lock:
            if not self._closed:
                self._logic.update_lever(self._lever_state())

    def _on_slot(self, slot: int, pressed: bool) -> None:
        with self._lock:
            if not self._closed:
                self._logic.update_slot(slot, pressed)

    def _on_go(self, pressed: bool) -> None:
        with self._lock:
            if not self._closed:
                self._logic.update_go(pressed)

    def poll(self) -> None:
        """Re-sample every pin and confirm debounced changes."""
        with self._lock:
            if self._closed:
                return
            self._logic.update_all(
                lever=self._lever_state(),
                slots=[bool(d.is_active) for d in self._slots],
                go=bool(self._go.is_active),
            )
            self._logic.poll()

    def close(self) -> None:
        """Release every pin (idempotent)."""
        with self._lock:
            self._closed = True
            devices, self._devices = self._devices, []
        for device in devices:
            device.close()


def _bind(fn: Callable[..., None], *args: Any) -> Callable[[], None]:
    # A zero-argument closure: gpiozero then calls it without passing the device.
    return lambda: fn(*args)


class Mcp23017StationInputs(StationInputs):
    """A station board with an MCP23017 (wiring: :data:`pitboard.hw.mcp23017.STATION_BITS`).

    Set-up (every value derived from ``STATION_BITS``, see :mod:`pitboard.hw.mcp23017`):
    GPA7/GPB7 outputs driven low (output-only pins: never inputs), the other 14 pins inputs with
    pull-ups, IPOL inverted so a closed contact reads 1, interrupt-on-change on the 12 wired
    pins, IOCON MIRROR + ODR so one open-drain INT line (active low, pulled up by the Pi) serves
    both ports. The output latches are written before IODIR, so GPA7/GPB7 never drive high.

    Reads: when ``int_pin`` goes active, one read of IOCON..GPIOB (10 bytes; reading GPIO clears
    the interrupt). The same read runs from ``poll()`` every ``safety_poll_s`` (or on every poll
    when there is no INT line, or when INT is stuck active). IOCON and GPPU in that read expose a
    chip that has reset (brown-out, hot-plugged cable): it is then configured again.

    No lost taps: a pin that changes while GPIO is being read raises the interrupt only for the
    read to clear it (the data sheet clears INT after the data is clocked out), so that change
    raises no INT of its own. Therefore every INT-triggered read is followed by a second read on
    the next ``poll()``, a change is confirmed only by a second read that agrees
    (:class:`_Debounced`), reads repeat on every poll while any change is unconfirmed, and the
    safety read comes at least every ``safety_poll_s`` (0.1 s: a 150 ms tap always gets two).

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
        >>> inputs.poll()                              # a 2nd read agrees after 3 ms: confirmed
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
        #: I2C errors seen so far (every failed transaction counts)
        self.errors = 0
        #: times the chip was found reset and configured again
        self.reconfigurations = 0
        #: times the chip answered again after a fault
        self.recoveries = 0
        #: True between an InputFault and its InputFaultCleared
        self.faulted = False
        #: the last GPIOA/GPIOB read (1 = closed), for hw-test's live view
        self.raw: tuple[int, int] | None = None
        self._logic = StationLogic(station=station, post=post, debounce_s=debounce_s,
                                   confirm_s=confirm_s, clock=clock)
        #: a read must follow the last one (it was INT-triggered: a change may have hidden in it)
        self._follow_up = False
        #: successful reads of the input ports (for hw-test and the benchmarks)
        self.reads = 0
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

    def _read_state(self, *, after_configure: bool = False) -> None:
        """Read IOCON..GPIOB in one transaction and feed the logic."""
        data = self._bus.read_i2c_block_data(self.address, mcp.IOCON, mcp.GPIOB - mcp.IOCON + 1)
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
        gpio_a, gpio_b = data[mcp.GPIOA - mcp.IOCON], data[mcp.GPIOB - mcp.IOCON]
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
            if not self.faulted:
                self.faulted = True
                self._post(InputFault(station=self.station, message=f"{self._where}: {exc}"))
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

    def _on_int(self) -> None:
        with self._lock:
            if not self._closed and not self.faulted:
                self._follow_up = self._try(self._read_state)

    def poll(self) -> None:
        """Safety read / fault recovery as due, then confirm debounced changes."""
        with self._lock:
            if self._closed:
                return
            now = self._clock()
            if self.faulted:
                if now - self._last_attempt >= self._retry_s:
                    self._try(self._configure)
            elif (
                self._int is None
                or self._follow_up
                or self._logic.pending
                or bool(self._int.is_active)
                or now - self._last_read >= self._safety_poll_s - 1e-9
            ):
                self._follow_up = False
                self._try(self._read_state)
            self._logic.poll()

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


# ---- factory -------------------------------------------------------------------------------


def _open_smbus(bus_number: int) -> SMBusLike:
    from smbus2 import SMBus

    bus: SMBusLike = SMBus(bus_number)
    return bus


def build_station_inputs(
    config: HwConfig,
    station_index: int,
    post: PostEvent,
    pin_factory: Any = None,
    bus_factory: Callable[[int], SMBusLike] | None = None,
    clock: Clock | None = None,
) -> StationInputs:
    """Make the input backend that ``config.stations[station_index]`` describes.

    ``bus_factory(bus_number)`` returns an smbus2-like object (default: ``smbus2.SMBus``); the
    backend then owns and closes it. Behind a TCA9548A the bus number is the kernel's bus for
    that mux channel (see :func:`pitboard.hwconfig.resolve_i2c_bus`). Opening the bus may raise
    OSError (no such /dev/i2c-N); I2C errors after that become :class:`InputFault` events.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> inputs = build_station_inputs(load_profile("sim"), 0, post=print)
        >>> type(inputs).__name__
        'NullStationInputs'
    """
    from pitboard.hwconfig import EmulatedInput, GpioInput, Mcp23017Input, resolve_i2c_bus

    station = config.stations[station_index]
    tick = time.monotonic if clock is None else clock
    spec = station.input
    if isinstance(spec, EmulatedInput):
        return NullStationInputs(station=station_index)
    if isinstance(spec, GpioInput):
        return GpioStationInputs(
            station=station_index,
            lever_pins=spec.lever,
            slot_pins=spec.slots,
            go_pin=spec.go,
            post=post,
            pin_factory=pin_factory,
            clock=tick,
            debounce_s=spec.debounce_ms / 1000,
        )
    assert isinstance(spec, Mcp23017Input)
    bus_number = resolve_i2c_bus(config.i2c, spec.mux_channel)
    bus = (bus_factory or _open_smbus)(bus_number)
    label = f"I2C bus {bus_number}"
    if spec.mux_channel is not None:
        label += f" (mux channel {spec.mux_channel})"
    return Mcp23017StationInputs(
        station=station_index,
        bus=bus,
        post=post,
        address=spec.address,
        int_pin=spec.int_pin,
        pin_factory=pin_factory,
        clock=tick,
        debounce_s=spec.debounce_ms / 1000,
        bus_label=label,
        owns_bus=True,
    )
