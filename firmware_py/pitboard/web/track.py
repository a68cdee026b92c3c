"""The TV's track view: from the table's :class:`~pitboard.table.track_view.TrackView` to each
TV's frames, read-only, without ever holding the game thread.

The phones' :class:`~pitboard.web.hub.Hub` takes each feed on the web thread and hands it to
:meth:`TrackHub.apply`. The view becomes JSON once (:mod:`pitboard.table.track_json`: the
state, each event of the race once, the track's drawing once per track), however many TVs
watch. Each TV (a :class:`Viewer`) has one sender that sends it, at most one frame every
:data:`TRACK_INTERVAL`, **everything since its last frame**: the events it has not seen and the
state now. A TV that reads slowly gets fewer, bigger frames, never a backlog, and one more than
:data:`MAX_STEP_EVENTS` behind is sent the state alone and redraws.

Frames (server -> TV, JSON text), one kind, ``track``:

* ``full: true`` -- draw everything from ``state``, animating nothing: the first frame of a
  connection (a reconnect, a restart after a power cut), a new race, a race replayed by an
  undo, a TV too far behind. It carries the track's ``drawing`` when the TV has not drawn that
  drawing yet (a track file edited between two races is drawn anew), the page's ``build`` (a
  page of another build reloads), and the race's last few events for the ticker (``events``);
* ``full: false`` -- the ``events`` since the last frame, to animate in order, then ``state``.

``cursor`` is the race's event count the frame brings the TV to.

A move first: the table hands its view observers a new track view before it works out the
stations' screens (:meth:`Table.refresh <pitboard.table.table.Table.refresh>`), and for a move
(new public events) while TVs watch, the server's observer waits until every TV has been sent
it (:attr:`TrackHub.flushed`), at most :data:`TRACK_FLUSH`: the web thread needs the GIL for
each TV's write, and the game thread working out the screens would hold it meanwhile, one
switch interval (5 ms) per write (benchmarks/track_view.py).

Example (no sockets: a feed in, a TV's first frame out)::

    >>> from pitboard.engine import Race, RaceSetup
    >>> from pitboard.table.feed import TableFeed
    >>> from pitboard.table.track_view import TrackViews
    >>> from pitboard.table.views import TableScene
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
    >>> view = TrackViews().build(TableScene(state="planning", stations=[],
    ...                                      lobby=("usa", 1, 2), race=race))
    >>> hub = TrackHub(build="b1")
    >>> hub.apply(TableFeed("planning", (), track=view))
    >>> viewer = Viewer(address="10.0.0.7")
    >>> frame = json.loads(hub.frame(viewer))
    >>> frame["full"], frame["cursor"], frame["drawing"]["track"], frame["state"]["round"]
    (True, 2, 'usa', 1)
    >>> hub.frame(viewer) is None  # nothing new since
    True
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
from typing import Any, Final

from ..table.feed import TableFeed
from ..table.track_json import event_dict, track_drawing, track_state_dict
from ..table.track_view import TrackView
from .hub import dumps, qr_svg

log = logging.getLogger("pitboard.web")

#: the shortest gap between two frames to one TV (s): at most 40 a second
TRACK_INTERVAL: Final = 0.025
#: a TV further behind than this many events redraws from the state instead
MAX_STEP_EVENTS: Final = 400
#: the race's last events a full frame carries, for the page's ticker
TAIL_EVENTS: Final = 8
#: the longest the game thread waits for every TV to have a move (s)
TRACK_FLUSH: Final = 0.010


class Viewer:
    """One TV's WebSocket and what it was sent: the race, how far into its events, which
    track's drawing, which state.

    Example::

        >>> Viewer(address="10.0.0.7").race
        ''
    """

    def __init__(self, *, address: str) -> None:
        self.address = address
        self.wake = asyncio.Event()
        self.closed = False
        self.race = ""
        self.cursor = 0
        self.drawn = ""
        self.sent_state = ""
        self.connected = False
        self.last_frame = -1.0
        #: messages it sent (a TV sends none; a few are answered, then it is closed)
        self.refused = 0


class TrackHub:
    """The track view now and every TV watching it (see the module docstring).

    Example::

        hub = TrackHub(build="3f2a9c")
        hub.apply(feed)               # web thread: the table's latest feed
        frame = hub.frame(viewer)     # what that TV is sent next (None: nothing new)
    """

    def __init__(self, *, build: str) -> None:
        #: the page's build (its files' hash): a page of another build reloads
        self.build = build
        self.view: TrackView | None = None
        self.viewers: set[Viewer] = set()
        self._state = ""
        self._race = ""
        #: the race's events as JSON, by index ("" for a kind the TV does not show)
        self._events: list[str] = []
        self._drawing: tuple[object, str, str] | None = None
        self._made_for: TrackView | None = None  # the view the JSON above is of
        #: set while every TV has the latest view (cleared by :meth:`expects` for a move)
        self.flushed = threading.Event()
        self.flushed.set()
        self._published: tuple[str, int] = ("", 0)  # game thread: the race and event count

    def expects(self, feed: TableFeed) -> bool:
        """Is ``feed`` a move every TV should have before the table goes on (game thread)?
        New public events of the same race while a TV watches: :attr:`flushed` is cleared,
        and set again once they all have it."""
        view = feed.track
        if view is None:
            return False
        last, self._published = self._published, (view.race, view.event_count)
        if last[0] != view.race or view.event_count <= last[1] or not self.viewers:
            return False
        self.flushed.clear()
        return True

    def apply(self, feed: TableFeed) -> None:
        """Take the track view of ``feed`` (web thread) and wake every TV if it changed. With
        no TV watching, the view is only kept: its JSON is made when a TV asks."""
        view = feed.track
        if view is None or view == self.view:
            self.note_sent()
            return
        self.view = view
        if self.viewers:
            self._made()
            for viewer in self.viewers:
                viewer.wake.set()
        self.note_sent()

    def _made(self) -> None:
        """The JSON of the view now (its state, the race's events so far), made once."""
        view = self.view
        if view is None or self._made_for is view:
            return
        self._made_for = view
        self._state = dumps(_with_qr(track_state_dict(view)))
        if view.race != self._race:
            self._race, self._events = view.race, []
        events = view.events
        for i in range(len(self._events), len(events)):
            data = event_dict(events[i], i)
            self._events.append(dumps(data) if data is not None else "")

    def note_sent(self) -> None:
        """Set :attr:`flushed` if every TV has been sent the latest view (web thread)."""
        if not self.flushed.is_set() and \
                all(v.sent_state is self._state or v.closed for v in self.viewers):
            self.flushed.set()

    def frame(self, viewer: Viewer) -> str | None:
        """The frame ``viewer`` should get now (None: it has everything)."""
        view = self.view
        if view is None:
            return None
        self._made()
        count = view.event_count
        if viewer.connected and viewer.race == view.race and \
                viewer.cursor <= count <= viewer.cursor + MAX_STEP_EVENTS:
            if viewer.cursor == count and viewer.sent_state is self._state:
                return None
            events = ",".join(e for e in self._events[viewer.cursor:count] if e)
            full = "false"
        else:  # a new connection, a new race, an undo, or too far behind: redraw
            tail = [e for e in self._events[:count] if e][-TAIL_EVENTS:]
            events = ",".join(tail)
            full = "true"
        drawing = ""
        key, text = self._drawing_json(view)
        if viewer.drawn != key:
            drawing = f',"drawing":{text}'
            viewer.drawn = key
        viewer.connected, viewer.race, viewer.cursor = True, view.race, count
        viewer.sent_state = self._state
        return (f'{{"t":"track","full":{full},"build":"{self.build}","race":"{view.race}",'
                f'"cursor":{count}{drawing},"events":[{events}],"state":{self._state}}}')

    def _drawing_json(self, view: TrackView) -> tuple[str, str]:
        """The drawing of the view's track as JSON, and its key: a digest of it (a track file
        edited between two races is drawn anew; the same track again is not sent again)."""
        cached = self._drawing
        if cached is None or cached[0] is not view.track:
            text = dumps(track_drawing(view.track))
            key = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]
            cached = self._drawing = (view.track, key, text)
        return cached[1], cached[2]


def _with_qr(state: dict[str, Any]) -> dict[str, Any]:
    """The lobby's join with its QR code drawn (as the phones' join frame has it)."""
    join = state["panel"].get("join")
    if join is not None:
        join["qr"] = qr_svg(join.pop("qr_text"))
    return state


def read_only_answer() -> str:
    """What a TV that sends a message is told (it is told once; more close the socket)."""
    return json.dumps({"t": "err", "msg": "the track view is read-only"})
