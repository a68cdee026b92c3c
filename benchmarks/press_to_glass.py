"""Button to glass on grid6: from a contact's first edge to the last byte of the acting
station's frame on the I2C bus (issue 15.13: p99 <= 20 ms at the safe bus speed, 100 kHz).

Run: ``python benchmarks/press_to_glass.py [RACES]`` (default 3). Prints figures only.

Six people play whole one-lap races on the grid6 table through the station boards' pins (the
test rig: MCP23017 register models with INT on gpiozero mock pins, every OLED a decoding
panel). The game loop runs as :class:`pitboard.app.App` runs it: it polls every
``POLL_SECONDS`` (2 ms), and every 1 ms while an input waits for its confirming read. The same
races (same seeds, same presses) are played once per part size the display writers use at a
bus speed (:func:`pitboard.hw.writer.part_bytes`), every frame sent with ``show_part`` as the
writer sends it. For every press or lever move the table acts on, the latency is the sum of:

* **confirm**: simulated time from the first edge to the event being posted (the INT read at
  the edge, the confirming read ``confirm_s`` later, the loop's poll cadence);
* **reads**: bus time of the MCP23017 reads the driver made in that window (as many bytes as
  it read, the mux select and deselect of each included), and their wait for the transfer on
  the wire (the INT read waits for the part of another station's frame that is on the wire;
  the press then holds the bus: :meth:`~pitboard.hw.writer.BusWriter.hold`);
* **cpu**: measured CPU time of the game thread (``time.thread_time``: what other programs on a
  shared machine do is left out) in ``Table.handle`` until the acting station's answer is
  handed to its display writer, on this machine (a Pi 4 is several
  times slower: the rows "x4" scale it);
* **wait**: the answer's wait for its controller: every frame of every station goes on one
  timeline per controller, part by part, as the writers send them (urgent answers first,
  nothing else while a press holds the bus, a frame not sent yet replaced by a newer one for
  the same display, an answer never replaced: the newer frame follows it);
* **frame**: bus time of the answer itself: every part, each part one kernel transfer (its
  windows' commands and data as the messages of one ``i2c_rdwr``: pitboard.hw.oled_i2c) with
  the TCA9548A channel select and deselect around it (the profile's ``idle_disconnect``).

The answer is what the table posts for the acting station with ``show_first``
(:mod:`pitboard.table.answers`): the input's own effect on the screen the player looks at,
counted as the latency; the rest of the new screen follows on the same wire, and the column
"then" gives the latency to its last byte (p50/p99). A GO that brings a whole new screen (the
last GO's reveal, the turn screen's GO and DISC) is answered by a small change of the old one
(the plan's LOCKED mark, the key reading OK); a toggle of the turn screen (ADR, BST, COOL,
SLIP) by its own key as the new screen has it (lit or outlined), the GO line and the other keys
behind it; the lever by the gear digit and its label, a 2-gear shift's Heat chip, the speed and
the warnings behind it; a key while planning by the tray as pressed. Where the input changes
nothing but that (a card to discard, a GO that locks a plan while others plan), the answer is
the whole new frame and there is no "then".

Inputs are split by the screen they were pressed on (GO planning->locked: a GO that locks a
plan while others plan; slot resolution: a key on the turn screen, by its label). The players
are the rig's (a heuristic bot's choices made with the lever and the buttons), who also press
each of the turn screen's ADR, BST and COOL twice when offered, once a turn (:data:`TRIED`):
the bots' own choice is nearly always the preset one, people try them.

Printed for the shipped grid6 wiring (three controllers, two stations each) and for the same
stations on one bus, at 100 kHz (the safe speed for long cables) and 400 kHz (grid6's
setting). Not modelled: the other boards' safety polls on a shared controller (13 bytes
every 100 ms each), kernel latency between transfers, the periodic display re-init.
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pitboard.hw.display import StationDisplay
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.hw.oled import BusCost, BusWrite, i2c_cost, through_mux
from pitboard.hw.writer import CHUNK_BYTES, HOLD_S, URGENT_CHUNK_BYTES, part_bytes
from rig import Grid6, Players

warnings.filterwarnings("ignore", message="Image.Image.getdata is deprecated")

RACES = int(sys.argv[1]) if len(sys.argv) > 1 else 3
from pitboard.app import FAST_POLL_SECONDS as FAST_S  # noqa: E402
from pitboard.app import POLL_SECONDS as POLL_S  # noqa: E402

TARGET_MS = 20.0
#: one MCP23017 read's bytes besides its data: address+W, register, address+R
MCP_READ_OVERHEAD = 3


@dataclass
class Sample:
    kind: str
    confirm_s: float
    reads: int
    #: data bytes those reads returned
    read_bytes: int
    cpu_s: float
    writes: list[BusWrite]
    selects: int


@dataclass
class Handled:
    """One event the table handled: when, its CPU time, who acted, every panel's new frame as
    the bus costs of the parts its writer sends it in."""

    at: float
    cpu_s: float
    acting: int | None
    frames: list[list[BusCost] | None]
    #: CPU time until the acting station's frame was handed to its display (its first byte)
    acting_cpu_s: float = 0.0
    #: the Sample it is (a timed input), or None
    sample: Sample | None = None
    #: the parts of the acting station's answer (sent first); its ordinary frame (a whole new
    #: screen behind a GO's answer) is in ``frames``
    answer: list[BusCost] = field(default_factory=list)


class Parted:
    """A display as its writer thread drives it (:mod:`pitboard.hw.writer`): every frame goes
    out in parts of ``CHUNK_BYTES`` (``show_part``); the write index after each part is noted
    so the timeline can interleave parts of different stations."""

    def __init__(self, display: StationDisplay, panel: Any, chunk: int) -> None:
        self.display = display
        self.size = display.size
        self.panel = panel
        self.chunk = chunk
        #: write indices where a part ended, and whether it was the answer to a press
        self.ends: list[tuple[int, bool]] = []

    def show(self, image: Any, chunk: int = 0) -> None:
        while True:
            done = self.display.show_part(image, chunk or self.chunk)
            self.ends.append((len(self.panel.writes), chunk > 0))
            if done:
                break

    def show_first(self, image: Any) -> None:
        self.show(image, URGENT_CHUNK_BYTES)


class TimedGrid6(Grid6):
    """The rig with the app's loop cadence, timing every acted-on input from its first edge."""

    def __init__(self, *, chunk: int = CHUNK_BYTES, **kw: Any) -> None:
        self.chunk = chunk
        self.samples: list[Sample] = []
        self.events: list[Handled] = []
        self._edge: dict[int, float] = {}
        self._reads0: dict[int, int] = {}
        self.timing = False
        self._fresh = False
        self._phase = random.Random(kw.get("seed", 0))
        #: station -> thread_time of its display's first write during the current event
        self._posted: dict[int, float] = {}
        super().__init__(**kw)
        for i, panel in enumerate(self.panels):
            panel.command = self._spy(i, panel.command)  # type: ignore[method-assign]
        # every frame goes out in parts, as the display writers send them
        self.table.screens = [Parted(d, p, chunk)
                              for d, p in zip(self.displays, self.panels, strict=True)]

    def _spy(self, station: int, command: Any) -> Any:
        def first_write(*cmd: int) -> None:
            self._posted.setdefault(station, time.thread_time())
            command(*cmd)
        return first_write

    def _mark(self, station: int) -> None:
        self._fresh = True
        if self.timing:
            self._edge[station] = self.clock.now
            inputs = self.inputs[station]
            self._reads0[station] = (inputs.reads, inputs.read_bytes)

    def pin(self, station: int, name: str, closed: bool) -> None:
        if closed and not name.startswith("lever"):
            self._mark(station)  # a button's first edge
        super().pin(station, name, closed)

    def contacts(self, station: int, *gears: int) -> None:
        self._mark(station)  # the lever leaves its gear (or reaches the new one) now
        super().contacts(station, *gears)

    def settle(self) -> None:
        """62 ms of the app's loop: 1 ms steps while an input is busy, else 10 ms."""
        end = self.clock.now + 1 / 16
        if self._fresh:
            # the loop was asleep in queue.get(timeout=POLL_S) when the contact moved: its next
            # poll (the INT read's follow-up) comes anywhere in the next POLL_S
            self._fresh = False
            self.poll(round(self._phase.uniform(0.0001, POLL_S), 4))
        while self.clock.now < end - 1e-9:
            busy = any(inputs.busy for inputs in self.inputs)
            self.poll(FAST_S if busy else POLL_S)

    def _parts(self, station: int, before: int) -> tuple[list[BusCost], list[BusCost]]:
        """The bus cost of each part of station's frames since write ``before``: the answer
        to a press (``show_first``), then the ordinary frames."""
        screen = self.table.screens[station]
        writes = self.panels[station].writes
        if not isinstance(screen, Parted):  # the rig's start-up, before the timing
            return [], ([through_mux(i2c_cost(writes[before:]), idle_disconnect=True)]
                        if len(writes) > before else [])
        answer: list[BusCost] = []
        rest: list[BusCost] = []
        start = before
        for end, urgent in screen.ends:
            if end > start:
                cost = through_mux(i2c_cost(writes[start:end]), idle_disconnect=True)
                (answer if urgent else rest).append(cost)
            start = end
        screen.ends.clear()
        return answer, rest

    def drain(self) -> int:
        handled = 0
        while not self.table.queue.empty():
            event = self.table.queue.get()
            self.handled.append(event)
            before = [len(p.writes) for p in self.panels]
            shown = [v.kind if v is not None else "" for v in self.table.views]
            at = getattr(event, "station", None)
            old_view = self.table.views[at] if at is not None else None
            self._posted.clear()
            started = time.thread_time()
            self.table.handle(event)
            cpu = time.thread_time() - started
            handled += 1
            station = getattr(event, "station", None)
            parts = [self._parts(i, n) for i, n in enumerate(before)]
            frames = [rest or None for _, rest in parts]
            answer = parts[station][0] if station is not None else []
            # the acting station's frame is posted to its writer thread as soon as it is
            # drawn (the table draws it first); the other stations' renders follow meanwhile
            posted = self._posted.get(station, started + cpu) - started \
                if station is not None else cpu
            self.events.append(Handled(self.clock.now, cpu, station, frames, posted,
                                       answer=answer))
            if (not self.timing or station is None or station not in self._edge
                    or not isinstance(event, GoPressed | SlotPressed | LeverMoved)):
                continue
            edge = self._edge.pop(station)
            reads0, bytes0 = self._reads0.pop(station)
            inputs = self.inputs[station]
            reads, read_bytes = inputs.reads - reads0, inputs.read_bytes - bytes0
            # the table draws the acting station first (Table.refresh), so on the shared bus
            # its bytes go out before any other station's
            writes: list[BusWrite] = self.panels[station].writes[before[station]:]
            selects = 1
            after = self.table.views[station]
            kind = ("lever" if isinstance(event, LeverMoved) else
                    f"slot {shown[station]}{_which(old_view, event)}"
                    if isinstance(event, SlotPressed) else
                    f"GO {shown[station]}->{after.kind if after is not None else ''}")
            self.samples.append(Sample(kind, self.clock.now - edge, reads, read_bytes, cpu, writes,
                                       selects))
            self.events[-1].sample = self.samples[-1]
        return handled


