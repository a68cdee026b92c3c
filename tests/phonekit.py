"""Helpers for the phone-station tests and benchmarks: a table served by the real web server
on a free loopback port (:func:`served`), a phone as a WebSocket client (:class:`Phone`,
aiohttp's client), and a player who reads a phone's screen (:func:`phone_move`).

A phone here is what a browser is to the server: it connects with an ``Origin`` of the page,
joins with the code and a name, and sends what the page's buttons send.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from pitboard.table.phone_seats import PhoneSeats
from pitboard.table.table import KioskOptions, Table
from pitboard.web.limits import MESSAGE_RATE
from pitboard.web.server import WebServer

PIN = "2468"
#: a bound on every wait for the server (a test that waits longer has failed)
TIMEOUT = 20.0
#: how fast a test's phone sends at most (the server takes 15 a second, bursts of 30)
PACE_RATE = 12.0
PACE_BURST = 20.0
#: the message rate of a server whose phones play whole races at a machine's pace, and those
#: phones' pace (the rate limit itself: tests/test_web_security.py, at the shipped rate)
BRISK_RATE = 1000.0


@dataclass
class Served:
    """A table with phone seats, its game thread and its web server."""

    table: Table
    server: WebServer
    stop: threading.Event
    thread: threading.Thread

    @property
    def pace(self) -> float:
        """How fast this server's phones may send (under its rate, as a person's fingers are)."""
        return PACE_RATE if self.server.message_rate == MESSAGE_RATE else BRISK_RATE

    @property
    def url(self) -> str:
        host, port = self.server.address
        return f"http://{host}:{port}"

    @property
    def code(self) -> str:
        assert self.table.phones is not None
        return self.table.phones.code


@contextlib.contextmanager
def served(*, stations: int = 2, seats: tuple[int, ...] | None = None, seed: int = 1,
           laps: int = 1, cars: int | None = None, modules: dict[str, Any] | None = None,
           kiosk: KioskOptions | None = None, open_table: bool = False, track: str = "usa",
           clock: Any = time.monotonic, brisk: bool = False) -> Iterator[Served]:
    """A table of ``stations`` (phone seats ``seats``, default all) served on 127.0.0.1;
    ``brisk``: the server takes :data:`BRISK_RATE` messages a second from each phone."""
    phones = PhoneSeats(seats if seats is not None else range(stations),
                        url="http://127.0.0.1:8080/", open_table=open_table)
    table = Table(stations=stations, seed=seed, laps=laps, cars=cars, modules=modules,
                  kiosk=kiosk, phones=phones, track=track, clock=clock)
    server = WebServer(post=table.post, staff_pin=PIN, bind="127.0.0.1", port=0,
                       open_table=open_table, clock=clock,
                       message_rate=BRISK_RATE if brisk else MESSAGE_RATE)
    server.start()
    table.view_observers.append(server.publish)
    table.refresh()
    stop = threading.Event()
    thread = threading.Thread(target=table.run, args=(stop,), kwargs={"tick": 0.05},
                              name="game", daemon=True)
    thread.start()
    try:
        yield Served(table, server, stop, thread)
    finally:
        stop.set()
        thread.join(TIMEOUT)
        server.stop()


@dataclass
class Phone:
    """One phone's WebSocket: what it was sent, and its own input count ``n``."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] | None = None
    seat: int | None = None
    token: str = ""
    n: int = 0
    acked: int = 0
    join: dict[str, Any] | None = None
    #: messages a second this phone sends at most
    pace: float = PACE_RATE
    _allowance: float = PACE_BURST
    _at: float = 0.0

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, url: str, *,
                   origin: str | None = None, pace: float = PACE_RATE) -> Phone:
        ws = await asyncio.wait_for(session.ws_connect(
            f"{url}/ws", origin=origin or url, timeout=aiohttp.ClientWSTimeout(ws_close=TIMEOUT)),
            TIMEOUT)
        return cls(ws, pace=pace)

    async def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` (an input gets the next ``n``); returns its ``n`` (0: none).
        Kept under the server's message rate, as a person's fingers are."""
        now = time.monotonic()
        self._allowance = min(PACE_BURST, self._allowance + (now - self._at) * self.pace)
        self._at = now
        if self._allowance < 1:
            await asyncio.sleep((1 - self._allowance) / self.pace)
            self._allowance, self._at = 1.0, time.monotonic()
        self._allowance -= 1
        if message["t"] in ("tap", "go", "gear"):
            self.n += 1
            message = {**message, "n": self.n}
        await self.ws.send_str(json.dumps(message))
        return int(message.get("n", 0))

    async def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next frame (noting the view, seat, ack it carries)."""
        try:  # (receive's own timeout starts again at each of the server's pings)
            msg = await asyncio.wait_for(self.ws.receive(), timeout)
        except TimeoutError:
            raise TimeoutError(f"no frame in {timeout:.1f} s; the last ones: "
                               f"{[f.get('t') for f in self.frames[-5:]]} view "
                               f"{(self.view or {}).get('kind')}") from None
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"socket {msg.type.name}: {msg.data!r} {msg.extra!r}")
        frame: dict[str, Any] = json.loads(msg.data)
        self.frames.append(frame)
        kind = frame["t"]
        if kind == "view":
            self.view = frame["v"]
        if kind in ("view", "ack"):
            self.acked = frame["ack"]
        elif kind == "seat":
            self.seat, self.token = frame["seat"], frame["token"]
        elif kind == "join":
            self.join = frame
        elif kind in ("bye", "left"):
            self.seat = None
        return frame

    async def until(self, kind: str, timeout: float = TIMEOUT, **match: Any) -> dict[str, Any]:
        """Frames until one of ``kind`` (whose fields equal ``match``)."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.next(max(0.01, deadline - time.monotonic()))
            if frame["t"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def until_view(self, test: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Frames until the phone's view passes ``test`` (the current one may already)."""
        deadline = time.monotonic() + timeout
        while self.view is None or not test(self.view):
            await self.next(max(0.01, deadline - time.monotonic()))
        return self.view

    async def answered(self, n: int, timeout: float = TIMEOUT) -> None:
        """Frames until the table has handled input ``n`` (and its screen came, if any)."""
        deadline = time.monotonic() + timeout
        while self.acked < n:
            await self.next(max(0.01, deadline - time.monotonic()))

    async def join_as(self, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"t": "join", "code": code, "name": name}
        if seat is not None:
            message["seat"] = seat
        await self.send(message)
        return await self.until("seat")

    async def close(self) -> None:
        await self.ws.close()


# ---- a player reading the screen ----------------------------------------------------------

_NEEDED = re.compile(r"(?:cards to play: |play )(\d)")


def phone_move(view: dict[str, Any], memory: dict[str, Any]) -> dict[str, Any] | None:
    """What a player does next on a phone showing ``view`` (None: nothing, it is someone
    else's turn). ``memory`` keeps what they noticed between screens (a GO that was refused).

    Plans speed up one gear at a time while the hand allows, play the first cards they can,
    and say GO; on the turn screen they take what GO offers; they pick the first card of a
    draft; they read the set-up checklist through; the Legend moves they confirm with GO.
    """
    kind, message = view["kind"], view["message"]
    keys = {k["label"]: k["slot"] for k in view["keys"]}
    if ("GO" in message and "Legend" in message) or message.endswith(": GO"):
        return {"t": "go"}  # a Legend car to move on the board, then GO
    if kind in ("setup", "results"):
        return {"t": "go"}
    if kind == "draft":
        if message not in ("YOUR PICK", "YOUR DROP"):
            return None
        if not any(c["selected"] for c in view["cards"]) and view["cards"]:
            return {"t": "tap", "slot": view["cards"][0]["slot"]}
        return {"t": "go"}
    if kind == "resolution":
        if "GO" in keys:
            return {"t": "tap", "slot": keys["GO"]}
        return {"t": "go"}  # the discard step: keep the hand
    if kind != "planning":
        return None
    if message.startswith("CLOGGED"):
        return {"t": "go"}
    playable = [c for c in view["cards"] if not c["disabled"]]
    chosen = [c for c in view["cards"] if c["selected"]]
    gear, target = view["gear"], view["target_gear"]
    key = (view["round"], view["lap"])
    if memory.get("round") != key:  # a new round: choose the gear
        memory.update(round=key, refused=0, geared=False)
    if not memory["geared"]:
        memory["geared"] = True
        want = min(4, gear + 1) if len(playable) > gear else max(1, min(gear, len(playable)))
        want = max(want, gear - 1)  # one gear down at most: free
        if want != target:
            return {"t": "gear", "gear": want}
    found = _NEEDED.search(message)
    needed = int(found.group(1)) if found else memory.get("needed", target)
    memory["needed"] = needed
    if len(chosen) < needed:
        for card in playable:
            if not card["selected"]:
                return {"t": "tap", "slot": card["slot"]}
    if len(chosen) > needed:
        return {"t": "tap", "slot": chosen[-1]["slot"]}
    if memory.get("went") == (key, len(chosen), target):
        memory["refused"] += 1  # GO did not lock the plan in: one gear lower
        memory["went"] = None
        if target > 1:
            return {"t": "gear", "gear": target - 1}
    memory["went"] = (key, len(chosen), target)
    return {"t": "go"}


async def play(phone: Phone, *, until: Any, timeout: float = 120.0) -> None:
    """Let ``phone`` play (:func:`phone_move`) until its view passes ``until``."""
    memory: dict[str, Any] = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = phone.view
        if view is not None and until(view):
            return
        move = phone_move(view, memory) if view is not None else None
        if move is None:
            await phone.next(max(0.01, deadline - time.monotonic()))
            continue
        n = await phone.send(move)
        await phone.answered(n)
    raise TimeoutError(f"the phone did not get there in {timeout:g} s: {phone.view}")


def run(coro: Any) -> Any:
    """Run a test's coroutine (no pytest-asyncio here)."""
    return asyncio.run(coro)


# ---- a real `pitboard run` (the benchmarks) ---------------------------------------------------

PHONES_PROFILE = """\
[table]
name = "Pitboard phones (benchmark)"
track = "{track}"
laps = {laps}
kiosk = {kiosk}
seat_idle_seconds = {seat_idle}
table_idle_seconds = {table_idle}
join_seconds = {join}
results_seconds = {results}
kiosk_cars = 6

[console]
port = ""
staff_pin = "{pin}"

[journal]
dir = "journal"

[web]
enabled = true
bind = "127.0.0.1"
port = {port}
phone_seats = 6
"""


def free_port() -> int:
    """A TCP port nobody listens on now (for a server started next)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Running:
    """``pitboard run`` in a process of its own, its log lines read as they come."""

    proc: Any
    url: str
    lines: list[str]

    @property
    def pid(self) -> int:
        return int(self.proc.pid)

    def code(self) -> str:
        """The join code now (the start-up line, then a log line for every race's new one)."""
        for line in reversed(self.lines):
            found = re.search(r"join code (\d+)|\(code (\d+),", line)
            if found:
                return found.group(1) or found.group(2)
        raise LookupError("no join code logged yet")


@contextlib.contextmanager
def pitboard_run(directory: Any, *, profile: str | None = None, laps: int = 1,
                 kiosk: bool = False, track: str = "usa", join: int = 5,
                 results: int = 5, seat_idle: int = 30, table_idle: int = 120
                 ) -> Iterator[Running]:
    """``pitboard run`` on ``profile`` (a profile's text; default: six phone seats), its web
    server on a free loopback port; stopped with SIGTERM at the end."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    port = free_port()
    text = profile if profile is not None else PHONES_PROFILE
    path = Path(directory) / "bench.toml"
    path.write_text(text.format(port=port, laps=laps, kiosk=str(kiosk).lower(), track=track,
                                join=join, results=results, seat_idle=seat_idle,
                                table_idle=table_idle, pin=PIN), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    proc = subprocess.Popen([sys.executable, "-m", "pitboard.cli", "run", "--config", str(path),
                             "--journal", str(Path(directory) / "journal")],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if " running \"" in line or "ERROR" in line:  # the start-up line
                started.set()
        started.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        if not started.wait(60) or not any(" running \"" in line for line in lines):
            raise RuntimeError("pitboard run did not start: " + " | ".join(lines[-5:]))
        if "phones at" in " ".join(lines):
            _listening(port)
        yield Running(proc, f"http://127.0.0.1:{port}", lines)
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _listening(port: int, seconds: float = 20.0) -> None:
    """Wait until the server (started on its own thread after the start-up line) accepts."""
    import socket

    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def process_cpu(pid: int) -> float:
    """CPU seconds every thread of process ``pid`` has run (the scheduler's nanoseconds, not
    the 10 ms ticks of /proc/PID/stat)."""
    return sum(thread_cpu(pid).values())


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of each thread of process ``pid``, by thread name (``pitboard-web``: the
    web server's; the process's own name: the game thread)."""
    import os

    out: dict[str, float] = {}
    task = f"/proc/{pid}/task"
    for tid in os.listdir(task):
        try:
            with open(f"{task}/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
            with open(f"{task}/{tid}/comm") as f:
                name = f.read().strip()
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile
        out[name] = out.get(name, 0.0) + ns / 1e9
    return out


def process_memory(pid: int) -> dict[str, float]:
    """RSS and PSS (MiB), open descriptors and threads of process ``pid``."""
    import os

    out = {"fds": float(len(os.listdir(f"/proc/{pid}/fd"))),
           "threads": float(len(os.listdir(f"/proc/{pid}/task")))}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("Rss", "Pss"):
                out[key.lower()] = int(rest.split()[0]) / 1024
    return out
