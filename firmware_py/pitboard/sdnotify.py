"""A tiny sd_notify: tell systemd we are ready, alive, or stopping.

A notification is one datagram to the AF_UNIX socket named by ``$NOTIFY_SOCKET`` (a path, or an
abstract socket when it starts with ``@``).  Outside systemd the variable is unset and every call
is a no-op returning False, so the same code runs on a desktop, in tests and under the unit.

Example::

    from pitboard import sdnotify

    sdnotify.ready()
    interval = sdnotify.watchdog_interval()  # None when the unit has no WatchdogSec=
    while running:
        step_game()
        if healthy():                         # ping only when the loop is really working
            sdnotify.watchdog()

Under the unit's ``PrivateNetwork=yes`` this still works: systemd passes a path socket
(``/run/systemd/notify``), and path sockets are reached through the file system, not the network
namespace.  Abstract sockets do belong to the network namespace, so an ``@`` address is only
usable outside such a sandbox (e.g. ``systemd-run --user`` or a test).
"""

from __future__ import annotations

import logging
import os
import socket

__all__ = ["notify", "ready", "status", "stopping", "watchdog", "watchdog_interval"]

log = logging.getLogger(__name__)


def _address(raw: str) -> str | None:
    if raw.startswith("@") and len(raw) > 1:
        return "\0" + raw[1:]
    if raw.startswith("/"):
        return raw
    return None  # e.g. systemd ≥ 254's "vsock:" addresses, which a Pi never gets


def notify(message: str) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``) to systemd; True if a datagram was sent.

    Never raises for a missing or broken socket: a notification must not take the game down.
    """
    raw = os.environ.get("NOTIFY_SOCKET", "")
    if not raw:
        return False
    address = _address(raw)
    if address is None:
        log.warning("sd_notify: unsupported NOTIFY_SOCKET %r", raw)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as err:
        log.warning("sd_notify: cannot send %r to %s: %s", message, raw, err)
        return False
    return True


def ready() -> bool:
    """Tell systemd start-up is finished (``Type=notify`` units are "starting" until this)."""
    return notify("READY=1")


def watchdog() -> bool:
    """Reset the ``WatchdogSec=`` timer; call only after the game loop has checked its health."""
    return notify("WATCHDOG=1")


def status(text: str) -> bool:
    """Set the one-line status shown by ``systemctl status``."""
    return notify("STATUS=" + " ".join(text.split()))


def stopping() -> bool:
    """Tell systemd a clean shutdown has begun (so a slow stop is not taken for a hang)."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """The watchdog timeout in seconds if systemd expects pings from this process, else None.

    Read from ``$WATCHDOG_USEC``; ``$WATCHDOG_PID``, when set, must be this process (it is unset
    or different in a child that merely inherited the environment).  Ping at about half of it.
    """
    try:
        usec = int(os.environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    pid = os.environ.get("WATCHDOG_PID")
    if pid is not None:
        try:
            if int(pid) != os.getpid():
                return None
        except ValueError:
            return None
    return usec / 1_000_000
