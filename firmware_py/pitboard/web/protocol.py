"""The phone's messages, checked at the edge like a console line: :func:`parse_message` turns
one WebSocket text message into one of a few frozen dataclasses, or raises
:class:`MessageError` with a one-line reason. Nothing here touches the table or a socket, so
the fuzz tests throw anything at it.

A message is a JSON object, at most :data:`MAX_MESSAGE` bytes, whose ``"t"`` names its kind;
every kind lists its keys and each key's type and range, and a key it does not list is an
error, as is a ``true`` where a number belongs. Numbers count from 0 as the table's events do
(slot 0-6 left to right, seat = station index); gears are 1-4 as printed on the lever.

=========  =====================================  =========================================
kind       keys                                   what it asks
=========  =====================================  =========================================
join       code (digits), name, seat (optional)   take a free seat (that one if it is free)
resume     seat, token                            back to my seat after a reload or sleep
tap        slot 0-6, n (optional)                 the tray button under that spot
go         n (optional)                           GO
gear       gear 1-4, n (optional)                 the gear lever
leave                                             give the seat up
pin        pin (4-8 digits)                       unlock the staff actions (the staff PIN)
lock                                              lock them again
free       seat                                   staff: take a seat from its phone
=========  =====================================  =========================================

``n`` is the phone's own count of its inputs: the frame that shows an input's effect carries
it back as ``ack`` (:mod:`pitboard.web.hub`).

Example::

    >>> parse_message('{"t": "tap", "slot": 3, "n": 12}')
    Tap(slot=3, n=12)
    >>> parse_message('{"t": "gear", "gear": 5}')
    Traceback (most recent call last):
    ...
    pitboard.web.protocol.MessageError: gear must be 1..4, not 5
    >>> parse_message('{"t": "tap", "slot": 1, "station": 4}')
    Traceback (most recent call last):
    ...
    pitboard.web.protocol.MessageError: tap: unknown key 'station' (keys: n, slot)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from ..hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from ..table.station import SLOTS

#: the longest message a phone may send (a join with a name is ~80 bytes)
MAX_MESSAGE: Final = 512
#: the highest seat (station index) a message may name
MAX_SEAT: Final = 5
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
_DIGITS = re.compile(r"[0-9]{0,12}")  # none: the first phone at an open table


class MessageError(ValueError):
    """A message the server does not take; ``str()`` is the one-line reason the phone gets.

    Example::

        >>> str(MessageError("unknown message kind 'x'"))
        "unknown message kind 'x'"
    """


@dataclass(frozen=True, slots=True)
class Join:
    """Take a free seat with the join code (``seat``: the one wanted, if it is free).

    Example::

        >>> parse_message('{"t": "join", "code": "0427", "name": "Bea", "seat": 2}').seat
        2
    """

    code: str
    name: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Resume:
    """Back to ``seat`` with the token the server gave when it was taken.

    Example::

        >>> parse_message('{"t": "resume", "seat": 1, "token": "' + "x" * 43 + '"}').seat
        1
    """

    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Tap:
    """The tray button ``slot`` (0-6).

    Example::

        >>> Tap(slot=6)
        Tap(slot=6, n=0)
    """

    slot: int
    n: int = 0


@dataclass(frozen=True, slots=True)
class Go:
    """The GO button.

    Example::

        >>> parse_message('{"t": "go", "n": 3}')
        Go(n=3)
    """

    n: int = 0


@dataclass(frozen=True, slots=True)
class Gear:
    """The gear lever to ``gear`` (1-4).

    Example::

        >>> parse_message('{"t": "gear", "gear": 2}')
        Gear(gear=2, n=0)
    """

    gear: int
    n: int = 0


@dataclass(frozen=True, slots=True)
class Leave:
    """Give the seat up.

    Example::

        >>> parse_message('{"t": "leave"}')
        Leave()
    """


@dataclass(frozen=True, slots=True)
class Pin:
    """The staff PIN, to unlock the staff actions and the lobby's settings.

    Example::

        >>> parse_message('{"t": "pin", "pin": "12"}')
        Traceback (most recent call last):
        ...
        pitboard.web.protocol.MessageError: pin must be 4-8 digits
    """

    pin: str


@dataclass(frozen=True, slots=True)
class Lock:
    """Lock the staff actions again.

    Example::

        >>> parse_message('{"t": "lock"}')
        Lock()
    """


@dataclass(frozen=True, slots=True)
class Free:
    """Staff: take ``seat`` from the phone holding it.

    Example::

        >>> parse_message('{"t": "free", "seat": 3}')
        Free(seat=3)
    """

    seat: int


Message: TypeAlias = Join | Resume | Tap | Go | Gear | Leave | Pin | Lock | Free
#: the inputs a seated phone sends: each is one station event
Input: TypeAlias = Tap | Go | Gear


def _int(low: int, high: int) -> Callable[[str, Any], int]:
    def check(key: str, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise MessageError(f"{key} must be a whole number")
        if not low <= value <= high:
            raise MessageError(f"{key} must be {low}..{high}, not {value}")
        return value
    return check


def _text(longest: int, pattern: re.Pattern[str] | None = None,
          what: str = "") -> Callable[[str, Any], str]:
    def check(key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise MessageError(f"{key} must be text")
        if len(value) > longest or (pattern is not None and not pattern.fullmatch(value)):
            raise MessageError(f"{key} must be {what or f'at most {longest} characters'}")
        return value
    return check


_N = _int(0, 2 ** 31 - 1)
_SEAT = _int(0, MAX_SEAT)
#: kind -> (class, {key: check}, required keys)
_KINDS: dict[str, tuple[type, dict[str, Callable[[str, Any], Any]], frozenset[str]]] = {
    "join": (Join, {"code": _text(12, _DIGITS, "the digits of the join code"),
                    "name": _text(40), "seat": _SEAT}, frozenset({"code", "name"})),
    "resume": (Resume, {"seat": _SEAT, "token": _text(64, _TOKEN, "a seat token")},
               frozenset({"seat", "token"})),
    "tap": (Tap, {"slot": _int(0, SLOTS - 1), "n": _N}, frozenset({"slot"})),
    "go": (Go, {"n": _N}, frozenset()),
    "gear": (Gear, {"gear": _int(1, 4), "n": _N}, frozenset({"gear"})),
    "leave": (Leave, {}, frozenset()),
    "pin": (Pin, {"pin": _text(8, re.compile(r"[0-9]{4,8}"), "4-8 digits")},
            frozenset({"pin"})),
    "lock": (Lock, {}, frozenset()),
    "free": (Free, {"seat": _SEAT}, frozenset({"seat"})),
}


def parse_message(data: str | bytes) -> Message:
    """One message from a phone, checked; :class:`MessageError` (one line) if it is not one.

    Example::

        >>> parse_message('{"t": "join", "code": "0427", "name": "Alice"}')
        Join(code='0427', name='Alice', seat=None)
        >>> parse_message(b'{"t": "go"')
        Traceback (most recent call last):
        ...
        pitboard.web.protocol.MessageError: not JSON
    """
    if len(data) > MAX_MESSAGE:
        raise MessageError(f"message too long (at most {MAX_MESSAGE} bytes)")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):  # JSONDecodeError, bad UTF-8, deep nesting
        raise MessageError("not JSON") from None
    if not isinstance(raw, dict):
        raise MessageError('a message is a JSON object {"t": ...}')
    kind = raw.get("t")
    if not isinstance(kind, str) or kind not in _KINDS:
        shown = kind if isinstance(kind, str) and kind.isprintable() and len(kind) <= 16 \
            else "?"
        raise MessageError(f"unknown message kind {shown!r} (kinds: {', '.join(_KINDS)})")
    cls, checks, required = _KINDS[kind]
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "t":
            continue
        check = checks.get(key)
        if check is None:
            shown = key if key.isprintable() and len(key) <= 16 else "?"
            raise MessageError(f"{kind}: unknown key {shown!r} (keys: "
                               f"{', '.join(sorted(checks)) or 'none'})")
        values[key] = check(key, value)
    missing = sorted(required - values.keys())
    if missing:
        raise MessageError(f"{kind}: {', '.join(missing)} missing")
    message: Message = cls(**values)
    return message


def station_event(message: Input, station: int) -> StationEvent:
    """The station event a seated phone's input is, for its own ``station`` (never one the
    message names: an input names none).

    Example::

        >>> station_event(Tap(slot=2), 4), station_event(Gear(gear=3), 4)
        (SlotPressed(station=4, slot=2), LeverMoved(station=4, gear=3))
    """
    if isinstance(message, Tap):
        return SlotPressed(station=station, slot=message.slot)
    if isinstance(message, Gear):
        return LeverMoved(station=station, gear=message.gear)
    return GoPressed(station=station)
