"""The periodic re-init (and a re-init after a board reset) in parts: a press's answer cuts in
between them, and the glass ends up showing the picture whatever was drawn meanwhile
(pitboard.hw.display.StationDisplay.refresh_part, pitboard.hw.writer)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from pitboard.hw.display import REINIT_S, StationDisplay
from pitboard.hw.oled import to_pages
from pitboard.hw.writer import CHUNK_BYTES, REINIT_STAGGER_S, BusWriter, QueuedDisplay
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
    clock, writer, panels, _, screens, log = rig(2)
    clock.advance(REINIT_S + REINIT_STAGGER_S)
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


def rig(n: int, driver: str = "ssd1306") -> tuple[
        FakeClock, BusWriter, list[Noted], list[StationDisplay], list[QueuedDisplay],
        list[tuple[str, str, int]]]:
    """``n`` stations on one controller, each showing its name, the log cleared."""
    clock = FakeClock()
    log: list[tuple[str, str, int]] = []
    writer = BusWriter(name="I2C A", threaded=False, clock=clock)
    panels = [Noted(f"S{i + 1}", log, driver) for i in range(n)]
    displays = [StationDisplay(serial=p, driver=driver,  # type: ignore[arg-type]
                               station=p.name, clock=clock) for p in panels]
    screens = [writer.add(d) for d in displays]
    for i, s in enumerate(screens):
        s.show(picture(f"S{i + 1}"))
    writer.drain()
    log.clear()
    return clock, writer, panels, displays, screens, log


def test_re_inits_fall_due_apart_and_go_out_behind_station_frames() -> None:
    clock, writer, panels, displays, screens, log = rig(3)
    clock.advance(REINIT_S)
    assert [d.refresh_due() for d in displays] == [True, False, False]  # staggered by slot
    clock.advance(2 * REINIT_STAGGER_S)
    assert all(d.refresh_due() for d in displays)
    writer.poll()  # three ~1 KB refreshes queued
    screens[2].show(picture("S3 reveal"))  # another station's ordinary frame comes now
    reveal = to_pages(picture("S3 reveal"))
    while panels[2].frame() != reveal:
        assert writer.step()
    assert {name for name, _, _ in log} == {"S3"}, "a refresh went out ahead of the reveal"
    writer.drain()
    assert all(d.stats.reinits == 1 and not d.refreshing for d in displays)
    assert [p.frame() for p in panels] == [to_pages(picture("S1")), to_pages(picture("S2")),
                                           reveal]


def test_another_stations_answer_does_not_end_a_hold() -> None:
    clock, writer, panels, _, screens, log = rig(3)
    screens[0].show_first(picture("S1 acted"))
    screens[1].hold()  # S2's contact moved: its confirming read and answer come next
    screens[2].show(picture("S3 big", fill=1))
    while writer.step():
        pass
    assert {name for name, _, _ in log} == {"S1"}  # S3's frame waits for S2's answer
    screens[1].show_first(picture("S2 acted"))
    while writer.step():
        pass
    assert next(name for name, _, _ in log if name != "S1") == "S2"
    assert panels[2].frame() == to_pages(picture("S3 big", fill=1))
    # a hold nobody answers runs out by itself
    log.clear()
    screens[1].hold()
    screens[2].show(picture("S3"))
    assert not writer.step()
    clock.advance(0.021)
    assert writer.step() and log[0][0] == "S3"


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_an_answer_during_its_own_refresh_sends_what_changed_not_the_stale_ram(
        driver: str) -> None:
    clock, writer, panels, displays, screens, log = rig(2, driver)
    clock.advance(REINIT_S)
    writer.poll()
    writer.step()  # S1's init and the first part of its refresh
    assert displays[0].refreshing
    mark = len(log)
    answer = picture("S1")
    ImageDraw.Draw(answer).point((3, 3), fill=1)  # one pixel, in RAM the refresh has rewritten
    screens[0].show_first(answer)
    sent = writer.sent
    while writer.sent == sent:
        writer.step()
    assert sum(n for _, kind, n in log[mark:] if kind == "data") == 1
    # one pixel the refresh has not reached yet: the refresh writes it, before S2's frame (a
    # new image: a frame handed to a display is never drawn on again, StationDisplay._pages)
    answer = answer.copy()
    ImageDraw.Draw(answer).point((100, 60), fill=1)
    screens[1].show(picture("S2 later"))
    screens[0].show_first(answer)
    mark = len(log)
    while panels[0].frame() != to_pages(answer):
        assert writer.step()
    assert {name for name, _, _ in log[mark:]} == {"S1"}
    s1 = [n for name, kind, n in log[mark:] if kind == "data"]
    # the rest of the refresh (from the start of the page its pointer left): each byte once
    assert max(s1) <= CHUNK_BYTES and sum(s1) <= 1024
    writer.drain()
    assert not displays[0].refreshing and panels[0].on
    assert panels[1].frame() == to_pages(picture("S2 later"))


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_re_init_asked_for_during_a_refresh_starts_it_over(driver: str) -> None:
    clock, writer, panels, displays, screens, _ = rig(1, driver)
    clock.advance(REINIT_S)
    writer.poll()
    for _ in range(4):
        writer.step()  # the periodic refresh: init and 3 parts
    assert displays[0].refreshing
    panels[0].power_on()  # a brown-out now: set-up and picture gone
    panels[0].ram[:] = bytes([0x5A]) * len(panels[0].ram)
    screens[0].reinit()  # the station's board was found reset: the app asks again
    writer.drain()
    assert panels[0].on and panels[0].frame() == to_pages(picture("S1"))
    assert displays[0].stats.reinits == 2


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_after_a_fault_the_picture_comes_back_in_parts(driver: str) -> None:
    clock, writer, panels, displays, screens, log = rig(2, driver)
    panels[0].unplug(OSError(121, "Remote I/O error"))
    screens[0].show(picture("S1 new"))
    writer.drain()
    assert not displays[0].healthy
    panels[0].plug()  # a dark, uninitialised panel
    clock.advance(60)
    log.clear()
    writer.poll()  # the retry is due: queued like a re-init, not sent whole
    assert log == []
    assert writer.step() and displays[0].healthy  # init and the first part
    screens[1].show_first(picture("S2 acted"))
    mark = len(log)
    writer.step()
    assert {name for name, _, _ in log[mark:]} == {"S2"}  # a press cuts in
    writer.drain()
    assert panels[0].on and panels[0].frame() == to_pages(picture("S1 new"))
    assert all(n <= CHUNK_BYTES for name, kind, n in log if kind == "data" and name == "S1")
    assert displays[0].stats.recoveries == 1
