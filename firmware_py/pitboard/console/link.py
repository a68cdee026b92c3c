"""How the console reaches the table: :class:`DirectLink` (the caller's thread) or
:class:`QueueLink` (the game thread, through :class:`~pitboard.table.table.Call`, bounded wait).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, Final, Protocol, TypeVar, cast

from ..hw.events import StationEvent
from ..table.table import Call, Table

#: how long a command waits for the game thread before answering ``ERR busy``
CALL_TIMEOUT: Final = 2.0

T = TypeVar("T")


class TableBusy(Exception):
    """The game thread did not answer in time (the console answers ``ERR busy``).

    Example (a :class:`QueueLink` whose game thread runs nothing)::

        >>> from pitboard.table.table import Table
        >>> link = QueueLink(Table(stations=1), timeout=0)
        >>> try:
        ...     link.call(lambda: 42)
        ... except TableBusy as exc:
        ...     print(exc)
        the table did not answer in 0 s
    """


class TableLink(Protocol):
    """How the protocol reaches the table: run code on the game thread, post input events.

    :class:`DirectLink` and :class:`QueueLink` are the two; the session takes either.

    Example::

        >>> from pitboard.console import ConsoleProtocol
        >>> from pitboard.hw.events import GoPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=2)
        >>> link: TableLink = DirectLink(table)  # QueueLink(table) when a game thread runs
        >>> proto = ConsoleProtocol(table, staff_pin="2468", link=link)
        >>> link.post(GoPressed(station=0)); link.call(lambda: table.stations[0].joined)
        True
    """

    def call(self, fn: Callable[[], T]) -> T: ...

    def post(self, event: StationEvent) -> None: ...


class DirectLink:
    """Run commands in the caller's thread: for a table nobody else drives (tests, tools).

    Example::

        >>> from pitboard.table.table import Table
        >>> DirectLink(Table(stations=1)).call(lambda: 42)
        42
    """

    def __init__(self, table: Table) -> None:
        self.table = table

    def call(self, fn: Callable[[], T]) -> T:
        result = fn()
        self.table.refresh()  # as Table.handle does after a Call
        return result

    def post(self, event: StationEvent) -> None:
        self.table.handle(event)


class QueueLink:
    """Run commands on the game thread through :class:`Call`, waiting at most ``timeout``.

    While an earlier call is still unanswered every new one fails at once with
    :class:`TableBusy`, so a stalled game thread does not collect a pile of console calls.

    Example::

        >>> from pitboard.table.table import Table
        >>> link = QueueLink(Table(stations=1), timeout=0)  # nobody runs the game thread
        >>> link.call(lambda: 42)
        Traceback (most recent call last):
        ...
        pitboard.console.link.TableBusy: the table did not answer in 0 s
    """

    def __init__(self, table: Table, timeout: float = CALL_TIMEOUT) -> None:
        self.table = table
        self.timeout = timeout
        self._idle = threading.Event()
        self._idle.set()

    def call(self, fn: Callable[[], T]) -> T:
        if not self._idle.is_set():
            raise TableBusy("the table is still busy with an earlier command")
        box: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

        def run() -> tuple[bool, Any]:
            try:
                return True, fn()
            except Exception as exc:  # handed back to the console thread, raised there
                return False, exc

        def reply(result: Any) -> None:  # game thread: must never block
            box.put_nowait(result)
            self._idle.set()

        self._idle.clear()
        self.table.post(Call(run, reply))
        try:
            ok, value = box.get(timeout=self.timeout)
        except queue.Empty:
            raise TableBusy(f"the table did not answer in {self.timeout:g} s") from None
        if not ok:
            raise value
        return cast(T, value)

    def post(self, event: StationEvent) -> None:
        if not self._idle.is_set():
            raise TableBusy("the table is still busy with an earlier command")
        self.table.post(event)

