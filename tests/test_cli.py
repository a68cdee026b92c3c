"""The pitboard command: demo, simulate, tracks, check-config, flow-diagram."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pitboard.cli import main
from pitboard.table.flow import flow_doc

ROOT = Path(__file__).resolve().parents[1]


def test_demo_prints_a_whole_race(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--cars", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("USA: 1 lap(s), 3 cars, seed 5")
    assert "=== Round 1:" in out
    assert "reveals" in out and "moves" in out
    final = out.strip().splitlines()[-1]
    assert final.startswith("Race over after") and "1. Bot" in final and "3. Bot" in final


def test_demo_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--cars", "4", "--seed", "9", "--track", "italy"])
    first = capsys.readouterr().out
    main(["demo", "--cars", "4", "--seed", "9", "--track", "italy"])
    assert capsys.readouterr().out == first


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--track", "france", "--cars", "4", "--laps", "1",
                 "--races", "20", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["races"] == 20 and data["cars"] == 4 and data["track"] == "france"
    assert sum(data["wins_by_car"].values()) == 20
    assert sum(data["wins_by_grid_position"].values()) == 20
    assert data["mean_rounds"] > 3
    assert data["races_per_second"] > 0 and data["us_per_car_turn"] > 0


def test_simulate_jobs_share_the_races_and_change_no_result(
        capsys: pytest.CaptureFixture[str]) -> None:
    """--jobs N: the races in N processes, the same totals as one process for the seed."""
    found = []
    for jobs in ("1", "2"):
        assert main(["simulate", "--cars", "3", "--laps", "1", "--races", "16", "--seed", "4",
                     "--legends", "1", "--json", "--jobs", jobs]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["jobs"] == int(jobs)
        found.append({k: v for k, v in data.items()
                      if k not in ("jobs", "races_per_second", "us_per_car_turn")})
    assert found[0] == found[1]
    assert sum(found[0]["wins_by_car"].values()) == 16


def test_simulate_championship_seasons_with_jobs_change_no_result(
        capsys: pytest.CaptureFixture[str]) -> None:
    """--championship SEASON --seasons N: whole seasons; --jobs 2 gives the same standings."""
    found = []
    for jobs in ("1", "2"):
        assert main(["simulate", "--championship", "random", "--seasons", "6", "--cars", "3",
                     "--seed", "2", "--json", "--jobs", jobs]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["jobs"] == int(jobs) and data["seasons_per_second"] > 0
        found.append({k: v for k, v in data.items()
                      if k not in ("jobs", "seasons_per_second", "us_per_car_turn")})
    assert found[0] == found[1]
    assert sum(found[0]["titles_by_car"].values()) == 6 and found[0]["races"] == 24
    assert main(["simulate", "--championship", "1961", "--seasons", "2", "--cars", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 seasons of the 1961 championship, 2 heuristic bots")
    assert "titles by car: " in out and "seasons per second" in out


def test_simulate_championship_refuses_a_season_that_cannot_be_raced(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--championship", "1961", "--cars", "4", "--legends", "3"]) == 2
    assert "a race has at most 6" in capsys.readouterr().err


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--cars", "2", "--laps", "1", "--races", "5",
                 "--bot", "random"]) == 0
    out = capsys.readouterr().out
    assert "5 races, 2 random bots, usa, 1 lap(s)" in out
    assert "races per second" in out


def test_tracks_lists_the_four_base_tracks(capsys: pytest.CaptureFixture[str]) -> None:
    main(["tracks"])
    out = capsys.readouterr().out
    for key in ("usa", "france", "great_britain", "italy"):
        assert key in out


def test_unknown_track_is_one_line_exit_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "demo", "--track", "mars"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "mars" in proc.stderr and "Traceback" not in proc.stderr


def test_bad_arguments_exit_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "simulate", "--cars", "9"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "cars must be 1..6" in proc.stderr


def test_check_config_shipped_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "grid6"]) == 0
    assert "GPIO" in capsys.readouterr().out


def test_check_config_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\n", encoding="utf-8")
    assert main(["check-config", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and all(str(bad) in line for line in err)


def test_check_config_install_facts(capsys: pytest.CaptureFixture[str]) -> None:
    """What systemd/install-pi.sh reads: KEY=VALUE lines from the validated profile."""
    assert main(["check-config", "--install-facts", "grid6"]) == 0
    out, err = capsys.readouterr()
    facts = dict(line.split("=", 1) for line in out.splitlines())
    assert facts == {
        "hardware": "1", "i2c_baudrate": "400000", "mux_address": "0x70",
        "mux_idle_disconnect": "1",
        # the three controllers' muxes: each extra controller's overlay, then its mux
        "i2c_extra_pi4": "dtoverlay=i2c6,pins_22_23,baudrate=400000;"
                         "dtoverlay=i2c-mux,pca9548,addr=0x70,i2c6;"
                         "dtoverlay=i2c5,pins_12_13,baudrate=400000;"
                         "dtoverlay=i2c-mux,pca9548,addr=0x70,i2c5",
        "mux_params_pi4": "i2c6 i2c5",
        "i2c_extra_pi5": "dtoverlay=i2c3-pi5,pins_22_23,baudrate=400000;"
                         "dtoverlay=i2c-mux,pca9548,addr=0x70,i2c3;"
                         "dtoverlay=i2c2-pi5,pins_12_13,baudrate=400000;"
                         "dtoverlay=i2c-mux,pca9548,addr=0x70,i2c2",
        "mux_params_pi5": "i2c3 i2c2",
        "uart": "1", "spi": "0", "web_lan": "0", "tv_screen": "0", "web_net": "0",
        "default_pin": "1"}
    assert "still the default" in err  # the warnings as without the flag
    assert main(["check-config", "--install-facts", "phones"]) == 0
    facts = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    assert (facts["hardware"], facts["web_lan"], facts["web_net"]) == ("0", "1", "1")


def test_check_config_install_facts_of_a_broken_file(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\n", encoding="utf-8")
    assert main(["check-config", "--install-facts", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and str(bad) in err


def test_committed_flow_diagram_is_current() -> None:
    committed = (ROOT / "docs" / "table-flow.md").read_text(encoding="utf-8")
    assert committed == flow_doc(), "docs/table-flow.md is stale: run `pitboard flow-diagram`"


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("demo", "scenario", "simulate", "tracks", "check-config", "flow-diagram"):
        assert command in out


@pytest.mark.parametrize("command", ["sim", "screens", "wiring-docs", "run"])
def test_every_command_is_listed_and_has_help(command: str) -> None:
    listing = subprocess.run([sys.executable, "-m", "pitboard.cli", "--help"],
                             capture_output=True, text=True, check=True).stdout
    assert f"    {command}" in listing
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", command, "--help"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"usage: pitboard {command}")


def test_sim_autoplay_through_the_cli_plays_a_race() -> None:
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "sim", "--autoplay", "--laps",
                           "1", "--seed", "3", "--text"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Final order: 1. " in proc.stdout.splitlines()[-1]


def test_sim_bad_argument_is_one_line_exit_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "sim", "--stations", "9"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_screens_to_an_unwritable_folder_is_one_line_exit_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "screens", "--out",
                           str(blocker / "gallery")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("pitboard screens: cannot write")
    assert "Traceback" not in proc.stderr


# -- help texts and argument errors ----------------------------------------------------------


def _subcommand_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, the delegated ones (sim, screens, wiring-docs, ...) included:
    each delegated module has a ``build_parser()``."""
    import importlib

    from pitboard.cli import DELEGATED, build_parser

    parsers: dict[str, argparse.ArgumentParser] = {}
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            parsers.update(action.choices)
    for name, module in DELEGATED.items():
        parsers[name] = importlib.import_module(module).build_parser()
    return parsers


