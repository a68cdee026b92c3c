"""One scenario per rule of the base game and per trap in the rules digest.

Every test runs a small scenario file from ``tests/scenarios/`` (stacked hands and draw piles,
cars placed by hand) and checks the race state and the event log against
``/work/shared/reference/rules-digest.md``. USA geometry used throughout: 69 spaces; corner
lines after spaces 12 (limit 7), 33 (3), 49 (3) and 57 (2); the racing-line spot is 2 from
space 13 to 57 and 1 from space 58 round to space 12.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pitboard.engine import (
    IllegalDecision,
    Plan,
    Race,
    RaceSetup,
    React,
    StackedDeck,
    parse_decision,
    race_to_dict,
)
from pitboard.engine.cards import HEAT, STRESS, starting_deck
from pitboard.engine.setup import BOX_STRESS
from pitboard.scenario import Scenario, load_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


# ---------------------------------------------------------------- helpers
def scenario(name: str) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}.txt")


def run(name: str) -> Race:
    """The scenario played to its last decision."""
    return scenario(name).run()


def prefix(name: str, upto: int) -> Race:
    """The scenario with only its first ``upto`` decisions applied."""
    sc = scenario(name)
    race = Race(sc.setup, track=sc.track)
    for _, decision in sc.decisions[:upto]:
        race.apply(decision)
    return race


def events(race: Race, kind: str, car: int | None = None) -> list[Any]:
    """The race's events of one kind (its JSON ``type``), of one car if given."""
    return [e for e in race.events
            if e.kind == kind and (car is None or getattr(e, "car", None) == car)]


def where(race: Race, car: int) -> tuple[int, int, int]:
    """(lap, space, spot) of a car, as the JSON state shows it."""
    c = race_to_dict(race)["cars"][car]
    return c["lap"], c["space"], c["spot"]


def react_options(race: Race) -> set[str]:
    """The legal react choices in their text form without the car, e.g. {'boost', 'done'}."""
    pending = race.pending()
    assert pending.kind == "react"
    return {str(o).split(" ", 2)[2] for o in pending.options}


# ---------------------------------------------------------------- setup
def test_setup_decks_engine_gear_and_hand() -> None:
    race = run("setup_default")
    deck = Counter(starting_deck(3))
    assert deck == Counter({"1": 3, "2": 3, "3": 3, "4": 3, "0": 1, "5": 1, "H": 1, "S": 3})
    for car in race.cars:
        assert Counter(car.hand + car.draw) == deck  # 12 basic + 0, 5, Heat + track's 3 Stress
        assert len(car.hand) == 7
        assert car.engine == 6 and car.gear == 1
        assert car.discard == [] and car.play == []
    assert race.stress_reserve == BOX_STRESS - 3 * 3
    assert race.laps == 2  # the track's printed laps


def test_setup_hand_is_drawn_from_the_top_of_the_deck() -> None:
    draw = ("4", "3", "2", "1", "5", "0", "S", "H", "4", "4")
    race = Race(RaceSetup(track="usa", cars=1, stacked={0: StackedDeck(draw=draw)}))
    car = race.cars[0]
    assert car.hand == list(draw[:7])
    assert race_to_dict(race)["cars"][0]["draw"] == list(draw[7:])


def test_setup_random_grid_comes_from_the_seed() -> None:
    race = run("setup_default")  # seed 7 draws the grid car 0, car 2, car 1
    assert [g.car for g in events(race, "grid")[0].grid] == [0, 2, 1]
    assert [where(race, c) for c in (0, 2, 1)] == [(0, 69, 1), (0, 69, 2), (0, 68, 1)]
    assert race.order == [0, 2, 1]
    assert race_to_dict(run("setup_default")) == race_to_dict(race)  # same seed, same grid
    grids = {tuple(g.car for g in Race(RaceSetup(track="usa", cars=3, seed=s)).events[0].grid)
             for s in range(10)}
    assert len(grids) > 1  # the grid does depend on the seed


def test_setup_given_grid_and_laps_override() -> None:
    race = run("setup_grid")  # grid 1 2 0, laps 1, same seed as setup_default
    assert [where(race, c) for c in (1, 2, 0)] == [(0, 69, 1), (0, 69, 2), (0, 68, 1)]
    assert race.order == [1, 2, 0]
    assert race.laps == 1 and race.finish_d == 69


