"""The race journal: round trips, torn appends, corruption, garbage on disk, and a real SIGKILL."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from disks import ReadOnlyStorage, SmallDisk
from pitboard import journal as journal_module
from pitboard.journal import (
    HEAD_NAME,
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Journal,
    JournalCorrupted,
    JournalError,
    Recovered,
    Storage,
)

HEADER = {"track": "usa", "players": ["ana", "ben", "cho"], "laps": 2}


def record(i: int) -> dict[str, Any]:
    return {"i": i, "player": i % 3, "gear": 1 + i % 4, "cards": [i, i + 1], "note": "é" * (i % 3)}


def write_race(directory: Path, n: int, *, snapshot_at: int | None = None) -> Journal:
    journal = Journal(directory)
    journal.start(HEADER)
    for i in range(n):
        if snapshot_at is not None and i == snapshot_at:
            journal.snapshot({"upto": i})
        journal.append(record(i))
    if snapshot_at == n:
        journal.snapshot({"upto": n})
    journal.close()
    return journal


def load(directory: Path) -> Recovered:
    recovered = Journal(directory).load()
    assert recovered is not None
    return recovered


def line_offsets(path: Path) -> list[int]:
    """Byte offset where each line starts, plus the end of the file."""
    data = path.read_bytes()
    offsets = [0]
    for i, byte in enumerate(data):
        if byte == ord("\n"):
            offsets.append(i + 1)
    return offsets


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


# -- corruption ----------------------------------------------------------------------------------


def assert_moved_aside(err: JournalCorrupted, directory: Path, *names: str) -> None:
    assert "\n" not in err.message
    assert err.message.startswith("journal corrupted: ")
    assert err.moved_to is not None
    assert err.moved_to.parent == directory
    assert err.moved_to.name.startswith("corrupt-")
    assert str(err.moved_to) in err.message
    for name in names:
        assert (err.moved_to / name).exists(), name
        assert not (directory / name).exists(), name


def test_flipped_bit_in_a_middle_record_keeps_every_record_before_it(tmp_path: Path) -> None:
    write_race(tmp_path, 5)
    path = tmp_path / JOURNAL_NAME
    original = path.read_bytes()
    offsets = line_offsets(path)
    middle = range(offsets[2], offsets[3] - 1)  # record 1 of 0..4 (line 0 is the header)

    for position in middle:
        for bit in (0x01, 0x80):
            damaged = bytearray(original)
            damaged[position] ^= bit
            path.write_bytes(bytes(damaged))
            journal = Journal(tmp_path, keep_corrupt=100)
            recovered = journal.load()
            assert recovered is not None
            assert recovered.records == [record(0)]
            assert "damaged record 2 (line 3" in recovered.damage
            assert recovered.kept_at is not None
            assert (recovered.kept_at / JOURNAL_NAME).read_bytes() == bytes(damaged)
            journal.append(record(1))  # the race goes on from the intact prefix
            journal.close()
            assert load(tmp_path).records == [record(0), record(1)]


def test_after_corruption_a_new_race_starts(tmp_path: Path) -> None:
    write_race(tmp_path, 3)
    path = tmp_path / JOURNAL_NAME
    data = bytearray(path.read_bytes())
    data[line_offsets(path)[1] + 3] ^= 0x40
    path.write_bytes(bytes(data))
    journal = Journal(tmp_path)
    recovered = journal.load()
    assert recovered is not None and recovered.records == [] and recovered.damage
    journal.start(HEADER)
    journal.append(record(0))
    assert load(tmp_path).records == [record(0)]


def test_unreadable_header_without_its_copy_moves_the_race_aside(tmp_path: Path) -> None:
    write_race(tmp_path, 3)
    path = tmp_path / JOURNAL_NAME
    data = bytearray(path.read_bytes())
    data[5] ^= 0x01
    path.write_bytes(bytes(data))
    (tmp_path / HEAD_NAME).unlink()
    with pytest.raises(JournalCorrupted) as caught:
        Journal(tmp_path).load()
    assert_moved_aside(caught.value, tmp_path, JOURNAL_NAME)


def test_any_damaged_byte_of_the_header_is_mended_from_its_copy(tmp_path: Path) -> None:
    """One flipped bit anywhere in the header line (its newline included) loses nothing:
    journal.log.head holds a copy, and the damaged original is kept in corrupt-*."""
    race = tmp_path / "race"
    write_race(race, 3, snapshot_at=2)
    intact = (race / JOURNAL_NAME).read_bytes()
    assert (race / HEAD_NAME).read_bytes() == intact[: intact.index(b"\n") + 1]
    for at in range(intact.index(b"\n") + 1):
        copy = tmp_path / f"t{at}"
        shutil.copytree(race, copy)
        data = bytearray(intact)
        data[at] ^= 1 << (at % 8)
        (copy / JOURNAL_NAME).write_bytes(bytes(data))
        recovered = load(copy)
        assert recovered.records == [record(2)] and recovered.covers == 2, at
        assert recovered.damage == "damaged header of journal.log mended from journal.log.head"
        assert (copy / JOURNAL_NAME).read_bytes() == intact, at
        assert recovered.kept_at is not None
        assert (recovered.kept_at / JOURNAL_NAME).read_bytes() == bytes(data)


def test_a_header_copy_of_another_race_is_never_used(tmp_path: Path) -> None:
    write_race(tmp_path / "other", 1)
    write_race(tmp_path / "race", 3)
    shutil.copy(tmp_path / "other" / HEAD_NAME, tmp_path / "race" / HEAD_NAME)
    path = tmp_path / "race" / JOURNAL_NAME
    data = bytearray(path.read_bytes())
    data[5] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupted, match="no readable header"):
        Journal(tmp_path / "race").load()


def test_a_damaged_or_missing_header_copy_is_rewritten_at_load(tmp_path: Path) -> None:
    write_race(tmp_path, 3)
    head = tmp_path / HEAD_NAME
    good = head.read_bytes()
    head.write_bytes(good[:-5] + b"xxxx\n")
    assert load(tmp_path).damage == ""  # the journal itself is intact
    assert head.read_bytes() == good
    head.unlink()  # a journal written before the copy existed
    assert load(tmp_path).records == [record(i) for i in range(3)]
    assert head.read_bytes() == good


def test_compaction_keeps_the_header_copy_in_step(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.start(HEADER)
    for i in range(6):
        if i in (2, 4):
            journal.snapshot({"upto": i})
        journal.append(record(i))
    assert journal.compact() == 2
    journal.close()
    data = (tmp_path / JOURNAL_NAME).read_bytes()
    assert (tmp_path / HEAD_NAME).read_bytes() == data[: data.index(b"\n") + 1]


def test_header_of_a_foreign_file(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_NAME).write_bytes(journal_module.encode_frame({"hello": "world"}))
    with pytest.raises(JournalCorrupted, match="not a pitboard journal header"):
        Journal(tmp_path).load()


def test_damaged_snapshot_of_an_uncompacted_journal_is_dropped(tmp_path: Path) -> None:
    write_race(tmp_path, 6, snapshot_at=3)
    snapshot = tmp_path / SNAPSHOT_NAME
    data = bytearray(snapshot.read_bytes())
    data[len(data) // 2] ^= 0x01
    snapshot.write_bytes(bytes(data))
    recovered = load(tmp_path)  # every record is still in the journal
    assert recovered.snapshot is None
    assert recovered.records == [record(i) for i in range(6)]
    assert "snapshot.json is damaged" in recovered.damage
    assert recovered.kept_at is not None
    assert (recovered.kept_at / SNAPSHOT_NAME).read_bytes() == bytes(data)
    assert not snapshot.exists()


def test_both_snapshots_of_a_compacted_journal_damaged_moves_the_files_aside(
        tmp_path: Path) -> None:
    write_race(tmp_path, 6, snapshot_at=3)
    journal = Journal(tmp_path)
    assert journal.load() is not None
    journal.snapshot({"upto": 6})
    assert journal.compact() == 3
    journal.close()
    for name in (SNAPSHOT_NAME, "snapshot.json.prev"):
        snapshot = tmp_path / name
        data = bytearray(snapshot.read_bytes())
        data[len(data) // 2] ^= 0x01
        snapshot.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupted, match=r"snapshot\.json is damaged") as caught:
        Journal(tmp_path).load()
    assert_moved_aside(caught.value, tmp_path, JOURNAL_NAME, SNAPSHOT_NAME, "snapshot.json.prev")


def test_snapshot_ahead_of_the_journal_keeps_the_snapshot(tmp_path: Path) -> None:
    write_race(tmp_path, 6, snapshot_at=6)
    path = tmp_path / JOURNAL_NAME
    path.write_bytes(path.read_bytes()[: line_offsets(path)[4]])  # keep 3 records
    recovered = load(tmp_path)
    assert "snapshot covers 6 records" in recovered.damage
    assert (recovered.covers, recovered.snapshot, recovered.records) == (6, {"upto": 6}, [])
    again = load(tmp_path)
    assert (again.count, again.damage) == (6, "")


def test_compacted_journal_without_its_snapshot(tmp_path: Path) -> None:
    write_race(tmp_path, 6, snapshot_at=4)
    journal = Journal(tmp_path)
    assert journal.load() is not None
    journal.snapshot({"upto": 6})
    assert journal.compact() == 4
    journal.close()
    (tmp_path / SNAPSHOT_NAME).unlink()
    (tmp_path / "snapshot.json.prev").unlink()
    with pytest.raises(JournalCorrupted, match="no usable snapshot"):
        Journal(tmp_path).load()


def test_snapshot_without_journal(tmp_path: Path) -> None:
    write_race(tmp_path, 2, snapshot_at=1)
    (tmp_path / JOURNAL_NAME).unlink()
    with pytest.raises(JournalCorrupted, match=r"journal\.log is missing"):
        Journal(tmp_path).load()


def test_stale_snapshot_of_an_earlier_race_is_discarded(tmp_path: Path) -> None:
    """A crash inside start(): new journal in place, old race's snapshot not yet removed."""
    write_race(tmp_path, 5, snapshot_at=5)
    old_snapshot = (tmp_path / SNAPSHOT_NAME).read_bytes()
    journal = Journal(tmp_path)
    journal.start({"track": "france"})
    journal.append(record(0))
    journal.close()
    (tmp_path / SNAPSHOT_NAME).write_bytes(old_snapshot)

    recovered = load(tmp_path)
    assert recovered.header == {"track": "france"}
    assert recovered.snapshot is None
    assert recovered.records == [record(0)]
    assert not (tmp_path / SNAPSHOT_NAME).exists()


