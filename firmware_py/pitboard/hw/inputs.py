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

Where they live: the pure logic, :class:`StationInputs` and :class:`NullStationInputs` in
:mod:`pitboard.hw.inputs_logic`, the gpiozero backend in :mod:`pitboard.hw.inputs_gpio`, the
MCP23017 backend in :mod:`pitboard.hw.inputs_mcp`; this module holds the factory and re-exports
their public names. Imports run one way: ``inputs_logic`` <- ``inputs_gpio``, ``inputs_mcp`` <-
``inputs``.

Debounce is our own: gpiozero's mock pins ignore ``bounce_time`` and lgpio's debounce differs by
backend. It is built for speed without letting glitches through (:class:`_Debounced`): a new
raw state is confirmed once two samples agree on it and it has held for ``confirm_s`` (2 ms by
default), so a press counts about 2-3 ms after its first edge instead of after a whole debounce
time (an MCP23017 board: its INT read at the edge and one confirming read); a glitch on a long
cable that is over within ``confirm_s`` never counts. After a change is confirmed, the input
ignores its raw state for ``debounce_s`` (contact bounce), then confirms whatever the contact
settled to. ``poll()`` confirms, so the table loop must call it often, and every millisecond
while :attr:`StationInputs.busy` (a change is waiting to be confirmed).

Threads: on a Pi, gpiozero callbacks run in lgpio's thread while ``poll()`` runs in the table
loop; each backend serialises both with a lock, and ``post`` must only enqueue.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pitboard.hw.events import PostEvent
from pitboard.hw.inputs_gpio import GpioStationInputs
from pitboard.hw.inputs_logic import (
    DEFAULT_CONFIRM_S,
    DEFAULT_DEBOUNCE_S,
    GEARS,
    SLOTS,
    Clock,
    DebouncedButton,
    GearLever,
    NullStationInputs,
    StationInputs,
    StationLogic,
)
from pitboard.hw.inputs_mcp import Mcp23017StationInputs
from pitboard.hw.mcp23017 import SMBusLike

if TYPE_CHECKING:
    from pitboard.hwconfig import HwConfig

__all__ = [
    "DEFAULT_CONFIRM_S",
    "DEFAULT_DEBOUNCE_S",
    "GEARS",
    "SLOTS",
    "Clock",
    "DebouncedButton",
    "GearLever",
    "GpioStationInputs",
    "Mcp23017StationInputs",
    "NullStationInputs",
    "StationInputs",
    "StationLogic",
    "build_station_inputs",
]


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
    bus_number = resolve_i2c_bus(config.i2c, spec.mux_channel, controller=spec.controller)
    bus = (bus_factory or _open_smbus)(bus_number)
    label = f"I2C bus {bus_number}"
    if spec.controller != "A":
        label = f"I2C {spec.controller} bus {bus_number}"
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
