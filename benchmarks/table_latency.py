"""Table latency: from an input event handed to ``Table.handle`` to the frame handed to the display.

Run: ``python benchmarks/table_latency.py``. Prints figures only (no pass/fail).

Six human stations (grid6: an SSD1306 each) race whole races, base game then Garage (its
turn screens with symbol keys and upgrade card faces); every choice comes from the
heuristic bot but reaches the table as the input events a station would post (lever moves,
slot presses, GO), chosen by what the station's screen offers. For every event the game
thread's CPU time (``time.thread_time_ns``) is taken:

* **to frame**: from the call to ``Table.handle`` to the moment the acting station's new frame
  is handed to its display's ``show()`` (state update, every station's view, the render);
* **whole handle**: until ``handle`` returns, i.e. every changed station rendered and its bytes
  computed and written (to a recording transport, so no bus time is included).

Bytes are what :class:`pitboard.hw.display.StationDisplay` sent for the event, priced on I2C
at 400 kHz with :func:`pitboard.hw.oled.i2c_cost` (managed ``i2c_rdwr`` writes; 32-byte SMBus
blocks in brackets), next to stock luma's full frame for the same picture.
"""

from __future__ import annotations

import statistics
import time
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from display_bytes import ms, percentile, stock_device
from pitboard.bots import Bot, HeuristicBot
from pitboard.engine.decisions import Plan
from pitboard.hw.display import StationDisplay
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from pitboard.hw.oled import I2C_RDWR_BLOCK, SMBUS_BLOCK, BusWrite, RecordingSerial, i2c_cost
from pitboard.table import flow, screens
from pitboard.table.autoplay import hands_bot, next_input
from pitboard.table.table import Table

warnings.filterwarnings("ignore", message="Image.Image.getdata is deprecated")

STATIONS = 6
RACES = 6  # the first one only warms caches up and is not counted
TARGET_MS = 1.0
CASES = ("card toggle", "gear change", "GO (locks in)", "GO (reveal)", "resolution key")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class TimedScreen:
    """A station display that notes when the table hands it a frame (game-thread CPU time)."""

    def __init__(self, station: int, display: StationDisplay, handed: dict[int, int]) -> None:
        self.station = station
        self.display = display
        self._handed = handed

    def show(self, image: Image.Image) -> None:
        self._handed.setdefault(self.station, time.thread_time_ns())
        self.display.show(image)


@dataclass
class Sample:
    case: str
    station: int
    to_frame_ns: int | None  # None: the acting station's screen did not change
    handle_ns: int
    #: writes sent to each display during the event
    writes: dict[int, list[BusWrite]] = field(default_factory=dict)


class Bench:
    def __init__(self, seed: int, modules: dict[str, dict[str, Any]] | None = None) -> None:
        self.modules = modules
        self.clock = Clock()
        self.buses = [RecordingSerial() for _ in range(STATIONS)]
        self.handed: dict[int, int] = {}
        self.screens = [TimedScreen(i, StationDisplay(serial=bus, station=f"S{i + 1}"),
                                    self.handed) for i, bus in enumerate(self.buses)]
        self.table = Table(stations=STATIONS, screens=self.screens, render=screens.render,
                           clock=self.clock, seed=seed)
        self.mind: Bot = HeuristicBot(seed=seed)
        self.levers = [0] * STATIONS
        self.samples: list[Sample] = []
        self.last_image: Image.Image | None = None

    def send(self, event: StationEvent, case: str) -> None:
        self.clock.now += 0.25
        marks = [len(bus.writes) for bus in self.buses]
        self.handed.clear()
        t0 = time.thread_time_ns()
        self.table.handle(event)
        t1 = time.thread_time_ns()
        handed = self.handed.get(event.station)
        writes = {i: bus.writes[m:] for i, (bus, m) in enumerate(zip(self.buses, marks,
                                                                      strict=True))}
        self.samples.append(Sample(case, event.station, None if handed is None else handed - t0,
                                   t1 - t0, {i: w for i, w in writes.items() if w}))
        for bus in self.buses:  # keep memory flat over many races
            bus.writes.clear()

    def lever(self, station: int, gear: int) -> None:
        if self.levers[station] != gear:
            self.levers[station] = gear
            self.send(LeverMoved(station=station, gear=gear), "gear change")

    def cards(self, station: int, codes: tuple[str, ...], case: str) -> None:
        wanted = list(codes)
        while wanted:
            view = self.table.views[station]
            assert view is not None
            button = next((b for b, c in enumerate(view.cards)
                           if c.code in wanted and not c.selected), None)
            if button is None:
                self.send(SlotPressed(station=station, slot=6), case)  # PG>
                continue
            wanted.remove(view.cards[button].code)
            self.send(SlotPressed(station=station, slot=button), case)

    def race(self) -> None:
        for i in range(STATIONS):
            self.lever(i, 1)
        for i in range(STATIONS):
            self.send(GoPressed(station=i), "lobby")
        table = self.table
        if self.modules:  # straight to the race settings (the lobby's Garage is the draft's)
            table.modules = self.modules
        self.send(SlotPressed(station=0, slot=6), "lobby")
        assert table.race is not None
        self.mind = hands_bot(table.race, seed=table.race.setup.seed)
        while table.state != flow.RESULTS:
            race = table.race
            assert race is not None
            car = race.pending().cars[0]
            station = car  # all six joined in order: station i drives car i
            decision = self.mind.choose(race, car)
            if isinstance(decision, Plan):
                self.lever(station, decision.gear)
                if decision.gear not in race.plan_rule(car).clogged:
                    self.cards(station, decision.cards, "card toggle")
                last = sum(not c.planned and not c.finished for c in race.cars) == 1
                self.send(GoPressed(station=station), "GO (reveal)" if last else "GO (locks in)")
            else:  # the turn screen: the presses the autopilot's hands make
                event = next_input(table, brain=self.mind)
                assert event is not None
                self.send(event, "resolution key")
        self.send(GoPressed(station=0), "lobby")  # NEXT


