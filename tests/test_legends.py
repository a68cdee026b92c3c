"""The Legends module: the card data file, Legend cars on the grid, the card flipped each round,
every branch of the movement rule (one scenario each), and what Legends never do.

USA geometry: corner lines after spaces 12 (limit 7), 33 (3), 49 (3), 57 (2); Legends lines
after spaces 2, 27, 43, 52. Great Britain: corners after 37 (limit 5), 43 (4), 48 (3), with
Aggressive-Legends chevrons at distance 1 before corners 2-4.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

from pitboard.bots import HeuristicBot, RandomBot
from pitboard.engine import Race, RaceSetup, race_from_dict, race_to_dict, replay, undo
from pitboard.engine.datafile import DataFileError
from pitboard.engine.events import LegendMoved, Slipstreamed
from pitboard.engine.legends import legend_card, legend_cars, load_legend_cards
from pitboard.engine.legends import movement as movement_rule
from pitboard.scenario import ScenarioError, load_scenario, parse_scenario
from simkit import open_sim

SCENARIOS = Path(__file__).parent / "scenarios"


def run(name: str) -> Race:
    return load_scenario(SCENARIOS / f"{name}.txt").run()


def legend_events(race: Race, car: int) -> list[LegendMoved]:
    return [e for e in race.events if isinstance(e, LegendMoved) and e.car == car]


def place(race: Race, car: int) -> tuple[int, int, int]:
    c = race_to_dict(race)["cars"][car]
    return c["lap"], c["space"], c["spot"]


# ---------------------------------------------------------------- the data file
def test_cards_file_has_every_top_speed_once_per_colour() -> None:
    deck = load_legend_cards()
    assert len(deck.cards) == 10
    assert deck.colours == ("black", "blue", "green", "red", "gray", "yellow")
    for colour in deck.colours:
        speeds = sorted(card.entry(colour).speed for card in deck.cards)
        assert speeds == list(range(10, 20))
        for card in deck.cards:
            entry = card.entry(colour)
            assert entry.diamond == {10: 0, 11: 0, 12: 1, 13: 1, 14: 1, 15: 2, 16: 2, 17: 2,
                                     18: 3, 19: 3}[entry.speed]


@pytest.mark.parametrize(("text", "message"), [
    ('colours = ["red"]\n[[cards]]\nnumber = 1\nred = [12, 4]\n',
     "cards[1].red diamond: must be 0..3, got 4"),
    ('colours = ["red"]\n[[cards]]\nnumber = 1\n', "cards[1].red: missing"),
    ('colours = ["red"]\n[[cards]]\nnumber = 1\nred = [12, 1]\nblue = [3, 1]\n',
     "cards[1].blue: unknown field"),
    ('colours = ["red"]\n[[cards]]\nnumber = 1\nred = "12/1"\n',
     "cards[1].red: must be [top speed, diamond]"),
    ('colours = ["red", "red"]\n[[cards]]\nnumber = 1\nred = [1, 1]\n', "colours: names a colour"),
    ('colours = ["red"]\ncards = 3\n', "cards: needs [[cards]] blocks"),
    ('colours = [\n', "not valid TOML"),
])
def test_broken_cards_file_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_legend_cards(str(path))
    assert message in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- the grid and the deck
def test_legend_cars_take_grid_spots_colours_and_no_cards() -> None:
    race = Race(RaceSetup(track="usa", cars=6, seed=11, laps=1,
                          modules={"legends": {"cars": 5}}))
    assert legend_cars(race) == {1: "black", 2: "blue", 3: "green", 4: "red", 5: "gray"}
    assert sorted(race.grid) == list(range(6))  # the grid is drawn over every car
    spots = {(c.space, c.spot) for c in race.cars}
    assert spots == set(race.track.grid[:6])
    for car in race.cars[1:]:
        assert car.hand == car.draw == car.discard == [] and car.engine == 0
        assert car.name.endswith("Legend")
    assert race.pending().cars == (0,)  # solo: one player against five Legends


def test_one_card_per_round_for_every_legend_and_reshuffle_when_empty() -> None:
    race = Race(RaceSetup(track="usa", cars=3, seed=2, laps=2,
                          modules={"legends": {"cars": 2, "deck": [4, 9]}}))
    bot = HeuristicBot(seed=1)
    while not race.over:
        race.apply(bot.choose(race, race.pending().cars[0]))
    flips = [e for e in race.events if e.kind == "legend_card"]
    assert [e.card for e in flips[:2]] == [4, 9]
    rounds = [e.round for e in flips]
    assert len(rounds) == len(set(rounds))  # at most one card a round
    for e in race.events:
        if e.kind == "legend":  # every Legend that round reads the round's card
            assert e.card == next(f.card for f in flips if f.round == e.round)
    assert len({f.card for f in flips[:10]}) == 10  # the whole deck before a reshuffle
    if len(flips) > 10:
        assert any(e.kind == "legend_reshuffle" for e in race.events)
    assert legend_card(race) in (0, flips[-1].card)


def test_deck_is_seeded_and_replays() -> None:
    setup = RaceSetup(track="france", cars=4, seed=9, laps=1, modules={"legends": {"cars": 3}})
    decks = [Race(setup).hooks.by_key["legends"].to_dict()["deck"] for _ in range(2)]
    assert decks[0] == decks[1] and sorted(decks[0]) == list(range(1, 11))
    other = RaceSetup(track="france", cars=4, seed=10, laps=1, modules={"legends": {"cars": 3}})
    assert Race(other).hooks.by_key["legends"].to_dict()["deck"] != decks[0]


# ---------------------------------------------------------------- movement, one branch each
def test_straight_top_speed_short_of_the_corner() -> None:
    race = run("legend_straight")
    red, blue = legend_events(race, 1)[0], legend_events(race, 2)[0]
    assert (red.branch, red.card, red.speed, red.space) == ("straight", 1, 13, 33)
    assert (blue.branch, blue.card, blue.speed, blue.space) == ("straight", 1, 18, 32)
    assert [e.card for e in race.events if e.kind == "legend_card"] == [1]


def test_brake_diamond_spaces_before_the_corner() -> None:
    race = run("legend_brake")
    e = legend_events(race, 1)[0]
    assert (e.branch, e.corner, e.space) == ("brake", 2, 31)


def test_past_the_legends_line_limit_plus_diamond() -> None:
    race = run("legend_corner")
    e = legend_events(race, 1)[0]
    assert (e.branch, e.speed, e.space) == ("corner", 4, 34)
    assert race.cars[1].engine == 0 and race.cars[1].spinouts == 0
    assert not [x for x in race.events if x.kind == "corner" and x.car == 1]


def test_at_most_one_corner_line_then_stop() -> None:
    race = run("legend_corner_stop")
    e = legend_events(race, 1)[0]
    assert (e.branch, e.space) == ("corner_stop", 48)


def test_aggressive_legends_cross_two_lines_within_the_chevrons() -> None:
    race = run("legend_aggressive")
    e = legend_events(race, 1)[0]
    assert (e.branch, e.space) == ("corner", 50)
    calm = load_scenario(SCENARIOS / "legend_aggressive.txt")
    options = dict(calm.setup.modules["legends"], aggressive=False)
    setup = RaceSetup.from_dict({**calm.setup.to_dict(),
                                 "modules": {"legends": options}})
    race = Race(setup)
    for _, decision in calm.decisions:
        race.apply(decision)
    assert legend_events(race, 1)[0].space == 48


def test_blocked_legend_takes_the_first_free_spot_behind() -> None:
    race = run("legend_blocking")
    e = legend_events(race, 1)[0]
    assert e.branch == "brake" and place(race, 1) == (1, 30, 2)
    move = next(x for x in race.events if x.kind == "move" and x.car == 1)
    assert move.blocked == 1


def test_final_lap_runs_to_the_finish() -> None:
    race = run("legend_final_lap")
    e = legend_events(race, 1)[0]
    assert (e.branch, e.speed) == ("finish", 19)
    assert race.cars[1].finished and race.hall_of_fame == [1]


def test_earlier_lap_brakes_for_next_laps_first_corner() -> None:
    race = run("legend_lap_brake")
    e = legend_events(race, 1)[0]
    assert (e.branch, e.corner) == ("brake", 1)
    assert place(race, 1) == (2, 9, 1)


def test_approach_speed_is_one_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Board Game Arena moves a Legend before the line at 20: one constant switches it."""
    monkeypatch.setattr(movement_rule, "APPROACH_SPEED", 20)
    race = run("legend_straight")
    assert legend_events(race, 2)[0].branch == "brake"  # 14 + 20 would cross corner 2


