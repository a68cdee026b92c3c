"""Property tests over random Garage races (random, draft and snake choice; every pool; with and
without the expansions; random and heuristic bots mixed).

After every decision: each car's cards are conserved (hand + draw + discard + play + engine Heat,
plus Stress taken from the reserve, plus one-time cards taken out of the game), Heat is never
negative, no two cars share a spot. Every race ends; seed + decision log replays it exactly; undo
is exact; a JSON snapshot taken mid-race (mid-draft included) plays on identically.

``make test`` runs a few hundred races here; ``benchmarks/garage_soak.py`` runs thousands with
the same checks.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from pitboard.bots import Bot, RandomBot
from pitboard.catalog import TRACKS
from pitboard.engine import Race, RaceSetup, race_from_dict, race_to_dict, replay, undo
from pitboard.engine.cards import HEAT, STRESS
from pitboard.engine.events import SpunOut
from pitboard.engine.garage import removed_cards
from pitboard.garage_bots import GarageBot
from test_properties import round_limit


@dataclass(frozen=True)
class GarageGame:
    seed: int

    @property
    def rng(self) -> random.Random:
        return random.Random(self.seed)

    def setup(self) -> RaceSetup:
        rng = self.rng
        cars = rng.randint(1, 6)
        options = {"choose": rng.choice(("random", "draft", "snake")),
                   "pool": rng.choice(("basic", "advanced", "all")),
                   "expansions": rng.random() < 0.6}
        return RaceSetup(track=rng.choice(TRACKS), cars=cars, seed=self.seed,
                         laps=rng.randint(1, 2), modules={"garage": options})

    def bots(self) -> list[Bot]:
        rng = self.rng
        rng.random()
        cars = self.setup().cars
        return [RandomBot(seed=self.seed + i) if rng.random() < 0.6
                else GarageBot(seed=self.seed + i) for i in range(cars)]


def cards_of(race: Race, car_id: int) -> list[str]:
    """Every card the car owns, Heat in its engine too, sorted: a multiset that compares in
    one step (a Counter's comparison walks both in Python: 6 us a car and decision, not 1.5)."""
    car = race.cars[car_id]
    owned = car.hand + car.draw + car.discard + car.play + removed_cards(race, car_id)
    owned += [HEAT] * car.engine
    owned.sort()
    return owned


def play_checked(game: GarageGame) -> Race:
    """Play a whole race, checking the invariants after every decision once the cards are
    dealt."""
    race = Race(game.setup())
    bots = game.bots()
    start: list[list[str]] | None = None
    limit = round_limit(race)
    stress: Counter[int] = Counter()  # Stress taken from the reserve, by car, so far
    read = 0  # events read for it (read once each, not all again after every decision)
    while not race.over:
        car = race.pending().cars[0]
        race.apply(bots[car].choose(race, car))
        for event in race.events[read:]:
            if isinstance(event, SpunOut):
                stress[event.car] += event.stress
        read = len(race.events)
        if race.phase == "draft":
            continue
        if start is None:
            start = [cards_of(race, c.id) for c in race.cars]
            assert all(len(s) >= 15 for s in start)
        for c in race.cars:
            expected = sorted(start[c.id] + [STRESS] * stress[c.id])
            assert cards_of(race, c.id) == expected, f"seed {game.seed}: car {c.id} cards"
            assert c.engine >= 0, f"seed {game.seed}: negative Heat"
        places = [(c.space, c.spot) for c in race.cars if c.on_track]
        assert len(places) == len(set(places)), f"seed {game.seed}: two cars on one spot"
        assert race.round <= limit, f"seed {game.seed}: race did not end"
    return race


def check_game(seed: int) -> Race:
    """Every property for one random Garage race (also used by benchmarks/garage_soak.py)."""
    game = GarageGame(seed)
    race = play_checked(game)
    assert sorted(race.hall_of_fame) == list(range(len(race.cars)))
    assert race_to_dict(replay(race.setup, race.log)) == race_to_dict(race), f"seed {seed}"
    cut = random.Random(seed).randint(1, len(race.log))
    partial = replay(race.setup, race.log[:cut])
    before = race_to_dict(replay(race.setup, race.log[:cut - 1]), events=True)
    assert race_to_dict(undo(partial), events=True) == before, f"seed {seed}: undo"
    restored = race_from_dict(json.loads(json.dumps(race_to_dict(partial, events=True))))
    assert restored.pending() == partial.pending(), f"seed {seed}: snapshot pending"
    for decision in race.log[cut:]:
        restored.apply(decision)
    assert race_to_dict(restored) == race_to_dict(race), f"seed {seed}: snapshot plays on"
    return race


@pytest.mark.parametrize("block", range(8))
def test_random_garage_races_keep_every_invariant(block: int) -> None:
    for seed in range(block * 25, block * 25 + 25):  # 200 races in all
        check_game(seed)


def test_every_symbol_path_is_walked() -> None:
    """The random bot, over these races, uses every optional symbol and meets every mandatory
    one, the unpayable Heat cost included."""
    seen: Counter[str] = Counter()
    for seed in range(60):
        setup = RaceSetup(cars=6, seed=seed, laps=1, modules={"garage": {
            "choose": "random", "pool": "all", "expansions": True}})
        race = Race(setup)
        bots = [RandomBot(seed=seed + i) for i in range(6)]
        while not race.over:
            car = race.pending().cars[0]
            race.apply(bots[car].choose(race, car))
        seen.update(e.kind for e in race.events)
    for kind in ("speed_choice", "direct_play", "accelerate", "reduce", "salvage", "supercool",
                 "draft_move", "refresh", "scrap", "upgrade_replaced"):
        assert seen[kind], f"no {kind} in 60 random-bot races"
