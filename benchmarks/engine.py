"""Engine speed: 6-car, 2-lap USA races played by the heuristic bot, single-threaded.

Prints races per second and microseconds per car-turn (best of several batches, CPU time, so
other processes on the machine disturb it less), with the event log off (as ``pitboard
simulate`` runs) and on (as the table runs). Figures only: no pass/fail. The heuristic bot
memoizes what it works out about hands and corners across races, so the first batch also pays
for filling those memos; each batch line shows its own figure.

    python benchmarks/engine.py [--races 300] [--batches 5]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from pitboard.bots import HeuristicBot
from pitboard.engine import Race, RaceSetup
from pitboard.garage_bots import make_garage_bot
from pitboard.simulate import simulate


def events_on(track: str, races: int, seed: int) -> tuple[float, int]:
    """CPU seconds and car-turns for ``races`` races with the event log on."""
    start = time.process_time()
    turns = 0
    for i in range(seed, seed + races):
        race = Race(RaceSetup(track=track, cars=6, seed=i, laps=2))
        bot = HeuristicBot(seed=i)
        while not race.over:
            race.apply(bot.choose(race, race.waiting_for()))
        turns += race.car_turns
    return time.process_time() - start, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=300)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--track", default="usa")
    args = parser.parse_args()
    best = None
    for batch in range(args.batches):
        start = time.process_time()
        result = simulate(track=args.track, cars=6, laps=2, races=args.races,
                          seed=batch * args.races)
        cpu = time.process_time() - start
        rate = args.races / cpu
        print(f"batch {batch + 1}: {rate:7.0f} races/s  {cpu / result.car_turns * 1e6:6.1f} "
              f"us/car-turn  ({result.rounds / args.races:.1f} rounds, "
              f"{result.spinouts / args.races:.2f} spin-outs per race)")
        if best is None or rate > best[0]:
            best = (rate, cpu / result.car_turns * 1e6)
    assert best is not None
    print(f"best: {best[0]:.0f} races/s, {best[1]:.1f} us per car-turn "
          f"(6 cars, 2 laps, {args.track}, heuristic bot, events off)")
    # the same with the event log on, as the table runs it: a third as many races per batch
    races = max(1, args.races // 3)
    best = None
    for batch in range(args.batches):
        cpu, turns = events_on(args.track, races, batch * races)
        if best is None or races / cpu > best[0]:
            best = (races / cpu, cpu / turns * 1e6)
    assert best is not None
    print(f"with event log: {best[0]:.0f} races/s, {best[1]:.1f} us per car-turn "
          f"(best of {args.batches} batches of {races})")
    modules(args.track, max(1, args.races // 3), args.batches)


#: the rules modules beside the base game: (label, bot-driven cars, RaceSetup.modules)
MODULE_RUNS: tuple[tuple[str, int, dict[str, dict[str, Any]]], ...] = (
    ("base game", 6, {}),
    ("weather + road tokens", 6, {"weather": {"weather": "random", "road": True}}),
    ("legends (3 of 6 cars)", 3, {"legends": {"cars": 3}}),
    ("legends + weather + road", 3, {"legends": {"cars": 3},
                                     "weather": {"weather": "random", "road": True}}),
)


def modules(track: str, races: int, batches: int) -> None:
    """Each module's cost per car-turn next to the base game's (events off, best of batches;
    the same seeds for every line). A Legend's turn skips the bot's planning, so a field with
    Legends is cheaper per car-turn: its ratio shows what the module's own hooks cost."""
    base = None
    for label, driven, mods in MODULE_RUNS:
        best = None
        for batch in range(batches):
            start = time.process_time()
            result = simulate(track=track, cars=driven, laps=2, races=races,
                              seed=batch * races, modules=mods)
            us = (time.process_time() - start) / result.car_turns * 1e6
            best = us if best is None else min(best, us)
        assert best is not None
        base = best if base is None else base
        print(f"module {label:26} {best:6.1f} us per car-turn  ({best / base:.2f} x base)")


GARAGE = {"garage": {"choose": "draft", "pool": "all", "expansions": True}}


def replay_cost(modules: dict[str, dict[str, object]], races: int, seed: int) -> float:
    """Engine alone: CPU microseconds per car-turn replaying bot races' decision logs."""
    logs = []
    for i in range(seed, seed + races):
        setup = RaceSetup(track="usa", cars=6, seed=i, laps=2, modules=modules)
        race = Race(setup, record_events=False)
        bot = make_garage_bot("heuristic", seed=i) if modules else HeuristicBot(seed=i)
        while not race.over:
            race.apply(bot.choose(race, race.waiting_for()))
        logs.append((setup, race.log))
    start, turns = time.process_time(), 0
    for setup, log in logs:
        race = Race(setup, record_events=False)
        for decision in log:
            race.apply(decision)
        turns += race.car_turns
    return (time.process_time() - start) / turns * 1e6


def garage_vs_base(races: int, batches: int) -> None:
    """The Garage module's cost beside the base game's, per car-turn, batches interleaved so a
    busy machine slows both alike: with the heuristic bots, and the engine alone."""
    best: dict[str, list[float]] = {"base": [9e9, 9e9], "garage": [9e9, 9e9]}
    for batch in range(batches):
        for name, modules in (("base", {}), ("garage", GARAGE)):
            start = time.process_time()
            result = simulate(track="usa", cars=6, laps=2, races=races, seed=batch * races,
                              modules=modules)
            bots = (time.process_time() - start) / result.car_turns * 1e6
            engine = replay_cost(modules, max(1, races // 3), batch * races)
            best[name] = [min(best[name][0], bots), min(best[name][1], engine)]
    for name in ("base", "garage"):
        print(f"{name:>6}: {best[name][0]:6.1f} us per car-turn with heuristic bots, "
              f"{best[name][1]:6.1f} engine alone (replaying their logs)")
    print(f"garage / base: {best['garage'][0] / best['base'][0]:.2f}x with bots, "
          f"{best['garage'][1] / best['base'][1]:.2f}x engine alone (target <= 1.3x)")


if __name__ == "__main__":
    main()
    garage_vs_base(100, 3)
