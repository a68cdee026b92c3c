"""Phone tap to the phone's new screen data (issue 24: p99 <= 30 ms over loopback with six
phone stations connected, at this machine's CPU and at CPU x4), and the memory the web server
adds.

Run: ``python benchmarks/phone_tap.py [RACES]`` (default 2). Prints figures only.

**Latency.** ``pitboard run`` on a table of six phone seats (no wired station, one lap of the
USA) in a process of its own; six phones connect to it over loopback (aiohttp's WebSocket
client, in this process), join with the code and play whole races against each other, each
reading its own screen and tapping what a player would (tests/phonekit.py), after a person's
think time of 0.1-0.3 s. For every input -- a card, a soft key, the gear lever, GO -- the
latency is from the moment the phone sends it to the moment the first frame the table built
after handling it arrives (the server marks it with the input's number: ``ack``); the table
has six players, so inputs of several phones are in flight at once (in planning all six plan
together). "screen" counts inputs answered by a new screen, "same" those that changed nothing
on it (answered by an ack frame).

**CPU x4** (as benchmarks/press_to_glass.py models a Pi 4): the server's CPU time during each
input's window -- every thread of the process, from the scheduler's nanosecond counters --
counts four times: x4 = wall + 3 x cpu. The phones' own CPU (this process) is not the Pi's and
is not scaled. Played twice: with the phones playing at once, the other phones' work in a
window is in its CPU too (all of it four times slower: a bound from above); then with one
input in flight at a time (the others wait their turn before sending), the window holds one
input's whole path -- the web thread's read, the game thread's handling and redraw of every
station's view, the frames to every phone whose screen changed.

**CPU x4, measured**: then the same with one input in flight at a time, the server process
held to a quarter of one CPU by the kernel (a cgroup's CPU bandwidth limit: 1 ms of every 4 ms,
for all its threads together; the phones, this process, are not limited). A cross-check of the
model, not the same thing: the kernel's shortest quota is 1 ms, so a burst of work under it
runs at full speed (the p50 barely moves) while work past it waits out the rest of the period
(the tail pays up to 3 ms more than a slower CPU would, and pays for work done after the answer
left too). It needs root and a cgroup CPU controller (v1 ``/sys/fs/cgroup/cpu`` or v2
``cpu.max``); without them the run says so and is skipped.

The table's journal is on tmpfs (``/dev/shm``): every decision is fsynced before its screen
is shown, and that wait is the storage's (benchmarks/powercut_soak.py), not the web path's.

**Memory.** The sim profile's table (six emulated stations drawing their OLED frames) run twice:
with its web server off, idle in the lobby; and with it on, six phones connected, playing a
race; RSS and PSS of the process (MiB) compared mid-race. The difference is what the server,
six connections and a race in progress add (a race alone adds well under 1 MiB).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import aiohttp

from phonekit import Phone, phone_move, pitboard_run, process_memory, thread_cpu
from pitboard.hwconfig import profiles_dir

RACES = int(sys.argv[1]) if len(sys.argv) > 1 else 2
TARGET_MS = 30.0
#: the journal on tmpfs: a decision's fsync is the storage's time, not the phone path's (on
#: this shared VM disk it is anything from 1 to 60 ms; an SD card's is its own figure)
JOURNAL_ROOT = "/dev/shm" if Path("/dev/shm").is_dir() else None
TARGET_MIB = 30.0
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


@dataclass
class Sample:
    kind: str
    wall_ms: float
    cpu_ms: float
    screen: bool
    #: of cpu_ms, the web server thread's
    web_ms: float = 0.0


def _kind(view: dict[str, Any], move: dict[str, Any]) -> str:
    if move["t"] == "tap":
        label = next((k["label"] for k in view["keys"] if k["slot"] == move["slot"]), "card")
        return f"{view['kind']} {label if label != 'card' else 'card'}"
    return f"{view['kind']} {move['t'].upper() if move['t'] == 'go' else 'lever'}"


async def _lobby_move(phone: Phone, index: int) -> dict[str, Any] | None:
    view = phone.view
    assert view is not None
    text = " ".join(view["lines"])
    if "press GO to join" in text:
        return {"t": "go"}
    if index == 0 and "6 players" in text:
        return {"t": "tap", "slot": 6}  # RACE
    return None


async def _player(phone: Phone, index: int, pid: int, samples: list[Sample],
                  races: list[int], rng: random.Random, turns: asyncio.Lock | None) -> None:
    memory: dict[str, Any] = {}
    seen_results = False
    while races[0] < RACES:
        view = phone.view
        if view is None:
            await phone.next()
            continue
        if view["kind"] == "results" and not seen_results:
            seen_results = True
            if index == 0:
                races[0] += 1
                if races[0] >= RACES:
                    return
        if view["kind"] == "lobby":
            seen_results = False
            move = await _lobby_move(phone, index)
        else:
            move = phone_move(view, memory)
        if move is None:
            with contextlib.suppress(TimeoutError):  # nothing for this phone: look again
                await phone.next(timeout=5)
            continue
        await asyncio.sleep(rng.uniform(0.1, 0.3))  # a person reads and reaches
        if phone.view is not view:
            continue  # the screen changed meanwhile: read it again
        async with turns or contextlib.nullcontext():
            if phone.view is not view:
                continue
            cpu0, t0 = thread_cpu(pid), time.perf_counter()
            n = await phone.send(move)
            screen = False
            while phone.acked < n:
                frame = await phone.next()
                screen = screen or (frame["t"] == "view" and frame["ack"] >= n)
            t1 = time.perf_counter()
            cpu1 = thread_cpu(pid)
        cpu = sum(cpu1.values()) - sum(cpu0.values())
        web = cpu1.get("pitboard-web", 0.0) - cpu0.get("pitboard-web", 0.0)
        samples.append(Sample(_kind(view, move), (t1 - t0) * 1000, cpu * 1000, screen,
                              web * 1000))


async def _table_of_phones(url: str, code: str, pid: int, *, one_at_a_time: bool
                           ) -> list[Sample]:
    samples: list[Sample] = []
    races = [0]
    turns = asyncio.Lock() if one_at_a_time else None
    async with aiohttp.ClientSession() as session:
        phones = [await Phone.open(session, url) for _ in NAMES]
        for phone, name in zip(phones, NAMES, strict=True):
            await phone.until("hello")
            await phone.join_as(code, name)
        await asyncio.gather(*(_player(p, i, pid, samples, races, random.Random(i), turns)
                               for i, p in enumerate(phones)))
    return samples


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


#: the limit of the measured CPU x4 run: 1 ms of CPU time in every 4 ms (the kernel's shortest
#: quota is 1 ms: the server runs in slices of at most 1 ms, then waits out the period)
QUOTA_US, PERIOD_US = 1000, 4000


def _cgroup_dir() -> tuple[Path, str] | None:
    """Where to make a CPU-limited group, and its kind ("v1"/"v2"); None if there is none."""
    v1 = Path("/sys/fs/cgroup/cpu")
    if (v1 / "cpu.cfs_quota_us").exists():
        return v1, "v1"
    v2 = Path("/sys/fs/cgroup")
    controllers = v2 / "cgroup.subtree_control"
    if controllers.exists() and "cpu" in controllers.read_text().split():
        return v2, "v2"
    return None


@contextlib.contextmanager
def quarter_cpu(pid: int) -> Iterator[str]:
    """Hold process ``pid`` (every thread, and any it starts) to a quarter of one CPU until
    the block ends; yields how. Raises OSError (with the reason) if this machine cannot."""
    found = _cgroup_dir()
    if found is None:
        raise OSError("no cgroup CPU controller (v1 /sys/fs/cgroup/cpu or v2 cpu.max)")
    root, kind = found
    group = root / f"pitboard-bench-{pid}"
    group.mkdir()
    try:
        if kind == "v1":
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(QUOTA_US))
        else:
            (group / "cpu.max").write_text(f"{QUOTA_US} {PERIOD_US}")
        (group / "cgroup.procs").write_text(str(pid))
        yield f"cgroup {kind}: {QUOTA_US} us per {PERIOD_US} us"
    finally:
        with contextlib.suppress(OSError):  # the process may have ended: nothing to move
            (root / "cgroup.procs").write_text(str(pid))
        with contextlib.suppress(OSError):
            group.rmdir()


def latency(*, one_at_a_time: bool, throttled: bool = False) -> None:
    with tempfile.TemporaryDirectory(prefix="pitboard-phone-tap-", dir=JOURNAL_ROOT) as tmp, \
            pitboard_run(tmp, laps=1) as server, contextlib.ExitStack() as limits:
        how_limited = ""
        if throttled:
            try:
                how_limited = limits.enter_context(quarter_cpu(server.pid))
            except OSError as exc:
                print(f"Phone tap at a quarter of one CPU (measured CPU x4): skipped: {exc}")
                return
        started = time.perf_counter()
        samples = asyncio.run(_table_of_phones(server.url, server.code(), server.pid,
                                               one_at_a_time=one_at_a_time))
        took = time.perf_counter() - started
        memory = process_memory(server.pid)
    if throttled:
        _measured_x4(samples, took, memory, how_limited)
        return
    x4 = [s.wall_ms + 3 * s.cpu_ms for s in samples]
    wall = [s.wall_ms for s in samples]
    how = "one input in flight at a time" if one_at_a_time else "the phones play at once"
    print(f"Phone tap -> the phone's new screen data, {how}: {len(samples)} inputs of 6 "
          f"phones over {RACES} one-lap races ({took:.0f} s), loopback, server in its own "
          f"process (RSS {memory['rss']:.1f} MiB, {memory['threads']:.0f} threads at the end)")
    print(f"{'input':<24} {'n':>5} {'screen':>6} {'p50':>6} {'p99':>6} {'max':>6} "
          f"{'cpu p50':>8} {'cpu p99':>8} {'x4 p50':>7} {'x4 p99':>7}")
    groups: dict[str, list[Sample]] = {}
    for s in samples:
        groups.setdefault(s.kind, []).append(s)
    for kind in sorted(groups, key=lambda k: -len(groups[k])):
        g = groups[kind]
        w = [s.wall_ms for s in g]
        g4 = [s.wall_ms + 3 * s.cpu_ms for s in g]
        print(f"{kind:<24} {len(g):>5} {sum(s.screen for s in g):>6} {pct(w, 50):>6.1f} "
              f"{pct(w, 99):>6.1f} {max(w):>6.1f} {statistics.median(s.cpu_ms for s in g):>8.2f} "
              f"{pct([s.cpu_ms for s in g], 99):>8.2f} {pct(g4, 50):>7.1f} {pct(g4, 99):>7.1f}")
    screen = [s.wall_ms for s in samples if s.screen]
    print(f"{'all inputs':<24} {len(samples):>5} {len(screen):>6} {pct(wall, 50):>6.1f} "
          f"{pct(wall, 99):>6.1f} {max(wall):>6.1f} "
          f"{statistics.median(s.cpu_ms for s in samples):>8.2f} "
          f"{pct([s.cpu_ms for s in samples], 99):>8.2f} {pct(x4, 50):>7.1f} {pct(x4, 99):>7.1f}")
    web = [s.web_ms for s in samples]
    cpu = [s.cpu_ms for s in samples]
    print(f"server CPU per input (ms, p50/p99): all threads {pct(cpu, 50):.2f}"
          f"/{pct(cpu, 99):.2f}, of which the web thread "
          f"{pct(web, 50):.2f}/{pct(web, 99):.2f} (the rest: the game thread's table)")
    for label, values in (("this CPU", wall), ("CPU x4", x4)):
        p99 = pct(values, 99)
        print(f"p99 {label}: {p99:.1f} ms (target {TARGET_MS:.0f} ms)"
              f"{'' if p99 <= TARGET_MS else '   OVER'}")


def _measured_x4(samples: list[Sample], took: float, memory: dict[str, float], how: str
                 ) -> None:
    """The throttled run's table: wall times only (the server's CPU is a quarter's already)."""
    print(f"Phone tap -> the phone's new screen data, one input in flight at a time, the server "
          f"held to a quarter of one CPU ({how}): {len(samples)} inputs over {RACES} one-lap "
          f"races ({took:.0f} s), RSS {memory['rss']:.1f} MiB")
    print(f"{'input':<24} {'n':>5} {'screen':>6} {'p50':>6} {'p99':>6} {'max':>6}")
    groups: dict[str, list[float]] = {}
    for s in samples:
        groups.setdefault(s.kind, []).append(s.wall_ms)
    for kind in sorted(groups, key=lambda k: -len(groups[k])):
        w = groups[kind]
        n_screen = sum(s.screen for s in samples if s.kind == kind)
        print(f"{kind:<24} {len(w):>5} {n_screen:>6} {pct(w, 50):>6.1f} {pct(w, 99):>6.1f} "
              f"{max(w):>6.1f}")
    wall = [s.wall_ms for s in samples]
    p99 = pct(wall, 99)
    print(f"{'all inputs':<24} {len(wall):>5} {sum(s.screen for s in samples):>6} "
          f"{pct(wall, 50):>6.1f} {p99:>6.1f} {max(wall):>6.1f}")
    print(f"p99 CPU x4 (measured): {p99:.1f} ms (target {TARGET_MS:.0f} ms)"
          f"{'' if p99 <= TARGET_MS else '   OVER'}")


