"""Bytes, I2C bus time and CPU time of windowed OLED updates vs stock luma full frames.

Run: ``python benchmarks/display_bytes.py``. Prints figures only.

Each case starts from the same station screen and applies one realistic change. "ours" is what
:class:`pitboard.hw.display.StationDisplay` sends for that change; "stock" is what
``luma.oled``'s ``device.display()`` sends for the same new image. Both go through the same
recording serial. Bus time is computed with :func:`pitboard.hw.oled.i2c_cost` for the transport
``open_display`` builds (:class:`pitboard.hw.oled_i2c.I2cLink`: luma's ``i2c(port=N)``, each
write an ``i2c_rdwr`` message, a part's writes the messages of one transfer) and, in brackets,
for 32-byte SMBus blocks (``i2c(bus=...)``).
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw, ImageFont

from pitboard.hw.display import Driver, StationDisplay
from pitboard.hw.display_cost import busiest, by_design, priced, rewrite_cost
from pitboard.hw.oled import (
    FRAME_BYTES,
    I2C_RDWR_BLOCK,
    SMBUS_BLOCK,
    BusCost,
    RecordingSerial,
    i2c_cost,
)
from pitboard.hw.writer import BusWriter, part_bytes

# luma 3.16 uses Image.getdata(), deprecated in Pillow 13: not our concern here.
warnings.filterwarnings("ignore", message="Image.Image.getdata is deprecated")

W, H = 128, 64
CARD_W, CARD_H, CARD_Y = 17, 14, 49
SEGMENTS = {  # seven-segment digits: a b c d e f g
    "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg",
}
FONT = ImageFont.load_default(size=10)
BIG = ImageFont.load_default(size=14)


def draw_digit(draw: ImageDraw.ImageDraw, digit: str, x: int, y: int) -> None:
    """A 14×24 seven-segment digit at (x, y): the gear indicator."""
    w, h, t = 14, 24, 3
    half = h // 2
    seg = {
        "a": (x + t, y, x + w - t - 1, y + t - 1),
        "b": (x + w - t, y + t, x + w - 1, y + half - 1),
        "c": (x + w - t, y + half + 1, x + w - 1, y + h - t - 1),
        "d": (x + t, y + h - t, x + w - t - 1, y + h - 1),
        "e": (x, y + half + 1, x + t - 1, y + h - t - 1),
        "f": (x, y + t, x + t - 1, y + half - 1),
        "g": (x + t, y + half - 1, x + w - t - 1, y + half + 1),
    }
    for name in SEGMENTS[digit]:
        draw.rectangle(seg[name], fill=1)


def station_screen(gear: str = "3") -> Image.Image:
    """A plausible station screen: header, gear, speed/heat, a row of 7 cards."""
    img = Image.new("1", (W, H))
    d = ImageDraw.Draw(img)
    d.text((0, 0), "RED  P3  LAP 2/3", font=FONT, fill=1)
    d.line((0, 12, W - 1, 12), fill=1)
    d.text((2, 16), "GEAR", font=FONT, fill=1)
    draw_digit(d, gear, 8, 24)
    d.text((40, 16), "SPEED", font=FONT, fill=1)
    d.text((40, 28), "12", font=BIG, fill=1)
    d.text((84, 16), "HEAT 4", font=FONT, fill=1)
    d.text((84, 28), "STR 2", font=FONT, fill=1)
    for slot, label in enumerate(["1", "2", "3", "4", "H", "S", "0"]):
        x = 1 + slot * (CARD_W + 1)
        d.rectangle((x, CARD_Y, x + CARD_W - 1, CARD_Y + CARD_H - 1), outline=1)
        d.text((x + 5, CARD_Y + 1), label, font=FONT, fill=1)
    return img


def card_toggle(base: Image.Image) -> Image.Image:
    """Select card 4: invert its rectangle in the bottom row."""
    img = base.copy()
    x = 1 + 3 * (CARD_W + 1)
    box = (x + 1, CARD_Y + 1, x + CARD_W - 1, CARD_Y + CARD_H - 1)
    region = img.crop(box).convert("L").point(lambda v: 255 - v).convert("1")
    img.paste(region, box[:2])
    return img


def gear_change(base: Image.Image) -> Image.Image:
    """Shift from 3rd to 4th: the 24-px digit is cleared and redrawn."""
    img = base.copy()
    d = ImageDraw.Draw(img)
    d.rectangle((8, 24, 21, 47), fill=0)
    draw_digit(d, "4", 8, 24)
    return img


def full_reveal(_: Image.Image) -> Image.Image:
    """Round reveal: a different screen covering nearly everything."""
    img = Image.new("1", (W, H))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W - 1, 13), fill=1)
    d.text((4, 1), "ROUND 7 REVEAL", font=FONT, fill=0)
    for row, text in enumerate(["1 BLUE   +9  (24)", "2 RED    +7  (22)",
                                "3 GREEN  +6  (19)", "4 BLACK  +4  (15)"]):
        d.text((2, 15 + row * 12), text, font=FONT, fill=1)
    d.rectangle((100, 15, W - 1, H - 1), outline=1)
    return img


CASES: list[tuple[str, Callable[[Image.Image], Image.Image]]] = [
    ("card toggle", card_toggle),
    ("gear change", gear_change),
    ("full reveal", full_reveal),
]


class NullSerial:
    """Accepts writes and drops them: CPU timing without recording overhead."""

    def command(self, *cmd: int) -> None:
        pass

    def data(self, data: list[int]) -> None:
        pass


def stock_device(driver: Driver, serial: Any) -> Any:
    dev = (ssd1306 if driver == "ssd1306" else sh1106)(serial_interface=serial)
    dev.persist = True
    return dev


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f}"


def bytes_table() -> None:
    base = station_screen()
    print("Bytes per update and I2C bus time (payload = command + data bytes; bus = payload +")
    print("address + control byte per transaction; time at 400 kHz, i2c_rdwr [32-byte SMBus])")
    print()
    header = (f"{'case':<12} {'driver':<8} {'ours B':>7} {'bus B':>6} {'400k ms':>16} "
              f"{'stock B':>8} {'bus B':>6} {'400k ms':>16} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    for driver in ("ssd1306", "sh1106"):
        for name, change in CASES:
            new = change(base)
            ours_bus = RecordingSerial()
            disp = StationDisplay(serial=ours_bus, driver=driver, station="bench")
            disp.show(base)
            ours_bus.writes.clear()
            disp.show(new)
            ours = list(ours_bus.writes)

            stock_bus = RecordingSerial()
            dev = stock_device(driver, stock_bus)
            dev.display(base)
            stock_bus.writes.clear()
            dev.display(new)
            stock = list(stock_bus.writes)

            row = [name, driver]
            for writes in (ours, stock):
                payload = sum(len(w.payload) for w in writes)
                rdwr = i2c_cost(writes, block_size=I2C_RDWR_BLOCK)
                smbus = i2c_cost(writes, block_size=SMBUS_BLOCK)
                row += [f"{payload:>7}" if writes is ours else f"{payload:>8}",
                        f"{rdwr.bus_bytes:>6}",
                        f"{ms(rdwr.seconds(400_000))} [{ms(smbus.seconds(400_000)).strip():>5}]"]
            ratio = sum(len(w.payload) for w in stock) / max(1, sum(len(w.payload) for w in ours))
            print(f"{row[0]:<12} {row[1]:<8} {row[2]} {row[3]} {row[4]:>16} "
                  f"{row[5]} {row[6]} {row[7]:>16} {ratio:>5.1f}x")
    print()
    first = RecordingSerial()
    StationDisplay(serial=first, driver="ssd1306").show(base)
    cost = i2c_cost(first.writes)
    print(f"first frame / recovery (ssd1306: init + full frame + display on): "
          f"{first.command_bytes + first.data_bytes} B payload, {cost.bus_bytes} B on bus, "
          f"{ms(cost.seconds(400_000)).strip()} ms at 400 kHz, "
          f"{ms(cost.seconds(100_000)).strip()} ms at 100 kHz")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def time_calls(call: Callable[[int], None], n: int) -> list[float]:
    samples: list[float] = []
    for i in range(n):
        t0 = time.perf_counter_ns()
        call(i)
        samples.append((time.perf_counter_ns() - t0) / 1000)
    return samples


def cpu_table(n: int = 2000) -> None:
    base = station_screen()
    print()
    print(f"CPU time per call, µs (median / p99 over {n} calls; transport does nothing)")
    print()
    header = f"{'case':<16} {'driver':<8} {'our show()':>16} {'stock display()':>18}"
    print(header)
    print("-" * len(header))
    for driver in ("ssd1306", "sh1106"):
        for name, change in [*CASES, ("unchanged", Image.Image.copy)]:
            frames = [base, change(base)]
            disp = StationDisplay(serial=NullSerial(), driver=driver, station="bench")
            disp.show(base)
            dev = stock_device(driver, NullSerial())

            # alternate new/old so every call is a real change (unchanged: both equal)
            def ours_call(i: int, d: StationDisplay = disp, f: list[Image.Image] = frames) -> None:
                d.show(f[(i + 1) % 2])

            def stock_call(i: int, d: Any = dev, f: list[Image.Image] = frames) -> None:
                d.display(f[(i + 1) % 2])

            ours = time_calls(ours_call, n)
            stock = time_calls(stock_call, n // 10)
            print(f"{name:<16} {driver:<8} "
                  f"{statistics.median(ours):>7.0f} / {percentile(ours, 0.99):>6.0f} "
                  f"{statistics.median(stock):>9.0f} / {percentile(stock, 0.99):>6.0f}")


@dataclass(frozen=True)
class Reveal:
    """One GO reveal on grid6: each station's bytes on the bus (its answer to the last GO and
    its new screen, each transfer with the mux's select and deselect), what each station
    showed before and after, and the race-control display's frame (None: it did not change)."""

    costs: list[BusCost]
    screens: list[str]
    race_control: BusCost | None


