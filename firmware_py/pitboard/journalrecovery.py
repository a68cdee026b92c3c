"""Reading a journal back: recovery after a power cut or damage, and setting files aside.

:class:`Recovery` is the half of :class:`pitboard.journal.Journal` that reads: it finds the
intact part of the files on disk (every record up to the first bad one, the newest usable
snapshot), copies damaged originals to ``corrupt-*``, and says exactly what it did -- also when
the disk cannot be written at all. See :mod:`pitboard.journal` for the files and the rules.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .journalfile import (
    HEAD_NAME,
    JOURNAL_NAME,
    PREVIOUS_NAME,
    SNAPSHOT_NAME,
    TMP_SUFFIX,
    Damaged,
    JSONObject,
    Storage,
    atomic_write,
    encode_frame,
    exists,
    fsync_dir,
    mend_header,
    one_line,
    parse_header,
    parse_snapshot,
    read_file,
    scan_frames,
)

log = logging.getLogger("pitboard.journal")

_CORRUPT_PREFIX = "corrupt-"


class JournalError(Exception):
    """Base class of the journal's own errors (e.g. appending before a race is started).

    Example::

        >>> import tempfile
        >>> from pathlib import Path
        >>> from pitboard.journal import Journal
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     try:
        ...         Journal(Path(folder)).append({"decision": 1})
        ...     except JournalError as exc:
        ...         print(exc)
        no race is open: call start() or load() first
    """


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


class Recovery:
    """Recovery and setting aside, mixed into :class:`pitboard.journal.Journal` (which owns the
    attributes below and reopens the file for appending).

    Example (the table's recorder finds record 2 undoing more than was done)::

        >>> import tempfile
        >>> from pitboard.journal import Journal
        >>> with tempfile.TemporaryDirectory() as d, Journal(Path(d)) as journal:
        ...     race = journal.start({"track": "usa"})
        ...     journal.append_many([{"turn": 1}, {"undo": -3}, {"turn": 2}])
        ...     kept = journal.keep_prefix(1, "record 2 undoes more than was done")
        ...     kept.records, kept.count, kept.kept_at.name.startswith("corrupt-")
        ([{'turn': 1}], 1, True)
    """

    directory: Path
    storage: Storage
    keep_corrupt: int
    _damaged_files: dict[str, bytes]
    _snap_covers: int | None
    _snap_offset: int
    _prev_covers: int | None
    _prev_offset: int

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
    def head_path(self) -> Path:
        return self.directory / HEAD_NAME

    def _open(self, race: str, header: JSONObject, *, base: int, count: int, size: int) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _remove_leftovers(self) -> None:
        for name in (JOURNAL_NAME, SNAPSHOT_NAME, HEAD_NAME):
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

        data = original = read_file(journal)
        frames, ends = scan_frames(data)
        damage: list[str] = []
        if not _has_header(frames):
            mended = self._mend_header(data)
            if mended is not None:  # a byte or two of the header damaged: its copy mends it
                data = mended
                frames, ends = scan_frames(data)
                damage.append(f"damaged header of {JOURNAL_NAME} mended from {HEAD_NAME}")
        if not frames:
            raise Damaged(f"{JOURNAL_NAME} has no readable header ({len(data)} bytes)")
        race, base, header = parse_header(frames[0])
        good = ends[-1]
        rest = data[good:]
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
                {JOURNAL_NAME: original, **self._damaged_files}, prefix,
                snapshot=None if chosen is None else chosen[2], reason=reason)
            if read_only is None:
                ends = scan_frames(prefix)[1]
                good, rest, data = len(prefix), b"", prefix
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
            self.keep_head(data[: ends[0]])
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

    def _mend_header(self, data: bytes) -> bytes | None:
        """``data`` with its damaged header mended from journal.log.head (None: it cannot)."""
        if not exists(self.head_path):
            return None
        try:
            return mend_header(data, read_file(self.head_path))
        except Damaged:  # not a regular file, or too big: no copy to trust
            return None

    def keep_head(self, first_line: bytes) -> None:
        """Make journal.log.head a copy of ``first_line`` (journal.log's header line, with its
        newline). Best effort: without the copy the race is as safe as before it existed, but
        a damaged header could not be mended."""
        try:
            if exists(self.head_path) and read_file(self.head_path) == first_line:
                return
        except Damaged:
            pass  # replaced below
        try:
            atomic_write(self.head_path, first_line, self.storage)
        except OSError as err:
            log.warning("journal: cannot keep a copy of the header in %s: %s", HEAD_NAME,
                        one_line(err))

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


def _has_header(frames: list[JSONObject]) -> bool:
    try:
        return bool(frames) and bool(parse_header(frames[0]))
    except Damaged:
        return False
