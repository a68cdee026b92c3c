"""The journal at the table: decisions are durable before they are drawn, and a restarted table
resumes the race exactly (same decks, positions, seats and place in the flow)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PIL import Image

from disks import ReadOnlyStorage, SmallDisk
from pitboard.engine.snapshot import race_to_dict
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.journal import RESERVE_BYTES, Journal
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.recorder import JournalRecorder
from pitboard.table.screens import render
from pitboard.table.storage_problem import (
    DAMAGED_RECOVERED,
    DISK_FULL,
    READ_ONLY,
    StorageProblem,
)
from pitboard.table.table import Table


class Panel:
    """A screen that remembers its last image and how much was on disk when it was drawn."""

    def __init__(self, journal_dir: Path) -> None:
        self.journal_dir = journal_dir
        self.image: Image.Image | None = None
        self.frames = 0
        self.journal_bytes_at_show: list[int] = []

    def show(self, image: Image.Image) -> None:
        self.image = image
        self.frames += 1
        path = self.journal_dir / "journal.log"
        self.journal_bytes_at_show.append(path.stat().st_size if path.exists() else 0)


def make_table(directory: Path, *, stations: int = 3, seed: int = 4,
               snapshot_every: int = 64) -> tuple[Table, JournalRecorder, list[Panel]]:
    recorder = JournalRecorder(Journal(directory), snapshot_every=snapshot_every)
    panels = [Panel(directory) for _ in range(stations)]
    table = Table(stations=stations, screens=panels, render=render, seed=seed,
                  recorder=recorder, clock=lambda: 0.0)
    return table, recorder, panels


def start(table: Table, players: int, *, cars: int = 4, laps: int = 1) -> None:
    for i in range(players):
        table.handle(GoPressed(station=i))
    table.start_race(track="usa", laps=laps, cars=cars)
    table.refresh()


def play(table: Table, *, decisions: int | None = None) -> None:
    """Press buttons like the players would until ``decisions`` are logged or the race ends."""
    presses = 0
    while table.race is not None and not table.race.over:
        if decisions is not None and len(table.race.log) >= decisions:
            return
        event = next_input(table)
        assert event is not None, table.state
        table.handle(event)
        presses += 1
        assert presses < 20000


def reopen(directory: Path, **kwargs: int) -> tuple[Table, JournalRecorder, list[Panel]]:
    table, recorder, panels = make_table(directory, **kwargs)
    saved = recorder.recover()
    assert saved is not None and not saved.ended
    table.restore(saved)
    return table, recorder, panels


def test_a_resumed_race_is_the_same_race(tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    play(table, decisions=37)
    assert table.race is not None
    before = race_to_dict(table.race)
    state, seats = table.state, [st.car for st in table.stations]

    again, _, panels = reopen(tmp_path)
    assert again.race is not None
    assert race_to_dict(again.race) == before
    assert again.state == state
    assert [st.car for st in again.stations] == seats
    assert again.bots.keys() == table.bots.keys()
    # every station redrawn, with the same screen as before the restart
    for i, panel in enumerate(panels):
        assert panel.image is not None, f"station {i} not redrawn"
        assert again.views[i] == table.views[i]


def test_a_resumed_race_finishes_like_an_uninterrupted_one(tmp_path: Path) -> None:
    straight, _, _ = make_table(tmp_path / "a")
    start(straight, 2)
    play(straight)

    table, _, _ = make_table(tmp_path / "b", snapshot_every=8)
    start(table, 2)
    for stop in (5, 19, 40, 41, 77):
        play(table, decisions=stop)
        table, _, _ = reopen(tmp_path / "b", snapshot_every=8)
    play(table)
    assert straight.race is not None and table.race is not None
    assert race_to_dict(table.race) == race_to_dict(straight.race)
    assert table.state == flow.RESULTS


def test_decisions_are_on_disk_before_the_screens_show_them(tmp_path: Path) -> None:
    table, recorder, panels = make_table(tmp_path)
    start(table, 2)
    journal = tmp_path / "journal.log"
    for _ in range(300):
        event = next_input(table)
        if event is None:
            break
        shown = [p.frames for p in panels]
        table.handle(event)
        size = journal.stat().st_size
        for panel, frames in zip(panels, shown, strict=True):
            if panel.frames > frames:
                # the frame was handed over with everything already fsynced
                assert panel.journal_bytes_at_show[-1] == size
        assert not recorder.pending


def test_undo_is_journalled(tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    play(table, decisions=12)
    table.undo()
    assert table.race is not None
    after_undo = race_to_dict(table.race)
    again, _, _ = reopen(tmp_path)
    assert again.race is not None and race_to_dict(again.race) == after_undo


def test_results_come_back_until_dismissed(tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 1, cars=2)
    play(table)
    assert table.state == flow.RESULTS
    again, recorder, _ = reopen(tmp_path)
    assert again.state == flow.RESULTS
    assert again.views[0] is not None and again.views[0].kind == "results"
    again.handle(GoPressed(station=0))  # NEXT
    assert again.state == flow.LOBBY
    saved = recorder.recover()
    assert saved is not None and saved.ended


def test_reset_ends_the_journalled_race(tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    play(table, decisions=10)
    table.do_reset()
    saved = JournalRecorder(Journal(tmp_path)).recover()
    assert saved is not None and saved.ended


def damage_record(journal: Path, index: int) -> bytes:
    """Flip one bit in the middle of journal line ``index`` (0 is the header)."""
    data = bytearray(journal.read_bytes())
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    data[(starts[index] + starts[index + 1]) // 2] ^= 0x04
    journal.write_bytes(bytes(data))
    return bytes(data)


def test_a_damaged_journal_keeps_every_decision_before_the_damage(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    play(table, decisions=20)
    assert table.race is not None
    decisions = list(table.race.log)
    journal = tmp_path / "journal.log"
    lines = journal.read_bytes().count(b"\n")
    assert lines == 1 + len(decisions)  # header + one record per decision, nothing compacted
    damaged = damage_record(journal, 13)  # the 13th decision

    fresh, recorder, _ = make_table(tmp_path)
    with caplog.at_level(logging.ERROR):
        saved = recorder.recover()
    assert saved is not None and saved.log == decisions[:12]
    assert recorder.problem == StorageProblem(DAMAGED_RECOVERED, 12)
    assert str(recorder.problem) == "journal damaged: 12 recovered"  # as the lobby says it
    message = next(r.getMessage() for r in caplog.records if "recovered 12" in r.getMessage())
    assert "damaged record 13 (line 14" in message and "kept in" in message
    (aside,) = tmp_path.glob("corrupt-*")
    assert (aside / "journal.log").read_bytes() == damaged
    fresh.restore(saved)  # the race goes on from the last intact decision
    assert fresh.race is not None and fresh.race.log[:12] == decisions[:12]  # bots move on
    play(fresh)  # ... and is journalled again, after the intact prefix
    finished = JournalRecorder(Journal(tmp_path)).recover()
    assert finished is not None and finished.log == fresh.race.log


@pytest.mark.parametrize(("bad", "why"), [
    ({"undo": -3}, "undo to -3 outside 0..6"),
    ({"undo": 7}, "undo to 7 outside 0..6"),
    ({"undo": True}, "undo to True outside 0..6"),
    ({"bot": 9}, "bot seat 9 outside cars 0..3"),
    ({"human": -1}, "human seat -1 outside cars 0..3"),
    ({"d": {"kind": "plan", "car": 0, "gear": 4, "cards": []}}, "a decision the race refuses"),
    ({"d": {"kind": "jump", "car": 0}}, "a decision the race refuses"),
    ({"teleport": 3}, "unknown journal record 'teleport'"),
    ({"undo": 2, "bot": 1}, "not a journal record (bot, undo)"),
], ids=["negative-undo", "undo-past-log", "undo-bool", "bot-seat", "human-seat", "illegal-plan",
        "bad-decision", "unknown", "two-kinds"])
def test_a_record_outside_its_range_is_damage(tmp_path: Path, bad: dict[str, object],
                                             why: str) -> None:
    """A well-framed record with a valid checksum but an impossible value (``{"undo": -3}``
    once silently dropped decisions): the records before it are kept, it and what follows are
    cut off, and the original is kept aside."""
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    play(table, decisions=6)
    assert table.race is not None
    decisions = list(table.race.log)
    with Journal(tmp_path) as journal:
        assert journal.load() is not None
        journal.append(bad)
        journal.append({"undo": 0})  # after the damage: not applied
    fresh, recorder, _ = make_table(tmp_path)
    saved = recorder.recover()
    assert saved is not None and saved.log == decisions
    assert recorder.problem == StorageProblem(DAMAGED_RECOVERED, 6)
    (aside,) = tmp_path.glob("corrupt-*")
    assert b"undo\":0" in (aside / "journal.log").read_bytes()
    assert b"undo\":0" not in (tmp_path / "journal.log").read_bytes()
    fresh.restore(saved)
    assert fresh.race is not None and fresh.race.log[:len(decisions)] == decisions
    again = JournalRecorder(Journal(tmp_path))
    assert again.recover() is not None and again.problem is None  # the cut journal is clean


def test_a_torn_last_record_is_dropped(tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    play(table, decisions=15)
    journal = tmp_path / "journal.log"
    with journal.open("ab") as f:
        f.write(b"57 0badc0de {\"d\":")  # the power went mid-append
    again, _, _ = reopen(tmp_path)
    assert again.race is not None and table.race is not None
    assert race_to_dict(again.race) == race_to_dict(table.race)


def test_lobby_presses_are_not_journalled(tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path)
    table.handle(GoPressed(station=0))
    table.handle(SlotPressed(station=0, slot=0))
    assert not (tmp_path / "journal.log").exists()


def test_selections_in_progress_are_not_journalled(tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    journal = tmp_path / "journal.log"
    size = journal.stat().st_size
    for slot in (0, 1, 0, 2):  # toggling cards on the tray
        table.handle(SlotPressed(station=0, slot=slot))
    assert table.stations[0].selected
    assert journal.stat().st_size == size


def test_a_read_only_disk_resumes_the_race_without_saving_and_says_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    table, _, _ = make_table(tmp_path)
    start(table, 2)
    play(table, decisions=10)
    assert table.race is not None
    decisions = list(table.race.log)
    on_disk = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())

    recorder = JournalRecorder(Journal(tmp_path, storage=ReadOnlyStorage()))
    fresh = Table(stations=3, recorder=recorder, clock=lambda: 0.0, seed=4)
    with caplog.at_level(logging.ERROR):
        saved = recorder.recover()
    assert saved is not None and saved.log == decisions
    # not "damaged", not "moved aside": what happened
    assert recorder.problem == StorageProblem(READ_ONLY)
    assert any("the race resumes, but is not saved" in r.getMessage() for r in caplog.records)
    assert not any("corrupt" in r.getMessage() for r in caplog.records)
    fresh.restore(saved)
    play(fresh)  # the race goes on to the end, from memory
    assert fresh.race is not None and fresh.race.over
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == on_disk


def test_a_full_disk_is_announced_in_the_lobby_before_the_race(tmp_path: Path) -> None:
    disk = SmallDisk(tmp_path, capacity=RESERVE_BYTES + 256 * 1024)
    (tmp_path / "filler").write_bytes(b"x" * (512 * 1024))  # less than the reserve is free
    recorder = JournalRecorder(Journal(tmp_path, storage=disk))
    table = Table(stations=2, recorder=recorder, clock=lambda: 0.0, seed=4)
    recorder.prepare()  # App.boot does this
    table.refresh()
    view = table.views[0]
    assert view is not None and "disk full: race won't be saved" in view.lines
    assert recorder.problem == StorageProblem(DISK_FULL)
    (tmp_path / "filler").unlink()  # staff make room
    start(table, 1, cars=2)
    assert recorder.problem is None and (tmp_path / "reserve").exists()
    play(table)
    assert table.race is not None and table.race.over


def test_a_bad_record_after_snapshots_and_compaction_keeps_everything_before_it(
        tmp_path: Path) -> None:
    table, _, _ = make_table(tmp_path, snapshot_every=8)
    start(table, 2)
    play(table, decisions=40)
    assert table.race is not None
    decisions = list(table.race.log)
    assert (tmp_path / "snapshot.json.prev").exists()  # compacted at least twice
    with Journal(tmp_path) as journal:
        assert journal.load() is not None
        journal.append({"undo": -3})
    fresh, recorder, _ = make_table(tmp_path, snapshot_every=8)
    saved = recorder.recover()
    assert saved is not None and saved.log == decisions
    assert recorder.problem == StorageProblem(DAMAGED_RECOVERED, len(decisions))
    fresh.restore(saved)
    play(fresh)
    finished = JournalRecorder(Journal(tmp_path)).recover()
    assert finished is not None and fresh.race is not None and finished.log == fresh.race.log


def test_single_bit_flips_lose_nothing_before_the_damage(tmp_path: Path) -> None:
    """The regression the issue measured (4,511 intact decisions lost over 80 single-bit
    flips): every flip, in the journal, its header copy or a snapshot, recovers a prefix of the
    race's decisions at least as long as every decision recorded before the damaged byte; a
    flip in the header line or in its copy loses nothing."""
    import random
    import shutil

    race_dir = tmp_path / "race"
    table, _, _ = make_table(race_dir, snapshot_every=16)
    start(table, 2)
    play(table)
    assert table.race is not None
    decisions = list(table.race.log)
    files = sorted(p.name for p in race_dir.iterdir() if p.name.startswith(("journal", "snapshot")))
    assert files == ["journal.log", "journal.log.head", "snapshot.json", "snapshot.json.prev"]
    rng = random.Random(13)
    for trial in range(32):
        name = files[trial % 4]
        data = bytearray((race_dir / name).read_bytes())
        # every other flip in journal.log aims at its header line (mended from its copy)
        header_end = data.index(b"\n") + 1
        at = rng.randrange(header_end if name == "journal.log" and trial % 8 == 0 else len(data))
        header = name == "journal.log" and at < header_end
        data[at] ^= 1 << rng.randrange(8)
        copy = tmp_path / f"t{trial}"
        shutil.copytree(race_dir, copy)
        (copy / name).write_bytes(bytes(data))
        saved = JournalRecorder(Journal(copy)).recover()
        assert saved is not None, (name, at)
        assert saved.log == decisions[: len(saved.log)], (name, at)  # a prefix, never another race
        if header or name == "journal.log.head":
            assert saved.log == decisions, (name, at)  # the header has a copy: nothing is lost
            continue
        ideal = tmp_path / f"i{trial}"
        shutil.copytree(race_dir, ideal)
        if name == "journal.log":  # what a perfect recovery keeps: the lines before the flip
            (ideal / name).write_bytes(bytes(data[: data.rfind(b"\n", 0, at) + 1]))
        best = JournalRecorder(Journal(ideal)).recover()
        assert best is not None and len(saved.log) >= len(best.log), (name, at)
