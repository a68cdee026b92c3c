"""Button to glass on grid6: from a contact's first edge to the last byte of the acting
station's frame on the I2C bus.

Run: ``python benchmarks/press_to_glass.py``. Prints figures only (target: p99 <= 20 ms at the
profile's bus speed).

Six people play whole races on the grid6 table through the station boards' pins (the test
rig: MCP23017 register models with INT on gpiozero mock pins, every OLED a decoding panel).
The game loop runs as :class:`pitboard.app.App` runs it: it polls every ``POLL_SECONDS``
(2 ms), and every 1 ms while an input waits for its confirming read. For every press or lever
move that the table acts on, the latency is the sum of:

* **confirm**: simulated time from the first edge to the event being posted (the INT read,
  the follow-up read, 3 ms of stability, the loop's poll cadence);
* **reads**: bus time of the MCP23017 reads in that window (10-byte block reads + mux writes);
* **cpu**: measured CPU time of ``Table.handle`` until the acting station's frame is handed to
  its display writer (state, engine, that station's view and render; the table draws it first
  and its writer thread sends it while the other stations are drawn), on this machine (a Pi 4
  is several times slower: the column "cpu x4" shows that);
* **wait**: time the acting station's frame waits for its I2C controller: every frame of every
  station is put on a timeline per controller, as the display writers send them
  (:mod:`pitboard.hw.writer`): the acting station's frame goes right after the frame already on
  the wire, ahead of frames still queued; a frame not sent yet is replaced by a newer one for
  the same display; controllers run in parallel;
* **bus**: bus time of the acting station's display bytes, with the kernel's TCA9548A channel
  selects (and deselects: the profile's ``idle_disconnect``), at the bus speed.

The table is printed for the shipped grid6 wiring (three controllers, two stations each) and
for the same stations on one bus (grid6 before), at 100 kHz (the safe speed for long cables)
and 400 kHz (grid6's setting). Not modelled: the other boards' MCP23017 polls on a shared
controller (13-17 bytes every 100 ms each), kernel latency between transfers.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pitboard.hw.display import ACK_PAGES, StationDisplay
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.hw.oled import BusCost, BusWrite, i2c_cost, through_mux
from rig import Grid6, Players

warnings.filterwarnings("ignore", message="Image.Image.getdata is deprecated")

RACES = 3
from pitboard.app import FAST_POLL_SECONDS as FAST_S  # noqa: E402
from pitboard.app import POLL_SECONDS as POLL_S  # noqa: E402

TARGET_MS = 20.0
#: one MCP23017 state read: START, address+W, register, RESTART, address+R, 10 data bytes, STOP
MCP_READ = BusCost(transactions=1, payload_bytes=11, bus_bytes=13)


@dataclass
class Sample:
    kind: str
    confirm_s: float
    reads: int
    cpu_s: float
    writes: list[BusWrite]
    selects: int


@dataclass
class Handled:
    """One event the table handled: when, its CPU time, who acted, every panel's new bytes."""

    at: float
    cpu_s: float
    acting: int | None
    frames: list[BusCost | None]
    #: CPU time until the acting station's frame was handed to its display (its first byte)
    acting_cpu_s: float = 0.0
    #: the acting station's frame up to the end of its top band (all of it: not split)
    ack: BusCost | None = None
    #: the Sample it is (a timed input), or None
    sample: Sample | None = None


class Controller:
    """One I2C controller's wire over time, as its display writer uses it."""

    def __init__(self) -> None:
        self.free_at = float("-inf")  # the frame on the wire ends then
        self.queue: list[tuple[int, float]] = []  # (station, seconds) waiting, in order

    def _advance(self, t: float) -> None:
        while self.queue and self.free_at <= t:
            self.free_at += self.queue.pop(0)[1]

    def post(self, t: float, station: int, seconds: float, *, first: bool) -> float:
        """Post a frame at ``t``; returns when its last byte is on the wire."""
        self._advance(t)
        old = [i for i, (s, _) in enumerate(self.queue) if s == station]
        if self.free_at <= t and not self.queue:
            self.free_at = t + seconds
            return self.free_at
        if first:
            self.queue = [q for q in self.queue if q[0] != station]
            self.queue.insert(0, (station, seconds))
        elif old:
            self.queue[old[0]] = (station, seconds)  # replaced, keeps its place
        else:
            self.queue.append((station, seconds))
        end = self.free_at
        for s, d in self.queue:
            end += d
            if s == station:
                return end
        raise AssertionError("posted frame not queued")


class Acting:
    """A display as its writer thread drives it: ``show_first`` (the acting station) sends a
    whole new screen top band first."""

    def __init__(self, display: StationDisplay) -> None:
        self.display = display
        self.size = display.size
        #: the last show_first went out top band first
        self.split = False

    def show(self, image: Any) -> None:
        self.display.show(image)

    def show_first(self, image: Any) -> None:
        self.split = self.display.show_acknowledged(image)