@pytest.mark.parametrize("cars", [1, 2, 3, 4, 5, 6])
def test_setup_one_to_six_cars(cars: int) -> None:
    race = Race(RaceSetup(track="france", cars=cars, seed=cars))
    placed = {(c.space, c.spot) for c in race.cars}
    assert placed == set(race.track.grid[:cars])
    assert race.pending().kind == "plan" and race.pending().cars == tuple(range(cars))
    assert race.stress_reserve == BOX_STRESS - 3 * cars


@pytest.mark.parametrize("cars", [0, 7])
def test_setup_rejects_other_car_counts(cars: int) -> None:
    with pytest.raises(ValueError, match=r"cars must be 1\.\.6"):
        Race(RaceSetup(track="usa", cars=cars))


# ---------------------------------------------------------------- step 1: shift
def test_shift_one_free_two_for_one_heat_to_discard() -> None:
    race = run("shift")
    shifts = {e.car: (e.frm, e.to, e.heat) for e in events(race, "shift")}
    assert shifts == {1: (3, 1, 1), 2: (2, 4, 1), 3: (1, 2, 0)}  # car 0 stayed: no event
    assert [(e.car, e.n, e.why) for e in events(race, "heat")] == \
        [(1, 1, "2-gear shift"), (2, 1, "2-gear shift")]
    engines = [c.engine for c in race.cars]
    assert engines == [6, 5, 5, 6]
    # the Heat paid is in the discard pile (cars 1-3 have not resolved their turns yet)
    assert [race.cars[i].discard for i in (1, 2, 3)] == [[HEAT], [HEAT], []]
    assert [c.gear for c in race.cars] == [2, 1, 4, 2]


def test_shift_limits() -> None:
    race = run("shift_illegal")
    assert race.plan_rule(0).gears == (1, 2)  # engine 0: no 2-gear shift up to 3
    assert race.plan_rule(1).gears == (2, 3, 4)  # gear 4: never 3 gears down to 1
    assert race.plan_rule(1).shift_cost == {2: 1, 3: 0, 4: 0}
    before = race_to_dict(race, events=True)
    with pytest.raises(IllegalDecision, match="no Heat in the engine for a 2-gear shift"):
        race.apply(Plan(0, 3, ("1", "2", "3")))
    with pytest.raises(IllegalDecision, match="shift at most 2 gears"):
        race.apply(Plan(0, 4, ("1", "2", "3", "4")))
    with pytest.raises(IllegalDecision, match="shift at most 2 gears"):
        race.apply(Plan(1, 1, ("1",)))
    assert race_to_dict(race, events=True) == before


# ---------------------------------------------------------------- step 2: play cards
@pytest.mark.parametrize("gear", [1, 2, 3, 4])
def test_exactly_as_many_cards_as_the_gear(gear: int) -> None:
    race = run("plan_base")  # gear 2, hand 1 2 3 4 5 S H
    cards = ("1", "2", "3", "4")[:gear]
    with pytest.raises(IllegalDecision, match=f"gear {gear} plays {gear} cards, not {gear + 1}"):
        race.apply(Plan(0, gear, (*cards, "5")))
    if gear > 1:
        with pytest.raises(IllegalDecision, match=f"plays {gear} cards, not {gear - 1}"):
            race.apply(Plan(0, gear, cards[:-1]))
    race.apply(Plan(0, gear, cards))
    assert events(race, "reveal")[0].cards == tuple(cards)
    assert events(race, "speed")[0].speed == sum(int(c) for c in cards)


def test_heat_cards_cannot_be_played() -> None:
    race = run("plan_base")
    assert HEAT not in race.plan_rule(0).playable and STRESS in race.plan_rule(0).playable
    before = race_to_dict(race, events=True)
    with pytest.raises(IllegalDecision, match="Heat cards cannot be played"):
        race.apply(Plan(0, 2, ("1", "H")))
    with pytest.raises(IllegalDecision, match="card 1 is not in hand"):
        race.apply(Plan(0, 2, ("1", "1")))
    assert race_to_dict(race, events=True) == before


