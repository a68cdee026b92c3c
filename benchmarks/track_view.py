"""The TV's track view (issue 25): a move on the TV page within 50 ms p99 of the table
confirming it (loopback, 20 track-view clients, at this machine's CPU and at CPU x4), and the
frame rate the page holds during a move animation in this machine's headless Chromium.

Run: ``python benchmarks/track_view.py [RACES] [SECONDS]`` (default 2 races and 20 s per
frame rate; 0 leaves a part out). Prints figures only. Needs Playwright and Chromium, as
tests/test_tv_browser.py does.

**Move -> TV.** ``pitboard run`` in a process of its own: four phone seats, two Legend cars,
weather and road tokens, one lap of the USA, the journal on tmpfs (its fsync is the storage's
time, benchmarks/powercut_soak.py). Twenty track-view clients watch over loopback: nineteen
WebSockets (aiohttp, in this process, from 127.0.0.2-6: the server takes four TVs from one
address) and one real page, ``/track`` in headless Chromium (Playwright driving
/usr/bin/chromium, 1920x1080, the animations at ``?pace=0.25``: their length does not change
when their first frame is drawn). Four phones play whole races (tests/phonekit.py), one input
at a time; before each input every TV has caught up and the page is idle. For each input
after which a car moves, the first move of it (what the page animates first: a ``move`` or a
``spin_out``) is timed from the moment the phone sends the input -- before the table has
even read it, so the figures hold the input's own way in and the journal's write besides the
table confirming it: a bound from above -- to the moment each socket TV has the frame that
carries it, and to the page's first animation frame of it (``performance.now()`` once the page
has drawn the car on its way, before the browser paints that frame; the page's clock is set
against this one by the quickest of a few round trips).

**CPU x4** (as benchmarks/press_to_glass.py and phone_tap.py model a Pi 4): the server
process's CPU time in each move's window -- every thread, from the scheduler's nanosecond
counters, from the input until the last socket TV has the move -- counts four times: x4 =
wall + 3 x cpu. The window holds whatever the table works out meanwhile on its other thread
(the stations' screens after the move): a bound from above again. The clients' CPU (this
process, Chromium) is not the Pi's and is not scaled.

**Frame rate.** A kiosk's attract race (bots and two Legends, weather, road tokens) on the page
at its real pace, 1920x1080, for SECONDS: every requestAnimationFrame timestamp while a move
animates (a probe's own rAF loop beside the page's, reading ``tv.anim``); the frames per
second held, the frame intervals, and how many came late (over 1.5 x the median). Again with
Chromium's own CPU throttled x4 (DevTools ``Emulation.setCPUThrottlingRate``: a slower
device's page; a Pi's GPU is another matter).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import aiohttp

from browserkit import ARGS, CHROMIUM
from phonekit import PHONES_PROFILE, Phone, phone_move, pitboard_run, thread_cpu

RACES = int(sys.argv[1]) if len(sys.argv) > 1 else 2
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
TARGET_MS = 50.0
TARGET_FPS = 60.0
JOURNAL_ROOT = "/dev/shm" if Path("/dev/shm").is_dir() else None
SOCKET_TVS = 19  # and the page: twenty track-view clients
TVS_PER_ADDRESS = 4  # web/limits.py MAX_TRACK_SOCKETS_PER_ADDRESS
PHONES = ("Ann", "Bo", "Cy", "Di")
VIEWPORT = {"width": 1920, "height": 1080}
MODULES = """
[table.modules.legends]
cars = 2
[table.modules.weather]
weather = "rain"
road = true
[table.kiosk_modules.legends]
cars = 2
[table.kiosk_modules.weather]
weather = "random"
road = true
"""
#: what the benchmark reads in the page: the first drawn frame of each move's animation (the
#: page's ``anim.drawn``) by race and event, and every animation frame's timestamp (null
#: between animations), from a requestAnimationFrame loop of its own beside the page's
PROBE = """
window.probe = {first: {}, frames: []};
(() => {
  let seen = null;
  const tick = (now) => {
    const anim = window.tv && window.tv.anim;
    if (anim && anim.frames >= 1) {
      probe.frames.push(now);
      if (anim !== seen) { seen = anim; probe.first[`${tv.race}:${anim.e.i}`] = anim.drawn; }
    } else if (probe.frames.length && probe.frames[probe.frames.length - 1] !== null) {
      probe.frames.push(null);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def profile(*, kiosk: bool) -> str:
    text = PHONES_PROFILE.replace("phone_seats = 6", f"phone_seats = {len(PHONES)}")
    text = text.replace("[console]", MODULES.replace("{", "{{").replace("}", "}}")
                        + "\n[console]")
    return text.replace("{kiosk}", "true" if kiosk else "false")


# ---- the clients ----------------------------------------------------------------------------

@dataclass
class Window:
    """One input's window: from its sending until every socket TV has the first move after
    it (the server's CPU is read then, by the reader that brought the last one)."""

    pid: int
    before: int
    waiting: int
    cpu: dict[str, float] | None = None

    def arrived(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.cpu = thread_cpu(self.pid)


@dataclass
class SocketTv:
    """A track-view WebSocket: when each event's frame arrived, which were moves, the cursor."""

    ws: aiohttp.ClientWebSocketResponse
    got: dict[int, float] = field(default_factory=dict)
    moves: list[int] = field(default_factory=list)
    race: str = ""
    cursor: int = 0
    last: float = 0.0
    window: Window | None = None

    async def read(self, changed: asyncio.Event) -> None:
        async for msg in self.ws:
            at = time.perf_counter()
            frame = json.loads(msg.data)
            if frame.get("t") != "track":
                continue
            if frame["race"] != self.race:  # a new race: its events count from 0 again
                self.race, self.got, self.moves = frame["race"], {}, []
            if not frame["full"]:
                for event in frame["events"]:
                    self.got[event["i"]] = at
                    if event["type"] in ("move", "spin_out"):  # what the page animates
                        self.moves.append(event["i"])
            self.cursor, self.last = frame["cursor"], at
            window = self.window
            if window is not None and self.moved_since(window.before) is not None:
                self.window = None
                window.arrived()
            changed.set()

    def moved_since(self, cursor: int) -> int | None:
        """The first move at or after event ``cursor`` it has (None: none yet)."""
        return next((i for i in self.moves if i >= cursor), None)


async def _phone_reader(phone: Phone, changed: asyncio.Event) -> None:
    with contextlib.suppress(ConnectionError, TimeoutError):
        while True:
            await phone.next(timeout=3600)
            changed.set()


@dataclass
class Sample:
    wall: list[float]  # per socket TV (ms)
    page: float  # the page's first animation frame (ms)
    cpu: float  # the server's CPU from the input until the last socket TV had the move (ms)
    web: float  # of it, the web server thread's


class Clock:
    """The page's ``performance`` clock against this process's ``perf_counter``."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.error = 0.0

    async def set(self, page: Any) -> None:
        best = None
        for _ in range(15):
            t0 = time.perf_counter()
            there = await page.evaluate("() => performance.now()")
            t1 = time.perf_counter()
            if best is None or t1 - t0 < best[0]:
                best = (t1 - t0, (t0 + t1) / 2 * 1000 - there)
        assert best is not None
        self.error, self.offset = best[0] * 500, best[1]

    def here(self, page_ms: float) -> float:
        """A page timestamp (ms) as perf_counter seconds."""
        return (page_ms + self.offset) / 1000


def _lobby_move(phone: Phone, index: int, count: int) -> dict[str, Any] | None:
    assert phone.view is not None
    text = " ".join(phone.view["lines"])
    if "press GO to join" in text:
        return {"t": "go"}
    if index == 0 and f"{count} players" in text:
        return {"t": "tap", "slot": 6}  # RACE
    return None


async def _race(server: Any, page: Any, clock: Clock, tvs: list[SocketTv],
                phones: list[Phone], changed: asyncio.Event) -> list[Sample]:
    samples: list[Sample] = []
    memory: list[dict[str, Any]] = [{} for _ in phones]
    races = 0
    seen_results = False
    while races < RACES:
        move = None
        for index, phone in enumerate(phones):
            view = phone.view
            if view is None:
                continue
            if view["kind"] == "results" and not seen_results:
                seen_results = True
                races += 1
            if view["kind"] == "lobby":
                seen_results = False
                move = _lobby_move(phone, index, len(phones))
            else:
                move = phone_move(view, memory[index])
            if move is not None:
                break
        if races >= RACES:
            break
        if move is None:
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 5)
            continue
        await _quiet(page, tvs)
        before = tvs[0].cursor
        window = Window(server.pid, before, len(tvs))
        for tv in tvs:
            tv.window = window
        cpu0, t0 = thread_cpu(server.pid), time.perf_counter()
        n = await phone.send(move)
        while phone.acked < n or window.cpu is None:
            if phone.acked >= n and window.cpu is None and _still(tvs, 0.06):
                break  # answered, and no car moved
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 0.1)
        await _quiet(page, tvs)
        for tv in tvs:
            tv.window = None
        cpu1 = window.cpu
        if cpu1 is None:
            continue
        i = tvs[0].moved_since(before)
        assert i is not None and all(tv.moved_since(before) == i for tv in tvs)
        key = f"{tvs[0].race}:{i}"
        first = await page.evaluate("(key) => probe.first[key]", key)
        if first is None:
            continue  # a car that moved without an animation (a Legend the page redrew)
        cpu = sum(cpu1.values()) - sum(cpu0.values())
        web = cpu1.get("pitboard-web", 0.0) - cpu0.get("pitboard-web", 0.0)
        samples.append(Sample([(tv.got[i] - t0) * 1000 for tv in tvs],
                              (clock.here(first) - t0) * 1000, cpu * 1000, web * 1000))
    return samples


def _still(tvs: list[SocketTv], seconds: float) -> bool:
    """Every socket TV on one cursor, and nothing new for ``seconds``."""
    cursor = tvs[0].cursor
    return all(tv.cursor == cursor for tv in tvs) and \
        time.perf_counter() - max(tv.last for tv in tvs) > seconds


async def _quiet(page: Any, tvs: list[SocketTv]) -> None:
    """Every socket TV on one cursor, nothing new for 60 ms, and the page idle on it."""
    while True:
        cursor = tvs[0].cursor
        if _still(tvs, 0.06):
            await page.wait_for_function(
                f"() => window.tv && tv.idle && tv.cursor >= {cursor}", timeout=20_000)
            if tvs[0].cursor == cursor:
                return
        await asyncio.sleep(0.02)


async def _latency() -> list[Sample]:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory(prefix="pitboard-tv-", dir=JOURNAL_ROOT) as tmp, \
            pitboard_run(tmp, profile=profile(kiosk=False), laps=1) as server:
        async with async_playwright() as pw, aiohttp.ClientSession() as session:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = await browser.new_page(viewport=VIEWPORT)
            await page.add_init_script(PROBE)
            await page.goto(f"{server.url}/track?pace=0.25")
            await page.wait_for_function("() => window.tv && tv.geo && tv.idle")
            clock = Clock()
            await clock.set(page)
            changed = asyncio.Event()
            tvs = []
            clients = []
            for k in range(SOCKET_TVS):
                host = f"127.0.0.{2 + k // TVS_PER_ADDRESS}"
                connector = aiohttp.TCPConnector(local_addr=(host, 0))
                client = aiohttp.ClientSession(connector=connector)
                clients.append(client)
                ws = await client.ws_connect(f"{server.url}/track/ws", origin=server.url)
                tvs.append(SocketTv(ws))
            readers = [asyncio.create_task(tv.read(changed)) for tv in tvs]
            phones = [await Phone.open(session, server.url) for _ in PHONES]
            for phone, name in zip(phones, PHONES, strict=True):
                await phone.until("hello")
                await phone.join_as(server.code(), name)
            readers += [asyncio.create_task(_phone_reader(p, changed)) for p in phones]
            started = time.perf_counter()
            samples = await _race(server, page, clock, tvs, phones, changed)
            took = time.perf_counter() - started
            for task in readers:
                task.cancel()
            await browser.close()
            for tv, client in zip(tvs, clients, strict=True):
                await tv.ws.close()
                await client.close()
    print(f"Move -> TV: {len(samples)} moves of {RACES} one-lap races ({took:.0f} s), four "
          f"phones, two Legends, weather and road tokens; {SOCKET_TVS} socket TVs and the "
          f"page (clock set to +-{clock.error:.2f} ms), loopback, the server in its own process")
    return samples


def latency_figures(samples: list[Sample]) -> None:
    every = [w for s in samples for w in s.wall]
    last = [max(s.wall) for s in samples]
    page = [s.page for s in samples]
    cpu = [s.cpu for s in samples]
    rows = [
        ("each socket TV", every, [w + 3 * s.cpu for s in samples for w in s.wall]),
        (f"the last of {SOCKET_TVS} socket TVs", last, [max(s.wall) + 3 * s.cpu for s in samples]),
        ("the page's first frame", page, [s.page + 3 * s.cpu for s in samples]),
    ]
    print(f"{'ms from the input':<28} {'n':>5} {'p50':>6} {'p99':>6} {'max':>6} "
          f"{'x4 p50':>7} {'x4 p99':>7} {'x4 max':>7}")
    for label, wall, x4 in rows:
        print(f"{label:<28} {len(wall):>5} {pct(wall, 50):>6.1f} {pct(wall, 99):>6.1f} "
              f"{max(wall):>6.1f} {pct(x4, 50):>7.1f} {pct(x4, 99):>7.1f} {max(x4):>7.1f}")
    web = [s.web for s in samples]
    print(f"server CPU per move (ms, p50/p99): all threads {pct(cpu, 50):.2f}/"
          f"{pct(cpu, 99):.2f}, of which the web thread {pct(web, 50):.2f}/{pct(web, 99):.2f}"
          " (the rest: the game thread's table)")
    for label, values in (("this CPU", page), ("CPU x4", rows[2][2])):
        p99 = pct(values, 99)
        print(f"p99 on the page, {label}: {p99:.1f} ms (target {TARGET_MS:.0f} ms)"
              f"{'' if p99 <= TARGET_MS else '   OVER'}")


# ---- the frame rate -------------------------------------------------------------------------

async def _frames(page: Any, seconds: float) -> tuple[list[float], int]:
    await page.evaluate("() => { probe.frames = []; tv.stats.length = 0; }")
    await asyncio.sleep(seconds)
    stamps: list[float | None] = await page.evaluate("() => probe.frames")
    moves: int = await page.evaluate("() => tv.stats.length")
    gaps: list[float] = []
    for a, b in itertools.pairwise(stamps):
        if a is not None and b is not None:
            gaps.append(b - a)
    return gaps, moves


def frame_figures(label: str, gaps: list[float], moves: int) -> None:
    if not gaps:
        print(f"{label}: no animation frames")
        return
    median = statistics.median(gaps)
    late = sum(1 for g in gaps if g > 1.5 * median)
    fps = len(gaps) / (sum(gaps) / 1000)
    print(f"{label:<30} {moves:>5} {len(gaps):>7} {fps:>6.1f} {median:>6.1f} "
          f"{pct(gaps, 99):>6.1f} {max(gaps):>6.1f} {100 * late / len(gaps):>6.1f}%"
          f"{'' if fps >= TARGET_FPS - 1 else f'   under {TARGET_FPS:.0f}'}")


async def _frame_rate() -> None:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory(prefix="pitboard-tv-", dir=JOURNAL_ROOT) as tmp, \
            pitboard_run(tmp, profile=profile(kiosk=True), laps=1, kiosk=True) as server:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = await browser.new_page(viewport=VIEWPORT)
            await page.add_init_script(PROBE)
            await page.goto(f"{server.url}/track")
            await page.wait_for_function("() => window.tv && tv.state && "
                                         "tv.state.screen === 'attract' && tv.stats.length")
            cars = await page.evaluate("() => tv.state.cars.length")
            print(f"Frame rate during move animations: the kiosk's attract race ({cars} cars) "
                  f"on the page (1920x1080, headless Chromium {browser.version}), {SECONDS:g} s "
                  f"each; frame intervals in ms (target {TARGET_FPS:.0f} frames/s)")
            print(f"{'':<30} {'moves':>5} {'frames':>7} {'fps':>6} {'p50':>6} {'p99':>6} "
                  f"{'max':>6} {'late':>7}")
            frame_figures("this CPU", *await _frames(page, SECONDS))
            cdp = await page.context.new_cdp_session(page)
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            frame_figures("Chromium's CPU throttled x4", *await _frames(page, SECONDS))
            await browser.close()


if __name__ == "__main__":
    if RACES:
        latency_figures(asyncio.run(_latency()))
    if RACES and SECONDS:
        print()
    if SECONDS:
        asyncio.run(_frame_rate())