def acknowledgement(writes: list[BusWrite]) -> list[BusWrite]:
    """The writes of a frame sent top band first, up to the end of the band: the first window
    below the band starts the rest."""
    for i, w in enumerate(writes):
        if w.kind == "command" and w.payload[:1] == b"\x21" and w.payload[4] >= ACK_PAGES:
            return writes[:i]
    return writes


class TimedGrid6(Grid6):
    """The rig with the app's loop cadence, timing every acted-on input from its first edge."""

    def __init__(self, **kw: Any) -> None:
        self.samples: list[Sample] = []
        self.events: list[Handled] = []
        self._edge: dict[int, float] = {}
        self._reads0: dict[int, int] = {}
        self.timing = False
        self._fresh = False
        self._phase = random.Random(kw.get("seed", 0))
        #: station -> perf_counter of its display's first write during the current event
        self._posted: dict[int, float] = {}
        super().__init__(**kw)
        for i, panel in enumerate(self.panels):
            panel.command = self._spy(i, panel.command)  # type: ignore[method-assign]
        # the table posts the acting station's frame with show_first; its writer thread sends
        # a whole new screen top band first (StationDisplay.show_acknowledged)
        self.table.screens = [Acting(d) for d in self.displays]

    def _spy(self, station: int, command: Any) -> Any:
        def first_write(*cmd: int) -> None:
            self._posted.setdefault(station, time.perf_counter())
            command(*cmd)
        return first_write

    def _mark(self, station: int) -> None:
        self._fresh = True
        if self.timing:
            self._edge[station] = self.clock.now
            self._reads0[station] = self.chips[station].reads

    def pin(self, station: int, name: str, closed: bool) -> None:
        if closed and not name.startswith("lever"):
            self._mark(station)  # a button's first edge
        super().pin(station, name, closed)

    def contacts(self, station: int, *gears: int) -> None:
        self._mark(station)  # the lever leaves its gear (or reaches the new one) now
        super().contacts(station, *gears)

    def settle(self) -> None:
        """62 ms of the app's loop: 1 ms steps while an input is busy, else 10 ms."""
        end = self.clock.now + 1 / 16
        if self._fresh:
            # the loop was asleep in queue.get(timeout=POLL_S) when the contact moved: its next
            # poll (the INT read's follow-up) comes anywhere in the next POLL_S
            self._fresh = False
            self.poll(round(self._phase.uniform(0.0001, POLL_S), 4))
        while self.clock.now < end - 1e-9:
            busy = any(inputs.busy for inputs in self.inputs)
            self.poll(FAST_S if busy else POLL_S)

    def drain(self) -> int:
        handled = 0
        while not self.table.queue.empty():
            event = self.table.queue.get()
            self.handled.append(event)
            before = [len(p.writes) for p in self.panels]
            self._posted.clear()
            started = time.perf_counter()
            self.table.handle(event)
            cpu = time.perf_counter() - started
            handled += 1
            station = getattr(event, "station", None)
            frames = [through_mux(i2c_cost(p.writes[n:]), idle_disconnect=True)
                      if len(p.writes) > n else None
                      for p, n in zip(self.panels, before, strict=True)]
            ack = None
            acting = self.table.screens[station] if station is not None else None
            if (station is not None and frames[station] is not None
                    and isinstance(acting, Acting) and acting.split):
                acting.split = False
                panel = self.panels[station]
                ack = through_mux(i2c_cost(acknowledgement(panel.writes[before[station]:])),
                                  idle_disconnect=True)
            # the acting station's frame is posted to its writer thread as soon as it is
            # drawn (the table draws it first); the other stations' renders follow meanwhile
            posted = self._posted.get(station, started + cpu) - started \
                if station is not None else cpu
            self.events.append(Handled(self.clock.now, cpu, station, frames, posted, ack))
            if (not self.timing or station is None or station not in self._edge
                    or not isinstance(event, GoPressed | SlotPressed | LeverMoved)):
                continue
            edge = self._edge.pop(station)
            reads = self.chips[station].reads - self._reads0.pop(station)
            # the table draws the acting station first (Table.refresh), so on the shared bus
            # its bytes go out before any other station's
            writes: list[BusWrite] = self.panels[station].writes[before[station]:]
            selects = 1
            full = any(len(w.payload) >= 1000 for w in writes[-2:])
            kind = ("lever" if isinstance(event, LeverMoved) else
                    "slot" if isinstance(event, SlotPressed) else
                    "GO (acting screen redrawn whole)" if full else "GO")
            self.samples.append(Sample(kind, self.clock.now - edge, reads, cpu, writes, selects))
            self.events[-1].sample = self.samples[-1]
        return handled


def reads_seconds(s: Sample, hz: int, idle_disconnect: bool) -> float:
    reads = through_mux(
        BusCost(s.reads * MCP_READ.transactions, s.reads * MCP_READ.payload_bytes,
                s.reads * MCP_READ.bus_bytes),
        idle_disconnect=idle_disconnect, selects=s.reads)
    return reads.seconds(hz)


