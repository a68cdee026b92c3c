"""The Championship in the engine: its data file, Press Corners, sponsors, every Event rule, the
points, and a season (grid by standings, the Garage kept across races, replay and undo).

Every Event rule has a scenario in ``tests/scenarios/champ_*.txt`` (run here, checked by their
``expect`` lines); the tests below check what a scenario cannot say (a refused decision, the
points, the season between races). Facts: ../shared/reference/modules.md section 5 and
../shared/reference/tracks.md.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from pitboard.bots import HeuristicBot, RandomBot
from pitboard.engine import Discard, IllegalDecision, Plan, Race, RaceSetup, StackedDeck
from pitboard.engine.championship import RULES, load_championship
from pitboard.engine.championship.data import FILE
from pitboard.engine.championship.module import SPONSORS, press_corners, sponsor_deck
from pitboard.engine.championship.season import (
    RaceResult,
    Season,
    SeasonSetup,
    replay_season,
    season_from_dict,
    season_names,
    season_plan,
    standings,
)
from pitboard.engine.datafile import DataFileError
from pitboard.engine.garage.draft import DraftSwap
from pitboard.engine.snapshot import race_to_dict
from pitboard.engine.stamp import race_stamp
from pitboard.garage_bots import GarageBot
from pitboard.scenario import load_scenario
from pitboard.trackfile import TrackFileError, load_track, load_track_file

SCENARIOS = Path(__file__).parent / "scenarios"
DATA = Path(__file__).parent.parent / "firmware_py/pitboard/engine/championship" / FILE


# -- the data file ------------------------------------------------------------------------------
def test_the_box_holds_eighteen_events_and_five_seasons() -> None:
    data = load_championship()
    assert data.points == (9, 6, 4, 3, 2, 1)
    assert len(data.events) == 18
    assert [len(s.races) for s in data.seasons] == [3, 3, 4, 4, 4]
    assert [e.sponsors for e in data.events] == [2, 1, 1, 2, 1, 1, 3, 1, 1, 0, 0, 1, 1, 1, 2,
                                                  0, 0, 1]
    assert [e.press for e in data.events] == ["A", "B", "C", "E", "CE", "C", "A", "BD", "D", "D",
                                              "BC", "B", "C", "", "D", "C", "AC", "B"]
    assert {r.event for s in data.seasons for r in s.races} == {e.key for e in data.events}
    assert season_names() == ("1961", "1962", "1963", "1964", "1965", "random")


def test_every_rule_the_file_names_is_a_registered_rule_with_a_scenario() -> None:
    used = {name for e in load_championship().events for name, _ in e.rules}
    assert used == set(RULES)
    for event in load_championship().events:  # one scenario per Event card, at least
        assert any(event.key in p.read_text() for p in SCENARIOS.glob("champ_*.txt")), event.key


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("champ_*.txt")), ids=lambda p: p.stem)
def test_championship_scenarios(path: Path) -> None:
    load_scenario(path).run()  # every expect line holds


@pytest.mark.parametrize(("old", "new", "message"), [
    ("points = [9, 6, 4, 3, 2, 1]", "points = [9, -6]", "scoring.points: must be a list of"),
    ("copies = 7", "copies = 0", "sponsors.copies: must be 1..99, got 0"),
    ('dealt_to = "deck"', 'dealt_to = "box"', "sponsors.dealt_to: must be deck or hand"),
    ('press = "CE"', 'press = "CX"', "event[5].press: must be letters A-H"),
    ('rules = ["laps +1", "hand_size 8"]', 'rules = ["lap +1"]',
     "event[5].rules[1]: unknown rule 'lap'"),
    ('rules = ["laps +1", "hand_size 8"]', 'rules = ["laps"]', "event[5].rules[1]: laps takes 1"),
    ('rules = ["laps +1", "hand_size 8"]', 'rules = ["laps 0"]',
     "event[5].rules[1]: laps: must be -9..9, not 0"),
    ('rules = ["laps +1", "hand_size 8"]', 'rules = ["hand_size x"]',
     "event[5].rules[1]: hand_size: 'x' is not a whole number"),
    ('{track = "usa", event = "new_speed_record"}', '{track = "moon", event = "new_speed_record"}',
     "season[1].races[2].track: must be a shipped track"),
    ('{track = "usa", event = "new_speed_record"}', '{track = "usa", event = "warp"}',
     "season[1].races[2].event: no [[event]] with key 'warp'"),
    ('key = "corruption"', 'key = "record_crowds"', "event[6].key: 'record_crowds' is already"),
    ("year = 1962", "year = 1961", "season[2].year: 1961 is already season[1]"),
])
def test_a_broken_data_file_is_one_line_naming_file_and_field(
        tmp_path: Path, old: str, new: str, message: str) -> None:
    text = DATA.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / FILE
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_championship(path)
    assert str(err.value).startswith(f"{path}: {message}"), str(err.value)
    assert "\n" not in str(err.value)


def test_the_data_and_rules_are_in_a_championship_race_stamp() -> None:
    setup = RaceSetup(track="usa", cars=2, modules={"garage": {"choose": "none"},
                                                    "championship": {"event": "title_sponsor"}})
    assert {"championship.data", "championship.rules"} <= set(race_stamp(setup)["data"])
    assert "championship.data" not in race_stamp(RaceSetup(track="usa", cars=2))["data"]


# -- Press Corners --------------------------------------------------------------------------------
@pytest.mark.parametrize(("track", "event", "corners"), [
    ("usa", "new_speed_record", (1,)),           # B: the 2nd corner (0-based 1)
    ("italy", "future_unknown", (0,)),           # D on 3 corners: round again to the 1st
    ("italy", "restrictions_lifted", (1,)),      # E: the 5th, round again to the 2nd
    ("great_britain", "record_crowds", (2, 4)),  # C and E
    ("japan", "title_sponsor", (1,)),            # A: the chicane, at its 2nd line
    ("mexico", "chicanes_for_safety", (3,)),     # C: the chicane counts once
    ("spain", "tunnel_vision", (1, 5)),          # Spain's own list: A = corner 2, C = corner 6
    ("japan", "sudden_rain", ()),                # no Press Corner
])
def test_press_corner_letters(track: str, event: str, corners: tuple[int, ...]) -> None:
    assert press_corners(load_championship().event(event), load_track(track).press_slots()) \
        == corners


def test_a_track_files_press_corners_are_checked(tmp_path: Path) -> None:
    text = (Path(__file__).parent.parent / "firmware_py/pitboard/tracks/spain.toml").read_text()
    for bad, message in (("[2, 4, 99]", "press_corners[3]: must be a corner number 1..11"),
                         ("[2, 2]", "press_corners[2]: corner 2 is listed twice"),
                         ('"A"', "press_corners: must be an array of corner numbers")):
        path = tmp_path / "spain.toml"
        path.write_text(text.replace("press_corners = [2, 4, 6, 7, 10]", f"press_corners = {bad}"))
        with pytest.raises(TrackFileError, match=re.escape(message)):
            load_track_file(path)


# -- sponsors --------------------------------------------------------------------------------------
def test_the_sponsor_deck_holds_seven_of_each_base_type_and_the_boxes_of_the_events() -> None:
    data = load_championship()
    assert len(sponsor_deck(data, ())) == 35
    assert Counter(sponsor_deck(data, ("heavy_rain",)))["P6"] == 7
    assert SPONSORS[""] == ("P1", "P2", "P3", "P4", "P5")
    race = Race(RaceSetup(track="usa", cars=3, seed=4, modules={
        "garage": {"choose": "none"}, "championship": {"event": "title_sponsor"}}))
    champ = race.hooks.by_key["championship"]
    dealt = [code for cards in champ.dealt.values() for code in cards]
    assert len(dealt) == 9 and len(champ.deck) == 35 - 9
    for car in race.cars:  # shuffled into each deck with the other cards
        assert Counter(c for c in car.hand + car.draw if c.startswith("P")) == \
            Counter(champ.dealt[car.id])


def test_legend_cars_hold_no_sponsors() -> None:
    race = Race(RaceSetup(track="usa", cars=3, seed=4, modules={
        "garage": {"choose": "none"}, "legends": {"cars": 1},
        "championship": {"event": "title_sponsor"}}))
    assert sorted(race.hooks.by_key["championship"].dealt) == [0, 1]


def test_an_empty_sponsor_deck_earns_nothing() -> None:
    sc = load_scenario(SCENARIOS / "champ_speed_record.txt")
    modules = {**sc.setup.modules, "championship": {"event": "new_speed_record",
                                                      "deck": ["P1", "P2"]}}
    race = Race(RaceSetup(**{**_fields(sc.setup), "modules": modules}), track=sc.track)
    for _, decision in sc.decisions:
        race.apply(decision)
    earned = [e for e in race.events if e.kind == "sponsor"]
    assert [(e.car, e.card) for e in earned] == [(0, None)]


def _fields(setup: RaceSetup) -> dict[str, object]:
    return {"track": setup.track, "cars": setup.cars, "seed": setup.seed, "laps": setup.laps,
            "stacked": setup.stacked, "grid": setup.grid}


def test_a_championship_race_needs_the_garage_for_its_sponsors() -> None:
    with pytest.raises(ValueError, match="championship: sponsors are upgrade cards"):
        RaceSetup(cars=2, modules={"championship": {"event": "title_sponsor"}}).validate()
    with pytest.raises(ValueError, match="unknown Event 'warp'"):
        RaceSetup(cars=2, modules={"garage": {}, "championship": {"event": "warp"}}).validate()


# -- Event rules a scenario cannot refuse ----------------------------------------------------------
def _discard_race(event: str, hand: tuple[str, ...]) -> Race:
    deck = StackedDeck(hand=hand, draw=("2",) * 8, d=20, spot=1, engine=0)
    race = Race(RaceSetup(track="great_britain", cars=1, laps=1, stacked={0: deck}, modules={
        "garage": {"choose": "none"}, "championship": {"event": event}}))
    race.apply(Plan(0, 1, ("1",)))
    while race.phase == "react":
        race.apply(race.pending().options[-1])
    return race


def test_hold_on_tight_refuses_a_second_card() -> None:
    race = _discard_race("hold_on_tight", ("0", "1", "1", "1", "1", "1", "1"))
    assert race.pending().discard_most == 1
    with pytest.raises(IllegalDecision, match="at most 1 card may be discarded now"):
        race.apply(Discard(0, ("0", "1")))
    race.apply(Discard(0, ("0",)))


def test_chicanes_for_safety_lets_heat_go_but_not_stress() -> None:
    race = _discard_race("chicanes_for_safety", ("H", "S", "1", "1", "1", "1", "1"))
    assert "H" in race.pending().discardable and "S" not in race.pending().discardable
    with pytest.raises(IllegalDecision, match="Stress cards cannot be discarded now"):
        race.apply(Discard(0, ("S",)))


def test_tunnel_vision_lets_stress_go_but_not_heat() -> None:
    race = _discard_race("tunnel_vision", ("H", "S", "1", "1", "1", "1", "1"))
    with pytest.raises(IllegalDecision, match="Heat cards cannot be discarded now"):
        race.apply(Discard(0, ("H",)))
    race.apply(Discard(0, ("S",)))


def test_a_hand_of_heat_alone_reaches_the_discard_step_only_when_heat_may_go() -> None:
    for event, phase in (("chicanes_for_safety", "discard"), ("title_sponsor", "plan")):
        race = _discard_race(event, ("H", "H", "H", "H", "H", "H", "1"))
        assert race.phase == phase, event


# -- points ----------------------------------------------------------------------------------------
def _module(event: str) -> object:
    race = Race(RaceSetup(track="usa", cars=6, modules={
        "garage": {"choose": "none"}, "championship": {"event": event}}))
    return race.hooks.by_key["championship"]


def test_points_by_place_and_the_events_bonuses() -> None:
    order = [3, 1, 4, 0, 5, 2]
    assert _module("title_sponsor").points(order) == {3: 9, 1: 6, 4: 4, 0: 3, 5: 2, 2: 1}
    assert _module("drivers_strike").points(order)[3] == 11
    assert _module("corruption").points(order) == {3: 10, 1: 7, 4: 5, 0: 3, 5: 2, 2: 1}
    # a car out of the race (not in the Hall of Fame) scores nothing
    assert _module("future_unknown").points([3, 1]) == {3: 9, 1: 6}


# -- the season ------------------------------------------------------------------------------------
def play(season: Season, seed: int = 0, *, stop_at: int | None = None) -> Season:
    """Bots play the season on (Garage bots when it races upgrades); ``stop_at``: until that
    race begins."""
    garage = "garage" in season.setup.modules
    bots = [GarageBot(seed=seed + c) if garage else HeuristicBot(seed=seed + c)
            for c in range(season.setup.cars)]
    while not season.over:
        if season.race.over:
            if stop_at is not None and season.index + 1 == stop_at:
                return season
            season.next_race()
        car = season.race.waiting_for()
        if car >= 0:
            season.race.apply(bots[car].choose(season.race, car))
    return season


def test_a_season_scores_every_race_and_grids_the_next_by_the_standings() -> None:
    season = play(Season(SeasonSetup(season="1963", cars=4, seed=5)), stop_at=2)
    assert season.between and season.index == 1
    standings = season.standings()
    totals = season.totals()
    assert [totals[c] for c in standings] == sorted(totals.values(), reverse=True)
    season.next_race()
    assert season.race.grid == standings  # the leader on pole
    assert season.race.setup.grid == tuple(standings)
    assert season.race.track.key == "france" and len(season.logs) == 2
    play(season)
    assert season.over and len(season.results()) == 4
    for result in season.results():  # a car out of the race (Future unknown) scores nothing
        assert sorted(result.points.values(), reverse=True) == [9, 6, 4, 3][:len(result.order)]
    assert sum(season.totals().values()) == sum(sum(r.points.values()) for r in season.results())


def test_equal_points_go_by_the_latest_race_then_the_one_before() -> None:
    first = RaceResult("usa", "title_sponsor", (0, 1, 2), {0: 9, 1: 6, 2: 4}, (0, 1, 2))
    second = RaceResult("italy", "future_unknown", (2, 1), {2: 9, 1: 6}, (2, 1, 0))
    assert standings(3, [first, second]) == [2, 1, 0]  # 13, 12, 9
    third = RaceResult("usa", "title_sponsor", (0, 1), {0: 4, 1: 0}, (0, 1, 2))
    assert standings(3, [first, second, third]) == [0, 2, 1]  # 13 (ahead last), 13, 12


def test_the_garage_across_a_season_keeps_upgrades_drafts_one_round_and_swaps() -> None:
    setup = SeasonSetup(season="1961", cars=3, seed=2, modules={"garage": {"choose": "draft"}})
    season = play(Season(setup), stop_at=1)
    owned = {c: list(keys) for c, keys in season.race.hooks.by_key["garage"].picks.items()}
    standings = season.standings()
    season.next_race()
    garage = season.race.hooks.by_key["garage"]
    options = season.race.setup.modules["garage"]
    assert options["rounds"] == 1 and options["swap"] is True
    assert options["order"] == standings[::-1]  # the last placed picks first
    assert season.race.pending().cars == (standings[-1],)
    assert {int(c): k for c, k in options["kept"].items()} == owned
    while season.race.phase == "draft":
        car = season.race.waiting_for()
        if garage.swapping:
            give, take = owned[car][0], garage.market[0]
            season.race.apply(DraftSwap(car, give, take))
            owned[car][0] = take
        else:
            season.race.apply(season.race.pending().options[0])
            owned[car].append(garage.picks[car][-1])
    assert garage.picks == owned
    for car in season.race.cars:  # 4 upgrades in each deck, none of the starting ones
        deck = car.hand + car.draw
        assert "5" not in deck and sum(c.startswith("U") for c in deck) + deck.count("H") >= 4


def test_a_season_without_the_garage_keeps_the_starting_upgrades() -> None:
    season = Season(SeasonSetup(season="1962", cars=2, seed=1))
    assert season.race.setup.modules["garage"] == {"choose": "none"}
    car = season.race.cars[0]
    assert {"0", "5"} <= set(car.hand + car.draw)


def test_replay_and_the_saved_form_give_the_same_season() -> None:
    season = play(Season(SeasonSetup(season="1964", cars=3, seed=7, modules={
        "garage": {"choose": "snake", "expansions": True}, "weather": {"weather": "random"}})))
    again = replay_season(season.setup, season.all_logs())
    assert race_to_dict(again.race, events=True) == race_to_dict(season.race, events=True)
    assert again.results() == season.results()
    assert season_from_dict(season.to_dict()).standings() == season.standings()


def test_undo_inside_a_race_and_not_past_its_start() -> None:
    season = play(Season(SeasonSetup(season="1961", cars=2, seed=3)), stop_at=1)
    season.next_race()
    with pytest.raises(ValueError, match="nothing to undo"):
        season.undo()
    bots = [RandomBot(seed=1), RandomBot(seed=2)]
    for _ in range(7):
        car = season.race.waiting_for()
        season.race.apply(bots[car].choose(season.race, car))
    log = list(season.race.log)
    season.undo()
    fresh = Race(season.race.setup)
    for decision in log[:-1]:
        fresh.apply(decision)
    assert race_to_dict(season.race, events=True) == race_to_dict(fresh, events=True)
    assert len(season.logs) == 1  # the finished race stays as played


def test_a_random_season_draws_different_tracks_and_events_from_its_seed() -> None:
    plans = {seed: season_plan(SeasonSetup(season="random", seed=seed)) for seed in range(20)}
    for plan in plans.values():
        assert len(plan) == 4
        assert len({r.track for r in plan}) == 4 and len({r.event for r in plan}) == 4
    assert len({plan for plan in plans.values()}) > 10
    assert season_plan(SeasonSetup(season="random", seed=3)) == plans[3]


@pytest.mark.parametrize(("setup", "message"), [
    (SeasonSetup(season="1970"), "unknown season '1970'"),
    (SeasonSetup(season="1961", cars=7), "cars must be 1..6"),
    (SeasonSetup(modules={"championship": {}}), "sets the championship module"),
    (SeasonSetup(modules={"garage": {"choose": "none"}}), "a season chooses upgrades by"),
    (SeasonSetup(cars=2, modules={"legends": {"cars": 2}}), "legends: 2 Legend cars"),
])
def test_a_season_that_cannot_be_raced_is_one_line(setup: SeasonSetup, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        setup.validate()


def test_next_race_only_when_the_race_is_over() -> None:
    season = Season(SeasonSetup(season="1961", cars=2))
    with pytest.raises(ValueError, match="the race is not over"):
        season.next_race()
    play(season)
    with pytest.raises(ValueError, match="the season is over"):
        season.next_race()
