"""One table per journal: a second ``pitboard run`` (or ``sim``) on a journal that a live
process holds is refused at once, naming that process, writing nothing; a holder killed with
SIGKILL (a power cut, as far as the lock goes) never blocks the next start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pitboard.journallock import LOCK_NAME, JournalBusy, JournalLock
from runkit import started

TIMEOUT = 60.0  # a bound on a blocking read, never a sleep


def _run(journal: Path) -> list[str]:
    return [sys.executable, "-m", "pitboard", "run", "--config", "sim", "--journal",
            str(journal)]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_second_run_on_a_held_journal_is_refused_naming_the_first(tmp_path: Path) -> None:
    journal = tmp_path / "journal"
    with started(_run(journal), env=dict(os.environ), cwd=tmp_path,
                 notify=tmp_path / "n1") as first:
        before = _files(journal)
        second = subprocess.run(_run(journal), capture_output=True, text=True,
                                timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        assert second.returncode == 1
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert f"journal {journal} is in use by another Pitboard: pid {first.pid}" in lines[0]
        assert "pitboard run --config sim" in lines[0]
        assert _files(journal) == before  # nothing written
        # the simulation on the same journal is refused the same way
        sim = subprocess.run(
            [sys.executable, "-m", "pitboard", "sim", "--autoplay", "--text", "--journal",
             str(journal)], capture_output=True, text=True, timeout=TIMEOUT,
            stdin=subprocess.DEVNULL)
        assert sim.returncode == 1 and f"pid {first.pid}" in sim.stderr, sim.stderr
        assert "Traceback" not in sim.stderr
        assert _files(journal) == before
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=TIMEOUT)
        assert first.returncode == 0, err


def test_a_holder_killed_by_sigkill_never_blocks_the_next_start(tmp_path: Path) -> None:
    journal = tmp_path / "journal"
    with started(_run(journal), env=dict(os.environ), cwd=tmp_path,
                 notify=tmp_path / "n1") as first:
        first.kill()  # SIGKILL: no clean-up of any kind
        first.wait(timeout=TIMEOUT)
    assert (journal / LOCK_NAME).exists()  # left behind, as after a power cut
    with started(_run(journal), env=dict(os.environ), cwd=tmp_path,
                 notify=tmp_path / "n2") as again:
        assert (journal / LOCK_NAME).read_text().startswith(f"pid {again.pid}:")
        again.send_signal(signal.SIGTERM)
        _, err = again.communicate(timeout=TIMEOUT)
    assert again.returncode == 0, err


def test_another_process_holding_it_refuses_this_one_and_the_release_frees_it(
        tmp_path: Path) -> None:
    # the holder: a child that takes the lock, says so and waits for its stdin to close
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from pathlib import Path; from pitboard.journallock import JournalLock;"
         f"lock = JournalLock(Path({str(tmp_path)!r})); lock.acquire(); print('held', "
         "flush=True); sys.stdin.read(); lock.release(); print('released', flush=True)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(JournalBusy) as busy:
            JournalLock(tmp_path).acquire()
        assert f"pid {holder.pid}:" in str(busy.value)
        holder.stdin.close()
        assert holder.stdout.readline() == "released\n"
        with JournalLock(tmp_path) as lock:
            assert lock.held
    finally:
        holder.kill()
        holder.wait(timeout=TIMEOUT)


def test_the_same_process_counts_its_holders(tmp_path: Path) -> None:
    """A table rebuilt on the folder in the same process (a simulated power cut) goes on
    under the lock the process holds; the lock goes with the last holder."""
    one, two = JournalLock(tmp_path), JournalLock(tmp_path)
    one.acquire()
    two.acquire()
    one.release()
    probe = subprocess.run([sys.executable, "-c",
                            "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDONLY);"
                            "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)",
                            str(tmp_path / LOCK_NAME)], capture_output=True, timeout=TIMEOUT)
    assert probe.returncode != 0  # still held
    two.release()
    probe = subprocess.run([sys.executable, "-c",
                            "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDONLY);"
                            "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)",
                            str(tmp_path / LOCK_NAME)], capture_output=True, timeout=TIMEOUT)
    assert probe.returncode == 0
