"""The checkout itself: a true .gitignore, and commands that leave no stray files behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs git and a git checkout (not an unpacked archive)")
def test_gitignore_ignores_no_tracked_file() -> None:
    tracked_but_ignored = subprocess.run(
        ["git", "ls-files", "--cached", "--ignored", "--exclude-standard"], cwd=ROOT,
        capture_output=True, text=True, check=True).stdout.split()
    assert tracked_but_ignored == []


def test_gitignore_patterns_each_say_what_makes_them() -> None:
    said = False  # a comment above this run of patterns
    for line in (ROOT / ".gitignore").read_text().splitlines():
        if line.startswith("#"):
            said = True
        elif not line.strip():
            said = False
        else:
            assert said, f".gitignore: {line}: say which tool makes it"


@pytest.mark.parametrize("words", [
    ["demo", "--cars", "2"],
    ["tracks"],
    ["check-config", "grid6"],
    ["simulate", "--races", "2", "--cars", "2", "--laps", "1"],
    ["scenario", str(ROOT / "tests" / "scenarios" / "adrenaline_corner.txt")],
    ["flow-diagram"],
    ["sim", "--autoplay", "--text", "--laps", "1", "--seed", "3", "--stations", "1"],
    ["--help"],
])
def test_commands_write_nothing_where_they_are_run(words: list[str], tmp_path: Path) -> None:
    """The README's commands print; files appear only where an option names them."""
    work = tmp_path / "cwd"
    work.mkdir()
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_STATE_HOME="")
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", *words], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in work.iterdir()) == []
    assert not (tmp_path / "home").exists()


# -- the README -----------------------------------------------------------------------------

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end >= 0 else None]


def test_readme_build_one_goes_from_a_fresh_pi_to_a_checked_table() -> None:
    text = _section("Build one")
    for step in ("Raspberry Pi OS Lite", "git clone", "sudo make install-pi PROFILE=",
                 "make install-pi-dry-run", "sudo reboot", "systemctl status pitboard",
                 "journalctl -u pitboard", "staff_pin", "kiosk = true", "NEW_CONFIG=1",
                 "check-config /etc/pitboard/pitboard.toml", "wiring_docs/"):
        assert step in text, step


def test_readme_exit_codes_match_the_unit() -> None:
    text = README[README.index("Exit status:"):]
    assert "| 1 |" in text and "| 2 |" in text and "RestartPreventExitStatus=2" in text
    unit = (ROOT / "systemd" / "pitboard.service").read_text()
    assert "RestartPreventExitStatus=2" in unit and "Restart=on-failure" in unit


def test_readme_names_the_optional_tools_the_skipped_tests_need() -> None:
    text = _section("Developing")
    for tool in ("systemd-analyze", "shellcheck", "dot"):
        assert tool in text, tool


def test_make_demo_races_with_legends_and_weather() -> None:
    """`make demo` shows a module race: its command parses and asks for Legends, weather and
    the Garage's draft."""
    import shlex

    from pitboard.sim import build_parser as sim_parser

    recipe = (ROOT / "Makefile").read_text().split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    words = shlex.split(recipe.split("\n", 1)[1].replace("\\\n", " ").strip())
    assert words[0].endswith("/pitboard") and words[1] == "sim"
    args = sim_parser().parse_args(words[2:])
    assert args.autoplay and args.legends >= 1 and args.weather == "random"
    assert args.road_conditions is not None and args.road_conditions is not False
    assert args.garage == "draft"  # the draft on the stations, then upgrades in the tray


def test_the_venv_gets_the_build_backend_pyproject_names() -> None:
    """The editable install builds without isolation, with the backend the Makefile puts in
    the venv first: every [build-system] requirement is there (the same name and range)."""
    import re
    import tomllib

    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    line = next(ln for ln in (ROOT / "Makefile").read_text().splitlines()
                if ln.startswith("BUILD_PIN :="))
    pins = dict(re.findall(r"'([A-Za-z0-9_.-]+)([^']*)'", line))
    for requirement in requires:
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)(.*)", requirement)
        assert found, requirement
        name, spec = found.groups()
        assert name in pins, f"Makefile BUILD_PIN lacks {name} ({requirement})"
        assert spec in ("", pins[name]), f"Makefile BUILD_PIN: {name}{pins[name]}, not {spec}"


def test_one_terminal_check_for_every_command() -> None:
    """`pitboard run` and `pitboard sim` decide to draw by the same rule: one isatty helper
    (pitboard.usage.isatty), not a copy per command."""
    package = ROOT / "firmware_py" / "pitboard"
    own = sorted(str(p.relative_to(package)) for p in package.rglob("*.py")
                 if p.name != "usage.py" and ".isatty()" in p.read_text(encoding="utf-8"))
    assert own == [], f"call pitboard.usage.isatty instead of stream.isatty() in {own}"


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs git and a git checkout (not an unpacked archive)")
def test_package_data_names_every_data_file_of_the_package() -> None:
    """pyproject's package-data covers every tracked file of the package that is not Python
    (the wheel tests check the built artifacts; this says which line to add when it fails)."""
    import fnmatch
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["pitboard"]
    listed = subprocess.run(["git", "ls-files", "firmware_py/pitboard"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    data = [p.removeprefix("firmware_py/pitboard/") for p in listed if not p.endswith(".py")]
    assert data and "web/static/index.html" in data
    missing = [p for p in data if not any(fnmatch.fnmatch(p, pat) for pat in patterns)]
    assert not missing, f"pyproject.toml [tool.setuptools.package-data] misses: {missing}"
