"""The Garage bot's shortcuts: the corner bills it remembers are the engine's, car by car."""

from __future__ import annotations

from pitboard.engine import Race, RaceSetup
from pitboard.garage_bots import GarageBot

#: adjust cards for two cars (+2, +3 and -1 to the corner limits of a turn they are played)
ADJUSTERS = {"0": ["U44", "U46", "U39"], "1": ["U45", "U41", "U36"]}


def test_remembered_bills_are_the_engines_car_by_car() -> None:
    race = Race(RaceSetup(track="usa", cars=6, seed=5, laps=2, modules={
        "garage": {"choose": "draft", "pool": "all", "upgrades": ADJUSTERS}}))
    bot = GarageBot(seed=5)
    checked = adjusted = 0
    while (car_id := race.waiting_for()) >= 0:
        car = race.cars[car_id]
        decision = bot.choose(race, car_id)  # picks the bills its answers read for this car
        if race.phase == "react":
            ts = race.hooks.by_key["garage"].turn.get(car_id)
            adjusted += bool(ts and ts.adjust)
            asks = [(car.d + extra, speed)
                    for extra in (0, 1, 4) for speed in (car.speed + extra, 20)]
            # each asked twice: the memo filled, then read back
            got = [bot._bill(race, car, end, speed) for end, speed in asks + asks]
            assert got == 2 * [race.corner_bill(car.start_d, e, s, car) for e, s in asks]
            checked += len(asks)
        race.apply(decision)
    assert bot._course_bills is not None
    assert checked > 100 and adjusted > 5


def test_no_remembered_bills_when_another_module_bills_car_by_car() -> None:
    race = Race(RaceSetup(track="usa", cars=4, seed=1, laps=1, modules={
        "garage": {"choose": "random"}, "weather": {"weather": "random", "road": True}}))
    bot = GarageBot(seed=1)
    bot._see(race)
    assert race.hooks.corner_heat is not None  # road tokens may overheat a corner
    assert bot._course_bills is None and bot._bills is None
    while (car_id := race.waiting_for()) >= 0:
        race.apply(bot.choose(race, car_id))
    assert race.over
