"""Helpers for the TV track-view tests and benchmarks: a TV as a WebSocket client (:class:`Tv`,
aiohttp's client) that keeps what the page would -- the race, the events it was sent in order,
the state -- and the race as the table holds it (:func:`race_places`), read on the game thread.

A TV here is what the page is to the server: it connects to ``/track/ws`` with the ``Origin``
of the page, sends nothing, and reads ``track`` frames.
"""

from __future__ import annotations

import asyncio
import json
import queue
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from phonekit import TIMEOUT, Served
from pitboard.table.table import Call
from pitboard.table.track_json import TV_EVENTS


@dataclass
class Tv:
    """One TV's socket and what it has been sent."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    #: the race shown and every event of it sent so far, by index
    race: str = ""
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    state: dict[str, Any] | None = None
    cursor: int = 0
    drawing: dict[str, Any] | None = None
    fulls: int = 0

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, url: str, *,
                   origin: str | None = None) -> Tv:
        ws = await asyncio.wait_for(session.ws_connect(
            f"{url}/track/ws", origin=origin or url,
            timeout=aiohttp.ClientWSTimeout(ws_close=TIMEOUT)), TIMEOUT)
        return cls(ws)

    async def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next frame, applied as the page applies it."""
        try:
            msg = await asyncio.wait_for(self.ws.receive(), timeout)
        except TimeoutError:
            raise TimeoutError(f"no frame in {timeout:.1f} s (cursor {self.cursor}, "
                               f"screen {(self.state or {}).get('screen')})") from None
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"socket {msg.type.name}: {msg.data!r} {msg.extra!r}")
        frame: dict[str, Any] = json.loads(msg.data)
        self.frames.append(frame)
        if frame["t"] != "track":
            return frame
        if frame["full"] or frame["race"] != self.race:
            self.fulls += 1
            self.events = {}
        self.race = frame["race"]
        for event in frame["events"]:
            self.events[event["i"]] = event
        self.state, self.cursor = frame["state"], frame["cursor"]
        if "drawing" in frame:
            self.drawing = frame["drawing"]
        return frame

    async def until(self, test: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Frames until the TV's state passes ``test`` (the current one may already)."""
        deadline = time.monotonic() + timeout
        while self.state is None or not test(self):
            await self.next(max(0.01, deadline - time.monotonic()))
        assert self.state is not None
        return self.state

    async def close(self) -> None:
        await self.ws.close()


def on_game_thread(s: Served, fn: Any) -> Any:
    """``fn()`` run on the table's game thread (after everything posted before it)."""
    box: queue.Queue[Any] = queue.Queue()
    s.table.post(Call(fn, box.put))
    return box.get(timeout=TIMEOUT)


def race_places(s: Served) -> dict[str, Any]:
    """The race as the table holds it now (game thread): the public event count and kinds,
    and every car's place (``on_track``, space, spot)."""
    def read() -> dict[str, Any]:
        s.table.refresh()  # a Call may run before the redraw of the batch it came in
        feed = s.table._feed  # what the table last handed its view observers
        view = feed.track if feed is not None else None
        race = s.table.race
        if view is None or race is None:
            return {"count": 0, "cars": {}, "kinds": [], "race": "", "round": 0,
                    "screen": view.screen if view is not None else ""}
        return {"count": view.event_count, "race": view.race, "round": view.round,
                "screen": view.screen, "legend_moves": len(view.legend_moves),
                "kinds": [e.kind for e in view.events],
                "cars": {c.id: (c.on_track, c.space, c.spot) for c in race.cars}}
    result: dict[str, Any] = on_game_thread(s, read)
    return result


def public_kinds(kinds: list[str]) -> list[str]:
    """The kinds of event a TV is sent, of ``kinds`` (in order)."""
    return [k for k in kinds if k in TV_EVENTS]
