"""The OLED controllers a station display drives (SSD1306, SH1106, SSD1309): luma's device for
each (its init sequence and rotation), and how a changed part of controller RAM is addressed on
each. No I/O: :class:`~pitboard.hw.display.StationDisplay` sends what these return.

Example::

    >>> from pitboard.hw.oled import Window
    >>> list(window_command(Window(page_first=1, page_last=2, first=8, last=15)))
    [33, 8, 15, 34, 1, 2]
    >>> list(page_command(3, 0, column_offset=2))   # SH1106: page 3, RAM column 2
    [179, 2, 16]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from luma.oled.device import sh1106, ssd1306, ssd1309

from pitboard.hw.oled import (
    PAGE_RUN_OVERHEAD_BYTES,
    PANEL_HEIGHT,
    PANEL_WIDTH,
    BusWrite,
    PageSpan,
    RecordingSerial,
    Window,
    changed_spans,
    plan_windows,
    split_gaps,
)

__all__ = [
    "DISPLAY_OFF",
    "DRIVERS",
    "SH1106_COLUMN_OFFSET",
    "WINDOWED_DRIVERS",
    "Driver",
    "RamRun",
    "lit_init",
    "luma_device",
    "next_run",
    "page_command",
    "ram_windows",
    "split_init",
    "window_command",
]

Driver = Literal["ssd1306", "sh1106", "ssd1309"]
#: every controller :class:`~pitboard.hw.display.StationDisplay` drives
DRIVERS: tuple[Driver, ...] = ("ssd1306", "sh1106", "ssd1309")
#: controllers with the SSD1306 command set's horizontal addressing mode and its column/page
#: address window commands 0x21/0x22 (SSD1306 data sheet rev 1.1 §10.1.3-10.1.5; the SSD1309
#: data sheet rev 1.2 has the same commands): a changed rectangle goes out as one window.
#: The SH1106 has page addressing only (SH1106 data sheet V2.3: no 0x20/0x21/0x22 commands),
#: so every changed page is positioned and written on its own.
WINDOWED_DRIVERS: tuple[Driver, ...] = ("ssd1306", "ssd1309")

#: SH1106 RAM is 132 columns wide; most 128-pixel modules show columns 2..129 (some 0..127:
#: ``column_offset`` in the profile).
SH1106_COLUMN_OFFSET = 2

_SSD1306_COLUMNADDR = 0x21
_SSD1306_PAGEADDR = 0x22
_SH1106_PAGE = 0xB0
_SH1106_LOW_COLUMN = 0x00
_SH1106_HIGH_COLUMN = 0x10
#: switch the panel off (every controller here)
DISPLAY_OFF = 0xAE


def luma_device(driver: Driver, rotate: int, serial: RecordingSerial, column_offset: int) -> Any:
    """luma's device for ``driver`` over ``serial`` (a recorder: its writes are the init)."""
    if driver == "sh1106":
        return sh1106(serial_interface=serial, width=PANEL_WIDTH, height=PANEL_HEIGHT,
                      rotate=rotate, page_address_offset=column_offset)
    chip = {"ssd1306": ssd1306, "ssd1309": ssd1309}.get(driver)
    if chip is None:
        raise ValueError(f"unknown display driver {driver!r} (expected one of {DRIVERS})")
    return chip(serial_interface=serial, width=PANEL_WIDTH, height=PANEL_HEIGHT, rotate=rotate)


def split_init(construct: Sequence[BusWrite], clear: Sequence[BusWrite],
               ) -> tuple[list[BusWrite], list[BusWrite]]:
    """Split luma's constructor writes into (before its blank frame, after it).

    luma's constructor is init commands + ``clear()`` (a full blank frame) + display-on. We replay
    the parts around the blank frame and send the real frame in its place, so a (re)initialised
    panel lights up showing the current picture and not RAM noise, for ~1 KB less. If a future
    luma orders things differently, replay everything: correct, just one frame more.
    """
    n = len(clear)
    for i in range(len(construct) - n + 1):
        if list(construct[i : i + n]) == list(clear):
            return list(construct[:i]), list(construct[i + n :])
    return list(construct), []


def lit_init(init: Sequence[BusWrite]) -> list[BusWrite]:
    """luma's init sequence without its leading display-off: for a panel that is lit."""
    if init and init[0].kind == "command" and init[0].payload[:1] == bytes((DISPLAY_OFF,)):
        return [BusWrite("command", init[0].payload[1:]), *init[1:]]
    return list(init)


def window_command(w: Window) -> bytes:
    """SSD1306/SSD1309: the column and page address window ``w`` (horizontal addressing)."""
    return bytes((_SSD1306_COLUMNADDR, w.first, w.last,
                  _SSD1306_PAGEADDR, w.page_first, w.page_last))


def page_command(page: int, first: int, *, column_offset: int) -> bytes:
    """SH1106: put the RAM pointer at ``page``, panel column ``first``."""
    column = first + column_offset
    return bytes((_SH1106_PAGE | page, _SH1106_LOW_COLUMN | (column & 0x0F),
                  _SH1106_HIGH_COLUMN | (column >> 4)))


def ram_windows(driver: Driver, old: bytes, frame: bytes, spans: Sequence[PageSpan],
                ) -> list[Window]:
    """Where ``frame`` differs from ``old``, as the windows to send: SSD1306 rectangles
    (:func:`~pitboard.hw.oled.plan_windows`), or one run per page on an SH1106 (page addressing
    only); each cut where unchanged columns cost more than another window
    (:func:`~pitboard.hw.oled.split_gaps`)."""
    if driver in WINDOWED_DRIVERS:
        return [part for w in plan_windows(spans) for part in split_gaps(old, frame, w)]
    return [part for span in spans for part in split_gaps(
        old, frame, Window(span.page, span.page, span.first, span.last),
        PAGE_RUN_OVERHEAD_BYTES)]


@dataclass(slots=True)
class RamRun:
    """A RAM run being sent in parts (:meth:`~pitboard.hw.display.StationDisplay.show_part`):
    the frame it is for, the command that positions it, its RAM indices in fill order, how
    many went out.

    Example::

        RamRun(frame, window_command(w), [128, 129], sent=0)
    """

    frame: bytes
    command: bytes
    ram: list[int]
    sent: int = 0


def next_run(driver: Driver, old: bytes, frame: bytes, *, column_offset: int) -> RamRun | None:
    """The first RAM run (a window, or an SH1106 page run) where ``frame`` differs from
    ``old``; None when they are the same."""
    spans = changed_spans(old, frame)
    if not spans:
        return None
    w = ram_windows(driver, old, frame, spans)[0]
    if driver in WINDOWED_DRIVERS:
        command = window_command(w)
    else:
        command = page_command(w.page_first, w.first, column_offset=column_offset)
    ram = [p * PANEL_WIDTH + c for p in range(w.page_first, w.page_last + 1)
           for c in range(w.first, w.last + 1)]
    return RamRun(frame, command, ram)