def test_clogged_hand() -> None:
    race = prefix("clogged", 0)  # gear 3, hand H H H H H 1 2
    assert race.plan_rule(0).clogged == (3, 4)
    with pytest.raises(IllegalDecision, match="clogged hand: play every non-Heat card"):
        race.apply(Plan(0, 3, ("1",)))
    race = run("clogged")
    assert [e.cards for e in events(race, "clogged")] == [("1", "2", "H")]
    assert events(race, "move") == [] and events(race, "reveal") == []
    car = race.cars[0]
    assert where(race, 0) == (1, 20, 2)  # did not move
    assert car.gear == 1
    assert car.discard == ["1", "2", "H"]  # the played cards, Heat fill included
    assert car.hand == ["H"] * 4 + ["3", "4", "4"]  # refilled to 7 from the draw pile
    assert car.engine == 6
    # no react step: the next thing the race wants is round 2's plan
    assert race.round == 2 and race.pending().kind == "plan"
    assert race.plan_rule(0).gear == 1


# ---------------------------------------------------------------- step 3: reveal and move
def test_stress_flip_stops_only_on_basic_cards() -> None:
    race = run("stress_flip")
    flips = [(e.card, e.kept, e.why) for e in events(race, "flip")]
    assert flips == [("5", False, "stress"), ("0", False, "stress"), ("H", False, "stress"),
                     ("2", True, "stress")]
    car = race.cars[0]
    assert car.play == ["S", "2"]
    assert car.discard == ["5", "0", "H"]
    assert car.speed == 2 and where(race, 0) == (1, 22, 2)


def test_rulebook_reveal_example_speed_8() -> None:
    """Rulebook p.5: the Stress flip discards 2 Heat, a Stress and a starting upgrade, then
    a basic card: total Speed 8, and the car moves exactly 8 spaces."""
    race = run("rulebook_reveal")
    car = race.cars[0]
    assert Counter(car.discard) == Counter({"H": 2, "S": 1, "5": 1})
    assert car.play == ["2", "3", "S", "3"]
    assert [e.speed for e in events(race, "speed")] == [8]
    (move,) = events(race, "move")
    assert (move.frm, move.spaces, move.blocked) == (14, 8, 0)
    assert where(race, 0) == (1, 22, 2)


def test_blocked_by_a_full_space_stops_behind_with_a_free_spot() -> None:
    race = run("blocking")
    (move,) = events(race, "move", car=0)
    assert (move.spaces, move.blocked) == (6, 1)
    # space 20 is full, and the racing-line spot (2) of space 19 is taken: spot 1 of 19
    assert where(race, 0) == (1, 19, 1)
    assert not move.racing_line
    assert [where(race, c) for c in (1, 2, 3)] == [(1, 20, 2), (1, 20, 1), (1, 19, 2)]


def test_cars_never_stop_a_car_passing_and_racing_line_is_taken() -> None:
    race = run("passing")
    (move,) = events(race, "move", car=0)
    assert (move.frm, move.spaces, move.blocked) == (13, 9, 0)
    assert where(race, 0) == (1, 22, 2)  # started on spot 1, took the free racing-line spot
    assert move.racing_line and race.racing_spot(22) == 2


def test_move_of_zero_spaces() -> None:
    race = run("zero_move")
    (move,) = events(race, "move")
    assert (move.spaces, move.blocked, move.d) == (0, 0, 20)
    assert [e.speed for e in events(race, "speed")] == [0]
    assert race.round == 2 and race.pending().kind == "plan"
    assert race.cars[0].discard == ["0"]


def test_reshuffle_mid_flip_never_takes_the_play_area() -> None:
    race = run("reshuffle_flip")
    car = race.cars[0]
    # discard 0 3 5 + the Heat just flipped = 4 cards reshuffled; the play area (4, S) stays
    assert [e.cards for e in events(race, "reshuffle")] == [4]
    assert car.play == ["4", "S", "3"]
    assert Counter(car.draw + car.discard) == Counter({"0": 1, "5": 1, "H": 1})
    assert car.speed == 7 and where(race, 0) == (1, 21, 2)


def test_flip_with_no_basic_card_anywhere_gives_nothing() -> None:
    race = run("flip_nothing")
    flips = events(race, "flip")
    assert flips[-1].card is None
    assert all(not f.kept for f in flips)
    assert len(events(race, "reshuffle")) == 1
    car = race.cars[0]
    assert car.play == ["4", "S"] and car.speed == 4
    assert Counter(car.draw + car.discard) == Counter({"0": 1, "5": 1, "H": 1})