def test_pro_legends_add_to_top_speed() -> None:
    sc = load_scenario(SCENARIOS / "legend_straight.txt")
    modules = {"legends": dict(sc.setup.modules["legends"], pro=2)}
    race = Race(RaceSetup.from_dict({**sc.setup.to_dict(), "modules": modules}))
    for _, decision in sc.decisions:
        race.apply(decision)
    blue = legend_events(race, 2)[0]
    assert (blue.branch, blue.space) == ("brake", 30)  # 18 + 2 from 14 crosses: brake
    red = legend_events(race, 1)[0]
    assert red.branch == "brake"  # 13 + 2 from 20 crosses corner 2


# ---------------------------------------------------------------- what Legends never do
def test_legends_count_for_adrenaline_but_never_react() -> None:
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, grid=(1, 0),
                          modules={"legends": {"cars": 1}}))
    # the Legend has pole; the player is last and gets Adrenaline
    assert race.cars[0].adrenaline and not race.cars[1].adrenaline
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, grid=(0, 1),
                          modules={"legends": {"cars": 1}}))
    # the Legend behind is last: it takes the Adrenaline (and does nothing with it)
    assert race.cars[1].adrenaline and not race.cars[0].adrenaline
    bot = RandomBot(seed=3)
    while not race.over:
        p = race.pending()
        assert 1 not in p.cars  # a Legend is never asked anything
        race.apply(bot.choose(race, p.cars[0]))
    legend = race.cars[1]
    assert legend.spinouts == 0 and not legend.slipstreamed and legend.engine == 0
    assert not [e for e in race.events if getattr(e, "car", None) == 1 and e.kind in
                ("corner", "heat", "cooldown", "boost", "slipstream", "adrenaline", "spin_out")]