def test_corrupt_directories_are_bounded(tmp_path: Path) -> None:
    for _ in range(4):
        (tmp_path / JOURNAL_NAME).write_bytes(b"junk\njunk\n")
        with pytest.raises(JournalCorrupted):
            Journal(tmp_path, keep_corrupt=2).load()
    corrupt = [p for p in tmp_path.iterdir() if p.name.startswith("corrupt-")]
    assert len(corrupt) == 2


# -- garbage on disk -----------------------------------------------------------------------------


def test_missing_directory_and_empty_directory(tmp_path: Path) -> None:
    assert Journal(tmp_path / "nowhere").load() is None
    assert Journal(tmp_path).load() is None


@pytest.mark.parametrize(
    ("journal_bytes", "snapshot_bytes"),
    [
        (b"", None),
        (b"\n", None),
        (os.urandom(4096), None),
        (b"\0" * 4096, None),
        (b'12 deadbeef {"a":1}\n', None),
        (b"99999999999999999999 00000000 x\n", None),
    ],
    ids=[
        "empty",
        "newline",
        "random",
        "zeros",
        "bad-crc",
        "huge-length",
    ],
)
def test_garbage_files_are_moved_aside(
    tmp_path: Path, journal_bytes: bytes | None, snapshot_bytes: bytes | None
) -> None:
    write_race(tmp_path, 3)
    if journal_bytes is not None:
        (tmp_path / JOURNAL_NAME).write_bytes(journal_bytes)
    if snapshot_bytes is not None:
        (tmp_path / SNAPSHOT_NAME).write_bytes(snapshot_bytes)
    with pytest.raises(JournalCorrupted) as caught:
        Journal(tmp_path).load()
    assert_moved_aside(caught.value, tmp_path, JOURNAL_NAME)
    assert Journal(tmp_path).load() is None


