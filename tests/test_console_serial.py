"""The staff serial console on a real serial line and its failures. The pty tests run the real
thing: a table with its game thread, a :class:`Console` serving pyserial on the slave side of
``os.openpty()``, and the test typing on the master side; a fake port fails reads, writes and
opens when told. Nothing sleeps to wait: reads have timeouts and loop until the awaited line.
"""

from __future__ import annotations

import logging
import os
import queue
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from consolekit import LOBBY_STATUS, PIN, TIMEOUT, fields, snapshot
from pitboard.console import (
    MAX_LINE,
    Console,
    ConsoleProtocol,
    open_console,
)
from pitboard.hwconfig import ConsoleConfig
from pitboard.table.table import Call, Table


# ---------------------------------------------------------------------- over a pty pair
class PtyClient:
    """The far end of the serial line: the master side of a pty, read with select timeouts."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = serial.Serial(os.ttyname(self.slave), baudrate=115200, timeout=0.1)
        self.received = b""

    def _pump(self, out: bytes, timeout: float) -> bytes:
        writing = [self.master] if out else []
        ready_r, ready_w, _ = select.select([self.master], writing, [], timeout)
        if ready_r:
            self.received += os.read(self.master, 65536)
        if ready_w:
            out = out[os.write(self.master, out[:1024]):]
        return out

    def send(self, data: bytes) -> None:
        """Write everything, reading replies meanwhile so neither side's buffer fills."""
        while data:
            data = self._pump(data, 5.0)

    def read_line(self, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while b"\r\n" not in self.received:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no line within {timeout} s; got {self.received[:200]!r}")
            self._pump(b"", left)
        line, self.received = self.received.split(b"\r\n", 1)
        return line.decode("utf-8")

    def until(self, wanted: Callable[[str], bool]) -> list[str]:
        """Lines up to and including the first one ``wanted`` accepts."""
        lines = [self.read_line()]
        while not wanted(lines[-1]):
            lines.append(self.read_line())
        return lines

    def command(self, line: str) -> str:
        """Send one command, skip EVT lines, return its final OK/ERR line."""
        self.send(line.encode() + b"\n")
        return self.until(lambda x: x.startswith(("OK", "ERR")))[-1]

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@dataclass
class Rig:
    table: Table
    console: Console
    client: PtyClient
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def close(self) -> None:
        self.console.stop()
        self.stop.set()
        if self.thread is not None:
            self.thread.join(5)
        self.client.close()


def make_rig(*, run_table: bool = True, call_timeout: float = 2.0) -> Rig:
    table = Table(stations=2, seed=1)
    client = PtyClient()
    console = Console(table=table, port=client.port, staff_pin=PIN, call_timeout=call_timeout)
    rig = Rig(table, console, client)
    if run_table:
        rig.thread = threading.Thread(target=table.run, args=(rig.stop,), daemon=True)
        rig.thread.start()
    console.start()
    return rig


@pytest.fixture
def rig() -> Iterator[Rig]:
    r = make_rig()
    yield r
    r.close()


def test_pty_commands_and_the_event_stream(rig: Rig) -> None:
    client = rig.client
    assert client.command("status") == LOBBY_STATUS
    assert client.command("reset") == "ERR locked: send 'pin <staff PIN>' first"
    assert client.command(f"pin {PIN}") == "OK unlocked"
    assert client.command("events on") == "OK events text"
    assert fields(client.command("input 1 go"))["joined"] == "1"
    assert fields(client.command("new-race cars=2 seed=3 laps=1"))["turn"] == "S1"
    # events are written by the console thread, after the command's own reply
    assert "EVT table planning" in client.until(lambda x: x.startswith("EVT === Round 1"))
    assert client.command("undo") == "ERR nothing to undo"  # only the bot has moved
    assert client.command("events off") == "OK events off"
    assert client.command("reset").startswith("OK state=lobby")
    assert client.command("undo") == "ERR no race to undo"  # raised on the game thread
    client.send(b"\xff\n" + b"z" * 1000 + b"\r\nhelp\r\n")
    assert client.until(lambda x: x == "OK help")[:2] == [
        "ERR not UTF-8", f"ERR line too long (max {MAX_LINE} bytes)"]
    assert rig.console.running and rig.thread is not None and rig.thread.is_alive()


def test_pty_busy_when_the_table_is_stuck() -> None:
    rig = make_rig(run_table=False, call_timeout=0.05)
    try:
        assert rig.client.command("status") == "ERR busy"
        assert rig.client.command("help").startswith("OK")  # answers without the table
    finally:
        rig.close()


@pytest.fixture(scope="module")
def shared_rig() -> Iterator[Rig]:
    r = make_rig()
    yield r
    r.close()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(garbage=st.binary(max_size=1500) | st.lists(
    st.sampled_from([b"\n", b"\r", b"\x00", b"\xff", b"\xc3", b"status", b"pin 1234 ", b"reset",
                     b"z" * 300, b"input 1 go", b"events on", b"\x1b[A", b"#"]),
    max_size=30).map(b"".join))
def test_pty_random_bytes_never_stop_the_console(shared_rig: Rig, garbage: bytes) -> None:
    client = shared_rig.client
    before = snapshot(shared_rig.table)
    client.send(garbage + b"\nstatus\n")
    lines = client.until(lambda x: x.startswith("OK state="))
    assert lines[-1] == LOBBY_STATUS
    assert all(x.startswith(("OK", "ERR", "EVT", "#")) for x in lines)
    assert shared_rig.console.running
    assert snapshot(shared_rig.table) == before


# ---------------------------------------------------------------------- port failures
class FakePort:
    """A serial port whose reads, writes and opens fail when a test says so.

    ``rx`` feeds the console (an exception object in it is raised by ``read``); everything the
    console writes lands in ``tx``.
    """

    def __init__(self) -> None:
        self.port = "/dev/ttyFAKE"
        self.timeout: float | None = None
        self.write_timeout: float | None = None
        self.is_open = False
        self.in_waiting = 0
        self.rx: queue.Queue[bytes | Exception] = queue.Queue()
        self.tx: queue.Queue[bytes] = queue.Queue()
        self.fail_opens = 0
        self.fail_writes = 0
        self.opens = 0

    def open(self) -> None:
        if self.fail_opens:
            self.fail_opens -= 1
            raise serial.SerialException(f"could not open port {self.port}: no such device")
        self.is_open = True
        self.opens += 1

    def close(self) -> None:
        self.is_open = False

    def read(self, size: int = 1) -> bytes:
        if not self.is_open:
            raise serial.PortNotOpenError()
        try:
            item = self.rx.get(timeout=self.timeout)
        except queue.Empty:
            return b""
        if isinstance(item, Exception):
            raise item
        return item

    def write(self, data: bytes) -> int:
        if self.fail_writes:
            self.fail_writes -= 1
            raise serial.SerialTimeoutException("Write timeout")
        self.tx.put(data)
        return len(data)

    def reply(self) -> str:
        return self.tx.get(timeout=TIMEOUT).decode()  # a bound on a hang, never a wait


@pytest.fixture
def running_table() -> Iterator[Table]:
    table = Table(stations=2, seed=1)
    stop = threading.Event()
    thread = threading.Thread(target=table.run, args=(stop,), daemon=True)
    thread.start()
    yield table
    stop.set()
    thread.join(5)


def test_a_lost_port_is_logged_once_and_reopened(running_table: Table,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """No wall clock decides the outcome: the retries wait 0 s, and the status call (which
    the game thread answers) may take as long as the machine needs. It once flaked under load
    because status went through the console's 2 s CALL_TIMEOUT: a game thread that did not
    get the CPU for 2 s made the answer ERR busy."""
    caplog.set_level(logging.INFO, logger="pitboard.console")
    port = FakePort()
    port.fail_opens = 3  # the USB adapter is not plugged in yet at boot
    console = Console(table=running_table, port=port, staff_pin=PIN, backoff=(0.0, 0.0),
                      call_timeout=TIMEOUT)
    console.start()
    try:
        port.rx.put(f"pin {PIN}\n".encode())
        assert port.reply() == "OK unlocked\r\n"
        assert (port.timeout, port.write_timeout) == (0.1, 1.0)
        port.fail_opens = 4  # unplugged: the next opens fail too
        port.rx.put(serial.SerialException("device reports readiness to read but returned no "
                                           "data (device disconnected?)"))
        port.rx.put(b"reset\n")
        # reopened, and a reopened port is a new session: locked again
        assert port.reply() == "ERR locked: send 'pin <staff PIN>' first\r\n"
        port.rx.put(b"status\n")
        assert port.reply() == LOBBY_STATUS + "\r\n"
        assert port.opens == 2
    finally:
        console.stop()
    assert console._thread is not None and not console._thread.is_alive()
    mine = [r for r in caplog.records if r.thread == console._thread.ident]
    warnings = [r.getMessage() for r in mine if r.levelno == logging.WARNING]
    assert warnings == [
        "console /dev/ttyFAKE: cannot open (could not open port /dev/ttyFAKE: no such device); "
        "retrying",
        "console /dev/ttyFAKE: device reports readiness to read but returned no data "
        "(device disconnected?); reopening",
    ]
    assert sum("open again" in r.getMessage() for r in mine) == 2
    assert not port.is_open


def test_a_write_nobody_reads_is_dropped(running_table: Table,
                                         caplog: pytest.LogCaptureFixture) -> None:
    port = FakePort()
    console = Console(table=running_table, port=port, staff_pin=PIN)
    console.start()
    try:
        port.fail_writes = 1
        port.rx.put(b"help\n")
        port.rx.put(b"status\n")
        assert port.reply() == LOBBY_STATUS + "\r\n"  # help's reply was dropped
    finally:
        console.stop()
    assert "write timed out, output dropped" in caplog.text
    assert port.opens == 1


def test_stop_detaches_the_observer(running_table: Table) -> None:
    port = FakePort()
    console = Console(table=running_table, port=port, staff_pin=PIN)
    console.start()
    port.rx.put(b"status\n")
    port.reply()  # the attach call ran before this status call
    assert console.protocol.observe in running_table.observers
    console.stop()
    done = threading.Event()
    running_table.post(Call(lambda: None, lambda _: done.set()))
    assert done.wait(5)
    assert console.protocol.observe not in running_table.observers
    assert not console.running
    with pytest.raises(RuntimeError):
        console.start()


def test_open_console_from_the_config() -> None:
    table = Table(stations=1)
    assert open_console(ConsoleConfig(staff_pin=PIN), table) is None
    console = open_console(ConsoleConfig(staff_pin=PIN, port="loop://", baud=9600), table,
                           start=False)
    assert console is not None and not console.running
    assert console.port.baudrate == 9600 and not console.port.is_open  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        open_console(ConsoleConfig(staff_pin=PIN, port="nosuchscheme://x"), table)
    with pytest.raises(ValueError):
        ConsoleProtocol(table, staff_pin="")


