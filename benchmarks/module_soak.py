"""Soak: thousands of random races with Legends, weather and road conditions, every invariant
checked after every decision, replay and undo checked at the end (the property tests in
tests/test_module_properties.py, many more races than ``make test`` has time for).

    python benchmarks/module_soak.py [--races 2000] [--seed 0]

Prints how many races ran, by module mix, and the longest race; exits 1 on the first failure
with the game that failed, so it can be replayed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pitboard.catalog import TRACKS, WEATHER_TOKENS
from test_module_properties import ModuleGame, check_finished, play


def random_game(rng: random.Random) -> ModuleGame:
    drivers = rng.randint(1, 5)
    return ModuleGame(
        track=rng.choice(TRACKS), drivers=drivers, legends=rng.randint(0, 6 - drivers),
        laps=rng.randint(1, 2), seed=rng.getrandbits(32),
        weather=rng.choice((None, "random", *WEATHER_TOKENS)), road=rng.random() < 0.7,
        pro=rng.randint(0, 6), aggressive=rng.random() < 0.5,
        random_bots=tuple(rng.random() < 0.3 for _ in range(drivers)),
        garage=rng.choice((None, None, "random", "draft")), expansions=rng.random() < 0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    mix: Counter[str] = Counter()
    longest = 0
    start = time.perf_counter()
    for i in range(args.races):
        game = random_game(rng)
        try:
            race, before_last = play(game)
            check_finished(game, race, before_last)
        except AssertionError as exc:
            print(f"race {i + 1} FAILED: {exc}\n  {game}")
            return 1
        mix["legends" if game.legends else "no legends"] += 1
        mix["weather" if game.weather else "no weather"] += 1
        mix["road tokens" if game.weather and game.road else "no road tokens"] += 1
        mix["garage" if game.garage else "no garage"] += 1
        longest = max(longest, race.round)
    seconds = time.perf_counter() - start
    print(f"{args.races} races, every invariant held ({seconds:.0f} s): "
          + ", ".join(f"{k} {v}" for k, v in sorted(mix.items())) + f"; longest {longest} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
