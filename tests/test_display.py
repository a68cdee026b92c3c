"""Station OLED display layer: exact bytes through a recording serial, per controller and
rotation; the emulated display and the factory."""

from __future__ import annotations

import random

import luma.core.error
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw

from displaykit import FlakySerial, PanelRam, as_lists, make, random_image, stock, stock_writes
from pitboard.hw.display import (
    DRIVERS,
    Display,
    Driver,
    EmulatedDisplay,
    StationDisplay,
    open_display,
)
from pitboard.hw.oled import (
    I2C_RDWR_BLOCK,
    SMBUS_BLOCK,
    BusWrite,
    PageSpan,
    RecordingSerial,
    Window,
    changed_spans,
    i2c_cost,
    plan_windows,
    to_pages,
)

# -- page conversion -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_to_pages_matches_luma_ssd1306(seed: int) -> None:
    img = random_image((128, 64), seed)
    writes = stock_writes("ssd1306", img)
    assert writes[-1].kind == "data"
    assert to_pages(img) == writes[-1].payload


@pytest.mark.parametrize("fill", [0, 1])
def test_to_pages_solid(fill: int) -> None:
    assert to_pages(Image.new("1", (128, 64), fill)) == bytes([0xFF * fill]) * 1024


def test_to_pages_matches_luma_sh1106() -> None:
    img = random_image((128, 64), 42)
    data = b"".join(w.payload for w in stock_writes("sh1106", img) if w.kind == "data")
    assert to_pages(img) == data


def test_to_pages_rejects_wrong_image() -> None:
    with pytest.raises(ValueError):
        to_pages(Image.new("L", (128, 64)))
    with pytest.raises(ValueError):
        to_pages(Image.new("1", (64, 128)))


def test_changed_spans_edges() -> None:
    a = bytes(1024)
    b = bytearray(a)
    b[0] = 1
    b[127] = 0x80
    b[7 * 128 + 64] = 0x10
    assert changed_spans(a, bytes(b)) == [PageSpan(0, 0, 127), PageSpan(7, 64, 64)]
    assert changed_spans(a, a) == []


def test_plan_windows_merges_adjacent_and_splits_distant() -> None:
    digit = [PageSpan(1, 10, 25), PageSpan(2, 10, 25), PageSpan(3, 11, 24)]
    assert plan_windows(digit) == [Window(1, 3, 10, 25)]
    far = [PageSpan(0, 0, 3), PageSpan(7, 120, 127)]
    assert plan_windows(far) == [Window(0, 0, 0, 3), Window(7, 7, 120, 127)]
    assert plan_windows([]) == []


# -- exact bytes: SSD1306 ------------------------------------------------------------------------


def test_first_frame_is_init_plus_stock_full_frame_ssd1306() -> None:
    disp, bus = make("ssd1306")
    img = random_image((128, 64), 7)
    disp.show(img)

    ref_dev, ref = stock("ssd1306")
    ref_dev.display(img)
    constructor = RecordingSerial()
    ssd1306(serial_interface=constructor).persist = True

    # luma's constructor = init commands, blank frame (2 writes), display-on
    assert bus.writes[: len(disp.init_sequence)] == constructor.writes[:-3]
    assert bus.writes[len(disp.init_sequence) : -1] == ref.writes  # same commands and data
    assert bus.writes[-1] == BusWrite("command", bytes([0xAF]))
    assert disp.init_sequence[0].payload[0] == 0xAE  # starts with display off
    assert disp.stats.full_frames == 1 and disp.stats.frames_sent == 1
    assert disp.stats.bytes_sent == bus.command_bytes + bus.data_bytes
    assert disp.healthy


def test_unchanged_frame_sends_nothing() -> None:
    disp, bus = make("ssd1306")
    img = random_image((128, 64), 3)
    disp.show(img)
    bus.writes.clear()
    disp.show(img.copy())
    assert bus.writes == []
    assert disp.stats.frames_skipped == 1 and disp.stats.frames_sent == 1


