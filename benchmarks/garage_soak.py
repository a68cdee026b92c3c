"""Soak: thousands of random Garage races with every property of tests/test_garage_properties.py
(cards conserved, Heat never negative, every race ends, replay identical, undo exact, snapshot
plays on). Prints how many passed; any failure names its seed.

    python benchmarks/garage_soak.py [--races 2000] [--start 1000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_garage_properties import check_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=2000)
    parser.add_argument("--start", type=int, default=1000, help="first seed (tests use 0-199)")
    args = parser.parse_args()
    start = time.perf_counter()
    turns = 0
    for seed in range(args.start, args.start + args.races):
        turns += check_game(seed).car_turns
    print(f"{args.races} random Garage races (seeds {args.start}-{args.start + args.races - 1}),"
          f" {turns} car-turns: every property held ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
