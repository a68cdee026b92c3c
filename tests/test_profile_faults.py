"""Hostile hardware profiles: ``check-config`` refuses everything ``pitboard run`` would, in one
line naming the file and the key, exit 2 -- special files, deep nesting, tracks, values with
control characters, console URLs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pitboard.app import App
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.hwconfig import ConfigError, check_config_main, load_config, profiles_dir

PITBOARD = Path(sys.executable).parent / "pitboard"
SIM = (profiles_dir() / "sim.toml").read_text()


def profile(tmp_path: Path, old: str = "", new: str = "", *, name: str = "table.toml") -> Path:
    text = SIM.replace(old, new, 1) if old else SIM
    assert text != SIM or not old, old
    path = tmp_path / name
    path.write_text(text)
    return path


def pitboard(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PITBOARD), *args], capture_output=True, text=True, cwd=cwd,
                          stdin=subprocess.DEVNULL, timeout=120)


def both_refuse(path: Path, tmp_path: Path) -> tuple[str, str]:
    """``check-config`` and ``run`` on ``path``: both exit 2 with one line; their lines."""
    check = pitboard("check-config", str(path), cwd=tmp_path)
    run = pitboard("run", "--config", str(path), "--journal", str(tmp_path / "j"), cwd=tmp_path)
    assert check.returncode == 2 and run.returncode == 2, (check.stderr, run.stderr)
    assert check.stdout == "" and "Traceback" not in check.stderr + run.stderr
    assert len(check.stderr.splitlines()) == 1, check.stderr
    assert len(run.stderr.splitlines()) == 1, run.stderr
    return check.stderr.strip(), run.stderr.strip()


def test_special_files_are_refused_by_check_config_and_run(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    cases = [(Path("/dev/zero"), "a character device"),
             (Path("/dev/urandom"), "a character device"),
             (fifo, "a FIFO"), (link, "a character device")]
    for path, kind in cases:
        check, run = both_refuse(path, tmp_path)
        assert check == f"{path}: not a regular file ({kind})"
        assert run.endswith(f"{path}: not a regular file ({kind})")


def test_a_huge_profile_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_bytes(b"#" * (2 << 20))
    with pytest.raises(ConfigError, match=r"huge\.toml: too large \(2097152 bytes"):
        load_config(path)


def test_deeply_nested_toml_is_one_line_from_check_config_and_run(tmp_path: Path) -> None:
    path = profile(tmp_path, "[console]", "x = " + "[" * 5000 + "]" * 5000 + "\n[console]")
    check, run = both_refuse(path, tmp_path)
    assert check == f"{path}: TOML syntax error: arrays or tables nested too deeply"
    assert run.endswith(check)


@pytest.mark.parametrize(("track", "problem"), [
    ("monaco", '"monaco": unknown track; known tracks: usa, france'),
    ("../elsewhere/ring.toml", "\"../elsewhere/ring.toml\" is outside the profile's folder"),
    ("/etc/ring.toml", "\"/etc/ring.toml\" is outside the profile's folder"),
    ("missing.toml", "missing.toml: file: cannot read (No such file or directory)"),
    ("broken.toml", "broken.toml: name: required key is missing"),
], ids=["unknown-name", "dotdot", "absolute", "missing-file", "broken-file"])
def test_check_config_checks_the_track_as_run_does(tmp_path: Path, track: str,
                                                  problem: str) -> None:
    folder = tmp_path / "profiles"
    folder.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "ring.toml").write_text(
        (profiles_dir().parent / "tracks" / "usa.toml").read_text())
    (folder / "broken.toml").write_text('key = "broken"\n')
    path = profile(folder, 'track = "usa"', f'track = "{track}"')
    check, run = both_refuse(path, tmp_path)
    assert check.startswith(f"{path}: table.track: ") and problem in check, check
    assert run.endswith(check)  # the same line, naming the profile file and the key


def test_a_track_file_beside_the_profile_is_raced_and_resumed(tmp_path: Path) -> None:
    usa = (profiles_dir().parent / "tracks" / "usa.toml").read_text()
    (tmp_path / "ring.toml").write_text(usa.replace('key = "usa"', 'key = "ring"'))
    path = profile(tmp_path, 'track = "usa"', 'track = "ring.toml"')
    assert check_config_main(str(path)) == 0
    config = load_config(path)
    assert config.table.track == str(tmp_path / "ring.toml")
    app = App.build(config, journal=tmp_path / "journal")
    app.boot()
    app.table.handle(GoPressed(station=0))
    app.table.handle(SlotPressed(station=0, slot=6))  # RACE
    assert app.table.race is not None and app.table.race.track.key == "ring"
    app.close()
    again = App.build(config, journal=tmp_path / "journal")
    again.boot()
    assert again.table.race is not None and again.table.race.track.key == "ring"
    again.close()


def test_a_newline_in_a_value_stays_on_one_line(tmp_path: Path) -> None:
    path = profile(tmp_path, 'staff_pin = "1234"', 'staff_pin = "2468\\n"')
    check, run = both_refuse(path, tmp_path)
    assert check == f'{path}: console.staff_pin: must be 4–8 digits, got "2468\\n"'
    assert run.endswith(check)
    path = profile(tmp_path, "kiosk = false", 'kiosk = "a\\u001b[2Jb"', name="t2.toml")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.problems == [f'{path}: table.kiosk: expected a boolean, '
                                  'got string "a\\x1b[2Jb"']


def test_a_table_name_with_control_characters_is_refused(tmp_path: Path) -> None:
    path = profile(tmp_path, 'name = "Pitboard simulation"', 'name = "Club\\u001b[2J"')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.problems == [f'{path}: table.name: must be printable text, '
                                  'got "Club\\x1b[2J"']


@pytest.mark.parametrize(("port", "problem"), [
    ("foo://x", 'unknown URL scheme "foo://" (pyserial knows alt://'),
    ("socket://nohost", "expected socket://HOST:PORT"),
    ("rfc2217://:99", "expected rfc2217://HOST:PORT"),
])
def test_console_port_urls_are_checked(tmp_path: Path, port: str, problem: str) -> None:
    path = profile(tmp_path, 'port = ""', f'port = "{port}"')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert len(err.value.problems) == 1
    assert err.value.problems[0].startswith(f'{path}: console.port: "{port}": {problem}')


@pytest.mark.parametrize("port", ["loop://", "socket://localhost:7000", "/dev/ttyUSB0",
                                  "spy://loop://?file=/dev/null"])
def test_good_console_ports_pass(tmp_path: Path, port: str) -> None:
    assert load_config(profile(tmp_path, 'port = ""', f'port = "{port}"')).console.port == port