@pytest.mark.parametrize("snapshot_bytes", [b"", os.urandom(300), b"\n\n\n"],
                         ids=["empty", "random", "newlines"])
def test_garbage_snapshot_is_dropped_and_the_records_kept(
        tmp_path: Path, snapshot_bytes: bytes) -> None:
    write_race(tmp_path, 3)
    (tmp_path / SNAPSHOT_NAME).write_bytes(snapshot_bytes)
    recovered = load(tmp_path)
    assert recovered.records == [record(i) for i in range(3)] and recovered.snapshot is None
    assert recovered.damage.startswith("snapshot.json")


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "fifo"])
def test_journal_that_is_not_a_regular_file_is_set_aside(tmp_path: Path, target: str) -> None:
    """A link to a device or a FIFO in place of the journal: never read, never a hang or a
    crash loop; moved aside, and the next race starts afresh."""
    write_race(tmp_path, 3)
    (tmp_path / JOURNAL_NAME).unlink()
    if target == "fifo":
        os.mkfifo(tmp_path / JOURNAL_NAME)
    else:
        (tmp_path / JOURNAL_NAME).symlink_to(target)
    with pytest.raises(JournalCorrupted, match="not a regular file") as caught:
        Journal(tmp_path).load()
    assert_moved_aside(caught.value, tmp_path, JOURNAL_NAME)
    journal = Journal(tmp_path)
    assert journal.load() is None
    journal.start(HEADER)
    journal.append(record(0))
    assert load(tmp_path).records == [record(0)]


