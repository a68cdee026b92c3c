"""Station OLED display faults on a fake clock: a bus error logged once and retried with backoff,
recovery, close, and the periodic re-initialisation of a panel that reset by itself."""

from __future__ import annotations

import logging

import luma.core.error
import pytest
from PIL import Image, ImageDraw

from displaykit import FakeClock, as_lists, make, random_image, stock_writes
from pitboard.hw.display import StationDisplay
from pitboard.hw.oled import BusWrite, to_pages

# -- fault tolerance -----------------------------------------------------------------------------


def test_transport_error_is_logged_once_and_retried_with_backoff(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock()
    disp, bus = make("ssd1306", clock=clock)
    img = Image.new("1", (128, 64))
    disp.show(img)

    bus.fail = OSError(121, "Remote I/O error")
    img.putpixel((1, 1), 1)
    with caplog.at_level(logging.DEBUG, logger="pitboard.hw.display"):
        disp.show(img)  # must not raise
        assert not disp.healthy
        assert disp.stats.errors == 1
        attempts = bus.attempts

        clock.now += 0.49  # before the 0.5 s backoff: not even tried
        disp.show(img)
        disp.poll()
        assert bus.attempts == attempts
        assert disp.stats.frames_deferred == 1

        clock.now += 0.01  # due: retried, fails again, backoff doubles to 1 s
        disp.poll()
        assert bus.attempts == attempts + 1
        assert disp.stats.errors == 2
        clock.now += 0.99
        disp.poll()
        assert bus.attempts == attempts + 1
        clock.now += 0.01
        disp.poll()
        assert bus.attempts == attempts + 2

    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert "red" in message and "Remote I/O error" in message


def test_backoff_doubles_to_thirty_seconds() -> None:
    clock = FakeClock()
    disp, bus = make("ssd1306", clock=clock)
    bus.fail = OSError(5, "Input/output error")
    disp.show(Image.new("1", (128, 64)))  # the panel is missing from the first frame on
    delays = []
    for _ in range(9):
        before = bus.attempts
        waited = 0.0
        while bus.attempts == before:
            clock.now += 0.25
            waited += 0.25
            disp.poll()
        delays.append(waited)
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    assert disp.stats.errors == 10


def test_recovery_sends_init_and_full_current_frame(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    disp, bus = make("sh1106", clock=clock)
    img = Image.new("1", (128, 64))
    disp.show(img)

    bus.fail = luma.core.error.DeviceNotFoundError("I2C device not found on address: 0x3C")
    img.putpixel((3, 3), 1)
    disp.show(img)
    ImageDraw.Draw(img).rectangle((0, 56, 20, 63), fill=1)  # newer frame while faulty
    disp.show(img)
    assert not disp.healthy

    bus.fail = None
    bus.writes.clear()
    clock.now += 0.5
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="pitboard.hw.display"):
        disp.poll()
    assert disp.healthy
    assert disp.stats.recoveries == 1
    n = len(disp.init_sequence)
    assert bus.writes[:n] == disp.init_sequence
    assert bus.writes[n:-1] == stock_writes("sh1106", img)  # full frame of the latest image
    assert bus.writes[-1] == BusWrite("command", bytes([0xAF]))
    assert [r.levelname for r in caplog.records] == ["INFO"]
    assert "recovered" in caplog.records[0].getMessage()

    bus.writes.clear()  # back to windowed updates
    img.putpixel((3, 3), 0)
    disp.show(img)
    assert as_lists(bus.writes) == [("command", [0xB0, 0x05, 0x10]), ("data", [0x00])]


def test_failure_after_command_forces_full_resend() -> None:
    clock = FakeClock()
    disp, bus = make("ssd1306", clock=clock)
    img = Image.new("1", (128, 64))
    disp.show(img)
    bus.fail, bus.fail_on = OSError(5, "Input/output error"), "data"
    img.putpixel((9, 9), 1)
    disp.show(img)
    assert not disp.healthy
    bus.fail = None
    bus.writes.clear()
    clock.now += 0.5
    disp.show(img)
    assert disp.healthy
    assert disp.stats.full_frames == 2
    assert bus.data_bytes == 1024


def test_unexpected_exceptions_are_not_swallowed() -> None:
    disp, bus = make("ssd1306")
    bus.fail = RuntimeError("bug")
    with pytest.raises(RuntimeError):
        disp.show(Image.new("1", (128, 64)))


def test_wrong_image_is_a_caller_error() -> None:
    disp, _ = make("ssd1306")
    with pytest.raises(ValueError):
        disp.show(Image.new("1", (64, 128)))
    with pytest.raises(ValueError):
        disp.show(Image.new("L", (128, 64)))


def test_close_blanks_and_cleans_up() -> None:
    disp, bus = make("ssd1306")
    disp.show(Image.new("1", (128, 64)))
    bus.writes.clear()
    disp.close()
    assert as_lists(bus.writes) == [("command", [0xAE])]
    assert bus.cleaned


def test_close_can_keep_picture_and_never_raises() -> None:
    disp, bus = make("ssd1306")
    disp.show(Image.new("1", (128, 64)))
    bus.writes.clear()
    disp.close(blank=False)
    assert bus.writes == []

    disp2, bus2 = make("ssd1306")
    disp2.show(Image.new("1", (128, 64)))
    bus2.fail = OSError(5, "Input/output error")
    disp2.close()  # healthy until now, the blank write fails: ignored


# -- periodic re-initialisation (a panel that reset by itself) ------------------------------------


def test_a_panel_that_reset_itself_is_lit_again_by_the_periodic_reinit() -> None:
    from rig import Panel

    clock = FakeClock()
    panel = Panel("ssd1306", clock=clock)
    disp = StationDisplay(serial=panel, driver="ssd1306", station="red", clock=clock)
    img = random_image((128, 64), 3)
    disp.show(img)
    assert panel.on and panel.frame() == to_pages(img)
    panel.power_on()  # brown-out: dark, RAM lost; no write failed, so nobody noticed
    assert not panel.on
    clock.now += 29.9
    disp.poll()
    assert not panel.on  # not due yet
    clock.now += 0.1
    writes = len(panel.writes)
    disp.poll()
    assert panel.on and panel.frame() == to_pages(img) and disp.stats.reinits == 1
    # the refresh of a lit panel leaves out luma's display-off: no blink on an intact panel
    assert all(w.payload[:1] != b"\xae" for w in panel.writes[writes:]
               if w.kind == "command")
    clock.now += 30
    disp.poll()
    assert disp.stats.reinits == 2


def test_reinit_on_request_redraws_at_once() -> None:
    from rig import Panel

    clock = FakeClock()
    panel = Panel("sh1106", clock=clock)
    disp = StationDisplay(serial=panel, driver="sh1106", station="red", clock=clock)
    img = random_image((128, 64), 4)
    disp.show(img)
    panel.power_on()
    disp.reinit()
    assert panel.on and panel.frame() == to_pages(img)


def test_backoff_never_exceeds_thirty_seconds() -> None:
    with pytest.raises(ValueError):
        make(backoff_max=31.0)
