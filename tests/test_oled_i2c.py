"""The OLED's I2C transport (hw/oled_i2c.py): a display part's writes in one kernel transfer.

Exact bytes through a fake SMBus that records every ``i2c_rdwr`` call and feeds each message to
the rig's decoding panel (tests/rig.py: a window landing in the wrong place fails the picture
check), and what that costs on a TCA9548A channel with idle disconnect."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageDraw

from pitboard.hw.display import StationDisplay
from pitboard.hw.oled import (
    PAGES,
    PANEL_WIDTH,
    BusWrite,
    RecordingSerial,
    Window,
    i2c_cost,
    split_gaps,
    through_mux,
    to_pages,
)
from pitboard.hw.oled_i2c import RDWR_MAX_MESSAGES, I2cLink
from pitboard.table.fonts import BIG
from rig import Panel


class RdwrBus:
    """An open /dev/i2c-N as smbus2 gives it: ``i2c_rdwr`` calls (each a list of (address,
    bytes) messages), every message decoded by a panel model (control byte 0x00: commands,
    0x40: RAM data)."""

    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        self.calls: list[list[tuple[int, bytes]]] = []

    def i2c_rdwr(self, *messages: Any) -> None:
        call = [(m.addr, bytes(m)) for m in messages]
        self.calls.append(call)
        for _addr, raw in call:
            assert raw[0] in (0x00, 0x40), raw[:1]
            if raw[0] == 0x00:
                self.panel.command(*raw[1:])
            else:
                self.panel.data(raw[1:])

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        self.i2c_rdwr(_Message(addr, bytes([register, *data])))

    def close(self) -> None:
        """luma's cleanup."""


class _Message:
    def __init__(self, addr: int, raw: bytes) -> None:
        self.addr = addr
        self._raw = raw

    def __bytes__(self) -> bytes:
        return self._raw


