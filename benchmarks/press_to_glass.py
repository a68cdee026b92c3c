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
* **cpu**: measured CPU time of ``Table.handle`` for the event (state, views, renders, bytes)
  on this machine (a Pi 4 is several times slower: the column "cpu x4" shows that);
* **bus**: bus time of the acting station's display bytes (the table draws the acting station
  first, so nothing else is on the shared bus before them), with the kernel's TCA9548A channel
  selects (and deselects: the profile's ``idle_disconnect``), at the bus speed.
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


class TimedGrid6(Grid6):
    """The rig with the app's loop cadence, timing every acted-on input from its first edge."""

    def __init__(self, **kw: Any) -> None:
        self.samples: list[Sample] = []
        self._edge: dict[int, float] = {}
        self._reads0: dict[int, int] = {}
        self.timing = False
        self._fresh = False
        self._phase = random.Random(kw.get("seed", 0))
        super().__init__(**kw)

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
            started = time.perf_counter()
            self.table.handle(event)
            cpu = time.perf_counter() - started
            handled += 1
            station = getattr(event, "station", None)
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
        return handled


def latency_ms(s: Sample, hz: int, idle_disconnect: bool, cpu_scale: float) -> float:
    frame = through_mux(i2c_cost(s.writes), idle_disconnect=idle_disconnect, selects=s.selects)
    reads = through_mux(
        BusCost(s.reads * MCP_READ.transactions, s.reads * MCP_READ.payload_bytes,
                s.reads * MCP_READ.bus_bytes),
        idle_disconnect=idle_disconnect, selects=s.reads)
    return 1000 * (s.confirm_s + reads.seconds(hz) + s.cpu_s * cpu_scale + frame.seconds(hz))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    samples: list[Sample] = []
    idle_disconnect = True
    baudrate = 400_000
    for race in range(RACES + 1):
        rig = TimedGrid6(seed=11 + race)
        config_mux = rig.config.i2c.mux
        idle_disconnect = bool(getattr(config_mux, "idle_disconnect", True))
        baudrate = rig.config.i2c.baudrate
        for i in range(6):
            rig.go(i)
        rig.slot(5, 1)
        rig.slot(5, 1)  # one lap
        rig.slot(5, 6)  # RACE
        rig.timing = race > 0  # the first race warms caches up
        players = Players(rig, seed=5 + race)
        while players.step():
            pass
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
    print(f"{'input':<33} {'n':>5} {'bus speed':>10} {'cpu':>4} {'median ms':>10} {'p99 ms':>7} "
          f"{'max ms':>7}  target p99 <= {TARGET_MS:g} ms")
    for kind in [*kinds, "all"]:
        group = [s for s in samples if kind in ("all", s.kind)]
        for hz in sorted({100_000, baudrate, 400_000}):
            for scale in (1.0, 4.0):
                lat = [latency_ms(s, hz, idle_disconnect, scale) for s in group]
                p99 = pct(lat, 99)
                mark = " (profile speed)" if hz == baudrate else ""
                ok = "ok" if p99 <= TARGET_MS else "missed"
                speed = f"{hz // 1000:>6} kHz {'x' + format(scale, 'g'):>4}"
                print(f"{kind:<33} {len(group):>5} {speed} "
                      f"{statistics.median(lat):>10.1f} {p99:>7.1f} {max(lat):>7.1f}  {ok}{mark}")


if __name__ == "__main__":
    main()
