"""The periodic re-init (and a re-init after a board reset) in parts: a press's answer cuts in
between them, and the glass ends up showing the picture whatever was drawn meanwhile
(pitboard.hw.display.StationDisplay.refresh_part, pitboard.hw.writer)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from pitboard.hw.display import REINIT_S, StationDisplay
from pitboard.hw.oled import to_pages
from pitboard.hw.writer import CHUNK_BYTES, BusWriter
from rig import FakeClock, Panel
from test_writer import Noted


def picture(text: str, *, fill: int = 0) -> Image.Image:
    img = Image.new("1", (128, 64), fill)
    ImageDraw.Draw(img).text((4, 20), text, fill=1 - fill)
    return img


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_refresh_in_parts_leaves_the_picture_and_survives_a_frame_in_between(
        driver: str) -> None:
    clock = FakeClock()
    panel = Panel(driver)
    display = StationDisplay(serial=panel, driver=driver,  # type: ignore[arg-type]
                             station="S1", clock=clock)
    display.show(picture("before"))
    panel.power_on()  # a brown-out: the controller forgot its set-up and the picture
    panel.ram[:] = bytes([0x5A]) * len(panel.ram)
    clock.advance(REINIT_S)
    assert display.refresh_due()
    assert not display.refresh_part(100)
    # a new frame (inverted: every byte is the complement of the old) while RAM is half known
    after = picture("after", fill=1)
    while not display.show_part(after, 40):
        pass
    parts = 1
    while not display.refresh_part(100):
        parts += 1
    assert parts >= 5 and panel.frame() == to_pages(after) and panel.on
    assert not display.refresh_due() and display.stats.reinits == 1


def test_a_press_cuts_into_another_stations_refresh() -> None:
    clock = FakeClock()
    log: list[tuple[str, str, int]] = []
    writer = BusWriter(name="I2C A", threaded=False, clock=clock)
    panels = [Noted(f"S{i + 1}", log) for i in range(2)]
    screens = [writer.add(StationDisplay(serial=p, station=p.name, clock=clock))
               for p in panels]
    for i, s in enumerate(screens):
        s.show(picture(f"S{i + 1}"))
    writer.drain()
    log.clear()
    clock.advance(REINIT_S)
    writer.poll()  # both due: queued as re-inits, not sent whole
    assert log == []
    assert writer.step() and log[-1][0] == "S1"  # S1's init and its first part
    screens[1].show_first(picture("S2 acted"))
    mark = len(log)
    writer.step()
    assert {name for name, _, _ in log[mark:]} == {"S2"}  # S2's answer, not S1's refresh
    writer.drain()
    assert panels[0].frame() == to_pages(picture("S1"))
    assert panels[1].frame() == to_pages(picture("S2 acted"))
    assert all(n <= 128 for _, kind, n in log if kind == "data"), [x for x in log if x[2] > 128]
    assert writer.order() == [] and all(s.stats.reinits == 1 for s in screens)
    assert all(n <= CHUNK_BYTES for name, kind, n in log if kind == "data" and name == "S1")
