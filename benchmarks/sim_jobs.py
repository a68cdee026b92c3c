"""Speed-up of ``pitboard simulate --jobs``: whole championship seasons and single races, each
run as a user runs it (the CLI in a fresh process, ``--json``) with one job and with N,
interleaved and repeated; prints the median wall time of each, the speed-up, the CPU the runs
used (children included) and the load average before each pair, and checks that every run
printed the same results (all but the speed figures and ``jobs``).

    python benchmarks/sim_jobs.py [--seasons 500] [--races 4000] [--jobs 2] [--reps 3]

The CPU is shared: the load average says how much else ran meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PITBOARD = Path(sys.executable).parent / "pitboard"
#: what differs between two runs of the same work: the speed figures and the jobs
SPEED = frozenset({"jobs", "seasons_per_second", "races_per_second", "us_per_car_turn",
                   "seconds"})


def run(args: list[str]) -> tuple[float, float, dict[str, Any]]:
    """Wall and CPU seconds (this child and its processes) of ``pitboard simulate ARGS``,
    and what it printed as JSON."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([str(PITBOARD), "simulate", *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(out)


def results(printed: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in printed.items() if k not in SPEED}


def measure(name: str, args: list[str], jobs: int, reps: int) -> bool:
    """Print one row per job count and the speed-up; False if the results differ."""
    walls: dict[int, list[float]] = {1: [], jobs: []}
    cpus: dict[int, list[float]] = {1: [], jobs: []}
    loads: list[float] = []
    printed: list[dict[str, Any]] = []
    for _ in range(reps):
        loads.append(os.getloadavg()[0])
        for n in (1, jobs):
            wall, cpu, out = run([*args, "--jobs", str(n)])
            walls[n].append(wall)
            cpus[n].append(cpu)
            printed.append(results(out))
    same = all(p == printed[0] for p in printed)
    print(f"{name}: pitboard simulate {' '.join(args)} --jobs 1|{jobs}, {reps} runs each "
          f"(load average before each pair: {', '.join(f'{v:.1f}' for v in loads)})")
    for n in (1, jobs):
        print(f"  --jobs {n}: median {statistics.median(walls[n]):6.2f} s wall "
              f"(runs {', '.join(f'{w:.2f}' for w in walls[n])}), "
              f"{statistics.median(cpus[n]):6.2f} s CPU")
    speedup = statistics.median(walls[1]) / statistics.median(walls[jobs])
    print(f"  speed-up {speedup:.2f}x on {os.cpu_count()} CPUs; results "
          f"{'identical' if same else 'DIFFER'} in every run")
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=500, help="1961 seasons per run")
    parser.add_argument("--races", type=int, default=4000, help="single races per run")
    parser.add_argument("--jobs", type=int, default=2, help="the job count set against 1")
    parser.add_argument("--reps", type=int, default=3, help="runs of each")
    args = parser.parse_args()
    ok = measure("seasons", ["--championship", "1961", "--seasons", str(args.seasons)],
                 args.jobs, args.reps)
    ok &= measure("races", ["--races", str(args.races)], args.jobs, args.reps)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