def test_one_pixel_sends_one_byte_window_ssd1306() -> None:
    disp, bus = make("ssd1306")
    img = Image.new("1", (128, 64))
    disp.show(img)
    bus.writes.clear()
    img.putpixel((100, 45), 1)  # page 5, bit 5
    disp.show(img)
    assert as_lists(bus.writes) == [
        ("command", [0x21, 100, 100, 0x22, 5, 5]),
        ("data", [0x20]),
    ]
    bus.writes.clear()
    img.putpixel((100, 45), 0)
    disp.show(img)
    assert as_lists(bus.writes) == [("command", [0x21, 100, 100, 0x22, 5, 5]), ("data", [0])]


def test_two_distant_changes_send_two_windows() -> None:
    disp, bus = make("ssd1306")
    img = Image.new("1", (128, 64))
    disp.show(img)
    bus.writes.clear()
    img.putpixel((0, 0), 1)
    img.putpixel((127, 63), 1)
    disp.show(img)
    assert as_lists(bus.writes) == [
        ("command", [0x21, 0, 0, 0x22, 0, 0]),
        ("data", [0x01]),
        ("command", [0x21, 127, 127, 0x22, 7, 7]),
        ("data", [0x80]),
    ]


def test_tall_change_is_one_window_in_page_major_order() -> None:
    disp, bus = make("ssd1306")
    img = Image.new("1", (128, 64))
    disp.show(img)
    bus.writes.clear()
    ImageDraw.Draw(img).rectangle((10, 12, 11, 20), fill=1)  # y 12..20: pages 1, 2
    disp.show(img)
    assert as_lists(bus.writes) == [
        ("command", [0x21, 10, 11, 0x22, 1, 2]),
        ("data", [0xF0, 0xF0, 0x1F, 0x1F]),
    ]


# -- exact bytes: SH1106 -------------------------------------------------------------------------


def test_first_frame_sh1106_matches_stock() -> None:
    disp, bus = make("sh1106")
    img = random_image((128, 64), 11)
    disp.show(img)
    ref = stock_writes("sh1106", img)
    body = bus.writes[len(disp.init_sequence) : -1]
    assert body == ref
    assert as_lists(body[:2])[0] == ("command", [0xB0, 0x02, 0x10])
    assert bus.writes[-1] == BusWrite("command", bytes([0xAF]))


@pytest.mark.parametrize(
    ("x", "y", "cmd", "data"),
    [
        (5, 9, [0xB1, 0x07, 0x10], [0x02]),  # column 5 + 2 = 7
        (14, 0, [0xB0, 0x00, 0x11], [0x01]),  # column 16: low nibble 0, high nibble 1
        (127, 63, [0xB7, 0x01, 0x18], [0x80]),  # column 129 = 0x81
    ],
)
def test_one_pixel_sh1106_offset_and_page_commands(
    x: int, y: int, cmd: list[int], data: list[int]
) -> None:
    disp, bus = make("sh1106")
    img = Image.new("1", (128, 64))
    disp.show(img)
    bus.writes.clear()
    img.putpixel((x, y), 1)
    disp.show(img)
    assert as_lists(bus.writes) == [("command", cmd), ("data", data)]


def test_sh1106_sends_one_run_per_changed_page() -> None:
    disp, bus = make("sh1106")
    img = Image.new("1", (128, 64))
    disp.show(img)
    bus.writes.clear()
    ImageDraw.Draw(img).rectangle((20, 6, 22, 9), fill=1)  # pages 0 and 1, columns 20..22
    disp.show(img)
    assert as_lists(bus.writes) == [
        ("command", [0xB0, 0x06, 0x11]),
        ("data", [0xC0, 0xC0, 0xC0]),
        ("command", [0xB1, 0x06, 0x11]),
        ("data", [0x03, 0x03, 0x03]),
    ]


# -- rotation ------------------------------------------------------------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_rotation_full_frame_matches_stock(driver: Driver, rotate: int) -> None:
    disp, bus = make(driver, rotate)
    assert disp.size == ((128, 64) if rotate % 2 == 0 else (64, 128))
    img = random_image(disp.size, 100 + rotate)
    disp.show(img)
    assert bus.writes[len(disp.init_sequence) : -1] == stock_writes(driver, img, rotate)