def test_players_slipstream_off_a_legend() -> None:
    race = run("legend_slipstream")
    assert race.cars[1].space == 31
    assert place(race, 0) == (1, 32, 2)
    assert [e for e in race.events if e.kind == "slipstream"] == [
        Slipstreamed(car=0, round=1)]


# ---------------------------------------------------------------- options and bad input
@pytest.mark.parametrize(("options", "message"), [
    ({"cars": 2}, "2 Legend cars leave no driven car among 2 cars"),
    ({"colours": ["red", "pink"]}, "unknown colour 'pink'"),
    ({"colours": ["red", "red"]}, "two Legend cars have the same colour"),
    ({"cars": 1, "deck": [11]}, "no Legend card 11"),
    ({"cars": 1, "deck": [1, 1]}, "deck lists a card twice"),
    ({"cars": 1, "pro": 7}, "pro must be 0..6"),
    ({"cars": 1, "aggressive": "yes"}, "aggressive must be true or false"),
    ({"cars": 1, "speed": 3}, "unknown option 'speed'"),
    ({}, "give cars (how many) or colours"),
    ({"cars": 7}, "at most 6 Legend cars"),
    ({"cars": 1, "colours": ["red", "blue"]}, "cars is 1 but 2 colours"),
    ({"colours": {"5": "red"}}, "no car 5"),
])
def test_bad_options_are_one_line(options: dict[str, Any], message: str) -> None:
    cars = 2 if options.get("cars") != 7 else 6
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Race(RaceSetup(track="usa", cars=cars, seed=1, modules={"legends": options}))


