"""Display writer threads: one per I2C controller, the acting station's frame first, only the
newest frame of a display, and the game thread never touching a bus (pitboard.hw.writer)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from pitboard.app import with_writers
from pitboard.hw.display import StationDisplay
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.hw.oled import to_pages
from pitboard.hw.writer import CHUNK_BYTES, URGENT_CHUNK_BYTES, BusWriter, QueuedDisplay
from pitboard.table.screens import render
from pitboard.table.table import Table
from rig import FakeClock, Panel, grid6_config


class ThreadPanel(Panel):
    """A decoding panel that notes which thread wrote to it."""

    def __init__(self) -> None:
        super().__init__("ssd1306")
        self.threads: set[str] = set()

    def command(self, *cmd: int) -> None:
        self.threads.add(threading.current_thread().name)
        super().command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        self.threads.add(threading.current_thread().name)
        super().data(data)


def picture(text: str) -> Image.Image:
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((4, 4), text, fill=1)
    return img


def test_the_acting_station_goes_first_and_only_the_newest_frame_is_sent() -> None:
    writer = BusWriter(name="I2C A", threaded=False)
    panels = [Panel("ssd1306") for _ in range(3)]
    screens = [writer.add(StationDisplay(serial=p, station=f"S{i + 1}"))
               for i, p in enumerate(panels)]
    screens[0].show(picture("old S1"))
    screens[1].show(picture("S2"))
    screens[0].show(picture("new S1"))  # replaces the frame not sent yet, keeps its place
    screens[2].show_first(picture("S3 acted"))
    assert writer.order() == ["S3", "S1", "S2"]
    writer.drain()
    assert writer.order() == [] and writer.coalesced == 1 and writer.sent == 3
    assert panels[0].frame() == to_pages(picture("new S1"))
    assert [p.frame() for p in panels[1:]] == [to_pages(picture("S2")),
                                               to_pages(picture("S3 acted"))]


def test_frames_go_out_on_the_writer_threads_never_the_game_thread() -> None:
    """Two controllers, two threads: each panel is written only by its controller's writer."""
    writers = [BusWriter(name="I2C A"), BusWriter(name="I2C B")]
    panels = [ThreadPanel() for _ in range(4)]
    screens = [writers[i // 2].add(StationDisplay(serial=p, station=f"S{i + 1}"))
               for i, p in enumerate(panels)]
    try:
        for i, screen in enumerate(screens):
            screen.show(picture(f"S{i + 1}"))
        assert all(w.flush(timeout=10) for w in writers)
        for i, panel in enumerate(panels):
            assert panel.threads == {f"display writer I2C {'AB'[i // 2]}"}
            assert panel.frame() == to_pages(picture(f"S{i + 1}"))
    finally:
        for w in writers:
            w.close()
    assert all(not p.on for p in panels)  # closing blanks every panel


def test_reinit_runs_on_the_writer_and_close_sends_what_is_queued() -> None:
    writer = BusWriter(name="I2C C", threaded=False)
    panel = Panel("ssd1306")
    screen = writer.add(StationDisplay(serial=panel, station="S5"))
    screen.show(picture("S5"))
    writer.drain()
    panel.power_on()  # the panel browned out: dark and blank
    screen.reinit()
    assert not panel.on  # nothing happens on the caller's thread
    writer.drain()
    assert panel.on and panel.frame() == to_pages(picture("S5"))
    screen.show(picture("last"))
    screen.close(blank=False)
    assert panel.frame() == to_pages(picture("last"))


def test_grid6_gets_one_writer_per_controller() -> None:
    config = grid6_config()
    displays = [StationDisplay(serial=Panel("ssd1306"), station=st.label)
                for st in config.stations]
    screens, writers = with_writers(config, displays, threaded=False)
    assert [w.name for w in writers] == ["I2C A", "I2C B", "I2C C"]
    assert all(isinstance(s, QueuedDisplay) for s in screens)
    assert [[s.station for s in screens if s.writer is w] for w in writers] == [
        ["S1", "S2"], ["S3", "S4"], ["S5", "S6"]]


def test_the_table_posts_the_acting_stations_frame_first() -> None:
    """A press at S5: its frame is the first to go out on its bus, ahead of the frames the same
    press changes on the other stations."""
    writer = BusWriter(name="I2C A", threaded=False)
    screens = [writer.add(StationDisplay(serial=Panel("ssd1306"), station=f"S{i + 1}"))
               for i in range(6)]
    table = Table(stations=6, screens=screens, render=render, seed=3)
    writer.drain()
    table.handle(SlotPressed(station=4, slot=0))  # S5 changes a lobby choice: all redraw
    order = writer.order()
    assert order[0] == "S5" and len(order) > 1
    writer.drain()
    assert writer.order() == []


class SnapshotPanel(Panel):
    """A decoding panel that keeps what the glass showed after every data write."""

    def __init__(self) -> None:
        super().__init__("ssd1306")
        self.snapshots: list[bytes] = []

    def data(self, data: Sequence[int]) -> None:
        super().data(data)
        self.snapshots.append(self.frame())


def screen(title: str, body: str) -> Image.Image:
    img = Image.new("1", (128, 64))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 127, 12), fill=1)
    d.text((2, 1), title, fill=0)
    for row in range(4):
        d.text((2, 18 + 11 * row), f"{body} {row} " * 3, fill=1)
    return img


