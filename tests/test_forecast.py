"""Forecast tests: exact Stress odds, corners and Heat, spin-outs, blocking, illegal and
clogged selections, and the forecast agreeing with what the engine then does."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest

from pitboard.engine import Discard, Plan, Race, React, Slipstream, race_to_dict
from pitboard.engine.forecast import CornerCheck, Forecast, forecast, stress_distribution
from pitboard.scenario import load_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
F = Fraction


def start(name: str) -> Race:
    """A scenario's race before any decision."""
    sc = load_scenario(SCENARIOS / f"{name}.txt")
    return Race(sc.setup, track=sc.track)


def play_turn(race: Race, plan: Plan) -> None:
    """Apply ``plan`` (the only car planning) and resolve its turn without extra choices."""
    race.apply(plan)
    while race.current is not None and race.current.id == plan.car:
        kind = race.pending().kind
        if kind == "react":
            race.apply(React(plan.car, "done"))
        elif kind == "slipstream":
            race.apply(Slipstream(plan.car, False))
        else:
            race.apply(Discard(plan.car, ()))


def total(dist: dict[int, Fraction]) -> Fraction:
    return sum(dist.values(), F(0))


# ---------------------------------------------------------------- stress_distribution
@pytest.mark.parametrize(("draw", "discard", "flips", "expected"), [
    ([], [], 0, {0: F(1)}),
    (["1", "2", "3", "4"], [], 1, {1: F(1, 4), 2: F(1, 4), 3: F(1, 4), 4: F(1, 4)}),
    (["4", "4", "1"], [], 1, {4: F(2, 3), 1: F(1, 3)}),
    # only basic cards stop a flip: Heat, Stress and the 0/5 upgrades are flipped past
    (["H", "5", "0", "4", "S"], ["1"], 1, {4: F(1)}),
    # without replacement: 1+1 (2/3 * 1/2), 1+4 or 4+1
    (["1", "1", "4"], [], 2, {2: F(1, 3), 5: F(2, 3)}),
    # the draw pile runs out: the second flip comes from the reshuffled discard pile
    (["2"], ["3", "4", "H"], 2, {5: F(1, 2), 6: F(1, 2)}),
    ([], ["1", "3"], 1, {1: F(1, 2), 3: F(1, 2)}),
    (["3"], ["1", "1", "2"], 3, {5: F(1, 3), 6: F(2, 3)}),
    # nothing left anywhere: the flip gives nothing
    (["H"], ["5", "0"], 1, {0: F(1)}),
    (["1"], [], 2, {1: F(1)}),
])
def test_stress_distribution_exact(
    draw: list[str], discard: list[str], flips: int, expected: dict[int, Fraction]
) -> None:
    dist = stress_distribution(draw, discard, flips)
    assert dist == expected
    assert total(dist) == 1


def test_stress_distribution_two_flips_full_deck() -> None:
    deck = ["1", "2", "3", "4"] * 3
    dist = stress_distribution(deck, [], 2)
    # 12 * 11 ordered pairs; a total of 2 needs two 1s: 3 * 2 of them
    assert dist[2] == F(6, 132) and dist[8] == F(6, 132)
    assert dist[5] == F(4 * 9, 132)  # 1+4, 2+3, 3+2, 4+1: 3 x 3 ordered card pairs each
    assert total(dist) == 1


