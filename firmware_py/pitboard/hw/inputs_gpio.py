"""The gpiozero backend of the station inputs: :class:`GpioStationInputs`, one Pi GPIO per
input (see :mod:`pitboard.hw.inputs`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from pitboard.hw.events import PostEvent
from pitboard.hw.inputs_logic import (
    DEFAULT_DEBOUNCE_S,
    GEARS,
    SLOTS,
    Clock,
    StationInputs,
    StationLogic,
)


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

    def set_on_edge(self, callback: Callable[[], None] | None) -> None:
        """Call ``callback`` when a contact first moves (see StationLogic.on_edge)."""
        self._logic.on_edge = callback

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
