"""Phone seats, the table's side: which stations a phone may take, who holds each, and the
join code.

The web server (:mod:`pitboard.web`) keeps the phones' secret tokens; the table keeps what the
screens show and every client must agree on:

* the **join code** a phone types (or reads from the lobby's QR code) to take a free seat: a
  few random digits, drawn anew when a race starts, so a code seen at one race's lobby is
  no use once that race is under way;
* each seat's **holder** -- the player's name, which becomes the station's name and so the
  car's -- and a **generation** that moves on whenever the seat changes hands, so a token
  of an earlier holder stops working (the staff console freeing a seat, a phone leaving).

The web thread asks for changes with :class:`SeatClaimed` and :class:`SeatLeft`, posted
through :meth:`~pitboard.table.table.Table.post` like any input; the game thread applies them
here. Staff free a seat with :meth:`PhoneSeats.free` (the console's ``seat`` command).

Example::

    >>> from pitboard.table.table import Table
    >>> seats = PhoneSeats([1], url="http://pitboard.local:8080/")
    >>> table = Table(stations=2, seed=1, phones=seats)
    >>> table.handle(SeatClaimed(station=1, name="Alice", generation=0))
    >>> table.stations[1].name, seats.holders, seats.generations
    ('Alice', {1: 'Alice'}, {1: 1})
    >>> table.handle(SeatLeft(station=1, generation=1))
    >>> table.stations[1].name, seats.holders
    ('S2', {})
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from . import flow
from .station import Station

log = logging.getLogger("pitboard.table")

#: digits of the join code: short enough to type, and guessed only by brute force, which the
#: web server's per-address limits make slow (an hour for one chance in ten at 4 digits)
CODE_DIGITS = 4
#: a phone player's name: what a station's title and the race's order lists can show
NAME_MAX = 10


@dataclass(frozen=True, slots=True)
class SeatClaimed:
    """A phone takes the free seat ``station`` as ``name`` (the web server checked the code).

    ``generation`` is the seat's generation the server saw: a seat that changed hands since
    (staff freed it, another phone got it) is not taken.

    Example::

        >>> SeatClaimed(station=2, name="Bea", generation=0).name
        'Bea'
    """

    station: int
    name: str
    generation: int


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """The phone holding ``station`` (at ``generation``) gave the seat up, or was away too long.

    Example::

        >>> SeatLeft(station=2, generation=1).station
        2
    """

    station: int
    generation: int


SeatEvent = SeatClaimed | SeatLeft


@dataclass(frozen=True, slots=True)
class JoinInfo:
    """What the lobby shows for joining from a phone: the address, the code and the text of
    the QR code (the address with the code: scanning it opens the join page, code filled in).

    Example::

        >>> info = JoinInfo("http://pitboard.local:8080/", "0427")
        >>> info.qr, info.host
        ('HTTP://PITBOARD.LOCAL:8080/J/0427', 'pitboard.local:8080')
    """

    url: str
    code: str

    @property
    def qr(self) -> str:
        """The QR code's text. A plain address is written in capitals (scheme and host do not
        care, and the server answers ``/J/``): a QR code of capitals, digits and ``:/.`` is
        about a third smaller, so it stays legible on a 128x64 OLED."""
        parts = urlsplit(self.url)
        if parts.path in ("", "/") and not parts.query and not parts.fragment:
            return f"{parts.scheme}://{parts.netloc}/J/{self.code}".upper()
        return f"{self.url.rstrip('/')}/j/{self.code}"

    @property
    def host(self) -> str:
        """The address without ``http://`` and the last slash, as a screen line shows it."""
        parts = urlsplit(self.url)
        return parts.netloc + parts.path.rstrip("/")


@dataclass(frozen=True, slots=True)
class SeatView:
    """One phone seat as the web server sees it (:class:`PhoneSeats.seat_views`).

    Example::

        >>> SeatView(station=1, holder="", generation=0, joined=False, playing=False).free
        True
    """

    station: int
    #: the phone player's name ("" while no phone holds it)
    holder: str
    generation: int
    #: the station joined the next race (the lobby) or drives a car
    joined: bool
    #: the station drives a car in the race on now
    playing: bool
    #: an emulated station, which its keyboard (the simulation) drives too
    shared: bool = False

    @property
    def free(self) -> bool:
        """No phone holds it, and nobody at the keyboard joined it (an emulated station)."""
        return not self.holder and not (self.shared and self.joined)


