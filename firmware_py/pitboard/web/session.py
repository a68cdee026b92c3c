"""What a phone may do, checked at the edge: :class:`Seats` answers every message of every
phone (:mod:`pitboard.web.protocol`) on the web thread.

* **join** needs the lobby's join code (wrong codes counted per address: five in a row lock
  that address out for a minute) and a name; the phone gets a free seat and its token.
* **resume** needs the seat's token: a phone back from a reload, a sleep or a lost Wi-Fi is
  at its seat again, its screen redrawn. A second device with the same token takes the seat
  over (the first is told so and let go); without the token only staff can give a seat to
  another phone: they free it (the console's ``seat`` command, or **free** here after
  **pin**) and the next phone joins it with the code.
* **tap**, **go**, **gear** become the station events a wired station posts, for the phone's
  own seat only (a message names no station). A lobby key that changes the race's settings
  (track, laps, cars, a module's options) needs the staff PIN, as the lobby and kiosk
  settings from a browser must.
* **pin** unlocks the staff actions (the console's PIN and lockout, :mod:`pitboard.staffpin`)
  until :data:`~pitboard.staffpin.UNLOCK_IDLE` seconds pass without a message.

Every answer is one JSON frame; a refused message gets ``{"t": "err", "msg": "<one line>"}``,
never a traceback. The table is reached only by :meth:`~pitboard.table.table.Table.post`.

Example (no sockets: a seated phone's tap becomes its station's event)::

    >>> from pitboard.table.feed import TableFeed
    >>> from pitboard.table.phone_seats import JoinInfo, SeatView
    >>> from pitboard.table.view import StationView
    >>> posted = []
    >>> seats = Seats(post=posted.append, staff_pin="2468", clock=lambda: 0.0)
    >>> seats.hub.apply(TableFeed("lobby", (StationView("lobby", 0),), handled=(0,),
    ...     seats=(SeatView(0, "", 0, False, False),), join=JoinInfo("http://h:8080/", "0427")))
    >>> phone = Client(address="10.0.0.5", clock=lambda: 0.0)
    >>> seats.handle(phone, '{"t": "join", "code": "0427", "name": "Alice"}')
    >>> seats.handle(phone, '{"t": "go", "n": 1}')
    >>> posted
    [SeatClaimed(station=0, name='Alice', generation=0), GoPressed(station=0)]
    >>> seats.handle(phone, '{"t": "tap", "slot": 9}')
    >>> phone.outbox[-1]
    '{"t":"err","msg":"slot must be 0..6, not 9"}'
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from ..staffpin import UNLOCK_IDLE
from ..table import flow
from ..table.feed import TableFeed
from ..table.phone_seats import SeatClaimed, SeatLeft, SeatView, valid_name
from ..table.view import LOBBY
from .hub import Client, Hub, dumps, join_message
from .keys import SeatKeys
from .limits import MAX_REFUSED, PIN_FAILURES_ANYWHERE, Guesses
from .protocol import (
    Free,
    Gear,
    Go,
    Join,
    Leave,
    Lock,
    Message,
    MessageError,
    Pin,
    Resume,
    Tap,
    parse_message,
    station_event,
)

if TYPE_CHECKING:  # the table's events as a type only: the server never imports the table
    from ..table.table_base import TableEvent

log = logging.getLogger("pitboard.web")

#: lobby keys that change the race's settings: from a phone only with the staff PIN
SETTING_KEYS: Final = frozenset({"TRK", "LAPS", "CARS", "TYPE", "POOL", "EXP", "PRO", "AGGR",
                                 "SKY", "ROAD", "YEAR"})
#: a seat whose phone has been gone this long is given up while no race needs it (s)
AWAY_RELEASE: Final = 120.0
#: table states in which a seat holds no car that waits for its player
_BETWEEN_RACES: Final = (flow.LOBBY, flow.ATTRACT, flow.RESULTS)


class Closing(Exception):
    """The phone's socket must be closed (it kept flooding); ``str()`` says why.

    Example::

        try:
            seats.handle(client, data)
        except Closing as exc:
            await ws.close(code=1008, message=str(exc).encode())
    """


class Seats:
    """Every phone's messages and seat (see the module docstring).

    Example::

        seats = Seats(post=table.post, staff_pin="2468", clock=time.monotonic)
        seats.connected(client); seats.handle(client, text); seats.disconnected(client)
    """

    def __init__(self, *, post: Callable[[TableEvent], None], staff_pin: str,
                 clock: Callable[[], float], open_table: bool = False) -> None:
        self.post = post
        self.staff_pin = staff_pin
        self.clock = clock
        self.open_table = open_table
        self.hub = Hub(clock=clock)
        self.hub.on_feed = self._on_feed
        self.keys = SeatKeys(clock=clock)
        self.codes = Guesses(clock=clock, what="code")
        self.pins = Guesses(clock=clock, anywhere=PIN_FAILURES_ANYWHERE)
        #: seat -> the phone at it now
        self.at: dict[int, Client] = {}
        #: seat -> when its phone went away (a seat with a token and no phone)
        self.away: dict[int, float] = {}
        #: claims posted and not yet seen in the seat views: seat -> name
        self._claims: dict[int, str] = {}
        #: seats given up (left, freed) and not yet seen free in the seat views: seat -> the
        #: generation they have once the table has it (free to take already: the table takes
        #: the events in the order they were posted)
        self._released: dict[int, int] = {}

    # -- connections --------------------------------------------------------------------
    def connected(self, client: Client) -> None:
        self.hub.clients.add(client)
        self._hello(client)

    def disconnected(self, client: Client) -> None:
        client.closed = True
        client.wake.set()
        self.hub.clients.discard(client)
        self.hub.sent(client)  # no answer to wait for
        if client.seat is not None and self.at.get(client.seat) is client:
            del self.at[client.seat]
            self.away[client.seat] = self.clock()

    # -- messages -----------------------------------------------------------------------
    def handle(self, client: Client, data: str) -> None:
        """One message from ``client``; answers go to its outbox. Raises :class:`Closing`
        when the client must be let go."""
        now = self.clock()
        if not client.bucket.take(now):
            client.refused += 1
            if client.refused >= MAX_REFUSED:
                raise Closing("too many messages")
            if client.refused == 1:
                self._error(client, "too many messages: slow down")
            return
        client.refused = 0
        if client.unlocked():
            client.unlocked_until = now + UNLOCK_IDLE  # staff still at it
        try:
            message = parse_message(data)
            self._dispatch(client, message)
        except MessageError as exc:
            self._error(client, str(exc))

    def _dispatch(self, client: Client, message: Message) -> None:
        if isinstance(message, Join):
            self._join(client, message)
        elif isinstance(message, Resume):
            self._resume(client, message)
        elif isinstance(message, Tap | Go | Gear):
            self._input(client, message)
        elif isinstance(message, Leave):
            self._leave(client)
        elif isinstance(message, Pin):
            self._pin(client, message)
        elif isinstance(message, Lock):
            client.unlocked_until = 0.0
            client.say(dumps({"t": "staff", "unlocked": False}))
        elif isinstance(message, Free):
            self._free(client, message)

    def _join(self, client: Client, message: Join) -> None:
        feed = self._feed()
        if client.seat is not None:
            raise MessageError(f"you hold S{client.seat + 1}: leave it first")
        if feed.join is None:
            raise MessageError("this table has no phone seats")
        if not self._code_needed(feed) and not message.code:
            pass  # the first phone at an open table (hw_config [web] open_table)
        else:
            check = self.codes.check(client.address, message.code, feed.join.code)
            if not check.ok:
                raise MessageError(check.reason)
        try:
            name = valid_name(message.name)
        except ValueError as exc:
            raise MessageError(f"name: {exc}") from None
        taken = {s.holder.lower() for s in feed.seats
                 if s.holder and s.station not in self._released} | \
            {n.lower() for n in self._claims.values()}
        if name.lower() in taken:
            raise MessageError(f"{name} is at the table already: another name, please")
        free = self._free_seats(feed)
        if not free:
            raise MessageError("no free seat: every seat is taken")
        seat = next((s for s in free if s.station == message.seat), free[0])
        self.post(SeatClaimed(station=seat.station, name=name, generation=seat.generation))
        token = self.keys.issue(seat.station, generation=seat.generation + 1)
        self._claims[seat.station] = name
        self._sit(client, seat.station, token, name)
        log.info("phones: %s joins at S%d from %s", name, seat.station + 1, client.address)

    def _resume(self, client: Client, message: Resume) -> None:
        seat = message.seat
        if not self.keys.check(seat, message.token):
            raise MessageError("this phone no longer holds that seat (it was freed, or the "
                               "table restarted): join again")
        if client.seat is not None and client.seat != seat:
            raise MessageError(f"you hold S{client.seat + 1}: leave it first")
        before = self.at.get(seat)
        if before is not None and before is not client:  # the same token on a new device
            self._let_go(before, "this seat was opened on another device")
        name = self._claims.get(seat) or self._holder(seat)
        self._sit(client, seat, message.token, name)

    def _sit(self, client: Client, seat: int, token: str, name: str) -> None:
        client.seat = seat
        client.sent_view, client.sent_ack, client.sent_join = None, -1, None
        client.inputs.clear()
        self.at[seat] = client
        self.away.pop(seat, None)
        client.say(dumps({"t": "seat", "seat": seat, "token": token, "name": name}))

    def _input(self, client: Client, message: Tap | Go | Gear) -> None:
        seat = client.seat
        if seat is None:
            raise MessageError("take a seat first")
        feed = self._feed()
        if isinstance(message, Tap) and not client.unlocked():
            view = feed.views[seat] if seat < len(feed.views) else None
            keys = view.soft_keys if view is not None and view.kind == LOBBY else ()
            if message.slot < len(keys) and keys[message.slot] in SETTING_KEYS:
                raise MessageError("the race's settings need the staff PIN (Staff)")
        self.post(station_event(message, seat))
        self.hub.note_input(client, seat, message.n)

    def _leave(self, client: Client) -> None:
        seat = client.seat
        if seat is None:
            raise MessageError("you hold no seat")
        generation = self.keys.generation(seat)
        if generation is not None:
            self._release(seat, generation)
        self.keys.revoke(seat)
        self._claims.pop(seat, None)
        self.at.pop(seat, None)
        client.seat = None
        client.say(dumps({"t": "left", "seat": seat}))
        self._hello(client)
        log.info("phones: S%d left from %s", seat + 1, client.address)

    def _pin(self, client: Client, message: Pin) -> None:
        check = self.pins.check(client.address, message.pin, self.staff_pin)
        if not check.ok:
            client.unlocked_until = 0.0
            log.warning("phones: wrong staff PIN from %s", client.address)
            raise MessageError(check.reason)
        client.unlocked_until = self.clock() + UNLOCK_IDLE
        client.sent_seats = ""
        client.say(dumps({"t": "staff", "unlocked": True}))
        self._staff_seats(client)

    def _free(self, client: Client, message: Free) -> None:
        if not client.unlocked():
            raise MessageError("staff only: the staff PIN first")
        feed = self._feed()
        seat = next((s for s in feed.seats if s.station == message.seat), None)
        if seat is None:
            raise MessageError(f"S{message.seat + 1} is not a phone seat")
        if not seat.holder and message.seat not in self.keys.held():
            raise MessageError(f"S{message.seat + 1} is free already")
        token = self.keys.generation(message.seat)
        generation = token if token is not None else seat.generation
        self._release(message.seat, generation)
        self._drop(message.seat, "staff freed this seat")
        client.say(dumps({"t": "freed", "seat": message.seat}))
        log.warning("phones: staff at %s freed S%d", client.address, message.seat + 1)

    # -- the table's side ---------------------------------------------------------------
    def _release(self, seat: int, generation: int) -> None:
        """Give ``seat`` (at ``generation``) up: the table is told, and the seat is free now."""
        self.post(SeatLeft(station=seat, generation=generation))
        self._released[seat] = generation + 1

    def _on_feed(self, feed: TableFeed) -> None:
        for seat in feed.seats:  # the table has the seats given up: their views say it now
            if self._released.get(seat.station, seat.generation + 1) <= seat.generation:
                del self._released[seat.station]
        for dropped in self.keys.sync(feed.seats):
            self._drop(dropped, "this seat changed hands (staff freed it)")
        for seat in feed.seats:
            if seat.holder and seat.generation == self.keys.generation(seat.station):
                self._claims.pop(seat.station, None)
        for client in self.hub.clients:
            if client.seat is None:
                self._hello(client)
            elif client.sent_join != feed.join and feed.join is not None:
                client.sent_join = feed.join
                client.say(join_message(feed.join))
            if client.unlocked():
                self._staff_seats(client)

    def housekeeping(self) -> None:
        """Every second (web thread): claims the table never took, and seats whose phone has
        been away :data:`AWAY_RELEASE` s while no race needs them, are given up."""
        feed = self.hub.feed
        if feed is None:
            return
        self._on_feed(feed)  # claims that timed out
        now = self.clock()
        for seat in feed.seats:
            since = self.away.get(seat.station)
            if since is None or now - since < AWAY_RELEASE:
                continue
            # (between a championship's races the seat keeps its car for the next one)
            if (feed.state in _BETWEEN_RACES and not feed.season) or not seat.playing:
                generation = self.keys.generation(seat.station)
                if generation is not None:
                    self._release(seat.station, generation)
                    log.info("phones: S%d given up: its phone was away %.0f s",
                             seat.station + 1, now - since)
                self._drop(seat.station, "")

    def _drop(self, seat: int, why: str) -> None:
        self.keys.revoke(seat)
        self._claims.pop(seat, None)
        self.away.pop(seat, None)
        client = self.at.pop(seat, None)
        if client is not None:
            self._let_go(client, why or "this seat was given up")

    def _let_go(self, client: Client, why: str) -> None:
        """``client`` no longer holds its seat: it is told, and may join again."""
        client.seat = None
        client.inputs.clear()
        client.say(dumps({"t": "bye", "why": why}))
        self._hello(client)

    # -- helpers ------------------------------------------------------------------------
    def _feed(self) -> TableFeed:
        if self.hub.feed is None:
            raise MessageError("the table is starting: try again in a moment")
        return self.hub.feed

    def _free_seats(self, feed: TableFeed) -> list[SeatView]:
        held = set(self.keys.held())
        seats = [replace(s, holder="", generation=self._released[s.station])
                 if s.station in self._released else s for s in feed.seats]
        return [s for s in seats if s.free and s.station not in held]

    def _code_needed(self, feed: TableFeed) -> bool:
        nobody = not any(s.holder for s in feed.seats) and not self.keys.held()
        return not (self.open_table and nobody)

    def _holder(self, seat: int) -> str:
        feed = self.hub.feed
        found = next((s.holder for s in feed.seats if s.station == seat), "") if feed else ""
        return found

    def _hello(self, client: Client) -> None:
        feed = self.hub.feed
        if feed is None:
            return
        text = self.hub.hello(code_needed=self._code_needed(feed),
                              free=len(self._free_seats(feed)))
        if text != client.sent_hello:
            client.sent_hello = text
            client.say(text)

    def _staff_seats(self, client: Client) -> None:
        feed = self.hub.feed
        if feed is None:
            return
        text = dumps({"t": "seats", "seats": [
            {"seat": s.station, "holder": s.holder, "here": s.station in self.at,
             "playing": s.playing} for s in feed.seats]})
        if text != client.sent_seats:
            client.sent_seats = text
            client.say(text)

    @staticmethod
    def _error(client: Client, message: str) -> None:
        client.say(dumps({"t": "err", "msg": message}))