# ---------------------------------------------------------------- step 4: adrenaline
def test_adrenaline_only_for_the_last_car_with_four() -> None:
    race = run("adrenaline_four")
    assert race.order == [0, 1, 2, 3]
    assert [c.adrenaline for c in race.cars] == [False, False, False, True]


def test_adrenaline_for_the_last_two_with_five() -> None:
    race = run("adrenaline_five")
    assert race.order == [0, 1, 2, 3, 4]  # car 3 has the racing-line spot (1) of space 10
    assert [c.adrenaline for c in race.cars] == [False, False, False, True, True]


def test_adrenaline_counts_the_starting_field_after_cars_finished() -> None:
    race = run("adrenaline_finished")
    assert race.hall_of_fame == [0, 1, 2]
    assert [e.order for e in events(race, "round")][1] == (3, 4)
    used = [(e.round, e.car) for e in events(race, "adrenaline")]
    assert used == [(1, 4), (2, 3), (2, 4)]  # both remaining cars of 5 starters, round 2


def test_adrenaline_with_four_starters_after_two_finished() -> None:
    race = run("adrenaline_finished_four")
    assert race.hall_of_fame == [0, 1]
    assert [e.order for e in events(race, "round")][1] == (3, 2)
    assert [(e.round, e.car) for e in events(race, "adrenaline")] == [(1, 2), (2, 2)]
    assert not race.cars[3].adrenaline


def test_adrenaline_adds_to_speed_for_corners() -> None:
    race = run("adrenaline_corner")
    assert [e.speed for e in events(race, "adrenaline")] == [6]
    moves = [(e.why, e.spaces) for e in events(race, "move", car=0)]
    assert moves == [("cards", 5), ("adrenaline", 1)]
    corners = [(e.corner, e.speed, e.heat) for e in events(race, "corner", car=0)]
    assert corners == [(2, 6, 3)]
    assert race.cars[0].engine == 3


# ---------------------------------------------------------------- step 5: react
def test_cooldown_by_gear_and_adrenaline() -> None:
    sc = scenario("cooldown")
    race = Race(sc.setup, track=sc.track)
    seen: dict[int, set[str]] = {}
    for _, decision in sc.decisions:
        pending = race.pending()
        if pending.kind == "react" and pending.cars[0] not in seen:
            seen[pending.cars[0]] = react_options(race)
        race.apply(decision)
    cooldowns = {car: {o for o in opts if o.startswith("cooldown")} for car, opts in seen.items()}
    assert cooldowns == {
        0: {"cooldown 1", "cooldown 2", "cooldown 3"},  # gear 1: 3 (4 Heat in hand)
        1: {"cooldown 1"},  # gear 2: 1
        2: set(),  # gear 3: none
        3: {"cooldown 1"},  # gear 4: none, +1 from Adrenaline (last car)
    }
    assert "adrenaline" in seen[3] and "adrenaline" not in seen[0]
    assert [(e.car, e.n) for e in events(race, "cooldown")] == [(0, 3), (1, 1), (3, 1)]
    assert [c.engine for c in race.cars] == [5, 3, 2, 3]
    assert [c.hand.count(HEAT) for c in race.cars] == [1, 2, 3, 2]


def test_boost_pays_heat_once_and_counts_for_corners() -> None:
    race = prefix("boost", 2)  # after 'react 0 boost'
    assert "boost" not in react_options(race)  # once per turn
    race = run("boost")
    assert [(e.card, e.kept, e.why) for e in events(race, "flip")] == \
        [("0", False, "boost"), ("4", True, "boost")]
    assert [(e.value, e.speed) for e in events(race, "boost")] == [(4, 7)]
    assert [(e.n, e.why) for e in events(race, "heat")] == [(1, "boost"), (4, "corner 2")]
    assert [(e.corner, e.speed, e.heat) for e in events(race, "corner")] == [(2, 7, 4)]
    car = race.cars[0]
    assert car.engine == 6 - 1 - 4
    assert where(race, 0) == (1, 34, 2)


