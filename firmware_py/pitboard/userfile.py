"""Reading files a user hands us: hardware profiles, track files, scenarios, the journal.

One rule for every reader: only a regular file is read, and only up to a size limit. A device
(``/dev/zero``, ``/dev/urandom``), a FIFO, a socket or a directory -- or a link to one -- is
refused with one line naming the path, before a single byte is read: a FIFO is opened
non-blocking so that refusing it cannot hang, and the type is checked on the open descriptor
(``fstat``), so the file cannot be swapped between the check and the read.

Text from such files ends up in one-line error messages and on terminals; :func:`escape` writes
control characters (a newline in a value, an ANSI escape in a name) as visible escapes.

Example::

    >>> from pathlib import Path
    >>> read_user_file(Path("/dev/zero"))
    Traceback (most recent call last):
    ...
    pitboard.userfile.UserFileError: /dev/zero: not a regular file (a character device)
    >>> escape('2468\\n')
    '2468\\\\n'
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from typing import Any

__all__ = ["MAX_BYTES", "UserFileError", "escape", "parse_toml", "read_user_file"]

#: the largest profile, track or scenario file we read (the shipped ones are a few KiB)
MAX_BYTES = 1 << 20

_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


class UserFileError(OSError):
    """A file that cannot be used; ``str()`` is one line ``<path>: <what is wrong>``.

    ``path`` and ``problem`` are already escaped for printing.

    Example::

        >>> str(UserFileError("a\\nb.toml", "too large"))
        'a\\\\nb.toml: too large'
    """

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = escape(os.fspath(path))
        self.problem = escape(problem)
        super().__init__(self.path, self.problem)

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


def read_user_file(
    path: str | os.PathLike[str], *, limit: int = MAX_BYTES, follow_links: bool = True
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises :class:`UserFileError` (one line, naming the path) for anything else: a missing or
    unreadable file, a device, FIFO, socket or directory (or a link to one), a file larger than
    ``limit``; with ``follow_links=False`` a symbolic link is refused as well (the journal's own
    files are never links).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    if not follow_links:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_links:
            raise UserFileError(path, "not a regular file (a symbolic link)") from None
        raise UserFileError(path, f"cannot read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "a special file")
            raise UserFileError(path, f"not a regular file ({kind})")
        if info.st_size > limit:
            raise UserFileError(path, f"too large ({info.st_size} bytes, the limit is {limit})")
        chunks: list[bytes] = []
        left = limit + 1  # one more than allowed: a file still growing is caught too
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise UserFileError(path, f"too large (more than {limit} bytes)")
        return b"".join(chunks)
    except UserFileError:
        raise
    except OSError as exc:
        raise UserFileError(path, f"cannot read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def parse_toml(text: str) -> dict[str, Any]:
    """:func:`tomllib.loads`, with too-deep nesting as a :class:`tomllib.TOMLDecodeError`.

    tomllib parses nested arrays and inline tables recursively, so ``x = [[[[...]]]]`` a few
    thousand deep is a RecursionError without a position; callers then see the same error type
    as for any other syntax problem.
    """
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("arrays or tables nested too deeply") from None


def escape(text: str) -> str:
    """``text`` with control characters written as escapes, so it prints as one safe line.

    Example::

        >>> escape("Ann\\x1b[2J")
        'Ann\\\\x1b[2J'
        >>> escape("tab\\there")
        'tab\\\\there'
    """
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char.isprintable():
            out.append(char)
        elif char in _NAMED:
            out.append(_NAMED[char])
        else:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000
                       else f"\\U{code:08x}")
    return "".join(out)


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
