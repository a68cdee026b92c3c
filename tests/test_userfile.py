"""Hostile files: every reader (profiles, track files, scenarios and their ``track`` lines, the
journal) reads only regular files, up to a size limit, and refuses anything else in one line
naming the path -- without hanging on a FIFO or reading /dev/zero for ever."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pitboard.cli import EXIT_BAD_INPUT
from pitboard.scenario import ScenarioError, load_scenario
from pitboard.trackfile import TrackFileError, load_track
from pitboard.userfile import UserFileError, escape, parse_toml, read_user_file

PITBOARD = Path(sys.executable).parent / "pitboard"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    return path


@pytest.fixture
def zero_link(tmp_path: Path) -> Path:
    path = tmp_path / "zero.toml"
    path.symlink_to("/dev/zero")
    return path


def specials(tmp_path: Path, fifo: Path, zero_link: Path) -> list[tuple[Path, str]]:
    return [
        (Path("/dev/zero"), "not a regular file (a character device)"),
        (Path("/dev/urandom"), "not a regular file (a character device)"),
        (fifo, "not a regular file (a FIFO)"),
        (zero_link, "not a regular file (a character device)"),
        (tmp_path, "not a regular file (a directory)"),
    ]


def test_read_user_file_refuses_special_files(tmp_path: Path, fifo: Path,
                                               zero_link: Path) -> None:
    for path, problem in specials(tmp_path, fifo, zero_link):
        with pytest.raises(UserFileError) as err:
            read_user_file(path)
        assert str(err.value) == f"{path}: {problem}"


def test_read_user_file_size_limit_and_plain_files(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"x" * 101)
    with pytest.raises(UserFileError, match=r"big.toml: too large \(101 bytes, the limit is 100\)"):
        read_user_file(path, limit=100)
    assert read_user_file(path, limit=101) == b"x" * 101
    link = tmp_path / "link.toml"
    link.symlink_to(path)
    assert read_user_file(link) == b"x" * 101  # a link to a regular file is fine for users
    with pytest.raises(UserFileError, match="a symbolic link"):
        read_user_file(link, follow_links=False)  # ... but not for the journal
    with pytest.raises(UserFileError, match=r"missing.toml: cannot read \(No such file"):
        read_user_file(tmp_path / "missing.toml")


def test_paths_and_values_print_escaped(tmp_path: Path) -> None:
    assert escape("2468\n") == "2468\\n"
    assert escape("Ann\x1b[2J") == "Ann\\x1b[2J"
    assert escape("caf\u00e9 \u2028") == "caf\u00e9 \\u2028"
    with pytest.raises(UserFileError) as err:
        read_user_file(tmp_path / "a\nb.toml")
    assert "\n" not in str(err.value) and "a\\nb.toml" in str(err.value)


def test_deep_toml_nesting_is_a_syntax_error() -> None:
    import tomllib

    with pytest.raises(tomllib.TOMLDecodeError, match="nested too deeply"):
        parse_toml("x = " + "[" * 5000 + "]" * 5000)


def test_track_files_refuse_special_files(tmp_path: Path, fifo: Path, zero_link: Path) -> None:
    for path, problem in specials(tmp_path, fifo, zero_link):
        if path == tmp_path:
            continue  # a directory does not look like a track path
        with pytest.raises(TrackFileError) as err:
            load_track(str(path))
        assert str(err.value) == f"{path}: file: {problem}"


def test_scenarios_and_their_track_lines_refuse_special_files(
        tmp_path: Path, fifo: Path, zero_link: Path) -> None:
    for path, problem in specials(tmp_path, fifo, zero_link):
        with pytest.raises(ScenarioError) as err:
            load_scenario(path)
        assert str(err.value) == f"{path}: {problem}"
        if path == tmp_path:
            continue
        scenario = tmp_path / "s.txt"
        scenario.write_text(f"# hostile\ntrack {path}\n")
        with pytest.raises(ScenarioError) as err:
            load_scenario(scenario)
        assert str(err.value) == f"{scenario}:2: {path}: file: {problem}"


def test_pitboard_scenario_on_dev_zero_and_a_fifo_exits_2(tmp_path: Path, fifo: Path) -> None:
    for path in ("/dev/zero", str(fifo)):
        proc = subprocess.run([str(PITBOARD), "scenario", path], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert proc.returncode == EXIT_BAD_INPUT
        assert proc.stderr == f"pitboard: {path}: not a regular file " \
            f"({'a character device' if path == '/dev/zero' else 'a FIFO'})\n"


def test_rules_data_files_refuse_special_files_and_deep_nesting(tmp_path: Path,
                                                                fifo: Path) -> None:
    from pitboard.engine.datafile import DataFileError, read_toml

    for path, problem in [(Path("/dev/zero"), "not a regular file (a character device)"),
                          (fifo, "not a regular file (a FIFO)")]:
        with pytest.raises(DataFileError) as err:
            read_toml("pitboard", "x.toml", path)
        assert str(err.value) == f"{path}: {problem}"
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(DataFileError, match=r"deep\.toml: not valid TOML: arrays or tables nested "
                                            r"too deeply"):
        read_toml("pitboard", "x.toml", deep)


def test_upgrade_files_refuse_special_files_and_deep_nesting(tmp_path: Path, fifo: Path) -> None:
    from pitboard.engine.garage.data import UpgradeFileError, load_upgrades

    for path, problem in [(Path("/dev/zero"), "not a regular file (a character device)"),
                          (fifo, "not a regular file (a FIFO)")]:
        with pytest.raises(UpgradeFileError) as err:
            load_upgrades(path)
        assert str(err.value) == f"{path}: {problem}"
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(UpgradeFileError, match=r"nested too deeply"):
        load_upgrades(deep)
