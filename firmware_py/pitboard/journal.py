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
nothing is usable -- an unreadable header, a compacted journal without its snapshot, a journal
that is not a regular file -- are the files moved aside whole and :class:`JournalCorrupted`
raised, after which :meth:`Journal.start` begins a new race.

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
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from .journalfile import (
    FORMAT,
    JOURNAL_NAME,
    PREVIOUS_NAME,
    SNAPSHOT_NAME,
    TMP_SUFFIX,
    Damaged,
    JSONObject,
    Storage,
    atomic_write,
    decode_frame,
    encode_frame,
    exists,
    fsync_dir,
    one_line,
    parse_header,
    parse_snapshot,
    read_file,
    scan_frames,
)

__all__ = [
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
_CORRUPT_PREFIX = "corrupt-"

class JournalError(Exception):
    """Base class of the journal's own errors (e.g. appending before a race is started)."""


class JournalCorrupted(JournalError):
    """The journal on disk is damaged beyond a torn last record and has been moved aside.

    ``message`` is one line fit for the log and the kiosk screen; ``moved_to`` is the
    ``corrupt-*`` directory now holding the damaged files, or None if even moving them failed.

    Example::

        try:
            recovered = journal.load()
        except JournalCorrupted as err:
            log.error("%s", err.message)
            recovered = None
        if recovered is None:
            journal.start({"track": "usa"})
    """

    def __init__(self, message: str, moved_to: Path | None) -> None:
        super().__init__(message)
        self.message = message
        self.moved_to = moved_to


@dataclass(frozen=True)
class Recovered:
    """What :meth:`Journal.load` found: race header, latest snapshot and the records after it.

    ``covers`` is how many records the snapshot already includes (0 without a snapshot), so record
    ``records[i]`` is the race's record number ``covers + i``.  ``dropped_bytes`` is the size of a
    torn last record that was discarded (0 when the journal ended cleanly).

    Example::

        state = rebuild(recovered.snapshot) if recovered.snapshot else new_state(recovered.header)
        for record in recovered.records:
            state.apply(record)
    """

    race: str
    header: JSONObject
    snapshot: JSONObject | None
    covers: int
    records: list[JSONObject]
    dropped_bytes: int = 0
    #: one line: the damage found and what was kept ("" when the journal was intact)
    damage: str = ""
    #: where copies of the damaged files were kept (None: no damage, or they could not be kept)
    kept_at: Path | None = None
    #: why the journal cannot be written ("" when it can): the race resumes without durability
    read_only: str = ""

    @property
    def count(self) -> int:
        """Total number of records in the race (covered by the snapshot or replayed)."""
        return self.covers + len(self.records)


class Journal:
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
    def journal_path(self) -> Path:
        return self.directory / JOURNAL_NAME

    @property
    def snapshot_path(self) -> Path:
        return self.directory / SNAPSHOT_NAME

    @property
    def previous_path(self) -> Path:
        return self.directory / PREVIOUS_NAME

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
        if self.directory.is_dir():
            return
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        fsync_dir(self.directory.parent)

    def _open(self, race: str, header: JSONObject, *, base: int, count: int, size: int) -> None:
        self.close()
        self._fd = self.storage.open(
            self.journal_path, os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
        self._race, self._header = race, header
        self._base, self._count, self._size = base, count, size

    def _remove_leftovers(self) -> None:
        for name in (JOURNAL_NAME, SNAPSHOT_NAME):
            tmp = self.directory / (name + TMP_SUFFIX)
            if tmp.exists() or tmp.is_symlink():
                log.info("journal: removing %s left by an interrupted write", tmp.name)
                self.storage.unlink(tmp)

    def _load(self) -> Recovered | None:
        if not self.directory.is_dir():
            return None
        try:
            self._remove_leftovers()
        except OSError as err:  # a read-only disk: the leftovers are ignored anyway
            log.warning("journal: cannot remove temp files: %s", err)
        journal, snapshot_path = self.journal_path, self.snapshot_path
        if not exists(journal):
            if exists(snapshot_path):
                raise Damaged("snapshot.json exists but journal.log is missing")
            return None

        data = read_file(journal)
        frames, ends = scan_frames(data)
        if not frames:
            raise Damaged(f"{JOURNAL_NAME} has no readable header ({len(data)} bytes)")
        race, base, header = parse_header(frames[0])
        good = ends[-1]
        rest = data[good:]
        damage: list[str] = []
        if b"\n" in rest[:-1]:
            lines = rest.count(b"\n") + (not rest.endswith(b"\n"))
            # counted from 1, as people count: record N is line N + 1, after the header
            damage.append(f"damaged record {len(frames)} (line {len(frames) + 1}, byte {good}) "
                          f"of {JOURNAL_NAME} with {lines - 1} more line(s) after it")
        count = base + len(frames) - 1

        snaps = self._read_snapshots(race, damage)
        usable = [found for found in snaps if found[1][1] >= base]
        chosen = usable[0] if usable else None  # the newest the journal can continue from
        if chosen is None and base:
            lost = f" ({'; '.join(damage)})" if damage else ""
            raise Damaged(f"{JOURNAL_NAME} was compacted past {base} records but has no usable "
                          f"snapshot{lost}")
        if chosen is not None and chosen[0] == PREVIOUS_NAME and \
                SNAPSHOT_NAME in self._damaged_files:
            damage.append(f"recovered from {PREVIOUS_NAME}")
        covers, state = (0, None) if chosen is None else (chosen[1][1], chosen[1][2])
        if covers > count:
            # Records the snapshot covers were lost from the journal: the snapshot, intact on its
            # own, still holds them; the journal restarts after it.
            damage.append(f"snapshot covers {covers} records but {JOURNAL_NAME} holds records "
                          f"{base} to {count}")

        records = frames[1:][max(covers - base, 0) :]
        read_only = kept_at = None
        if damage:
            reason = "; ".join(damage)
            if covers > count:
                base = count = covers
                prefix = encode_frame(dict(frames[0], base=covers))
            else:
                prefix = data[:good]
            kept_at, read_only = self._keep_prefix(
                {JOURNAL_NAME: data, **self._damaged_files}, prefix,
                snapshot=None if chosen is None else chosen[2], reason=reason)
            if read_only is None:
                ends = scan_frames(prefix)[1]
                good, rest = len(prefix), b""
        elif rest:
            log.warning("journal: dropped a torn last record (%d bytes at byte %d of %s)",
                        len(rest), good, JOURNAL_NAME)
            try:
                fd = self.storage.open(journal, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                try:
                    self.storage.truncate(fd, good)
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as err:
                read_only = f"cannot cut the torn record off: {one_line(err)}"
        if read_only is None:
            try:
                self._open(race, header, base=base, count=count, size=good)
            except OSError as err:
                read_only = f"cannot open {JOURNAL_NAME} for writing: {one_line(err)}"
        if read_only is not None:
            self.close()
            log.error("journal: %s; the race resumes but is not being saved", read_only)
        else:
            self._snap_covers = None if state is None else covers
            self._snap_offset = ends[covers - base]
            self._prev_covers = None
            previous = [f for f in usable if f[0] == PREVIOUS_NAME and f[1][1] <= covers]
            if not damage and chosen is not None and chosen[0] == SNAPSHOT_NAME and previous:
                self._prev_covers = previous[0][1][1]
                self._prev_offset = ends[self._prev_covers - base]
        return Recovered(
            race=race,
            header=header,
            snapshot=state,
            covers=covers,
            records=records,
            dropped_bytes=len(rest),
            damage="; ".join(damage),
            kept_at=kept_at,
            read_only=read_only or "",
        )

    def keep_prefix(self, count: int, reason: str) -> Recovered:
        """Cut the journal back to its first ``count`` records because the record after them
        is damaged in a way only the caller can see (say ``{"undo": -3}``): a copy of the
        journal as it was is kept in ``corrupt-*``. Returns what is kept, like :meth:`load`
        (``read_only`` set if the cut could not be written).
        """
        self.close()
        data = read_file(self.journal_path)
        frames, ends = scan_frames(data)
        if not frames:
            raise JournalError(f"{JOURNAL_NAME} has no readable header")
        race, base, header = parse_header(frames[0])
        if not base <= count < base + len(frames) - 1:
            raise JournalError(f"cannot keep {count} records of {base}..{base + len(frames) - 1}")
        prefix = data[: ends[count - base]]
        usable = [f for f in self._read_snapshots(race, []) if base <= f[1][1] <= count]
        if not usable and base:
            raise JournalError("the damage lies before every snapshot")
        chosen = usable[0] if usable else None
        covers, state = (0, None) if chosen is None else (chosen[1][1], chosen[1][2])
        kept_at, read_only = self._keep_prefix(
            {JOURNAL_NAME: data}, prefix, snapshot=None if chosen is None else chosen[2],
            reason=reason)
        if read_only is None:
            try:
                self._open(race, header, base=base, count=count, size=len(prefix))
                self._snap_covers = None if state is None else covers
                self._snap_offset = ends[covers - base]
                self._prev_covers = None
            except OSError as err:
                read_only = f"cannot open {JOURNAL_NAME} for writing: {one_line(err)}"
                self.close()
        return Recovered(race=race, header=header, snapshot=state, covers=covers,
                         records=frames[1 + covers - base : 1 + count - base], damage=reason,
                         kept_at=kept_at, read_only=read_only or "")

    def _read_snapshots(self, race: str, damage: list[str]
                        ) -> list[tuple[str, tuple[str, int, JSONObject], bytes]]:
        """This race's intact snapshots, newest first: (file name, parsed, bytes). A damaged
        one is noted in ``damage`` (its bytes in ``_damaged_files``); one of an earlier race
        (left by a start() cut short) is deleted."""
        found = []
        self._damaged_files.clear()
        for path in (self.snapshot_path, self.previous_path):
            if not exists(path):
                continue
            data = read_file(path)
            try:
                snap = parse_snapshot(data, path.name)
            except Damaged as bad:
                self._damaged_files[path.name] = data
                damage.append(str(bad))
                continue
            if snap[0] != race:
                log.warning("journal: discarding %s of an earlier race", path.name)
                with contextlib.suppress(OSError):
                    self.storage.unlink(path)
                    fsync_dir(self.directory)
                continue
            found.append((path.name, snap, data))
        return found

    def _keep_prefix(self, originals: dict[str, bytes | None], prefix: bytes, *,
                     snapshot: bytes | None, reason: str) -> tuple[Path | None, str | None]:
        """Copy the damaged ``originals`` to ``corrupt-*``, then make ``prefix`` the journal
        and ``snapshot`` (None: none) its only snapshot.

        Returns (where the copies are, why the journal cannot be written or None). On a
        read-only disk nothing on disk changes: the caller resumes from memory.
        """
        try:
            target = self._corrupt_directory()
        except OSError as err:
            return None, f"{one_line(reason)}; could not keep a copy: {one_line(err)}"
        try:
            for name, data in originals.items():
                if data is not None:
                    atomic_write(target / name, data, self.storage)
            atomic_write(self.journal_path, prefix, self.storage)
            if snapshot is not None:
                atomic_write(self.snapshot_path, snapshot, self.storage)
            elif exists(self.snapshot_path):
                self.storage.unlink(self.snapshot_path)
            if exists(self.previous_path):
                self.storage.unlink(self.previous_path)
            fsync_dir(self.directory)
        except OSError as err:
            return target, f"{one_line(reason)}; could not rewrite {JOURNAL_NAME}: " \
                f"{one_line(err)}"
        self._prune_corrupt(keep=target)
        log.error("journal damaged: %s; kept the intact records, original copied to %s",
                  one_line(reason), target)
        return target, None

    def _move_aside(self, reason: str) -> JournalCorrupted:
        reason = " ".join(reason.split())  # one line, whatever an OSError text contained
        self.close()
        try:
            target = self._corrupt_directory()
            self._move_race_files(target)
        except OSError as err:
            message = f"journal corrupted: {reason}; could not move it aside: {err}"
            log.error("%s", message)
            return JournalCorrupted(message, None)
        self._prune_corrupt(keep=target)
        message = f"journal corrupted: {reason}; moved to {target}"
        log.error("%s", message)
        return JournalCorrupted(message, target)

    def put_away(self, prefix: str) -> Path:
        """Move the race's files, intact, into a new ``<dir>/<prefix><UTC time>/`` directory
        that is kept for good (``corrupt-*`` directories are pruned; these never are): a race
        the caller must not resume, e.g. one saved by another version of the rules. Returns
        the directory; raises OSError if the files cannot be moved (they are then untouched
        or, if the move stopped half way, split between the two directories)."""
        self.close()
        target = self._corrupt_directory(prefix)
        self._move_race_files(target)
        log.warning("journal: race files put away in %s", target)
        return target

    def _move_race_files(self, target: Path) -> None:
        for name in os.listdir(self.directory):
            if name.startswith((JOURNAL_NAME, SNAPSHOT_NAME)):
                self.storage.replace(self.directory / name, target / name)
        fsync_dir(target)
        fsync_dir(self.directory)

    def _corrupt_directory(self, prefix: str = _CORRUPT_PREFIX) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        for n in range(1000):
            target = self.directory / f"{prefix}{stamp}{f'-{n}' if n else ''}"
            try:
                self.storage.mkdir(target)
            except FileExistsError:
                continue
            return target
        raise FileExistsError(f"too many {prefix}{stamp}* directories")

    def _prune_corrupt(self, keep: Path) -> None:
        """Keep only the newest ``keep_corrupt`` corrupt-* directories (bounded disk use)."""
        try:
            found = [p for p in self.directory.glob(_CORRUPT_PREFIX + "*") if p.is_dir()]
            found.sort(key=lambda p: (p == keep, p.stat().st_mtime, p.name), reverse=True)
            for old in found[max(self.keep_corrupt, 1) :]:
                shutil.rmtree(old)
        except OSError as err:
            log.warning("journal: could not prune old corrupt directories: %s", err)
