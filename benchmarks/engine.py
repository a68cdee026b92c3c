"""Engine speed, side by side: this tree against an older commit, in one run on one machine.

6-car, 2-lap races on USA played by the heuristic bot (the engine and the bot together, as
``pitboard simulate`` runs them; event log off). The older commit's code is exported with
``git archive`` into a temporary folder; every batch runs in a fresh interpreter on one tree or
the other, and batches alternate A B B A A B ... so a busy moment of the shared machine hits
both alike. Printed per tree: microseconds of CPU per car-turn, races/s, decisions/s, the
worker's peak RSS, the bot's play (rounds and spin-outs per race) and the engine alone (the same
races replayed from their decision logs, the bots' thinking left out); then new/old ratios.
Figures only: no pass/fail.

Rows: ``base`` is the base game; a rules module adds its row to :data:`ROWS` (its key and
options in ``RaceSetup.modules``) and its cost shows next to the base's. A tree without the
module says so instead of a figure.

With ``--instructions N`` it also counts machine instructions per car-turn with valgrind's
callgrind (N cold races per tree and row, less a run of none: interpreter start-up and imports
drop out), a figure the load of a shared machine does not change.

    python benchmarks/engine.py [--against 3dbcea8] [--races 150] [--batches 4]
                                [--rows base,legends] [--events] [--instructions 40]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

#: the commit the issue measures against ("today's" engine when the speed work began)
BASELINE = "3dbcea8"
REPO = Path(__file__).resolve().parent.parent
#: row name -> RaceSetup.modules for it (6 cars in all; Legend cars count among them); modules
#: add their row here. A Legend's turn skips the bot's planning, so a field with Legends is
#: cheaper per car-turn: its ratio shows what the module's own hooks cost.
ROWS: dict[str, dict[str, dict[str, Any]]] = {
    "base": {},
    "weather": {"weather": {"weather": "random", "road": True}},
    "legends": {"legends": {"cars": 3}},
    "legends+weather": {"legends": {"cars": 3}, "weather": {"weather": "random", "road": True}},
    "garage": {"garage": {"choose": "draft", "pool": "all", "expansions": True}},
    # a championship race: its Event's rules (Press Corners B and D, passing cars earns a
    # sponsor), the sponsors dealt and earned, played by the Garage module without upgrades
    "championship": {"garage": {"choose": "none"},
                     "championship": {"event": "first_live_tv"}},
}


# ------------------------------------------------------------------ the worker (one tree)
def work(source: Path, races: int, seed: int, modules: dict[str, Any], events: bool,
         alone: bool = False) -> None:
    """Play ``races`` races with the code under ``source``; print one JSON line of totals
    (with ``alone``, also the CPU time of the engine replaying them without the bots)."""
    sys.path.insert(0, str(source / "firmware_py"))
    from pitboard.bots import HeuristicBot
    if "garage" in modules:  # the Garage's bot drafts and uses upgrades (this tree on)
        try:
            from pitboard.garage_bots import GarageBot
        except ImportError:
            print(json.dumps({"skip": "no Garage module in this tree"}))
            return
    from pitboard.engine.race import Race
    from pitboard.engine.setup import RaceSetup
    from pitboard.trackfile import load_track

    track = load_track("usa")
    options: dict[str, Any] = {"modules": modules} if modules else {}
    try:
        RaceSetup(track="usa", cars=6, seed=seed, laps=2, **options).validate()
    except (TypeError, ValueError) as exc:  # an older tree, or the module is not there yet
        print(json.dumps({"skip": " ".join(str(exc).split())}))
        return
    totals = {"races": races, "car_turns": 0, "decisions": 0, "rounds": 0, "spinouts": 0}
    cpu = 0.0
    played = []
    for s in range(seed, seed + races):
        start = time.process_time()
        setup = RaceSetup(track="usa", cars=6, seed=s, laps=2, **options)
        race = Race(setup, track=track, record_events=events)
        bot = GarageBot(seed=s) if "garage" in modules else HeuristicBot(seed=s)
        waiting_for, apply, choose = race.waiting_for, race.apply, bot.choose
        while (car := waiting_for()) >= 0:
            apply(choose(race, car))
        cpu += time.process_time() - start
        totals["car_turns"] += race.car_turns
        totals["decisions"] += len(race.log)
        totals["rounds"] += race.round
        totals["spinouts"] += sum(c.spinouts for c in race.cars)
        played.append((setup, race.log))
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    replay = 0.0
    if alone:  # the same races replayed from their decision logs: no bot thinking. What the
        # bots built (their memo of hands) is frozen out of the garbage collector's passes, as
        # in a process that never ran a bot
        gc.collect()
        gc.freeze()
        start = time.process_time()
        for setup, log in played:
            race = Race(setup, track=track, record_events=events)
            for decision in log:
                race.apply(decision)
        replay = time.process_time() - start
    print(json.dumps({**totals, "cpu": cpu, "cpu_alone": replay, "rss_kib": rss_kib}))


# ------------------------------------------------------------------ the parent
def export(commit: str, into: Path) -> str:
    """Extract ``commit``'s firmware_py into ``into``; returns the commit's short hash."""
    short = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", commit],
                           capture_output=True, text=True, check=True).stdout.strip()
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", commit,
                        "firmware_py"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return short


def batch(source: Path, races: int, seed: int, row: str, events: bool) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(source), "--races", str(races),
         "--seed", str(seed), "--row", row, "--alone"] + (["--events"] if events else []),
        capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="0"))
    if done.returncode != 0:
        sys.exit(f"engine benchmark: the worker for {source} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def instructions(source: Path, races: int, row: str, events: bool) -> float | None:
    """Machine instructions per car-turn of ``races`` cold races (callgrind), or None."""
    counts, turns = [], 0
    for n in (0, races):
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             __file__, "--worker", str(source), "--races", str(n), "--row", row]
            + (["--events"] if events else []),
            capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="0"))
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            sys.exit(f"engine benchmark: callgrind failed for {source}:\n{done.stderr[-2000:]}")
        counts.append(int(found.group(1)))
        result = json.loads(done.stdout.splitlines()[-1])
        if "skip" in result:
            return None
        turns = result["car_turns"]
    return (counts[1] - counts[0]) / turns if turns else None


def summary(label: str, runs: list[dict[str, Any]]) -> dict[str, float]:
    turns = sum(r["car_turns"] for r in runs)
    cpu = sum(r["cpu"] for r in runs)
    races = sum(r["races"] for r in runs)
    best = min(r["cpu"] / r["car_turns"] for r in runs) * 1e6
    alone = sum(r.get("cpu_alone", 0.0) for r in runs) / turns * 1e6
    out = {"us": cpu / turns * 1e6, "best": best, "alone": alone, "races_s": races / cpu,
           "decisions_s": sum(r["decisions"] for r in runs) / cpu,
           "rss_mib": max(r["rss_kib"] for r in runs) / 1024,
           "rounds": sum(r["rounds"] for r in runs) / races,
           "spinouts": sum(r["spinouts"] for r in runs) / races}
    print(f"  {label:22} {out['us']:6.2f} us/car-turn (best batch {best:5.2f})  "
          f"{out['races_s']:6.0f} races/s  {out['decisions_s']:7.0f} decisions/s  "
          f"peak RSS {out['rss_mib']:5.1f} MiB  {out['rounds']:.1f} rounds, "
          f"{out['spinouts']:.2f} spin-outs per race; engine alone {alone:5.2f} us/car-turn")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=BASELINE, metavar="COMMIT",
                        help=f"the commit to compare with (default {BASELINE}); 'none': this "
                             "tree alone")
    parser.add_argument("--races", type=int, default=150, help="races per batch (default 150)")
    parser.add_argument("--batches", type=int, default=4,
                        help="batches per tree and row (default 4)")
    parser.add_argument("--rows", default=",".join(ROWS),
                        help=f"comma-separated rows (default all: {', '.join(ROWS)})")
    parser.add_argument("--events", action="store_true", help="with the event log on "
                        "(as the table runs), instead of off (as simulate runs)")
    parser.add_argument("--instructions", type=int, default=0, metavar="N",
                        help="also count instructions per car-turn with callgrind over N cold "
                             "races per tree and row (needs valgrind; slow: try 40)")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--row", default="base", help=argparse.SUPPRESS)
    parser.add_argument("--alone", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        work(args.worker, args.races, args.seed, ROWS[args.row], args.events, args.alone)
        return
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("engine benchmark: --instructions needs valgrind (apt install valgrind)")
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        sys.exit(f"engine benchmark: unknown row(s) {', '.join(unknown)} ({', '.join(ROWS)})")
    with tempfile.TemporaryDirectory(prefix="pitboard-bench-") as tmp:
        trees = [("this tree", REPO)]
        if args.against != "none":
            old = Path(tmp)
            trees.append((export(args.against, old), old))
        print(f"6 cars, 2 laps, USA, heuristic bot, event log {'on' if args.events else 'off'}; "
              f"{args.batches} batches of {args.races} races per tree and row, interleaved; "
              "CPU time")
        base: dict[str, float] | None = None
        base_n: float | None = None
        for row in rows:
            runs: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in trees}
            skipped: dict[str, str] = {}
            for b in range(args.batches):
                order = trees if b % 2 == 0 else trees[::-1]
                for label, source in order:
                    result = batch(source, args.races, b * args.races, row, args.events)
                    if "skip" in result:
                        skipped[label] = result["skip"]
                    else:
                        runs[label].append(result)
            print(f"{row}:")
            figures = {}
            for label, _ in trees:
                if label in skipped:
                    print(f"  {label:22} not measured: {skipped[label]}")
                else:
                    figures[label] = summary(label, runs[label])
            if len(figures) == 2:
                new, old = figures["this tree"], figures[trees[1][0]]
                print(f"  new/old: {new['us'] / old['us']:.2f}x the cost per car-turn "
                      f"(best batches {new['best'] / old['best']:.2f}x), "
                      f"{new['races_s'] / old['races_s']:.2f}x the races/s")
            if row != "base" and "this tree" in figures and base is not None:
                mine = figures["this tree"]
                print(f"  {row} costs {mine['us'] / base['us']:.2f}x the base game per car-turn "
                      f"with the bots, {mine['alone'] / base['alone']:.2f}x the engine alone")
            if row == "base" and "this tree" in figures:
                base = figures["this tree"]
            if args.instructions:
                counted = {label: instructions(source, args.instructions, row, args.events)
                           for label, source in trees}
                text = ", ".join(f"{label} {n:,.0f}" for label, n in counted.items()
                                 if n is not None)
                print(f"  callgrind, {args.instructions} cold races: {text} instructions per "
                      "car-turn", end="")
                new_n, old_n = counted["this tree"], counted.get(trees[-1][0])
                if len(trees) == 2 and new_n is not None and old_n is not None:
                    print(f" (new/old {new_n / old_n:.2f}x)", end="")
                if row == "base" and new_n is not None:
                    base_n = new_n
                elif new_n is not None and base_n:
                    print(f"; {new_n / base_n:.2f}x the base game", end="")
                print()


if __name__ == "__main__":
    main()