class PhoneSeats:
    """The phone seats of one table (see the module docstring).

    ``stations``: the stations a phone may take (the profile's phone seats, and any emulated
    station: those are ``shared`` with the simulation's keyboard); ``url``: the address phones
    open; ``open_table``: the first phone at a table no
    phone holds needs no code (a table with no screen to show it; the web server decides).

    Example::

        >>> seats = PhoneSeats([0, 1], url="http://10.0.0.2:8080/")
        >>> len(seats.code), seats.code.isdigit(), seats.info().url
        (4, True, 'http://10.0.0.2:8080/')
    """

    def __init__(self, stations: Sequence[int], *, url: str, shared: Sequence[int] = (),
                 open_table: bool = False) -> None:
        self.stations = tuple(stations)
        self.shared = frozenset(shared)
        self.url = url
        self.open_table = open_table
        self.holders: dict[int, str] = {}
        self.generations: dict[int, int] = {i: 0 for i in self.stations}
        #: the station names to give back when a phone leaves (Table fills them in)
        self.labels: dict[int, str] = {}
        self.code = ""
        self._setup: Any = None
        self.rotate(quiet=True)  # the start-up line says it

    def rotate(self, *, quiet: bool = False) -> None:
        """Draw a new join code (a race started); logged, for a table with no screen."""
        self.code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        log.log(logging.DEBUG if quiet else logging.INFO, "phones: join code %s at %s",
                self.code, self.url)

    def info(self) -> JoinInfo:
        """The lobby's join line and QR code."""
        return JoinInfo(self.url, self.code)

    def note_race(self, race: Any) -> None:
        """Game thread, every redraw: a race that is new (started, or resumed after a restart;
        not one replayed by an undo, which keeps its setup) gets a new join code."""
        setup = race.setup if race is not None else None
        if setup is not None and setup is not self._setup:
            self.rotate()
        if setup is not None:
            self._setup = setup

    def seat_views(self, stations: Sequence[Station]) -> tuple[SeatView, ...]:
        """Every phone seat, for the web server."""
        return tuple(SeatView(i, self.holders.get(i, ""), self.generations[i],
                              stations[i].joined, stations[i].car is not None, i in self.shared)
                     for i in self.stations)

    # -- game thread ---------------------------------------------------------------------
    def handle(self, event: SeatEvent, stations: Sequence[Station], state: str) -> None:
        """Apply a claim or a leave; one that is out of date (the seat changed hands since the
        server looked) is dropped and the server finds out from the next seat views."""
        i = event.station
        if i not in self.generations or event.generation != self.generations[i]:
            log.info("phones: %r is out of date (seat generation %s)", event,
                     self.generations.get(i))
            return
        st = stations[i]
        if isinstance(event, SeatClaimed):
            if i in self.holders or (i in self.shared and st.joined):
                return  # someone sits there: the server sees it and says so
            self.labels.setdefault(i, st.name)
            self.holders[i] = event.name
            self.generations[i] += 1
            st.name = event.name
            log.info("phones: %s took seat S%d", event.name, i + 1)
            return
        if i in self.holders:
            self._vacate(st, state)
            log.info("phones: seat S%d is free again", i + 1)

    def free(self, station: int, stations: Sequence[Station], state: str) -> str:
        """Staff: take seat ``station`` from the phone holding it (its token stops working) so
        that another phone can take it with the join code. Returns a one-line answer; raises
        ValueError (one line) for a station that is not a phone seat."""
        if station not in self.generations:
            seats = ", ".join(f"S{i + 1}" for i in self.stations) or "none"
            raise ValueError(f"S{station + 1} is not a phone seat (phone seats: {seats})")
        holder = self.holders.get(station)
        if holder is None:
            return f"S{station + 1} is free; join code {self.code}"
        self._vacate(stations[station], state)
        log.warning("phones: staff freed seat S%d (held by %s)", station + 1, holder)
        return f"S{station + 1} freed ({holder}'s phone is out); join code {self.code}"

    def _vacate(self, st: Station, state: str) -> None:
        del self.holders[st.index]
        self.generations[st.index] += 1
        st.name = self.labels.get(st.index, f"S{st.index + 1}")
        if state in (flow.LOBBY, flow.ATTRACT):
            st.joined = False  # a car in a race stays: its next holder (or a bot) drives it


def valid_name(text: str) -> str:
    """``text`` as a player's name, or raise ValueError (one line) saying why not: 1 to
    :data:`NAME_MAX` letters, digits, spaces and ``-'._`` (what every screen's font draws).

    Example::

        >>> valid_name("  Alice B. ")
        'Alice B.'
        >>> valid_name("Bot 1")
        Traceback (most recent call last):
        ...
        ValueError: that name is the bots', the Legends' or a station's
    """
    name = " ".join(text.split())
    if not name:
        raise ValueError("a name, please")
    if len(name) > NAME_MAX:
        raise ValueError(f"at most {NAME_MAX} characters")
    if not all(ch.isascii() and (ch.isalnum() or ch in " -'._") for ch in name):
        raise ValueError("letters, digits, spaces and - ' . _ only")
    low = name.lower()
    if low.startswith("bot") or low.endswith("legend") or \
            (low[:1] == "s" and low[1:].isdigit()):
        raise ValueError("that name is the bots', the Legends' or a station's")
    return name