def test_every_subcommand_describes_itself_and_each_option() -> None:
    parsers = _subcommand_parsers()
    assert {"run", "demo", "simulate", "scenario", "tracks", "check-config", "flow-diagram",
            "sim", "screens", "wiring-docs"} <= set(parsers)
    for name, parser in parsers.items():
        assert parser.description and len(parser.description) > 30, name
        for action in parser._actions:
            assert action.help, f"pitboard {name} {action.option_strings or action.dest}"
            assert len(action.help) > 10, f"pitboard {name} {action.option_strings}: {action.help}"


@pytest.mark.parametrize("words", [
    ["simulate", "--races", "0"],
    ["simulate", "--races", "many"],
    ["demo", "--cars", "0"],
    ["demo", "--frobnicate"],
    ["scenario"],
    ["screens"],
    ["nosuchcommand"],
    [],
    ["hw-test"],
    ["hw-test", "sim", "--seconds", "soon"],
    ["wiring-docs", "--bogus"],
    ["screens", "--bogus"],
    ["sim", "--bogus"],
    ["sim", "--delay", "20"],
    ["tv", "--pace", "9"],
    ["tv", "--wait", "-1"],
    ["tv", "--wait", "nan"],
])
def test_argument_errors_are_one_line_exit_2(words: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", *words],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("pitboard") and "usage:" not in lines[0]
    assert "--help" in lines[0]


def test_simulate_races_0_names_the_problem() -> None:
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "simulate", "--races", "0"],
                          capture_output=True, text=True)
    assert proc.stderr == ("pitboard simulate: argument --races: must be 1 or more, got 0 "
                           "(see pitboard simulate --help)\n")


@pytest.mark.parametrize(("words", "problem"), [
    (["tv", "--wait", "-1"], "argument --wait: wait must be 0..86400 seconds, got -1"),
    (["tv", "--pace", "x"], "argument --pace: expected a number, got 'x'"),
    (["sim", "--delay", "20"], "argument --delay: delay must be 0..10 seconds, got 20"),
    (["sim", "--laps", "two"], "argument --laps: expected a whole number, got 'two'"),
])
def test_numbers_out_of_bounds_say_the_bounds(words: list[str], problem: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", *words],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and problem in proc.stderr, proc.stderr


def test_flow_diagram_prints_unless_told_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["flow-diagram"]) == 0
    assert capsys.readouterr().out == flow_doc()
    assert list(tmp_path.iterdir()) == []  # no surprise ./docs tree
    assert main(["flow-diagram", "--out", "flow.md"]) == 0
    assert (tmp_path / "flow.md").read_text(encoding="utf-8") == flow_doc()
    assert main(["flow-diagram", "--out", "flow.md/x.md"]) == 2


def test_scenario_text_counts_cars_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    scenario = ROOT / "tests" / "scenarios" / "adrenaline_corner.txt"
    assert "plan 0 gear 2" in scenario.read_text()  # the file's documented 0-based indexes
    assert main(["scenario", str(scenario)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "(Cars are numbered from 1 here: the scenario file's car 0 is Car 1.)"
    assert any(line.startswith("Car 1 reveals") for line in out)
    assert any(line.startswith("Car 2 reveals") for line in out)
    assert out[-1] == "Waiting for: plan from Car 1, Car 2 (file cars 0, 1)"
