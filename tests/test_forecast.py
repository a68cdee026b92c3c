"""Forecast tests: the turn as one GO plays it (cooling, Adrenaline, Boost, slipstream as the
turn screen presets them), exact Stress odds, corners and Heat, spin-outs and the toggles that
avoid them, blocking, illegal and clogged selections, a championship Event's slipstream,
Adrenaline and elimination rules with a sponsor card, and the forecast agreeing with the engine
(tests/test_forecast_oracle.py does that over random races)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from oraclekit import engine_outcomes, forecast_outcomes
from pitboard.engine import Plan, Race, race_to_dict
from pitboard.engine import forecast as forecast_module
from pitboard.engine.decisions import Discard
from pitboard.engine.forecast import CornerCheck, Forecast, Risk, forecast
from pitboard.engine.preset import play_turn
from pitboard.scenario import load_scenario, parse_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
F = Fraction
#: the turn with no React choice taken: the plan alone
PLAIN = {"adrenaline": False, "boost": False, "cooling": False, "slipstream": False}


def start(name: str) -> Race:
    """A scenario's race before any decision."""
    sc = load_scenario(SCENARIOS / f"{name}.txt")
    return Race(sc.setup, track=sc.track)


def agrees(race: Race, plan: Plan) -> None:
    """The forecast of ``plan`` is what the engine does, for every order of the cards."""
    found = engine_outcomes(race, plan)
    assert found is not None
    assert forecast_outcomes(forecast(race, plan.car, plan.gear, plan.cards)) == found[0]


# ---------------------------------------------------------------- the turn as GO plays it
#: issue 23: gear 2 with 1 Heat in the engine and two Heat cards in hand, corner 2 (limit 3)
#: crossed at 5. Cooldown in gear 2 is 1: GO cools 1 Heat first, then pays the corner's 2
ISSUE = """
track usa
laps 1
cars 2
car 0 at lap 1 space 29 spot 2
car 0 gear 2
car 0 engine 1
car 0 hand 2 3 H H 1 1 1
car 0 draw 1 1 1 1 1 1
car 1 at lap 1 space 10 spot 1
car 1 hand 1 1 1 1 1 1 1
plan 1 gear 1 cards 1
"""


def issue_race() -> Race:
    sc = parse_scenario(ISSUE, "issue23.txt")
    race = Race(sc.setup, track=sc.track)
    for _, decision in sc.decisions:
        race.apply(decision)
    return race


def test_the_turn_screens_cooling_counts_before_the_corner() -> None:
    race = issue_race()
    fc = forecast(race, 0, 2, ("2", "3"))
    (o,) = fc.outcomes
    assert (o.speed, o.cooled, o.spin_out, o.engine) == (5, 1, False, 0)
    assert o.corners == (CornerCheck(2, 3, 2),) and o.heat == 2
    # the plan alone would spin there (what the old forecast said): the warning says COOL
    # must stay on
    assert fc.spin_probability == 0 and fc.risks == (Risk("cooling", False, F(1)),)
    plain = forecast(race, 0, 2, ("2", "3"), overrides=PLAIN)
    assert plain.spin_probability == 1
    # GO does what the forecast says
    race.apply(Plan(0, 2, ("2", "3")))
    play_turn(race, 0)
    car = race.cars[0]
    assert (car.d, car.engine, car.spun) == (o.d, 0, False)


#: a lone car (Adrenaline: +1) far from any corner, a Boost's flip from 2 3 4 4
OPEN_ROAD = """
track usa
laps 1
cars 1
car 0 at lap 1 space 14 spot 2
car 0 gear 1
car 0 engine 6
car 0 hand 1 1 1 1 1 1 1
car 0 draw 4 2 3 4
"""


def test_adrenaline_and_boost_count_where_the_preset_takes_them() -> None:
    race = Race(parse_scenario(OPEN_ROAD, "open.txt").setup)
    fc = forecast(race, 0, 1, ("1",))
    assert all(o.boosted and o.adrenaline and o.engine == 5 for o in fc.outcomes)
    assert [(o.speed, o.probability) for o in fc.outcomes] == \
        [(4, F(1, 4)), (5, F(1, 4)), (6, F(1, 2))]
    assert [o.space for o in fc.outcomes] == [18, 19, 20]
    agrees(race, Plan(0, 1, ("1",)))
    # BST turned off: 1 + 1, no flip
    (o,) = forecast(race, 0, 1, ("1",), overrides={"boost": False}).outcomes
    assert (o.speed, o.boosted, o.engine) == (2, False, 6)


