"""Inputs per car-turn, by kind: what the players' hands do at the table, in a base-game race
and in a Garage race.

Run: ``python benchmarks/table_inputs.py [RACES]``. Prints figures only (no pass/fail).

Six human stations race whole races on the table (no displays: the count does not depend on
them). Every choice is the bot's (the heuristic bot; in a Garage race the Garage bot, which uses
its upgrades' symbols), reaching the table as the lever moves and button presses a person would
make for it (:func:`pitboard.table.autoplay.next_input`, the autopilot of ``pitboard sim
--autoplay``), so the count follows the table's flow as players meet it.

Kinds: **lever moves**; **card toggles** (tray presses while planning, paging included);
**GO** (locking a plan in); **resolution keys** (every press while a car resolves: React soft
keys, slipstream, discards and their GO). In a Garage race the resolution keys are split
further: **symbol keys** (a press on a symbol's key, and the salvage picker's card presses and
GO: one per real symbol choice, plus the picker's open and GO), **page turns** (MORE/TURN/UPG
between the symbols and the toggles) and the rest, next to the **symbol decisions** the bot
made (so symbol keys can be held against the choices they carry). A car-turn is one car's
round: one plan and its resolution. The Garage race deals 3 random upgrades to each car from the
whole pool with the expansions (the draft is not counted here).

Before the turn screen (table/turn.py), each engine step was its own screen: 0.81 lever moves,
2.55 card toggles, 1.00 GO and 3.46 resolution keys per car-turn (1.90 React, 0.44 slipstream,
1.12 discard; cooling 3 Heat took 3 presses), measured with this file at the commit that added
it.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from pitboard.engine.decisions import Plan, React
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from pitboard.table import flow
from pitboard.table.autoplay import hands_bot, next_input
from pitboard.table.table import Table
from pitboard.table.turn_symbols import MORE_KEY, SYMBOLS

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


def _garage_kind(table: Table, event: StationEvent, before: int, picking: bool) -> str:
    """A resolution press in a Garage race: a symbol key, a page turn, or another key."""
    race = table.race
    assert race is not None
    st = table.stations[event.station]
    if picking or (st.turn is not None and st.turn.picker is not None):
        return "  symbol keys"
    made = race.log[before:]
    if made and isinstance(made[0], React) and made[0].action in SYMBOLS:
        return "  symbol keys"
    if isinstance(event, SlotPressed) and event.slot == MORE_KEY and not made:
        return "  page turns"
    return "  other keys"


def race(seed: int, modules: dict[str, dict[str, Any]] | None = None
         ) -> tuple[Counter[str], int]:
    """Inputs by kind and car-turns of one race with every seat a person."""
    table = Table(stations=STATIONS, seed=seed, cars=STATIONS)
    if modules:  # straight to the table's race settings (the lobby's Garage is the draft's)
        table.modules = modules
    for i in range(STATIONS):
        table.handle(LeverMoved(station=i, gear=1))
        table.handle(GoPressed(station=i))
    table.handle(SlotPressed(station=0, slot=6))  # RACE
    assert table.race is not None
    brain = hands_bot(table.race, seed=seed)
    counts: Counter[str] = Counter()
    while table.state in (flow.PLANNING, flow.RESOLUTION):
        event = next_input(table, brain=brain)
        if event is None:
            raise RuntimeError(f"seed {seed}: the table waits but no input moves it")
        kind = kind_of(table.state, event)
        counts[kind] += 1
        assert table.race is not None
        before = len(table.race.log)
        st = table.stations[event.station]
        picking = st.turn is not None and st.turn.picker is not None
        if kind == "resolution keys":
            counts[f"  in {table.race.phase}"] += 1
        table.handle(event)
        if kind == "resolution keys" and modules:
            counts[_garage_kind(table, event, before, picking)] += 1
    race = table.race
    assert race is not None and race.over
    counts["symbol decisions"] = sum(isinstance(d, React) and d.action in SYMBOLS
                                     for d in race.log)
    turns = sum(isinstance(d, Plan) for d in race.log)
    return counts, turns


def report(title: str, races: int, modules: dict[str, dict[str, Any]] | None = None
           ) -> dict[str, float]:
    total: Counter[str] = Counter()
    turns = 0
    for seed in range(races):
        counts, n = race(100 + seed, modules)
        total += counts
        turns += n
    per_turn = {k: total[k] / turns for k in KINDS}
    print(f"Inputs per car-turn at the table, {title} (USA, {STATIONS} human stations, "
          f"{races} races, {turns} car-turns;\nevery choice the bot's, typed as a person would)")
    print()
    for k in KINDS:
        print(f"{k:<18} {per_turn[k]:6.2f}")
        if k == "resolution keys":  # by the engine step the car was in, then by key
            for step in sorted(s for s in total if s.startswith("  in ")):
                print(f"{step:<18} {total[step] / turns:6.2f}")
            for key in ("  symbol keys", "  page turns", "  other keys"):
                if key in total:
                    print(f"{key:<18} {total[key] / turns:6.2f}")
    print(f"{'all':<18} {sum(per_turn.values()):6.2f}")
    if modules:
        print(f"{'symbol decisions':<18} {total['symbol decisions'] / turns:6.2f}"
              "   (the bot's symbol choices, for the symbol keys above)")
    print()
    return per_turn


GARAGE = {"garage": {"choose": "random", "expansions": True}}


def main(races: int = RACES) -> dict[str, dict[str, float]]:
    return {"base": report("base game", races),
            "garage": report("Garage (3 random upgrades each, expansions on)", races, GARAGE)}


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else RACES)