def _controllers() -> list[str]:
    """Station -> I2C controller in the shipped grid6 profile."""
    from pitboard.hwconfig import load_profile

    return [st.display.controller for st in load_profile("grid6").stations]


def real_reveals(part: int | None, races: int = 2) -> list[Reveal]:
    """The GO reveals of real one-lap grid6 races on the test rig (six players, every choice
    made with the lever and the buttons), sent as the device sends them: each controller's
    :class:`~pitboard.hw.writer.BusWriter` with the profile's race-control display as its
    background display on controller A. ``part``: the writer's part size in RAM bytes (None:
    a frame's windows all in one transfer, as long as the frame is: only a press's answer
    still goes in parts of :data:`~pitboard.hw.writer.URGENT_CHUNK_BYTES`, and the last GO's
    answer is smaller than one)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from pitboard.hw.events import GoPressed
    from rig import Grid6, Players

    reveals: list[Reveal] = []
    layout = _controllers()

    class Rig(Grid6):
        def __init__(self, *, seed: int) -> None:
            super().__init__(seed=seed)
            chunk = part or FRAME_BYTES
            self.writers = {c: BusWriter(name=c, threaded=False, chunk_bytes=chunk)
                            for c in sorted(set(layout))}
            self.table.screens = [self.writers[c].add(d)
                                  for c, d in zip(layout, self.displays, strict=True)]
            self.rc_bus = RecordingSerial()
            self.rc = StationDisplay(serial=self.rc_bus, station="race control")
            self.table.race_control = self.writers["A"].add(self.rc, background=True)

        def drain(self) -> int:
            if not hasattr(self, "writers"):  # the rig's own set-up, before the writers
                return super().drain()
            handled = 0
            while not self.table.queue.empty():
                event = self.table.queue.get()
                before = [len(p.writes) for p in self.panels]
                rc_before = len(self.rc_bus.writes)
                kinds = [self.renders.views[i].kind for i in range(len(self.panels))]
                self.table.handle(event)
                for writer in self.writers.values():
                    writer.drain()
                handled += 1
                after = [self.renders.views[i].kind for i in range(len(self.panels))]
                if isinstance(event, GoPressed) and "planning" in kinds and \
                        "planning" not in after:
                    rc = self.rc_bus.writes[rc_before:]
                    reveals.append(Reveal(
                        [priced(p.writes[n:]) for p, n in zip(self.panels, before, strict=True)],
                        [f"{a}->{b}" for a, b in zip(kinds, after, strict=True)],
                        priced(rc) if rc else None))
            return handled

    for race in range(races):
        rig = Rig(seed=21 + race)
        for i in range(6):
            rig.go(i)
        rig.slot(5, 1)
        rig.slot(5, 1)
        rig.slot(5, 6)
        players = Players(rig, seed=7 + race)
        while players.step():
            pass
        rig.close()
    return reveals


def reveal_table() -> None:
    """The GO reveal on six grid6 stations: the last GO redraws every display at once.

    What is counted: per station, every transfer the table's writer puts on that station's mux
    channel from the last GO until all six new screens are on the glass -- the acting
    station's answer (its plan marked LOCKED "all in") and its new screen, every other
    station's new screen -- each transfer with its address and control bytes and the
    TCA9548A select and deselect around it (idle disconnect, the grid6 default). Frames of the
    stations on one controller go one after another; the three controllers are driven in
    parallel, one writer thread each, so the reveal takes as long as the busiest controller.
    The race-control display (controller A, a background display of its writer) is sent after
    A's stations: it is not counted in the reveal, its own end is printed. Not counted: the
    kernel's and the Pi's gaps between transfers, clock stretching. Rows: "every byte" (every
    RAM byte of every screen rewritten: what a reveal cost before the screens shared rows), "by
    design" (the bound of today's screens: one turn screen changing every byte on the same
    controller as the last GO's answer and waiting screen, pages 3-4) and the real reveals.
    """
    layout = _controllers()
    speeds = (100_000, 400_000)
    print()
    print("Six-station GO reveal on grid6 (three controllers in parallel, two stations each): "
          "the busiest controller's bus time, ms")
    print()
    header = (f"{'sent as':<34} {'reveal':<14} "
              + " ".join(f"{f'{hz // 1000} kHz B':>10} {'ms':>6}" for hz in speeds))
    print(header)
    print("-" * len(header))
    runs: dict[str, dict[int, list[Reveal]]] = {}
    whole = real_reveals(None)
    runs["whole frames (one transfer each)"] = {hz: whole for hz in speeds}
    runs["the writer's parts (" + ", ".join(f"{part_bytes(hz)} B at {hz // 1000} kHz"
                                             for hz in speeds) + ")"] = \
        {hz: real_reveals(part_bytes(hz)) for hz in speeds}
    worst_seen: dict[int, tuple[float, Reveal]] = {}
    for label, by_hz in runs.items():
        parts = label.startswith("the writer")
        for case in ("every byte", "by design", "real, worst", "real, median"):
            cells = []
            for hz in speeds:
                part = part_bytes(hz) if parts else None
                reveals = by_hz[hz]
                if case == "every byte":
                    timed = [(busiest([rewrite_cost(part)] * 6, layout, hz), None)]
                elif case == "by design":
                    timed = [(busiest(by_design(part), layout, hz), None)]
                else:
                    timed = sorted(((busiest(r.costs, layout, hz), r) for r in reveals),
                                   key=lambda t: t[0])
                (seconds, nbytes, _), reveal = timed[len(timed) // 2] \
                    if case == "real, median" else timed[-1]
                if parts and case == "real, worst" and reveal is not None:
                    worst_seen[hz] = seconds, reveal
                cells.append(f"{nbytes:>10} {1000 * seconds:>6.1f}")
            print(f"{label if case == 'every byte' else '':<34} {case:<14} " + " ".join(cells))
    print()
    reveals = runs[next(iter(k for k in runs if k.startswith("the writer")))][100_000]
    print(f"{len(reveals)} real reveals of one-lap races, six players. Worst at 100 kHz, in "
          "the writer's parts, per station (bus bytes: screen before -> after):")
    seconds, reveal = worst_seen[100_000]
    for controller in sorted(set(layout)):
        stations = [i for i, c in enumerate(layout) if c == controller]
        line = ", ".join(f"S{i + 1} {reveal.costs[i].bus_bytes} B ({reveal.screens[i]})"
                         for i in stations)
        total = sum(reveal.costs[i].seconds(100_000) for i in stations)
        print(f"  {controller}: {1000 * total:6.1f} ms  {line}")
    rc_ends = []
    for r in reveals:
        if r.race_control is not None:
            on_a = [c for c, ctrl in zip(r.costs, layout, strict=True) if ctrl == "A"]
            rc_ends.append(sum(c.seconds(100_000) for c in on_a)
                           + r.race_control.seconds(100_000))
    if rc_ends:
        print(f"race-control display (controller A, sent after A's stations, not counted): its "
              f"frame ends {1000 * statistics.median(rc_ends):.1f} ms (median) / "
              f"{1000 * max(rc_ends):.1f} ms (worst) after the last GO at 100 kHz")
    print("target: <= 150 ms at the safe bus speed (100 kHz, long cables); grid6 ships at "
          "400 kHz (2.2 kOhm pull-ups per channel, cables of 1.5 m or less)")


def main() -> None:
    bytes_table()
    reveal_table()
    cpu_table()


if __name__ == "__main__":
    main()