@pytest.mark.parametrize(
    ("rotate", "expected"),
    [
        (0, [0x21, 0, 0, 0x22, 0, 0]),  # logical (0,0) is panel (0,0)
        (1, [0x21, 127, 127, 0x22, 0, 0]),  # 90° clockwise: top-left goes to top-right
        (2, [0x21, 127, 127, 0x22, 7, 7]),  # upside down
        (3, [0x21, 0, 0, 0x22, 7, 7]),
    ],
)
def test_rotation_moves_window(rotate: int, expected: list[int]) -> None:
    disp, bus = make("ssd1306", rotate)
    img = Image.new("1", disp.size)
    disp.show(img)
    bus.writes.clear()
    img.putpixel((0, 0), 1)
    disp.show(img)
    assert as_lists(bus.writes)[0] == ("command", expected)
    assert len(bus.writes) == 2 and len(bus.writes[1].payload) == 1


@settings(max_examples=60, deadline=None)
@given(
    driver=st.sampled_from(DRIVERS),
    rotate=st.integers(0, 3),
    edits=st.lists(
        st.tuples(st.integers(0, 127), st.integers(0, 127), st.integers(0, 40),
                  st.integers(0, 40), st.integers(0, 2)),
        min_size=1,
        max_size=8,
    ),
)
def test_panel_ram_always_equals_wanted_frame(
    driver: Driver, rotate: int, edits: list[tuple[int, int, int, int, int]]
) -> None:
    """Whatever changes, replaying our writes on simulated RAM gives luma's full frame."""
    disp, bus = make(driver, rotate)
    panel = PanelRam(driver)
    ref_dev, _ = stock(driver, rotate)
    img = Image.new("1", disp.size)
    w, h = disp.size
    for x, y, dw, dh, op in edits:
        box = (x % w, y % h, min(w - 1, x % w + dw), min(h - 1, y % h + dh))
        if op == 2:
            inverted = Image.eval(img.crop(box).convert("L"), lambda v: 255 - v).convert("1")
            img.paste(inverted, box[:2])
        else:
            ImageDraw.Draw(img).rectangle(box, fill=op)
        bus.writes.clear()
        disp.show(img)
        panel.apply(bus.writes)
        assert panel.frame() == to_pages(ref_dev.preprocess(img))


# -- emulated display ----------------------------------------------------------------------------


def test_emulated_display_keeps_image() -> None:
    disp = EmulatedDisplay(station="blue")
    assert disp.image is None and disp.healthy and disp.size == (128, 64)
    img = random_image((128, 64), 5)
    disp.show(img)
    disp.show(img.copy())
    assert disp.frames == 1 and disp.stats.frames_skipped == 1
    kept = disp.image
    assert kept is not None and kept.tobytes() == img.tobytes()
    img.putpixel((0, 0), 1 - int(img.getpixel((0, 0)) != 0))
    disp.show(img)
    assert disp.frames == 2
    disp.poll()
    disp.close()
    assert disp.closed and disp.image is None


def test_emulated_display_rotation_matches_luma() -> None:
    disp = EmulatedDisplay(rotate=1)
    assert disp.size == (64, 128)
    img = random_image((64, 128), 9)
    disp.show(img)
    ref_dev, _ = stock("ssd1306", rotate=1)
    panel = disp.panel_image
    assert panel is not None and panel.size == (128, 64)
    assert to_pages(panel) == to_pages(ref_dev.preprocess(img))
    with pytest.raises(ValueError):
        disp.show(Image.new("1", (128, 64)))


# -- factory and bus accounting ------------------------------------------------------------------


def test_open_display_with_injected_serial() -> None:
    bus = FlakySerial()
    disp = open_display(driver="sh1106", bus="i2c", port=3, address=0x3C, rotate=2, serial=bus,
                        station="green")
    assert isinstance(disp, StationDisplay)
    assert disp.driver == "sh1106" and disp.size == (128, 64) and disp.device.persist
    assert bus.writes == []  # building a display never touches the bus
    with pytest.raises(ValueError):
        open_display(driver="ssd1316", bus="i2c", port=1, address=0x3C, serial=bus)
    with pytest.raises(ValueError):
        open_display(driver="ssd1306", bus="uart", port=1, address=0x3C, serial=bus)


