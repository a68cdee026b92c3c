"""The forecast's oracle (issue 23): over random mid-race states of the base game and of every
module, for every legal plan of the car whose turn comes first, the forecast's outcomes and
their chances are exactly what the engine does with that plan and GO's preset answers, for
every order the car's cards can come in (tests/oraclekit.py, a brute force on the engine).

A disagreement fails with the state as a scenario file that reproduces it (docs/scenarios.md).
The brute force reads every card the engine reads: a plan it cannot finish within
:data:`BUDGET` plays (three Stress flips into a reshuffle, a long scrap) is left to the soak,
``benchmarks/forecast_oracle.py``, which runs thousands of states without a budget.
"""

from __future__ import annotations

from typing import Any

import pytest

from oraclekit import (
    engine_outcomes,
    forecast_outcomes,
    legal_plans,
    mid_race,
    scenario_text,
)
from pitboard.engine import Race
from pitboard.engine.championship.module import SPONSOR_CODES
from pitboard.engine.forecast import forecast
from pitboard.scenario import parse_scenario

GARAGE = {"choose": "random", "pool": "all", "expansions": True}
#: the rules each run uses: the base game, each module, all of them
CONFIGS: dict[str, dict[str, Any]] = {
    "base": {},
    "garage": {"garage": GARAGE},
    "legends": {"legends": {"cars": 2}},
    "weather": {"weather": {"weather": "random", "road": True}},
    "all": {"garage": GARAGE, "legends": {"cars": 1, "pro": 1},
            "weather": {"weather": "random", "road": True}},
}
#: championship races (their Event's rules; sponsors in the hands): an Event for each way a rule
#: reaches the turn or the plan -- a hand of 8 (more plans), a hand of 6 with less Heat and more
#: Stress, Heat cards leaving the game as a lap is crossed, a spin-out putting the car out --
#: with the first seed of a state whose player holds sponsor cards
EVENTS = {"record_crowds": 370, "safety_regulations": 360, "pressure_cooker": 280,
          "future_unknown": 350}
#: states per run (fixed seeds; a seed whose state is unusable, a Legend leading, is skipped)
SEEDS = 4
#: plays of the engine the brute force may take per plan
BUDGET = 500


def states(modules: dict[str, Any], first: int, count: int) -> list[tuple[Race, int]]:
    """``count`` usable states from the seeds from ``first`` on."""
    out: list[tuple[Race, int]] = []
    seed = first
    while len(out) < count:
        found = mid_race(modules, seed)
        if found is not None:
            out.append(found)
        seed += 1
        assert seed < first + 40 * count, "too few usable states"
    return out


@pytest.mark.parametrize("name", CONFIGS)
def test_the_forecast_is_what_the_engine_does_for_every_order_of_the_cards(name: str) -> None:
    checked = over = 0
    for race, car in states(CONFIGS[name], 1000 * len(name), SEEDS):
        for plan in legal_plans(race, car):
            result = engine_outcomes(race, plan, budget=BUDGET)
            if result is None:
                over += 1
                continue
            engine, _plays = result
            fc = forecast(race, car, plan.gear, plan.cards)
            mine = forecast_outcomes(fc)
            if mine != engine:
                pytest.fail("the forecast disagrees with the engine:\n" + scenario_text(
                    race, plan, [f"forecast {sorted(mine.items())}",
                                 f"engine   {sorted(engine.items())}"]))
            assert sum(engine.values()) == 1
            checked += 1
    assert checked >= 40 and over <= checked // 3, (checked, over)


def test_the_forecast_knows_the_championship_events_and_sponsors() -> None:
    """One state per Event of :data:`EVENTS`: every plan's forecast is what the engine does,
    plans that play a sponsor card among them. (Slipstream only in gears 3-4 and no Adrenaline
    never reach a round's leader: tests/test_forecast.py checks them.)"""
    checked = sponsored = 0
    for event, seed in EVENTS.items():
        modules = {"garage": {"choose": "none"}, "championship": {"event": event}}
        race, car = states(modules, seed, 1)[0]
        assert race.hooks.by_key["championship"].event.key == event
        for plan in legal_plans(race, car):
            result = engine_outcomes(race, plan, budget=BUDGET)
            if result is None:
                continue
            mine = forecast_outcomes(forecast(race, car, plan.gear, plan.cards))
            assert mine == result[0], scenario_text(race, plan, [event])
            checked += 1
            sponsored += any(code in SPONSOR_CODES for code in plan.cards)
    assert checked >= 40 and sponsored >= 5, (checked, sponsored)


def test_card_codes_make_no_difference() -> None:
    """The brute force tells cards apart by class (a basic card's value, or not basic): told
    apart by code instead (a Heat card from a Stress card from an upgrade...), every plan it
    finishes gives the same chances."""
    checked = 0
    for race, car in states(CONFIGS["all"], 40, 5):
        for plan in legal_plans(race, car)[:8]:
            by_code = engine_outcomes(race, plan, codes=True, budget=600)
            if by_code is None:
                continue
            by_class = engine_outcomes(race, plan)
            assert by_class is not None and by_class[0] == by_code[0]
            checked += 1
    assert checked >= 5


def test_a_disagreement_replays_from_its_scenario_file() -> None:
    race, car = states(CONFIGS["all"], 7, 1)[0]
    plan = legal_plans(race, car)[0]
    scenario = parse_scenario(scenario_text(race, plan, ["a note"]), "dump.txt")
    replayed = Race(scenario.setup, track=scenario.track)
    for _, decision in scenario.decisions[:-1]:  # the others' plans: the plan is the last line
        replayed.apply(decision)
    assert scenario.decisions[-1][1] == plan
    assert replayed.pending().cars == (car,) and replayed.order == race.order
    for mine, theirs in zip(replayed.cars, race.cars, strict=True):
        assert (mine.d, mine.spot, mine.gear, mine.engine, mine.hand, mine.draw, mine.discard,
                mine.play) == (theirs.d, theirs.spot, theirs.gear, theirs.engine, theirs.hand,
                               theirs.draw, theirs.discard, theirs.play)
    modules = {m.key: m.to_dict() for m in race.hooks.modules}
    again = {m.key: m.to_dict() for m in replayed.hooks.modules}
    assert again["weather"] == modules["weather"]
    assert again["garage"]["picks"] == modules["garage"]["picks"]
    assert again["legends"]["colour_of"] == modules["legends"]["colour_of"]