def test_boost_in_gear_4() -> None:
    race = run("boost_gear4")
    car = race.cars[0]
    assert car.gear == 4
    assert [(e.value, e.speed) for e in events(race, "boost")] == [(2, 6)]
    assert car.engine == 5 and car.discard == ["H", "H"]  # the paid Heat and the flipped Heat
    assert car.play == ["1", "1", "1", "1", "2"]
    assert where(race, 0) == (1, 20, 2)


def test_no_boost_with_an_empty_engine() -> None:
    race = run("boost_empty")
    assert "boost" not in react_options(race)
    before = race_to_dict(race, events=True)
    with pytest.raises(IllegalDecision, match="cannot boost now"):
        race.apply(React(0, "boost"))
    assert race_to_dict(race, events=True) == before


# ---------------------------------------------------------------- step 6: slipstream
def test_slipstream_from_directly_behind() -> None:
    race = run("slipstream_behind")
    moves = [(e.why, e.spaces) for e in events(race, "move", car=0)]
    assert moves == [("cards", 4), ("slipstream", 2)]
    assert where(race, 0) == (1, 21, 2)
    assert race.cars[0].speed == 4  # slipstream does not add to Speed


def test_slipstream_from_beside() -> None:
    race = run("slipstream_beside")
    moves = [(e.why, e.spaces, e.space) for e in events(race, "move", car=0)]
    assert moves == [("cards", 5, 20), ("slipstream", 2, 22)]
    assert race.cars[0].speed == 5


def test_slipstream_over_a_corner_is_checked_with_the_turns_speed() -> None:
    race = run("slipstream_corner")
    assert [(e.corner, e.speed, e.heat) for e in events(race, "corner")] == [(2, 5, 2)]
    assert race.cars[0].engine == 4
    assert where(race, 0) == (1, 34, 2)


def test_no_slipstream_across_or_after_the_final_line() -> None:
    race = run("slipstream_finish")  # the discards are accepted: no slipstream was offered
    assert events(race, "slipstream") == []
    assert where(race, 0) == (1, 68, 1) and where(race, 1) == (1, 69, 1)
    assert race.hall_of_fame == [2, 3]  # side by side on space 3: car 2 has the racing line
    assert not race.slipstream_allowed(race.cars[0])


def test_slipstream_may_end_on_the_last_space() -> None:
    race = run("slipstream_to_line")
    assert len(events(race, "slipstream")) == 1
    assert where(race, 0) == (1, 69, 1)
    assert not race.cars[0].finished


def test_slipstream_across_the_line_of_an_earlier_lap() -> None:
    race = run("slipstream_lap")
    assert [e.lap for e in events(race, "lap", car=0)] == [2]
    assert where(race, 0) == (2, 2, 1)


# ---------------------------------------------------------------- step 7: corners
def test_rulebook_corner_example_speed_5_limit_3_pays_2() -> None:
    race = run("corner_rulebook")
    (corner,) = events(race, "corner")
    assert (corner.corner, corner.limit, corner.speed, corner.heat) == (2, 3, 5, 2)
    car = race.cars[0]
    assert car.engine == 4
    assert Counter(car.discard) == Counter({"H": 2, "2": 1, "3": 1})  # paid Heat -> discard


def test_several_corners_paid_separately_in_order() -> None:
    race = run("corners_several")
    corners = [(e.corner, e.limit, e.heat) for e in events(race, "corner")]
    assert corners == [(3, 5, 3), (4, 4, 4)]
    assert [(e.n, e.why) for e in events(race, "heat")] == [(3, "corner 3"), (4, "corner 4")]
    assert race.cars[0].engine == 0
    assert events(race, "spin_out") == []
    assert where(race, 0) == (1, 44, 2)


def test_corner_crossed_from_its_own_space_not_by_ending_on_it() -> None:
    race = run("corner_edges")
    corners = [(e.car, e.corner, e.speed, e.heat) for e in events(race, "corner")]
    assert corners == [(1, 2, 5, 2)]  # car 1 left space 33; car 0 stopped on it
    assert [c.engine for c in race.cars] == [6, 4]
    assert where(race, 0) == (1, 33, 2) and where(race, 1) == (1, 38, 2)


