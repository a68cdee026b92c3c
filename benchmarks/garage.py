"""The Garage module's cost and its bots' play.

1. Cost per car-turn beside the base game (6 cars, 2 laps, USA, event log off, CPU time, batches
   interleaved so a busy machine slows both alike): with the heuristic bots playing, and the
   engine alone (replaying those races' decision logs, so the bots' thinking is left out).
2. The heuristic Garage bot against the random one: 3 of each in every race (seats alternate
   between races), Garage draft with every upgrade; who wins, and each side's mean place.

    python benchmarks/garage.py [--races 100] [--batches 3] [--duel 200]
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

from pitboard.bots import Bot, HeuristicBot, RandomBot
from pitboard.engine import Race, RaceSetup
from pitboard.garage_bots import GarageBot
from pitboard.simulate import simulate

GARAGE: dict[str, dict[str, Any]] = {
    "garage": {"choose": "draft", "pool": "all", "expansions": True}}


def engine_alone(modules: dict[str, dict[str, Any]], races: int, seed: int) -> float:
    """CPU microseconds per car-turn replaying the decision logs of heuristic-bot races."""
    logs = []
    for i in range(seed, seed + races):
        setup = RaceSetup(track="usa", cars=6, seed=i, laps=2, modules=modules)
        race = Race(setup, record_events=False)
        bot: Bot = GarageBot(seed=i) if modules else HeuristicBot(seed=i)
        while not race.over:
            race.apply(bot.choose(race, race.waiting_for()))
        logs.append((setup, race.log))
    gc.collect()  # what the bots built stays out of the replay's garbage collections
    gc.freeze()
    start, turns = time.process_time(), 0
    for setup, log in logs:
        race = Race(setup, record_events=False)
        for decision in log:
            race.apply(decision)
        turns += race.car_turns
    spent = time.process_time() - start
    gc.unfreeze()
    return spent / turns * 1e6


def cost(races: int, batches: int) -> None:
    best = {"base": [9e9, 9e9], "garage": [9e9, 9e9]}
    for b in range(batches):
        for name, modules in (("base", {}), ("garage", GARAGE)):
            start = time.process_time()
            result = simulate(track="usa", cars=6, laps=2, races=races, seed=b * races,
                              modules=modules)
            with_bots = (time.process_time() - start) / result.car_turns * 1e6
            alone = engine_alone(modules, max(1, races // 2), b * races)
            best[name] = [min(best[name][0], with_bots), min(best[name][1], alone)]
    for name, (with_bots, alone) in best.items():
        print(f"{name:>6}: {with_bots:6.1f} us per car-turn with heuristic bots, "
              f"{alone:5.1f} engine alone (best of {batches} batches of {races})")
    print(f"garage / base: {best['garage'][0] / best['base'][0]:.2f}x with bots, "
          f"{best['garage'][1] / best['base'][1]:.2f}x engine alone (target <= 1.3x)")


def duel(races: int) -> None:
    wins = {"heuristic": 0, "random": 0}
    places = {"heuristic": 0, "random": 0}
    for i in range(races):
        heuristic = {c for c in range(6) if (c + i) % 2 == 0}
        bots: list[Bot] = [GarageBot(seed=i) if c in heuristic else RandomBot(seed=i + c)
                           for c in range(6)]
        race = Race(RaceSetup(track="usa", cars=6, seed=10_000 + i, laps=2, modules=GARAGE),
                    record_events=False)
        while not race.over:
            car = race.waiting_for()
            race.apply(bots[car].choose(race, car))
        for place, car in enumerate(race.hall_of_fame, start=1):
            side = "heuristic" if car in heuristic else "random"
            places[side] += place
            if place == 1:
                wins[side] += 1
    print(f"{races} Garage races (draft, all upgrades), 3 heuristic vs 3 random bots: "
          f"heuristic wins {wins['heuristic'] / races:.0%}, random {wins['random'] / races:.0%};"
          f" mean place heuristic {places['heuristic'] / (3 * races):.2f}, "
          f"random {places['random'] / (3 * races):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--batches", type=int, default=3)
    parser.add_argument("--duel", type=int, default=200)
    args = parser.parse_args()
    cost(args.races, args.batches)
    duel(args.duel)


if __name__ == "__main__":
    main()
