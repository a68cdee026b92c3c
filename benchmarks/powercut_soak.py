"""Power-cut soak: a 6-car race with hundreds of SIGKILLs inside journal writes, and the time
from start to every station redrawn.

    .venv/bin/python benchmarks/powercut_soak.py [--laps 3] [--seeds 2] [--gap 3]

Prints how many cuts the race survived, whether it finished exactly as the uninterrupted run,
and two start-up figures (target: all stations redrawn within 1 s for a 3-lap 6-car race):
``boot`` is journal recovery + replay + first frames in a forked child (imports already
loaded); ``cold start`` is a fresh interpreter (imports included) resuming the final journal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from powercut import race_with_power_cuts

COLD = """
import time, sys
t0 = time.perf_counter()
from pathlib import Path
from pitboard.app import App
from pitboard.hwconfig import load_profile
app = App.build(load_profile("sim"), journal=Path(sys.argv[1]))
app.boot()
assert app.table.race is not None
print(f"{time.perf_counter() - t0:.6f} {len(app.table.race.log)}")
"""


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--laps", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--gap", type=int, default=3, help="a cut every 1..GAP journal writes")
    args = parser.parse_args()
    boots: list[float] = []
    kills = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for seed in range(1, args.seeds + 1):
            straight = race_with_power_cuts(root / f"s{seed}", seed=seed, laps=args.laps)
            cut = race_with_power_cuts(root / f"c{seed}", seed=seed, laps=args.laps,
                                       kill_rng=random.Random(seed), max_gap=args.gap)
            same = cut.final == straight.final
            print(f"seed {seed}: {cut.kills} power cuts, {len(cut.final['log'])} decisions, "
                  f"finished {'exactly as' if same else 'DIFFERENTLY from'} the uninterrupted run")
            kills += cut.kills
            boots += cut.boots
        # a 3-lap race resumed from its (finished, unreset) journal by a fresh interpreter
        colds = []
        for _ in range(5):
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", COLD, str(root / "c1" / "journal")],
                                 check=True, capture_output=True, text=True).stdout.split()
            colds.append((time.perf_counter() - t0, float(out[0]), int(out[1])))
    boots.sort()
    p99 = boots[min(len(boots) - 1, int(len(boots) * 0.99))]
    print(f"power cuts survived: {kills}")
    print(f"boot (recover + replay + redraw 6 stations), {len(boots)} boots: "
          f"median {_ms(statistics.median(boots))}, p99 {_ms(p99)}, max {_ms(boots[-1])} "
          "(target <= 1000 ms)")
    wall = min(c[0] for c in colds)
    inside = min(c[1] for c in colds)
    print(f"cold start of a fresh process resuming a {colds[0][2]}-decision race: "
          f"{_ms(wall)} wall from exec, {_ms(inside)} from interpreter start (best of 5)")


if __name__ == "__main__":
    main()