def test_spin_out_in_gear_2() -> None:
    race = run("spin_out_gear2")
    (spin,) = events(race, "spin_out")
    assert (spin.corner, spin.heat, spin.stress, spin.frm) == (2, 3, 1, 38)
    assert where(race, 0) == (1, 33, 2)  # the space just before corner 2's line
    car = race.cars[0]
    assert car.engine == 0 and car.gear == 1
    assert car.hand.count(STRESS) == 1  # Stress to the HAND
    assert STRESS not in car.discard
    assert Counter(car.discard) == Counter({"H": 3, "4": 2})
    assert race.stress_reserve == prefix("spin_out_gear2", 0).stress_reserve - 1
    assert race.plan_rule(0).gear == 1


def test_spin_out_in_gear_4_lands_in_the_first_free_space() -> None:
    race = run("spin_out_blocked")
    (spin,) = events(race, "spin_out")
    assert (spin.car, spin.corner, spin.heat, spin.stress) == (0, 2, 2, 2)
    assert where(race, 0) == (1, 32, 2)  # both spots of space 33 are taken
    car = race.cars[0]
    assert car.hand.count(STRESS) == 2 and car.gear == 1 and car.engine == 0
    assert race.stress_reserve == prefix("spin_out_blocked", 0).stress_reserve - 2


def test_spin_out_ends_the_corner_checks() -> None:
    race = run("spin_out_later_corners")
    assert [(e.corner, e.heat) for e in events(race, "corner")] == [(3, 8)]
    (spin,) = events(race, "spin_out")
    assert (spin.corner, spin.heat, spin.stress) == (4, 2, 2)
    assert where(race, 0) == (1, 43, 2)
    assert race.cars[0].hand.count(STRESS) == 2 and race.cars[0].engine == 0


# ---------------------------------------------------------------- steps 8-9
def test_discard_never_heat_or_stress_then_replenish_to_7() -> None:
    race = prefix("discard", 2)  # waiting for car 0's discard
    pending = race.pending()
    assert pending.kind == "discard"
    assert sorted(pending.discardable) == ["0", "1", "2", "3"]  # not S, not H
    before = race_to_dict(race, events=True)
    for text in ("discard 0 H", "discard 0 S", "discard 0 1 S"):
        with pytest.raises(IllegalDecision, match="Heat and Stress cards can never be discarded"):
            race.apply(parse_decision(text))
    assert race_to_dict(race, events=True) == before
    race = run("discard")
    assert [e.cards for e in events(race, "discard")] == [("0", "1")]
    car = race.cars[0]
    assert car.hand == ["S", "H", "2", "3", "2", "3", "4"]  # 4 kept + top 3 of the draw
    assert Counter(car.discard) == Counter({"0": 1, "1": 1, "4": 1})
    assert car.play == []
    assert [e.drawn for e in events(race, "replenish")] == [3]


def test_no_discard_step_with_only_heat_and_stress_in_hand() -> None:
    race = run("discard_none")  # no 'discard' line: the turn ended by itself
    assert race.round == 2 and race.pending().kind == "plan"
    car = race.cars[0]
    assert Counter(car.hand) == Counter({"H": 3, "S": 3, "2": 1})
    assert car.discard == ["4"]


def test_replenish_moves_the_play_area_to_the_discard_before_drawing() -> None:
    race = run("replenish_reshuffle")
    assert [e.cards for e in events(race, "reshuffle")] == [3]  # 2 + the played 4 4
    car = race.cars[0]
    assert len(car.hand) == 7 and car.play == []
    assert Counter(car.hand) - Counter({"H": 3, "S": 2, "1": 1}) in \
        (Counter({"2": 1}), Counter({"4": 1}))
    assert Counter(car.hand + car.draw + car.discard) == \
        Counter({"H": 3, "S": 2, "1": 1, "2": 1, "4": 2})


# ---------------------------------------------------------------- order, laps, finish
def test_race_order_leader_first_racing_line_ahead() -> None:
    race = run("race_order")
    # 25 first; on 20 the racing-line spot 2 is ahead; on 5 the racing-line spot 1
    assert race.order == [2, 1, 0, 4, 3]
    assert events(race, "round")[0].order == (2, 1, 0, 4, 3)
    assert race.standings() == [2, 1, 0, 4, 3]


