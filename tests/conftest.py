"""Fixtures shared by several test files."""

from __future__ import annotations

import gc
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from wheelkit import Installed

#: a generous bound on a blocking read in a test; never a sleep
TIMEOUT = 60.0

# No timed assertions, Hypothesis's included: its default deadline (200 ms an example) fails
# a fuzz example that a busy machine (three workers on two cores) happens to slow down.
settings.register_profile("pitboard", deadline=None)
settings.load_profile("pitboard")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything collection made (the test modules, the package, some 3,000 test items)
    lives until the end: moved out of the collector's sight, as a pre-forking server does
    with gc.freeze(), so every full collection during a test walks only that test's objects
    (about a sixth of the engine-heavy tests' time went to walking the rest)."""
    gc.collect()
    gc.freeze()


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[socket.socket]:
    """A datagram socket at ``tmp_path/notify``: point ``NOTIFY_SOCKET`` at it to read what a
    ``pitboard run`` tells systemd."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(TIMEOUT)
    yield sock
    sock.close()


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
              ) -> Installed:
    """Pitboard built from the tracked files and installed in a fresh venv outside the
    checkout (once per test process: its tests share an xdist group)."""
    from wheelkit import install_fresh

    # under xdist every worker's base folder sits in one folder of the run: with --dist
    # loadgroup (make test) a second worker building the wheel means the xdist_group was
    # ignored (each build costs ~20 s of CPU)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is not None and request.config.getoption("dist", None) == "loadgroup":
        marker = tmp_path_factory.getbasetemp().parent / "wheel-built-by"
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            pytest.fail(f"the wheel was built on {marker.read_text()} too: --dist loadgroup "
                        "ignored the xdist_group (see the pytest pin in pyproject.toml)")
        os.write(fd, worker.encode())
        os.close(fd)
    return install_fresh(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(autouse=True)
def _close_sims() -> Iterator[None]:
    """Every simulation a test opened with simkit.open_sim is closed after it."""
    yield
    from simkit import close_sims  # only tests that open one have imported the simulation

    close_sims()