def test_the_preset_holds_back_where_a_corner_would_cost_too_much() -> None:
    # space 28, 3 Heat, corner 2 (limit 3) after space 33: a Boost's 4 would cross it at 6
    race = start("forecast_stress")
    (o,) = forecast(race, 0, 1, ("1",)).outcomes
    assert (o.speed, o.adrenaline, o.boosted, o.cooled, o.spin_out) == (2, True, False, 1, False)
    agrees(race, Plan(0, 1, ("1",)))


# ---------------------------------------------------------------- odds, corners, Heat
def test_forecast_stress_odds_and_spin_out() -> None:
    race = start("forecast_stress")
    fc = forecast(race, 0, 2, ("3", "S"), overrides=PLAIN)
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
    fc = forecast(race, 0, 3, ("S", "S", "S"), overrides=PLAIN)
    # flips 1 and 2 take the draw pile's 1 and 4; flip 3 the discard pile's 2 or 3
    assert [(o.speed, o.probability) for o in fc.outcomes] == [(7, F(1, 2)), (8, F(1, 2))]
    assert [o.space for o in fc.outcomes] == [21, 22]
    assert fc.spin_probability == 0
    agrees(race, Plan(0, 3, ("S", "S", "S")))


@pytest.mark.parametrize(("name", "plan"), [
    ("forecast_stress", Plan(0, 2, ("3", "S"))),
    ("forecast_stress", Plan(0, 2, ("S", "1"))),
    ("forecast_discard", Plan(0, 3, ("S", "S", "3"))),
    ("corner_rulebook", Plan(0, 2, ("2", "3"))),
    ("corners_several", Plan(0, 2, ("4", "4"))),
    ("spin_out_gear2", Plan(0, 2, ("4", "4"))),
])
def test_forecast_is_what_the_engine_does(name: str, plan: Plan) -> None:
    agrees(start(name), plan)


def test_forecast_corner_heat_matches_the_rulebook_example() -> None:
    race = start("corner_rulebook")
    (o,) = forecast(race, 0, 2, ("2", "3"), overrides=PLAIN).outcomes
    assert (o.speed, o.probability, o.space, o.lap) == (5, F(1), 35, 1)
    assert o.corners == (CornerCheck(2, 3, 2),) and o.heat == 2 and not o.spin_out


def test_forecast_several_corners_and_shift_heat() -> None:
    race = start("corners_several")  # GB space 36, gear 2, engine 7
    (o,) = forecast(race, 0, 2, ("4", "4"), overrides=PLAIN).outcomes
    assert o.corners == (CornerCheck(3, 5, 3), CornerCheck(4, 4, 4))
    assert o.heat == 7 and not o.spin_out
    # shifting 2 -> 4 costs 1 Heat first: then corner 4 cannot be paid in full
    fc = forecast(race, 0, 4, ("4", "4", "1", "1"), overrides=PLAIN)
    assert fc.shift_cost == 1
    (o,) = fc.outcomes
    assert o.speed == 10 and o.corners == (CornerCheck(3, 5, 5), CornerCheck(4, 4, 1))
    assert o.spin_out and o.spin_corner == 4 and o.heat == 1 + 6
    assert (o.space, o.spot) == (43, 2)


def test_forecast_blocked_landing() -> None:
    race = start("blocking")
    (o,) = forecast(race, 0, 2, ("3", "4"), overrides=PLAIN).outcomes
    assert (o.speed, o.spaces, o.blocked, o.space, o.spot, o.racing_line) == \
        (7, 6, 1, 19, 1, False)


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
    part = forecast(race, 0, 2, ("S",), partial=True, overrides=PLAIN)  # still choosing
    assert part.problem == full.problem
    assert [(o.speed, o.probability) for o in part.outcomes] == [(1, F(1, 2)), (4, F(1, 2))]
    other = forecast(race, 0, 2, ("H",), partial=True)  # other problems still stop it
    assert other.problem == "Heat cards cannot be played" and other.outcomes == ()
    assert forecast(race, 0, 2, (), partial=True).outcomes == ()  # nothing chosen yet


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
    fc = forecast(race, 0, 1, ("1",), overrides=PLAIN)  # 3 -> 1: 1 Heat, not clogged
    assert fc.legal and not fc.clogged and fc.shift_cost == 1
    assert [o.heat for o in fc.outcomes] == [1]