def test_laps_and_corners_wrap_around() -> None:
    race = run("laps")
    assert [(e.round, e.lap) for e in events(race, "lap")] == [(1, 2)]
    assert [(e.round, e.corner, e.speed, e.heat) for e in events(race, "corner")] \
        == [(2, 1, 9, 2)]
    assert where(race, 0) == (2, 14, 2)
    assert race.cars[0].engine == 4 and not race.cars[0].finished


def test_move_past_the_final_line_ends_and_later_corners_are_ignored() -> None:
    race = run("finish_past")
    (move,) = events(race, "move")
    assert (move.spaces, move.space, move.lap) == (17, 13, 2)
    assert events(race, "corner") == [] and events(race, "heat") == []
    assert race.cars[0].engine == 6
    assert race.over and race.hall_of_fame == [0]
    assert [e.order for e in events(race, "race_over")] == [(0,)]


def test_finish_order_and_play_until_every_car_finished() -> None:
    race = run("finish_order")
    assert [(e.car, e.round) for e in events(race, "finish")][:2] == [(0, 1), (1, 1)]
    # car 0 crossed first, but car 1 ended the round further ahead: car 1 wins
    assert [(e.car, e.place, e.round) for e in events(race, "hall_of_fame")][:2] == \
        [(1, 1, 1), (0, 2, 1)]
    assert [e.order for e in events(race, "round")][1] == (2,)  # only car 2 still racing
    assert race.over and race.hall_of_fame == [1, 0, 2]
    assert [e.order for e in events(race, "race_over")] == [(1, 0, 2)]
    assert race.standings() == [1, 0, 2]
    assert all(not c.on_track and c.finished for c in race.cars)


# ---------------------------------------------------------------- illegal decisions
ILLEGAL: list[tuple[str, int, str, str]] = [
    # scenario, decisions applied first, illegal decision, part of the message
    ("shift_illegal", 0, "plan 0 gear 3 cards 1 2 3", "no Heat in the engine"),
    ("shift_illegal", 0, "plan 1 gear 1 cards 1", "shift at most 2 gears"),
    ("shift_illegal", 0, "plan 0 gear 5 cards 1 2 3 4 1", "cannot shift 1->5"),
    ("shift", 1, "plan 0 gear 2 cards 3 4", "already planned"),
    ("plan_base", 0, "plan 0 gear 2 cards 1 H", "Heat cards cannot be played"),
    ("plan_base", 0, "plan 0 gear 2 cards 1 2 3", "gear 2 plays 2 cards, not 3"),
    ("plan_base", 0, "plan 0 gear 2 cards 1 1", "card 1 is not in hand"),
    ("plan_base", 0, "plan 5 gear 1 cards 1", "there is no car 5"),
    ("plan_base", 0, "react 0 done", "waiting for plan from car 0, not react"),
    ("clogged", 0, "plan 0 gear 3 cards 1", "clogged hand"),
    ("cooldown", 4, "react 0 cooldown 4", "cannot cooldown 4 now"),
    ("cooldown", 4, "react 0 adrenaline", "cannot adrenaline now"),
    ("cooldown", 4, "react 1 done", "waiting for react from car 0, not car 1"),
    ("cooldown", 4, "discard 0 -", "waiting for react from car 0, not discard"),
    ("boost", 2, "react 0 boost", "cannot boost now"),
    ("boost_empty", 1, "react 0 boost", "cannot boost now"),
    ("slipstream_behind", 4, "slipstream 1 yes", "not car 1"),
    ("discard", 2, "discard 0 H", "Heat and Stress cards can never be discarded"),
    ("discard", 2, "discard 0 4", "card 4 is not in hand"),
    ("discard", 2, "slipstream 0 yes", "waiting for discard from car 0, not slipstream"),
    ("finish_past", 3, "plan 0 gear 1 cards 1", "the race is over"),
]


@pytest.mark.parametrize(("name", "upto", "text", "message"), ILLEGAL,
                         ids=[f"{c[0]}:{c[2]}" for c in ILLEGAL])
def test_illegal_decision_leaves_the_state_unchanged(
    name: str, upto: int, text: str, message: str
) -> None:
    race = prefix(name, upto)
    before = race_to_dict(race, events=True)
    pending = race.pending()
    with pytest.raises(IllegalDecision) as info:
        race.apply(parse_decision(text))
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert race_to_dict(race, events=True) == before
    assert race.pending() == pending
