"""Soak: the forecast's oracle (tests/test_forecast_oracle.py) over thousands of random mid-race
states, the base game and every module, every legal plan of the car whose turn comes first,
checked against the engine for every order of the cards (tests/oraclekit.py), with a far
larger budget of engine plays per plan than ``make test`` can afford.

    python benchmarks/forecast_oracle.py [--states 400] [--budget 20000] [--seed 0] [--rules all]

``--states`` is per rule set (base, garage, legends, weather, all, championship: each state a
championship race with the next of the 18 Events, sponsors in the hands). Prints, per rule set, the
states and plans checked, the plans left over the budget, the engine plays and the time, and
the forecast's own time per plan; exits 1 on the first disagreement, printing the state as a
scenario file that reproduces it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from oraclekit import engine_outcomes, forecast_outcomes, legal_plans, mid_race, scenario_text
from pitboard.engine import forecast as forecast_module
from pitboard.engine.championship.data import load_championship
from pitboard.engine.forecast import forecast
from test_forecast_oracle import CONFIGS

#: the rule sets: the oracle test's, and championship races (their Event by seed)
RULES = (*CONFIGS, "championship")
EVENTS = tuple(event.key for event in load_championship().events)


def rules(name: str, seed: int) -> dict[str, Any]:
    """The modules of rule set ``name`` for the state drawn from ``seed``."""
    if name == "championship":
        return {"garage": {"choose": "none"},
                "championship": {"event": EVENTS[seed % len(EVENTS)]}}
    return CONFIGS[name]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=400, help="states per rule set")
    parser.add_argument("--budget", type=int, default=20000, help="engine plays per plan")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--rules", choices=RULES, action="append",
                        help="only this rule set (again for more; default: all of them)")
    args = parser.parse_args()
    print(f"forecast oracle: {args.states} states per rule set, up to {args.budget} engine "
          f"plays per plan")
    total_states = total_plans = 0
    for name in RULES:
        if args.rules and name not in args.rules:
            continue
        start = time.perf_counter()
        states = plans = over = plays = 0
        spent: list[float] = []
        seed = args.seed
        while states < args.states:
            found = mid_race(rules(name, seed), seed)
            seed += 1
            if found is None:
                continue
            race, car = found
            states += 1
            for plan in legal_plans(race, car):
                result = engine_outcomes(race, plan, budget=args.budget)
                if result is None:
                    over += 1
                    continue
                engine, n = result
                plays += n
                forecast_module._memos.clear()  # the forecast's own time, not a kept answer
                t = time.perf_counter()
                mine = forecast_outcomes(forecast(race, car, plan.gear, plan.cards))
                spent.append(time.perf_counter() - t)
                plans += 1
                if mine != engine:
                    print(f"\n{name}: the forecast disagrees with the engine (seed {seed - 1}):")
                    print(scenario_text(race, plan, [f"forecast {sorted(mine.items())}",
                                                     f"engine   {sorted(engine.items())}"]))
                    return 1
        spent.sort()
        print(f"{name:<12} {states:>5} states {plans:>6} plans agree, {over} over the budget; "
              f"{plays} engine plays in {time.perf_counter() - start:.0f} s; forecast per "
              f"plan: median {1000 * statistics.median(spent):.2f} ms, "
              f"p99 {1000 * spent[int(0.99 * (len(spent) - 1))]:.2f} ms, "
              f"max {1000 * spent[-1]:.1f} ms")
        total_states += states
        total_plans += plans
    print(f"all: {total_states} states, {total_plans} plans: the forecast is the engine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
