"""A profile's ``[web]`` turned into the table's phone seats and a running server; what
:mod:`pitboard.app` calls (light: aiohttp loads on the server's own thread).

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> seats = phone_seats(load_profile("phones"))
    >>> seats.stations, seats.open_table
    ((0, 1, 2, 3, 4, 5), True)
    >>> phone_seats(load_profile("duo")) is None  # no [web]
    True
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from ..hwconfig.schema import HwConfig
from ..hwconfig.web import join_url
from ..table.feed import TableFeed
from ..table.phone_seats import PhoneSeats

if TYPE_CHECKING:
    from ..table.table import Table
    from .server import WebServer

log = logging.getLogger("pitboard.web")


def phone_seats(config: HwConfig) -> PhoneSeats | None:
    """The stations phones may take -- every emulated station, then the phone seats after
    the wired ones -- or None when the web server is off or there is none."""
    web = config.web
    if not web.enabled:
        return None
    shared = [st.index for st in config.stations if st.input.kind == "emulated"]
    seats = shared + list(range(len(config.stations), config.seats))
    if not seats:
        return None
    return PhoneSeats(seats, url=join_url(web), shared=shared, open_table=web.open_table)


class WebHandle:
    """The phones' server, started on a thread of its own: aiohttp is imported there, so the
    stations' first frames and systemd's READY do not wait for it. The table's views are
    kept for it until it runs.

    Example::

        web = start_web(config, table)   # returns at once
        web.wait(5)                      # True once it listens (tests)
        web.error                        # "" or why it could not start (logged too)
        web.stop()
    """

    def __init__(self, config: HwConfig, table: Table) -> None:
        self.config = config
        self.table = table
        #: why the server could not start ("" while starting or running)
        self.error = ""
        self.server: WebServer | None = None
        self._feed: TableFeed | None = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._start, name="pitboard-web-start",
                                        daemon=True)

    def publish(self, feed: TableFeed) -> None:
        """The table's view observer (game thread): to the server, or kept until it runs."""
        with self._lock:  # in order with the hand-over in _start
            self._feed = feed
            if self.server is not None:
                self.server.publish(feed)

    def handover(self, station: int) -> None:
        """The table's answer hand-over (game thread): to the server once it runs."""
        server = self.server
        if server is not None:
            server.handover(station)

    def wait(self, timeout: float) -> bool:
        """Wait until the server listens (True) or could not start (False)."""
        return self._done.wait(timeout) and not self.error

    def stop(self) -> None:
        self._thread.join()
        if self.server is not None:
            self.server.stop()

    def _start(self) -> None:
        web = self.config.web
        try:
            from .server import WebError, WebServer

            server = WebServer(post=self.table.post, staff_pin=self.config.console.staff_pin,
                               bind=web.bind, port=web.port, url=join_url(web),
                               open_table=web.open_table)
            try:
                server.start()
            except WebError as exc:
                self.error = str(exc)
        except Exception as exc:  # an aiohttp that does not import, ...
            self.error = f"the web server failed: {exc!r}"
            log.exception("phones: the web server failed")
        if self.error:
            more = "" if not self.config.stations else " (the wired stations play on)"
            log.error("phones: %s%s", self.error, more)
        else:
            with self._lock:
                self.server = server
                if self._feed is not None:
                    server.publish(self._feed)
        self._done.set()


def start_web(config: HwConfig, table: Table) -> WebHandle:
    """Start the server for ``table`` (on the game thread, before its loop runs): the table
    hands it its views from now on. Returns at once; see :class:`WebHandle`."""
    handle = WebHandle(config, table)
    table.view_observers.append(handle.publish)
    table.answer_handovers.append(handle.handover)
    table.refresh()  # the first feed: the phones see the table as it is
    handle._thread.start()
    return handle