def big(text: str) -> Image.Image:
    """The SPEED block's number as the planning screen draws it (BIG, rows 8..23, x=2)."""
    img = Image.new("1", (128, 64))
    img.paste(255, (2, 8), BIG.render(text))
    return img


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_part_goes_as_the_messages_of_one_i2c_rdwr(driver: str) -> None:
    panel = Panel(driver)  # type: ignore[arg-type]
    bus = RdwrBus(panel)
    disp = StationDisplay(serial=I2cLink(bus=bus, address=0x3C), driver=driver)  # type: ignore[arg-type]
    disp.show(big("4-7"))
    assert panel.frame() == to_pages(big("4-7"))
    bus.calls.clear()
    assert disp.show_part(big("5-8"), 192)
    # one transfer: per changed run its position command (0x00 ...) then its RAM (0x40 ...)
    (call,) = bus.calls
    assert {addr for addr, _ in call} == {0x3C}
    assert [raw[0] for _, raw in call] == [0x00, 0x40] * (len(call) // 2)
    assert panel.frame() == to_pages(big("5-8"))
    if driver == "ssd1306":
        # the two digits that changed, each its own window over pages 1-2; not the dash
        first, last = 2, 2 + BIG.width("5-8") - 1
        commands = [raw[1:] for _, raw in call if raw[0] == 0x00]
        assert [(c[1], c[2], c[4], c[5]) for c in commands] == [
            (first, first + 9, 1, 2), (last - 9, last, 1, 2)]
    else:
        # SH1106: page addressing only (no 0x21/0x22): every run a page, column offset 2
        commands = [raw[1:] for _, raw in call if raw[0] == 0x00]
        assert all(len(c) == 3 and c[0] & 0xF0 == 0xB0 for c in commands), commands
        assert {c[0] & 0x07 for c in commands} == {1, 2}


def test_more_messages_than_one_rdwr_takes_go_in_several_calls() -> None:
    bus = RdwrBus(Panel("ssd1306"))
    link = I2cLink(bus=bus)
    writes = [BusWrite("data", bytes([i])) for i in range(RDWR_MAX_MESSAGES + 1)]
    link.transfer(writes)
    assert [len(call) for call in bus.calls] == [RDWR_MAX_MESSAGES, 1]
    assert [raw for call in bus.calls for _, raw in call] == [bytes([0x40, i])
                                                             for i in range(len(writes))]


def test_without_i2c_rdwr_the_writes_go_one_by_one() -> None:
    class SMBusOnly:
        def __init__(self) -> None:
            self.blocks: list[tuple[int, list[int]]] = []

        def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
            self.blocks.append((register, list(data)))

    bus = SMBusOnly()
    I2cLink(bus=bus).transfer([BusWrite("command", bytes([0x21, 0, 3, 0x22, 0, 0])),
                               BusWrite("data", bytes([1, 2, 3, 4]))])
    assert bus.blocks == [(0x00, [0x21, 0, 3, 0x22, 0, 0]), (0x40, [1, 2, 3, 4])]


def test_a_transfer_costs_one_mux_select_and_deselect() -> None:
    rec = RecordingSerial()
    three = [BusWrite("command", bytes(6)), BusWrite("data", bytes(20)),
             BusWrite("command", bytes(6)), BusWrite("data", bytes(20)),
             BusWrite("command", bytes(6)), BusWrite("data", bytes(14))]
    rec.transfer(three)
    assert [w.joined for w in rec.writes] == [False] + [True] * 5
    assert rec.writes == three  # joined does not change what a write is
    alone = through_mux(i2c_cost(three), idle_disconnect=True)
    together = through_mux(i2c_cost(rec.writes), idle_disconnect=True)
    assert i2c_cost(rec.writes).transfers == 1 and i2c_cost(three).transfers == 6
    # 6 messages: each its address and control byte; the mux: one select and one deselect
    assert together.bus_bytes == 18 + 54 + 2 * 6 + 2 * 2
    assert alone.bus_bytes - together.bus_bytes == 5 * 2 * 2
    # a START per message, a STOP per transfer (the select and the deselect are transfers too)
    assert together.clocks == 9 * together.bus_bytes + (6 + 2) + (1 + 2)


def test_a_failed_transfer_is_a_fault_and_nothing_counts_as_written() -> None:
    panel = Panel("ssd1306")
    bus = RdwrBus(panel)
    disp = StationDisplay(serial=I2cLink(bus=bus), driver="ssd1306")
    disp.show(big("4"))
    panel.fail = OSError(121, "Remote I/O error")
    assert disp.show_part(big("9"), 192)  # (a fault: the frame waits for the recovery)
    assert not disp.healthy and disp.stats.errors == 1
    panel.fail = None


def test_split_gaps_cuts_where_unchanged_columns_cost_more_than_a_window() -> None:
    old = bytearray(PAGES * PANEL_WIDTH)
    new = bytearray(old)
    for page in (1, 2):
        new[page * PANEL_WIDTH + 10] = 1
        new[page * PANEL_WIDTH + 15] = 1  # a gap of 4 columns x 2 pages: cheaper kept
        new[page * PANEL_WIDTH + 30] = 1  # a gap of 14 x 2: its own window
    whole = Window(page_first=1, page_last=2, first=10, last=30)
    assert split_gaps(bytes(old), bytes(new), whole) == [
        Window(1, 2, 10, 15), Window(1, 2, 30, 30)]
    # on one page a gap of 14 costs 14: more than the 10 of a window
    one = Window(page_first=1, page_last=1, first=10, last=30)
    assert split_gaps(bytes(old), bytes(new), one) == [Window(1, 1, 10, 15), Window(1, 1, 30, 30)]
    assert split_gaps(bytes(old), bytes(new), one, overhead=20) == [one]


def test_split_windows_keep_the_panel_exact_under_random_changes() -> None:
    import random

    rnd = random.Random(7)
    for driver in ("ssd1306", "sh1106"):
        panel = Panel(driver)  # type: ignore[arg-type]
        disp = StationDisplay(serial=I2cLink(bus=RdwrBus(panel)), driver=driver)  # type: ignore[arg-type]
        img = Image.new("1", (128, 64))
        disp.show(img)
        for _ in range(40):
            img = img.copy()
            draw = ImageDraw.Draw(img)
            for _ in range(rnd.randint(1, 4)):
                x, y = rnd.randrange(128), rnd.randrange(64)
                draw.rectangle((x, y, x + rnd.randrange(12), y + rnd.randrange(12)),
                               fill=rnd.randrange(2) * 255)
            while not disp.show_part(img, rnd.choice((8, 48, 192))):
                pass
            assert panel.frame() == to_pages(img)


def test_an_adapter_that_refuses_several_messages_gets_them_one_by_one() -> None:
    """EOPNOTSUPP from a transfer of several messages (the kernel refuses before the bus): the
    same writes go again one per transfer, and so does every later part."""
    import errno

    class OneAtATime(RdwrBus):
        def i2c_rdwr(self, *messages: Any) -> None:
            if len(messages) > 1:
                raise OSError(errno.EOPNOTSUPP, "Operation not supported")
            super().i2c_rdwr(*messages)

    panel = Panel("ssd1306")
    bus = OneAtATime(panel)
    disp = StationDisplay(serial=I2cLink(bus=bus), driver="ssd1306")
    disp.show(big("4-7"))
    assert disp.show_part(big("5-8"), 192) and disp.healthy
    assert panel.frame() == to_pages(big("5-8"))
    calls = len(bus.calls)
    assert disp.show_part(big("6-9"), 192)
    assert panel.frame() == to_pages(big("6-9"))
    assert all(len(call) == 1 for call in bus.calls[calls:]) and len(bus.calls) > calls + 1
