"""From the table's views to each phone's frame, without ever holding the game thread.

The table calls :meth:`Hub.publish` on the game thread with each new
:class:`~pitboard.table.feed.TableFeed`; publish stores it in one slot (a newer feed replaces
one not yet looked at) and wakes the web thread. There, :meth:`Hub.apply` turns the feed into
what each phone needs and wakes its sender; every phone's :class:`Client` has one sender task
that sends the **latest** frame of its seat, at most one every :data:`FRAME_INTERVAL` (a
frame answering the phone's own input goes at once), so a phone that reads slowly skips
frames instead of piling them up, and the table never waits for a phone.

A view is turned into JSON once (:func:`~pitboard.table.view_json.station_view_dict`) however
many phones watch it, and only when the table built a new one.

Frames (server -> phone, JSON text): ``view`` (the seat's screen, with ``ack``: the phone's
latest input the table has handled), ``ack`` (an input handled that changed nothing on
screen), ``join`` (the join code and its QR code, for a seated phone to show the next player),
and the session's own answers (:mod:`pitboard.web.session`).

Example (no sockets: a feed in, what a seated client would be sent)::

    >>> import asyncio
    >>> from pitboard.table.feed import TableFeed
    >>> from pitboard.table.view import StationView
    >>> hub = Hub(clock=lambda: 0.0)
    >>> hub.apply(TableFeed("lobby", (StationView("lobby", 0, title="S1 LOBBY"),), handled=(0,)))
    >>> client = Client(address="10.0.0.5", clock=lambda: 0.0)
    >>> client.seat = 0
    >>> frame = hub.frame(client)
    >>> frame[:40]
    '{"t":"view","ack":0,"v":{"kind":"lobby",'
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final

from ..table.feed import TableFeed
from ..table.phone_seats import JoinInfo
from ..table.view import StationView
from ..table.view_json import SCHEMA, station_view_dict
from .limits import MESSAGE_RATE, TokenBucket

log = logging.getLogger("pitboard.web")

#: the shortest gap between two frames to one phone (s): at most 50 a second; a frame that
#: answers the phone's own input is not held back
FRAME_INTERVAL: Final = 0.02
#: answers waiting to be sent to one phone (errors past this are dropped, the oldest first)
OUTBOX: Final = 16
#: the longest the game thread lets the web thread send a phone its answer first (s): the
#: web thread's part is about a millisecond here, a few on a Pi 4
HANDOVER: Final = 0.02


def dumps(data: Any) -> str:
    """Compact JSON, as every frame is sent."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


@lru_cache(maxsize=4)  # a new code every race: a cache of them all would grow all day
def qr_svg(text: str) -> str:
    """The QR code of ``text`` as an SVG data URI, for a phone's join panel."""
    import segno

    code = segno.make(text, error="m", micro=False)
    return str(code.svg_data_uri(scale=6, border=2, dark="#000", light="#fff"))


def join_message(join: JoinInfo) -> str:
    """The ``join`` frame: the address, the code and the QR code, for a seated phone."""
    return dumps({"t": "join", "url": join.url, "code": join.code, "qr": qr_svg(join.qr)})


class Client:
    """One phone's WebSocket: its seat, what it was last sent, and its sender's wake-up.

    Example::

        >>> Client(address="10.0.0.5", clock=lambda: 0.0).seat is None
        True
    """

    def __init__(self, *, address: str, clock: Callable[[], float],
                 rate: float = MESSAGE_RATE) -> None:
        self.address = address
        self.clock = clock
        #: the station this phone holds (None: not seated)
        self.seat: int | None = None
        #: staff actions unlocked until this time (the staff PIN; 0: locked)
        self.unlocked_until = 0.0
        self.bucket = TokenBucket(rate=rate, now=clock())
        #: messages refused in a row for the rate (closed past limits.MAX_REFUSED)
        self.refused = 0
        #: inputs posted and not yet seen handled: (the station's input count, the phone's n)
        self.inputs: deque[tuple[int, int]] = deque()
        #: the phone's latest input the table has handled
        self.acked = 0
        self.outbox: deque[str] = deque(maxlen=OUTBOX)
        self.wake = asyncio.Event()
        self.closed = False
        # what was sent last (identity of the view, the ack, the join info)
        self.sent_view: StationView | None = None
        self.sent_ack = -1
        self.sent_join: JoinInfo | None = None
        self.sent_hello = ""
        self.sent_seats = ""
        self.last_frame = -1.0

    def say(self, message: str) -> None:
        """Queue an answer (an error, the seat's token, ...) and wake the sender."""
        self.outbox.append(message)
        self.wake.set()

    def unlocked(self) -> bool:
        return self.clock() < self.unlocked_until


