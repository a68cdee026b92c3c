"""The staff serial console: a line protocol on a serial port (see ``docs/console.md``).

Three layers, so that most of it is testable without a serial port:

* :class:`LineSplitter` turns received bytes into bounded lines (:mod:`.lines`);
* :class:`ConsoleProtocol` turns one line into reply lines and formats the event stream
  (:mod:`.protocol`, with the table views of :mod:`.views` and the table links of :mod:`.link`);
* :class:`Console` owns the port and a thread that reads, answers, streams events and reopens
  the port after a serial error (:mod:`.port`).

This package re-exports the public names of those modules, so ``pitboard.console.X`` works
as it did when the console was one file. Imports run one way: ``lines``, ``link``, ``views``
<- ``protocol`` <- ``port`` <- this package.

The console never touches the table from its own thread: every command runs on the game
thread through :class:`~pitboard.table.table.Call` (or, for ``input``, is posted to the table's
queue exactly like a hardware event), and the console waits for the answer for a bounded time.

Example::

    >>> from pitboard.table.table import Table
    >>> proto = ConsoleProtocol(Table(stations=2), staff_pin="2468")
    >>> proto.feed(b"status\\r\\n")[0].split()[:3]
    ['OK', 'state=lobby', 'track=usa']
    >>> proto.feed(b"reset\\n")
    ["ERR locked: send 'pin <staff PIN>' first"]
"""

from __future__ import annotations

from ..staffpin import MAX_PIN_FAILURES, PIN_LOCKOUT, UNLOCK_IDLE
from .command import CommandError
from .lines import MAX_LINE, LineSplitter
from .link import CALL_TIMEOUT, DirectLink, QueueLink, TableBusy, TableLink
from .port import BACKOFF, READ_TIMEOUT, WRITE_TIMEOUT, Console, SerialPort, open_console
from .protocol import EVENT_BACKLOG, EVENT_MODES, OUTPUT_WORDS, ConsoleProtocol
from .views import state_dict, status_line

__all__ = [
    "BACKOFF",
    "CALL_TIMEOUT",
    "EVENT_BACKLOG",
    "EVENT_MODES",
    "MAX_LINE",
    "MAX_PIN_FAILURES",
    "OUTPUT_WORDS",
    "PIN_LOCKOUT",
    "READ_TIMEOUT",
    "UNLOCK_IDLE",
    "WRITE_TIMEOUT",
    "CommandError",
    "Console",
    "ConsoleProtocol",
    "DirectLink",
    "LineSplitter",
    "QueueLink",
    "SerialPort",
    "TableBusy",
    "TableLink",
    "open_console",
    "state_dict",
    "status_line",
]
