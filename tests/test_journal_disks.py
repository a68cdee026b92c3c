"""The race journal against the machine: a real SIGKILL, full and read-only disks, folders."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from disks import ReadOnlyStorage, SmallDisk
from journalkit import HEADER, line_offsets, load, record, write_race
from pitboard.journal import (
    HEAD_NAME,
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Journal,
    JournalError,
    Storage,
)

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
