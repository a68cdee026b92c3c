"""Soak: hundreds of random championship seasons with every property of
tests/test_championship_properties.py (cards conserved, sponsors included; the sponsor deck
conserved; Heat never negative; every season ends; replay identical; undo exact). Prints how
many passed; any failure names its seed.

    python benchmarks/season_soak.py [--seasons 500] [--start 1000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_championship_properties import check_season


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=500)
    parser.add_argument("--start", type=int, default=1000, help="first seed (tests use 0-31)")
    args = parser.parse_args()
    start = time.perf_counter()
    races, kinds = 0, Counter[str]()
    for seed in range(args.start, args.start + args.seasons):
        season = check_season(seed)
        races += len(season.results())
        kinds[season.setup.season] += 1
    print(f"{args.seasons} random seasons (seeds {args.start}-{args.start + args.seasons - 1}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
          + f"), {races} races: every property held ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
