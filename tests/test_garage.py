"""The Garage module: the card file and its errors, the draft's decisions, the symbols' text and
JSON forms, the forecast with upgrades, the command line. Each symbol's rule is a scenario in
tests/scenarios/garage_*.txt (run with its ``expect`` lines by test_scenario_files.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from pitboard.cli import EXIT_BAD_INPUT, main
from pitboard.engine import IllegalDecision, Race, RaceSetup, StackedDeck
from pitboard.engine.decisions import (
    Plan,
    React,
    decision_from_dict,
    decision_to_dict,
    parse_decision,
)
from pitboard.engine.forecast import forecast
from pitboard.engine.garage import UPGRADES, DraftPick, by_type, load_upgrades, pool
from pitboard.engine.garage.data import UpgradeFileError, parse_upgrades
from pitboard.engine.garage.symbols import TurnState

SCENARIOS = Path(__file__).parent / "scenarios"
#: the reference's table of the 60 upgrade types (modules.md section 2), kept in the repository
REFERENCE = Path(__file__).parent / "golden" / "upgrade_reference.txt"


def reference_rows() -> list[list[str]]:
    """[type, name, tier, speed, symbols, agreed] per row of the reference table."""
    return [[c.strip() for c in line.split("|")] for line in REFERENCE.read_text().splitlines()
            if line and not line.startswith("#")]


# ---------------------------------------------------------------- the card file
def test_sixty_types_with_the_reference_numbers() -> None:
    cards = [u for u in UPGRADES.values() if u.tier != "sponsor"]
    assert [u.type for u in cards] == list(range(1, 61))
    assert sum(u.tier == "basic" for u in cards) == 17
    assert [u.type for u in cards if u.expansion == "heavy_rain"] == list(range(49, 55))
    assert [u.type for u in cards if u.expansion == "tunnel_vision"] == list(range(55, 61))
    # rows checked by hand against modules.md section 2
    assert by_type(7).speeds == (1, 2, 3, 4) and by_type(7).symbols == (("heat", 1),)
    assert by_type(46).symbols == (("heat", 2), ("adjust", 3))
    assert by_type(36).symbols == (("adjust", -1), ("cooldown", 3))
    assert by_type(54).symbols == (("boost", 1), ("supercool", 1), ("refresh", 1),
                                   ("adjust", -1))
    assert by_type(17).heat_card and by_type(48).heat_card


def test_disputed_rows_are_the_crossed_rows_of_the_reference() -> None:
    disputed = sorted(u.type for u in UPGRADES.values() if u.disputed)
    assert disputed == [1, 7, 11, 13, 23, 24, 25, 26, 28, 34, 37, 38, 44, 45, 47]
    assert disputed == [int(row[0]) for row in reference_rows() if row[5] == "no"]


#: modules.md's symbol words -> the file's
_MD_SYMBOLS = {"boost": "boost", "heat": "heat", "scrap": "scrap", "adjust": "adjust",
               "cooldown": "cooldown", "reduce": "reduce", "slipstream": "slipstream",
               "refresh": "refresh", "salvage": "salvage", "direct play": "direct",
               "accelerate": "accelerate", "super-cool": "supercool", "draft": "draft"}


def test_every_row_is_the_reference_row() -> None:
    """Speeds, symbols in printed order and the disputed mark of all 60 types, against the
    reference's table (tests/golden/upgrade_reference.txt; the reference wins where sources
    disagree)."""
    rows = reference_rows()
    assert [int(r[0]) for r in rows] == list(range(1, 61))
    for number, _, _, speed, symbols, agreed in rows:
        card = by_type(int(number))
        assert bool(card.disputed) == (agreed == "no"), number
        if "plain Heat" in symbols:
            assert card.heat_card, number
            continue
        assert card.speeds == tuple(int(s) for s in speed.split()[0].split("/")), number
        expected = []
        for word in ([] if symbols == "–" else symbols.split(", ")):
            name, _, n = word.rpartition(" ")
            if not n.lstrip("+−").isdigit():  # a bare symbol (refresh, direct play)
                name, n = word, "1"
            expected.append((_MD_SYMBOLS[name], int(n.replace("−", "-"))))
        assert list(card.symbols) == expected, number


def test_pool_two_copies_of_each_type() -> None:
    assert len(pool("basic", False)) == 34
    assert len(pool("advanced", False)) == 62
    assert len(pool("all", True)) == 120
    assert pool("all", False).count("U7") == 2


BAD_FILES = [
    ("type", "[[upgrade]]\ntype = 61\nfamily = 'X'\ntier = 'basic'\nspeed = 1\n",
     "upgrade #1: field type"),
    ("tier", "[[upgrade]]\ntype = 3\nfamily = 'X'\ntier = 'gold'\nspeed = 1\n",
     "card U3: field tier"),
    ("speed", "[[upgrade]]\ntype = 3\nfamily = 'X'\ntier = 'basic'\nspeed = [3, 1]\n",
     "card U3: field speed"),
    ("symbol", "[[upgrade]]\ntype = 3\nfamily = 'X'\ntier = 'basic'\nspeed = 1\n"
               "symbols = ['nitro 2']\n", "card U3: field symbols: unknown symbol 'nitro 2'"),
    ("mandatory", "[[upgrade]]\ntype = 3\nfamily = 'X'\ntier = 'basic'\nspeed = 1\n"
                  "symbols = ['heat 1']\n", "card U3: field symbols: 'heat 1': heat is mandatory"),
    ("unknown field", "[[upgrade]]\ntype = 3\nfamily = 'X'\ntier = 'basic'\nspeed = 1\n"
                      "colour = 'red'\n", "card U3: field colour: unknown field"),
    ("toml", "[[upgrade]\n", "not valid TOML"),
]


@pytest.mark.parametrize(("text", "message"), [(t, m) for _, t, m in BAD_FILES],
                         ids=[i for i, _, _ in BAD_FILES])
def test_bad_card_file_is_one_line(text: str, message: str) -> None:
    with pytest.raises(UpgradeFileError) as err:
        parse_upgrades(text, "my.toml")
    assert message in str(err.value) and str(err.value).startswith("my.toml")
    assert "\n" not in str(err.value)


def test_cli_lists_cards_and_refuses_a_bad_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["upgrades"]) == 0
    out = capsys.readouterr().out
    assert "U46" in out and "Wings 6" in out and "DISPUTED" in out
    assert "67 card types; 15 rows" in out
    bad = tmp_path / "cards.toml"
    bad.write_text("[[upgrade]]\ntype = 3\nfamily = 'X'\ntier = 'basic'\nspeed = 'fast'\n")
    assert main(["upgrades", "--file", str(bad)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "card U3: field speed" in err and err.count("\n") == 1
    with pytest.raises(UpgradeFileError, match=r"missing\.toml: cannot read"):
        load_upgrades(tmp_path / "missing.toml")


# ---------------------------------------------------------------- decisions
@pytest.mark.parametrize("text", [
    "react 0 speed U8 3", "react 1 salvage 4", "react 2 direct U27", "react 0 reduce 2",
    "react 0 accelerate", "react 0 refresh U34", "react 0 draft 1",
    "react 0 supercool 1", "react 0 cooldown 2", "draft 1 U7", "drop 0 U44",
])
def test_decision_text_and_json_round_trip(text: str) -> None:
    d = parse_decision(text)
    assert str(d) == text
    assert decision_from_dict(decision_to_dict(d)) == d


@pytest.mark.parametrize(("text", "message"), [
    ("draft 0 U99", "unknown upgrade 'U99'"),
    ("react 0 speed U8", "expected 'react CAR speed CARD N'"),
    ("react 0 salvage X9", "unknown card 'X9'"),
])
def test_bad_decision_text_is_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_decision(text)


def test_a_pick_not_in_the_market_is_refused() -> None:
    race = Race(RaceSetup(cars=2, seed=1, grid=(0, 1), modules={"garage": {
        "choose": "draft", "market": [f"U{i}" for i in range(1, 16)]}}))
    with pytest.raises(IllegalDecision, match=r"car 1: U9 is not in the market \(U1 U2"):
        race.apply(DraftPick(1, "U9"))
    with pytest.raises(IllegalDecision, match="waiting for a draft pick from car 1"):
        race.apply(DraftPick(0, "U1"))
    assert race.log == []


@pytest.mark.parametrize(("options", "message"), [
    ({"choose": "auction"}, "garage: choose must be"),
    ({"pool": "gold"}, "garage: pool must be"),
    ({"upgrades": {"0": ["U7", "U99"]}}, "unknown upgrade 'U99'"),
    ({"upgrades": {"5": ["U7"]}}, "upgrades for car 5"),
    ({"market": ["U1"]}, "1 cards cannot fill the draft"),
    ({"colour": "red"}, "unknown option 'colour'"),
])
def test_bad_options_are_one_line(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Race(RaceSetup(cars=2, modules={"garage": options}))


def test_scenario_with_an_unknown_upgrade_exits_2(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("track usa\ncars 1\ncar 0 upgrades U7 U8 U61\n")
    assert main(["scenario", str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "bad.txt:3:" in err and "unknown upgrade 'U61'" in err and err.count("\n") == 1
    path.write_text("track usa\ncars 2\ngarage market U1 U2 U3 U4 U5 U6 U7 U8 U9 U10 U11 U12 "
                    "U13 U14 U15\ngrid 0 1\ndraft 1 U9\n")
    assert main(["scenario", str(path)]) == EXIT_BAD_INPUT
    assert "bad.txt:5: illegal decision: car 1: U9 is not in the market" in \
        capsys.readouterr().err


def test_simulate_garage_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--garage", "draft", "--upgrades", "all", "--expansions",
                 "--races", "3", "--cars", "3", "--laps", "1"]) == 0
    assert "3 races" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--garage", "auction"])
    assert exc.value.code == EXIT_BAD_INPUT


# ---------------------------------------------------------------- the forecast
#: the plan alone: no React choice taken (as the engine tests below answer "done")
PLAIN = {"adrenaline": False, "boost": False, "cooling": False, "slipstream": False}


def _one_car(hand: tuple[str, ...], draw: tuple[str, ...], engine: int = 6,
             space: int = 5) -> Race:
    deck = StackedDeck(hand=hand, draw=draw, discard=(), engine=engine, d=space, spot=1)
    return Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
                          modules={"garage": {"upgrades": {"0": ["U2", "U3", "U4"]}}}))


def test_forecast_counts_upgrade_flips_exactly() -> None:
    race = _one_car(("U2", "1", "1", "1", "1", "1", "1"), ("4", "4", "1", "0"))
    fc = forecast(race, 0, 1, ("U2",), overrides=PLAIN)
    # three [+] from two 4s, a 1 and a 0 (the 0 is skipped): always 4 + 4 + 1
    assert [(o.speed, o.probability) for o in fc.outcomes] == [(9, Fraction(1))]
    # 5 -> 14 crosses corner 1 (limit 7) at 9: 2 Heat
    assert fc.outcomes[0].heat == 2 and not fc.spin_probability


def test_forecast_heat_cost_adjusted_limit_and_speed_choice() -> None:
    race = _one_car(("U36", "4", "1", "U10", "1", "1", "1"), ("2",) * 8, space=8)
    race.cars[0].gear = 2
    race._rules.clear()
    fc = forecast(race, 0, 3, ("U36", "4", "1"), overrides=PLAIN)
    (o,) = fc.outcomes
    assert o.speed == 7 and o.corners[0].limit == 6 and o.heat == 1  # adjust -1
    # a speed choice (1-5): one GO keeps the lowest, as the turn screen offers the others
    fc = forecast(race, 0, 1, ("U10",), overrides=PLAIN)
    assert (fc.min_speed, fc.max_speed) == (1, 1)


def test_forecast_unpayable_heat_becomes_a_random_card_and_spin_chance_is_exact() -> None:
    race = _one_car(("U46", "1", "1", "1", "1", "1", "1"), ("1", "4", "4", "4"), engine=1,
                    space=1)
    fc = forecast(race, 0, 1, ("U46",), overrides=PLAIN)
    # the Wings cannot pay 2 Heat: a flip instead, 1 or 4 (3 of 4) from the deck
    assert {o.speed: o.probability for o in fc.outcomes} == {1: Fraction(1, 4),
                                                              4: Fraction(3, 4)}
    assert fc.outcomes[0].heat == 0


def test_forecast_matches_the_engine_for_a_boost_card() -> None:
    draws = ("3", "0", "2", "4", "1", "1", "1", "1")
    race = _one_car(("U1", "1", "1", "1", "1", "1", "1"), draws, space=1)
    fc = forecast(race, 0, 1, ("U1",))
    race.apply(Plan(0, 1, ("U1",)))
    assert race.cars[0].speed in {o.speed for o in fc.outcomes}
    assert race.cars[0].speed == 4 + 3


def test_react_done_when_nothing_to_choose() -> None:
    race = _one_car(("U4", "1", "1", "1", "1", "1", "1"), ("2",) * 8, engine=0)
    race.apply(Plan(0, 1, ("U4",)))  # reduce 2, but no Stress in hand: not asked
    options = race.pending().options
    assert React(0, "reduce", 1) not in options


def test_the_reveal_starts_the_same_turn_state_as_turn_state_does() -> None:
    # after_reveal writes TurnState() out (no __init__ frame): every field, as the class does
    race = _one_car(("U12", "1", "1", "1", "1", "1", "1"), ("2",) * 8)
    module = race.hooks.by_key["garage"]
    race.apply(Plan(0, 1, ("U12",)))  # cooldown 2: the turn state stays open for the React
    started = module.turn[0].to_dict()
    assert started == {**TurnState(0).to_dict(), "cool": 2}


# ---------------------------------------------------------------- docs/scenarios.md
DOC = Path(__file__).parent.parent / "docs" / "scenarios.md"


def test_doc_shows_a_garage_scenario_and_every_garage_line() -> None:
    doc = DOC.read_text(encoding="utf-8").replace("\\|", "|")
    start = doc.index("<!-- example: tests/scenarios/garage_heat_unpayable.txt -->")
    block = doc[start:].split("```")[1].split("\n", 1)[1]
    assert block == (SCENARIOS / "garage_heat_unpayable.txt").read_text(encoding="utf-8")
    from pitboard.engine.decisions import REACT_ACTIONS
    for action in REACT_ACTIONS:
        assert f"`react CAR {action}" in doc, action
    for word in ("car N upgrades", "garage choose random|draft|snake", "garage pool",
                 "garage expansions on|off", "garage market", "draft CAR CARD", "drop CAR CARD",
                 "expect PATH VALUE", "expect event", "expect option", "expect no option"):
        assert f"`{word}" in doc, word


def test_a_failed_expect_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "exp.txt"
    path.write_text("track usa\ncars 1\ncar 0 engine 5\nexpect cars.0.engine 4\n")
    assert main(["scenario", str(path)]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == \
        f"pitboard: {path}:4: expected cars.0.engine 4, found 5\n"


# ---------------------------------------------------------------- bots
def test_heuristic_garage_bot_beats_the_random_one() -> None:
    """benchmarks/garage.py measures it over 200 races; here 8 are enough to be sure."""
    from pitboard.bots import Bot, RandomBot
    from pitboard.garage_bots import GarageBot

    places = {True: 0, False: 0}
    for i in range(8):
        heuristic = {c for c in range(4) if (c + i) % 2 == 0}
        bots: list[Bot] = [GarageBot(seed=i) if c in heuristic else RandomBot(seed=i)
                           for c in range(4)]
        race = Race(RaceSetup(cars=4, seed=500 + i, laps=1, modules={"garage": {
            "choose": "snake", "expansions": True}}), record_events=False)
        while not race.over:
            car = race.waiting_for()
            race.apply(bots[car].choose(race, car))
        for place, car in enumerate(race.hall_of_fame):
            places[car in heuristic] += place
    assert places[True] < places[False] / 2


@pytest.mark.parametrize(("cards", "engine"), [(("U41", "S"), 2), (("U46", "S"), 1),
                                               (("U44", "S"), 3)])
def test_forecast_matches_the_engine_for_every_order_of_the_draw_pile(
        cards: tuple[str, str], engine: int) -> None:
    """[+] flips (Stress and an upgrade's), Heat costs (payable or not), scrap and adjusted
    limits: the forecast's exact odds are what the engine does over every deck order."""
    from collections import Counter
    from itertools import permutations

    from pitboard.engine.decisions import Discard, Slipstream

    def race_with(draw: tuple[str, ...]) -> Race:
        deck = StackedDeck(hand=(*cards, "1", "1", "1", "1", "1"), draw=draw, discard=(),
                           engine=engine, d=28, spot=1)
        return Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck}, modules={
            "garage": {"upgrades": {"0": ["U41", "U46", "U44"]}}}))

    orders = set(permutations(("1", "H", "4", "2", "3", "5")))
    expected: dict[tuple[int, int, bool, int], Fraction] = {}
    fc = forecast(race_with(("1", "H", "4", "2", "3", "5")), 0, 2, cards, overrides=PLAIN)
    assert any(o.spin_out for o in fc.outcomes) or cards[0] == "U41"
    for o in fc.outcomes:
        expected[(o.speed, o.d, o.spin_out, o.heat)] = o.probability
    seen: Counter[tuple[int, int, bool, int]] = Counter()
    for order in orders:
        race = race_with(order)
        race.apply(Plan(0, 2, cards))
        while race.current is not None:
            kind = race.pending().kind
            race.apply(React(0, "done") if kind == "react" else
                       Slipstream(0, False) if kind == "slipstream" else Discard(0, ()))
        car = race.cars[0]
        spun = any(e.kind == "spin_out" for e in race.events)
        seen[(car.speed, car.d, spun, engine - car.engine)] += 1
    assert {k: Fraction(n, len(orders)) for k, n in seen.items()} == expected


def test_legend_cars_do_not_draft_and_modules_combine() -> None:
    from pitboard.garage_bots import GarageBot

    race = Race(RaceSetup(cars=4, seed=3, laps=1, modules={
        "garage": {"choose": "draft"}, "legends": {"cars": 2},
        "weather": {"weather": "random", "road": True}}))
    legends = {c.id for c in race.cars if not race.hooks.plans(race, c)}  # type: ignore[misc]
    assert len(legends) == 2
    bot = GarageBot()
    drafters = set()
    while not race.over:
        pending = race.pending()
        if pending.kind == "draft":
            drafters.update(pending.cars)
        race.apply(bot.choose(race, race.waiting_for()))
    assert drafters == {0, 1, 2, 3} - legends
