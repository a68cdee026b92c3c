"""Inputs per car-turn, by kind: what the players' hands do at the table in a base-game race.

Run: ``python benchmarks/table_inputs.py``. Prints figures only (no pass/fail).

Six human stations race whole races on the table (no displays: the count does not depend on
them). Every choice is the heuristic bot's, reaching the table as the lever moves and button
presses a person would make for it (:func:`pitboard.table.autoplay.next_input`, the autopilot of
``pitboard sim --autoplay``), so the count follows the table's flow as players meet it.

Kinds: **lever moves**; **card toggles** (tray presses while planning, paging included);
**GO** (locking a plan in); **resolution keys** (every press while a car resolves: React soft
keys, slipstream, discards and their GO). A car-turn is one car's round: one plan and its
resolution.

Before the turn screen (table/turn.py), each engine step was its own screen: 0.81 lever moves,
2.55 card toggles, 1.00 GO and 3.46 resolution keys per car-turn (1.90 React, 0.44 slipstream,
1.12 discard; cooling 3 Heat took 3 presses), measured with this file at the commit that added
it.
"""

from __future__ import annotations

import sys
from collections import Counter

from pitboard.bots import HeuristicBot
from pitboard.engine.decisions import Plan
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.table import Table

STATIONS = 6
RACES = 12
KINDS = ("lever moves", "card toggles", "GO", "resolution keys")


def kind_of(state: str, event: StationEvent) -> str:
    if isinstance(event, LeverMoved):
        return "lever moves"
    if state == flow.RESOLUTION:
        return "resolution keys"
    if isinstance(event, GoPressed):
        return "GO"
    assert isinstance(event, SlotPressed)
    return "card toggles"


def race(seed: int) -> tuple[Counter[str], int]:
    """Inputs by kind and car-turns of one race with every seat a person."""
    table = Table(stations=STATIONS, seed=seed, cars=STATIONS)
    for i in range(STATIONS):
        table.handle(LeverMoved(station=i, gear=1))
        table.handle(GoPressed(station=i))
    table.handle(SlotPressed(station=0, slot=6))  # RACE
    brain = HeuristicBot(seed=seed)
    counts: Counter[str] = Counter()
    while table.state in (flow.PLANNING, flow.RESOLUTION):
        event = next_input(table, brain=brain)
        if event is None:
            raise RuntimeError(f"seed {seed}: the table waits but no input moves it")
        kind = kind_of(table.state, event)
        counts[kind] += 1
        if kind == "resolution keys":
            assert table.race is not None
            counts[f"  in {table.race.phase}"] += 1
        table.handle(event)
    assert table.race is not None and table.race.over
    turns = sum(isinstance(d, Plan) for d in table.race.log)
    return counts, turns


def main(races: int = RACES) -> dict[str, float]:
    total: Counter[str] = Counter()
    turns = 0
    for seed in range(races):
        counts, n = race(100 + seed)
        total += counts
        turns += n
    per_turn = {k: total[k] / turns for k in KINDS}
    print(f"Inputs per car-turn at the table, base game (USA, {STATIONS} human stations, "
          f"{races} races, {turns} car-turns;\nevery choice the heuristic bot's, typed as a "
          "person would)")
    print()
    for k in KINDS:
        print(f"{k:<16} {per_turn[k]:6.2f}")
        if k == "resolution keys":  # by the engine step the car was in
            for step in sorted(s for s in total if s.startswith("  in ")):
                print(f"{step:<16} {total[step] / turns:6.2f}")
    print(f"{'all':<16} {sum(per_turn.values()):6.2f}")
    return per_turn


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RACES)