def test_journal_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_NAME).mkdir()
    with pytest.raises(JournalCorrupted) as caught:
        Journal(tmp_path).load()
    assert_moved_aside(caught.value, tmp_path, JOURNAL_NAME)


def test_leftover_temp_files_are_ignored(tmp_path: Path) -> None:
    write_race(tmp_path, 4, snapshot_at=2)
    (tmp_path / (SNAPSHOT_NAME + ".tmp")).write_bytes(b"half a snaps")
    (tmp_path / (JOURNAL_NAME + ".tmp")).write_bytes(os.urandom(100))
    recovered = load(tmp_path)
    assert recovered.snapshot == {"upto": 2}
    assert recovered.records == [record(2), record(3)]
    assert not list(tmp_path.glob("*.tmp"))


# -- property: whatever happens to the bytes, load() recovers a prefix or reports corruption ------

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
json_records = st.dictionaries(
    st.text(max_size=8),
    json_scalars | st.lists(json_scalars, max_size=4),
    max_size=4,
)


@st.composite
def damage(draw: st.DrawFn) -> tuple[str, str, float, bytes]:
    target = draw(st.sampled_from([JOURNAL_NAME, JOURNAL_NAME, SNAPSHOT_NAME]))
    kind = draw(st.sampled_from(["truncate", "flip", "overwrite", "zero-tail", "none"]))
    where = draw(st.floats(min_value=0, max_value=1))
    junk = draw(st.binary(min_size=1, max_size=12))
    return target, kind, where, junk


