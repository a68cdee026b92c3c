"""Property tests over random championship seasons: every season (1961-1965 and random), with
and without the Garage, Legends and weather, random and heuristic bots mixed.

After every decision of every race: each car's cards are conserved (hand + draw + discard + play
+ engine Heat + one-time cards used up, with Stress taken from the reserve, sponsors earned and
Heat an Event took out of the game accounted for), the sponsor deck too (the deck + sponsors
dealt + sponsors earned = the box's deck), Heat is never negative, no two cars share a spot.
Every season ends; its setup + each race's decisions replay it exactly; undo inside a race is
exact. ``benchmarks/season_soak.py`` runs many more seasons with the same checks.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from pitboard.bots import Bot, RandomBot
from pitboard.engine import Race
from pitboard.engine.cards import HEAT, STRESS
from pitboard.engine.championship.module import ChampionshipModule, sponsor_deck
from pitboard.engine.championship.season import Season, SeasonSetup, replay_season, season_names
from pitboard.engine.events import HeatRemoved, SponsorEarned, SpunOut
from pitboard.engine.snapshot import race_to_dict
from pitboard.garage_bots import GarageBot
from test_garage_properties import cards_of
from test_properties import round_limit


@dataclass(frozen=True)
class SeasonGame:
    seed: int

    def setup(self) -> SeasonSetup:
        rng = random.Random(self.seed)
        cars = rng.randint(1, 6)
        modules: dict[str, dict[str, object]] = {}
        if rng.random() < 0.5:
            modules["garage"] = {"choose": rng.choice(("random", "draft", "snake")),
                                 "expansions": rng.random() < 0.5}
        if cars > 1 and rng.random() < 0.3:
            modules["legends"] = {"cars": rng.randint(1, cars - 1)}
        if rng.random() < 0.3:
            modules["weather"] = {"weather": "random", "road": rng.random() < 0.5}
        return SeasonSetup(season=rng.choice(season_names()), cars=cars, seed=self.seed,
                           modules=modules)

    def bots(self, cars: int) -> list[Bot]:
        rng = random.Random(self.seed + 1)
        return [RandomBot(seed=self.seed + i) if rng.random() < 0.4
                else GarageBot(seed=self.seed + i) for i in range(cars)]


def check_race(race: Race, bots: list[Bot], seed: int) -> None:
    """Play ``race`` to its end, checking the invariants after every decision."""
    champ = race.hooks.by_key["championship"]
    assert isinstance(champ, ChampionshipModule)
    box = len(sponsor_deck(champ.data, champ.expansions))
    start: list[Counter[str]] | None = None
    gained: list[Counter[str]] = [Counter() for _ in race.cars]
    read, limit = 0, round_limit(race) + 5  # (an Event may add a lap)
    while not race.over:
        car = race.waiting_for()
        race.apply(bots[car].choose(race, car))
        for event in race.events[read:]:
            if isinstance(event, SpunOut):
                gained[event.car][STRESS] += event.stress
            elif isinstance(event, SponsorEarned) and event.card is not None:
                gained[event.car][event.card] += 1
            elif isinstance(event, HeatRemoved):
                gained[event.car][HEAT] -= len(event.piles)
        read = len(race.events)
        if race.phase == "draft":
            continue
        if start is None:
            start = [Counter(cards_of(race, c.id)) for c in race.cars]
        for c in race.cars:
            expected = sorted((start[c.id] + gained[c.id]).elements())
            assert cards_of(race, c.id) == expected, f"seed {seed}: car {c.id} cards"
            assert c.engine >= 0, f"seed {seed}: negative Heat"
        dealt = sum(len(v) for v in champ.dealt.values())
        earned = sum(len(v) for v in champ.earned.values())
        assert len(champ.deck) + dealt + earned == box, f"seed {seed}: sponsor deck"
        places = [(c.space, c.spot) for c in race.cars if c.on_track]
        assert len(places) == len(set(places)), f"seed {seed}: two cars on one spot"
        assert race.round <= limit, f"seed {seed}: race did not end"


def check_season(seed: int) -> Season:
    """Every property for one random season (also used by benchmarks/season_soak.py)."""
    game = SeasonGame(seed)
    season = Season(game.setup())
    bots = game.bots(season.setup.cars)
    undo_in = random.Random(seed).randrange(len(season.plan))
    while True:
        check_race(season.race, bots, seed)
        if season.index == undo_in:  # undo is exact at some point of one race
            cut = random.Random(seed).randint(1, len(season.race.log))
            partial = replay_season(season.setup, [*season.logs, season.race.log[:cut]])
            before = replay_season(season.setup, [*season.logs, season.race.log[:cut - 1]])
            partial.undo()
            assert race_to_dict(partial.race, events=True) == \
                race_to_dict(before.race, events=True), f"seed {seed}: undo"
        if season.over:
            break
        season.next_race()
    assert len(season.results()) == len(season.plan)
    again = replay_season(season.setup, season.all_logs())
    assert race_to_dict(again.race, events=True) == race_to_dict(season.race, events=True), \
        f"seed {seed}: replay"
    assert again.results() == season.results() and again.standings() == season.standings()
    return season


@pytest.mark.parametrize("block", range(4))
def test_random_seasons_keep_every_invariant(block: int) -> None:
    for seed in range(block * 8, block * 8 + 8):  # 32 seasons in all
        check_season(seed)
