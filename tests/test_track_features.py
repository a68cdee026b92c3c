"""The expansion tracks' rules beyond their scenario files (tests/scenarios/chicane_*,
flooded_downshift, tunnel_*, legend_double_chevron, spain_one_lap, heavy_rain_flooded,
tunnel_vision_draft, run by test_scenario_files.py): a flooded downshift without the Heat for
it, which features a race builds, snapshots and the journal's stamp, and races with every
module on on each new track (``benchmarks/expansion_tracks.py`` plays 500 per track)."""

from __future__ import annotations

import dataclasses
import re
from importlib import resources
from pathlib import Path

import pytest

from pitboard.engine import (
    IllegalDecision,
    Plan,
    Race,
    RaceSetup,
    StackedDeck,
    race_from_dict,
    race_to_dict,
    replay,
)
from pitboard.engine.decisions import DOWNSHIFT
from pitboard.engine.forecast import forecast
from pitboard.engine.legends.cards import LegendEntry
from pitboard.engine.legends.movement import legend_move
from pitboard.engine.modules import build_features
from pitboard.engine.stamp import race_stamp, stamp_change
from pitboard.engine.weather import road_tokens
from pitboard.scenario import load_scenario
from pitboard.trackfile import load_track
from test_module_properties import ModuleGame, check_finished, play

SCENARIOS = Path(__file__).parent / "scenarios"
TRACKS_DIR = Path(str(resources.files("pitboard") / "tracks"))
NEW_TRACKS = ("japan", "mexico", "netherlands", "spain")
HAND = ("1", "1", "1", "1", "1", "1", "1")


def on_space(track: str, space: int, *, gear: int, engine: int) -> Race:
    """A two-car race on ``track``, car 0 in ``gear`` on ``space`` (lap 1), car 1 behind."""
    deck = StackedDeck(hand=HAND, d=space, spot=1, gear=gear, engine=engine)
    other = StackedDeck(hand=HAND, d=1, spot=2)
    return Race(RaceSetup(track=track, cars=2, seed=3, laps=1, stacked={0: deck, 1: other}))


# ---------------------------------------------------------------- flooded spaces
@pytest.mark.parametrize(("engine", "gears", "cost"), [
    (0, (3, 4), {3: 0, 4: 0}),                    # no Heat: no downshift at all
    (1, (2, 3, 4), {2: 1, 3: 0, 4: 0}),           # 1 Heat: one gear down, not two
    (2, (1, 2, 3, 4), {1: 2, 2: 1, 3: 0, 4: 0}),  # a 2-gear downshift costs 1 + 1
])
def test_flooded_downshift_costs_the_heat_the_engine_must_hold(
        engine: int, gears: tuple[int, ...], cost: dict[int, int]) -> None:
    race = on_space("japan", 40, gear=3, engine=engine)
    rule = race.plan_rule(0)
    assert (rule.gears, rule.shift_cost, rule.downshift_heat) == (gears, cost, 1)


def test_flooded_downshift_refused_in_one_line_without_the_heat() -> None:
    race = on_space("japan", 40, gear=3, engine=1)
    plan = Plan(0, 1, ("1",))
    problem = race.plan_problem(plan)
    assert problem is not None and problem.kind == DOWNSHIFT and problem.needed == 2
    with pytest.raises(IllegalDecision, match=r"^car 0: not enough Heat to shift 3->1: a "
                                              r"downshift here costs 2 Heat \(a flooded space\)$"):
        race.apply(plan)
    assert race.cars[0].engine == 1 and race.cars[0].gear == 3  # untouched
    from pitboard.table.hand import short_problem

    assert short_problem(problem) == "not enough Heat to shift"  # what the station shows


def test_flooded_downshift_shows_in_the_forecast() -> None:
    race = on_space("japan", 40, gear=3, engine=6)
    assert forecast(race, 0, 2, ("1", "1")).shift_cost == 1
    dry = on_space("japan", 47, gear=3, engine=6)  # space 47 is not flooded
    assert forecast(dry, 0, 2, ("1", "1")).shift_cost == 0


def test_off_the_flooded_spaces_shifting_is_the_base_games() -> None:
    race = on_space("japan", 47, gear=3, engine=6)
    usa = on_space("usa", 47, gear=3, engine=6)
    assert race.plan_rule(0) == usa.plan_rule(0)


# ---------------------------------------------------------------- features per track
def test_a_track_builds_only_the_features_its_spaces_have() -> None:
    built = {key: [f.key for f in build_features(load_track(key))]
             for key in ("usa", "italy", *NEW_TRACKS)}
    assert built == {"usa": [], "italy": [], "japan": ["flooded"], "mexico": [],
                     "netherlands": [], "spain": ["tunnels"]}
    hooks = Race(RaceSetup(track="usa", cars=2, seed=1)).hooks
    assert hooks.features == () and hooks.downshift_heat is None and hooks.may_discard is None


def test_features_are_not_modules_in_a_snapshot() -> None:
    race = on_space("spain", 20, gear=1, engine=6)
    state = race_to_dict(race)
    assert "modules" not in state
    restored = race_from_dict(state)
    assert [f.key for f in restored.hooks.features] == ["tunnels"]
    assert not restored.may_discard(restored.cars[0]) and restored.may_discard(restored.cars[1])


def test_a_file_with_flooded_spaces_brings_the_rule_anywhere(tmp_path: Path) -> None:
    text = (TRACKS_DIR / "usa.toml").read_text()
    path = tmp_path / "wet_usa.toml"
    path.write_text(text.replace("grid =", 'flooded = ["40-42"]\n\ngrid ='))
    track = load_track(str(path))
    deck = StackedDeck(hand=HAND, d=41, spot=1, gear=3, engine=6)
    race = Race(RaceSetup(track=str(path), cars=1, laps=1, stacked={0: deck}), track=track)
    assert race.plan_rule(0).shift_cost[2] == 1


