"""Helpers for the station display tests: a serial that fails on demand, stock luma devices
to compare bytes with, and a simulated controller RAM."""

from __future__ import annotations

import random
from typing import Any

from luma.oled.device import sh1106, ssd1306, ssd1309
from PIL import Image

import rig
from pitboard.hw.display import SH1106_COLUMN_OFFSET, Driver, StationDisplay
from pitboard.hw.oled import BusWrite, RecordingSerial


class FakeClock(rig.FakeClock):
    """rig's clock, from 1000 s: the backoff sums in these tests step from there."""

    def __init__(self, now: float = 1000.0) -> None:
        super().__init__(now)


class FlakySerial(RecordingSerial):
    """Records successful writes; raises ``fail`` (if set) on every attempt and counts attempts."""

    def __init__(self) -> None:
        super().__init__()
        self.fail: BaseException | None = None
        self.fail_on: str = "any"  # "any" | "data"
        self.attempts = 0
        self.cleaned = False

    def command(self, *cmd: int) -> None:
        self.attempts += 1
        if self.fail is not None and self.fail_on == "any":
            raise self.fail
        super().command(*cmd)

    def data(self, data: Any) -> None:
        self.attempts += 1
        if self.fail is not None:
            raise self.fail
        super().data(data)

    def cleanup(self) -> None:
        self.cleaned = True


def stock(driver: Driver, rotate: int = 0) -> tuple[Any, RecordingSerial]:
    """A stock luma device on a recording serial, constructor writes cleared."""
    rec = RecordingSerial()
    cls = {"ssd1306": ssd1306, "sh1106": sh1106, "ssd1309": ssd1309}[driver]
    dev = cls(serial_interface=rec, rotate=rotate)
    dev.persist = True
    rec.writes.clear()
    return dev, rec


def stock_writes(driver: Driver, image: Image.Image, rotate: int = 0) -> list[BusWrite]:
    dev, rec = stock(driver, rotate)
    dev.display(image)
    return rec.writes


def random_image(size: tuple[int, int], seed: int) -> Image.Image:
    rnd = random.Random(seed)
    return Image.frombytes("1", size, rnd.randbytes(size[0] * size[1] // 8))


def make(
    driver: Driver = "ssd1306", rotate: int = 0, **kw: Any
) -> tuple[StationDisplay, FlakySerial]:
    bus = FlakySerial()
    return StationDisplay(serial=bus, driver=driver, rotate=rotate, station="red", **kw), bus


def as_lists(writes: list[BusWrite]) -> list[tuple[str, list[int]]]:
    return [(w.kind, list(w.payload)) for w in writes]


class PanelRam:
    """Simulates controller RAM for the addressing commands this layer and luma use.

    SSD1306 and SSD1309: 128-column RAM, horizontal addressing inside the 0x21/0x22 window.
    SH1106: 132-column RAM, page addressing only (0xB0 page, 0x0_/0x1_ column nibbles); the
    panel shows columns ``offset..offset+127`` (``offset`` is how the module is wired).
    """

    def __init__(self, driver: Driver, offset: int = SH1106_COLUMN_OFFSET) -> None:
        self.driver = driver
        self.windowed = driver in ("ssd1306", "ssd1309")
        self.width = 128 if self.windowed else 132
        self.offset = 0 if self.windowed else offset
        self.ram = bytearray(8 * self.width)
        self.col = self.page = 0
        self.c0, self.c1, self.p0, self.p1 = 0, 127, 0, 7

    def apply(self, writes: list[BusWrite]) -> None:
        for w in writes:
            p = w.payload
            if w.kind == "command":
                if self.windowed and len(p) == 6 and p[0] == 0x21 and p[3] == 0x22:
                    self.c0, self.c1, self.p0, self.p1 = p[1], p[2], p[4], p[5]
                    self.col, self.page = self.c0, self.p0
                elif not self.windowed and len(p) == 3 and p[0] & 0xF8 == 0xB0:
                    self.page = p[0] & 0x07
                    self.col = (p[1] & 0x0F) | ((p[2] & 0x0F) << 4)
                continue
            for byte in p:
                if self.col < self.width:
                    self.ram[self.page * self.width + self.col] = byte
                if self.windowed:  # horizontal addressing inside the window
                    self.col += 1
                    if self.col > self.c1:
                        self.col = self.c0
                        self.page = self.p0 if self.page >= self.p1 else self.page + 1
                else:  # page addressing: column advances, page stays
                    self.col += 1

    def frame(self) -> bytes:
        w, off = self.width, self.offset
        return b"".join(bytes(self.ram[p * w + off : p * w + off + 128]) for p in range(8))
