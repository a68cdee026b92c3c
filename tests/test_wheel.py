"""Pitboard as installed, not as cloned: the sdist and the wheel built from the tracked files
hold every file of the package, and the wheel installed in a fresh venv outside the checkout
runs every command (the Pi's installer installs the same wheel: test_install_staged.py)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pitboard.cli import COMMANDS, DELEGATED
from runkit import run_until_ready
from wheelkit import REPO, Installed, missing_files

#: the wheel, the fresh venv and the staged install share one worker (built once)
pytestmark = pytest.mark.xdist_group("wheel")

TIMEOUT = 120


def run(venv: Installed, *args: str, stdin: str | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(venv.bin / "pitboard"), *args], capture_output=True, text=True,
                          env=venv.env, cwd=venv.home, timeout=TIMEOUT, input=stdin)


def run_all(venv: Installed, commands: Sequence[Sequence[str]]
            ) -> list[subprocess.CompletedProcess[str]]:
    """Run the commands side by side (each is its own process, as a user would start it)."""
    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda args: run(venv, *args), commands))


def ok(results: list[subprocess.CompletedProcess[str]]) -> None:
    for result in results:
        assert result.returncode == 0, (result.args, result.stdout[-2000:], result.stderr)
        assert "Traceback" not in result.stderr, (result.args, result.stderr)


def test_every_tracked_file_of_the_package_is_in_the_sdist_and_the_wheel(
        installed: Installed) -> None:
    assert missing_files(installed.artifacts) == []
    wheel = installed.artifacts.wheel_names()
    for data in ("pitboard/engine/garage/upgrades.toml", "pitboard/hw_config/sim.toml",
                 "pitboard/tracks/usa.toml", "pitboard/engine/legends/legend_cards.toml",
                 "pitboard/engine/weather/tokens.toml"):
        assert data in wheel
    # nothing points out of the package: no link, no path arithmetic to a checkout
    assert not any(name.endswith("/hw_config") for name in wheel)


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    found = subprocess.run(
        [str(installed.bin / "python"), "-c",
         "import pitboard, importlib.resources as r; print(pitboard.__file__); "
         "print(r.files('pitboard').joinpath('hw_config', 'sim.toml').is_file())"],
        capture_output=True, text=True, env=installed.env, cwd=installed.home, timeout=TIMEOUT)
    where, shipped = found.stdout.split()
    assert Path(where).is_relative_to(installed.bin.parent), where
    assert not Path(where).is_relative_to(REPO)
    assert shipped == "True"


def test_every_command_has_help(installed: Installed) -> None:
    commands = [["--help"], ["--version"], *([name, "--help"] for name in
                                             [*COMMANDS, *DELEGATED])]
    results = run_all(installed, commands)
    ok(results)
    for args, result in zip(commands, results, strict=True):
        assert result.stdout.strip(), args
    # python -m pitboard is the same command
    module = subprocess.run([str(installed.bin / "python"), "-m", "pitboard", "tracks"],
                            capture_output=True, text=True, env=installed.env,
                            cwd=installed.home, timeout=TIMEOUT)
    assert module.returncode == 0 and "usa" in module.stdout


def test_check_config_passes_on_every_shipped_profile(installed: Installed) -> None:
    profiles = sorted(p.stem for p in (installed.site / "pitboard" / "hw_config").glob("*.toml"))
    assert {"sim", "duo", "grid6"} <= set(profiles)
    results = run_all(installed, [["check-config", name] for name in profiles])
    ok(results)
    for name, result in zip(profiles, results, strict=True):
        assert f'Hardware profile "{name}"' in result.stdout
        # a shipped profile is named where an owner finds it, not through site-packages
        assert "site-packages" not in result.stderr, result.stderr


@pytest.mark.parametrize("modules", [
    (), ("--garage", "draft"), ("--legends", "2"), ("--weather", "random", "--road-conditions"),
    ("--garage", "snake", "--expansions", "--legends", "2", "--weather", "rain",
     "--road-conditions"),
], ids=["base", "garage", "legends", "weather", "all"])
def test_simulate_with_each_module_and_all_together(installed: Installed,
                                                    modules: tuple[str, ...]) -> None:
    result = run(installed, "simulate", "--cars", "3", "--laps", "1", "--races", "3", "--json",
                 *modules)
    ok([result])
    assert json.loads(result.stdout)["races"] == 3


def test_scenario_upgrades_tracks_and_hw_test(installed: Installed) -> None:
    scenario = REPO / "tests" / "scenarios" / "garage_heat.txt"
    results = run_all(installed, [["scenario", str(scenario)], ["upgrades"], ["tracks"],
                                  ["hw-test", "sim", "--seconds", "0"], ["demo", "--cars", "2"]])
    ok(results)
    scenario_out, upgrades, tracks, hw_test, demo = (r.stdout for r in results)
    assert "Waiting for:" in scenario_out
    assert "card types" in upgrades
    assert "usa" in tracks and "italy" in tracks
    assert "all good" in hw_test and "hw_config/sim.toml" in hw_test
    assert "lap" in demo


def test_run_on_the_sim_profile_until_its_first_frame_then_a_clean_stop(
        installed: Installed, tmp_path: Path) -> None:
    status, err = run_until_ready([str(installed.bin / "pitboard"), "run", "--config", "sim"],
                                  env=installed.env, cwd=installed.home,
                                  notify=tmp_path / "notify")
    assert status == 0, err
    assert "Traceback" not in err
    # the journal went where the README says: the home's state folder, nothing in the cwd
    state = installed.home / ".local" / "state" / "pitboard"
    assert (state / "journal").is_dir()
    assert not [p for p in installed.home.iterdir() if p.name.startswith("journal")]
