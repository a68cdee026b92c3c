"""The HTTP and WebSocket server (aiohttp) on its own thread and event loop.

Routes, and nothing else:

=====================  ===================================================================
``GET /``              the phone page (``static/index.html``)
``GET /j/CODE``        the same page with the join code filled in (the lobby's QR code;
                       ``/J/`` too: the QR code is written in capitals)
``GET /NAME``          a file of the packaged ``static`` folder, by its exact name (read into
                       memory at start: no path is ever joined from a request)
``GET /ws``            the phones' WebSocket (:mod:`pitboard.web.session`)
``GET /track``         the TV's track view (``static/track.html``)
``GET /track/ws``      the TVs' WebSocket, read-only (:mod:`pitboard.web.track`)
=====================  ===================================================================

Every request must name this machine in its ``Host`` header (an IP address, this host's name
or ``<name>.local``, ``localhost``, or the host of ``[web] url``) -- a page on another site
that makes its own name point here (DNS rebinding) is turned away -- and a WebSocket's
``Origin`` must be this same address (a page elsewhere cannot drive a seat). The server
listens on exactly the address the profile names; connections, sockets per address, message
sizes and rates are bounded (:mod:`pitboard.web.limits`). No cookies are set and nothing is
done on a POST: a seat is acted for only with its token, sent inside the socket.

Example::

    server = WebServer(post=table.post, staff_pin="2468", bind="127.0.0.1", port=8080)
    table.view_observers.append(server.publish)
    table.answer_handovers.append(server.handover)
    server.start()            # listening when it returns (WebError if it cannot)
    ...
    server.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from ..table.feed import TableFeed
from .hub import FRAME_INTERVAL, Client, dumps
from .limits import (
    MAX_CONNECTIONS,
    MAX_SOCKETS,
    MAX_SOCKETS_PER_ADDRESS,
    MAX_TRACK_MESSAGE,
    MAX_TRACK_REFUSED,
    MAX_TRACK_SOCKETS,
    MAX_TRACK_SOCKETS_PER_ADDRESS,
    MESSAGE_RATE,
)
from .protocol import MAX_MESSAGE
from .session import Closing, Seats
from .track import TRACK_FLUSH, TRACK_INTERVAL, TrackHub, Viewer, read_only_answer

if TYPE_CHECKING:  # the table's events as a type only: the server never imports the table
    from ..table.table_base import TableEvent

log = logging.getLogger("pitboard.web")

#: WebSocket pings this often (s): a phone gone without a word (Wi-Fi lost) is noticed
HEARTBEAT: Final = 15.0
#: an idle keep-alive HTTP connection is closed after this long (s)
KEEPALIVE: Final = 10.0
#: how long start() waits for the socket, and stop() for the thread (s)
START_SECONDS: Final = 10.0
#: the packaged folder every page file comes from
STATIC: Final = "static"
_TYPES: Final = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
                 ".png": "image/png", ".ico": "image/x-icon",
                 ".webmanifest": "application/manifest+json"}
_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
                               "form-action 'none'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY", "Cache-Control": "no-cache",
}


class WebError(Exception):
    """The server cannot start (the port is taken, the address is not this machine's);
    ``str()`` is one line.

    Example::

        try:
            server.start()
        except WebError as exc:
            log.error("phones: %s", exc)   # cannot listen on 0.0.0.0 port 8080: Address...
    """


def static_files() -> dict[str, tuple[bytes, str, str]]:
    """name -> (content, content type, ETag) of every file in the packaged static folder.

    Example::

        >>> files = static_files()
        >>> "index.html" in files, files["app.js"][1]
        (True, 'text/javascript; charset=utf-8')
    """
    out = {}
    for entry in resources.files("pitboard.web").joinpath(STATIC).iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in _TYPES:
            data = entry.read_bytes()
            out[entry.name] = (data, _TYPES[suffix], f'"{hashlib.sha1(data).hexdigest()[:16]}"')
    return out


def allowed_hosts(url: str, hostname: str | None = None) -> frozenset[str]:
    """The host names a request may name (IP addresses are always taken).

    Example::

        >>> sorted(allowed_hosts("http://pitboard.local:8080/", hostname="pi4"))
        ['localhost', 'pi4', 'pi4.local', 'pitboard.local']
    """
    name = (hostname or socket.gethostname()).split(".")[0].lower()
    hosts = {"localhost", name, f"{name}.local"}
    url_host = urlsplit(url).hostname if url else None
    if url_host:
        hosts.add(url_host.lower())
    return frozenset(hosts)


def host_ok(host: str, allowed: frozenset[str]) -> bool:
    """Is the ``Host`` header ``host`` this machine (see :func:`allowed_hosts`)?

    Example::

        >>> ok = frozenset({"pi4.local"})
        >>> [host_ok(h, ok) for h in ("pi4.local:8080", "10.1.2.3:8080", "[::1]:80",
        ...                           "evil.example:8080", "")]
        [True, True, True, False, False]
    """
    try:
        name = urlsplit(f"//{host}").hostname
    except ValueError:
        return False
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name.lower().rstrip(".") in allowed


def origin_ok(origin: str | None, host: str) -> bool:
    """Is a WebSocket's ``Origin`` this very server (the page it came from is ours)?

    Example::

        >>> origin_ok("http://pi4.local:8080", "pi4.local:8080"), origin_ok(None, "pi4.local")
        (True, False)
        >>> origin_ok("http://evil.example", "pi4.local:8080")
        False
    """
    if not origin:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


class _Refused(asyncio.Protocol):
    """A connection over :data:`MAX_CONNECTIONS`: closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


class WebServer:
    """The phones' web server (see the module docstring); ``post`` is the table's
    :meth:`~pitboard.table.table.Table.post`, ``port`` 0 picks a free one (tests).

    Example::

        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1)
        >>> server = WebServer(post=table.post, staff_pin="2468", port=0)
        >>> server.start(); server.address[0]
        '127.0.0.1'
        >>> server.stop()
    """

    def __init__(self, *, post: Callable[[TableEvent], None], staff_pin: str,
                 bind: str = "127.0.0.1", port: int = 8080, url: str = "",
                 open_table: bool = False, clock: Callable[[], float] = time.monotonic,
                 message_rate: float = MESSAGE_RATE) -> None:
        self.bind = bind
        self.port = port
        self.clock = clock
        #: messages a second each phone's socket takes (limits.MESSAGE_RATE; a test that plays
        #: whole races at a machine's pace raises it: the limit has tests of its own)
        self.message_rate = message_rate
        self.seats = Seats(post=post, staff_pin=staff_pin, clock=clock, open_table=open_table)
        self.hosts = allowed_hosts(url)
        self.files = static_files()
        build = hashlib.sha1("".join(sorted(e for _, _, e in self.files.values())).encode())
        #: the TVs' track view, fed by the phones' hub (one slot for both)
        self.track = TrackHub(build=build.hexdigest()[:12])
        self.seats.hub.watchers.append(self.track.apply)
        #: the phones connected now
        self.sockets: dict[Client, web.WebSocketResponse] = {}
        #: the TVs connected now
        self.viewers: dict[Viewer, web.WebSocketResponse] = {}
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None
        #: the address actually listened on (host, port)
        self.address: tuple[str, int] = (bind, port)

    # -- the thread ---------------------------------------------------------------------
    def publish(self, feed: TableFeed) -> None:
        """The table's view observer (game thread). It does not block, but for a move while
        TVs watch: then it waits until every TV has it, at most ``TRACK_FLUSH`` (web/track.py:
        a move first)."""
        move = self.track.expects(feed)
        self.seats.hub.publish(feed)
        if move:
            self.track.flushed.wait(TRACK_FLUSH)

    def handover(self, station: int) -> None:
        """The table's answer hand-over (game thread): see :meth:`Hub.handover`."""
        self.seats.hub.handover(station)

    def start(self) -> None:
        """Listen and serve on a thread of its own; raise :class:`WebError` (one line) when
        the address cannot be listened on."""
        self._thread = threading.Thread(target=self._run, name="pitboard-web", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_SECONDS):
            raise WebError(f"the web server did not start in {START_SECONDS:g} s")
        if self._error is not None:
            self._thread.join(START_SECONDS)
            raise WebError(f"cannot listen on {self.bind} port {self.port}: "
                           f"{getattr(self._error, 'strerror', None) or self._error}")

    def stop(self) -> None:
        """Close every socket and the listener; returns when the thread has ended."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop ended already
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(START_SECONDS)

    def _run(self) -> None:
        _name_thread("pitboard-web")
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except Exception as exc:  # before ready: start() reports it; after: logged
            if not self._ready.is_set():
                self._error = exc
                self._ready.set()
            else:
                log.exception("web server failed")
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        self.seats.hub.attach(loop)
        app = web.Application(client_max_size=4096, middlewares=[self._guard])
        app.router.add_get("/", self._index)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/j/{code}", self._index)
        app.router.add_get("/J/{code}", self._index)
        app.router.add_get("/track", self._track_page)
        app.router.add_get("/track/ws", self._track_socket)
        app.router.add_get("/{name}", self._file)
        runner = self._runner = web.AppRunner(app, handle_signals=False, access_log=None,
                                              keepalive_timeout=KEEPALIVE)
        await runner.setup()
        sock = _listen(self.bind, self.port)
        self.address = sock.getsockname()[:2]
        server = await loop.create_server(self._protocol(runner), sock=sock)
        self._ready.set()
        log.debug("phones: web server on %s port %d", self.bind, self.address[1])
        chores = asyncio.create_task(self._chores())
        try:
            await self._stop.wait()
        finally:
            chores.cancel()
            server.close()
            for ws in [*self.sockets.values(), *self.viewers.values()]:
                await ws.close(code=1001, message=b"the table is stopping")
            await runner.shutdown()
            await runner.cleanup()

    def _protocol(self, runner: web.AppRunner) -> Callable[[], asyncio.Protocol]:
        server = runner.server
        assert server is not None

        def make() -> asyncio.Protocol:
            if len(server.connections) >= MAX_CONNECTIONS:
                return _Refused()
            handler: asyncio.Protocol = server()
            return handler
        return make

    async def _chores(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            try:
                self.seats.housekeeping()
            except Exception:
                log.exception("phones: housekeeping failed")

    # -- HTTP ---------------------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        if not host_ok(request.host, self.hosts):
            return web.Response(status=421, text="this server answers for its own address "
                                "only\n", headers=_HEADERS)
        response = await handler(request)
        if not response.prepared:  # a WebSocket's handshake is sent by now
            response.headers.update(_HEADERS)
        return response

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._serve_file(request, "index.html")

    async def _track_page(self, request: web.Request) -> web.StreamResponse:
        return self._serve_file(request, "track.html")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        return self._serve_file(request, request.match_info["name"])

    def _serve_file(self, request: web.Request, name: str) -> web.StreamResponse:
        found = self.files.get(name)
        if found is None:
            raise web.HTTPNotFound(text="not found\n")
        data, kind, etag = found
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        return web.Response(body=data, headers={"Content-Type": kind, "ETag": etag})

    # -- WebSocket ----------------------------------------------------------------------
    async def _socket(self, request: web.Request) -> web.StreamResponse:
        address = request.remote or "?"
        ws = await _open_socket(request, "open a seat", [c.address for c in self.sockets],
                                limits=(MAX_SOCKETS, MAX_SOCKETS_PER_ADDRESS),
                                max_message=MAX_MESSAGE)
        if not isinstance(ws, web.WebSocketResponse):
            return ws
        client = Client(address=address, clock=self.clock, rate=self.message_rate)
        self.sockets[client] = ws
        self.seats.connected(client)
        sender = asyncio.create_task(self._sender(client, ws))
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    try:
                        self.seats.handle(client, message.data)
                    except Closing as exc:
                        await ws.close(code=1008, message=str(exc).encode())
                        break
                    except Exception:  # a bug costs this message, never the server
                        log.exception("phones: message from %s failed", address)
                        client.say(dumps({"t": "err", "msg": "internal error (see the log)"}))
                else:
                    client.say(dumps({"t": "err", "msg": "text messages only"}))
        finally:
            self.sockets.pop(client, None)
            self.seats.disconnected(client)
            sender.cancel()
        return ws

    async def _sender(self, client: Client, ws: web.WebSocketResponse) -> None:
        hub = self.seats.hub
        try:
            while not client.closed:
                await client.wake.wait()
                client.wake.clear()
                while client.outbox:
                    await ws.send_str(client.outbox.popleft())
                if client.seat is None:
                    continue
                if not hub.answers_input(client):
                    wait = client.last_frame + FRAME_INTERVAL - self.clock()
                    if wait > 0:  # bounded rate: what comes meanwhile replaces this frame
                        await asyncio.sleep(wait)
                frame = hub.frame(client)
                if frame is not None:
                    client.last_frame = self.clock()
                    await ws.send_str(frame)
                hub.sent(client)
        except (ConnectionError, RuntimeError) as exc:  # the phone went away mid-frame
            log.debug("phones: sending to %s stopped: %s", client.address, exc)
            await ws.close()
        except Exception:  # a bug: this phone is let go (it reconnects), the server goes on
            log.exception("phones: sending to %s failed", client.address)
            await ws.close(code=1011, message=b"internal error")


    # -- the TVs' WebSocket (read-only) ---------------------------------------------------
    async def _track_socket(self, request: web.Request) -> web.StreamResponse:
        address = request.remote or "?"
        ws = await _open_socket(request, "watch here", [v.address for v in self.viewers],
                                limits=(MAX_TRACK_SOCKETS, MAX_TRACK_SOCKETS_PER_ADDRESS),
                                max_message=MAX_TRACK_MESSAGE)
        if not isinstance(ws, web.WebSocketResponse):
            return ws
        viewer = Viewer(address=address)
        self.viewers[viewer] = ws
        self.track.viewers.add(viewer)
        sender = asyncio.create_task(self._track_sender(viewer, ws))
        viewer.wake.set()  # the first frame: everything
        try:
            async for message in ws:  # a TV only watches: whatever it sends is refused
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue  # an error: the socket is closing
                viewer.refused += 1
                if viewer.refused > MAX_TRACK_REFUSED:
                    await ws.close(code=1008, message=b"the track view is read-only")
                    break
                try:
                    await ws.send_str(read_only_answer())
                except ConnectionError:  # it went away meanwhile
                    break
        finally:
            self.viewers.pop(viewer, None)
            self.track.viewers.discard(viewer)
            viewer.closed = True
            sender.cancel()
            self.track.note_sent()
        return ws

    async def _track_sender(self, viewer: Viewer, ws: web.WebSocketResponse) -> None:
        try:
            while not viewer.closed:
                await viewer.wake.wait()
                viewer.wake.clear()
                wait = viewer.last_frame + TRACK_INTERVAL - self.clock()
                if wait > 0:  # bounded rate: what comes meanwhile goes in the same frame
                    await asyncio.sleep(wait)
                frame = self.track.frame(viewer)
                if frame is not None:
                    viewer.last_frame = self.clock()
                    await ws.send_str(frame)
                self.track.note_sent()
        except (ConnectionError, RuntimeError) as exc:  # the TV went away mid-frame
            log.debug("track view: sending to %s stopped: %s", viewer.address, exc)
            await ws.close()
        except Exception:  # a bug: this TV is let go (it reconnects), the server goes on
            log.exception("track view: sending to %s failed", viewer.address)
            await ws.close(code=1011, message=b"internal error")


async def _open_socket(request: web.Request, what: str, addresses: list[str], *,
                       limits: tuple[int, int], max_message: int
                       ) -> web.WebSocketResponse | web.Response:
    """A WebSocket opened for ``request``, or the refusal to send instead: another site's
    page (403), too many sockets in all or from this address (503: ``limits``), not a
    WebSocket (400). ``addresses``: those of the sockets already open."""
    if not origin_ok(request.headers.get("Origin"), request.host):
        return web.Response(status=403, text=f"a page of another site may not {what}\n")
    address = request.remote or "?"
    if len(addresses) >= limits[0] or addresses.count(address) >= limits[1]:
        return web.Response(status=503, text="too many connections\n")
    ws = web.WebSocketResponse(max_msg_size=max_message, heartbeat=HEARTBEAT, compress=False)
    if not ws.can_prepare(request).ok:
        return web.Response(status=400, text="a WebSocket, please\n")
    await ws.prepare(request)
    return ws


def _listen(bind: str, port: int) -> socket.socket:
    """A listening socket on exactly ``bind`` (an IP address) and ``port``."""
    family = socket.AF_INET6 if ipaddress.ip_address(bind).version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:  # "::" means IPv6 only: "0.0.0.0" is another address
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((bind, port))
        sock.listen(64)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def _name_thread(name: str) -> None:
    """Give this thread its name in the OS too (``top -H``, ``ps -L``, /proc/PID/task/*/comm)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.prctl(15, name.encode()[:15], 0, 0, 0)  # PR_SET_NAME
    except (OSError, AttributeError):  # not Linux: the name is only Python's
        pass