class Hub:
    """The latest feed, every phone, and their frames (see the module docstring).

    Example::

        hub = Hub(clock=time.monotonic)
        table.view_observers.append(hub.publish)   # game thread: store and wake
        hub.attach(loop)                           # web thread: apply, wake the senders
    """

    def __init__(self, *, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.feed: TableFeed | None = None
        self.clients: set[Client] = set()
        #: input events the web posted, by station, and the table's count when it started
        self.posted: dict[int, int] = {}
        self._offset: dict[int, int] = {}
        self._views: dict[int, tuple[StationView, str]] = {}
        self._incoming: TableFeed | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        #: called on the web thread after each feed is applied (the session's seat checks)
        self.on_feed: Callable[[TableFeed], None] = lambda feed: None
        #: more readers of each feed on the web thread (the TVs' track hub)
        self.watchers: list[Callable[[TableFeed], None]] = []
        # the phones whose input the latest feed answers, until their frame is sent; set
        # (and the event with it) when there are none: see handover()
        self._answering: set[Client] = set()
        self._answered = threading.Event()
        self._answered.set()

    # -- game thread --------------------------------------------------------------------
    def publish(self, feed: TableFeed) -> None:
        """Table view observer (game thread): keep ``feed``, wake the web thread; never
        blocks and never raises."""
        self._incoming = feed
        loop = self._loop
        if loop is None:
            return
        self._answered.clear()
        if self._scheduled:
            return
        self._scheduled = True
        try:
            loop.call_soon_threadsafe(self._take)
        except RuntimeError:  # the loop is closing: the server is stopping
            self._scheduled = False
            self._answered.set()

    def handover(self, station: int, timeout: float = HANDOVER) -> bool:
        """Game thread, right after publishing the answer to ``station``'s input: when a
        phone holds that seat, give the web thread the moment it needs to send the phone its
        frame (at most ``timeout``) before the table goes on with the other stations' views.
        Without this the two threads share the interpreter and the answer waits behind
        work its player does not need first. Returns at once for a seat no phone holds;
        False when the answer was not sent within ``timeout``."""
        if not any(c.seat == station and c.inputs for c in list(self.clients)):
            return True
        return self._answered.wait(timeout)

    # -- web thread ---------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run on ``loop`` from now on (and take a feed published before)."""
        self._loop = loop
        if self._incoming is not None:
            self._scheduled = True
            loop.call_soon(self._take)

    def _take(self) -> None:
        self._scheduled = False
        feed = self._incoming
        if feed is not None and feed is not self.feed:
            try:
                self.apply(feed)
            except Exception:  # one bad frame must not stop the server
                log.exception("applying the table's views failed")
        if not self._answering:
            self._answered.set()

    def sent(self, client: Client) -> None:
        """``client``'s sender has sent what it had (or the phone went away)."""
        self._answering.discard(client)
        if not self._answering:
            self._answered.set()

    def apply(self, feed: TableFeed) -> None:
        """Take ``feed``: note what changed and wake every phone that has something new."""
        old = self.feed
        if old is None:
            self._offset = dict(enumerate(feed.handled))
        self.feed = feed
        self.on_feed(feed)
        woken = []
        for client in self.clients:  # only the phones whose seat shows something new
            seat = client.seat
            if seat is None or old is None or seat >= len(feed.views) or \
                    feed.views[seat] is not old.views[seat] or \
                    feed.handled[seat] != old.handled[seat]:
                woken.append(client)
        # the phone whose input this answers first: its player is the one waiting
        self._answering = {c for c in woken if self.answers_input(c)}
        if self._answering:
            self._answered.clear()
        woken.sort(key=lambda c: c not in self._answering)
        for client in woken:
            client.wake.set()
        for watch in self.watchers:
            watch(feed)

    def handled(self, station: int) -> int:
        """Input events of ``station`` the table handled since the web started."""
        feed = self.feed
        if feed is None or station >= len(feed.handled):
            return 0
        return feed.handled[station] - self._offset.get(station, 0)

    def note_input(self, client: Client, station: int, n: int) -> None:
        """``client`` posted an input numbered ``n`` for ``station``."""
        count = self.posted[station] = self.posted.get(station, 0) + 1
        client.inputs.append((count, n))

    def view_json(self, station: int, view: StationView) -> str:
        """The view's JSON, made once per view the table built."""
        cached = self._views.get(station)
        if cached is not None and cached[0] is view:
            return cached[1]
        text = dumps(station_view_dict(view))
        self._views[station] = (view, text)
        return text

    def frame(self, client: Client) -> str | None:
        """The frame ``client`` should get now (None: it has seen everything)."""
        feed, seat = self.feed, client.seat
        if feed is None or seat is None or seat >= len(feed.views):
            return None
        done = self.handled(seat)
        while client.inputs and client.inputs[0][0] <= done:
            client.acked = client.inputs.popleft()[1]
        view = feed.views[seat]
        if view is not None and view is not client.sent_view:
            client.sent_view, client.sent_ack = view, client.acked
            return f'{{"t":"view","ack":{client.acked},"v":{self.view_json(seat, view)}}}'
        if client.acked != client.sent_ack:
            client.sent_ack = client.acked
            return f'{{"t":"ack","ack":{client.acked}}}'
        return None

    def answers_input(self, client: Client) -> bool:
        """The next frame answers one of the phone's own inputs (sent without waiting)."""
        seat = client.seat
        return seat is not None and bool(client.inputs) and \
            client.inputs[0][0] <= self.handled(seat)

    def hello(self, *, code_needed: bool, free: int) -> str:
        """The frame an unseated phone gets: whether joining needs a code, free seats."""
        kiosk = self.feed.kiosk if self.feed is not None else False
        return dumps({"t": "hello", "schema": SCHEMA, "code_needed": code_needed,
                      "free": free, "kiosk": kiosk})
