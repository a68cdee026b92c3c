"""The race journal damaged: corruption, garbage on disk, and any damage to its bytes."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from journalkit import HEADER, line_offsets, load, record, write_race
from pitboard import journal as journal_module
from pitboard.journal import (
    HEAD_NAME,
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Journal,
    JournalCorrupted,
)

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