# ---------------------------------------------------------------- forecast
def test_forecast_stress_odds_and_spin_out() -> None:
    race = start("forecast_stress")
    fc = forecast(race, 0, 2, ("3", "S"))
    assert fc.legal and not fc.clogged and fc.shift_cost == 0 and fc.engine == 3
    assert [(o.speed, o.probability) for o in fc.outcomes] == [(4, F(1, 2)), (7, F(1, 2))]
    slow, fast = fc.outcomes
    assert (slow.space, slow.corners, slow.heat, slow.spin_out) == (32, (), 0, False)
    # Speed 7 over corner 2 (limit 3) owes 4 with 3 in the engine: pays 3 and spins out
    assert fast.corners == (CornerCheck(2, 3, 3),)
    assert (fast.spin_out, fast.spin_corner, fast.heat) == (True, 2, 3)
    assert (fast.d, fast.space, fast.spot) == (33, 33, 2)
    assert fc.spin_probability == F(1, 2)
    assert (fc.min_speed, fc.max_speed, fc.max_heat) == (4, 7, 3)
    assert fc.corners() == [CornerCheck(2, 3, 3)]


def test_forecast_stress_running_into_the_discard_pile() -> None:
    race = start("forecast_discard")
    fc = forecast(race, 0, 3, ("S", "S", "S"))
    # flips 1 and 2 take the draw pile's 1 and 4; flip 3 the discard pile's 2 or 3
    assert [(o.speed, o.probability) for o in fc.outcomes] == [(7, F(1, 2)), (8, F(1, 2))]
    assert [o.space for o in fc.outcomes] == [21, 22]
    assert fc.spin_probability == 0


def test_forecast_matches_the_engine_for_every_order_of_the_draw_pile() -> None:
    base = load_scenario(SCENARIOS / "forecast_stress.txt").setup
    fc = forecast(Race(base), 0, 2, ("3", "S"))
    expected = {(o.speed, o.d, o.spin_out, o.heat): o.probability for o in fc.outcomes}
    seen: Counter[tuple[int, int, bool, int]] = Counter()
    orders = set(permutations(("1", "H", "4", "5")))
    for order in orders:
        stacked = dataclasses.replace(base.stacked[0], draw=order)
        race = Race(dataclasses.replace(base, stacked={0: stacked}))
        engine = race.cars[0].engine
        play_turn(race, Plan(0, 2, ("3", "S")))
        car = race.cars[0]
        spun = any(e.kind == "spin_out" for e in race.events)
        seen[(car.speed, car.d, spun, engine - car.engine)] += 1
    assert {k: F(n, len(orders)) for k, n in seen.items()} == expected


def test_forecast_discard_outcomes_are_what_the_engine_does() -> None:
    base = load_scenario(SCENARIOS / "forecast_discard.txt").setup
    support = {o.speed for o in forecast(Race(base), 0, 3, ("S", "S", "S")).outcomes}
    speeds = set()
    for seed in range(40):  # the seed decides how the discard pile is reshuffled
        race = Race(dataclasses.replace(base, seed=seed))
        play_turn(race, Plan(0, 3, ("S", "S", "S")))
        speeds.add(race.cars[0].speed)
    assert speeds == support == {7, 8}


def test_forecast_corner_heat_matches_the_rulebook_example() -> None:
    race = start("corner_rulebook")
    fc = forecast(race, 0, 2, ("2", "3"))
    (o,) = fc.outcomes
    assert (o.speed, o.probability, o.space, o.lap) == (5, F(1), 35, 1)
    assert o.corners == (CornerCheck(2, 3, 2),) and o.heat == 2 and not o.spin_out
    play_turn(race, Plan(0, 2, ("2", "3")))
    assert race.cars[0].d == o.d and race.cars[0].engine == 6 - o.heat


def test_forecast_several_corners_and_shift_heat() -> None:
    race = start("corners_several")  # GB space 36, gear 2, engine 7
    (o,) = forecast(race, 0, 2, ("4", "4")).outcomes
    assert o.corners == (CornerCheck(3, 5, 3), CornerCheck(4, 4, 4))
    assert o.heat == 7 and not o.spin_out
    # shifting 2 -> 4 costs 1 Heat first: then corner 4 cannot be paid in full
    fc = forecast(race, 0, 4, ("4", "4", "1", "1"))
    assert fc.shift_cost == 1
    (o,) = fc.outcomes
    assert o.speed == 10 and o.corners == (CornerCheck(3, 5, 5), CornerCheck(4, 4, 1))
    assert o.spin_out and o.spin_corner == 4 and o.heat == 1 + 6
    assert (o.space, o.spot) == (43, 2)