# ---- memory ----------------------------------------------------------------------------------

def _sim_profile(web: bool) -> str:
    text = (profiles_dir() / "sim.toml").read_text(encoding="utf-8")
    text = text.replace("port = 8080", "port = {port}").replace("{", "{{").replace(
        "}", "}}").replace("{{port}}", "{port}")
    return text if web else text.replace("\nenabled = true\n", "\nenabled = false\n", 1)


async def _race_a_little(url: str, code: str, rounds: int) -> None:
    async with aiohttp.ClientSession() as session:
        phones = [await Phone.open(session, url) for _ in NAMES]
        for phone, name in zip(phones, NAMES, strict=True):
            await phone.until("hello")
            await phone.join_as(code, name)
        for phone in phones:
            await phone.until_view(lambda v: v["kind"] == "lobby")
            n = await phone.send({"t": "go"})
            await phone.answered(n)
        n = await phones[0].send({"t": "tap", "slot": 6})
        await phones[0].answered(n)

        async def play(phone: Phone) -> None:
            memory: dict[str, Any] = {}
            while phone.view is None or phone.view["round"] <= rounds:
                move = phone_move(phone.view, memory) if phone.view is not None else None
                if move is None:
                    await phone.next()
                    continue
                await phone.answered(await phone.send(move))

        await asyncio.gather(*(play(p) for p in phones))


