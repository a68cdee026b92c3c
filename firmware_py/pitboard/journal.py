"""A power-cut-proof journal of one race.

The table appends one record per confirmed game decision and, every so often, a snapshot of the
whole state.  Recovery after a crash or a pulled plug is *latest snapshot + the records after it*.

Files in the journal directory:

``journal.log``
    One framed line per entry (:mod:`pitboard.journalfile`: ``<payload length> <crc32 as 8 hex
    digits> <json>\\n``).  The first
    line is the race header (format, race id, ``base`` = how many records compaction dropped, the
    caller's header); every later line is one record.  Records are written with ``O_APPEND`` and
    fsynced before :meth:`Journal.append` returns.
``snapshot.json``
    One framed line ``{"format", "race", "covers", "state"}``; ``covers`` counts the records the
    state already includes.  Written as temp file + fsync + ``os.replace`` + directory fsync, so
    it is always either the old snapshot or the new one.
``journal.log.head``
    A copy of journal.log's header line, written (atomically) after the journal at the start
    of a race and after every compaction, and rewritten by :meth:`Journal.load` when it is
    missing or differs. A header damaged in a byte or two is mended from it
    (:func:`pitboard.journalfile.mend_header`), so one bad byte there does not lose the race.
``*.tmp``
    Leftovers of a crash in the middle of an atomic replace; ignored and removed by
    :meth:`Journal.load`.

``snapshot.json.prev``
    The snapshot before the latest. :meth:`Journal.compact` drops only the records it covers,
    so a latest snapshot that reads back damaged costs nothing: recovery replays the records
    since the previous one.
``reserve``
    Ballast allocated when a race starts (:meth:`Journal.reserve`): a full disk is found before
    the race, and when a write later fails for lack of space the ballast is freed and the write
    retried, so the race in progress stays durable.

Only one record can be in flight when the power goes, so damage confined to the last line is a
torn append: it is dropped (with a log warning) and the file truncated back to the last good
record.  Anything else means the storage did something a power cut cannot do.  What can be
trusted is kept, as a database's log recovery does: every record up to the first bad one (and an
intact snapshot, if it reaches further); the damaged originals are copied to
``<dir>/corrupt-<UTC timestamp>/`` and :attr:`Recovered.damage` says what happened.  Only when
nothing is usable -- an unreadable header its copy cannot mend, a compacted journal without its
snapshot, a journal that is not a regular file -- are the files moved aside whole and
:class:`JournalCorrupted` raised, after which :meth:`Journal.start` begins a new race.

When the storage cannot be written (a read-only filesystem) the race on disk is still read and
returned, with :attr:`Recovered.read_only` saying why nothing will be saved; the journal then
stays closed (appends raise :class:`JournalError`) and the files are left exactly as they were.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import secrets
from pathlib import Path
from types import TracebackType
from typing import Any

from .journalfile import (
    FORMAT,
    HEAD_NAME,
    JOURNAL_NAME,
    SNAPSHOT_NAME,
    Damaged,
    JSONObject,
    Storage,
    atomic_write,
    decode_frame,
    encode_frame,
    exists,
    fsync_dir,
)
from .journalrecovery import JournalCorrupted, JournalError, Recovered, Recovery

__all__ = [
    "HEAD_NAME",
    "JOURNAL_NAME",
    "SNAPSHOT_NAME",
    "Journal",
    "JournalCorrupted",
    "JournalError",
    "Recovered",
    "Storage",
    "decode_frame",
    "encode_frame",
]

log = logging.getLogger(__name__)

RESERVE_NAME = "reserve"
#: ballast per race: a 6-car, 3-lap race needs about 150 KB (journal, snapshot and their temps)
RESERVE_BYTES = 1 << 20


class Journal(Recovery):
    """Append-only, fsynced record store for one race in ``directory``.

    Not thread-safe: drive it from the one thread that confirms game decisions.

    Example::

        journal = Journal(Path("/var/lib/pitboard/journal"))  # under the unit's StateDirectory
        try:
            recovered = journal.load()        # None when there is no race to resume
        except JournalCorrupted as err:
            log.error("%s", err.message)      # damaged files are in err.moved_to
            recovered = None
        if recovered is None:
            journal.start({"track": "usa", "players": 4})
        journal.append({"player": 2, "gear": 3, "cards": [4, 1]})  # durable once this returns
        if journal.records_since_snapshot >= 50:
            journal.snapshot(state.to_json())
            journal.compact()
    """

    def __init__(self, directory: Path, *, keep_corrupt: int = 5,
                 storage: Storage | None = None) -> None:
        self.directory = Path(directory)
        self.keep_corrupt = keep_corrupt
        self.storage = storage or Storage()
        self._fd: int | None = None
        self._race = ""
        self._header: JSONObject = {}
        self._base = 0  # records dropped by compaction (all covered by the snapshot)
        self._count = 0  # records in the race, durable on disk
        self._size = 0  # bytes of journal.log known good
        self._snap_covers: int | None = None
        self._snap_offset = 0  # byte offset in journal.log of the first record after the snapshot
        self._prev_covers: int | None = None  # the same for snapshot.json.prev (None: none)
        self._prev_offset = 0
        self._damaged_files: dict[str, bytes] = {}  # snapshot files found damaged by load()

    # -- public API -----------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        """True after :meth:`start` or a successful :meth:`load` (appends are possible)."""
        return self._fd is not None

    @property
    def count(self) -> int:
        """Number of records appended to the current race (including compacted ones)."""
        return self._count

    @property
    def records_since_snapshot(self) -> int:
        """Records a recovery would replay; snapshot when this grows past the caller's limit."""
        return self._count - (self._snap_covers or 0)

    @property
    def reserve_path(self) -> Path:
        return self.directory / RESERVE_NAME

    def reserve(self, nbytes: int = RESERVE_BYTES) -> None:
        """Make sure ``nbytes`` of disk are set aside for this race's journal.

        Call it before a race: OSError (ENOSPC on a full disk) means the race cannot be made
        durable, and the players can be told so before they start. While the ballast exists, a
        write that runs out of space frees it and is retried (see :meth:`append_many`).
        """
        self._make_directory()
        path = self.reserve_path
        with contextlib.suppress(FileNotFoundError):
            if path.lstat().st_size >= nbytes and not path.is_symlink():
                return
        fd = self.storage.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            self.storage.allocate(fd, nbytes)
            os.fsync(fd)
        except OSError:
            with contextlib.suppress(OSError):
                self.storage.unlink(path)
            raise
        finally:
            os.close(fd)

    def _release_reserve(self) -> bool:
        """Free the ballast (the disk is full); False if there was none to free."""
        try:
            self.storage.unlink(self.reserve_path)
        except OSError:
            return False
        log.warning("journal: the disk is full; using the space reserved for this race")
        return True

    def start(self, header: JSONObject) -> str:
        """Begin a new race, atomically replacing any previous one; returns the new race id.

        Raises TypeError/ValueError if ``header`` is not a JSON object, OSError if storage fails.
        """
        if not isinstance(header, dict):
            raise TypeError(f"the race header must be a JSON object, not {type(header).__name__}")
        self.close()
        race = secrets.token_hex(8)
        frame = encode_frame({"format": FORMAT, "race": race, "base": 0, "header": header})
        self._make_directory()
        self._with_space(lambda: atomic_write(self.journal_path, frame, self.storage))
        self.keep_head(frame)
        # The old snapshot goes only after the new journal is in place: a crash in between leaves
        # a snapshot of another race, which load() recognises by its race id and discards.
        for old in (self.snapshot_path, self.previous_path):
            if exists(old):
                self.storage.unlink(old)
                fsync_dir(self.directory)
        self._open(race, dict(header), base=0, count=0, size=len(frame))
        self._snap_covers = self._prev_covers = None
        self._snap_offset = len(frame)
        return race

    def append(self, record: JSONObject) -> None:
        """Write one record and fsync it; when this returns the record survives a power cut.

        Raises TypeError/ValueError (nothing written) for a record that is not a JSON object,
        :class:`JournalError` if no race is open, and OSError if the write or fsync fails -- the
        journal is then closed, and :meth:`load` recovers what is on disk.
        """
        self.append_many([record])

    def append_many(self, records: list[JSONObject]) -> None:
        """Write several records with one write and one fsync (bot moves between two screens).

        A power cut in the middle can only tear the last line, so every record before it
        survives whole. Errors as for :meth:`append`; nothing is written if any record is bad.
        """
        fd = self._require_open()
        if not records:
            return
        frame = b"".join(encode_frame(record) for record in records)
        try:
            self._write_synced(fd, frame)
        except OSError as err:
            # A full disk: free the race's reserved space and write again (the partial record
            # was cut off, and the whole frame is written afresh).
            if err.errno != errno.ENOSPC or not self._release_reserve():
                self.close()
                raise
            try:
                self._write_synced(fd, frame)
            except OSError:
                self.close()
                raise
        self._size += len(frame)
        self._count += len(records)

    def _write_synced(self, fd: int, frame: bytes) -> None:
        try:
            self.storage.write(fd, frame)
            os.fsync(fd)
        except OSError:
            # Cut the partial record off so it cannot end up in the middle of the file. (After a
            # failed fsync the page cache cannot be trusted: the caller closes the journal unless
            # it rewrites the whole frame.)
            with contextlib.suppress(OSError):
                self.storage.truncate(fd, self._size)
            raise

    def _with_space(self, write: Any) -> None:
        """Run ``write``; if the disk is full, free the reserve and run it once more."""
        try:
            write()
        except OSError as err:
            if err.errno != errno.ENOSPC or not self._release_reserve():
                raise
            write()

    def snapshot(self, state: JSONObject) -> None:
        """Atomically store ``state`` as covering every record appended so far.

        Raises TypeError/ValueError for a state that is not a JSON object, :class:`JournalError`
        if no race is open, OSError if storage fails (the previous snapshot then stays valid).
        """
        self._require_open()
        if not isinstance(state, dict):
            raise TypeError(f"a snapshot must be a JSON object, not {type(state).__name__}")
        frame = encode_frame(
            {"format": FORMAT, "race": self._race, "covers": self._count, "state": state}
        )
        if self._snap_covers is not None and exists(self.snapshot_path):
            # The latest becomes the previous one (one atomic rename): should the new snapshot
            # ever read back damaged, recovery goes on from this one.
            self.storage.replace(self.snapshot_path, self.previous_path)
            self._prev_covers, self._prev_offset = self._snap_covers, self._snap_offset
            self._snap_covers = None
        self._with_space(lambda: atomic_write(self.snapshot_path, frame, self.storage))
        self._snap_covers = self._count
        self._snap_offset = self._size

    def compact(self) -> int:
        """Atomically drop the records the *previous* snapshot covers; returns how many.

        The records since the previous snapshot stay, so that a latest snapshot that reads back
        damaged costs nothing: recovery replays them on the previous one. A crash during
        compaction leaves either the old or the new journal, both consistent with both
        snapshots.  Before a second snapshot there is nothing to drop and 0 is returned.
        """
        fd = self._require_open()
        keep_from = self._prev_covers
        if keep_from is None or keep_from == self._base:
            return 0
        tail = os.pread(fd, self._size - self._prev_offset, self._prev_offset)
        header = encode_frame(
            {"format": FORMAT, "race": self._race, "base": keep_from, "header": self._header}
        )
        self._with_space(lambda: atomic_write(self.journal_path, header + tail, self.storage))
        self.keep_head(header)
        dropped = keep_from - self._base
        shift = self._prev_offset - len(header)
        count, covers, snap_offset = self._count, self._snap_covers, self._snap_offset
        self._open(self._race, self._header, base=keep_from, count=count,
                   size=len(header) + len(tail))
        self._prev_covers, self._prev_offset = keep_from, len(header)
        self._snap_covers, self._snap_offset = covers, snap_offset - shift
        return dropped

    def load(self) -> Recovered | None:
        """Recover the race on disk and reopen it for appending; None if there is none.

        Raises only :class:`JournalCorrupted`, whatever the bytes on disk: the damaged files have
        then been moved aside and :meth:`start` can begin a new race.
        """
        self.close()
        try:
            return self._load()
        except Damaged as damaged:
            raise self._move_aside(str(damaged)) from None
        except OSError as err:
            raise self._move_aside(f"cannot read the journal: {err}") from None

    def set_aside(self, reason: str) -> JournalCorrupted:
        """Move the journal files to ``corrupt-*`` because the caller cannot use them (intact
        frames that do not describe a valid race); logs and returns the one-line outcome."""
        return self._move_aside(reason)

    def close(self) -> None:
        """Close the journal file; appends need :meth:`start` or :meth:`load` again."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)

    def __del__(self) -> None:
        # a journal dropped unclosed (a table torn down by an error or, in the tests, by a
        # simulated power cut) gives its file back, as a file object does: a process that
        # keeps dropping them would otherwise run out of descriptors
        if getattr(self, "_fd", None) is not None:
            self.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- internals ------------------------------------------------------------------------------

    def _require_open(self) -> int:
        if self._fd is None:
            raise JournalError("no race is open: call start() or load() first")
        return self._fd

    def _make_directory(self) -> None:
        """Create the journal directory and every missing folder above it, each through the
        storage and each made durable (its parent fsynced) before the next level: after a
        power cut a journal's folder is never missing above an fsynced journal."""
        missing = []
        path = self.directory
        while not path.is_dir():
            missing.append(path)
            if path.parent == path:
                break
            path = path.parent
        for level in reversed(missing):
            try:
                self.storage.mkdir(level)
            except FileExistsError:
                if not level.is_dir():
                    raise
            self.storage.sync_dir(level.parent)

    def _open(self, race: str, header: JSONObject, *, base: int, count: int, size: int) -> None:
        self.close()
        self._fd = self.storage.open(
            self.journal_path, os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
        self._race, self._header = race, header
        self._base, self._count, self._size = base, count, size
