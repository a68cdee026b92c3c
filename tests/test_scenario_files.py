"""Scenario files: every problem is one line ``FILE:LINE: reason``; ``pitboard scenario``
prints the state as JSON or text and exits 2 on bad input; docs/scenarios.md stays true."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pitboard.cli import EXIT_BAD_INPUT, main
from pitboard.engine import race_to_dict
from pitboard.engine.events import CornerChecked
from pitboard.scenario import ScenarioError, load_scenario, parse_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
DOC = Path(__file__).parent.parent / "docs" / "scenarios.md"
PITBOARD = Path(sys.executable).parent / "pitboard"
ALL_FILES = sorted(SCENARIOS.glob("*.txt"))


def write(tmp_path: Path, text: str, name: str = "bad.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- parse errors
MALFORMED: list[tuple[str, str, int, str]] = [
    # id, file text, line to blame, part of the message
    ("unknown directive", "track usa\nspeed 5\n", 2, "unknown directive 'speed'"),
    ("unknown track", "# comment\ntrack mars\n", 2, "unknown track"),
    ("setting twice", "track usa\ncars 2\ncars 3\n", 3, "'cars' given twice"),
    ("setting without value", "track usa\ncars\n", 2, "'cars' needs a value"),
    ("laps not a number", "track usa\nlaps two\n", 2, "laps must be a whole number, not 'two'"),
    ("laps out of range", "track usa\nlaps 0\n", 2, "laps must be 1..9, not 0"),
    ("cars out of range", "track usa\n\ncars 7\n", 3, "cars must be 1..6, not 7"),
    ("seed not a number", "track usa\nseed abc\n", 2, "seed must be a whole number"),
    ("grid not numbers", "track usa\ncars 2\ngrid 0 x\n", 3, "grid must be a whole number"),
    ("grid not a permutation", "track usa\ncars 2\ngrid 0 0\n", 3,
     "grid must list each car 0..1 once, not 0 0"),
    ("hand_size", "track usa\nhand_size 0\n", 2, "hand_size must be 1..20, not 0"),
    # documented ranges, enforced (a huge number used to be taken as is)
    ("hand_size too big", "track usa\nhand_size 1000000\n", 2, "hand_size must be 1..20"),
    ("seed too big", "track usa\nseed 99999999999999999999\n", 2, "seed must be 0..9223"),
    ("seed negative", "track usa\nseed -1\n", 2, "seed must be 0..9223372036854775807, not -1"),
    ("huge lap", "track usa\nlaps 1\ncar 0 at lap 99999999 space 3 spot 1\n", 3,
     "lap must be 0..9, not 99999999"),
    ("lap beyond the race", "track usa\ncar 0 at lap 2 space 3 spot 1\nlaps 1\n", 2,
     "lap must be 0..1 (the race has 1 lap), not 2"),
    ("lap beyond the track's laps", "track usa\ncar 0 at lap 3 space 3 spot 1\n", 2,
     "lap must be 0..2 (the race has 2 laps), not 3"),
    ("huge engine", "track usa\ncar 0 engine 100000000000000\n", 2,
     "engine must be 0..99 Heat cards, not 100000000000000"),
    ("unicode digit", "track usa\ncar \u00b2 engine 1\n", 2, "expected 'car N <name|"),
    ("unicode digit value", "track usa\ncar 0 gear \u0663\n", 2, "expected 'car 0 gear N'"),
    ("control characters escaped", "track usa\nspe\x1b[2Jed 5\n", 2,
     "unknown directive 'spe\\x1b[2jed'"),
    ("unknown card", "track usa\ncar 0 hand 1 2 X\n", 2, "car 0 hand: unknown card 'X'"),
    ("car not a number", "track usa\ncar x hand 1\n", 2, "expected 'car N <name|hand|"),
    ("unknown car setting", "track usa\ncar 0 colour red\n", 2, "unknown car setting 'colour'"),
    ("negative engine", "track usa\ncar 0 engine -1\n", 2, "expected 'car 0 engine N'"),
    ("gear out of range", "track usa\ncar 0 gear 5\n", 2, "gear must be 1..4, not 5"),
    ("space out of range", "track usa\ncar 0 at lap 1 space 70 spot 1\n", 2,
     "space must be 1..69"),
    ("spot out of range", "track usa\ncar 0 at lap 1 space 9 spot 3\n", 2,
     "spot must be 1 or 2, not 3"),
    ("incomplete place", "track usa\ncar 0 at lap 1 space 9\n", 2,
     "expected 'car 0 at lap L space S spot 1|2'"),
    ("place before track", "car 0 at lap 1 space 9 spot 1\ntrack usa\n", 1,
     "'track' must come before 'car N at'"),
    ("car beyond cars", "track usa\ncars 2\ncar 1 hand 1\ncar 5 hand 1\n", 4,
     "car 5, but cars are 0..1"),
    ("two cars on one spot", "track usa\ncar 0 at lap 1 space 9 spot 1\n"
     "car 1 at lap 2 space 9 spot 1\n", 3, "car 0 already starts on space 9 spot 1"),
    ("bad plan", "track usa\nplan 0 gear x cards 1\n", 2,
     "expected 'plan CAR gear N cards C1 C2 ...'"),
    ("bad plan card", "track usa\nplan 0 gear 1 cards Q\n", 2, "plan: unknown card 'Q'"),
    ("bad react", "track usa\nreact 0 jump\n", 2, "expected 'react CAR adrenaline|boost"),
    ("bad cooldown", "track usa\nreact 0 cooldown\n", 2, "expected 'react CAR cooldown N'"),
    ("bad slipstream", "track usa\nslipstream 0 maybe\n", 2, "expected 'slipstream CAR yes|no'"),
    ("bad decision car", "track usa\ndiscard x 1\n", 2, "car must be a number, not 'x'"),
    ("setting after decision", "track usa\nplan 0 gear 1 cards 1\ncars 2\n", 3,
     "'cars' must come before the first decision"),
    ("decision after finish", "track usa\nfinish\nplan 0 gear 1 cards 1\n", 3,
     "nothing may follow 'finish'"),
    ("unknown bot", "track usa\nfinish smart\n", 2,
     "expected 'finish heuristic' or 'finish random'"),
]


@pytest.mark.parametrize(("text", "line", "message"), [m[1:] for m in MALFORMED],
                         ids=[m[0] for m in MALFORMED])
def test_malformed_line_names_file_and_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}:{line}: "), msg
    assert message in msg
    assert "\n" not in msg


def test_missing_track_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"^x\.txt: no 'track' line$"):
        parse_scenario("cars 2\n", "x.txt")
    missing = tmp_path / "missing.txt"
    with pytest.raises(ScenarioError, match=r"missing\.txt: cannot read"):
        load_scenario(missing)


def test_names_with_control_characters_print_escaped(tmp_path: Path) -> None:
    path = write(tmp_path, "track usa\nlaps 1\ncar 0 name Ann\x1b[2J\x07\nfinish\n")
    scenario = load_scenario(path)
    assert scenario.setup.names[0] == "Ann\\x1b[2J\\x07"
    proc = subprocess.run([str(PITBOARD), "scenario", str(path)], capture_output=True,
                          text=True, check=True)
    assert "Ann\\x1b[2J" in proc.stdout
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout


def test_illegal_decision_names_its_line(tmp_path: Path) -> None:
    text = (SCENARIOS / "plan_base.txt").read_text() + "plan 0 gear 2 cards 1 H\n"
    path = write(tmp_path, text)
    sc = load_scenario(path)  # parses: the decision is well formed
    line = len(text.splitlines())
    with pytest.raises(ScenarioError) as info:
        sc.run()
    assert str(info.value) == (f"{path}:{line}: illegal decision: car 0: "
                               "Heat cards cannot be played")


def test_a_decision_out_of_turn_names_its_line(tmp_path: Path) -> None:
    lines = (SCENARIOS / "boost.txt").read_text().splitlines()
    lines.insert(lines.index("react 0 boost") + 1, "react 0 boost")
    path = write(tmp_path, "\n".join(lines) + "\n")
    with pytest.raises(ScenarioError, match=rf":{lines.index('react 0 boost') + 2}: illegal "
                                            r"decision: car 0: cannot boost now"):
        load_scenario(path).run()


@pytest.mark.parametrize("path", ALL_FILES, ids=[p.stem for p in ALL_FILES])
def test_every_scenario_file_runs(path: Path) -> None:
    sc = load_scenario(path)
    race = sc.run()
    assert race.log[:len(sc.decisions)] == [d for _, d in sc.decisions]
    assert race.over or sc.finish_with is None
    assert json.loads(json.dumps(race_to_dict(race, events=True)))["cars"]


# ---------------------------------------------------------------- the CLI
def test_cli_json_shows_positions_piles_and_heat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", str(SCENARIOS / "stress_flip.txt"), "--json"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    state = json.loads(out.out)
    car = state["cars"][0]
    assert (car["lap"], car["space"], car["spot"], car["racing_line"]) == (1, 22, 2, True)
    assert car["gear"] == 1 and car["engine"] == 6
    assert car["hand"] == ["1", "2", "3", "4", "1", "2"]
    assert car["draw"] == ["4", "4", "4", "4", "3", "3"]  # top first, as in the file
    assert car["discard"] == ["5", "0", "H"]
    assert car["play"] == ["S", "2"]
    assert state["phase"] == "react" and state["hall_of_fame"] == []
    assert [e["type"] for e in state["events"]][:3] == ["grid", "round", "turn"]


def test_cli_json_finish_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", str(SCENARIOS / "finish_order.txt"), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "over"
    assert state["hall_of_fame"] == [1, 0, 2]
    assert [c["finished"] for c in state["cars"]] == [True, True, True]


def test_cli_text_narrates_and_says_what_it_waits_for(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scenario", str(SCENARIOS / "corner_rulebook.txt")]) == 0
    out = capsys.readouterr().out
    assert "  corner 2 (limit 3) at speed 5: pays 2 Heat" in out.splitlines()
    assert out.rstrip().endswith("Waiting for: plan from Car 1 (file car 0)")


@pytest.mark.parametrize(("text", "line"), [
    ("track usa\ncars 9\n", 2),
    ("track usa\ncars 1\nplan 0 gear 4 cards 1 2 3 4\n", 3),
])
def test_cli_bad_input_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int
) -> None:
    path = write(tmp_path, text)
    assert main(["scenario", str(path), "--json"]) == EXIT_BAD_INPUT
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith(f"pitboard: {path}:{line}: ")
    assert out.err.count("\n") == 1


def test_cli_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", str(tmp_path / "nope.txt")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("pitboard: ") and "cannot read" in err and err.count("\n") == 1


def test_cli_as_a_program(tmp_path: Path) -> None:
    good = subprocess.run([str(PITBOARD), "scenario", str(SCENARIOS / "spin_out_gear2.txt"),
                           "--json"], capture_output=True, text=True, timeout=60, check=False)
    assert good.returncode == 0, good.stderr
    car = json.loads(good.stdout)["cars"][0]
    assert (car["space"], car["gear"], car["engine"], car["spinouts"]) == (33, 1, 0, 1)
    bad = subprocess.run([str(PITBOARD), "scenario", str(write(tmp_path, "track usa\nlaps x\n"))],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == EXIT_BAD_INPUT
    assert bad.stdout == ""
    assert "Traceback" not in bad.stderr
    assert bad.stderr.splitlines() == [f"pitboard: {tmp_path / 'bad.txt'}:2: "
                                       "laps must be a whole number, not 'x'"]


# ---------------------------------------------------------------- docs/scenarios.md
def _blocks(after: str) -> str:
    """The first fenced block after the heading/marker line ``after`` in the doc."""
    doc = DOC.read_text(encoding="utf-8")
    start = doc.index(after)
    match = re.search(r"```[a-z]*\n(.*?)```", doc[start:], re.S)
    assert match is not None
    return match.group(1)


def test_doc_worked_example_is_the_test_file() -> None:
    assert _blocks("<!-- example: tests/scenarios/worked_example.txt -->") == \
        (SCENARIOS / "worked_example.txt").read_text(encoding="utf-8")


def test_every_doc_example_is_its_test_file() -> None:
    names = re.findall(r"<!-- example: tests/scenarios/(\w+\.txt) -->",
                       DOC.read_text(encoding="utf-8"))
    assert len(names) >= 4
    for name in names:
        assert _blocks(f"<!-- example: tests/scenarios/{name} -->") == \
            (SCENARIOS / name).read_text(encoding="utf-8"), name


def test_doc_worked_example_output_is_what_the_cli_prints(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scenario", str(SCENARIOS / "worked_example.txt")]) == 0
    assert _blocks("<!-- output: pitboard scenario tests/scenarios/worked_example.txt -->") == \
        capsys.readouterr().out


def test_worked_example_rules() -> None:
    race = load_scenario(SCENARIOS / "worked_example.txt").run()
    alice = race.cars[0]
    assert (alice.space, alice.engine, alice.speed) == (35, 4, 6)  # 6 + 1 cooled - 3 paid
    corners = [e for e in race.events if isinstance(e, CornerChecked)]
    assert [(e.car, e.corner, e.speed, e.heat) for e in corners] == [(0, 2, 6, 3)]


def test_doc_mentions_every_directive_and_decision() -> None:
    doc = DOC.read_text(encoding="utf-8").replace("\\|", "|")  # tables escape the bar
    for word in ("track", "laps", "cars", "seed", "grid", "hand_size", "car N name",
                 "car N hand", "car N draw", "car N discard", "car N engine", "car N gear",
                 "car N at lap L space S spot P", "plan CAR gear N cards", "react CAR",
                 "slipstream CAR yes|no", "discard CAR", "finish heuristic|random"):
        assert f"`{word}" in doc, word
