"""Storages that fail as real disks do: read-only, or full (see pitboard.journal.Storage)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from pitboard.journal import Storage


class ReadOnlyStorage(Storage):
    """A filesystem mounted read-only: every call that would change it fails with EROFS."""

    def open(self, path: Path, flags: int, mode: int = 0o600) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return super().open(path, flags, mode)

    def replace(self, source: Path, target: Path) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(source))

    def unlink(self, path: Path) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    def mkdir(self, path: Path) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(path))


class SmallDisk(Storage):
    """A disk of ``capacity`` bytes, counted over the files in the journal directory."""

    def __init__(self, directory: Path, capacity: int) -> None:
        self.directory = directory
        self.capacity = capacity

    def used(self) -> int:
        return sum(p.stat().st_size for p in self.directory.rglob("*") if p.is_file())

    def write(self, fd: int, data: bytes) -> None:
        if self.used() + len(data) > self.capacity:
            raise OSError(errno.ENOSPC, "No space left on device")
        super().write(fd, data)

    def allocate(self, fd: int, length: int) -> None:
        if self.used() + length - os.fstat(fd).st_size > self.capacity:
            raise OSError(errno.ENOSPC, "No space left on device")
        super().allocate(fd, length)
