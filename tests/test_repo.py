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
