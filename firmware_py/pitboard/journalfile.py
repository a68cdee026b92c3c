"""The journal's files, byte by byte: framed lines, atomic replacement, the calls that write.

:mod:`pitboard.journal` keeps a race in these files; this module knows their format and how to
read and write them safely, and nothing about races.

A frame is one line ``<payload length> <crc32 as 8 hex digits> <json>\\n`` (ASCII, so the JSON
holds no raw newline). Framing is strict -- no leading zeros, lower-case hex -- so each object has
exactly one valid encoding, and a flipped bit anywhere is caught.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import zlib
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

from .userfile import UserFileError, read_user_file

JSONObject = dict[str, Any]

JOURNAL_NAME = "journal.log"
SNAPSHOT_NAME = "snapshot.json"
#: the snapshot before the latest: recovery falls back on it when the latest is damaged
PREVIOUS_NAME = "snapshot.json.prev"
#: a copy of journal.log's first line (the race header): recovery mends a damaged header from it
HEAD_NAME = "journal.log.head"
#: the most bytes a damaged header may differ from its copy and still be mended from it: a
#: header of another race (or of the same race before a compaction) differs in its CRC alone
#: by about 7 of 8 hex digits, so it is never taken for this one
HEAD_REPAIR_BYTES = 2
#: the largest journal or snapshot file read back (a real one stays far below: it is compacted)
MAX_FILE_BYTES = 64 << 20
TMP_SUFFIX = ".tmp"
FORMAT = 1

_FRAME = re.compile(rb"(0|[1-9][0-9]{0,9}) ([0-9a-f]{8}) ")


class Damaged(Exception):
    """Internal: the files on disk are inconsistent; carries the one-line reason.

    Raised by the readers here; :meth:`pitboard.journal.Journal.load` turns it into
    :class:`~pitboard.journal.JournalCorrupted` after moving the files aside.

    Example::

        >>> parse_snapshot(b"12 00000000 {}\\n")
        Traceback (most recent call last):
        ...
        pitboard.journalfile.Damaged: snapshot.json is damaged (15 bytes)
    """


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


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class Storage:
    """The journal's calls that change the disk, in one place: a test swaps in a storage that
    fails as a full or read-only disk does (tests swap the storage, they do not monkeypatch).

    Example::

        class ReadOnly(Storage):
            def open(self, path: Path, flags: int, mode: int = 0o600) -> int:
                if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                    raise OSError(errno.EROFS, "Read-only file system")
                return super().open(path, flags, mode)

        Journal(Path("/var/lib/pitboard/journal"), storage=ReadOnly())
    """

    def open(self, path: Path, flags: int, mode: int = 0o600) -> int:
        return os.open(path, flags, mode)

    def write(self, fd: int, data: bytes) -> None:
        write_all(fd, data)

    def truncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)

    def allocate(self, fd: int, length: int) -> None:
        os.posix_fallocate(fd, 0, length)

    def replace(self, source: Path, target: Path) -> None:
        os.replace(source, target)

    def unlink(self, path: Path) -> None:
        os.unlink(path)

    def mkdir(self, path: Path) -> None:
        os.mkdir(path, 0o700)

    def sync_dir(self, directory: Path) -> None:
        """Make the entries of ``directory`` durable (a new file or folder in it)."""
        fsync_dir(directory)


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, storage: Storage | None = None) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file."""
    storage = storage or Storage()
    tmp = path.with_name(path.name + TMP_SUFFIX)
    try:
        fd = storage.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            storage.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        storage.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            storage.unlink(tmp)
        raise
    fsync_dir(path.parent)


def scan_frames(data: bytes) -> tuple[list[JSONObject], list[int]]:
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


def parse_header(frame: JSONObject) -> tuple[str, int, JSONObject]:
    race, base, header = frame.get("race"), frame.get("base"), frame.get("header")
    if (
        frame.get("format") != FORMAT
        or not isinstance(race, str)
        or not _is_count(base)
        or not isinstance(header, dict)
    ):
        raise Damaged(f"{JOURNAL_NAME} header is not a pitboard journal header")
    return race, base, header


def mend_header(data: bytes, copy: bytes) -> bytes | None:
    """``data`` (journal.log) with its first line replaced by ``copy`` (journal.log.head), or
    None when the copy is not an intact header frame or the bytes it would replace differ from
    it in more than :data:`HEAD_REPAIR_BYTES` places (a copy of another header, not a header
    damaged in a byte or two)."""
    n = len(copy)
    if not copy.endswith(b"\n") or decode_frame(copy[:-1]) is None or len(data) < n:
        return None
    if sum(a != b for a, b in zip(data[:n], copy, strict=True)) > HEAD_REPAIR_BYTES:
        return None
    return copy + data[n:]


def exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def read_file(path: Path) -> bytes:
    """A journal file's bytes; anything but a regular file of sane size is damage."""
    try:
        return read_user_file(path, limit=MAX_FILE_BYTES, follow_links=False)
    except UserFileError as err:
        raise Damaged(f"{path.name}: {err.problem}") from None


def one_line(what: object) -> str:
    return " ".join(str(what).split())


def parse_snapshot(data: bytes, name: str = SNAPSHOT_NAME) -> tuple[str, int, JSONObject]:
    frame = decode_frame(data[:-1]) if data.endswith(b"\n") else None
    if frame is None:
        raise Damaged(f"{name} is damaged ({len(data)} bytes)")
    race, covers, state = frame.get("race"), frame.get("covers"), frame.get("state")
    if (
        frame.get("format") != FORMAT
        or not isinstance(race, str)
        or not _is_count(covers)
        or not isinstance(state, dict)
    ):
        raise Damaged(f"{name} is not a pitboard snapshot")
    return race, covers, state
