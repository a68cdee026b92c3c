"""The hardware-free part of the station inputs (see :mod:`pitboard.hw.inputs`).

* the debounce (:class:`_Debounced`) and the pure logic built on it: :class:`GearLever`,
  :class:`DebouncedButton` and :class:`StationLogic` take raw samples plus a clock and post
  :mod:`pitboard.hw.events` to a ``post`` callback;
* the backend interface :class:`StationInputs` and :class:`NullStationInputs` (emulated
  stations: the desktop simulation posts events itself).

The gpiozero and MCP23017 backends are in :mod:`pitboard.hw.inputs_gpio` and
:mod:`pitboard.hw.inputs_mcp`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Generic, TypeVar

from pitboard.hw.events import (
    GoPressed,
    LeverFault,
    LeverFaultCleared,
    LeverMoved,
    PostEvent,
    SlotPressed,
)

Clock = Callable[[], float]
#: after a confirmed change, raw changes are ignored for this long (contact bounce)
DEFAULT_DEBOUNCE_S = 0.02
#: a new raw state must hold this long, seen by two agreeing samples, to be confirmed: long
#: enough to reject a spike picked up on a long station cable (microseconds), short enough to
#: leave a press most of its 20 ms to the glass (issue 15.13)
DEFAULT_CONFIRM_S = 0.002
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
        """Confirm a pattern that has held for ``confirm_s`` (the loop polls every 1 ms)."""
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
        >>> now[0] = 0.011; button.update(True)                         # 2nd sample agrees
        >>> now[0] = 0.012; button.poll()                               # held 2 ms: counts
        >>> presses
        [0.012]
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

    @property
    def pressing(self) -> bool:
        """A press (not a release) is waiting to be confirmed."""
        return self._state.pending and not self._state.stable

    def update(self, pressed: bool, *, now: float | None = None) -> None:
        """Feed a raw sample (True = pressed)."""
        if self._state.update(bool(pressed), self._clock() if now is None else now):
            self._changed()

    def poll(self, *, now: float | None = None) -> None:
        """Confirm a state that has held for ``confirm_s``."""
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
        #: called (on the sampling thread) when a press or a lever move starts waiting for
        #: confirmation (not a release: nothing answers it; a bounce just after a release
        #: counts too, and its hold lapses unanswered after writer.HOLD_S): the app holds the
        #: station's display bus for it (``BusWriter.hold``)
        self.on_edge: Callable[[], None] | None = None

    @property
    def pending(self) -> bool:
        """Some input's raw state differs from its confirmed one: sample again soon."""
        return (self.lever.pending or self.go.pending
                or any(button.pending for button in self.slots))

    def update_lever(self, contacts: Sequence[bool], *, now: float | None = None) -> None:
        """Raw lever contacts, gear 1 first."""
        was = self._waiting()
        self.lever.update(contacts, now=now)
        self._edge(was)

    def update_slot(self, slot: int, pressed: bool, *, now: float | None = None) -> None:
        """Raw state of one slot button (0..6)."""
        was = self._waiting()
        self.slots[slot].update(pressed, now=now)
        self._edge(was)

    def update_go(self, pressed: bool, *, now: float | None = None) -> None:
        """Raw state of the GO button."""
        was = self._waiting()
        self.go.update(pressed, now=now)
        self._edge(was)

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
        was = self._waiting()
        self.lever.update(lever, now=t)
        for button, pressed in zip(self.slots, slots, strict=True):
            button.update(pressed, now=t)
        self.go.update(go, now=t)
        self._edge(was)

    def _waiting(self) -> int:
        """How many presses and lever moves wait for confirmation."""
        return (self.lever.pending + self.go.pressing
                + sum(button.pressing for button in self.slots))

    def _edge(self, waiting: int) -> None:
        if self.on_edge is not None and self._waiting() > waiting:
            self.on_edge()

    def poll(self, *, now: float | None = None) -> None:
        """Confirm every input whose raw state has been stable for the debounce time."""
        t = self._clock() if now is None else now
        self.lever.poll(now=t)
        for button in self.slots:
            button.poll(now=t)
        self.go.poll(now=t)


def _poster(post: PostEvent, event: SlotPressed | GoPressed) -> Callable[[], None]:
    return lambda: post(event)


# ---- the backend interface ---------------------------------------------------------------


class StationInputs(ABC):
    """One station's input hardware. Call :meth:`poll` from the table loop (≈100 Hz).

    Example::

        >>> with NullStationInputs(station=0) as inputs:
        ...     inputs.poll()
    """

    station: int
    #: the board does not answer (between an InputFault and its InputFaultCleared)
    faulted: bool = False

    @property
    def busy(self) -> bool:
        """A change is waiting to be confirmed: call :meth:`poll` again within a millisecond."""
        return False

    def hold_back(self, held: bool) -> None:  # noqa: B027
        """Held: leave the bus alone (the app's mux guard found this station's channel hanging
        its I2C bus, :mod:`pitboard.hw.muxguard`); released: try the board at the next poll.
        Nothing on a bus: nothing to hold."""

    def raw_state(self) -> tuple[tuple[bool, ...], tuple[bool, ...], bool] | None:
        """The last raw sample (lever contacts 1-4, slots 0-6, GO; True = closed), for
        ``pitboard hw-test``; None when there is nothing to read."""
        return None

    @property
    def board_resets(self) -> int:
        """How often the station board was found reset or came back after a fault: its
        display, on the same cable, may have lost power too (the app re-initialises it)."""
        return 0

    def set_on_edge(self, callback: Callable[[], None] | None) -> None:  # noqa: B027
        """Call ``callback`` when a contact first moves (before it is confirmed): the app
        keeps the station's display bus free for the press. Nothing to read: no edges."""

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

