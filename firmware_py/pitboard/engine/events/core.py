"""What every event is: the base classes, the register of kinds and the JSON form.

:class:`Event` (and :class:`CarEvent`, about one car) is a frozen dataclass; each kind registers
itself with :func:`register_event`, and :func:`event_from_dict` reads back what
:meth:`Event.to_dict` wrote. :class:`Place` is a car's place on the course. The kinds are in the
files beside this one (the base game's, then each module's); :mod:`pitboard.engine.events`
imports them all.

Example::

    >>> from pitboard.engine.events import Moved
    >>> EVENTS["move"] is Moved
    True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

#: kind ("move") -> its class; every class below registers itself
EVENTS: dict[str, type[Event]] = {}

E = TypeVar("E", bound="Event")
#: field name -> a function making the field's value from its JSON form
Decoders = Mapping[str, Callable[[Any], Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event has: the round it happened in (0 before the first round).

    Example: the kind's name and the JSON keys in order, from the class::

        >>> from pitboard.engine.events import Moved
        >>> Moved.kind, Moved.keys[:4], Moved.keys[-2:]
        ('move', ('car', 'why', 'frm', 'spaces'), ('type', 'round'))
    """

    #: the kind's name: the ``type`` of the JSON form
    kind: ClassVar[str] = ""
    #: the keys of the JSON form, in order (set by :func:`register_event`)
    keys: ClassVar[tuple[str, ...]] = ()
    #: fields whose JSON form is not the field's (lists read back as tuples by default)
    decode: ClassVar[Decoders] = {}

    round: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: plain types (lists, not tuples), keys in the documented order."""
        return {key: self.kind if key == "type" else _plain(getattr(self, key))
                for key in self.keys}


@dataclass(frozen=True, slots=True, kw_only=True)
class CarEvent(Event):
    """An event about one car (``car``: its id, from 0).

    Example::

        >>> from pitboard.engine.events import Flipped
        >>> isinstance(Flipped(car=1, card="3", kept=True, why="boost", round=2), CarEvent)
        True
    """

    car: int


def register_event(cls: type[E]) -> type[E]:
    """Make ``cls`` (a frozen dataclass of :class:`Event`) readable by :func:`event_from_dict`
    under ``cls.kind``; its JSON keys are its fields in order, then ``type`` and ``round``
    (unless the class lists its own :attr:`Event.keys`). Use as a decorator."""
    if not cls.kind:
        raise ValueError(f"{cls.__name__} has no kind")
    if EVENTS.get(cls.kind, cls) is not cls:
        raise ValueError(f"event kind {cls.kind!r} already registered")
    if "keys" not in vars(cls):
        cls.keys = (*(f.name for f in fields(cls) if f.name != "round"), "type", "round")
    EVENTS[cls.kind] = cls
    return cls


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event :meth:`Event.to_dict` wrote; ValueError (one line) if it is none."""
    kind = EVENTS.get(data.get("type"))  # type: ignore[arg-type]  # (any value: checked here)
    if kind is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    values = {}
    for f in fields(kind):
        if f.name not in data:
            raise ValueError(f"{kind.kind} event without {f.name!r}")
        value = data[f.name]
        try:
            values[f.name] = kind.decode[f.name](value) if f.name in kind.decode else \
                _tuples(value)
        except (TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{kind.kind} event: {f.name}: {exc}") from None
    return kind(**values)


def _plain(value: Any) -> Any:
    """A field's JSON value: tuples become lists, places dicts."""
    if type(value) is tuple:
        return [_plain(v) for v in value]
    if isinstance(value, Place):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    return value


def _tuples(value: Any) -> Any:
    """A field's value from JSON: lists become tuples."""
    return tuple(map(_tuples, value)) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class Place:
    """Where a car stands: ``d`` (spaces travelled from the start line; the grid is at 0 and
    below), the ``lap`` it drives (0 on the grid), the board ``space`` (1..N from the finish
    line), its ``spot`` there (1 or 2) and whether that spot is on the ``racing_line``.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.where(race.cars[0])
        Place(d=0, lap=0, space=69, spot=2, racing_line=False)
    """

    d: int
    lap: int
    space: int
    spot: int
    racing_line: bool


@dataclass(frozen=True, slots=True)
class GridSpot(Place):
    """A car's place on the starting grid (in :class:`GridDrawn`).

    Example::

        >>> GridSpot(d=0, lap=0, space=70, spot=1, racing_line=True, car=2).car
        2
    """

    car: int
