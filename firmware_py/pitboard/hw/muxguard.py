"""The mux guard: pulse the TCA9548As' shared RESET only when an I2C bus really hangs.

A station board (or OLED) holding SDA low keeps its mux channel connected: the pca954x driver's
deselect cannot get through, so every transfer on that controller fails until RESET cuts the
channel off. A device that merely does not answer (an unplugged cable, a race-control OLED not
fitted) NACKs and leaves the bus free: resetting the mux for it would only cut the transfers
in flight on the other controllers (one GPIO drives every mux's RESET).

So the evidence is the bus itself: when a station on a guarded controller starts failing (a
new fault, never the retries of one already failing), the guard reads the controller's mux
directly (``probe``: a forced read of its control register on the parent bus), and again every
:data:`PROBE_SECONDS` while a station there fails. It answers: a NACK, nothing to do. It does
not: the bus hangs, so

1. RESET is pulsed (at most every :data:`MUX_RESET_SECONDS` for new evidence) and every station
   of that controller that is failing is held back (:meth:`StationInputs.hold_back`, the
   display's ``hold_back``): no reads, no retries;
2. they are released one at a time, each for :data:`TRIAL_SECONDS`, then the mux is probed
   again: the bus still answers, the station is fine (or merely missing) and stays released;
   it hangs, that station is the faulty one: RESET again, held back again, tried again after
   :data:`REPROBE_SECONDS` (doubling up to :data:`REPROBE_MAX_SECONDS`).

The healthy station on the same controller thus recovers within a trial or two while the faulty
one stays off the bus. Pure logic on the objects it is given; :class:`pitboard.app.App` wires
it to the RESET pin and the parent buses.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pitboard.hwconfig import HwConfig

log = logging.getLogger("pitboard")

#: the shortest time between two resets on new evidence (s); a trial's reset is not limited
MUX_RESET_SECONDS = 5.0
#: how often the mux of a controller with a failing station is read again (s): one byte
PROBE_SECONDS = 5.0
#: how long a released station has to show whether it hangs the bus (s): longer than a station
#: board's retry (immediate on release) and a display's first retry
TRIAL_SECONDS = 1.0
#: when the faulty station is let back on its bus for one more try (s), doubling ...
REPROBE_SECONDS = 30.0
#: ... up to this
REPROBE_MAX_SECONDS = 300.0


@dataclass
class _Sorting:
    """One controller's stations held back after a reset, released one at a time."""

    queue: list[int]
    trial: int | None = None
    trial_ends: float = 0.0


@dataclass
class MuxGuard:
    """See the module docstring. ``controllers``: station index -> its controller ("A", "B",
    "C"), for the stations on a mux channel whose mux has a RESET line (the race-control
    display counts as the station after the last one); ``pulse()`` pulses RESET;
    ``probe(controller)`` is True when that controller's mux answers.

    Example::

        >>> class Board:
        ...     faulted, held = False, False
        ...     def hold_back(self, held): self.held = held
        >>> boards, answers, pulses = [Board(), Board()], [True], []
        >>> guard = MuxGuard(controllers={0: "A", 1: "A"}, pulse=lambda: pulses.append(1),
        ...                  probe=lambda controller: answers[0], clock=lambda: 0.0)
        >>> boards[0].faulted = True               # S1 unplugged: a NACK, the bus still answers
        >>> guard.poll(boards, [])
        >>> guard.resets
        0
        >>> boards[1].faulted, answers[0] = True, False   # S2 fails and the mux is silent: a hang
        >>> guard.poll(boards, [])
        >>> guard.resets, [b.held for b in boards]        # S1 on trial first, S2 waits its turn
        (1, [False, True])
    """

    controllers: Mapping[int, str]
    pulse: Callable[[], None]
    probe: Callable[[str], bool]
    clock: Callable[[], float]
    #: resets so far
    resets: int = 0
    #: the stations found hanging their bus, held back: station index -> controller
    held: dict[int, str] = field(default_factory=dict)
    _failing: dict[int, bool] = field(default_factory=dict)
    _sorting: dict[str, _Sorting] = field(default_factory=dict)
    _reprobe_at: dict[int, float] = field(default_factory=dict)
    _reprobe_s: dict[int, float] = field(default_factory=dict)
    _last_reset: float = float("-inf")
    #: when each controller's mux was last read (a new failure: read it at once)
    _probed: dict[str, float] = field(default_factory=dict)

    def poll(self, inputs: Sequence[Any], displays: Sequence[Any]) -> None:
        """Look at every guarded station once (the app's game loop calls this)."""
        now = self.clock()
        suspects: set[str] = set()
        for station, controller in self.controllers.items():
            board = inputs[station] if station < len(inputs) else None
            display = displays[station] if station < len(displays) else None
            failing = bool(getattr(board, "faulted", False)) or not getattr(display, "healthy",
                                                                            True)
            if failing and not self._on_hold(station):
                suspects.add(controller)
                if not self._failing.get(station, False):  # a new failure: read the mux now
                    self._probed[controller] = float("-inf")
            self._failing[station] = failing
        # while a station fails, its controller's mux is read every PROBE_SECONDS too: a bus
        # that hung while a reset was too recent, or during another controller's reset, is
        # found all the same (its stations fail on and never fail anew)
        for controller in sorted(suspects - set(self._sorting)):
            if (now - self._probed.get(controller, float("-inf")) >= PROBE_SECONDS
                    and now - self._last_reset >= MUX_RESET_SECONDS):
                self._probed[controller] = now
                if not self.probe(controller):
                    self._reset(now, f"I2C {controller} hangs")
                    self._hold_failing(controller, inputs, displays)
        for controller, sorting in list(self._sorting.items()):
            self._sort(controller, sorting, now, inputs, displays)
        for station, due in list(self._reprobe_at.items()):
            controller = self.held[station]
            if now >= due and controller not in self._sorting:
                del self._reprobe_at[station]
                self._sorting[controller] = _Sorting(queue=[station])
                self._sort(controller, self._sorting[controller], now, inputs, displays)

    def _on_hold(self, station: int) -> bool:
        return station in self.held or any(
            station in s.queue or station == s.trial for s in self._sorting.values())

    def _reset(self, now: float, why: str, then: str = "") -> None:
        self.pulse()
        self.resets += 1
        self._last_reset = now
        log.warning("%s: multiplexer reset (%d so far)%s", why, self.resets, then)

    def _hold_failing(self, controller: str, inputs: Sequence[Any],
                      displays: Sequence[Any]) -> None:
        queue = [s for s, c in self.controllers.items()
                 if c == controller and self._failing.get(s, False) and s not in self.held]
        for station in queue:
            _hold(station, True, inputs, displays)
        self._sorting[controller] = _Sorting(queue=queue)

    def _sort(self, controller: str, sorting: _Sorting, now: float, inputs: Sequence[Any],
              displays: Sequence[Any]) -> None:
        if sorting.trial is not None:
            if now < sorting.trial_ends:
                return
            station, sorting.trial = sorting.trial, None
            if self.probe(controller):  # the bus answers with it back on: it stays
                if self.held.pop(station, None) is not None:
                    log.info("S%d is back on I2C %s", station + 1, controller)
                self._reprobe_s.pop(station, None)
            else:
                _hold(station, True, inputs, displays)
                wait = self._reprobe_s.get(station, REPROBE_SECONDS / 2) * 2
                self._reprobe_s[station] = wait = min(wait, REPROBE_MAX_SECONDS)
                self._reprobe_at[station] = now + wait
                self.held[station] = controller
                self._reset(now, f"I2C {controller} hangs with S{station + 1}'s channel on it "
                                 "(its board or display holds SDA low)",
                            f"; S{station + 1} held back, tried again in {wait:.0f} s")
        if not sorting.queue:
            del self._sorting[controller]
            return
        sorting.trial = sorting.queue.pop(0)
        sorting.trial_ends = now + TRIAL_SECONDS
        _hold(sorting.trial, False, inputs, displays)


