"""Station OLED displays: windowed updates, interchangeable transports, fault tolerance.

(The :class:`Display` interface, its counters and :class:`EmulatedDisplay` are in
:mod:`pitboard.hw.display_base`; the controllers' knowledge (luma's device, window and page
commands, which RAM to send) in :mod:`pitboard.hw.display_chip`; the batching of a part's writes
into one kernel transfer and the fault back-off in :mod:`pitboard.hw.display_link`. Every
public name is re-exported here.)

The table hands every station a finished 128×64 mode ``"1"`` PIL image (in the station's logical
orientation) through :meth:`StationDisplay.show`. Stock luma resends all 1024 bytes on every
``display()``; here only the RAM window that changed goes out, so a card toggle costs a few dozen
bytes instead of ~1 KB (≈ 23 ms at 400 kHz, shared by all stations on one bus).

Design decisions:

* **One kernel transfer per part; faults never stop the table**: see
  :mod:`pitboard.hw.display_link`.
* **luma owns the chip knowledge, we own the bus.** The luma device (``ssd1306``/``sh1106``) is
  built over a :class:`~pitboard.hw.oled.RecordingSerial`, never over the real transport: its
  constructor's writes are captured as the init sequence, and its ``preprocess()`` does rotation.
  Everything that reaches the panel goes through :class:`StationDisplay`, so the shadow copy is
  always the truth and building a display never touches the bus (a panel that is missing at boot
  is just a faulty display, not a crash).
* **A panel that reset by itself is brought back.** An OLED that browns out or takes a static
  discharge comes back dark and uninitialised, and nothing on I2C says so (the modules cannot be
  read). So every ``reinit_s`` (30 s) :meth:`StationDisplay.poll` sends the init sequence again,
  without switching the panel off, followed by the current frame: an intact panel shows no
  change, a reset one lights up again. :meth:`StationDisplay.reinit` does the same at once; the
  app calls it when the station's input board reports a reset or comes back from a fault (the
  same cable feeds both). The back-off after a fault resets as soon as the display answers and
  never waits more than 30 s (:data:`BACKOFF_MAX_S`).
* **Blanking on exit is explicit.** ``persist = True`` on the luma device disables luma's atexit
  hook, which would otherwise talk to a bus at interpreter shutdown (and block on a dead
  display). On an orderly shutdown the table calls :meth:`StationDisplay.close` — by default it
  switches the panel off (one ``0xAE`` command): a Raspberry Pi keeps its 3V3 rail up after
  halt, and a frozen last frame would both burn into the OLED and look like a live table. A
  crash or watchdog kill leaves the last frame up; the restart re-initialises and redraws.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from pitboard.hw.display_base import (
    Display,
    DisplayStats,
    EmulatedDisplay,
    SerialInterface,
    _check_image,
)
from pitboard.hw.display_chip import (
    DISPLAY_OFF,
    DRIVERS,
    SH1106_COLUMN_OFFSET,
    WINDOWED_DRIVERS,
    Driver,
    RamRun,
    lit_init,
    luma_device,
    next_run,
    page_command,
    ram_windows,
    split_init,
    window_command,
)
from pitboard.hw.display_link import BACKOFF_MAX_S, TRANSPORT_ERRORS, PanelLink
from pitboard.hw.oled import (
    FULL_WINDOW,
    PAGES,
    PANEL_WIDTH,
    BusWrite,
    PageSpan,
    RecordingSerial,
    Window,
    changed_spans,
    to_pages,
)

__all__ = [
    "BACKOFF_MAX_S",
    "DRIVERS",
    "REINIT_S",
    "SH1106_COLUMN_OFFSET",
    "TRANSPORT_ERRORS",
    "WINDOWED_DRIVERS",
    "Display",
    "DisplayStats",
    "Driver",
    "EmulatedDisplay",
    "SerialInterface",
    "StationDisplay",
    "open_display",
]

log = logging.getLogger(__name__)

#: how often a healthy display is initialised again (s): see the module docstring
REINIT_S = 30.0


class StationDisplay(PanelLink):
    """One station's physical OLED, updated in changed windows only.

    Owns a luma ``ssd1306``/``sh1106`` device (for its init sequence and rotation) and talks to the
    panel only through ``serial``: luma's ``i2c``/``spi`` in production, a recording fake in tests.
    :meth:`show` never raises on transport faults; see :attr:`healthy` and :attr:`stats`.
    Not thread-safe: one thread drives each display (its controller's writer thread,
    :mod:`pitboard.hw.writer`, or the table's loop when it has none).

    Example::

        >>> from PIL import Image, ImageDraw
        >>> from pitboard.hw.oled import RecordingSerial
        >>> bus = RecordingSerial()
        >>> disp = StationDisplay(serial=bus, driver="ssd1306", station="red")
        >>> img = Image.new("1", disp.size)
        >>> disp.show(img)                         # first frame: init + full 1024 bytes
        >>> ImageDraw.Draw(img).point((5, 9), fill=1)
        >>> bus.writes.clear(); disp.show(img)     # one pixel: a 1-page x 1-column window
        >>> [(w.kind, list(w.payload)) for w in bus.writes]
        [('command', [33, 5, 5, 34, 1, 1]), ('data', [2])]
    """

    def __init__(
        self,
        *,
        serial: SerialInterface,
        driver: Driver = "ssd1306",
        rotate: int = 0,
        station: str = "",
        column_offset: int = SH1106_COLUMN_OFFSET,
        clock: Callable[[], float] = time.monotonic,
        backoff_initial: float = 0.5,
        backoff_max: float = BACKOFF_MAX_S,
        reinit_s: float | None = REINIT_S,
        logger: logging.Logger | None = None,
    ) -> None:
        if rotate not in (0, 1, 2, 3):
            raise ValueError(f"rotate must be 0..3, got {rotate}")
        if reinit_s is not None and reinit_s <= 0:
            raise ValueError("reinit_s must be positive (or None: never)")
        super().__init__(serial=serial, station=station, clock=clock,
                         backoff_initial=backoff_initial, backoff_max=backoff_max,
                         logger=logger or log)
        self._reinit_s = reinit_s
        self.driver: Driver = driver

        recorder = RecordingSerial()
        if not 0 <= column_offset <= 4:
            raise ValueError(f"column_offset must be 0..4, got {column_offset}")
        #: sh1106: RAM column of the panel's first pixel column (unused by the others)
        self.column_offset = column_offset
        self.device: Any = luma_device(driver, rotate, recorder, column_offset)
        self.device.persist = True  # see module docstring: no luma atexit blanking
        construct = list(recorder.writes)
        recorder.writes.clear()
        self.device.clear()
        self._init, self._finish = split_init(construct, recorder.writes)

        self._wanted: bytes | None = None  # latest frame asked for (page format)
        self._shadow: bytes | None = None  # what the panel RAM holds; None = unknown
        self._next_reinit: float | None = None  # set by the first full frame
        self._refresh = False  # the next full frame keeps the panel on (periodic re-init)
        #: show_part: the RAM run being written (its frame, command, RAM indices, sent so far)
        self._run: RamRun | None = None
        #: refresh_part: the next RAM index the refresh rewrites (the panel was initialised
        #: again and the picture is going out in parts); None: no refresh under way
        self._unknown: int | None = None
        #: during a refresh, 1 for every RAM byte not rewritten since the init (its content is
        #: unknown: every diff must send it)
        self._stale: bytearray | None = None
        #: refresh_part: the controller's RAM pointer is at ``_unknown`` (nothing moved it)
        self._refresh_pointer = False
        #: how much later than ``reinit_s`` the first periodic re-init falls (stagger_refresh)
        self._reinit_phase = 0.0
        #: show_part: the image last converted and its pages (see _pages)
        self._converted: tuple[Image.Image, bytes] | None = None

    @property
    def size(self) -> tuple[int, int]:
        """Logical image size: (128, 64), or (64, 128) when rotated by 90°/270°."""
        size: tuple[int, int] = self.device.size
        return size

    @property
    def init_sequence(self) -> list[BusWrite]:
        """Writes sent before the full frame on first use and on recovery (luma's init)."""
        return list(self._init)

    def show(self, image: Image.Image) -> None:
        """Send what changed in ``image`` (mode ``"1"``, :attr:`size`); never raises on faults.

        Raises ``ValueError`` for a wrong size or mode, which is a caller bug.
        """
        _check_image(image, self.size)
        self._wanted = to_pages(self.device.preprocess(image))
        self._flush()

    def show_part(self, image: Image.Image, max_bytes: int) -> bool:
        """Send at most ``max_bytes`` of the RAM bytes that still differ from ``image`` (plus
        the window command when a run starts); True when the panel now shows ``image``.

        The display writer calls this again and again, taking other (more urgent) frames in
        between, so one station's big frame holds the bus for one part at a time. A run cut
        short resumes with a data transfer only: the controller's RAM pointer is where the last
        part left it (only this object writes to this panel). Parts go out top page first, so
        the top band of a new screen is on the glass first. ``image`` is not drawn on once
        handed over (it is converted once for all its parts). A first frame goes through
        :meth:`show` (whole); a faulty display's frame waits for its recovery, which the
        writer sends in parts (:meth:`recovery_due`, :meth:`refresh_part`). Example::

            >>> from pitboard.hw.oled import RecordingSerial
            >>> bus = RecordingSerial()
            >>> disp = StationDisplay(serial=bus)
            >>> disp.show(Image.new("1", disp.size))
            >>> bus.writes.clear()
            >>> white = Image.new("1", disp.size, 1)
            >>> [disp.show_part(white, 512) for _ in range(2)]
            [False, True]
            >>> [(w.kind, len(w.payload)) for w in bus.writes]
            [('command', 6), ('data', 512), ('data', 512)]
        """
        if max_bytes < 1:
            raise ValueError("max_bytes must be positive")
        _check_image(image, self.size)
        new = self._pages(image)
        if not self._healthy:
            # the writer's poll brings it back in parts (recovery_due, refresh_part)
            self._run = None
            self._wanted = new
            self._stats.frames_deferred += 1
            return True
        if self._shadow is None:
            self._run = None
            self._wanted = new
            self._flush()
            return True
        # during a refresh the RAM from ``_unknown`` on is the refresh's to write (from the
        # newest wanted frame): only what changed below it goes out here
        target = new if self._unknown is None else \
            new[:self._unknown] + self._shadow[self._unknown:]
        self._wanted = new
        shadow = bytearray(self._shadow)
        run = self._run
        sent: list[int] = []
        try:
            with self._one_transfer():
                # runs (windows) one after the other until max_bytes are out: the messages of
                # one transfer
                while len(sent) < max_bytes:
                    if run is None or run.frame != target:
                        run = next_run(self.driver, bytes(shadow), target,
                                       column_offset=self.column_offset)
                        if run is None:
                            break
                    part = run.ram[run.sent : run.sent + max_bytes - len(sent)]
                    if run.sent == 0:
                        self._command(run.command)
                        self._refresh_pointer = False
                    self._data(bytes(new[i] for i in part))
                    for i in part:
                        shadow[i] = new[i]
                    sent += part
                    run.sent += len(part)
                    if run.sent < len(run.ram):
                        break
                    run = None
        except TRANSPORT_ERRORS as exc:
            self._run = None
            self._fault(exc)
            return True
        self._run = run
        if not sent:
            self._stats.frames_skipped += 1
            return True
        self._shadow = bytes(shadow)
        self._written(sent)
        if self._run is None and self._shadow == target:
            self._stats.frames_sent += 1
            return True
        return False

    def _pages(self, image: Image.Image) -> bytes:
        """``image`` in the controller's page format. The writer sends a frame in parts, every
        part with the same image, which nobody draws on once it is handed over (a writer sends
        it later anyway): it is converted once, not once a part (a 1 KB frame is ~20 parts)."""
        converted = self._converted
        if converted is not None and converted[0] is image:
            return converted[1]
        pages = to_pages(self.device.preprocess(image))
        self._converted = (image, pages)
        return pages

    @property
    def refreshing(self) -> bool:
        """A refresh in parts (:meth:`refresh_part`) is under way."""
        return self._unknown is not None

    def stagger_refresh(self, offset_s: float) -> None:
        """Put the first periodic re-init off by ``offset_s`` (modulo ``reinit_s``): a display
        writer gives each of its displays its own offset, so they do not fall due together."""
        if self._reinit_s is None:
            return
        phase = offset_s % self._reinit_s
        if self._next_reinit is not None:
            self._next_reinit += phase - self._reinit_phase
        self._reinit_phase = phase

    def recovery_due(self) -> bool:
        """A faulty display's retry is due (a display writer sends it in parts: refresh_part)."""
        return (not self._healthy and self._wanted is not None
                and self._clock() >= self._retry_at)

    def refresh_due(self) -> bool:
        """The periodic re-init is due (a display writer sends it in parts: refresh_part)."""
        return (self._healthy and self._wanted is not None and self._shadow is not None
                and self._unknown is None and self._next_reinit is not None
                and self._clock() >= self._next_reinit)

    def refresh_part(self, max_bytes: int, *, restart: bool = False) -> bool:
        """The periodic re-init (or :meth:`reinit`) in parts: the init sequence and the first
        ``max_bytes`` of the picture, then ``max_bytes`` more per call; True when the panel
        shows the picture again. Until then the RAM not yet rewritten is the refresh's: a
        :meth:`show_part` in between sends only what changed below it, and the refresh writes
        the rest from the newest frame. ``restart``: start over (init commands, all RAM stale)
        even when a refresh is under way (the panel was found reset meanwhile). A faulty
        display whose retry is due comes back this way too (all RAM unknown); one not drawn
        yet: :meth:`reinit` (whole, as ever)."""
        if max_bytes < 1:
            raise ValueError("max_bytes must be positive")
        if self._wanted is None:
            return True
        if not self._healthy and self._clock() < self._retry_at:
            self._stats.frames_deferred += 1
            return True
        if self._healthy and self._shadow is None:
            self.reinit()
            return True
        frame = self._wanted
        if self._shadow is None:  # after a fault: every RAM byte unknown
            self._shadow = bytes(b ^ 0xFF for b in frame)
            restart = True
        self._run = None  # the RAM pointer moves: a part-sent run of show_part starts again
        if restart:
            self._unknown = None
        try:
            with self._one_transfer():
                start, end = self._refresh_writes(frame, max_bytes)
        except TRANSPORT_ERRORS as exc:
            self._unknown = None
            self._fault(exc)
            return True
        assert self._shadow is not None
        self._shadow = self._shadow[:start] + frame[start:end] + self._shadow[end:]
        self._written(range(start, end))
        self._recovered()
        if end < len(frame):
            self._unknown = end
            return False
        self._unknown = None
        self._stale = None
        self._refresh_pointer = False
        if self._reinit_s is not None:
            self._next_reinit = self._clock() + self._reinit_s
        return True

    def _refresh_writes(self, frame: bytes, max_bytes: int) -> tuple[int, int]:
        """The writes of one refresh part (:meth:`refresh_part`): the init commands at its
        start, the window or page position when needed, the next RAM bytes; the RAM range, and
        luma's finishing commands with the last part."""
        if self._unknown is None:
            self._stats.reinits += 1
            self._replay(lit_init(self._init))  # a lit panel: never blinks
            self._unknown = 0
            self._stale = bytearray(b"\x01") * len(frame)
            self._refresh_pointer = False
            self._mark_unknown(frame)
        windowed = self.driver in WINDOWED_DRIVERS
        if not self._refresh_pointer or (not windowed and self._unknown % PANEL_WIDTH == 0):
            # position at the first unknown page: one window to the end (SSD1306), or
            # each page on its own (SH1106: page addressing only)
            self._unknown -= self._unknown % PANEL_WIDTH
            page = self._unknown // PANEL_WIDTH
            if windowed:
                self._command(window_command(Window(page_first=page, page_last=PAGES - 1,
                                                    first=0, last=PANEL_WIDTH - 1)))
            else:
                self._position_sh1106(page, 0)
            self._refresh_pointer = True
        start = self._unknown
        end = min(len(frame), start + max_bytes)
        if not windowed:
            end = min(end, (start // PANEL_WIDTH + 1) * PANEL_WIDTH)
        self._data(frame[start:end])
        if end == len(frame):
            self._replay(self._finish)  # luma's display-on, in the same transfer
        return start, end

    def _mark_unknown(self, frame: bytes) -> None:
        """RAM a refresh has not rewritten yet differs from ``frame`` byte for byte (so every
        diff sends it)."""
        if self._stale is not None and self._shadow is not None:
            shadow = bytearray(self._shadow)
            for i, stale in enumerate(self._stale):
                if stale:
                    shadow[i] = frame[i] ^ 0xFF
            self._shadow = bytes(shadow)

    def _written(self, ram: Sequence[int] | range) -> None:
        """These RAM bytes now hold what the shadow says (a refresh under way)."""
        if self._stale is not None:
            for i in ram:
                self._stale[i] = 0

    def poll(self) -> None:
        """Retry now if the display is faulty and its backoff has expired.

        Call this from the table loop so a display that comes back is redrawn even when the
        picture is not changing.
        """
        if self._wanted is None:
            return
        now = self._clock()
        if not self._healthy:
            if now >= self._retry_at:
                self._flush()
        elif self._unknown is None and self._next_reinit is not None and \
                now >= self._next_reinit:  # (not while a refresh in parts is under way)
            self._stats.reinits += 1
            self._refresh = True
            self._shadow = None
            self._flush()

    def reinit(self) -> None:
        """Initialise the panel again and resend the picture now (the station's board was
        found reset: its OLED on the same cable probably was too)."""
        if self._wanted is None:
            return
        self._stats.reinits += 1
        self._refresh = self._healthy
        self._shadow = None
        if self._healthy:
            self._flush()

    def close(self, *, blank: bool = True) -> None:
        """Orderly shutdown: switch the panel off (``blank``) and release the transport.

        One attempt, errors ignored (a dead display must not delay shutdown). ``blank=False``
        leaves the last frame on screen.
        """
        if blank and self._healthy:
            try:
                self._serial.command(DISPLAY_OFF)
            except TRANSPORT_ERRORS as exc:
                self._log.debug("display %s: blank on close failed: %s", self.station, exc)
        cleanup = getattr(self._serial, "cleanup", None)
        if callable(cleanup):
            with contextlib.suppress(*TRANSPORT_ERRORS):
                cleanup()
        self._shadow = None

    # -- internals ---------------------------------------------------------------------------

    def _flush(self) -> None:
        frame = self._wanted
        assert frame is not None
        if not self._healthy and self._clock() < self._retry_at:
            self._stats.frames_deferred += 1
            return
        try:
            if self._shadow is None:
                with self._one_transfer():
                    self._send_full(frame)
                self._stats.full_frames += 1
                if self._reinit_s is not None:
                    self._next_reinit = self._clock() + self._reinit_s + self._reinit_phase
            else:
                self._mark_unknown(frame)
                spans = changed_spans(self._shadow, frame)
                if not spans:
                    self._stats.frames_skipped += 1
                    return
                with self._one_transfer():
                    self._send_spans(self._shadow, frame, spans)
        except TRANSPORT_ERRORS as exc:
            self._fault(exc)
            return
        self._shadow = frame
        self._stats.frames_sent += 1
        self._recovered()

    def _lost(self) -> None:
        self._run = None
        self._unknown = None
        self._stale = None
        self._shadow = None

    def _send_full(self, frame: bytes) -> None:
        # The panel may have been power-cycled (or never initialised): full luma init first.
        # A refresh of a lit panel leaves out luma's leading display-off, so it does not blink.
        init = lit_init(self._init) if self._refresh else self._init
        self._refresh = False
        self._run = None
        self._unknown = None
        self._stale = None
        self._refresh_pointer = False
        self._replay(init)
        if self.driver in WINDOWED_DRIVERS:
            self._send_window(frame, FULL_WINDOW)
        else:
            for page in range(PAGES):
                self._send_sh1106_page(frame, page, 0, PANEL_WIDTH - 1)
        self._replay(self._finish)

    def _send_spans(self, old: bytes, frame: bytes, spans: Sequence[PageSpan]) -> None:
        self._run = None  # the RAM pointer moves: a part-sent run starts again
        self._refresh_pointer = False
        for window in ram_windows(self.driver, old, frame, spans):
            if self.driver in WINDOWED_DRIVERS:
                self._send_window(frame, window)
            else:
                self._send_sh1106_page(frame, window.page_first, window.first, window.last)

    def _send_window(self, frame: bytes, w: Window) -> None:
        self._command(window_command(w))
        self._data(w.slice(frame))
        for p in range(w.page_first, w.page_last + 1):
            self._written(range(p * PANEL_WIDTH + w.first, p * PANEL_WIDTH + w.last + 1))

    def _send_sh1106_page(self, frame: bytes, page: int, first: int, last: int) -> None:
        self._position_sh1106(page, first)
        lo = page * PANEL_WIDTH
        self._data(frame[lo + first : lo + last + 1])
        self._written(range(lo + first, lo + last + 1))

    def _position_sh1106(self, page: int, first: int) -> None:
        self._command(page_command(page, first, column_offset=self.column_offset))


def open_display(
    *,
    driver: str,
    bus: str,
    port: int,
    address: int = 0x3C,
    spi_device: int = 0,
    dc_pin: int = 24,
    reset_pin: int | None = 25,
    spi_speed_hz: int = 8_000_000,
    rotate: int = 0,
    column_offset: int = SH1106_COLUMN_OFFSET,
    serial: SerialInterface | None = None,
    station: str = "",
    clock: Callable[[], float] = time.monotonic,
) -> StationDisplay:
    """Build a :class:`StationDisplay` on a real transport.

    ``bus="i2c"``: :class:`~pitboard.hw.oled_i2c.I2cLink` (luma's ``i2c(port=port,
    address=address)`` sending each part of a frame in one kernel transfer) — ``port`` is the N
    of ``/dev/i2c-N`` (a TCA9548A channel is just another N). ``bus="spi"``:
    ``luma.core.interface.serial.spi(port=port, device=spi_device, gpio_DC=dc_pin,
    gpio_RST=reset_pin)`` (needs ``spidev`` and luma's GPIO backend, RPi.GPIO). ``serial``
    overrides the transport (tests). Opening the bus fails loudly (missing ``/dev/i2c-N``,
    permissions: configuration errors); a missing or silent panel does not — it shows up as
    ``healthy == False`` after the first :meth:`StationDisplay.show`.

    Example::

        disp = open_display(driver="sh1106", bus="i2c", port=3, address=0x3C, station="red")
        disp.show(image)
    """
    if driver not in DRIVERS:
        raise ValueError(f"unknown display driver {driver!r} (expected one of {DRIVERS})")
    if bus not in ("i2c", "spi"):
        raise ValueError(f"unknown display bus {bus!r} (expected 'i2c' or 'spi')")
    if serial is None:
        if bus == "i2c":
            from pitboard.hw.oled_i2c import I2cLink

            serial = I2cLink(port=port, address=address)
        else:
            from luma.core.interface.serial import spi

            serial = spi(port=port, device=spi_device, gpio_DC=dc_pin, gpio_RST=reset_pin,
                         bus_speed_hz=spi_speed_hz)
    drv = next(d for d in DRIVERS if d == driver)
    return StationDisplay(serial=serial, driver=drv, rotate=rotate, station=station, clock=clock,
                          column_offset=column_offset)
