"""The planning screen's short problem comes from the engine's PlanProblem fields, never from
its wording; the engine's sentence stays what it was."""

from __future__ import annotations

from pitboard.engine import decisions as dec
from pitboard.engine.decisions import Plan, PlanProblem
from pitboard.engine.race import Race
from pitboard.engine.setup import RaceSetup
from pitboard.table.hand import in_hand_order, short_problem


def test_plan_problems_carry_their_kind_and_numbers() -> None:
    race = Race(RaceSetup(track="usa", cars=2, laps=1, seed=3, names=("A", "B")))
    card = race.plan_rule(0).playable[0]
    count = race.plan_problem(Plan(0, 2, (card,)))
    assert count == "gear 2 plays 2 cards, not 1"
    assert (count.kind, count.needed, count.given) == (dec.COUNT, 2, 1)
    shift = race.plan_problem(Plan(0, 4, ()))
    assert shift is not None and shift.kind == dec.SHIFT and short_problem(shift) == \
        "max 2 gears per shift"
    heat = race.plan_problem(Plan(0, 1, ("H",)))
    assert heat is not None and heat.kind == dec.HEAT_CARD


def test_rewording_a_problem_does_not_change_the_screen() -> None:
    reworded = PlanProblem("you need to put down two cards", kind=dec.COUNT, needed=2, given=0)
    assert short_problem(reworded) == "play 2 cards"
    assert short_problem(PlanProblem("?", kind=dec.SHIFT, needed=1)) == "no Heat: 2-gear shift"
    assert short_problem(PlanProblem("?", kind=dec.HEAT_CARD)) == "Heat can't be played"
    assert short_problem(PlanProblem("?", kind=dec.NOT_IN_HAND)) == "card not in hand"


def test_cards_go_to_the_engine_in_hand_order() -> None:
    assert in_hand_order(["3", "1", "4", "1"], ["1", "4", "1"]) == ("1", "4", "1")