def _hold(station: int, held: bool, inputs: Sequence[Any], displays: Sequence[Any]) -> None:
    """Hold back (or release) a station's board and display."""
    for parts in (inputs, displays):
        part = parts[station] if station < len(parts) else None
        hold_back = getattr(part, "hold_back", None)
        if hold_back is not None:
            hold_back(held)


def guarded_stations(config: HwConfig) -> dict[int, str]:
    """Station index -> controller for every station (and the race-control display, after the
    last station) on a channel of a mux with a RESET line.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> guarded_stations(load_profile("grid6"))
        {0: 'A', 1: 'A', 2: 'B', 3: 'B', 4: 'C', 5: 'C', 6: 'A'}
    """
    from pitboard.hwconfig import Mcp23017Input

    parts: list[list[Any]] = [[st.input, st.display] for st in config.stations]
    if config.race_control is not None:
        parts.append([config.race_control])
    out: dict[int, str] = {}
    for index, specs in enumerate(parts):
        for spec in specs:
            on_i2c = isinstance(spec, Mcp23017Input) or getattr(spec, "bus", "") == "i2c"
            if not on_i2c or spec.mux_channel is None:
                continue
            mux = config.i2c.mux_of(spec.controller)
            if mux is not None and mux.reset_pin is not None:
                out[index] = spec.controller
                break
    return out


def mux_probe(config: HwConfig, bus_factory: Callable[[int], Any] | None = None
              ) -> tuple[Callable[[str], bool], list[Any]]:
    """``probe(controller)`` for :class:`MuxGuard`: a forced read of the controller's mux
    control register on its parent bus (force: the kernel's pca954x driver owns the address;
    the read changes nothing), True when it answers. Returns the buses opened, to close; a bus
    that does not open is never called hanging (no reset without evidence)."""
    from pitboard.hwconfig import resolve_i2c_bus

    if bus_factory is None:
        from smbus2 import SMBus

        bus_factory = SMBus
    buses: dict[str, Any] = {}
    for controller in sorted(set(guarded_stations(config).values())):
        try:
            number = resolve_i2c_bus(config.i2c, None, controller=controller)
            buses[controller] = bus_factory(number)
        except (OSError, LookupError) as exc:
            log.warning("I2C %s: cannot open its bus to check the mux (%s): no mux reset "
                        "there", controller, exc)

    def probe(controller: str) -> bool:
        bus = buses.get(controller)
        mux = config.i2c.mux_of(controller)
        if bus is None or mux is None:
            return True
        try:
            bus.read_byte(mux.address, force=True)
        except OSError:
            return False
        return True

    return probe, list(buses.values())