def us(ns: float) -> str:
    return f"{ns / 1000:8.0f}"


def latency_table(samples: list[Sample], races: int) -> None:
    print(f"Input event -> frame handed to the acting station's display: game-thread CPU time "
          f"(time.thread_time_ns),\n{STATIONS} human stations, {races} races, "
          f"{len(samples)} events (a warm-up race before them is not counted)")
    print()
    header = (f"{'case':<16} {'events':>7} {'to frame µs: median':>20} {'p99':>8}   "
              f"{'whole handle µs: median':>24} {'p99':>8}")
    print(header)
    print("-" * len(header))
    by_case: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_case[s.case].append(s)
    frames_all: list[float] = []
    for case in (*CASES, "lobby"):
        group = by_case.get(case, [])
        frames: list[float] = [s.to_frame_ns for s in group if s.to_frame_ns is not None]
        handles: list[float] = [s.handle_ns for s in group]
        if case != "lobby":
            frames_all += frames
        if not frames:
            continue
        print(f"{case:<16} {len(group):>7} {us(statistics.median(frames)):>20} "
              f"{us(percentile(frames, 0.99)):>8}   {us(statistics.median(handles)):>24} "
              f"{us(percentile(handles, 0.99)):>8}")
    median_ms = statistics.median(frames_all) / 1e6
    print("-" * len(header))
    print(f"{'race events':<16} {len(frames_all):>7} {us(statistics.median(frames_all)):>20} "
          f"{us(percentile(frames_all, 0.99)):>8}")
    print()
    print(f"to frame, median over race events: {median_ms:.3f} ms   (target <= {TARGET_MS:g} ms "
          f"median on the development machine: {'met' if median_ms <= TARGET_MS else 'MISSED'})")


def cost(writes: list[BusWrite]) -> tuple[int, float, float]:
    """(payload bytes, ms at 400 kHz with i2c_rdwr, ms with 32-byte SMBus blocks)."""
    payload = sum(len(w.payload) for w in writes)
    return (payload, i2c_cost(writes, block_size=I2C_RDWR_BLOCK).seconds(400_000),
            i2c_cost(writes, block_size=SMBUS_BLOCK).seconds(400_000))


def bytes_table(samples: list[Sample]) -> None:
    stock_bus = RecordingSerial()
    stock = stock_device("ssd1306", stock_bus)
    stock_bus.writes.clear()  # the constructor's init and blank frame
    stock.display(Image.new("1", (128, 64), 1))  # any picture: luma always sends all of it
    stock_b, stock_ms, stock_smbus = cost(stock_bus.writes)

    print()
    print("Bytes sent per display for one event (median over the race events; payload = "
          "command + data bytes)\nand their I2C time at 400 kHz: i2c_rdwr [32-byte SMBus "
          "blocks]. Stock luma sends a full frame for any change.")
    print()
    header = (f"{'case':<28} {'displays':>8} {'ours B':>7} {'400k ms':>16}   "
              f"{'stock luma B':>12} {'400k ms':>16}")
    print(header)
    print("-" * len(header))
    stock_cols = f"{stock_b:>12} {ms(stock_ms)} [{ms(stock_smbus).strip():>5}]"
    rows = [("card toggle", "card toggle", False), ("gear change", "gear change", False),
            ("full reveal, each display", "GO (reveal)", True)]
    for label, case, every in rows:
        per_display: list[tuple[int, float, float]] = []
        touched: list[int] = []
        for s in samples:
            if s.case != case:
                continue
            items = s.writes.items() if every else [(s.station, s.writes.get(s.station, []))]
            costs = [cost(w) for _, w in items if w]
            per_display += costs
            touched.append(len(costs))
        if not per_display:
            continue
        b = statistics.median(c[0] for c in per_display)
        t = statistics.median(c[1] for c in per_display)
        t32 = statistics.median(c[2] for c in per_display)
        shown = f"{statistics.median(touched):.0f}" if every else "1"
        print(f"{label:<28} {shown:>8} {b:>7.0f} {ms(t)} [{ms(t32).strip():>5}]   {stock_cols}")
    reveals = [s for s in samples if s.case == "GO (reveal)"]
    if reveals:
        totals = [cost([w for ws in s.writes.values() for w in ws]) for s in reveals]
        n = statistics.median(len(s.writes) for s in reveals)
        b = statistics.median(c[0] for c in totals)
        t = statistics.median(c[1] for c in totals)
        print(f"{'full reveal, all displays':<28} {n:>8.0f} {b:>7.0f} {ms(t)} "
              f"{'':>8}   {stock_b * n:>12.0f} {ms(stock_ms * n)}")
    print("(all displays: the six frames one after another, as on one I2C bus; grid6 spreads its "
          "stations over three controllers driven in parallel: benchmarks/display_bytes.py "
          "prints that reveal)")


#: the Garage race measured after the base game: 3 random upgrades each, expansions on
GARAGE = {"garage": {"choose": "random", "expansions": True}}


def main() -> None:
    for title, modules in (("Base game", None), ("Garage race", GARAGE)):
        print(f"== {title}")
        print()
        samples: list[Sample] = []
        for seed in range(RACES):
            bench = Bench(seed=100 + seed, modules=modules)
            bench.race()
            if seed:  # seed 0 warms up font and sprite caches
                samples += bench.samples
        latency_table(samples, RACES - 1)
        bytes_table(samples)
        print()


if __name__ == "__main__":
    main()
