"""A store's kiosk with phones for hours, shortened: visitors' phones join, play, reload, sleep,
leave or just walk away, and the server's descriptors, threads and memory must stay flat.

Run: ``python benchmarks/phone_soak.py [MINUTES]`` (default 30). Prints figures only.

``pitboard run`` on a kiosk of six phone seats (its attract loop, a 5 s join countdown, bots
in the seats nobody holds, 5 s of results) in a process of its own. Visitors come and go at
random, up to six at a time, each a WebSocket over loopback (tests/phonekit.py): a visitor
joins with the code the kiosk logged for its race, presses GO to play, plays what its screen
shows, now and then reloads the page (a new socket, back to the seat with the token) or
sleeps (the socket drops, back a little later), and after a few minutes either leaves its seat
or vanishes without a word (the kiosk's bots take over; the server gives the seat up once the
race is over). Every 10 s the server process's open descriptors, threads, RSS and PSS are
read from /proc; a minute-by-minute table and the drift between the first and the last
minutes are printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import aiohttp

from phonekit import Phone, Running, phone_move, pitboard_run, process_memory

MINUTES = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
SAMPLE_SECONDS = 10.0
MAX_VISITORS = 6
JOURNAL_ROOT = "/dev/shm" if Path("/dev/shm").is_dir() else None


class Counts:
    def __init__(self) -> None:
        self.joins = self.reloads = self.sleeps = self.leaves = self.vanished = 0
        self.inputs = self.refused = self.errors = 0
        self.visitors = 0


async def _seat(phone: Phone, server: Running, name: str) -> bool:
    """Join with the code the kiosk logged last; False when there is no seat."""
    for _ in range(3):
        await phone.send({"t": "join", "code": server.code(), "name": name})
        while True:
            frame = await phone.next()
            if frame["t"] == "seat":
                return True
            if frame["t"] == "err":
                break
        if "no free seat" in frame["msg"] or "already" in frame["msg"]:
            return False
    return False


async def _visitor(session: aiohttp.ClientSession, server: Running, name: str,
                   rng: random.Random, counts: Counts, end: float) -> None:
    counts.visitors += 1
    phone = await Phone.open(session, server.url)
    try:
        await phone.until("hello")
        if not await _seat(phone, server, name):
            return
        counts.joins += 1
        stay = time.monotonic() + rng.uniform(30, 300)
        memory: dict[str, Any] = {}
        while time.monotonic() < min(stay, end):
            luck = rng.random()
            if luck < 0.004 or luck > 0.998:  # reload the page, or sleep and come back
                asleep = luck > 0.998
                seat, token = phone.seat, phone.token
                await phone.close()
                if asleep:
                    counts.sleeps += 1
                    await asyncio.sleep(rng.uniform(2, 20))
                else:
                    counts.reloads += 1
                phone = await Phone.open(session, server.url)
                await phone.until("hello")
                await phone.send({"t": "resume", "seat": seat, "token": token})
                frame = await phone.next(timeout=10)
                while frame["t"] not in ("seat", "err"):
                    frame = await phone.next(timeout=10)
                if frame["t"] == "err":  # the seat was given up meanwhile: go home
                    return
                continue
            view = phone.view
            move = None
            if view is not None:
                joined = "JOINED" in " ".join(view["lines"])
                if view["kind"] == "attract" or (view["kind"] == "lobby" and not joined):
                    move = {"t": "go"}  # press GO to play, GO to join
                else:
                    move = phone_move(view, memory)
            if move is None:
                with contextlib.suppress(TimeoutError):  # nothing yet: look again
                    await phone.next(timeout=2)
                continue
            await asyncio.sleep(rng.uniform(0.15, 1.5))
            if phone.view is not view:
                continue
            n = await phone.send(move)
            counts.inputs += 1
            try:
                await phone.answered(n, timeout=10)
            except TimeoutError:
                counts.refused += 1
        if rng.random() < 0.5:
            await phone.send({"t": "leave"})
            counts.leaves += 1
        else:
            counts.vanished += 1
    except (ConnectionError, TimeoutError, aiohttp.ClientError, KeyError, LookupError):
        counts.errors += 1
    finally:
        counts.visitors -= 1
        await phone.close()


async def _crowd(server: Running, end: float, counts: Counts) -> None:
    rng = random.Random(24)
    tasks: set[asyncio.Task[None]] = set()
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=10)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        serial = 0
        while time.monotonic() < end:
            tasks = {t for t in tasks if not t.done()}
            if len(tasks) < rng.randint(1, MAX_VISITORS):
                serial += 1
                tasks.add(asyncio.create_task(_visitor(session, server, f"V{serial % 1000}",
                                                       random.Random(serial), counts, end)))
            await asyncio.sleep(rng.uniform(1, 15))
        await asyncio.gather(*tasks, return_exceptions=True)


async def _watch(server: Running, end: float, samples: list[dict[str, float]],
                 counts: Counts) -> None:
    start = time.monotonic()
    while time.monotonic() < end:
        sample = process_memory(server.pid)
        sample["t"] = time.monotonic() - start
        sample["visitors"] = counts.visitors
        samples.append(sample)
        await asyncio.sleep(SAMPLE_SECONDS)


async def _soak(server: Running, minutes: float) -> tuple[list[dict[str, float]], Counts]:
    end = time.monotonic() + minutes * 60
    samples: list[dict[str, float]] = []
    counts = Counts()
    await asyncio.gather(_crowd(server, end, counts), _watch(server, end, samples, counts))
    return samples, counts


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pitboard-phone-soak-", dir=JOURNAL_ROOT) as tmp, \
            pitboard_run(tmp, kiosk=True, laps=1, join=5, results=5, seat_idle=10,
                         table_idle=60) as server:
        samples, counts = asyncio.run(_soak(server, MINUTES))
        races = sum("join code" in line for line in server.lines)
        after = process_memory(server.pid)  # every visitor gone
    print(f"Kiosk soak with phones: {MINUTES:g} min, {races} races; {counts.joins} joins, "
          f"{counts.reloads} reloads, {counts.sleeps} sleeps, {counts.leaves} left their seat, "
          f"{counts.vanished} walked away; {counts.inputs} inputs ({counts.refused} "
          f"unanswered in 10 s), {counts.errors} visitors ended by an error")
    print(f"{'minute':>6} {'phones':>6} {'fds':>5} {'threads':>7} {'RSS MiB':>8} {'PSS MiB':>8}")
    for minute in range(int(samples[-1]["t"] // 60) + 1):
        group = [s for s in samples if minute * 60 <= s["t"] < (minute + 1) * 60]
        if group:
            print(f"{minute:>6} {max(s['visitors'] for s in group):>6.0f} "
                  f"{max(s['fds'] for s in group):>5.0f} {max(s['threads'] for s in group):>7.0f} "
                  f"{statistics.mean(s['rss'] for s in group):>8.1f} "
                  f"{statistics.mean(s['pss'] for s in group):>8.1f}")
    print(f"after the last visitor: fds {after['fds']:.0f}, threads {after['threads']:.0f}, "
          f"RSS {after['rss']:.1f} MiB, PSS {after['pss']:.1f} MiB")
    tail = max(1, len(samples) // 6)
    first = samples[tail:2 * tail]  # after the first visitors settled in
    last = samples[-tail:]
    for key, unit in (("rss", "MiB"), ("pss", "MiB"), ("fds", ""), ("threads", "")):
        a = statistics.mean(s[key] for s in first)
        b = statistics.mean(s[key] for s in last)
        print(f"drift {key}: {a:.1f} -> {b:.1f}{' ' + unit if unit else ''} "
              f"({b - a:+.1f}) between the second and the last sixth of the run")


if __name__ == "__main__":
    main()