@pytest.mark.parametrize(("text", "line", "message"), [
    ("track usa\ncars 2\ncar 1 legend pink\n", 3, "expected 'car 1 legend black|blue"),
    ("track usa\ncars 3\ncar 1 legend red\ncar 2 legend red\n", 4, "already has the red"),
    ("track usa\nlegends deck 0\n", 2, "card numbers 1..10"),
    ("track usa\nlegends deck 3 3\n", 2, "lists a card twice"),
    ("track usa\nlegends pro 9\n", 2, "'legends pro N' with N 0..6"),
    ("track usa\nlegends aggressive maybe\n", 2, "'legends aggressive on|off'"),
    ("track usa\nlegends fast\n", 2, "expected 'legends deck"),
    ("track usa\ncars 2\ncar 5 legend red\n", 3, "car 5, but cars are 0..1"),
])
def test_scenario_legend_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "bad.txt").run()
    assert str(err.value).startswith(f"bad.txt:{line}: ") and message in str(err.value)


def test_all_legend_scenario_is_refused_in_one_line() -> None:
    with pytest.raises(ScenarioError, match="leave no driven car"):
        parse_scenario("track usa\ncars 1\ncar 0 legend red\n", "solo.txt").run()


# ---------------------------------------------------------------- replay, undo, snapshots
def test_replay_undo_and_snapshot_with_legends() -> None:
    setup = RaceSetup(track="great_britain", cars=5, seed=21, laps=2,
                      modules={"legends": {"cars": 3, "pro": 1, "aggressive": True}})
    race = Race(setup)
    bot = RandomBot(seed=5)
    for _ in range(60):
        race.apply(bot.choose(race, race.pending().cars[0]))
    state = race_to_dict(race)
    assert state["modules"]["legends"]["colour_of"] == {"2": "black", "3": "blue", "4": "green"}
    assert race_to_dict(replay(setup, race.log)) == state
    restored = race_from_dict(race_to_dict(race, events=True))
    before = undo(race)
    last = race.log[-1]
    before.apply(last)
    assert race_to_dict(before) == state
    while not race.over:
        d = bot.choose(race, race.pending().cars[0])
        race.apply(d)
        restored.apply(d)
    assert race_to_dict(restored) == race_to_dict(race)


def test_rounds_without_a_planning_car_do_not_recurse() -> None:
    """The player finishes first; the Legends race on alone for many rounds."""
    race = Race(RaceSetup(track="usa", cars=2, seed=3, laps=9, grid=(0, 1),
                          modules={"legends": {"cars": 1}}))
    legend = race.cars[1]
    player = race.cars[0]
    player.d = race.finish_d - 1  # one space from the line of the last lap
    player.space = race.space_of(player.d)
    legend.d = 1
    legend.space = 1
    race.index_cars()  # cars placed by hand: the record of held spots follows
    bot = HeuristicBot(seed=1)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 120)  # a few rounds' worth of frames
    try:
        while not race.over:
            race.apply(bot.choose(race, race.pending().cars[0]))
    finally:
        sys.setrecursionlimit(limit)
    assert race.hall_of_fame == [0, 1] and race.round > 30


def test_doc_shows_the_legend_directives_and_example() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    doc = doc.replace("\\|", "|")
    for word in ("car N legend COLOUR", "legends deck N N", "legends pro N",
                 "legends aggressive on|off", "weather NAME", "road CORNER TOKEN", "road random",
                 "slipstream CAR yes SPACES"):
        assert f"`{word}" in doc, word
    marker = "<!-- example: tests/scenarios/legend_brake.txt -->\n```text\n"
    block = doc.split(marker, 1)[1].split("```", 1)[0]
    assert block == (SCENARIOS / "legend_brake.txt").read_text(encoding="utf-8")


