"""One table per journal: the process that writes a journal folder holds a lock on it.

Two programs appending to one journal (a second ``pitboard run``, a ``pitboard sim --journal``
on the service's folder) would interleave their records and the next start would find the
journal damaged. So whatever opens a table on a journal first takes :class:`JournalLock`: an
exclusive ``flock`` on ``<journal>/lock``. The kernel drops the lock with the process that holds
it, however it ends (``kill -9``, a power cut), so a lock left behind never blocks a start.
The file also says who holds it (pid, command line, since when), for the one-line refusal.

Within one process the lock is counted, not taken twice: a table rebuilt on the same folder
(after a simulated power cut in the tests, say) goes on under the lock the process holds.

Example::

    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> with JournalLock(folder) as lock:
    ...     lock.held, (folder / LOCK_NAME).read_text().startswith(f"pid {os.getpid()}")
    (True, True)
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sys
import time
from pathlib import Path
from types import TracebackType

LOCK_NAME = "lock"

#: (device, inode) of a locked folder -> [descriptor, holders in this process]
_HELD: dict[tuple[int, int], list[int]] = {}


class JournalBusy(Exception):
    """Another live process writes this journal; ``str()`` is the one line to show.

    Example::

        >>> print(JournalBusy(Path("/j"), "pid 7: pitboard run (since 10:00 UTC)"))
        journal /j is in use by another Pitboard: pid 7: pitboard run (since 10:00 UTC); stop ...
    """

    def __init__(self, directory: Path, holder: str) -> None:
        self.directory = directory
        self.holder = holder
        super().__init__(f"journal {directory} is in use by another Pitboard: {holder}; "
                         "stop that one first")


class JournalLock:
    """The exclusive right to write the journal in ``directory`` (created if missing).

    :meth:`acquire` raises :class:`JournalBusy` at once, writing nothing, when another process
    holds it; OSError when the folder cannot be made or opened (a read-only disk is not
    refused: the journal then runs unsaved, as :mod:`pitboard.journal` describes).

    Example::

        lock = JournalLock(journal_dir)
        lock.acquire()          # JournalBusy: another pitboard is running on it
        ...                     # open the journal, play
        lock.release()
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._key: tuple[int, int] | None = None

    @property
    def held(self) -> bool:
        return self._key is not None

    def acquire(self) -> None:
        if self._key is not None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a read-only disk: the journal runs unsaved, nothing to guard
            if exc.errno in (errno.EROFS, errno.EACCES):
                return
            raise
        info = os.stat(self.directory)
        key = (info.st_dev, info.st_ino)
        held = _HELD.get(key)
        if held is not None:  # this process holds it already
            held[1] += 1
            self._key = key
            return
        path = self.directory / LOCK_NAME
        flags = os.O_CLOEXEC | os.O_NOFOLLOW
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | flags, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.EROFS, errno.EACCES):
                raise
            try:  # a read-only disk: the journal runs unsaved; lock what is there, if anything
                fd = os.open(path, os.O_RDONLY | flags)
            except OSError:
                return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd, path)
            os.close(fd)
            raise JournalBusy(self.directory, holder) from None
        except BaseException:
            os.close(fd)
            raise
        with contextlib.suppress(OSError):  # who holds it: a courtesy for the refusal line
            os.ftruncate(fd, 0)
            os.pwrite(fd, _describe_self().encode("utf-8", "replace"), 0)
        _HELD[key] = [fd, 1]
        self._key = key

    def release(self) -> None:
        key, self._key = self._key, None
        if key is None:
            return
        held = _HELD[key]
        held[1] -= 1
        if held[1] == 0:
            del _HELD[key]
            os.close(held[0])  # the kernel drops the lock with the last descriptor

    def __enter__(self) -> JournalLock:
        self.acquire()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _describe_self() -> str:
    command = " ".join(["pitboard", *sys.argv[1:]]) if sys.argv else "pitboard"
    since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    return f"pid {os.getpid()}: {command} (since {since})\n"


def _read_holder(fd: int, path: Path) -> str:
    """The holder's own line, if the pid it names is alive (else how to find the holder)."""
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip().splitlines()
    except OSError:
        text = []
    line = text[0] if text else ""
    if line.startswith("pid "):
        pid = line[4:].split(":", 1)[0]
        if pid.isdigit() and Path(f"/proc/{pid}").exists():
            return line
    return f"a process that has not said who it is (fuser -v {path} names it)"
