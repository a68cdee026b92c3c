"""Power-cut rig: a whole Pitboard (App on the ``sim`` profile) in a forked child process,
driven by scripted inputs, killed with SIGKILL in the middle of a journal write and restarted
until its race finishes. Used by tests/test_powercut.py and benchmarks/powercut_soak.py.

A kill point is "the k-th write to the journal's files, cut after n bytes": the child writes
the first n bytes of that write (a torn record, a half-written snapshot temp file, ...) and then
SIGKILLs itself, the closest a test can get to a pulled plug.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitboard import journalfile
from pitboard.app import App
from pitboard.engine.decisions import decision_to_dict
from pitboard.engine.snapshot import race_to_dict
from pitboard.hw.events import GoPressed
from pitboard.hwconfig import load_profile
from pitboard.table.autoplay import next_input

PLAYERS = 3  # stations 0..2 join; the other seats go to bots


@dataclass
class Outcome:
    """What a chain of killed and restarted runs produced."""

    final: dict[str, Any]
    kills: int
    boots: list[float]  # seconds from start of boot() to every station redrawn


def _kill_on_write(at: int, rng: random.Random) -> None:
    """Make the ``at``-th journal write tear after a random number of bytes and kill us."""
    real: Callable[[int, bytes], None] = journalfile.write_all
    count = 0

    def write_then_die(fd: int, data: bytes) -> None:
        nonlocal count
        count += 1
        if count < at:
            real(fd, data)
            return
        cut = rng.randint(0, len(data))
        if cut:
            real(fd, data[:cut])
        os.kill(os.getpid(), signal.SIGKILL)

    journalfile.write_all = write_then_die  # type: ignore[assignment]


def run_once(directory: Path, *, seed: int, laps: int, cars: int, result: Path,
             boots: Path, championship: str | None = None) -> None:
    """One life of the device: boot (resuming if the journal has a race), play to the end
    (``championship``: a whole season, GO on the standings between its races)."""
    app = App.build(load_profile("sim"), journal=directory / "journal", seed=seed,
                    clock=lambda: 0.0)
    started = time.perf_counter()
    app.boot()
    with boots.open("a") as f:
        f.write(f"{time.perf_counter() - started:.6f}\n")
    table = app.table
    if table.race is None:  # scripted lobby: three players join, staff start the race
        for station in range(PLAYERS):
            table.handle(GoPressed(station=station))
        if championship is not None:
            table.set_championship(championship)
        table.start_race(track="usa", laps=laps, cars=cars)
        table.refresh()
    while (table.race is not None and not table.race.over) or \
            (table.season is not None and table.season.between):
        event = next_input(table)
        assert event is not None, table.state
        table.handle(event)
    assert table.race is not None
    final = race_to_dict(table.race)
    if table.season is not None:  # the whole season: every race's decisions, the points
        final["season"] = {"logs": [[decision_to_dict(d) for d in log]
                                    for log in table.season.all_logs()],
                           "totals": {str(k): v for k, v in table.season.totals().items()}}
    result.write_text(json.dumps(final, sort_keys=True))
    app.close()


def _fork(fn: Callable[[], None]) -> int:
    """Run ``fn`` in a child; return its wait status."""
    pid = os.fork()
    if pid == 0:  # the child: never return into the parent's code (pytest)
        code = 0
        try:
            fn()
        except BaseException:  # report and exit non-zero; the parent fails the test
            import traceback

            traceback.print_exc()
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return status


def race_with_power_cuts(directory: Path, *, seed: int, laps: int = 1, cars: int = 6,
                         kill_rng: random.Random | None = None, max_gap: int = 6,
                         max_lives: int = 2000, championship: str | None = None) -> Outcome:
    """Play one race (or a whole ``championship`` season), cutting the power every
    1..``max_gap`` journal writes (no cuts when ``kill_rng`` is None); each restart resumes
    from the journal."""
    directory.mkdir(parents=True, exist_ok=True)
    result = directory / "result.json"
    boots = directory / "boots.txt"
    kills = 0
    for _ in range(max_lives):
        at = kill_rng.randint(1, max_gap) if kill_rng is not None else 0
        tear = random.Random(kill_rng.random()) if kill_rng is not None else random.Random()

        def life(at: int = at, tear: random.Random = tear) -> None:
            if at:
                _kill_on_write(at, tear)
            run_once(directory, seed=seed, laps=laps, cars=cars, result=result, boots=boots,
                     championship=championship)

        status = _fork(life)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            kills += 1
            continue
        if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
            raise RuntimeError(f"the device died badly (wait status {status}) after {kills} cuts")
        break
    else:
        raise RuntimeError(f"race not finished after {max_lives} lives")
    times = [float(line) for line in boots.read_text().split()]
    return Outcome(final=json.loads(result.read_text()), kills=kills, boots=times)
