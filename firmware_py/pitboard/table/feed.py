"""What the table hands its view observers after a redraw: :class:`TableFeed`, plain data.

A client beside the table -- the web server's phone stations and its TV track view --
registers a callback in :attr:`Table.view_observers <pitboard.table.table.Table>`. The game
thread calls it with a new :class:`TableFeed` whenever something a client shows changed: the
views the table built for its own screens (never a second copy of the table's logic), the
race-control view, the track view (:mod:`~pitboard.table.track_view`: the race on the track,
with the race's events), the phone seats and the join code. A callback must only store the feed
and return (it runs on the game thread; the web server's waits a few milliseconds for a move
while TVs watch, :mod:`pitboard.web.track`); it never gets the table, so it cannot reach into
it. A move goes out first, in a feed of its own: the last feed with only its track view new,
before the table works out the stations' screens.

Example::

    >>> from pitboard.hw.events import GoPressed
    >>> from pitboard.table.table import Table
    >>> feeds = []
    >>> table = Table(stations=2, seed=1)
    >>> table.view_observers.append(feeds.append)
    >>> table.handle(GoPressed(station=0))
    >>> feed = feeds[-1]
    >>> feed.state, feed.views[0].lines[-1], feed.handled
    ('lobby', 'JOINED - GO to leave', (1, 0))
"""

from __future__ import annotations

from dataclasses import dataclass

from .phone_seats import JoinInfo, SeatView
from .race_control import RaceControlView
from .track_view import TrackView
from .view import StationView


@dataclass(frozen=True, slots=True)
class TableFeed:
    """The table after one redraw, for the clients beside it.

    Example::

        TableFeed(state="lobby", views=(view0, view1), race_control=rc, handled=(1, 0))
    """

    #: the table's flow state (pitboard.table.flow)
    state: str
    #: each station's view, by station index
    views: tuple[StationView | None, ...]
    #: the race-control display's view (whether or not the table has that display)
    race_control: RaceControlView | None = None
    #: station input events handled so far, by station: a client that posted N events for a
    #: station knows they are all in the views once this count reaches N
    handled: tuple[int, ...] = ()
    #: the phone seats (() when the table has none)
    seats: tuple[SeatView, ...] = ()
    #: the lobby's join line (None: no phone seats)
    join: JoinInfo | None = None
    #: the table is a store kiosk
    kiosk: bool = False
    #: a championship season is under way: between its races (the standings) every seat keeps
    #: its car for the next one
    season: bool = False
    #: the race on the track, for a TV (track_view.py)
    track: TrackView | None = None
