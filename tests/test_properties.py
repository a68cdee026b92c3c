"""Property tests: random bot races on the four base tracks must keep the engine's invariants.

After every decision: every card of every player is accounted for (hand + draw + discard +
play + engine Heat, plus the Stress cards taken from the shared reserve), Heat is never
negative, no two cars share a spot, hands are refilled to 7, and a car only goes backwards by
spinning out. Every race ends; replay, JSON round-trip and undo reproduce the state exactly.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pitboard.bots import Bot, HeuristicBot, RandomBot
from pitboard.catalog import TRACKS  # every shipped track, the expansions' too
from pitboard.engine import (
    IllegalDecision,
    Plan,
    Race,
    RaceSetup,
    race_from_dict,
    race_to_dict,
    replay,
    undo,
)
from pitboard.engine.cards import HEAT, STRESS
from pitboard.engine.events import SpunOut

#: the longest of 2,400 bot races (1-6 cars, 2 laps) took 68 rounds
MAX_ROUNDS_PER_LAP = 100


def round_limit(race: Race) -> int:
    """Rounds after which a race counts as never ending: MAX_ROUNDS_PER_LAP per lap of up to 70
    spaces, and as many more per 70 spaces more (Spain's one lap is 109 spaces: a random bot
    that spins out at every corner there took 106 rounds)."""
    return MAX_ROUNDS_PER_LAP * race.laps * -(-race.track.spaces // 70)

FAST = settings(max_examples=50, deadline=None)


@dataclass(frozen=True)
class Game:
    track: str
    cars: int
    laps: int
    seed: int
    #: per car: True = RandomBot, False = HeuristicBot
    random_bots: tuple[bool, ...]

    def setup(self) -> RaceSetup:
        return RaceSetup(track=self.track, cars=self.cars, seed=self.seed, laps=self.laps)

    def bots(self) -> list[Bot]:
        return [RandomBot(seed=self.seed + i) if r else HeuristicBot(seed=self.seed + i)
                for i, r in enumerate(self.random_bots)]


@st.composite
def games(draw: st.DrawFn) -> Game:
    cars = draw(st.integers(1, 6))
    return Game(
        track=draw(st.sampled_from(TRACKS)),
        cars=cars,
        laps=draw(st.integers(1, 2)),
        seed=draw(st.integers(0, 2**32 - 1)),
        random_bots=tuple(draw(st.lists(st.booleans(), min_size=cars, max_size=cars))),
    )


def step(race: Race, bots: list[Bot]) -> None:
    car = race.pending().cars[0]
    race.apply(bots[car].choose(race, car))


def cards_of(race: Race, car_id: int) -> list[str]:
    """Every card the player owns, wherever it is, sorted (a multiset that compares in one
    step); Heat in the engine counted as cards."""
    car = race.cars[car_id]
    owned = car.hand + car.draw + car.discard + car.play + [HEAT] * car.engine
    owned.sort()
    return owned


class Checker:
    """Checks the invariants after each decision, against the state at the start."""

    def __init__(self, race: Race) -> None:
        self.start = [cards_of(race, c.id) for c in race.cars]
        self.total_stress = race.stress_reserve + sum(s.count(STRESS) for s in self.start)
        self.d = [c.d for c in race.cars]
        self.seen_events = len(race.events)
        #: Stress each car took from the reserve (spin-outs), counted as the events come
        self.stress: Counter[int] = Counter()

    def check(self, race: Race) -> None:
        new = race.events[self.seen_events:]
        self.seen_events = len(race.events)
        spun = {e.car for e in new if isinstance(e, SpunOut)}
        for e in new:
            if isinstance(e, SpunOut):
                self.stress[e.car] += e.stress
        all_stress = race.stress_reserve
        for car in race.cars:
            owned = cards_of(race, car.id)
            expected = sorted(self.start[car.id] + [STRESS] * self.stress[car.id])
            assert owned == expected, f"car {car.id}: cards {owned} != {expected}"
            all_stress += owned.count(STRESS)
            assert car.engine >= 0
            if car.d < self.d[car.id]:
                assert car.id in spun, f"car {car.id} went back {self.d[car.id]}->{car.d}"
            self.d[car.id] = car.d
        assert all_stress == self.total_stress
        assert race.stress_reserve >= 0
        places = [(c.space, c.spot) for c in race.cars if c.on_track]
        assert len(places) == len(set(places)), f"two cars on one spot: {places}"
        if race.pending().kind == "plan":
            for car in race.cars:
                if not car.planned:  # replenished to 7 at the end of its last turn
                    assert len(car.hand) == 7 or not (car.draw or car.discard)
                    assert car.play == []


def state_after(setup: RaceSetup, bots: list[Bot], decisions: int) -> dict[str, Any]:
    """The state after the first ``decisions`` decisions of a race played live by ``bots``
    (fresh ones, seeded as those of the race under test: the same choices, so the same
    state). One snapshot at the end, where one per decision made the tests quadratic."""
    race = Race(setup)
    for _ in range(decisions):
        step(race, bots)
    return race_to_dict(race, events=True)


def play_checked(game: Game) -> tuple[Race, dict[str, Any]]:
    """Play a whole race checking after each decision; also return the state before the
    last decision."""
    race = Race(game.setup())
    bots = game.bots()
    checker = Checker(race)
    limit = round_limit(race)
    decisions = 0
    while not race.over:
        step(race, bots)
        decisions += 1
        checker.check(race)
        assert race.round <= limit, "race did not end"
    return race, state_after(game.setup(), game.bots(), decisions - 1)


@FAST
@given(games())
def test_bot_race_keeps_every_invariant(game: Game) -> None:
    race, before_last = play_checked(game)
    assert race.over
    assert sorted(race.hall_of_fame) == list(range(game.cars))
    assert all(c.finished and not c.on_track for c in race.cars)
    assert all(c.d > race.finish_d for c in race.cars)
    # the decision log reproduces the race exactly
    assert race_to_dict(replay(race.setup, race.log)) == race_to_dict(race)
    # undo = the state before the last decision = replaying all but the last decision
    undone = undo(race)
    assert race_to_dict(undone, events=True) == before_last
    assert race_to_dict(replay(race.setup, race.log[:-1])) == race_to_dict(undone)


@FAST
@given(games(), st.integers(0, 400))
def test_json_round_trip_then_play_on_gives_the_same_race(game: Game, cut: int) -> None:
    race = Race(game.setup())
    bots = game.bots()
    for _ in range(cut):
        if race.over:
            break
        step(race, bots)
    state = race_to_dict(race, events=True)
    text = json.dumps(state)
    restored = race_from_dict(json.loads(text))
    assert race_to_dict(restored, events=True) == state
    assert race_to_dict(replay(game.setup(), race.log)) == race_to_dict(race)
    assert restored.pending() == race.pending()
    # both go on with fresh, identically seeded bots: the same decisions, the same race
    for r in (race, restored):
        fresh = game.bots()
        while not r.over:
            step(r, fresh)
    assert race_to_dict(restored, events=True) == race_to_dict(race, events=True)


@FAST
@given(games(), st.integers(1, 300))
def test_undo_equals_the_state_before_the_last_decision(game: Game, cut: int) -> None:
    race = Race(game.setup())
    bots = game.bots()
    decisions = 0
    for _ in range(cut):
        if race.over:
            break
        step(race, bots)
        decisions += 1
    before = state_after(game.setup(), game.bots(), decisions - 1)
    undone = undo(race)
    assert race_to_dict(undone, events=True) == before
    assert race_to_dict(undone) == race_to_dict(replay(race.setup, race.log[:-1]))
    assert len(undone.log) == len(race.log) - 1


@given(seed=st.integers(0, 10**6), cars=st.integers(1, 6))
@FAST
def test_a_plan_is_accepted_exactly_when_its_rule_finds_no_problem(seed: int, cars: int) -> None:
    # apply() checks a plan field by field; PlanRule.problem explains a refusal: they must agree
    # on every gear and every choice of up to 4 cards (Heat included) of the hand
    race = Race(RaceSetup(track="usa", cars=cars, seed=seed, laps=1))
    bot = HeuristicBot(seed=seed)
    for _ in range(cars * 6):  # a few rounds in: gears, Heat and clogged hands vary
        if race.over:
            return
        car_id = race.waiting_for()
        if race.phase == "plan":
            hand = race.cars[car_id].hand
            before = race_to_dict(race)
            picks = {tuple(hand[i] for i in ix) for k in range(5)
                     for ix in combinations(range(len(hand)), k)}
            for gear in range(0, 6):
                for cards in picks:
                    plan = Plan(car_id, gear, cards)
                    problem = race.plan_problem(plan)
                    if problem is None:
                        copy = race_from_dict(before)
                        copy.apply(plan)
                        assert copy.cars[car_id].planned
                    else:
                        try:
                            race.apply(plan)
                        except IllegalDecision:
                            pass
                        else:
                            raise AssertionError(f"{plan} accepted: {problem}")
            assert race_to_dict(race) == before
        race.apply(bot.choose(race, car_id))
