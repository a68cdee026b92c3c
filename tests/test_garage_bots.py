"""The Garage bot's shortcuts: the corner bills it remembers are the engine's, car by car."""

from __future__ import annotations

from pitboard.engine import Race, RaceSetup
from pitboard.garage_bots import _DRAFT_VALUE, GarageBot

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


def test_waiting_for_names_the_drafting_car_pending_names() -> None:
    for choose in ("draft", "snake"):
        race = Race(RaceSetup(track="usa", cars=5, seed=2, laps=1, modules={
            "garage": {"choose": choose, "pool": "all", "expansions": True}}))
        bot = GarageBot(seed=2)
        picks = 0
        while race.phase == "draft":
            car_id = race.waiting_for()
            pending = race.pending()
            assert pending.cars == (car_id,)
            decision = bot.choose(race, car_id)
            assert decision in pending.options  # the bot's own reading of the market
            best = max if type(decision).__name__ == "DraftPick" else min
            assert decision == best(pending.options, key=lambda d: _DRAFT_VALUE[d.card])
            race.apply(decision)
            picks += 1
        assert picks == (25 if choose == "snake" else 15)  # a snake draft: 4 picks and a drop each


def test_teaching_a_card_value_changes_the_garage_plan() -> None:
    """The Garage bot works each hand out afresh with the values taught: a card taught to be
    worth more is played where it was left in hand before (and back again)."""
    from pitboard import bots
    race = Race(RaceSetup(track="usa", cars=2, seed=3, laps=1, modules={
        "garage": {"choose": "draft", "pool": "all"}}))
    bot = GarageBot(seed=3)
    while race.phase != "plan":
        race.apply(bot.choose(race, race.waiting_for()))
    car = race.cars[0]
    plan = bot.choose(race, 0)
    left = next(c for c in car.hand if c not in plan.cards and bots.PLAYABLE[c])
    worst, expected = bots._WORST[left], bots._EXPECTED[left]
    try:
        bots.card_value(left, worst=0.0, expected=9.0)  # fast and never overshoots
        assert left in bot.choose(race, 0).cards
    finally:
        bots.card_value(left, worst=worst, expected=expected)
    assert bot.choose(race, 0) == plan


def test_cards_alike_are_played_in_hand_order() -> None:
    """Of two upgrades alike in value (U13 and U16: speed 3), the one that came into the hand
    first is played."""
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, modules={
        "garage": {"choose": "draft", "pool": "all"}}))
    bot = GarageBot(seed=1)
    while race.phase != "plan":
        race.apply(bot.choose(race, race.waiting_for()))
    car = race.cars[0]
    for first, second in (("U13", "U16"), ("U16", "U13")):
        car.hand = [first, "1", "1", "H", "1", "4", second]
        car.engine, car.gear = 0, 1  # 2nd gear at most: the 4 and one of the two
        played = bot.choose(race, 0).cards
        assert sorted(played) == sorted(("4", first)), played
