"""The console on a serial port: :class:`Console` (the thread that reads, answers, streams
events and reopens the port after a serial error) and :func:`open_console`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

import serial

from ..hwconfig import ConsoleConfig
from ..table.table import Call, Table
from .lines import MAX_LINE
from .link import CALL_TIMEOUT, QueueLink
from .protocol import ConsoleProtocol

log = logging.getLogger("pitboard.console")

#: serial read timeout: also the longest delay before a streamed event goes out
READ_TIMEOUT: Final = 0.1
#: a write that blocks longer than this (nobody reading, flow control) is dropped
WRITE_TIMEOUT: Final = 1.0
#: reopen delays after a serial error: first, then doubling up to the second
BACKOFF: Final = (0.5, 30.0)


# ---------------------------------------------------------------------- the port
class SerialPort(Protocol):
    """What the console uses of a pyserial port (``serial.Serial``, ``serial_for_url``).

    Example (what :func:`open_console` makes, on a loopback URL)::

        >>> port: SerialPort = serial.serial_for_url("loop://", timeout=0, do_not_open=True)
        >>> port.open(); port.write(b"status\\r\\n")
        8
        >>> port.in_waiting, port.read(8)
        (8, b'status\\r\\n')
        >>> port.close()
    """

    timeout: float | None
    write_timeout: float | None

    @property
    def is_open(self) -> bool: ...

    @property
    def in_waiting(self) -> int: ...

    def open(self) -> None: ...

    def close(self) -> None: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...


def _reopen_same(port: SerialPort) -> SerialPort:
    port.open()
    return port


class Console:
    """The staff console on a serial port: a thread that answers lines and streams events.

    ``port`` is a pyserial port, open or not (it is opened, and after a serial error reopened,
    by the console thread with ``backoff``); ``reopen`` makes it usable again after a failure
    (default: ``port.open()`` on the same object). The console sets the port's read and write
    timeouts, and closes it on :meth:`stop`.

    Example::

        >>> import serial
        >>> from pitboard.table.table import Table
        >>> port = serial.serial_for_url("loop://", do_not_open=True)
        >>> console = Console(table=Table(stations=2), port=port, staff_pin="2468")
        >>> console.start()
        >>> console.stop()
    """

    def __init__(
        self,
        *,
        table: Table,
        port: SerialPort,
        staff_pin: str,
        call_timeout: float = CALL_TIMEOUT,
        reopen: Callable[[SerialPort], SerialPort] = _reopen_same,
        backoff: tuple[float, float] = BACKOFF,
        read_timeout: float = READ_TIMEOUT,
        write_timeout: float = WRITE_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
        max_line: int = MAX_LINE,
    ) -> None:
        self.table = table
        self.port = port
        self.name = str(getattr(port, "port", None) or getattr(port, "name", None) or "port")
        self.protocol = ConsoleProtocol(table, staff_pin=staff_pin,
                                        link=QueueLink(table, call_timeout), clock=clock,
                                        max_line=max_line)
        self.reopen = reopen
        self.backoff = backoff
        self.read_timeout = read_timeout
        self.write_timeout = write_timeout
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._write_stalled = False

    def start(self) -> None:
        """Start watching the table and serving the port (returns at once)."""
        if self._thread is not None:
            raise RuntimeError("console already started")
        self.table.post(Call(lambda: self.protocol.attach(self.table), _ignore))
        self._thread = threading.Thread(target=self._run, name="pitboard-console", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread, stop watching the table, close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.table.post(Call(lambda: self.protocol.detach(self.table), _ignore))
        _close_quietly(self.port)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # ------------------------------------------------------------------ thread
    def _run(self) -> None:
        delay = self.backoff[0]
        failing = False  # in an outage: already logged, stay quiet until it is over
        first = True
        while not self._stop.is_set():
            if not self.port.is_open or first:
                try:
                    self._open(first)
                except (serial.SerialException, OSError, ValueError) as exc:
                    if not failing:
                        log.warning("console %s: cannot open (%s); retrying", self.name, exc)
                        failing = True
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                if failing:
                    log.info("console %s: open again", self.name)
                failing, first, delay = False, False, self.backoff[0]
            try:
                self._serve_once()
            except (serial.SerialException, OSError) as exc:
                log.warning("console %s: %s; reopening", self.name, exc)
                failing = True
                _close_quietly(self.port)
            except Exception:  # a bug: keep serving, but do not spin on it
                log.exception("console %s: unexpected error", self.name)
                self._stop.wait(delay)

    def _open(self, first: bool) -> None:
        if not self.port.is_open:
            self.port = self.reopen(self.port)
        self.port.timeout = self.read_timeout
        self.port.write_timeout = self.write_timeout
        self.protocol.splitter.reset()
        if not first:
            self.protocol.lock()  # a replugged cable may be someone else's

    def _serve_once(self) -> None:
        port = self.port
        data = port.read(min(max(port.in_waiting, 1), 4096))
        if data:
            self._send(self.protocol.feed(data))
        self._send(self.protocol.take_events())

    def _send(self, lines: Sequence[str]) -> None:
        if not lines:
            return
        data = "".join(line + "\r\n" for line in lines).encode("utf-8")
        try:
            self.port.write(data)
        except serial.SerialTimeoutException:
            # nobody is reading (or flow control holds us): drop the output, keep serving
            if not self._write_stalled:
                log.warning("console %s: write timed out, output dropped", self.name)
                self._write_stalled = True
            return
        if self._write_stalled:
            log.info("console %s: writing again", self.name)
            self._write_stalled = False


def _ignore(_: Any) -> None:
    pass


def _close_quietly(port: SerialPort) -> None:
    try:
        port.close()
    except Exception as exc:  # closing a vanished device may fail; it is closed either way
        log.debug("closing the console port: %s", exc)


def open_console(config: ConsoleConfig, table: Table, *, start: bool = True) -> Console | None:
    """The console that ``config`` asks for (None when ``console.port`` is empty), started.

    The port (a device path or a pyserial URL) is opened by the console thread, so a USB
    adapter that is missing at boot is picked up once it is plugged in. A malformed URL raises
    ValueError here.

    Example::

        >>> from pitboard.table.table import Table
        >>> console = open_console(ConsoleConfig(staff_pin="2468", port="loop://"),
        ...                        Table(stations=1))
        >>> console is not None and console.running
        True
        >>> console.stop()
    """
    if not config.enabled:
        return None
    port = serial.serial_for_url(config.port, baudrate=config.baud, timeout=READ_TIMEOUT,
                                 write_timeout=WRITE_TIMEOUT, do_not_open=True)
    console = Console(table=table, port=port, staff_pin=config.staff_pin)
    if start:
        console.start()
    return console