def latencies_ms(races: list[list[Handled]], layout: list[str], hz: int, idle_disconnect: bool,
                 cpu_scale: float) -> list[tuple[Sample, float, float, float]]:
    """(sample, latency ms to the last byte of the frame, of which waiting for the controller,
    latency to the last byte of its top band) for every timed input, replaying every handled
    event's frames on one timeline per controller."""
    out: list[tuple[Sample, float, float, float]] = []
    for events in races:
        wires = {name: Controller() for name in set(layout)}
        for e in events:
            s = e.sample
            reads = reads_seconds(s, hz, idle_disconnect) if s is not None else 0.0
            order = sorted(range(len(e.frames)), key=lambda i: i != e.acting)
            for i in order:
                cost = e.frames[i]
                if cost is None:
                    continue
                post = e.at + reads + (e.acting_cpu_s if i == e.acting else e.cpu_s) * cpu_scale
                seconds = cost.seconds(hz)
                end = wires[layout[i]].post(post, i, seconds, first=i == e.acting)
                if s is not None and i == e.acting:
                    start = end - seconds
                    band = start + (e.ack.seconds(hz) if e.ack is not None else seconds)
                    out.append((s, 1000 * (s.confirm_s + (end - e.at)), 1000 * (start - post),
                                1000 * (s.confirm_s + (band - e.at))))
    return out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    races: list[list[Handled]] = []
    samples: list[Sample] = []
    idle_disconnect = True
    baudrate = 400_000
    layouts: dict[str, list[str]] = {}
    for race in range(RACES + 1):
        rig = TimedGrid6(seed=11 + race)
        config_mux = rig.config.i2c.mux
        idle_disconnect = bool(getattr(config_mux, "idle_disconnect", True))
        baudrate = rig.config.i2c.baudrate
        three = [getattr(st.input, "controller", "A") for st in rig.config.stations]
        layouts = {f"grid6 ({len(set(three))} ctl)": three, "one bus": ["A"] * 6}
        for i in range(6):
            rig.go(i)
        rig.slot(5, 1)
        rig.slot(5, 1)  # one lap
        rig.slot(5, 6)  # RACE
        rig.timing = race > 0  # the first race warms caches up
        rig.events.clear()
        players = Players(rig, seed=5 + race)
        while players.step():
            pass
        if race > 0:
            races.append(rig.events)
            samples += rig.samples
        rig.close()
    print(f"Button to glass on grid6 ({len(samples)} presses and lever moves over {RACES} "
          f"one-lap races; mux idle disconnect {'on' if idle_disconnect else 'off'})")
    print()
    confirm = [1000 * s.confirm_s for s in samples]
    cpu = [1000 * s.cpu_s for s in samples]
    print(f"confirm (first edge -> event): median {statistics.median(confirm):.1f} ms, "
          f"p99 {pct(confirm, 99):.1f} ms, max {max(confirm):.1f} ms")
    print(f"table CPU per event (this machine): median {statistics.median(cpu):.2f} ms, "
          f"p99 {pct(cpu, 99):.2f} ms")
    print()
    kinds = sorted({s.kind for s in samples})
    print("to the frame: first edge -> last byte of the acting station's new frame; to the "
          "band: -> last byte of its top band")
    print("(a whole new screen goes out top band first: 'LOCKED IN', 'Bob to play')")
    print()
    print(f"{'input':<33} {'n':>4} {'wiring':<15} {'speed':>7} {'cpu':>3} {'median':>7} "
          f"{'p99':>6} {'max':>6} {'wait p99':>8} {'band p50':>8} {'band p99':>8}  "
          f"target p99 <= {TARGET_MS:g} ms (frame)")
    for hz in sorted({100_000, baudrate, 400_000}):
        for name, layout in layouts.items():
            for scale in (1.0, 4.0):
                timed = latencies_ms(races, layout, hz, idle_disconnect, scale)
                for kind in [*kinds, "all"]:
                    group = [(lat, wait, band) for s, lat, wait, band in timed
                             if kind in ("all", s.kind)]
                    lat = [g[0] for g in group]
                    bands = [g[2] for g in group]
                    p99 = pct(lat, 99)
                    mark = " (profile speed)" if hz == baudrate else ""
                    ok = "ok" if p99 <= TARGET_MS else "missed"
                    print(f"{kind:<33} {len(group):>4} {name:<15} {hz // 1000:>3} kHz "
                          f"{'x' + format(scale, 'g'):>3} {statistics.median(lat):>7.1f} "
                          f"{p99:>6.1f} {max(lat):>6.1f} {pct([g[1] for g in group], 99):>8.1f}"
                          f" {statistics.median(bands):>8.1f} {pct(bands, 99):>8.1f}"
                          f"  {ok}{mark}")
        print()


if __name__ == "__main__":
    main()
