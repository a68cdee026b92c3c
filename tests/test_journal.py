"""The race journal: round trips and torn appends (journalkit.py has the shared helpers)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from journalkit import HEADER, line_offsets, load, record, write_race
from pitboard.journal import (
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Journal,
    JournalError,
)

# -- round trips ---------------------------------------------------------------------------------


def test_round_trip(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "race")
    race = journal.start(HEADER)
    for i in range(5):
        journal.append(record(i))
    journal.close()

    recovered = load(tmp_path / "race")
    assert recovered.race == race
    assert recovered.header == HEADER
    assert recovered.snapshot is None
    assert (recovered.covers, recovered.count, recovered.dropped_bytes) == (0, 5, 0)
    assert recovered.records == [record(i) for i in range(5)]


def test_load_reopens_for_appending(tmp_path: Path) -> None:
    write_race(tmp_path, 3)
    journal = Journal(tmp_path)
    assert journal.load() is not None
    assert journal.count == 3
    journal.append(record(3))
    assert load(tmp_path).records == [record(i) for i in range(4)]


def test_snapshot_then_records(tmp_path: Path) -> None:
    write_race(tmp_path, 10, snapshot_at=6)
    recovered = load(tmp_path)
    assert recovered.snapshot == {"upto": 6}
    assert recovered.covers == 6
    assert recovered.records == [record(i) for i in range(6, 10)]
    assert recovered.count == 10


def test_compact_drops_what_the_previous_snapshot_covers_and_keeps_the_rest(
        tmp_path: Path) -> None:
    write_race(tmp_path, 30, snapshot_at=10)
    journal = Journal(tmp_path)
    assert journal.load() is not None
    size_before = journal.journal_path.stat().st_size
    assert journal.records_since_snapshot == 20
    assert journal.compact() == 0  # one snapshot: the journal keeps everything (its fallback)

    journal.snapshot({"upto": 30})  # the first one becomes snapshot.json.prev
    assert journal.previous_path.exists()
    assert journal.compact() == 10  # records the previous snapshot covers
    assert journal.compact() == 0  # nothing more to drop
    assert journal.journal_path.stat().st_size < size_before
    journal.append(record(30))
    journal.snapshot({"upto": 31})
    journal.append(record(31))
    assert journal.records_since_snapshot == 1
    assert journal.compact() == 20
    journal.close()

    recovered = load(tmp_path)
    assert recovered.snapshot == {"upto": 31}
    assert (recovered.covers, recovered.count) == (31, 32)
    assert recovered.records == [record(31)]
    assert not list(tmp_path.glob("*.tmp"))


def test_a_damaged_latest_snapshot_falls_back_on_the_previous_one(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.start(HEADER)
    for i in range(30):
        journal.append(record(i))
        if i in (9, 19):
            journal.snapshot({"upto": i + 1})
            journal.compact()
    journal.close()
    snapshot = tmp_path / SNAPSHOT_NAME
    damaged = bytearray(snapshot.read_bytes())
    damaged[len(damaged) // 2] ^= 0x08
    snapshot.write_bytes(bytes(damaged))

    recovered = load(tmp_path)  # nothing is lost: previous snapshot + the records since
    assert (recovered.covers, recovered.snapshot) == (10, {"upto": 10})
    assert recovered.records == [record(i) for i in range(10, 30)]
    assert "snapshot.json is damaged" in recovered.damage
    assert "recovered from snapshot.json.prev" in recovered.damage
    assert recovered.kept_at is not None
    assert (recovered.kept_at / SNAPSHOT_NAME).read_bytes() == bytes(damaged)
    again = load(tmp_path)
    assert (again.damage, again.count) == ("", 30)
    assert not (tmp_path / "snapshot.json.prev").exists()


def test_compact_without_snapshot_is_a_no_op(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.start(HEADER)
    journal.append(record(0))
    assert journal.compact() == 0
    assert load(tmp_path).records == [record(0)]


def test_start_replaces_the_previous_race(tmp_path: Path) -> None:
    write_race(tmp_path, 8, snapshot_at=4)
    journal = Journal(tmp_path)
    journal.start({"track": "italy"})
    journal.append(record(99))
    recovered = load(tmp_path)
    assert recovered.header == {"track": "italy"}
    assert recovered.snapshot is None
    assert recovered.records == [record(99)]
    assert not (tmp_path / SNAPSHOT_NAME).exists()


def test_start_creates_missing_parent_directories(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "a" / "b")
    journal.start(HEADER)
    journal.append(record(0))
    assert load(tmp_path / "a" / "b").count == 1


def test_files_are_private(tmp_path: Path) -> None:
    write_race(tmp_path, 2, snapshot_at=1)
    for name in (JOURNAL_NAME, SNAPSHOT_NAME):
        assert (tmp_path / name).stat().st_mode & 0o077 == 0


def test_append_before_start_is_an_error(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    with pytest.raises(JournalError, match="start"):
        journal.append(record(0))
    with pytest.raises(JournalError):
        journal.snapshot({})


@pytest.mark.parametrize("bad", [["not", "an", "object"], {"x": float("nan")}, {"x": object()}])
def test_unserialisable_record_writes_nothing(tmp_path: Path, bad: Any) -> None:
    journal = Journal(tmp_path)
    journal.start(HEADER)
    journal.append(record(0))
    with pytest.raises((TypeError, ValueError)):
        journal.append(bad)
    journal.append(record(1))
    assert load(tmp_path).records == [record(0), record(1)]


def test_context_manager_closes(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.start(HEADER)
        assert journal.is_open
    assert not journal.is_open


def test_failed_fsync_cuts_the_partial_record_and_closes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal(tmp_path)
    journal.start(HEADER)
    journal.append(record(0))
    size = journal.journal_path.stat().st_size

    def failing_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError):
        journal.append(record(1))
    monkeypatch.undo()
    assert not journal.is_open
    assert journal.journal_path.stat().st_size == size
    with pytest.raises(JournalError):
        journal.append(record(1))
    assert journal.load() is not None
    journal.append(record(1))
    assert load(tmp_path).records == [record(0), record(1)]


# -- torn last record ----------------------------------------------------------------------------


def test_torn_last_record_at_every_byte_offset_is_dropped(tmp_path: Path) -> None:
    write_race(tmp_path, 4)
    path = tmp_path / JOURNAL_NAME
    full = path.read_bytes()
    offsets = line_offsets(path)
    last_start, last_end = offsets[-2], offsets[-1]

    for cut in range(last_start, last_end):
        path.write_bytes(full[:cut])
        journal = Journal(tmp_path)
        recovered = journal.load()
        assert recovered is not None, cut
        assert recovered.records == [record(i) for i in range(3)], cut
        assert recovered.dropped_bytes == cut - last_start
        assert path.stat().st_size == last_start  # truncated, so appends continue cleanly
        journal.append({"after": cut})
        journal.close()
        assert load(tmp_path).records[-1] == {"after": cut}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("corrupt-")]


@pytest.mark.parametrize("keep", [0, 7])
@pytest.mark.parametrize("fill", [b"\0", b"\xff"])
@pytest.mark.parametrize("newline", [b"", b"\n"])
def test_last_record_overwritten_by_a_power_cut_is_dropped(
    tmp_path: Path, keep: int, fill: bytes, newline: bytes
) -> None:
    """After a power cut the in-flight append may read back as a prefix followed by zeros."""
    write_race(tmp_path, 4)
    path = tmp_path / JOURNAL_NAME
    data = path.read_bytes()
    start = line_offsets(path)[-2] + keep
    path.write_bytes(data[:start] + fill * (len(data) - start - 1) + newline)
    recovered = load(tmp_path)
    assert recovered.records == [record(i) for i in range(3)]


def test_damage_spanning_more_than_the_last_line_keeps_the_intact_prefix(tmp_path: Path) -> None:
    """Only one append can be in flight, so two damaged lines mean the storage is failing: the
    records before the first bad one are kept, the damaged original is copied aside."""
    write_race(tmp_path, 4)
    path = tmp_path / JOURNAL_NAME
    data = bytearray(path.read_bytes())
    offsets = line_offsets(path)
    data[offsets[-3] + 2] ^= 0x01
    data[offsets[-2] + 2] ^= 0x01
    path.write_bytes(bytes(data))
    recovered = load(tmp_path)
    assert recovered.records == [record(0), record(1)]
    assert "1 more line" in recovered.damage and "\n" not in recovered.damage
    assert recovered.kept_at is not None
    assert (recovered.kept_at / JOURNAL_NAME).read_bytes() == bytes(data)
    assert path.read_bytes() == bytes(data[: offsets[-3]])  # the prefix, ready for appends
    assert load(tmp_path).damage == ""


def test_flipped_byte_in_the_last_record_counts_as_torn(tmp_path: Path) -> None:
    write_race(tmp_path, 3)
    path = tmp_path / JOURNAL_NAME
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x20
    path.write_bytes(bytes(data))
    assert load(tmp_path).records == [record(0), record(1)]


def test_a_journal_dropped_unclosed_gives_its_file_back(tmp_path: Path) -> None:
    """A loaded journal holds its file open for appends; one dropped without close() (a table
    torn down by an error) must not keep the descriptor: a kiosk runs all day."""
    write_race(tmp_path, 2)
    fds = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        journal = Journal(tmp_path)
        assert journal.load() is not None and journal.is_open
        del journal
    assert len(os.listdir("/proc/self/fd")) == fds
