"""The heuristic bot's shortcuts: planning from a PlanRule plays as planning from the hand,
its memos stay bounded, and remembered corner bills are the engine's."""

from __future__ import annotations

from pitboard import bots
from pitboard.bots import HeuristicBot
from pitboard.engine import Race, RaceSetup
from pitboard.engine.decisions import Plan, PlanRule


class RuleBot(HeuristicBot):
    """Plans through HeuristicBot._plan (the PlanRule path a subclass may take)."""

    def _plan(self, race: Race, rule: PlanRule) -> Plan:
        return super()._plan(race, rule)


def play(race: Race, bot: HeuristicBot) -> Race:
    while (car := race.waiting_for()) >= 0:
        race.apply(bot.choose(race, car))
    return race


def test_rule_path_plays_as_hand_path() -> None:
    for seed in range(6):
        setup = RaceSetup(track="usa", cars=6, seed=seed, laps=1)
        rule_bot = RuleBot(seed=seed)
        assert not rule_bot._own_plan
        assert play(Race(setup), rule_bot).log == play(Race(setup), HeuristicBot(seed=seed)).log


def test_memos_stay_bounded() -> None:
    for seed in range(8):
        play(Race(RaceSetup(track="usa", cars=6, seed=seed, laps=1)), HeuristicBot(seed=seed))
    assert 0 < len(bots._HANDS) <= bots._HANDS_MAX
    assert 0 < len(bots._COURSES) <= bots._COURSES_MAX
    assert all(len(c.bills) <= bots._BILLS_MAX for c in bots._COURSES.values())
    for hand in bots._HANDS.values():
        assert len(hand.picks) <= 4 * (bots.MAX_SPEED + 1)
    assert 0 < len(bots._SPEEDS) <= (bots.MAX_SPEED + 1) ** 2
    assert 0 < len(bots._PLANS) <= bots._PLANS_MAX


def test_shifts_depend_on_gear_and_heat_in_engine_only() -> None:
    """The bot keeps each gear's moves per (gear, any Heat in the engine): race.shifts must
    not depend on anything else about the car."""
    race = Race(RaceSetup(track="usa", cars=2, seed=0, laps=1))
    car = race.cars[0]
    for gear in range(1, 5):
        seen = []
        for engine in (1, 2, 6):
            car.gear, car.engine = gear, engine
            seen.append(race.shifts(car))
        assert seen[0] == seen[1] == seen[2]


def test_remembered_bills_are_the_engines() -> None:
    race = Race(RaceSetup(track="usa", cars=6, seed=3, laps=2))
    bot = HeuristicBot(seed=3)
    checked = 0
    while (car_id := race.waiting_for()) >= 0:
        car = race.cars[car_id]
        if race.phase == "react":
            for extra in (0, 1, 4):
                for speed in (car.speed, car.speed + extra, 20):
                    end = car.d + extra
                    want = race.corner_bill(car.start_d, end, speed, car)
                    assert bot._bill(race, car, end, speed) == want  # memo filled
                    assert bot._bill(race, car, end, speed) == want  # and read back
                    checked += 1
        race.apply(bot.choose(race, car_id))
    assert checked > 100


def test_no_remembered_bills_when_modules_bill_car_by_car() -> None:
    setup = RaceSetup(track="usa", cars=4, seed=1, laps=1,
                      modules={"weather": {"weather": "random", "road": True}})
    race = Race(setup)
    bot = HeuristicBot(seed=1)
    bot._see(race)
    assert race.hooks.corner_heat is not None  # road tokens may overheat a corner
    assert bot._bills is None
    play(race, bot)
    assert race.over
    base = Race(RaceSetup(track="usa", cars=4, seed=1, laps=1))
    bot._see(base)
    assert bot._bills is not None