def test_forecast_spin_out_matches_the_engine() -> None:
    race = start("spin_out_gear2")
    (o,) = forecast(race, 0, 2, ("4", "4")).outcomes
    assert (o.spin_out, o.spin_corner, o.heat, o.space) == (True, 2, 3, 33)
    assert forecast(race, 0, 2, ("4", "4")).spin_probability == 1
    play_turn(race, Plan(0, 2, ("4", "4")))
    assert (race.cars[0].d, race.cars[0].spot, race.cars[0].engine) == (o.d, o.spot, 0)


def test_forecast_blocked_landing() -> None:
    race = start("blocking")
    (o,) = forecast(race, 0, 2, ("3", "4")).outcomes
    assert (o.speed, o.spaces, o.blocked, o.space, o.spot, o.racing_line) == \
        (7, 6, 1, 19, 1, False)
    end = load_scenario(SCENARIOS / "blocking.txt").run()  # the engine agrees
    assert (end.cars[0].d, end.cars[0].spot) == (o.d, o.spot)


@pytest.mark.parametrize(("gear", "cards", "problem"), [
    (2, ("3", "H"), "Heat cards cannot be played"),
    (2, ("3",), "gear 2 plays 2 cards, not 1"),
    (2, ("4", "4"), "card 4 is not in hand"),
])
def test_forecast_illegal_selection_gives_a_problem(
    gear: int, cards: tuple[str, ...], problem: str
) -> None:
    race = start("forecast_stress")
    fc = forecast(race, 0, gear, cards)
    assert not fc.legal and fc.problem is not None and problem in fc.problem
    assert fc.outcomes == () and fc.spin_probability == 0


def test_partial_forecast_of_a_short_selection() -> None:
    race = start("forecast_stress")
    full = forecast(race, 0, 2, ("S",))
    assert full.problem == "gear 2 plays 2 cards, not 1" and full.outcomes == ()
    part = forecast(race, 0, 2, ("S",), partial=True)  # still choosing: warn already
    assert part.problem == full.problem
    assert [(o.speed, o.probability) for o in part.outcomes] == [(1, F(1, 2)), (4, F(1, 2))]
    other = forecast(race, 0, 2, ("H",), partial=True)  # other problems still stop it
    assert other.problem == "Heat cards cannot be played" and other.outcomes == ()


def test_forecast_illegal_shift() -> None:
    race = start("shift_illegal")
    fc = forecast(race, 0, 3, ("1", "2", "3"))
    assert fc.problem == "cannot shift 1->3: no Heat in the engine for a 2-gear shift"
    fc = forecast(race, 1, 1, ("1",))
    assert fc.problem is not None and "shift at most 2 gears" in fc.problem


def test_forecast_clogged_selection() -> None:
    race = start("clogged")  # gear 3, hand H H H H H 1 2
    fc: Forecast = forecast(race, 0, 3, ("1", "2"))
    assert fc.legal and fc.clogged
    (o,) = fc.outcomes
    assert (o.speed, o.probability, o.spaces, o.d, o.heat, o.spin_out) == \
        (0, F(1), 0, 20, 0, False)
    fc = forecast(race, 0, 1, ("1",))  # 3 -> 1 is a 2-gear shift: 1 Heat, not clogged
    assert fc.legal and not fc.clogged and fc.shift_cost == 1
    assert [o.heat for o in fc.outcomes] == [1]


def test_forecast_does_not_change_the_race() -> None:
    race = start("forecast_stress")
    before = race_to_dict(race, events=True)
    forecast(race, 0, 2, ("3", "S"))
    forecast(race, 0, 2, ("3", "H"))
    assert race_to_dict(race, events=True) == before