#: the turn screen's toggles every player tries once a turn when they are offered: pressed to
#: see what they do and pressed again to take it back, as people do before GO (rig.Players
#: ``tries``: the bots' own choice is nearly always the preset one, so without this they would
#: never be measured)
TRIED = ("ADR", "BST", "COOL")


def _which(view: Any, event: Any) -> str:
    """On the turn screen, which input a slot press was: its soft key's label (digits left
    out: SL4 and SL3 are one row), "card" for a card of the tray (a discard selection)."""
    if view is None or view.kind != "resolution":
        return ""
    slot = event.slot
    label = view.soft_keys[slot] if slot < len(view.soft_keys) else ""
    if label:
        return " " + ("".join(c for c in label if not c.isdigit()) or label)
    return " card" if view.cards else " (empty)"


class Wire:
    """One I2C controller over time, as its display writer sends parts of frames (the acting
    station's first; nothing else while a press holds the bus) and the input boards read."""

    def __init__(self) -> None:
        self.free_at = float("-inf")  # the transfer on the wire ends then
        #: station -> [sequence, urgent, part seconds still to send, parts of the frame that
        #: follows an urgent one]
        self.queue: dict[int, list[Any]] = {}
        self.seq = 0
        #: station -> until when its first edge holds the bus (hw/writer.BusWriter keeps one
        #: hold per slot too: this class models BusWriter._take; keep the two alike)
        self.held: dict[int, float] = {}

    @property
    def held_until(self) -> float:
        return max(self.held.values(), default=float("-inf"))

    def _next(self) -> int | None:
        ready = [(not urgent, seq, st) for st, (seq, urgent, _, _) in self.queue.items()
                 if urgent or self.free_at >= self.held_until]
        return min(ready)[2] if ready else None

    def _send(self, station: int) -> None:
        job = self.queue[station]
        self.free_at += job[2].pop(0)
        if not job[2]:
            del self.queue[station]
            if job[1]:
                self.held.pop(station, None)  # this station's press is answered
                if job[3]:  # the new screen behind the answer: first of the ordinary ones
                    self.queue[station] = [job[0], False, job[3], []]

    def advance(self, t: float) -> None:
        """Send every part that starts before ``t``."""
        while self.queue and self.free_at < t:
            station = self._next()
            if station is None:  # only background frames, and the bus is held
                self.free_at = min(t, self.held_until)
                continue
            self._send(station)

    def post(self, t: float, station: int, parts: list[float], *, urgent: bool) -> None:
        self.advance(t)
        self.free_at = max(self.free_at, t)
        self.seq += 1
        old = self.queue.get(station)
        if old is not None and old[1] and not urgent:
            old[3] = list(parts)  # after the answer, never instead of it
            return
        seq = old[0] if old is not None and not urgent else self.seq
        self.queue[station] = [seq, urgent or bool(old and old[1]), list(parts), []]

    def finish(self, station: int) -> float:
        """Send until ``station``'s frame (urgent) is out; when its last byte is."""
        while station in self.queue and self.queue[station][1]:
            nxt = self._next()
            assert nxt is not None
            self._send(nxt)
        return self.free_at

    def drained(self, station: int) -> float:
        """When ``station``'s frames now queued would be out, if nothing else came (on a copy
        of this wire)."""
        wire = copy.deepcopy(self)
        while station in wire.queue:
            nxt = wire._next()
            if nxt is None:
                wire.free_at = wire.held_until
                continue
            wire._send(nxt)
        return wire.free_at

    def read(self, t: float, seconds: float) -> float:
        """A read transaction wanted at ``t``: it waits for the part on the wire. Its wait."""
        self.advance(t)
        start = max(self.free_at, t)
        self.free_at = start + seconds
        return start - t

    def hold(self, t: float, station: int) -> None:
        self.held[station] = max(self.held.get(station, float("-inf")), t + HOLD_S)