# ---------------------------------------------------------------- chicanes and road tokens
def test_random_road_tokens_one_per_corner_a_chicane_one() -> None:
    for key, groups in (("japan", [1, 3, 4, 5]), ("mexico", [1, 3, 4, 5]),
                        ("netherlands", [1, 3, 4, 5]), ("spain", [1, 2, 3, 5, 6, 7, 8, 9, 11])):
        race = Race(RaceSetup(track=key, cars=2, seed=5,
                              modules={"weather": {"weather": "random", "road": True}}))
        assert sorted(road_tokens(race)) == groups, key


def test_a_limit_token_on_a_chicane_changes_both_lines() -> None:
    race = Race(RaceSetup(track="mexico", cars=2, seed=1, laps=1,
                          modules={"weather": {"weather": "sun", "road": {"5": "limit-1"}}}))
    assert [race.corner_limit(i) for i in range(6)] == [7, 7, 6, 4, 1, 1]
    with pytest.raises(ValueError, match="corner 6 is the second line of a chicane"):
        Race(RaceSetup(track="mexico", cars=2, seed=1, laps=1,
                       modules={"weather": {"weather": "sun", "road": {"6": "limit-1"}}}))


# ---------------------------------------------------------------- the double chevron
def test_double_chevron_three_lines_only_within_its_distance() -> None:
    sc = load_scenario(SCENARIOS / "legend_double_chevron.txt")
    race = Race(sc.setup, track=sc.track)
    black = race.cars[1]
    entry = LegendEntry(speed=18, diamond=3)
    assert legend_move(race, black, entry, aggressive=True).target == 17
    assert legend_move(race, black, entry, aggressive=False).target == 13  # one line only
    corners = list(race.track.corners)
    corners[0] = dataclasses.replace(corners[0], double_aggressive=0)
    single = dataclasses.replace(race.track, corners=tuple(corners))
    race = Race(sc.setup, track=single)
    move = legend_move(race, race.cars[1], entry, aggressive=True)
    assert (move.target, move.branch) == (16, "corner_stop")  # two lines, before the third


# ---------------------------------------------------------------- the journal's stamp
def test_stamp_covers_each_features_rules_and_not_the_drawing(tmp_path: Path) -> None:
    assert "flooded.rules" in race_stamp(RaceSetup(track="japan"))["data"]
    assert "tunnels.rules" in race_stamp(RaceSetup(track="spain"))["data"]
    assert not {"flooded.rules", "tunnels.rules"} & set(race_stamp(RaceSetup(track="usa"))["data"])
    source = TRACKS_DIR / "japan.toml"
    path = tmp_path / "japan.toml"
    path.write_text(source.read_text())
    setup = RaceSetup(track=str(path), cars=2)
    saved = race_stamp(setup)
    text = source.read_text()
    moved = re.sub(r'^("1" +)= \[\[\d+', r"\1= [[999", text, count=1, flags=re.M)
    assert moved != text
    path.write_text(moved.replace("x = 1610", "x = 1600"))
    assert stamp_change(saved, setup) is None  # drawn elsewhere: no rule changed
    path.write_text(source.read_text().replace('flooded = ["6-11", ', 'flooded = ["6-10", '))
    assert stamp_change(saved, setup) == "its data changed since it was saved: base.track"


# ---------------------------------------------------------------- every module on
@pytest.mark.parametrize("track", NEW_TRACKS)
@pytest.mark.parametrize("seed", [11, 12])
def test_a_race_with_every_module_ends_and_replays(track: str, seed: int) -> None:
    game = ModuleGame(track=track, drivers=3, legends=3, laps=load_track(track).laps,
                      seed=seed, weather="random", road=True, pro=seed % 3, aggressive=True,
                      random_bots=(False, seed % 2 == 0, False), garage="draft",
                      expansions=True)
    race, before_last = play(game)
    check_finished(game, race, before_last)
    assert race_to_dict(replay(race.setup, race.log)) == race_to_dict(race)


# ---------------------------------------------------------------- at the table
def test_stations_name_the_space_rule_where_the_car_stands() -> None:
    from pitboard.table.weather_view import sector_line

    assert sector_line(on_space("japan", 40, gear=3, engine=6), 0) == \
        "flooded: downshift +1 Heat"
    assert sector_line(on_space("japan", 47, gear=3, engine=6), 0) == ""
    race = Race(RaceSetup(track="spain", cars=2, seed=1, stacked={
        0: StackedDeck(hand=HAND, d=20, spot=1), 1: StackedDeck(hand=HAND, d=1, spot=1)},
        modules={"weather": {"weather": "storm", "road": {"2": "weather"}}}))
    assert sector_line(race, 0) == "sector: slipstream +2; tunnel: no discard"


def test_the_turn_screen_offers_no_discard_in_a_tunnel() -> None:
    from pitboard.table.turn import choices

    sc = load_scenario(SCENARIOS / "tunnel_discard.txt")
    race = Race(sc.setup, track=sc.track)
    for _, decision in sc.decisions[:2]:  # both plans: car 1 (out of the tunnel) resolves
        race.apply(decision)
    assert choices(race, 1).discard is False  # offered, preset to keep the hand
    for _, decision in sc.decisions[2:4]:
        race.apply(decision)
    assert race.current is race.cars[0] and race.cars[0].space == 20
    assert choices(race, 0).discard is None  # in the tunnel: no DISC key