def test_a_reinit_waits_behind_the_acting_stations_frame() -> None:
    """Another station's board reset costs a whole frame: it goes out after the press."""
    order: list[str] = []

    class Noted(Panel):
        def __init__(self, name: str) -> None:
            super().__init__("ssd1306")
            self.name = name

        def data(self, data: Sequence[int]) -> None:
            order.append(self.name)
            super().data(data)

    writer = BusWriter(name="I2C A", threaded=False)
    screens = [writer.add(StationDisplay(serial=Noted(f"S{i + 1}"), station=f"S{i + 1}"))
               for i in range(2)]
    for s in screens:
        s.show(picture("start"))
    writer.drain()
    order.clear()
    screens[1].reinit()
    screens[0].show_first(picture("S1 acted"))
    writer.drain()
    assert order[0] == "S1" and "S2" in order


def test_a_frame_posted_after_close_is_dropped() -> None:
    writer = BusWriter(name="I2C A", threaded=False)
    panel = Panel("ssd1306")
    screen_ = writer.add(StationDisplay(serial=panel, station="S1"))
    screen_.show(picture("last"))
    writer.close(blank=False)
    screen_.show(picture("too late"))
    assert writer.order() == [] and panel.frame() == to_pages(picture("last"))


class Noted(Panel):
    """A decoding panel that logs every transfer as (station, kind, payload length)."""

    def __init__(self, name: str, log: list[tuple[str, str, int]], driver: str = "ssd1306"
                 ) -> None:
        super().__init__(driver)
        self.name = name
        self.log = log

    def command(self, *cmd: int) -> None:
        self.log.append((self.name, "command", len(cmd)))
        super().command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        self.log.append((self.name, "data", len(data)))
        super().data(data)


def test_a_press_waits_behind_one_part_of_another_stations_frame() -> None:
    """S2's whole new screen goes out in parts of CHUNK_BYTES; S1's answer cuts in after the
    part on the wire, and S2 resumes with data transfers only (its RAM pointer stays put)."""
    log: list[tuple[str, str, int]] = []
    writer = BusWriter(name="I2C A", threaded=False)
    panels = [Noted(f"S{i + 1}", log) for i in range(2)]
    screens = [writer.add(StationDisplay(serial=p, station=p.name)) for p in panels]
    for s in screens:
        s.show(screen("PLANNING", "card"))
    writer.drain()
    log.clear()
    screens[1].show(screen("LOCKED IN", "wait"))
    assert writer.step()  # the first part of S2's frame is on the wire
    screens[0].show_first(picture("S1 acted"))
    writer.drain()
    stations = [name for name, _, _ in log]
    first_s1 = stations.index("S1")
    assert stations[:first_s1] == ["S2", "S2"]  # one window command, one part
    last_s1 = len(stations) - 1 - stations[::-1].index("S1")
    assert set(stations[first_s1:last_s1 + 1]) == {"S1"}  # nothing cuts into the answer
    assert all(n <= (CHUNK_BYTES if name == "S2" else URGENT_CHUNK_BYTES)
               for name, kind, n in log if kind == "data")
    # S2 resumed where it stopped: data only until its window was done
    after = [kind for name, kind, _ in log[last_s1 + 1:] if name == "S2"]
    assert after[0] == "data"
    assert panels[0].frame() == to_pages(picture("S1 acted"))
    assert panels[1].frame() == to_pages(screen("LOCKED IN", "wait"))
    assert writer.sent == 4 and writer.parts > 4


def test_a_newer_frame_replaces_a_part_sent_one() -> None:
    writer = BusWriter(name="I2C A", threaded=False)
    panel = Panel("ssd1306")
    display = writer.add(StationDisplay(serial=panel, station="S1"))
    display.show(screen("PLANNING", "card"))
    writer.drain()
    display.show(screen("LOCKED IN", "wait"))
    writer.step()
    display.show(screen("ROUND 4", "moved"))
    writer.drain()
    assert panel.frame() == to_pages(screen("ROUND 4", "moved"))


def test_a_first_edge_holds_other_stations_frames_until_the_answer_is_out() -> None:
    clock = FakeClock()
    log: list[tuple[str, str, int]] = []
    writer = BusWriter(name="I2C A", threaded=False, clock=clock)
    panels = [Noted(f"S{i + 1}", log) for i in range(2)]
    screens = [writer.add(StationDisplay(serial=p, station=p.name, clock=clock))
               for p in panels]
    for s in screens:
        s.show(screen("PLANNING", "card"))
    writer.drain()
    log.clear()
    screens[0].hold()  # S1's contact moved: its reads and answer come next
    screens[1].show(screen("LOCKED IN", "wait"))
    assert not writer.step() and log == []  # S2 waits
    screens[0].show_first(picture("S1 acted"))
    while writer.step():
        pass
    assert {name for name, _, _ in log} == {"S1", "S2"} and log[0][0] == "S1"
    assert panels[1].frame() == to_pages(screen("LOCKED IN", "wait"))
    # a hold nobody answers (a bounce the logic rejected) runs out by itself
    log.clear()
    screens[0].hold()
    screens[1].show(screen("ROUND 4", "moved"))
    assert not writer.step()
    clock.advance(0.021)
    assert writer.step() and log[0][0] == "S2"


