"""What the table draws on, whatever the transport: the :class:`Display` interface, its
counters (:class:`DisplayStats`), the luma-style :class:`SerialInterface` a real panel talks
through, and :class:`EmulatedDisplay` (the desktop simulation's and the tests' panel).

The real panel, :class:`~pitboard.hw.display.StationDisplay`, is in :mod:`pitboard.hw.display`,
which re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from luma.core.device import dummy
from PIL import Image

from pitboard.hw.oled import PANEL_HEIGHT, PANEL_WIDTH

__all__ = ["Display", "DisplayStats", "EmulatedDisplay", "SerialInterface"]


class SerialInterface(Protocol):
    """What a display needs from a transport: luma's ``i2c``/``spi`` or a test fake.

    :func:`~pitboard.hw.display.open_display` makes the real one (an
    :class:`~pitboard.hw.oled_i2c.I2cLink` or luma's ``spi``); tests pass a
    :class:`~pitboard.hw.oled.RecordingSerial`.

    Example::

        >>> from pitboard.hw.display import StationDisplay
        >>> from pitboard.hw.oled import RecordingSerial
        >>> bus: SerialInterface = RecordingSerial()
        >>> disp = StationDisplay(serial=bus, driver="sh1106", station="S1")
        >>> disp.show(Image.new("1", disp.size))  # init commands, then the RAM, page by page
        >>> bus.writes[0].kind, sum(len(w.payload) for w in bus.writes if w.kind == "data")
        ('command', 1024)
    """

    def command(self, *cmd: int) -> None:
        """Send command bytes."""

    def data(self, data: list[int]) -> None:
        """Send display RAM bytes."""


@dataclass(slots=True)
class DisplayStats:
    """Counters of one display.

    Example::

        >>> s = DisplayStats()
        >>> s.frames_sent, s.bytes_sent
        (0, 0)
    """

    #: frames that reached the panel (windowed or full)
    frames_sent: int = 0
    #: of those, full frames (first frame, recovery)
    full_frames: int = 0
    #: frames identical to what the panel holds: nothing sent
    frames_skipped: int = 0
    #: frames not attempted because the display is faulty and its backoff has not expired
    frames_deferred: int = 0
    #: command + data payload bytes accepted by the transport (no I2C address/control framing)
    bytes_sent: int = 0
    #: transport failures, including failed retries
    errors: int = 0
    #: faulty → healthy transitions
    recoveries: int = 0
    #: re-initialisations of a healthy panel (periodic, or asked for by :meth:`reinit`)
    reinits: int = 0


class Display(Protocol):
    """The interface the table uses: :class:`StationDisplay` and :class:`EmulatedDisplay`.

    The table is handed a list of them (``Table(screens=...)``) and only ever calls
    :meth:`show`; the app's loop calls :meth:`poll` and, at exit, :meth:`close`.

    Example::

        >>> from pitboard.table.screens import render
        >>> from pitboard.table.table import Table
        >>> screens: list[Display] = [EmulatedDisplay(station="S1")]
        >>> table = Table(stations=1, screens=screens, render=render)
        >>> screens[0].stats.frames_sent, screens[0].healthy
        (1, True)
        >>> screens[0].close()
    """

    @property
    def size(self) -> tuple[int, int]:
        """Logical image size (width, height) accepted by :meth:`show`."""

    @property
    def healthy(self) -> bool:
        """False while the display is failing."""

    @property
    def stats(self) -> DisplayStats:
        """Counters."""

    def show(self, image: Image.Image) -> None:
        """Display a finished image; never raises on transport faults."""

    def poll(self) -> None:
        """Retry a faulty display if its backoff has expired; re-initialise when due."""

    def reinit(self) -> None:
        """Initialise the panel again and resend the picture."""

    def close(self, *, blank: bool = True) -> None:
        """Orderly shutdown."""


def _check_image(image: Image.Image, size: tuple[int, int]) -> None:
    if image.mode != "1" or image.size != size:
        # A caller bug, not a hardware fault: raise so tests catch it.
        raise ValueError(f"expected a {size[0]}x{size[1]} mode '1' image, "
                         f"got {image.size[0]}x{image.size[1]} mode {image.mode!r}")


class EmulatedDisplay:
    """A display with the :class:`StationDisplay` interface that only keeps the image.

    For the desktop simulation and tests. Uses ``luma.core.device.dummy`` underneath, so rotation
    behaves as on the panel: :attr:`image` is the last logical image shown, :attr:`panel_image`
    what the panel RAM would hold. Always healthy.

    Example::

        >>> from PIL import Image
        >>> disp = EmulatedDisplay(station="blue")
        >>> img = Image.new("1", disp.size, 1)
        >>> disp.show(img); disp.show(img)
        >>> disp.frames, disp.stats.frames_skipped, disp.image.tobytes() == img.tobytes()
        (1, 1, True)
    """

    def __init__(self, *, rotate: int = 0, station: str = "") -> None:
        if rotate not in (0, 1, 2, 3):
            raise ValueError(f"rotate must be 0..3, got {rotate}")
        self.station = station
        self.device: Any = dummy(width=PANEL_WIDTH, height=PANEL_HEIGHT, rotate=rotate, mode="1")
        self.device.persist = True
        self._stats = DisplayStats()
        self._image: Image.Image | None = None
        self._closed = False

    @property
    def size(self) -> tuple[int, int]:
        """Logical image size, as for :class:`StationDisplay`."""
        size: tuple[int, int] = self.device.size
        return size

    @property
    def healthy(self) -> bool:
        """Always true."""
        return True

    @property
    def stats(self) -> DisplayStats:
        """Counters (frames sent / skipped; no bytes)."""
        return self._stats

    @property
    def frames(self) -> int:
        """Number of frames that changed the picture."""
        return self._stats.frames_sent

    @property
    def image(self) -> Image.Image | None:
        """Copy of the last image shown (logical orientation), or None before the first."""
        return None if self._image is None else self._image.copy()

    @property
    def panel_image(self) -> Image.Image | None:
        """What the panel RAM would hold (rotated), or None before the first frame."""
        panel: Image.Image | None = self.device.image
        return panel

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed

    def show(self, image: Image.Image) -> None:
        """Keep ``image`` if it differs from the last one."""
        _check_image(image, self.size)
        if self._image is not None and self._image.tobytes() == image.tobytes():
            self._stats.frames_skipped += 1
            return
        self.device.display(image)
        self._image = image.copy()
        self._stats.frames_sent += 1

    def poll(self) -> None:
        """Nothing to retry."""

    def reinit(self) -> None:
        """Nothing to initialise."""

    def close(self, *, blank: bool = True) -> None:
        """Mark closed; ``blank`` clears the kept images like a switched-off panel."""
        self._closed = True
        if blank:
            self._image = None
            self.device.image = None
