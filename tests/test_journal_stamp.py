"""Versioned journals: a race saved under other rules or data is put away, never replayed.

Every journal header carries the race's stamp (pitboard.engine.stamp). On start a journal with
a wrong stamp, with none (today's format before stamps) or whose data files were edited since
is moved, intact, to ``other-version-*``; the table starts in the lobby and says so on the
console (the log), the lobby's status line and systemd's STATUS.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pitboard import trackfile
from pitboard.app import App
from pitboard.engine import Plan, RaceSetup
from pitboard.engine.stamp import RULES_VERSION, race_stamp, registered, stamp_change
from pitboard.hw.events import GoPressed
from pitboard.hwconfig import load_profile
from pitboard.journal import JOURNAL_NAME, Journal, Storage
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.recorder import JournalRecorder
from pitboard.table.storage_problem import OTHER_VERSION, OTHER_VERSION_KEPT, StorageProblem
from pitboard.table.table import Table
from profilekit import sim_without_web

TIMEOUT = 60.0  # a bound on a blocking read, never a sleep
SEATS = [0, 1, None, None, None, None]


def play(directory: Path, decisions: int = 30, *, journal: Journal | None = None) -> Table:
    """A 4-car USA race on a journalled table, ``decisions`` inputs in."""
    table = Table(stations=6, recorder=JournalRecorder(journal or Journal(directory)), seed=3)
    table.handle(GoPressed(station=0))
    table.start_race(track="usa", laps=1, cars=4)
    table.refresh()
    for _ in range(decisions):
        event = next_input(table)
        assert event is not None
        table.handle(event)
    return table


def header_of(directory: Path) -> dict[str, object]:
    first = (directory / JOURNAL_NAME).read_bytes().split(b"\n", 1)[0]
    header: dict[str, object] = json.loads(first.split(b" ", 2)[2])["header"]
    return header


def write_journal(directory: Path, header: dict[str, object]) -> bytes:
    """A journal of a 2-car race with one decision, under ``header``; returns its bytes."""
    journal = Journal(directory)
    journal.start(header)
    journal.append({"d": {"type": "plan", "car": 0, "gear": 2, "cards": ["1", "2"]}})
    journal.close()
    return (directory / JOURNAL_NAME).read_bytes()


def usa_header(**stamp: object) -> dict[str, object]:
    setup = RaceSetup(track="usa", cars=2, seed=1)
    return {"setup": setup.to_dict(), "seats": [0, 1], **stamp}


def boot(directory: Path) -> App:
    app = App.build(load_profile("sim"), journal=directory, seed=1)
    app.boot()
    return app


def put_away(directory: Path) -> list[Path]:
    return sorted(directory.glob("other-version-*"))


# ------------------------------------------------------------------ the stamp itself
def test_the_stamp_names_rules_and_data_and_is_stable() -> None:
    setup = RaceSetup(track="usa", cars=3, seed=9)
    stamp = race_stamp(setup)
    assert stamp["rules"] == RULES_VERSION
    assert sorted(stamp["data"]) == ["base.cards", "base.track"]
    assert race_stamp(setup) == stamp and stamp_change(stamp, setup) is None
    # another track is other data; the seed and car count are not data
    assert race_stamp(RaceSetup(track="italy", cars=3))["data"]["base.track"] != \
        stamp["data"]["base.track"]
    assert race_stamp(RaceSetup(track="usa", cars=5, seed=1)) == stamp


def test_a_module_registers_its_data_and_only_its_races_depend_on_it(tmp_path: Path) -> None:
    data = tmp_path / "upgrades.toml"
    data.write_text("[[card]]\ncode = 'X'\n")
    with registered("testmod", "upgrades", data), registered("testmod", "rules", "testmod-1"):
        plain = race_stamp(RaceSetup(track="usa"))
        assert "testmod.upgrades" not in plain["data"]  # a base race does not use testmod
        with_module = race_stamp(RaceSetup(track="usa", modules={"testmod": {}}))
        assert {"testmod.upgrades", "testmod.rules"} <= set(with_module["data"])
    assert "testmod.upgrades" not in race_stamp(RaceSetup(track="usa"))["data"]


# ------------------------------------------------------------------ resuming
def test_a_race_resumes_under_the_same_stamp(tmp_path: Path) -> None:
    directory = tmp_path / "journal"
    table = play(directory)
    assert table.race is not None
    header = header_of(directory)
    assert header["stamp"] == race_stamp(table.race.setup)
    app = boot(directory)
    assert app.table.race is not None and app.table.race.log == table.race.log
    assert app.recorder.problem is None and put_away(directory) == []
    app.close()


@pytest.mark.parametrize(("stamp", "why"), [
    ({"stamp": {"rules": RULES_VERSION - 1, "data": {}}}, "under rules version 1"),
    ({"stamp": {"rules": RULES_VERSION, "data": {"base.cards": "0" * 16}}}, "data changed"),
    ({"stamp": "nonsense"}, "without a rules stamp"),
    ({}, "without a rules stamp"),  # a journal in the format before stamps
], ids=["wrong-rules", "wrong-data", "malformed", "missing"])
def test_a_journal_with_another_or_no_stamp_is_put_away_and_the_table_starts_in_the_lobby(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, stamp: dict[str, object],
        why: str) -> None:
    directory = tmp_path / "journal"
    original = write_journal(directory, usa_header(**stamp))
    for attempt in range(2):  # the next start finds nothing to trip on: never a crash loop
        app = boot(directory)
        assert app.table.state == flow.LOBBY and app.table.race is None
        view = app.table.views[0]
        assert view is not None and view.kind == "lobby"
        assert (view.lines[1] == str(StorageProblem(OTHER_VERSION))) == (attempt == 0)
        assert app.recorder.problem == (StorageProblem(OTHER_VERSION) if attempt == 0 else None)
        app.close()
    (aside,) = put_away(directory)
    assert (aside / JOURNAL_NAME).read_bytes() == original  # kept whole, never deleted
    assert not (directory / JOURNAL_NAME).exists() and list(directory.glob("corrupt-*")) == []
    said = [r.getMessage() for r in caplog.records if "not resumed" in r.getMessage()]
    assert len(said) == 1 and why in said[0] and str(aside) in said[0] and "\n" not in said[0]


def test_a_race_whose_data_file_was_edited_since_is_put_away(tmp_path: Path) -> None:
    directory = tmp_path / "journal"
    data = tmp_path / "weather.toml"
    data.write_text("[[token]]\nkind = 'rain'\n")
    with registered("base", "weather", data):
        play(directory)
        data.write_text("[[token]]\nkind = 'rain'\ncooldown = 1\n")  # an owner's correction
        app = boot(directory)
    assert app.table.race is None and app.recorder.problem == StorageProblem(OTHER_VERSION)
    (aside,) = put_away(directory)
    assert (aside / JOURNAL_NAME).exists()
    app.close()


def test_a_race_on_an_edited_track_file_is_put_away(tmp_path: Path) -> None:
    track = tmp_path / "home.toml"
    text = (Path(trackfile.__file__).parent / "tracks" / "usa.toml").read_text()
    track.write_text(text)
    setup = RaceSetup(track=str(track), cars=2, seed=4, laps=1)
    directory = tmp_path / "journal"
    recorder = JournalRecorder(Journal(directory))
    recorder.race_started(setup, SEATS)
    recorder.decision(Plan(0, 1, ("1",)))
    recorder.flush(None, ())
    assert JournalRecorder(Journal(directory)).recover() is not None  # same file: resumes
    track.write_text(text.replace('name = "USA"', 'name = "USA (home print)"'))
    again = JournalRecorder(Journal(directory))
    assert again.recover() is None and again.problem == StorageProblem(OTHER_VERSION)
    assert len(put_away(directory)) == 1


class NoRename(Storage):
    """A disk where nothing can be moved (as on a read-only or damaged filesystem)."""

    def replace(self, source: Path, target: Path) -> None:
        if target.parent.name.startswith("other-version-"):
            raise OSError(errno.EROFS, "Read-only file system")
        super().replace(source, target)


def test_a_race_that_cannot_be_put_away_is_kept_and_never_overwritten(tmp_path: Path) -> None:
    directory = tmp_path / "journal"
    original = write_journal(directory, usa_header())
    recorder = JournalRecorder(Journal(directory, storage=NoRename()))
    assert recorder.recover() is None and recorder.problem == StorageProblem(OTHER_VERSION_KEPT)
    table = Table(stations=6, recorder=recorder, seed=3)
    table.handle(GoPressed(station=0))
    table.start_race(track="usa", laps=1, cars=2)  # a new race plays, but is not saved
    assert table.race is not None
    assert (directory / JOURNAL_NAME).read_bytes() == original


# ------------------------------------------------------------------ what staff see
def test_pitboard_run_says_it_in_one_line_and_in_systemctl_status(
        tmp_path: Path, notify_socket: socket.socket) -> None:
    directory = tmp_path / "journal"
    write_journal(directory, usa_header())
    env = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify"))
    proc = subprocess.Popen([sys.executable, "-m", "pitboard.cli", "run", "--config",
                             sim_without_web(tmp_path), "--journal", str(directory)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen: list[str] = []
        while not any(m.startswith("STATUS=") for m in seen):
            seen.extend(notify_socket.recv(4096).decode().split("\n"))
        proc.terminate()
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    assert "STATUS=lobby; old race set aside: new version" in seen
    lines = [line for line in err.splitlines() if "not resumed" in line]
    assert len(lines) == 1 and "without a rules stamp" in lines[0], err
    assert "Traceback" not in err