@dataclass
class Timed:
    sample: Sample
    total: float
    read_wait: float
    reads: float
    cpu: float
    wait: float
    frame: float
    #: to the last byte of the whole new screen that follows the answer (None: none follows)
    then: float | None = None


def timeline(races: list[list[Handled]], layout: list[str], hz: int, cpu_scale: float
             ) -> list[Timed]:
    """Every timed input's latency parts, replaying every handled event's frames, part by
    part, on one timeline per controller."""
    out: list[Timed] = []
    for events in races:
        wires = {name: Wire() for name in set(layout)}
        for e in events:
            s = e.sample
            done = e.at + e.cpu_s * cpu_scale  # every station's frame is drawn by then
            if s is not None and e.acting is not None and e.answer:
                wire = wires[layout[e.acting]]
                reads = through_mux(BusCost(s.reads, s.reads + s.read_bytes,
                                            MCP_READ_OVERHEAD * s.reads + s.read_bytes),
                                    idle_disconnect=True)
                read_s = reads.seconds(hz) / max(1, s.reads)
                edge = e.at - s.confirm_s
                # the INT read at the first edge waits for the part on the wire; the press
                # then holds the bus; the follow-up reads find it free
                wait1 = wire.read(edge, read_s)
                wire.hold(edge + wait1 + read_s, e.acting)
                rest = (s.reads - 1) * read_s
                confirmed = e.at + wait1 + read_s
                wait2 = wire.read(confirmed, rest) if rest else 0.0
                posted = confirmed + wait2 + rest + e.acting_cpu_s * cpu_scale
                parts = [c.seconds(hz) for c in e.answer]
                wire.post(posted, e.acting, parts, urgent=True)
                end = wire.finish(e.acting)
                frame = sum(parts)
                out.append(Timed(s, end - edge, wait1 + wait2, s.reads * read_s,
                                 e.acting_cpu_s * cpu_scale, max(0.0, end - frame - posted), frame))
                done += posted - e.at - e.acting_cpu_s * cpu_scale  # (posted counts it)
                if e.frames[e.acting]:
                    wire.post(done, e.acting, [c.seconds(hz) for c in e.frames[e.acting] or []],
                              urgent=False)
                    out[-1].then = wire.drained(e.acting) - edge
            if e.answer and not (s is not None and e.acting is not None):
                assert e.acting is not None
                wires[layout[e.acting]].post(done, e.acting, [c.seconds(hz) for c in e.answer],
                                             urgent=True)
            for i, frame_parts in enumerate(e.frames):
                if frame_parts and not (s is not None and i == e.acting and e.answer):
                    wires[layout[i]].post(done, i, [c.seconds(hz) for c in frame_parts],
                                          urgent=False)
    return out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def play(chunk: int) -> tuple[list[list[Handled]], list[Sample], Any]:
    """The races, their frames sent in parts of ``chunk`` RAM bytes; and the rig's config."""
    races: list[list[Handled]] = []
    samples: list[Sample] = []
    config: Any = None
    for race in range(RACES + 1):
        rig = TimedGrid6(seed=11 + race, chunk=chunk)
        config = rig.config
        for i in range(6):
            rig.go(i)
        rig.slot(5, 1)
        rig.slot(5, 1)  # one lap
        rig.slot(5, 6)  # RACE
        rig.timing = race > 0  # the first race warms caches up
        rig.events.clear()
        players = Players(rig, seed=5 + race, tries=TRIED)
        while players.step():
            pass
        if race > 0:
            races.append(rig.events)
            samples += rig.samples
        rig.close()
    return races, samples, config


