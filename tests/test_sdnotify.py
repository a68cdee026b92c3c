"""sd_notify against real AF_UNIX datagram sockets (a path one and an abstract one)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitboard import sdnotify


@pytest.fixture
def path_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    address = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(address))
        sock.settimeout(5)  # a missing datagram fails the test instead of hanging it
        monkeypatch.setenv("NOTIFY_SOCKET", str(address))
        yield sock


@pytest.fixture
def abstract_socket(monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    name = f"pitboard-test-{os.getpid()}-{os.urandom(4).hex()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        yield sock


def test_unset_socket_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.notify("READY=1") is False
    assert sdnotify.ready() is False
    monkeypatch.setenv("NOTIFY_SOCKET", "")
    assert sdnotify.watchdog() is False


def test_helpers_send_their_messages_to_a_path_socket(path_socket: socket.socket) -> None:
    assert sdnotify.ready()
    assert sdnotify.watchdog()
    assert sdnotify.status("lap 3 of 5")
    assert sdnotify.stopping()
    received = [path_socket.recv(4096) for _ in range(4)]
    assert received == [b"READY=1", b"WATCHDOG=1", b"STATUS=lap 3 of 5", b"STOPPING=1"]


def test_abstract_socket(abstract_socket: socket.socket) -> None:
    assert sdnotify.notify("READY=1\nSTATUS=waiting for players")
    assert abstract_socket.recv(4096) == b"READY=1\nSTATUS=waiting for players"


def test_status_is_kept_to_one_line(path_socket: socket.socket) -> None:
    assert sdnotify.status("gear lever\nstuck  between\t2 and 3")
    assert path_socket.recv(4096) == b"STATUS=gear lever stuck between 2 and 3"


def test_unicode_status_is_utf8(path_socket: socket.socket) -> None:
    assert sdnotify.status("Spa–Francorchamps ✓")
    assert path_socket.recv(4096) == "STATUS=Spa–Francorchamps ✓".encode()


@pytest.mark.parametrize("value", ["relative/notify", "vsock:2:1234", "@"])
def test_unsupported_address_is_refused_without_raising(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", value)
    assert sdnotify.notify("READY=1") is False


def test_missing_socket_returns_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert sdnotify.ready() is False


def test_socket_that_is_not_listening_returns_false(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    address = tmp_path / "closed"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(address))
    monkeypatch.setenv("NOTIFY_SOCKET", str(address))  # the file stays, nobody listens
    assert sdnotify.watchdog() is False


@pytest.mark.parametrize(
    ("usec", "pid", "expected"),
    [
        (None, None, None),
        ("15000000", None, 15.0),
        ("7500000", "self", 7.5),
        ("15000000", "other", None),
        ("0", None, None),
        ("-5", None, None),
        ("soon", None, None),
        ("15000000", "nope", None),
    ],
)
def test_watchdog_interval(
    monkeypatch: pytest.MonkeyPatch, usec: str | None, pid: str | None, expected: float | None
) -> None:
    for name, value in (("WATCHDOG_USEC", usec), ("WATCHDOG_PID", pid)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        elif value == "self":
            monkeypatch.setenv(name, str(os.getpid()))
        elif value == "other":
            monkeypatch.setenv(name, str(os.getpid() + 1))
        else:
            monkeypatch.setenv(name, value)
    assert sdnotify.watchdog_interval() == expected