def memory() -> None:
    with tempfile.TemporaryDirectory(prefix="pitboard-phone-mem-") as tmp:
        with pitboard_run(tmp, profile=_sim_profile(False)) as server:
            time.sleep(3)  # a figure, not a test: let the start settle
            off = process_memory(server.pid)
        with pitboard_run(tmp, profile=_sim_profile(True)) as server:
            asyncio.run(_race_a_little(server.url, server.code(), rounds=3))
            on = process_memory(server.pid)
    print()
    print("Memory of pitboard run (sim profile, six emulated stations), MiB:")
    print(f"  web server off, lobby:                        RSS {off['rss']:6.1f}  PSS "
          f"{off['pss']:6.1f}  threads {off['threads']:.0f}  fds {off['fds']:.0f}")
    print(f"  web server on, 6 phones, round 4 of a race:   RSS {on['rss']:6.1f}  PSS "
          f"{on['pss']:6.1f}  threads {on['threads']:.0f}  fds {on['fds']:.0f}")
    added = on["rss"] - off["rss"]
    print(f"  the server adds: RSS {added:.1f} MiB, PSS {on['pss'] - off['pss']:.1f} MiB "
          f"(target {TARGET_MIB:.0f} MiB){'' if added <= TARGET_MIB else '   OVER'}")


if __name__ == "__main__":
    latency(one_at_a_time=False)
    print()
    latency(one_at_a_time=True)
    print()
    latency(one_at_a_time=True, throttled=True)
    memory()
