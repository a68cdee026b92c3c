"""Cold start: wall time of ``pitboard --help``, of every subcommand's ``--help``, and of
``pitboard run`` on the sim profile until its first frames are drawn.

Each figure is a fresh interpreter started through the installed ``pitboard`` script, as a user
types it (the OS file cache warm). Runs are interleaved round-robin so a busy moment of the
shared machine hits every command alike; the median and the best are printed. Targets: 60 ms
for every ``--help``, 500 ms to the first frame.

``run`` is timed from the moment the process is started until it tells systemd READY=1 through
``$NOTIFY_SOCKET`` (a socket this benchmark listens on): the table sends READY only after boot,
which has drawn every station's first frame, so the figure is an upper bound. The journal is a
fresh temporary directory, so this is a start with no race to resume.

    python benchmarks/cold_start.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP_TARGET_MS = 60.0
FRAME_TARGET_MS = 500.0


def pitboard_script() -> str:
    """The ``pitboard`` console script next to this interpreter (else the one on PATH)."""
    here = Path(sys.executable).with_name("pitboard")
    found = str(here) if here.exists() else shutil.which("pitboard")
    if found is None:
        sys.exit("cold_start: no pitboard command (pip install -e . first)")
    return found


def subcommands() -> list[str]:
    """The subcommands of ``pitboard`` (read from its argument parser, not its help text)."""
    from pitboard.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def time_help(script: str, words: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one ``pitboard WORDS --help``."""
    start = time.perf_counter()
    proc = subprocess.Popen([script, *words, "--help"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"cold_start: pitboard {' '.join(words)} --help exited {proc.returncode}")
    return elapsed, (usage.ru_utime + usage.ru_stime) * 1000


def time_first_frame(script: str, timeout: float = 20.0) -> float:
    """Milliseconds from starting ``pitboard run --config sim`` to its READY=1."""
    with tempfile.TemporaryDirectory(prefix="pitboard-cold-") as tmp:
        address = os.path.join(tmp, "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(address)
            sock.settimeout(timeout)
            env = dict(os.environ, NOTIFY_SOCKET=address)
            start = time.perf_counter()
            proc = subprocess.Popen(
                [script, "run", "--config", "sim", "--journal", os.path.join(tmp, "journal")],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp)
            try:
                while True:
                    message = sock.recv(4096).decode()
                    if "READY=1" in message.split("\n"):
                        return (time.perf_counter() - start) * 1000
            except TimeoutError:
                proc.kill()
                err = proc.communicate()[1].decode(errors="replace")
                sys.exit(f"cold_start: pitboard run sent no READY=1 in {timeout:.0f} s: "
                         f"{err.strip()[-300:]}")
            finally:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
                    try:
                        proc.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
    raise AssertionError("unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs per figure (default 15)")
    args = parser.parse_args()
    script = pitboard_script()
    cases: list[list[str]] = [[]] + [[name] for name in subcommands()]
    times: dict[str, list[tuple[float, float]]] = {" ".join(c): [] for c in cases}
    frames: list[float] = []
    for _ in range(args.runs):
        for words in cases:
            times[" ".join(words)].append(time_help(script, words))
        frames.append(time_first_frame(script))
    print(f"cold start, {args.runs} runs each; wall ms median / best, and CPU ms median "
          f"(target {HELP_TARGET_MS:.0f} ms wall):")
    worst = 0.0
    for name, runs in times.items():
        wall = [w for w, _ in runs]
        median = statistics.median(wall)
        worst = max(worst, median)
        label = f"pitboard {name + ' ' if name else ''}--help"
        print(f"  {label:32} {median:6.1f} / {min(wall):6.1f}   cpu "
              f"{statistics.median(c for _, c in runs):6.1f}"
              f"{'' if median <= HELP_TARGET_MS else '   OVER'}")
    print(f"  slowest --help median: {worst:.1f} ms")
    median = statistics.median(frames)
    print(f"  pitboard run (sim) first frame   {median:6.1f} / {min(frames):6.1f}  (target "
          f"{FRAME_TARGET_MS:.0f} ms){'' if median <= FRAME_TARGET_MS else '   OVER'}")


if __name__ == "__main__":
    main()
