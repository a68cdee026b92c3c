"""Station input events: what a station's hardware tells the game thread.

Every backend (direct GPIO, MCP23017 over I2C, the desktop simulation) posts these plain frozen
dataclasses to a ``post`` callback; the table's game thread reads them from a queue.

Numbering: ``station`` is the 0-based index into the hardware profile's ``[[stations]]`` list
(people see it as "S1".."S6"); ``slot`` is 0..6 from the left of the card tray; ``gear`` is 1..4
as printed on the lever gate.

Example::

    >>> import queue
    >>> q: queue.Queue[StationEvent] = queue.Queue()
    >>> q.put(LeverMoved(station=0, gear=3))
    >>> q.get()
    LeverMoved(station=0, gear=3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class LeverMoved:
    """The gear lever settled in a gear (1..4).

    Also posted once at start-up, when the lever's first position has settled.

    Example::

        >>> LeverMoved(station=1, gear=4).gear
        4
    """

    station: int
    gear: int


@dataclass(frozen=True, slots=True)
class LeverFault:
    """Two or more gear contacts closed at once: a wiring fault (posted once per episode).

    ``contacts`` lists the closed contacts as gear numbers (1..4), ascending.

    Example::

        >>> LeverFault(station=0, contacts=(2, 3)).contacts
        (2, 3)
    """

    station: int
    contacts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LeverFaultCleared:
    """The lever is back to at most one closed contact after a :class:`LeverFault`.

    Example::

        >>> LeverFaultCleared(station=0)
        LeverFaultCleared(station=0)
    """

    station: int


@dataclass(frozen=True, slots=True)
class SlotPressed:
    """A card-tray slot button (0..6) was pressed (debounced, once per press).

    Example::

        >>> SlotPressed(station=2, slot=6).slot
        6
    """

    station: int
    slot: int


@dataclass(frozen=True, slots=True)
class GoPressed:
    """The station's GO button was pressed (debounced, once per press).

    Example::

        >>> GoPressed(station=5)
        GoPressed(station=5)
    """

    station: int


@dataclass(frozen=True, slots=True)
class InputFault:
    """The station's input hardware stopped answering (posted once per fault episode).

    Example::

        >>> InputFault(station=3, message="MCP23017 0x20 on I2C bus 25: [Errno 121] ...").station
        3
    """

    station: int
    message: str


@dataclass(frozen=True, slots=True)
class InputFaultCleared:
    """The station's input hardware answers again after an :class:`InputFault`.

    Example::

        >>> InputFaultCleared(station=3)
        InputFaultCleared(station=3)
    """

    station: int


StationEvent: TypeAlias = (
    LeverMoved
    | LeverFault
    | LeverFaultCleared
    | SlotPressed
    | GoPressed
    | InputFault
    | InputFaultCleared
)

#: the callback every input backend posts to (it must only enqueue, never block)
PostEvent: TypeAlias = Callable[[StationEvent], None]
