"""Property tests for random races with Legends, weather and road conditions.

The same invariants as test_properties.py after every decision (cards accounted for, Heat never
negative, one car per spot, cars go back only by spinning out), plus: every race ends with every
car, Legends included, in the Hall of Fame; replay, undo and the JSON round-trip reproduce the
race exactly; a Legend is never asked for a decision, never pays Heat and never spins out.
Some races add the Garage (dealt or drafted upgrades, garage bots): there the per-decision
checks are Heat never negative and one car per spot (test_garage_properties.py counts the
upgrade cards).

Sized for ``make test``; ``benchmarks/module_soak.py`` plays thousands of these races.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pitboard.bots import Bot, HeuristicBot, RandomBot
from pitboard.catalog import WEATHER_TOKENS
from pitboard.engine import Race, RaceSetup, race_from_dict, race_to_dict, replay, undo
from pitboard.garage_bots import GarageBot
from test_properties import TRACKS, Checker, round_limit

MODULE_RACES = settings(max_examples=60, deadline=None)


@dataclass(frozen=True)
class ModuleGame:
    track: str
    drivers: int
    legends: int
    laps: int
    seed: int
    weather: str | None
    road: bool
    pro: int
    aggressive: bool
    random_bots: tuple[bool, ...]
    #: None, or how the Garage hands out upgrades ("random", "draft")
    garage: str | None = None
    #: the Garage's pool adds the Heavy Rain and Tunnel Vision cards
    expansions: bool = False

    def setup(self) -> RaceSetup:
        modules: dict[str, dict[str, Any]] = {}
        if self.legends:
            modules["legends"] = {"cars": self.legends, "pro": self.pro,
                                  "aggressive": self.aggressive}
        if self.weather is not None:
            modules["weather"] = {"weather": self.weather, "road": self.road}
        if self.garage is not None:
            modules["garage"] = {"choose": self.garage, "expansions": self.expansions}
        return RaceSetup(track=self.track, cars=self.drivers + self.legends, seed=self.seed,
                         laps=self.laps, modules=modules)

    def bots(self) -> list[Bot]:
        if self.garage is not None:
            return [RandomBot(seed=self.seed + i) if r else GarageBot(seed=self.seed + i)
                    for i, r in enumerate(self.random_bots)]
        return [RandomBot(seed=self.seed + i) if r else HeuristicBot(seed=self.seed + i)
                for i, r in enumerate(self.random_bots)]


@st.composite
def module_games(draw: st.DrawFn) -> ModuleGame:
    drivers = draw(st.integers(1, 5))
    return ModuleGame(
        track=draw(st.sampled_from(TRACKS)),
        drivers=drivers,
        legends=draw(st.integers(0, 6 - drivers)),
        laps=draw(st.integers(1, 2)),
        seed=draw(st.integers(0, 2**32 - 1)),
        weather=draw(st.sampled_from((None, "random", *WEATHER_TOKENS))),
        road=draw(st.booleans()),
        pro=draw(st.integers(0, 6)),
        aggressive=draw(st.booleans()),
        random_bots=tuple(draw(st.lists(st.booleans(), min_size=drivers, max_size=drivers))),
        garage=draw(st.sampled_from((None, None, "random", "draft"))),
        expansions=draw(st.booleans()),
    )


def play(game: ModuleGame, *, check: bool = True) -> tuple[Race, dict[str, Any]]:
    """Play a whole race (checking every invariant after each decision); also return the
    state before the last decision."""
    race = Race(game.setup())
    bots = game.bots()
    # the Garage's one-time cards leave the game: test_garage_properties.py counts them
    checker = Checker(race) if check and game.garage is None else None
    decisions = 0
    while not race.over:
        decisions += 1
        car = race.pending().cars[0]
        assert car < game.drivers, "a Legend car was asked for a decision"
        race.apply(bots[car].choose(race, car))
        if checker is not None:
            checker.check(race)
        assert all(c.engine >= 0 for c in race.cars)
        places = [(c.space, c.spot) for c in race.cars if c.on_track]
        assert len(places) == len(set(places)), f"two cars on one spot: {places}"
        assert race.round <= round_limit(race), "race did not end"
    # the state before the last decision, from a second live play with fresh bots seeded alike
    before_last = Race(game.setup())
    again = game.bots()
    for _ in range(decisions - 1):
        car = before_last.pending().cars[0]
        before_last.apply(again[car].choose(before_last, car))
    return race, race_to_dict(before_last, events=True)


def check_finished(game: ModuleGame, race: Race, before_last: dict[str, Any]) -> None:
    """Everything a finished race must satisfy (also used by benchmarks/module_soak.py)."""
    assert race.over
    assert sorted(race.hall_of_fame) == list(range(game.drivers + game.legends))
    for car in race.cars[game.drivers:]:  # the Legend cars
        assert car.spinouts == 0 and car.engine == 0 and car.hand == []
    assert not [e for e in race.events if getattr(e, "car", -1) >= game.drivers and e.kind in
                ("corner", "heat", "cooldown", "boost", "slipstream", "spin_out")]
    assert race_to_dict(replay(race.setup, race.log)) == race_to_dict(race)
    assert race_to_dict(undo(race), events=True) == before_last


@MODULE_RACES
@given(module_games())
def test_module_race_keeps_every_invariant(game: ModuleGame) -> None:
    race, before_last = play(game)
    check_finished(game, race, before_last)


@MODULE_RACES
@given(module_games(), st.integers(0, 300))
def test_module_race_json_round_trip_then_play_on(game: ModuleGame, cut: int) -> None:
    race = Race(game.setup())
    bots = game.bots()
    for _ in range(cut):
        if race.over:
            break
        car = race.pending().cars[0]
        race.apply(bots[car].choose(race, car))
    state = race_to_dict(race, events=True)
    restored = race_from_dict(json.loads(json.dumps(state)))
    assert race_to_dict(restored, events=True) == state
    assert restored.pending() == race.pending()
    for r in (race, restored):
        fresh = game.bots()
        while not r.over:
            car = r.pending().cars[0]
            r.apply(fresh[car].choose(r, car))
    assert race_to_dict(restored, events=True) == race_to_dict(race, events=True)