def apply_damage(path: Path, kind: str, where: float, junk: bytes) -> None:
    if not path.exists() or kind == "none":
        return
    data = bytearray(path.read_bytes())
    if not data:
        return
    at = min(int(where * len(data)), len(data) - 1)
    if kind == "truncate":
        del data[at:]
    elif kind == "flip":
        data[at] ^= junk[0] or 0x01
    elif kind == "overwrite":
        data[at : at + len(junk)] = junk
    else:
        data[at:] = bytes(len(data) - at)
    path.write_bytes(bytes(data))


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    records=st.lists(json_records, max_size=12),
    snapshot_at=st.none() | st.integers(min_value=0, max_value=12),
    compact=st.booleans(),
    damages=st.lists(damage(), min_size=1, max_size=2),
)
def test_load_never_raises_and_recovers_a_prefix(
    records: list[dict[str, Any]],
    snapshot_at: int | None,
    compact: bool,
    damages: list[tuple[str, str, float, bytes]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        journal = Journal(directory)
        journal.start({"race": "property"})
        for i, rec in enumerate(records):
            if i == snapshot_at:
                journal.snapshot({"upto": i})
            journal.append(rec)
        if snapshot_at is not None and snapshot_at >= len(records):
            journal.snapshot({"upto": len(records)})
        if compact:
            journal.compact()
        journal.close()

        undamaged = all(kind == "none" for _, kind, _, _ in damages)
        for target, kind, where, junk in damages:
            apply_damage(directory / target, kind, where, junk)

        try:
            recovered = Journal(directory).load()
        except JournalCorrupted as err:
            event("moved aside")
            assert "\n" not in err.message
            assert Journal(directory).load() is None
            return
        assert recovered is not None  # start() wrote a journal and nothing deletes it
        event("recovered" + (" after dropping a torn record" if recovered.dropped_bytes else ""))
        assert recovered.header == {"race": "property"}
        assert recovered.count <= len(records)
        if recovered.covers:
            assert recovered.snapshot == {"upto": recovered.covers}
        else:
            assert recovered.snapshot in (None, {"upto": 0})
        assert recovered.records == records[recovered.covers : recovered.count]
        if undamaged:
            assert recovered.count == len(records)

        # whatever was recovered, appending goes on cleanly
        reopened = Journal(directory)
        again = reopened.load()
        assert again is not None and again.count == recovered.count
        reopened.append({"next": True})
        reopened.close()
        assert load(directory).records == [*recovered.records, {"next": True}]


# -- a real crash --------------------------------------------------------------------------------

CRASH_CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from pitboard.journal import Journal

    journal = Journal(Path(sys.argv[1]))
    journal.start({"crash": "test"})
    i = 0
    while True:
        journal.append({"i": i, "pad": "x" * (i % 97)})
        i += 1
        if i % 10 == 0:
            journal.snapshot({"upto": i})
        if i % 35 == 0:
            journal.compact()
        print(i, flush=True)  # acknowledged: durable on disk
    """
)


@pytest.mark.parametrize("acknowledged", [1, 57, 240])
def test_sigkill_loses_no_acknowledged_record(tmp_path: Path, acknowledged: int) -> None:
    script = tmp_path / "child.py"
    script.write_text(CRASH_CHILD)
    directory = tmp_path / "race"
    with subprocess.Popen(
        [sys.executable, str(script), str(directory)],
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdout is not None
        last = 0
        for line in child.stdout:
            last = int(line)
            if last >= acknowledged:
                break
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=60) == -signal.SIGKILL
    assert last == acknowledged

    recovered = load(directory)
    assert recovered.header == {"crash": "test"}
    assert recovered.count >= acknowledged
    if recovered.covers:
        assert recovered.snapshot == {"upto": recovered.covers}
    assert [r["i"] for r in recovered.records] == list(range(recovered.covers, recovered.count))


# -- full and read-only disks ---------------------------------------------------------------------


def test_read_only_disk_resumes_from_memory_and_says_so(tmp_path: Path) -> None:
    write_race(tmp_path, 4)
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())
    journal = Journal(tmp_path, storage=ReadOnlyStorage())
    recovered = journal.load()
    assert recovered is not None
    assert recovered.records == [record(i) for i in range(4)]
    assert recovered.damage == ""  # the journal is intact: nothing is called damaged
    assert recovered.read_only.startswith("cannot open journal.log for writing: ")
    assert "Read-only file system" in recovered.read_only
    assert not journal.is_open
    with pytest.raises(JournalError):
        journal.append(record(4))
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == before


def test_read_only_disk_with_a_damaged_journal_reports_exactly_what_happened(
        tmp_path: Path) -> None:
    write_race(tmp_path, 4)
    path = tmp_path / JOURNAL_NAME
    data = bytearray(path.read_bytes())
    data[line_offsets(path)[3] + 2] ^= 0x01  # record 2 of 0..3
    path.write_bytes(bytes(data))
    recovered = Journal(tmp_path, storage=ReadOnlyStorage()).load()
    assert recovered is not None
    assert recovered.records == [record(0), record(1)]
    assert "damaged record 3 (line 4" in recovered.damage
    assert recovered.kept_at is None
    assert "could not keep a copy" in recovered.read_only and "\n" not in recovered.read_only
    assert path.read_bytes() == bytes(data)  # nothing on disk was touched
    assert sorted(p.name for p in tmp_path.iterdir()) == [JOURNAL_NAME, HEAD_NAME]


def test_read_only_disk_with_a_torn_record(tmp_path: Path) -> None:
    write_race(tmp_path, 3)
    path = tmp_path / JOURNAL_NAME
    path.write_bytes(path.read_bytes()[:-4])
    recovered = Journal(tmp_path, storage=ReadOnlyStorage()).load()
    assert recovered is not None and recovered.records == [record(0), record(1)]
    assert recovered.read_only.startswith("cannot cut the torn record off")


def test_a_full_disk_is_found_when_the_race_starts(tmp_path: Path) -> None:
    disk = SmallDisk(tmp_path, capacity=4096)
    journal = Journal(tmp_path, storage=disk)
    journal.start(HEADER)
    with pytest.raises(OSError) as caught:
        journal.reserve(8192)
    assert caught.value.errno == errno.ENOSPC
    assert not journal.reserve_path.exists()
    journal.reserve(2048)  # what fits is reserved
    assert journal.reserve_path.stat().st_size == 2048


def test_the_reserve_keeps_a_race_durable_when_the_disk_fills(tmp_path: Path) -> None:
    disk = SmallDisk(tmp_path, capacity=64 * 1024)
    journal = Journal(tmp_path, storage=disk)
    journal.start(HEADER)
    journal.reserve(32 * 1024)
    filler = tmp_path / "other-program.log"
    filler.write_bytes(b"x" * (disk.capacity - disk.used()))  # something else fills the disk
    for i in range(40):
        journal.append(record(i))
        if i == 20:
            journal.snapshot({"upto": 21})
            journal.compact()
    assert not journal.reserve_path.exists()  # spent, for this race
    recovered = load(tmp_path)
    assert recovered.count == 40 and recovered.records[-1] == record(39)


def test_without_a_reserve_a_full_disk_fails_the_append_and_keeps_what_was_written(
        tmp_path: Path) -> None:
    disk = SmallDisk(tmp_path, capacity=64 * 1024)
    journal = Journal(tmp_path, storage=disk)
    journal.start(HEADER)
    journal.append(record(0))
    (tmp_path / "filler").write_bytes(b"x" * (disk.capacity - disk.used()))
    with pytest.raises(OSError):
        journal.append(record(1))
    assert not journal.is_open
    assert load(tmp_path).records == [record(0)]


def test_a_crash_between_the_two_steps_of_a_snapshot_loses_nothing(tmp_path: Path) -> None:
    """snapshot() renames the latest to .prev, then writes the new one: a power cut in between
    leaves only the previous snapshot, and every record since it is still in the journal."""
    journal = Journal(tmp_path)
    journal.start(HEADER)
    for i in range(12):
        journal.append(record(i))
        if i in (3, 7):
            journal.snapshot({"upto": i + 1})
            journal.compact()
    journal.close()
    (tmp_path / SNAPSHOT_NAME).replace(tmp_path / "snapshot.json.prev")  # as the cut leaves it
    journal = Journal(tmp_path)
    recovered = journal.load()
    assert recovered is not None and recovered.damage == ""
    assert (recovered.covers, recovered.count) == (8, 12)
    journal.snapshot({"upto": 12})  # and the race goes on snapshotting and compacting
    journal.append(record(12))
    journal.snapshot({"upto": 13})
    assert journal.compact() == 8  # records 4..11: the journal was compacted to 4 before
    journal.close()
    again = load(tmp_path)
    assert (again.covers, again.snapshot, again.records) == (13, {"upto": 13}, [])


class _Watched(Storage):
    """Storage that notes every folder it creates and every folder it makes durable."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Path]] = []

    def mkdir(self, path: Path) -> None:
        self.calls.append(("mkdir", path))
        super().mkdir(path)

    def sync_dir(self, directory: Path) -> None:
        self.calls.append(("sync", directory))
        super().sync_dir(directory)


def test_every_missing_folder_level_is_created_through_the_storage_and_made_durable(
        tmp_path: Path) -> None:
    storage = _Watched()
    deep = tmp_path / "state" / "pitboard" / "journal"
    journal = Journal(deep, storage=storage)
    journal.reserve(4096)
    assert storage.calls == [
        ("mkdir", tmp_path / "state"), ("sync", tmp_path),
        ("mkdir", tmp_path / "state" / "pitboard"), ("sync", tmp_path / "state"),
        ("mkdir", deep), ("sync", tmp_path / "state" / "pitboard"),
    ]
    assert (deep.stat().st_mode & 0o777) == 0o700
    storage.calls.clear()
    journal.start(HEADER)  # the folder is there: nothing to create
    assert not [c for c in storage.calls if c[0] == "mkdir"]
    journal.close()


def test_a_file_where_the_journal_folder_should_be_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("not a folder")
    with pytest.raises(OSError):
        Journal(tmp_path / "state" / "journal").start(HEADER)
