"""The Weather & road conditions module: the token data file, every weather token's set-up and
sector effect, every road token (one scenario each), where the car must be, random or fixed
tokens, the forecast and the station's sector query.

USA: corner lines after spaces 12 (limit 7), 33 (3), 49 (3), 57 (2). A sector token on corner 2
covers spaces 34-49.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pitboard.bots import HeuristicBot, RandomBot
from pitboard.engine import (
    IllegalDecision,
    Race,
    RaceSetup,
    Slipstream,
    race_from_dict,
    race_to_dict,
    replay,
    undo,
)
from pitboard.engine.datafile import DataFileError
from pitboard.engine.events import WeatherDrawn
from pitboard.engine.forecast import forecast
from pitboard.engine.weather import (
    load_tokens,
    race_weather,
    road_tokens,
    sector_effect,
    token_corners,
)
from pitboard.scenario import ScenarioError, load_scenario, parse_scenario
from pitboard.trackfile import load_track

SCENARIOS = Path(__file__).parent / "scenarios"


def run(name: str, upto: int | None = None) -> Race:
    sc = load_scenario(SCENARIOS / f"{name}.txt")
    race = Race(sc.setup, track=sc.track)
    for _, decision in sc.decisions[:upto]:
        race.apply(decision)
    return race


def options(race: Race) -> set[str]:
    return {str(o).split(" ", 2)[2] for o in race.pending().options}


def events(race: Race, kind: str, car: int) -> list[Any]:
    return [e for e in race.events if e.kind == kind and getattr(e, "car", None) == car]


# ---------------------------------------------------------------- the data file
def test_tokens_file_has_six_weathers_and_twelve_road_tokens() -> None:
    tokens = load_tokens()
    assert tokens.weather_keys == ("cloud", "fog", "storm", "snow", "rain", "sun")
    assert Counter(tokens.road_bag()) == {k: 2 for k in tokens.road_keys}
    assert len(tokens.road_bag()) == 12


@pytest.mark.parametrize(("text", "message"), [
    ('[[weather]]\nkey = "x"\nname = "X"\nheat = 20\n[[road]]\nkey = "a"\nname = "A"\n'
     'count = 1\ntarget = "corner"\n', "weather[1].heat: must be -9..9, got 20"),
    ('[[weather]]\nkey = "x"\nname = "X"\n[[road]]\nkey = "a"\nname = "A"\ncount = 1\n'
     'target = "pit"\n', "road[1].target: must be \"corner\" or \"sector\""),
    ('[[weather]]\nkey = "x"\nname = "X"\n[[road]]\nkey = "a"\nname = "A"\ncount = 1\n'
     'target = "corner"\nfree_boost = true\n', "road[1].free_boost: is a sector effect"),
    ('[[weather]]\nkey = "x"\nname = "X"\n[[road]]\nkey = "a"\nname = "A"\ncount = 1\n'
     'target = "sector"\n', "needs weather = true or one effect"),
    ('[[weather]]\nkey = "x"\nname = "X"\nwind = 1\n[[road]]\nkey = "a"\nname = "A"\n'
     'count = 1\ntarget = "corner"\n', "weather[1].wind: unknown field"),
    ('[[weather]]\nkey = "x"\nname = "X"\n[[weather]]\nkey = "x"\nname = "Y"\n[[road]]\n'
     'key = "a"\nname = "A"\ncount = 1\ntarget = "corner"\n', "key 'x' is used twice"),
])
def test_broken_tokens_file_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tokens.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_tokens(str(path))
    assert message in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- weather: set-up and sector
def test_cloud_one_stress_fewer_and_no_cooldown_in_its_sectors() -> None:
    race = run("weather_cloud", 2)
    assert race.cars[1].draw.count("S") == 2
    assert options(race) == {"boost", "done"}  # gear 1 with Heat in hand, yet no Cooldown
    assert sector_effect(race, 0).no_cooldown and not sector_effect(race, 1).no_cooldown


def test_fog_one_more_heat_and_no_slipstream_start_in_its_sectors() -> None:
    race = run("weather_fog")
    assert all(c.engine == 7 for c in race.cars)  # every engine, stacked hands or not
    assert not events(race, "slipstream", 0)  # car 0 on 37 behind car 2: not asked
    assert events(race, "slipstream", 1)  # car 1 slipstreams INTO the fog sector
    assert race.cars[1].space == 34


@pytest.mark.parametrize("weather", ["storm", "sun"])
def test_storm_and_sun_slipstream_two_further(weather: str) -> None:
    race = run(f"weather_{weather}", 6)
    assert race.pending().kind == "slipstream"
    assert {str(o) for o in race.pending().options} == {
        "slipstream 0 yes", "slipstream 0 yes 4", "slipstream 0 no"}
    race = run(f"weather_{weather}")
    assert race.cars[0].space == 41
    car1 = race.cars[1]
    if weather == "storm":
        assert car1.draw.count("S") == 4 and car1.engine == 6
    else:
        assert car1.engine == 3 and car1.discard.count("H") == 3


@pytest.mark.parametrize("weather", ["snow", "rain"])
def test_snow_and_rain_one_more_cooldown(weather: str) -> None:
    race = run(f"weather_{weather}", 2)
    assert "cooldown 2" in options(race)  # gear 2 gives 1, the sector 1 more
    car1 = race.cars[1]
    if weather == "snow":
        assert car1.engine == 5 and car1.draw.count("H") == 1
    else:  # 3 of the engine's Heat shuffled into the deck (the deck's own Heat card too)
        assert car1.engine == 3 and car1.draw.count("H") == 4
    race = run(f"weather_{weather}")
    assert race.cars[0].engine == 5


def test_weather_leaves_legend_cars_alone() -> None:
    race = Race(RaceSetup(track="usa", cars=3, seed=1, laps=1,
                          modules={"weather": {"weather": "sun"}, "legends": {"cars": 1}}))
    assert race.cars[2].engine == 0 and race.cars[2].discard == []
    assert race.cars[0].engine == 3


# ---------------------------------------------------------------- road tokens
@pytest.mark.parametrize(("name", "limit", "heat"), [
    ("road_overheat", 3, 3), ("road_limit_down", 2, 3), ("road_limit_up", 4, 1)])
def test_corner_tokens(name: str, limit: int, heat: int) -> None:
    race = run(name)
    corner = events(race, "corner", 0)[0]
    assert (corner.corner, corner.limit, corner.heat) == (2, limit, heat)
    assert race.cars[0].engine == 6 - heat


def test_free_boost_where_the_car_boosts() -> None:
    race = run("road_free_boost", 2)
    assert "boost" in options(race)  # empty engine, but in the free-boost sector
    race = run("road_free_boost")
    assert race.cars[0].engine == 0 and race.cars[0].space == 40
    assert not [e for e in race.events if e.kind == "heat" and e.car == 0]
    assert not events(race, "boost", 1)


def test_slipstream_plus_one_where_the_car_starts() -> None:
    race = run("road_slipstream", 7)
    assert {str(o) for o in race.pending().options} == {
        "slipstream 0 yes", "slipstream 0 yes 3", "slipstream 0 no"}
    race = run("road_slipstream", 12)  # car 1 on 32, outside the sector: the usual 2 only
    assert {str(o) for o in race.pending().options} == {"slipstream 1 yes", "slipstream 1 no"}
    race = run("road_slipstream")
    assert race.cars[0].space == 40 and race.cars[1].space == 34


def test_heuristic_bot_takes_the_longest_slipstream_it_can_pay() -> None:
    race = run("road_slipstream", 7)  # car 0 on 37: 2 or 3 spaces, no corner before 49
    assert str(HeuristicBot().choose(race, 0)) == "slipstream 0 yes 3"
    car = race.cars[0]  # from 47 at speed 6 with 1 Heat (the bot's reserve): 3 more would
    car.start_d, car.speed, car.engine = 40, 6, 1  # cross the line after 49 (limit 3)
    car.d = car.space = 47
    assert str(HeuristicBot().choose(race, 0)) == "slipstream 0 yes"


def test_longer_slipstream_never_crosses_the_final_line() -> None:
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
                          modules={"weather": {"weather": "storm", "road": {"4": "weather"}}}))
    car = race.cars[0]
    car.d, car.space = 66, 66
    assert race.slipstream_reaches(car) == (2,)  # 66 + 4 would cross the line after 69
    car.d, car.space = 60, 60
    assert race.slipstream_reaches(car) == (2, 4)


def test_illegal_longer_slipstream_is_refused() -> None:
    sc = load_scenario(SCENARIOS / "road_slipstream.txt")
    race = Race(sc.setup, track=sc.track)
    for _, decision in sc.decisions[:7]:
        race.apply(decision)
    with pytest.raises(IllegalDecision, match=r"cannot slipstream 4 spaces \(can: 2, 3\)"):
        race.apply(Slipstream(0, True, 4))


def test_chicane_lines_share_one_token() -> None:
    usa = load_track("usa")
    corners = list(usa.corners)
    corners[2] = replace(corners[2], chicane=True)  # pretend 33/49 form a chicane
    track = replace(usa, corners=tuple(corners))
    assert token_corners(track) == [0, 1, 3]
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
                          modules={"weather": {"weather": "fog", "road": {"2": "limit-1"}}}),
                track=track)
    assert [race.corner_limit(i) for i in range(4)] == [7, 2, 2, 2]
    # the changed corners' sectors, not the copied track's (Track.token_sectors is worked out
    # again): between the chicane's lines the sector before it goes on, after it the chicane's
    between = range(usa.corners[1].at + 1, usa.corners[2].at + 1)
    assert {usa.token_sector_of(space) for space in between} == {1}
    assert {track.token_sector_of(space) for space in between} == {0}
    assert (usa.token_sector_of(50), track.token_sector_of(50)) == (2, 1)
    with pytest.raises(ValueError, match="corner 3 is the second line of a chicane"):
        Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
                       modules={"weather": {"weather": "fog", "road": {"3": "limit-1"}}}),
             track=track)


# ---------------------------------------------------------------- random or fixed tokens
def test_random_tokens_follow_the_seed_one_per_corner() -> None:
    def drawn(seed: int) -> tuple[str | None, dict[int, str]]:
        race = Race(RaceSetup(track="france", cars=2, seed=seed, laps=1,
                              modules={"weather": {"road": True}}))
        return race_weather(race), road_tokens(race)

    assert drawn(4) == drawn(4)
    weather, road = drawn(4)
    assert weather in load_tokens().weather_keys
    assert sorted(road) == [1, 2, 3, 4, 5]
    assert all(Counter(road.values())[k] <= 2 for k in road.values())
    seen = {drawn(s)[0] for s in range(40)}
    assert seen == set(load_tokens().weather_keys)


def test_fixed_tokens_are_exactly_the_callers() -> None:
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
                          modules={"weather": {"weather": "rain", "road": {"1": "overheat"}}}))
    assert race_weather(race) == "rain" and road_tokens(race) == {1: "overheat"}
    first = [e for e in race.events if e.kind == "weather"]
    assert first == [WeatherDrawn(weather="rain", road=((1, "overheat"),), round=0)]
    assert first[0].to_dict() == {"weather": "rain", "road": {"1": "overheat"},
                                  "type": "weather", "round": 0}


@pytest.mark.parametrize(("modules", "message"), [
    ({"weather": "hail"}, "unknown weather 'hail' (known: cloud, fog"),
    ({"road": {"1": "ice"}}, "unknown road token 'ice'"),
    ({"road": {"9": "overheat"}}, "road token for corner 9, but track usa has corners 1..4"),
    ({"road": {"x": "overheat"}}, "road corner must be a number"),
    ({"road": "lots"}, "road must be true, false or a table"),
    ({"wind": 1}, "unknown option 'wind'"),
])
def test_bad_options_are_one_line(modules: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as err:
        Race(RaceSetup(track="usa", cars=2, seed=1, modules={"weather": modules}))
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(("text", "line", "message"), [
    ("track usa\nweather hail\n", 2, "expected 'weather cloud|fog|storm|snow|rain|sun|random'"),
    ("track usa\nroad 9 overheat\n", 2, "track usa has corners 1..4, not 9"),
    ("track usa\nroad 1 ice\n", 2, "expected 'road CORNER overheat|limit-1"),
    ("road 1 overheat\ntrack usa\n", 1, "'track' must come before 'road'"),
    ("track usa\nroad 1 overheat\nroad 1 weather\n", 3, "corner 1 has a road token already"),
    ("track usa\nroad random\nroad 1 weather\n", 3, "'road random' cannot mix"),
    ("track usa\nweather fog\nweather sun\n", 3, "'weather' given twice"),
])
def test_scenario_weather_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "bad.txt")
    assert str(err.value).startswith(f"bad.txt:{line}: ") and message in str(err.value)


# ---------------------------------------------------------------- forecast and station query
def test_forecast_uses_adjusted_limits_and_overheat() -> None:
    race = run("road_overheat", 0)
    fc = forecast(race, 0, 2, ("2", "3"))
    (corner,) = fc.corners()
    assert (corner.corner, corner.limit, corner.heat) == (2, 3, 3)
    race = run("road_limit_up", 0)
    (corner,) = forecast(race, 0, 2, ("2", "3")).corners()
    assert (corner.limit, corner.heat) == (4, 1)


def test_sector_effect_query_for_the_station() -> None:
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, modules={"weather": {
        "weather": "storm", "road": {"1": "free-boost", "2": "weather", "3": "slipstream+1"}}}))
    car = race.cars[0]
    for space, words in ((5, []), (13, ["free boost"]), (34, ["slipstream +2"]),
                         (49, ["slipstream +2"]), (50, ["slipstream +1"]), (58, [])):
        car.d, car.space = space, space
        assert sector_effect(race, 0).words() == words, space
    base = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
    assert sector_effect(base, 0).words() == []


# ---------------------------------------------------------------- replay, undo, snapshots
def test_replay_undo_and_snapshot_with_weather() -> None:
    setup = RaceSetup(track="italy", cars=4, seed=8, laps=1,
                      modules={"weather": {"road": True}, "legends": {"cars": 2}})
    race = Race(setup)
    bot = RandomBot(seed=2)
    for _ in range(40):
        race.apply(bot.choose(race, race.pending().cars[0]))
    state = race_to_dict(race)
    assert set(state["modules"]) == {"legends", "weather"}
    assert race_to_dict(replay(setup, race.log)) == state
    restored = race_from_dict(race_to_dict(race, events=True))
    assert [restored.corner_limit(i) for i in range(3)] == [race.corner_limit(i) for i in range(3)]
    before = undo(race)
    before.apply(race.log[-1])
    assert race_to_dict(before) == state
    while not race.over:
        d = bot.choose(race, race.pending().cars[0])
        race.apply(d)
        restored.apply(d)
    assert race_to_dict(restored) == race_to_dict(race)


# ---------------------------------------------------------------- command line
def test_catalog_names_the_tokens_files_weathers() -> None:
    from pitboard.catalog import WEATHER_TOKENS
    assert load_tokens().weather_keys == WEATHER_TOKENS


def test_simulate_with_legends_weather_and_road_conditions(capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    from pitboard.cli import main
    assert main(["simulate", "--legends", "4", "--cars", "2", "--weather", "random",
                 "--road-conditions", "--races", "20", "--json"]) == 0
    import json
    result = json.loads(capsys.readouterr().out)
    assert (result["cars"], result["legends"], result["races"]) == (2, 4, 20)
    assert result["modules"] == "4 Legends, weather random, road conditions"
    assert sum(result["wins_by_car"].values()) == 20


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--cars", "3", "--legends", "4"], "3 cars + 4 Legends = 7 cars"),
    (["simulate", "--legend-pro", "2"], "need --legends N"),
    (["demo", "--cars", "1", "--legends", "5", "--track", "usa", "--aggressive-legends",
      "--legend-pro", "7"], "legend-pro must be 0..6, got 7"),
    (["simulate", "--weather", "hail"], "invalid choice: 'hail'"),
    (["simulate", "--road-conditions", "1:ice"], "expected CORNER=TOKEN,..."),
    (["simulate", "--road-conditions", "1=ice"], "unknown road token 'ice'"),
    (["demo", "--road-conditions", "9=overheat"], "track usa has corners 1..4"),
])
def test_bad_module_options_exit_2_in_one_line(argv: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from pitboard.cli import main
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_demo_narrates_weather_and_legends(capsys: pytest.CaptureFixture[str]) -> None:
    from pitboard.cli import main
    assert main(["demo", "--cars", "1", "--legends", "2", "--weather", "rain",
                 "--road-conditions", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 Legends, weather rain, road conditions" in out.splitlines()[0]
    assert "Weather: rain; road conditions: corner 1 " in out
    assert "Legend card" in out and "Race over" in out


def test_corner_bill_for_a_car_counts_overheat() -> None:
    """Bots and the turn screen's presets ask corner_bill with the car: overheat counts."""
    race = run("road_overheat", 0)
    car = race.cars[0]
    line = race.corners_between(0, race.finish_d)[1][0]  # corner 2
    assert race.corner_bill(line - 1, line + 2, 5) == 2  # the printed rule alone
    assert race.corner_bill(line - 1, line + 2, 5, car) == 3  # +1 overheat


def test_fixed_road_tokens_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from pitboard.cli import main
    assert main(["demo", "--cars", "2", "--weather", "fog", "--road-conditions",
                 "1=overheat,3=weather"]) == 0
    out = capsys.readouterr().out
    assert "Weather: fog; road conditions: corner 1 overheat, corner 3 weather" in out