def test_an_sh1106_frame_in_parts_resumes_its_page_run() -> None:
    log: list[tuple[str, str, int]] = []
    panel = Noted("S1", log, "sh1106")
    display = StationDisplay(serial=panel, driver="sh1106", station="S1")
    display.show(screen("PLANNING", "card"))
    log.clear()
    target = screen("LOCKED IN", "wait")
    parts = 1
    while not display.show_part(target, 40):
        parts += 1
    assert panel.frame() == to_pages(target) and parts > 8
    assert all(n <= 40 for _, kind, n in log if kind == "data")
    assert display.stats.frames_sent == 2


def test_a_busy_writer_still_polls_its_displays() -> None:
    """A faulty display's retry (and the periodic re-init) is due every poll period even while
    other stations' frames keep the bus busy."""
    clock = FakeClock()
    writer = BusWriter(name="I2C A", threaded=False, poll_s=0.1, clock=clock)
    dead = Panel("ssd1306")
    dead.unplug(OSError(121, "Remote I/O error"))
    busy, silent = (writer.add(StationDisplay(serial=p, station=f"S{i + 1}", clock=clock))
                    for i, p in enumerate((Panel("ssd1306"), dead)))
    silent.show(picture("S2"))
    writer.step()
    assert not silent.healthy
    dead.plug()
    for i in range(100):  # S1 redraws every 50 ms, never an idle moment
        clock.advance(0.05)
        busy.show(picture(f"frame {i}"))
        assert writer.step()
    assert silent.healthy and dead.frame() == to_pages(picture("S2"))


def test_the_grid6_app_draws_through_one_thread_per_controller(tmp_path: Path) -> None:
    """The device as `pitboard run` builds it, on the rig's register models: boot draws every
    station through its controller's writer thread (and waits until they are on the glass),
    a press at S4 is answered by controller B's thread, and closing stops every thread."""
    from gpiozero.pins.mock import MockFactory

    from pitboard.app import App
    from pitboard.hw.mcp23017 import Mcp23017Model
    from rig import station_bus

    config = grid6_config()
    chips = {station_bus(config, i): Mcp23017Model() for i in range(6)}
    panels = [ThreadPanel() for _ in range(6)]
    displays = [StationDisplay(serial=p, station=st.label)
                for p, st in zip(panels, config.stations, strict=True)]
    factory = MockFactory()
    app = App.build(config, journal=tmp_path / "j", pin_factory=factory, seed=1,
                    bus_factory=chips.__getitem__, displays=displays, writer_threads=True)
    threads = {t.name for t in threading.enumerate() if t.name.startswith("display writer")}
    try:
        assert [w.name for w in app.writers] == ["I2C A", "I2C B", "I2C C"]
        app.boot()
        for i, panel in enumerate(panels):
            assert panel.on and panel.threads == {f"display writer I2C {'ABC'[i // 2]}"}
        panels[3].threads.clear()
        app.table.handle(GoPressed(station=3))  # S4 joins the lobby
        assert all(w.flush(timeout=10) for w in app.writers)
        assert panels[3].threads == {"display writer I2C B"}
    finally:
        app.close()
        factory.reset()
    alive = {t.name for t in threading.enumerate() if t.name.startswith("display writer")}
    assert threads >= {"display writer I2C A", "display writer I2C B", "display writer I2C C"}
    assert not alive & threads
    assert not any(p.on for p in panels)  # blanked on close


def test_a_press_answer_is_never_replaced_before_it_is_on_the_glass() -> None:
    """GO answered with a small change (show_first), the whole new screen posted right after:
    both reach the glass, in that order, even when the answer is still part-sent."""
    writer = BusWriter(name="I2C A", threaded=False)
    panel = SnapshotPanel()
    display = writer.add(StationDisplay(serial=panel, station="S1"))
    display.show(screen("PLANNING", "card"))
    writer.drain()
    panel.snapshots.clear()
    answer = screen("PLANNING", "card")
    ImageDraw.Draw(answer).rectangle((0, 32, 40, 39), fill=1)  # the LOCKED mark
    display.show_first(answer)
    display.show(screen("REVEAL", "moved"))
    assert writer.order() == ["S1"]
    writer.drain()
    assert to_pages(answer) in panel.snapshots
    assert panel.frame() == to_pages(screen("REVEAL", "moved"))
    # posted while the answer is on the wire
    panel.snapshots.clear()
    big = screen("LOCKED IN", "wait")
    display.show_first(big)
    writer.step()
    display.show(screen("ROUND 5", "moved"))
    writer.drain()
    assert to_pages(big) in panel.snapshots
    assert panel.frame() == to_pages(screen("ROUND 5", "moved"))
