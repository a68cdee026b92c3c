"""A station display's link to its panel: the writes of a part batched into one kernel
transfer, and what a failing transport does to the display (fault, back-off, recovery).

* **One kernel transfer per part.** A part's writes (each window's address command and its
  RAM data, several windows up to the part's size) are collected and handed to the transport
  at once: :class:`~pitboard.hw.oled_i2c.I2cLink` sends them as the messages of one
  ``i2c_rdwr``, so a TCA9548A with idle disconnect is selected and deselected once per part,
  not once per write (a transport without ``transfer``, luma's ``spi``, gets them one by one).
* **Faults never stop the table.** Transport errors (``OSError``, and luma's
  ``DeviceNotFoundError``, which luma raises instead of ``OSError`` for a NACK/EIO on commands)
  are caught, logged once, and retried with exponential backoff on an injected clock; the
  back-off resets as soon as the display answers and never waits more than
  :data:`BACKOFF_MAX_S`.

:class:`~pitboard.hw.display.StationDisplay` is a :class:`PanelLink`.

Example::

    >>> import logging
    >>> from pitboard.hw.oled import RecordingSerial
    >>> bus = RecordingSerial()
    >>> link = PanelLink(serial=bus, station="red", clock=lambda: 0.0,
    ...                  logger=logging.getLogger("demo"))
    >>> with link._one_transfer():
    ...     link._command(bytes([0x21, 0, 3, 0x22, 0, 0])); link._data(bytes(4))
    >>> [(w.kind, len(w.payload), w.joined) for w in bus.writes]
    [('command', 6, False), ('data', 4, True)]
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterator, Sequence

import luma.core.error

from pitboard.hw.display_base import DisplayStats, SerialInterface
from pitboard.hw.oled import BusWrite

__all__ = ["BACKOFF_MAX_S", "TRANSPORT_ERRORS", "PanelLink"]

#: What a failing transport raises. luma's ``i2c.command`` turns EIO/EREMOTEIO into
#: ``DeviceNotFoundError`` (not an ``OSError``); ``i2c.data`` and spidev raise ``OSError``.
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (OSError, luma.core.error.Error)

#: the longest a faulty display waits between retries (s)
BACKOFF_MAX_S = 30.0


class PanelLink:
    """The writes to one panel and its health: :meth:`_one_transfer` batches what is written
    inside it into one transfer; :meth:`_fault` and :meth:`_recovered` keep the back-off.
    Not thread-safe (one thread drives each display).

    Example (a :class:`~pitboard.hw.display.StationDisplay` whose panel stops answering)::

        >>> from PIL import Image
        >>> from pitboard.hw.display import StationDisplay
        >>> from pitboard.hw.oled import RecordingSerial
        >>> class Unplugged(RecordingSerial):
        ...     def transfer(self, writes):
        ...         raise OSError(121, "Remote I/O error")
        >>> disp = StationDisplay(serial=Unplugged(), station="S1", clock=lambda: 0.0,
        ...                       logger=logging.getLogger("demo"))
        >>> disp.show(Image.new("1", disp.size))  # never raises: the fault is counted
        >>> disp.healthy, disp.stats.errors, disp.stats.frames_sent
        (False, 1, 0)
    """

    def __init__(self, *, serial: SerialInterface, station: str, clock: Callable[[], float],
                 backoff_initial: float = 0.5, backoff_max: float = BACKOFF_MAX_S,
                 logger: logging.Logger) -> None:
        if not 0 < backoff_initial <= backoff_max <= BACKOFF_MAX_S:
            raise ValueError(f"need 0 < backoff_initial <= backoff_max <= {BACKOFF_MAX_S:g}")
        self._serial = serial
        self.station = station
        self._clock = clock
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self._log = logger
        self._stats = DisplayStats()
        self._healthy = True
        self._delay = backoff_initial
        self._retry_at = 0.0
        #: kept off the bus by the app's mux guard (:meth:`hold_back`)
        self._held = False
        #: the writes of the transfer being built (:meth:`_one_transfer`), or None: write now
        self._batch: list[BusWrite] | None = None

    @property
    def healthy(self) -> bool:
        """False from a transport failure until a retry succeeds."""
        return self._healthy

    @property
    def stats(self) -> DisplayStats:
        """Live counters (not a copy)."""
        return self._stats

    def _lost(self) -> None:
        """A write failed: what the panel's RAM holds is unknown now (the display forgets its
        copy of it)."""

    def _fault(self, exc: BaseException) -> None:
        self._stats.errors += 1
        self._lost()  # a write may have landed half-way: RAM content unknown
        if self._healthy:
            self._healthy = False
            self._delay = self._backoff_initial
            self._log.warning("display %s failed (%s: %s); retrying with backoff",
                              self.station, type(exc).__name__, exc)
        else:
            self._delay = min(self._delay * 2, self._backoff_max)
            self._log.debug("display %s retry failed: %s", self.station, exc)
        self._retry_at = math.inf if self._held else self._clock() + self._delay

    def hold_back(self, held: bool) -> None:
        """Held: send nothing, not even a retry (the app's mux guard found this station's
        channel hanging the bus); counts as failing meanwhile. Released: retry at once (the
        whole picture: RAM content unknown)."""
        self._held = held
        if held:
            if self._healthy:
                self._healthy = False
                self._delay = self._backoff_initial
                self._lost()
            self._retry_at = math.inf
        elif not self._healthy:
            self._retry_at = self._clock()

    def _recovered(self) -> None:
        """A write went through: a faulty display is healthy again."""
        if not self._healthy:
            self._healthy = True
            self._delay = self._backoff_initial
            self._stats.recoveries += 1
            self._log.info("display %s recovered", self.station)

    @contextlib.contextmanager
    def _one_transfer(self) -> Iterator[None]:
        """The writes made inside go out together at the end, as the messages of one kernel
        transfer where the transport can (:meth:`~pitboard.hw.oled_i2c.I2cLink.transfer`: one
        mux select and deselect for a whole part), else one by one; a transport error is raised
        from the end of the block, before anything after it counts the RAM as written."""
        if self._batch is not None:  # already inside one
            yield
            return
        batch: list[BusWrite] = []
        self._batch = batch
        try:
            yield
        finally:
            self._batch = None
        transfer = getattr(self._serial, "transfer", None)
        if callable(transfer):
            transfer(batch)
        else:
            for w in batch:
                if w.kind == "command":
                    self._serial.command(*w.payload)
                else:
                    self._serial.data(list(w.payload))  # luma/spidev want a list
        self._stats.bytes_sent += sum(len(w.payload) for w in batch)

    def _command(self, payload: bytes) -> None:
        if self._batch is not None:
            self._batch.append(BusWrite("command", payload))
            return
        self._serial.command(*payload)
        self._stats.bytes_sent += len(payload)

    def _data(self, payload: bytes) -> None:
        if self._batch is not None:
            self._batch.append(BusWrite("data", bytes(payload)))
            return
        self._serial.data(list(payload))  # luma/spidev want a list
        self._stats.bytes_sent += len(payload)

    def _replay(self, writes: Sequence[BusWrite]) -> None:
        for w in writes:
            if w.kind == "command":
                self._command(w.payload)
            else:
                self._data(w.payload)
