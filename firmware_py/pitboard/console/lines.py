"""Received bytes to bounded lines: :class:`LineSplitter` and :data:`MAX_LINE`.
"""

from __future__ import annotations

import re
from typing import Final

#: longest accepted line in bytes, not counting the line ending
MAX_LINE: Final = 256
_EOL = re.compile(rb"\r\n|\r|\n")


class LineSplitter:
    """Received bytes to lines: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each end one line.

    A line longer than ``max_line`` bytes is dropped up to its line ending and comes out as
    ``None`` (once), so memory stays bounded whatever arrives.

    Example::

        >>> s = LineSplitter(max_line=4)
        >>> s.feed(b"ab\\r\\ncd\\rtoo long\\nhal")
        [b'ab', b'cd', None]
        >>> s.feed(b"f\\n")
        [b'half']
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._too_long = False
        self._after_cr = False

    def reset(self) -> None:
        """Forget any partial line (after the port was reopened)."""
        self._buf.clear()
        self._too_long = False
        self._after_cr = False

    def feed(self, data: bytes) -> list[bytes | None]:
        """The lines completed by ``data``, in order (``None`` for each over-long line)."""
        if not data:
            return []
        lines: list[bytes | None] = []
        pos = 1 if self._after_cr and data[:1] == b"\n" else 0  # \r\n split across reads
        self._after_cr = False
        for match in _EOL.finditer(data, pos):
            self._take(data[pos:match.start()])
            lines.append(None if self._too_long else bytes(self._buf))
            self._buf.clear()
            self._too_long = False
            pos = match.end()
            self._after_cr = match.group() == b"\r"
        if pos < len(data):
            self._after_cr = False
            self._take(data[pos:])
        return lines

    def _take(self, chunk: bytes) -> None:
        if self._too_long:
            return
        if len(self._buf) + len(chunk) > self.max_line:
            self._too_long = True
            self._buf.clear()
        else:
            self._buf += chunk

