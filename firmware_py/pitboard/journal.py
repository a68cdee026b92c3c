"""A power-cut-proof journal of one race.

The table appends one record per confirmed game decision and, every so often, a snapshot of the
whole state.  Recovery after a crash or a pulled plug is *latest snapshot + the records after it*.

Files in the journal directory:

``journal.log``
    One framed line per entry: ``<payload length> <crc32 as 8 hex digits> <json>\\n``.  The first
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

Only one record can be in flight when the power goes, so damage confined to the last line is a
torn append: it is dropped (with a log warning) and the file truncated back to the last good
record.  Anything else -- a bad line with more lines after it, an unreadable header, an invalid
snapshot, a snapshot that does not fit the journal -- means the storage did something a power cut
cannot do: the files are moved to ``<dir>/corrupt-<UTC timestamp>/`` and :class:`JournalCorrupted`
is raised, after which :meth:`Journal.start` begins a new race.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import shutil
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn, TypeGuard

__all__ = [
    "JOURNAL_NAME",
    "SNAPSHOT_NAME",
    "Journal",
    "JournalCorrupted",
    "JournalError",
    "Recovered",
    "decode_frame",
    "encode_frame",
]

log = logging.getLogger(__name__)

JSONObject = dict[str, Any]

JOURNAL_NAME = "journal.log"
SNAPSHOT_NAME = "snapshot.json"
_TMP_SUFFIX = ".tmp"
_CORRUPT_PREFIX = "corrupt-"
_FORMAT = 1

# Strict framing: no leading zeros, lower-case hex, so each record has exactly one valid encoding.
_FRAME = re.compile(rb"(0|[1-9][0-9]{0,9}) ([0-9a-f]{8}) ")


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

    @property
    def count(self) -> int:
        """Total number of records in the race (covered by the snapshot or replayed)."""
        return self.covers + len(self.records)


class _Damaged(Exception):
    """Internal: the files on disk are inconsistent; carries the one-line reason."""


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"non-standard JSON constant {name}")


def encode_frame(obj: JSONObject) -> bytes:
    """Frame one JSON object as ``<length> <crc32> <json>\\n`` (ASCII, so no raw newline)."""
    if not isinstance(obj, dict):
        raise TypeError(f"journal entries must be JSON objects, not {type(obj).__name__}")
    payload = json.dumps(obj, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode(
        "ascii"
    )
    return b"%d %08x %s\n" % (len(payload), zlib.crc32(payload), payload)


def decode_frame(line: bytes) -> JSONObject | None:
    """Decode one framed line (without its newline); None if it is not an intact frame."""
    match = _FRAME.match(line)
    if match is None:
        return None
    payload = line[match.end() :]
    if int(match[1]) != len(payload) or int(match[2], 16) != zlib.crc32(payload):
        return None
    try:
        obj = json.loads(payload.decode("ascii"), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file."""
    tmp = path.with_name(path.name + _TMP_SUFFIX)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


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

    def __init__(self, directory: Path, *, keep_corrupt: int = 5) -> None:
        self.directory = Path(directory)
        self.keep_corrupt = keep_corrupt
        self._fd: int | None = None
        self._race = ""
        self._header: JSONObject = {}
        self._base = 0  # records dropped by compaction (all covered by the snapshot)
        self._count = 0  # records in the race, durable on disk
        self._size = 0  # bytes of journal.log known good
        self._snap_covers: int | None = None
        self._snap_offset = 0  # byte offset in journal.log of the first record after the snapshot

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

    def start(self, header: JSONObject) -> str:
        """Begin a new race, atomically replacing any previous one; returns the new race id.

        Raises TypeError/ValueError if ``header`` is not a JSON object, OSError if storage fails.
        """
        if not isinstance(header, dict):
            raise TypeError(f"the race header must be a JSON object, not {type(header).__name__}")
        self.close()
        race = secrets.token_hex(8)
        frame = encode_frame({"format": _FORMAT, "race": race, "base": 0, "header": header})
        self._make_directory()
        _atomic_write(self.journal_path, frame)
        # The old snapshot goes only after the new journal is in place: a crash in between leaves
        # a snapshot of another race, which load() recognises by its race id and discards.
        if self.snapshot_path.exists():
            self.snapshot_path.unlink()
            _fsync_dir(self.directory)
        self._open(race, dict(header), base=0, count=0, size=len(frame))
        self._snap_covers = None
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
            _write_all(fd, frame)
            os.fsync(fd)
        except OSError:
            # Cut the partial record off so it cannot end up in the middle of the file; after a
            # failed fsync the page cache cannot be trusted, so stop until load() re-reads disk.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._size)
            self.close()
            raise
        self._size += len(frame)
        self._count += len(records)

    def snapshot(self, state: JSONObject) -> None:
        """Atomically store ``state`` as covering every record appended so far.

        Raises TypeError/ValueError for a state that is not a JSON object, :class:`JournalError`
        if no race is open, OSError if storage fails (the previous snapshot then stays valid).
        """
        self._require_open()
        if not isinstance(state, dict):
            raise TypeError(f"a snapshot must be a JSON object, not {type(state).__name__}")
        frame = encode_frame(
            {"format": _FORMAT, "race": self._race, "covers": self._count, "state": state}
        )
        _atomic_write(self.snapshot_path, frame)
        self._snap_covers = self._count
        self._snap_offset = self._size

    def compact(self) -> int:
        """Atomically drop the records the snapshot covers; returns how many were dropped.

        A crash during compaction leaves either the old or the new journal, both consistent with
        the snapshot.  Without a snapshot there is nothing to drop and 0 is returned.
        """
        fd = self._require_open()
        if self._snap_covers is None or self._snap_covers == self._base:
            return 0
        tail = os.pread(fd, self._size - self._snap_offset, self._snap_offset)
        header = encode_frame(
            {
                "format": _FORMAT,
                "race": self._race,
                "base": self._snap_covers,
                "header": self._header,
            }
        )
        _atomic_write(self.journal_path, header + tail)
        dropped = self._snap_covers - self._base
        count, covers = self._count, self._snap_covers
        self._open(self._race, self._header, base=covers, count=count, size=len(header) + len(tail))
        self._snap_covers = covers
        self._snap_offset = len(header)
        return dropped

    def load(self) -> Recovered | None:
        """Recover the race on disk and reopen it for appending; None if there is none.

        Raises only :class:`JournalCorrupted`, whatever the bytes on disk: the damaged files have
        then been moved aside and :meth:`start` can begin a new race.
        """
        self.close()
        try:
            return self._load()
        except _Damaged as damaged:
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
        _fsync_dir(self.directory.parent)

    def _open(self, race: str, header: JSONObject, *, base: int, count: int, size: int) -> None:
        self.close()
        self._fd = os.open(self.journal_path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
        self._race, self._header = race, header
        self._base, self._count, self._size = base, count, size

    def _remove_leftovers(self) -> None:
        for name in (JOURNAL_NAME, SNAPSHOT_NAME):
            tmp = self.directory / (name + _TMP_SUFFIX)
            if tmp.exists() or tmp.is_symlink():
                log.info("journal: removing %s left by an interrupted write", tmp.name)
                tmp.unlink()

    def _load(self) -> Recovered | None:
        if not self.directory.is_dir():
            return None
        self._remove_leftovers()
        journal, snapshot_path = self.journal_path, self.snapshot_path
        if not journal.exists():
            if snapshot_path.exists():
                raise _Damaged("snapshot.json exists but journal.log is missing")
            return None

        data = journal.read_bytes()
        frames, ends = _scan(data)
        good = ends[-1] if ends else 0
        rest = data[good:]
        if b"\n" in rest[:-1]:
            lines = rest.count(b"\n") + (not rest.endswith(b"\n"))
            raise _Damaged(
                f"damaged entry {len(frames)} at byte {good} of {JOURNAL_NAME} with "
                f"{lines - 1} more line(s) after it"
            )
        if not frames:
            raise _Damaged(f"{JOURNAL_NAME} has no readable header ({len(data)} bytes)")
        race, base, header = _parse_header(frames[0])
        records = frames[1:]
        count = base + len(records)

        snap = _read_snapshot(snapshot_path) if snapshot_path.exists() else None
        if snap is not None and snap[0] != race:
            # Left by a start() interrupted between its two steps: it belongs to the old race.
            log.warning("journal: discarding a snapshot of an earlier race")
            snapshot_path.unlink()
            _fsync_dir(self.directory)
            snap = None
        if snap is None:
            if base:
                raise _Damaged(
                    f"{JOURNAL_NAME} was compacted past {base} records but has no snapshot"
                )
            covers, state = 0, None
        else:
            covers, state = snap[1], snap[2]
            if not base <= covers <= count:
                raise _Damaged(
                    f"snapshot covers {covers} records but {JOURNAL_NAME} holds records "
                    f"{base} to {count}"
                )

        if rest:
            log.warning(
                "journal: dropped a torn last record (%d bytes at byte %d of %s)",
                len(rest),
                good,
                JOURNAL_NAME,
            )
            fd = os.open(journal, os.O_WRONLY | os.O_CLOEXEC)
            try:
                os.ftruncate(fd, good)
                os.fsync(fd)
            finally:
                os.close(fd)

        self._open(race, header, base=base, count=count, size=good)
        self._snap_covers = None if state is None else covers
        self._snap_offset = ends[covers - base]
        return Recovered(
            race=race,
            header=header,
            snapshot=state,
            covers=covers,
            records=records[covers - base :],
            dropped_bytes=len(rest),
        )

    def _move_aside(self, reason: str) -> JournalCorrupted:
        reason = " ".join(reason.split())  # one line, whatever an OSError text contained
        self.close()
        try:
            target = self._corrupt_directory()
            for name in os.listdir(self.directory):
                if name.startswith((JOURNAL_NAME, SNAPSHOT_NAME)):
                    os.replace(self.directory / name, target / name)
            _fsync_dir(target)
            _fsync_dir(self.directory)
        except OSError as err:
            message = f"journal corrupted: {reason}; could not move it aside: {err}"
            log.error("%s", message)
            return JournalCorrupted(message, None)
        self._prune_corrupt(keep=target)
        message = f"journal corrupted: {reason}; moved to {target}"
        log.error("%s", message)
        return JournalCorrupted(message, target)

    def _corrupt_directory(self) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        for n in range(1000):
            target = self.directory / f"{_CORRUPT_PREFIX}{stamp}{f'-{n}' if n else ''}"
            try:
                target.mkdir(mode=0o700)
            except FileExistsError:
                continue
            return target
        raise FileExistsError(f"too many {_CORRUPT_PREFIX}{stamp}* directories")

    def _prune_corrupt(self, keep: Path) -> None:
        """Keep only the newest ``keep_corrupt`` corrupt-* directories (bounded disk use)."""
        try:
            found = [p for p in self.directory.glob(_CORRUPT_PREFIX + "*") if p.is_dir()]
            found.sort(key=lambda p: (p == keep, p.stat().st_mtime, p.name), reverse=True)
            for old in found[max(self.keep_corrupt, 1) :]:
                shutil.rmtree(old)
        except OSError as err:
            log.warning("journal: could not prune old corrupt directories: %s", err)


def _scan(data: bytes) -> tuple[list[JSONObject], list[int]]:
    """Decode intact frames from the start; returns them and the byte offset after each."""
    frames: list[JSONObject] = []
    ends: list[int] = []
    pos = 0
    while True:
        newline = data.find(b"\n", pos)
        if newline < 0:
            break
        obj = decode_frame(data[pos:newline])
        if obj is None:
            break
        frames.append(obj)
        pos = newline + 1
        ends.append(pos)
    return frames, ends


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parse_header(frame: JSONObject) -> tuple[str, int, JSONObject]:
    race, base, header = frame.get("race"), frame.get("base"), frame.get("header")
    if (
        frame.get("format") != _FORMAT
        or not isinstance(race, str)
        or not _is_count(base)
        or not isinstance(header, dict)
    ):
        raise _Damaged(f"{JOURNAL_NAME} header is not a pitboard journal header")
    return race, base, header


def _read_snapshot(path: Path) -> tuple[str, int, JSONObject]:
    data = path.read_bytes()
    frame = decode_frame(data[:-1]) if data.endswith(b"\n") else None
    if frame is None:
        raise _Damaged(f"{SNAPSHOT_NAME} is damaged ({len(data)} bytes)")
    race, covers, state = frame.get("race"), frame.get("covers"), frame.get("state")
    if (
        frame.get("format") != _FORMAT
        or not isinstance(race, str)
        or not _is_count(covers)
        or not isinstance(state, dict)
    ):
        raise _Damaged(f"{SNAPSHOT_NAME} is not a pitboard snapshot")
    return race, covers, state