def test_forecast_does_not_change_the_race() -> None:
    race = start("forecast_stress")
    before = race_to_dict(race, events=True)
    forecast(race, 0, 2, ("3", "S"))
    forecast(race, 0, 2, ("3", "H"))
    forecast(race, 0, 1, ("S",), partial=True)
    assert race_to_dict(race, events=True) == before


def test_forecasts_are_kept_while_the_race_plans() -> None:
    race = issue_race()
    first = forecast(race, 0, 2, ("2", "3"))
    assert forecast(race, 0, 2, ("2", "3")) is first  # the same selection: kept
    race.apply(Plan(0, 2, ("2", "3")))  # the round moves on: a new answer
    assert forecast(race, 0, 2, ("2", "3")) is not first
    assert not forecast_module._entry(race)  # (and none kept outside the planning)


# ---------------------------------------------------------------- championship Events
#: France: car 0 waits on space 30; car 1 comes from 25 with a sponsor card in hand (P3,
#: Aperault RPM Cie: speed 1, slipstream +2) and is last in the race: Adrenaline +1
WINDS = """
track france
laps 1
cars 2
event {event}
car 0 at lap 1 space 30 spot 1
car 0 hand 0 1 1 1 1 1 1
car 1 at lap 1 space 25 spot 1
car 1 gear 2
car 1 hand 2 2 1 P3 1 1 1
car 1 engine 3
"""


def winds(event: str, gear: int, cards: tuple[str, ...]) -> tuple[int, int, int]:
    """Car 1's forecast (speed, space, slipstream) -- one outcome: no card is flipped -- and
    checked against the engine: car 0 stays put (no Boost), then car 1 plays the turn as GO."""
    text = WINDS.format(event=event)
    sc = parse_scenario(text, "winds.txt")
    (o,) = forecast(Race(sc.setup, track=sc.track), 1, gear, cards).outcomes
    race = Race(sc.setup, track=sc.track)
    race.apply(Plan(0, 1, ("0",)))
    race.apply(Plan(1, gear, cards))
    play_turn(race, 0, {"boost": False})
    race.apply(Discard(0, ()))
    play_turn(race, 1)
    assert (race.cars[1].d, race.cars[1].spot) == (o.d, o.spot)
    return o.speed, o.space, o.slipstream


def test_the_forecast_slipstreams_only_where_the_event_lets_it() -> None:
    # Title sponsor change has no rule of its own: 4 + Adrenaline ends behind car 0, and the
    # sponsor's slipstream +2 is taken with the usual 2
    assert winds("title_sponsor", 2, ("2", "1")) == (4, 31, 2)
    assert winds("title_sponsor", 2, ("2", "P3")) == (4, 33, 4)
    # Turbulent winds: no slipstream in gear 2, the sponsor's neither; in gear 3 both
    assert winds("turbulent_winds", 2, ("2", "1")) == (4, 29, 0)
    assert winds("turbulent_winds", 2, ("2", "P3")) == (4, 29, 0)
    assert winds("turbulent_winds", 3, ("2", "P3", "1")) == (5, 34, 4)


def test_the_forecast_takes_no_adrenaline_in_sudden_rain() -> None:
    # the lone car is last: Adrenaline in any other race, none when rain delays it
    race = Race(parse_scenario(OPEN_ROAD.replace("cars 1\n", "cars 1\nevent sudden_rain\n"),
                               "rain.txt").setup)
    fc = forecast(race, 0, 1, ("1",))
    assert not any(o.adrenaline for o in fc.outcomes)
    assert [(o.speed, o.probability) for o in fc.outcomes] == \
        [(3, F(1, 4)), (4, F(1, 4)), (5, F(1, 2))]
    agrees(race, Plan(0, 1, ("1",)))


def test_a_spin_out_that_eliminates_is_forecast_as_the_engine_plays_it() -> None:
    # Future unknown: a spin-out puts the car out of the race; the Stress flip's 4 spins it
    text = (SCENARIOS / "forecast_stress.txt").read_text()
    race = Race(parse_scenario(text.replace("cars 1\n", "cars 1\nevent future_unknown\n"),
                               "unknown.txt").setup)
    fc = forecast(race, 0, 2, ("4", "S"))
    assert fc.spin_probability == F(1, 2)
    agrees(race, Plan(0, 2, ("4", "S")))
    assert fc.out_probability == F(1, 2)  # that spin-out puts the car out of the race
    assert [o.retired for o in fc.outcomes] == [o.spin_out for o in fc.outcomes]
    # the same plan in any other race: a spin-out, and the car races on
    plain = start("forecast_stress")
    assert forecast(plain, 0, 2, ("4", "S")).out_probability == 0
