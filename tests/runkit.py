"""``pitboard run`` as systemd starts it: a notify socket to hear READY=1 (sent once every
station has its first frame), then SIGTERM, as ``systemctl stop`` sends it."""

from __future__ import annotations

import signal
import socket
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

#: a bound on a blocking read, never a sleep
TIMEOUT = 120.0


def wait_ready(sock: socket.socket) -> None:
    seen: list[str] = []
    while "READY=1" not in seen:
        seen += sock.recv(4096).decode().split("\n")


@contextmanager
def started(command: Sequence[str], *, env: dict[str, str], cwd: Path, notify: Path
            ) -> Iterator[subprocess.Popen[str]]:
    """Start ``command`` with ``NOTIFY_SOCKET=notify`` and yield it once it is ready; it is
    killed on the way out if still running."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(TIMEOUT)
    proc = subprocess.Popen(list(command), env={**env, "NOTIFY_SOCKET": str(notify)}, cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_ready(sock)
        yield proc
    finally:
        proc.kill()
        sock.close()


def run_until_ready(command: Sequence[str], *, env: dict[str, str], cwd: Path, notify: Path
                    ) -> tuple[int, str]:
    """Start, wait for READY=1, stop with SIGTERM: (exit status, stderr)."""
    with started(command, env=env, cwd=cwd, notify=notify) as proc:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=TIMEOUT)
    return proc.returncode, err