def test_desktop_simulation_races_with_legends_and_weather() -> None:
    """``pitboard sim`` runs the table path (journal included) with Legend cars and weather."""
    import io

    from pitboard.sim.cli import main as sim_main

    out, err = io.StringIO(), io.StringIO()
    code = sim_main(["--autoplay", "--text", "--seed", "3", "--laps", "1", "--stations", "1",
                     "--cars", "2", "--legends", "3", "--weather", "rain", "--road-conditions"],
                    stdout=out, stderr=err, tty=False)
    text = out.getvalue()
    assert code == 0, err.getvalue()
    assert "Race over" in text and text.count("Legend") >= 3
    code = sim_main(["--cars", "4", "--legends", "3"], stdout=out, stderr=err, tty=False)
    assert code == 2 and "4 cars + 3 Legends = 7 cars" in err.getvalue()


def test_setup_checklist_facts() -> None:
    """What the table's set-up checklist needs: Legend grid places, weather, road tokens."""
    from pitboard.engine.legends import legend_grid
    from pitboard.engine.weather import race_weather, road_tokens

    race = Race(RaceSetup(track="usa", cars=4, seed=5, laps=1, grid=(2, 0, 3, 1),
                          modules={"legends": {"colours": ["yellow", "green"]},
                                   "weather": {"weather": "snow", "road": True}}))
    assert legend_grid(race) == [
        {"car": 2, "colour": "yellow", "grid": 1, "space": 69, "spot": 1},
        {"car": 3, "colour": "green", "grid": 3, "space": 68, "spot": 1}]
    assert race_weather(race) == "snow" and sorted(road_tokens(race)) == [1, 2, 3, 4]


def test_journalled_race_with_legends_and_weather_resumes(tmp_path: Path) -> None:
    """A table race with Legends and weather survives a restart: same race, same modules."""

    modules = {"legends": {"cars": 2}, "weather": {"weather": "storm", "road": True}}
    first = open_sim(1, cars=2, modules=modules, seed=6, journal=tmp_path)
    while (race := first.table.race) is None or race.round < 3:
        assert first.autoplay_step() is not None
    log, state = list(race.log), race_to_dict(race)
    first.close()
    again = open_sim(1, seed=99, journal=tmp_path)  # built without modules: the journal has them
    resumed = again.table.race
    assert resumed is not None and list(resumed.log) == log
    assert race_to_dict(resumed) == state
    assert again.table.modules == modules and again.table.cars == 2
    while again.autoplay_step() is not None:
        pass
    assert resumed.over and sorted(resumed.hall_of_fame) == [0, 1, 2, 3]
    again.close()


def test_journal_stamp_covers_the_legend_and_weather_data() -> None:
    from pitboard.engine.stamp import race_stamp

    stamp = race_stamp(RaceSetup(track="usa", cars=3, modules={
        "legends": {"cars": 1}, "weather": {"weather": "fog"}}))
    assert {"legends.cards", "legends.rules", "weather.tokens", "weather.rules"} <= \
        set(stamp["data"])


def test_legend_cars_do_not_draft_upgrades() -> None:
    """With the Garage too, only the cars that plan draft; a Legend car holds no cards."""
    from pitboard.garage_bots import make_garage_bot

    race = Race(RaceSetup(track="usa", cars=3, seed=1, laps=1, modules={
        "legends": {"cars": 1}, "garage": {"choose": "draft"}}))
    bot = make_garage_bot("heuristic", seed=1)
    asked = set()
    while race.pending().kind != "plan":
        car = race.pending().cars[0]
        asked.add(car)
        race.apply(bot.choose(race, car))
    assert asked == {0, 1}
    legend = race.cars[2]
    assert legend.hand == legend.draw == [] and legend.engine == 0
