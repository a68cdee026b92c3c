"""What a console command is, and how it fails: shared by :mod:`.protocol` (the session and
its command table) and :mod:`.options` (the module options' commands)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class CommandError(Exception):
    """A command that cannot be done; ``str()`` is the reason after ``ERR``.

    A command raises it (on the game thread too: :class:`~pitboard.console.link.QueueLink`
    raises it again in the console's) and the session answers with its reason.

    Example::

        >>> from pitboard.console import ConsoleProtocol
        >>> from pitboard.table.table import Table
        >>> proto = ConsoleProtocol(Table(stations=2, seed=1), staff_pin="2468")
        >>> proto.handle_line("pin 2468"), proto.handle_line("undo")
        (['OK unlocked'], ['ERR no race to undo'])
    """


class _Usage(Exception):
    """Wrong arguments: the console answers ``ERR usage: <grammar>``."""


@dataclass(frozen=True)
class _Command:
    fn: Callable[[list[str]], list[str]]
    usage: str
    help: str
    #: changes the race or the table: needs the staff PIN
    changes: bool = False