def test_both_displays_satisfy_the_table_interface() -> None:
    displays: list[Display] = [make("ssd1306")[0], EmulatedDisplay()]  # checked by mypy
    for disp in displays:
        disp.show(Image.new("1", disp.size))
        assert disp.healthy and disp.stats.frames_sent == 1


def test_open_display_missing_bus_fails_loudly() -> None:
    with pytest.raises(luma.core.error.DeviceNotFoundError):
        open_display(driver="ssd1306", bus="i2c", port=250, address=0x3C)


def test_i2c_cost_of_stock_full_frame() -> None:
    writes = stock_writes("ssd1306", random_image((128, 64), 1))
    smbus = i2c_cost(writes, block_size=SMBUS_BLOCK)
    assert (smbus.transactions, smbus.payload_bytes, smbus.bus_bytes) == (33, 1030, 1096)
    rdwr = i2c_cost(writes, block_size=I2C_RDWR_BLOCK)
    assert (rdwr.transactions, rdwr.bus_bytes) == (2, 1034)
    assert rdwr.clocks == 9 * 1034 + 2 * 2
    assert rdwr.seconds(100_000) == pytest.approx(4 * rdwr.seconds(400_000))


def test_i2c_cost_of_one_pixel() -> None:
    cost = i2c_cost([BusWrite("command", bytes(6)), BusWrite("data", bytes(1))])
    assert (cost.transactions, cost.payload_bytes, cost.bus_bytes) == (2, 7, 11)
    assert i2c_cost([BusWrite("data", b"")]).transactions == 0
    with pytest.raises(ValueError):
        i2c_cost([], block_size=0)


# -- controllers and column offsets ----------------------------------------------------------------


@pytest.mark.parametrize(("driver", "offset"),
                         [("ssd1306", 2), ("ssd1309", 2), ("sh1106", 0), ("sh1106", 2),
                          ("sh1106", 4)])
def test_partial_updates_land_right_on_each_controller(driver: Driver, offset: int) -> None:
    """Replaying our bytes on each controller's RAM model (with the module's real column
    offset) gives the wanted picture after every partial update."""
    disp, bus = make(driver, column_offset=offset)
    panel = PanelRam(driver, offset)
    img = Image.new("1", disp.size)
    rnd = random.Random(offset)
    for _ in range(12):
        x, y = rnd.randrange(120), rnd.randrange(56)
        ImageDraw.Draw(img).rectangle((x, y, x + rnd.randrange(8), y + rnd.randrange(8)),
                                      fill=rnd.randrange(2))
        bus.writes.clear()
        disp.show(img)
        panel.apply(bus.writes)
        assert panel.frame() == to_pages(img)


def test_a_wrong_column_offset_shifts_the_picture() -> None:
    """What the hw-test pattern makes visible: SH1106 bytes for offset 2 on a module wired
    for offset 0 land two columns to the right."""
    disp, bus = make("sh1106", column_offset=2)
    panel = PanelRam("sh1106", offset=0)
    img = Image.new("1", (128, 64))
    img.putpixel((0, 0), 1)
    disp.show(img)
    panel.apply(bus.writes)
    assert panel.frame()[2] == 1 and panel.frame()[0] == 0


def test_ssd1306_windows_garble_an_sh1106() -> None:
    """Why the profile must name the controller: SSD1306 window commands mean nothing to an
    SH1106 (page addressing only), so a partial update lands in the wrong place."""
    disp, bus = make("ssd1306")
    panel = PanelRam("sh1106")
    img = Image.new("1", (128, 64))
    disp.show(img)
    panel.apply(bus.writes)
    bus.writes.clear()
    img.putpixel((70, 40), 1)
    disp.show(img)
    panel.apply(bus.writes)
    assert panel.frame() != to_pages(img)


def test_ssd1309_first_frame_is_lumas() -> None:
    disp, bus = make("ssd1309")
    img = random_image((128, 64), 7)
    disp.show(img)
    ours = [w for w in bus.writes if w.kind == "data"]
    assert b"".join(w.payload for w in ours) == to_pages(img)
    assert disp.driver == "ssd1309" and disp.init_sequence


def test_column_offset_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="column_offset"):
        make("sh1106", column_offset=5)