def main() -> None:
    speeds = sorted({100_000, 400_000})
    # the same races (same seeds, same presses) once per part size the writer uses at a speed
    played = {hz: play(part_bytes(hz)) for hz in speeds}
    _races, samples, config = played[speeds[0]]
    idle_disconnect = bool(getattr(config.i2c.mux, "idle_disconnect", True))
    baudrate = config.i2c.baudrate
    three = [getattr(st.input, "controller", "A") for st in config.stations]
    layouts = {f"grid6 ({len(set(three))} ctl)": three, "one bus": ["A"] * 6}
    print(f"Button to glass on grid6 ({len(samples)} presses and lever moves over {RACES} "
          f"one-lap races; mux idle disconnect {'on' if idle_disconnect else 'off'})")
    print()
    confirm = [1000 * s.confirm_s for s in samples]
    cpu = [1000 * s.cpu_s for s in samples]
    print(f"confirm (first edge -> event): median {statistics.median(confirm):.1f} ms, "
          f"p99 {pct(confirm, 99):.1f} ms, max {max(confirm):.1f} ms")
    print(f"table CPU per event (game thread, this machine, all stations drawn): median "
          f"{statistics.median(cpu):.2f} ms, p99 {pct(cpu, 99):.2f} ms")
    parts = ", ".join(f"{part_bytes(hz)} RAM bytes at {hz // 1000} kHz" for hz in speeds)
    print(f"display parts of at most {parts} "
          f"(a press's answer: {URGENT_CHUNK_BYTES}); a first edge holds other "
          f"stations' frames for up to {1000 * HOLD_S:g} ms")
    print()
    kinds = sorted({s.kind for s in samples})
    print("latency: first edge -> last byte of the acting station's answer on the bus: the "
          "input's own effect on the screen the player looks at (the GO's LOCKED mark or its "
          "key reading OK; a turn-screen toggle's key lit or outlined; the lever's gear digit; "
          "the tray as pressed), or the whole new frame where that is all it changes; the "
          "column 'then' is the last byte of the whole new screen behind the answer")
    print("breakdown (p50/p99, ms): confirm = edge to event (simulated loop), reads = MCP23017 "
          "reads on the bus and their wait (a press's wait behind another part is here: its "
          "first edge then holds the bus), cpu = table until the answer is posted, wait = the "
          "answer's own wait behind other transfers, frame = the answer's own bus time, then = "
          "to the last byte of the whole new screen behind the answer")
    print()
    print(f"{'input':<33} {'n':>4} {'wiring':<15} {'speed':>7} {'cpu':>3} {'median':>7} "
          f"{'p99':>6} {'max':>6}  {'confirm':>9} {'reads':>9} {'cpu':>9} {'wait':>9} "
          f"{'frame':>11} {'then':>11} {'over':>5}  target p99 <= {TARGET_MS:g} ms "
          f"(over: how many took longer)")

    def both(values: list[float]) -> str:
        return f"{statistics.median(values):.1f}/{pct(values, 99):.1f}"

    for hz in speeds:
        for name, layout in layouts.items():
            for scale in (1.0, 4.0):
                timed = timeline(played[hz][0], layout, hz, scale)
                for kind in [*kinds, "all"]:
                    group = [t for t in timed if kind in ("all", t.sample.kind)]
                    lat = [1000 * t.total for t in group]
                    p99 = pct(lat, 99)
                    follow = [1000 * t.then for t in group if t.then is not None]
                    then = both(follow) if follow else "-"
                    mark = " (profile speed)" if hz == baudrate else ""
                    ok = "ok" if p99 <= TARGET_MS else "missed"
                    print(f"{kind:<33} {len(group):>4} {name:<15} {hz // 1000:>3} kHz "
                          f"{'x' + format(scale, 'g'):>3} {statistics.median(lat):>7.1f} "
                          f"{p99:>6.1f} {max(lat):>6.1f}  "
                          f"{both([1000 * t.sample.confirm_s for t in group]):>9} "
                          f"{both([1000 * (t.reads + t.read_wait) for t in group]):>9} "
                          f"{both([1000 * t.cpu for t in group]):>9} "
                          f"{both([1000 * t.wait for t in group]):>9} "
                          f"{both([1000 * t.frame for t in group]):>11} {then:>11} "
                          f"{sum(1 for v in lat if v > TARGET_MS):>5}  {ok}{mark}")
        print()
    # what each input puts on the bus for its station (the answer, and for a GO the new screen
    # behind it): controller RAM bytes, and bus bytes with addresses, control bytes and the mux
    print("bytes per input on the acting station's bus (p50/p99): RAM data bytes, bus bytes "
          "with the mux (idle disconnect), command writes (a window or a part's address)")
    for kind in kinds:
        group = [s for s in samples if s.kind == kind]
        ram = [sum(len(w.payload) for w in s.writes if w.kind == "data") for s in group]
        bus = [through_mux(i2c_cost(s.writes), idle_disconnect=idle_disconnect).bus_bytes
               for s in group]
        windows = [sum(1 for w in s.writes if w.kind == "command") for s in group]
        print(f"{kind:<33} {len(group):>4}  RAM {statistics.median(ram):>5g}/{pct(ram, 99):<5g}"
              f" bus {statistics.median(bus):>5g}/{pct(bus, 99):<5g}"
              f" commands {statistics.median(windows):g}/{pct(windows, 99):g}")


if __name__ == "__main__":
    main()
