"""The staff serial console: a line protocol on a serial port (see ``docs/console.md``).

Three layers, so that most of it is testable without a serial port:

* :class:`LineSplitter` turns received bytes into bounded lines;
* :class:`ConsoleProtocol` turns one line into reply lines and formats the event stream;
* :class:`Console` owns the port and a thread that reads, answers, streams events and reopens
  the port after a serial error.

The console never touches the table from its own thread: every command runs on the game
thread through :class:`~pitboard.table.table.Call` (or, for ``input``, is posted to the table's
queue exactly like a hardware event), and the console waits for the answer for a bounded time.

Example::

    >>> from pitboard.table.table import Table
    >>> proto = ConsoleProtocol(Table(stations=2), staff_pin="2468")
    >>> proto.feed(b"status\\r\\n")
    ['OK state=lobby track=usa laps=2 cars=1 round=- lap=- phase=- turn=- joined=- stations=2']
    >>> proto.feed(b"reset\\n")
    ["ERR locked: send 'pin <staff PIN>' first"]
"""

from __future__ import annotations

import hmac
import json
import logging
import queue
import re
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar, cast

import serial

from .engine.race import Race
from .engine.setup import MAX_CARS
from .engine.snapshot import race_to_dict
from .hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from .hwconfig import ConsoleConfig
from .narrate import describe
from .table import flow
from .table.station import SLOTS
from .table.table import Call, Table
from .trackfile import load_track, track_names

log = logging.getLogger("pitboard.console")

#: longest accepted line in bytes, not counting the line ending
MAX_LINE: Final = 256
#: how long a command waits for the game thread before answering ``ERR busy``
CALL_TIMEOUT: Final = 2.0
#: wrong PINs in a row before PIN entry is refused for :data:`PIN_LOCKOUT` seconds
MAX_PIN_FAILURES: Final = 5
PIN_LOCKOUT: Final = 60.0
#: an unlocked session locks itself after this long without a line
UNLOCK_IDLE: Final = 600.0
#: streamed event lines kept while the port is not keeping up
EVENT_BACKLOG: Final = 1000
#: serial read timeout: also the longest delay before a streamed event goes out
READ_TIMEOUT: Final = 0.1
#: a write that blocks longer than this (nobody reading, flow control) is dropped
WRITE_TIMEOUT: Final = 1.0
#: reopen delays after a serial error: first, then doubling up to the second
BACKOFF: Final = (0.5, 30.0)
#: the first word of lines this console writes; such lines are ignored on input, so a peer
#: that echoes everything back (looped wires, a terminal with echo on) cannot start a loop
OUTPUT_WORDS: Final = frozenset({"OK", "ERR", "EVT"})

EVENT_MODES: Final = ("off", "text", "json")
_INT = re.compile(r"[0-9]{1,10}")
_EOL = re.compile(rb"\r\n|\r|\n")
_TRACK = re.compile(r"[A-Za-z][A-Za-z_-]{0,31}")  # names only: never a path from the wire
_ERASE = frozenset("\b\x7f")  # backspace and DEL, as terminals send them

T = TypeVar("T")


class TableBusy(Exception):
    """The game thread did not answer in time (the console answers ``ERR busy``)."""


class CommandError(Exception):
    """A command that cannot be done; ``str()`` is the reason after ``ERR``."""


class _Usage(Exception):
    """Wrong arguments: the console answers ``ERR usage: <grammar>``."""


class TableLink(Protocol):
    """How the protocol reaches the table: run code on the game thread, post input events."""

    def call(self, fn: Callable[[], T]) -> T: ...

    def post(self, event: StationEvent) -> None: ...


class DirectLink:
    """Run commands in the caller's thread: for a table nobody else drives (tests, tools).

    Example::

        >>> from pitboard.table.table import Table
        >>> DirectLink(Table(stations=1)).call(lambda: 42)
        42
    """

    def __init__(self, table: Table) -> None:
        self.table = table

    def call(self, fn: Callable[[], T]) -> T:
        result = fn()
        self.table.refresh()  # as Table.handle does after a Call
        return result

    def post(self, event: StationEvent) -> None:
        self.table.handle(event)


class QueueLink:
    """Run commands on the game thread through :class:`Call`, waiting at most ``timeout``.

    While an earlier call is still unanswered every new one fails at once with
    :class:`TableBusy`, so a stalled game thread does not collect a pile of console calls.

    Example::

        >>> from pitboard.table.table import Table
        >>> link = QueueLink(Table(stations=1), timeout=0.01)  # nobody runs the game thread
        >>> link.call(lambda: 42)
        Traceback (most recent call last):
        ...
        pitboard.console.TableBusy: the table did not answer in 0.01 s
    """

    def __init__(self, table: Table, timeout: float = CALL_TIMEOUT) -> None:
        self.table = table
        self.timeout = timeout
        self._idle = threading.Event()
        self._idle.set()

    def call(self, fn: Callable[[], T]) -> T:
        if not self._idle.is_set():
            raise TableBusy("the table is still busy with an earlier command")
        box: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

        def run() -> tuple[bool, Any]:
            try:
                return True, fn()
            except Exception as exc:  # handed back to the console thread, raised there
                return False, exc

        def reply(result: Any) -> None:  # game thread: must never block
            box.put_nowait(result)
            self._idle.set()

        self._idle.clear()
        self.table.post(Call(run, reply))
        try:
            ok, value = box.get(timeout=self.timeout)
        except queue.Empty:
            raise TableBusy(f"the table did not answer in {self.timeout:g} s") from None
        if not ok:
            raise value
        return cast(T, value)

    def post(self, event: StationEvent) -> None:
        if not self._idle.is_set():
            raise TableBusy("the table is still busy with an earlier command")
        self.table.post(event)


class LineSplitter:
    """Received bytes to lines: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each end one line.

    A line longer than ``max_line`` bytes is dropped up to its line ending and comes out as
    ``None`` (once), so memory stays bounded whatever arrives.

    Example::

        >>> s = LineSplitter(max_line=4)
        >>> s.feed(b"ab\\r\\ncd\\rtoo long\\nhal")
        [b'ab', b'cd', None]
        >>> s.feed(b"f\\n")
        [b'half']
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._too_long = False
        self._after_cr = False

    def reset(self) -> None:
        """Forget any partial line (after the port was reopened)."""
        self._buf.clear()
        self._too_long = False
        self._after_cr = False

    def feed(self, data: bytes) -> list[bytes | None]:
        """The lines completed by ``data``, in order (``None`` for each over-long line)."""
        if not data:
            return []
        lines: list[bytes | None] = []
        pos = 1 if self._after_cr and data[:1] == b"\n" else 0  # \r\n split across reads
        self._after_cr = False
        for match in _EOL.finditer(data, pos):
            self._take(data[pos:match.start()])
            lines.append(None if self._too_long else bytes(self._buf))
            self._buf.clear()
            self._too_long = False
            pos = match.end()
            self._after_cr = match.group() == b"\r"
        if pos < len(data):
            self._after_cr = False
            self._take(data[pos:])
        return lines

    def _take(self, chunk: bytes) -> None:
        if self._too_long:
            return
        if len(self._buf) + len(chunk) > self.max_line:
            self._too_long = True
            self._buf.clear()
        else:
            self._buf += chunk


@dataclass(frozen=True)
class _Command:
    fn: Callable[[list[str]], list[str]]
    usage: str
    help: str
    #: changes the race or the table: needs the staff PIN
    changes: bool = False


class ConsoleProtocol:
    """One console session: lines in, reply lines out, plus the ``EVT`` stream.

    Every command gets exactly one final line, ``OK ...`` or ``ERR <reason>`` (``help`` sends
    ``#`` lines before it). ``link`` decides where table code runs: :class:`DirectLink`
    (default, the caller's thread) or :class:`QueueLink` (the game thread).

    Example::

        >>> from pitboard.table.table import Table
        >>> table = Table(stations=2, seed=1)
        >>> proto = ConsoleProtocol(table, staff_pin="2468")
        >>> proto.handle_line("pin 2468")
        ['OK unlocked']
        >>> proto.handle_line("input 1 go")[0].split()[1:2]
        ['state=lobby']
        >>> proto.handle_line("frobnicate")
        ["ERR unknown command 'frobnicate' (try help)"]
    """

    def __init__(
        self,
        table: Table,
        *,
        staff_pin: str,
        link: TableLink | None = None,
        max_line: int = MAX_LINE,
        clock: Callable[[], float] = time.monotonic,
        max_pin_failures: int = MAX_PIN_FAILURES,
        pin_lockout: float = PIN_LOCKOUT,
        unlock_idle: float = UNLOCK_IDLE,
        backlog: int = EVENT_BACKLOG,
    ) -> None:
        if not staff_pin:
            raise ValueError("the console needs a staff PIN")
        self.table = table
        self.link: TableLink = link if link is not None else DirectLink(table)
        self._stations = len(table.stations)  # fixed at start-up: safe to keep a copy
        self.splitter = LineSplitter(max_line)
        self.clock = clock
        self.max_pin_failures = max_pin_failures
        self.pin_lockout = pin_lockout
        self.unlock_idle = unlock_idle
        self._pin = staff_pin.encode()
        self.unlocked = False
        self._pin_failures = 0
        self._pin_locked_until = 0.0
        self._last_line = clock()
        #: "off", "text" or "json"; read by the game thread's observer
        self.events_mode = "off"
        self._backlog = backlog
        self._events: deque[str] = deque()
        self._events_lock = threading.Lock()
        self._dropped = 0
        # what the observer has already seen (only touched on the game thread)
        self._seen_race: Race | None = None
        self._seen_events = 0
        self._seen_state = ""
        self.commands: dict[str, _Command] = {
            "help": _Command(self._help, "help", "list the commands"),
            "status": _Command(self._status, "status",
                               "one line: state, track, round, lap, turn, joined"),
            "state": _Command(self._state, "state", "the whole table and race as one JSON line"),
            "events": _Command(self._events_cmd, "events [on|off|text|json]",
                               "stream race events as EVT lines (alone: toggle)"),
            "pin": _Command(self._pin_cmd, "pin PIN", "unlock the commands marked *"),
            "lock": _Command(self._lock_cmd, "lock", "lock them again"),
            "new-race": _Command(self._new_race,
                                 "new-race [track=NAME] [laps=1-9] [cars=1-6] [seed=N]",
                                 "* start a race; bots take the seats nobody joined", True),
            "module": _Command(self._module, "module NAME [off | {JSON options}]",
                               "* a rules module for the next race, or off",
                               True),
            "undo": _Command(self._undo, "undo", "* take back the last decision a person made",
                             True),
            "input": _Command(self._input,
                              "input STATION lever 1-4|press 1-7|go",
                              "* act as a station's lever, tray button or GO", True),
            "reset": _Command(self._reset, "reset", "* abandon any race, back to the lobby",
                              True),
        }

    # ------------------------------------------------------------------ lines
    def feed(self, data: bytes) -> list[str]:
        """Received bytes in, reply lines out (partial lines wait for the next call)."""
        replies: list[str] = []
        for raw in self.splitter.feed(data):
            replies += self.handle_raw(raw)
        return replies

    def handle_raw(self, raw: bytes | None) -> list[str]:
        """One received line (``None``: it was too long)."""
        if raw is None:
            return [f"ERR line too long (max {self.splitter.max_line} bytes)"]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return ["ERR not UTF-8"]
        return self.handle_line(text)

    def handle_line(self, line: str) -> list[str]:
        """One line of text (without its line ending) to its reply lines."""
        text = _apply_erase(line)
        if any(_is_control(ch) for ch in text):
            return ["ERR control character in line"]
        words = text.split()
        if not words or words[0].startswith("#") or words[0] in OUTPUT_WORDS:
            return []  # blank, comment, or our own output echoed back
        now = self.clock()
        if self.unlocked and now - self._last_line >= self.unlock_idle:
            self.unlocked = False  # staff walked away: the kiosk must not stay open
        self._last_line = now
        name = words[0].lower()
        command = self.commands.get(name)
        if command is None:
            return [f"ERR unknown command {_quote(words[0])} (try help)"]
        if command.changes and not self.unlocked:
            return ["ERR locked: send 'pin <staff PIN>' first"]
        try:
            return command.fn(words[1:])
        except _Usage:
            return [f"ERR usage: {command.usage}"]
        except TableBusy:
            return ["ERR busy"]
        except CommandError as exc:
            return [f"ERR {exc}"]
        except Exception:  # a bug must cost one command, never the console
            log.exception("console command %r failed", name)
            return ["ERR internal error (see the log)"]

    def lock(self) -> None:
        """Lock the changing commands (a new session: the port was reopened)."""
        self.unlocked = False

    # ------------------------------------------------------------------ commands
    def _help(self, args: list[str]) -> list[str]:
        if args:
            raise _Usage
        lines = ["# commands (stations, tray slots and gears count from 1; * needs 'pin' first):"]
        for command in self.commands.values():
            if len(command.usage) <= 26:
                lines.append(f"#   {command.usage:<26} {command.help}")
            else:  # keep every line inside an 80-column terminal
                lines += [f"#   {command.usage}", f"#   {'':<26} {command.help}"]
        return [*lines, "OK help"]

    def _status(self, args: list[str]) -> list[str]:
        if args:
            raise _Usage
        return ["OK " + self.link.call(lambda: status_line(self.table))]

    def _state(self, args: list[str]) -> list[str]:
        if args:
            raise _Usage
        data = self.link.call(lambda: state_dict(self.table))
        return ["OK " + json.dumps(data, separators=(",", ":"), default=str)]

    def _events_cmd(self, args: list[str]) -> list[str]:
        if len(args) > 1:
            raise _Usage
        if not args:
            mode = "off" if self.events_mode != "off" else "text"
        else:
            wanted = args[0].lower()
            mode = {"on": "text"}.get(wanted, wanted)
            if mode not in EVENT_MODES:
                raise _Usage
        if mode == "off":
            with self._events_lock:
                self._events.clear()
                self._dropped = 0
        self.events_mode = mode
        return [f"OK events {mode}"]

    def _pin_cmd(self, args: list[str]) -> list[str]:
        if len(args) != 1:
            raise _Usage
        now = self.clock()
        if now < self._pin_locked_until:
            left = int(self._pin_locked_until - now) + 1
            return [f"ERR too many wrong PINs, try again in {left} s"]
        if hmac.compare_digest(args[0].encode(), self._pin):
            self.unlocked = True
            self._pin_failures = 0
            return ["OK unlocked"]
        self.unlocked = False
        self._pin_failures += 1
        log.warning("console: wrong staff PIN (%d in a row)", self._pin_failures)
        if self._pin_failures >= self.max_pin_failures:
            self._pin_failures = 0
            self._pin_locked_until = now + self.pin_lockout
            return [f"ERR wrong PIN; PIN entry locked for {self.pin_lockout:g} s"]
        return ["ERR wrong PIN"]

    def _lock_cmd(self, args: list[str]) -> list[str]:
        if args:
            raise _Usage
        self.unlocked = False
        return ["OK locked"]

    def _new_race(self, args: list[str]) -> list[str]:
        options: dict[str, str] = {}
        for arg in args:
            key, sep, value = arg.partition("=")
            key = key.lower()
            if not sep or key not in ("track", "laps", "cars", "seed") or key in options:
                raise _Usage
            options[key] = value
        track: str | None = None
        if "track" in options:
            track = _track_key(options["track"])
        laps = _int_option(options, "laps", 1, 9)
        cars = _int_option(options, "cars", 1, MAX_CARS)
        seed = _int_option(options, "seed", 0, (1 << 31) - 1)

        def start() -> str:
            # Table.start_race would drop a running (or unseen) race without closing its
            # journal: staff end it with 'reset' first, on purpose
            if self.table.state not in (flow.LOBBY, flow.ATTRACT):
                raise CommandError(f"a race is on ({self.table.state}): 'reset' first")
            self.table.start_race(seed=seed, track=track, laps=laps, cars=cars)
            race = self.table.race
            chosen = f"seed={race.setup.seed} " if race is not None else ""
            return chosen + status_line(self.table)

        return ["OK " + self.link.call(start)]

    def _module(self, args: list[str]) -> list[str]:
        if not args:
            raise _Usage
        key, rest = args[0].lower(), " ".join(args[1:])
        options: dict[str, Any] | None = {}
        if rest.lower() == "off":
            options = None
        elif rest:
            try:
                options = json.loads(rest)
            except json.JSONDecodeError as exc:
                raise CommandError(f"module {key}: options are not JSON ({exc.msg} at column "
                                   f"{exc.colno})") from None
            if not isinstance(options, dict):
                raise CommandError(f"module {key}: options must be a JSON object {{...}}")

        def apply() -> str:
            if self.table.state not in (flow.LOBBY, flow.ATTRACT):
                raise CommandError(f"a race is on ({self.table.state}): modules apply to the "
                                   "next race, 'reset' first")
            try:
                self.table.set_module(key, options)
            except ValueError as exc:
                raise CommandError(str(exc)) from None
            return status_line(self.table)

        return ["OK " + self.link.call(apply)]

    def _undo(self, args: list[str]) -> list[str]:
        if args:
            raise _Usage

        def undo() -> str:
            # in the lobby the last race's seats are gone: undoing into it would strand bots
            if self.table.state not in (flow.PLANNING, flow.RESOLUTION, flow.RESULTS):
                raise CommandError("no race to undo")
            try:
                self.table.undo()
            except ValueError as exc:
                raise CommandError(str(exc)) from None
            return status_line(self.table)

        return ["OK " + self.link.call(undo)]

    def _input(self, args: list[str]) -> list[str]:
        if len(args) not in (2, 3):
            raise _Usage
        station = _int_arg(args[0], 1, self._stations, "station") - 1
        action = args[1].lower()
        event: StationEvent
        if action == "go" and len(args) == 2:
            event = GoPressed(station=station)
        elif action == "lever" and len(args) == 3:
            event = LeverMoved(station=station, gear=_int_arg(args[2], 1, 4, "gear"))
        elif action == "press" and len(args) == 3:
            event = SlotPressed(station=station, slot=_int_arg(args[2], 1, SLOTS, "slot") - 1)
        else:
            raise _Usage
        self.link.post(event)
        # queued behind the event: answers once the game thread has handled it
        return ["OK " + self.link.call(lambda: status_line(self.table))]

    def _reset(self, args: list[str]) -> list[str]:
        if args:
            raise _Usage

        def reset() -> str:
            self.table.do_reset()
            return status_line(self.table)

        return ["OK " + self.link.call(reset)]

    # ------------------------------------------------------------------ event stream
    def attach(self, table: Table) -> None:
        """Game thread: start watching ``table`` (events from now on only)."""
        self._seen_race = table.race
        self._seen_events = len(table.race.events) if table.race is not None else 0
        self._seen_state = table.state
        if self.observe not in table.observers:
            table.observers.append(self.observe)

    def detach(self, table: Table) -> None:
        """Game thread: stop watching ``table``."""
        if self.observe in table.observers:
            table.observers.remove(self.observe)

    def observe(self, table: Table) -> None:
        """Table observer (game thread): queue ``EVT`` lines for what happened since last time.

        Never raises: an observer's exception would land in the middle of the table's event
        handling.
        """
        try:
            self._observe(table)
        except Exception:
            log.exception("console event stream failed")

    def _observe(self, table: Table) -> None:
        mode = self.events_mode
        out: list[dict[str, Any]] = []
        if table.state != self._seen_state:
            self._seen_state = table.state
            out.append({"type": "table", "state": table.state})
        race = table.race
        if race is not self._seen_race:
            previous = self._seen_race
            self._seen_race = race
            self._seen_events = 0
            if race is not None and previous is not None and race.setup is previous.setup:
                # undo replays the same setup to an earlier point: report that, not a replay
                self._seen_events = len(race.events)
                out.append({"type": "undo", "decisions": len(race.log), "round": race.round})
        if race is not None and len(race.events) > self._seen_events:
            if mode != "off":
                out += race.events[self._seen_events:]
            self._seen_events = len(race.events)
        if mode == "off" or not out:
            return
        lines: list[str] = []
        for event in out:
            if mode == "json":
                lines.append("EVT " + json.dumps(event, separators=(",", ":"), default=str))
            else:
                lines += ["EVT " + part for part in _event_text(event, race) if part]
        with self._events_lock:
            for line in lines:
                if len(self._events) >= self._backlog:
                    self._dropped += 1
                else:
                    self._events.append(line)

    def take_events(self) -> list[str]:
        """Console thread: the ``EVT`` lines waiting to be sent."""
        with self._events_lock:
            lines = list(self._events)
            self._events.clear()
            dropped, self._dropped = self._dropped, 0
        if dropped:
            lines.append(f"EVT dropped {dropped} event lines (the port did not keep up)"
                         if self.events_mode != "json" else
                         "EVT " + json.dumps({"type": "dropped", "lines": dropped}))
        return lines


# ---------------------------------------------------------------------- table views
def status_line(table: Table) -> str:
    """The ``status`` answer (game thread): ``key=value`` words, values without spaces.

    Example::

        >>> from pitboard.table.table import Table
        >>> line = status_line(Table(stations=3))
        >>> line[:57]
        'state=lobby track=usa laps=2 cars=1 round=- lap=- phase=-'
        >>> line[58:]
        'turn=- joined=- stations=3 modules=-'
    """
    race = table.race
    state = table.state
    joined = ",".join(str(st.index + 1) for st in table.stations if st.joined) or "-"
    if race is not None and state in (flow.PLANNING, flow.RESOLUTION, flow.RESULTS):
        lap = max(min(race.lap_of(c.d), race.laps) for c in race.cars)
        waiting = set(race.pending().cars)
        turn = ",".join(f"S{st.index + 1}" for st in table.stations
                        if st.car in waiting and not st.idle_bot) or "-"
        fields = [f"track={race.track.key}", f"laps={race.laps}", f"cars={race.setup.cars}",
                  f"round={race.round}", f"lap={max(lap, 1)}", f"phase={race.phase}",
                  f"turn={turn}"]
    else:
        track, laps, cars = table.lobby_summary()
        fields = [f"track={track}", f"laps={laps}", f"cars={cars}", "round=-", "lap=-",
                  "phase=-", "turn=-"]
    racing = race is not None and state in (flow.PLANNING, flow.RESOLUTION, flow.RESULTS)
    modules = race.setup.modules if race is not None and racing else table.modules
    return " ".join([f"state={state}", *fields, f"joined={joined}",
                     f"stations={len(table.stations)}", f"modules={','.join(modules) or '-'}"])


def state_dict(table: Table) -> dict[str, Any]:
    """The ``state`` answer (game thread): the table, its stations and the race as JSON types."""
    track, laps, cars = table.lobby_summary()
    return {
        "table": table.state,
        "lobby": {"track": track, "laps": laps, "cars": cars, "modules": table.modules},
        "stations": [
            {"station": st.index + 1, "name": st.name, "joined": st.joined, "car": st.car,
             "lever": st.lever, "bot": st.idle_bot, "message": st.message,
             "lever_fault": list(st.lever_fault), "input_fault": st.input_fault}
            for st in table.stations
        ],
        "race": race_to_dict(table.race) if table.race is not None else None,
    }


def _event_text(event: dict[str, Any], race: Race | None) -> list[str]:
    kind = event.get("type")
    if kind == "table":
        return [f"table {event['state']}"]
    if kind == "undo":
        n = event["decisions"]
        return [f"undo: back to round {event['round']}, {n} decision{'' if n == 1 else 's'} kept"]
    if race is None:
        return []
    line = describe(event, race.setup.name)
    return [part.strip() for part in line.splitlines()] if line else []


# ---------------------------------------------------------------------- parsing helpers
def _apply_erase(text: str) -> str:
    if not any(ch in _ERASE for ch in text):
        return text
    out: list[str] = []
    for ch in text:
        if ch in _ERASE:
            if out:
                out.pop()
        else:
            out.append(ch)
    return "".join(out)


def _is_control(ch: str) -> bool:
    # Cc: C0/C1 controls (NUL, ESC...); Cf: invisible format characters (bidi overrides)
    return ch != "\t" and unicodedata.category(ch) in ("Cc", "Cf")


def _quote(word: str) -> str:
    if word.isdigit():
        return "(digits)"  # might be a PIN typed on its own: never echo it
    return "'" + (word if len(word) <= 24 else word[:24] + "...") + "'"


def _int_arg(text: str, low: int, high: int, what: str) -> int:
    if not _INT.fullmatch(text):
        raise _Usage
    value = int(text)
    if not low <= value <= high:
        raise CommandError(f"{what} must be {low}..{high}, not {value}")
    return value


def _int_option(options: dict[str, str], key: str, low: int, high: int) -> int | None:
    if key not in options:
        return None
    return _int_arg(options[key], low, high, key)


def _track_key(name: str) -> str:
    known = ", ".join(track_names())
    if not _TRACK.fullmatch(name):
        raise CommandError(f"unknown track (tracks: {known})")
    try:
        return load_track(name).key
    except ValueError:
        raise CommandError(f"unknown track {_quote(name)} (tracks: {known})") from None


# ---------------------------------------------------------------------- the port
class SerialPort(Protocol):
    """What the console uses of a pyserial port (``serial.Serial``, ``serial_for_url``)."""

    timeout: float | None
    write_timeout: float | None

    @property
    def is_open(self) -> bool: ...

    @property
    def in_waiting(self) -> int: ...

    def open(self) -> None: ...

    def close(self) -> None: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...


def _reopen_same(port: SerialPort) -> SerialPort:
    port.open()
    return port


class Console:
    """The staff console on a serial port: a thread that answers lines and streams events.

    ``port`` is a pyserial port, open or not (it is opened, and after a serial error reopened,
    by the console thread with ``backoff``); ``reopen`` makes it usable again after a failure
    (default: ``port.open()`` on the same object). The console sets the port's read and write
    timeouts, and closes it on :meth:`stop`.

    Example::

        >>> import serial
        >>> from pitboard.table.table import Table
        >>> port = serial.serial_for_url("loop://", do_not_open=True)
        >>> console = Console(table=Table(stations=2), port=port, staff_pin="2468")
        >>> console.start()
        >>> console.stop()
    """

    def __init__(
        self,
        *,
        table: Table,
        port: SerialPort,
        staff_pin: str,
        call_timeout: float = CALL_TIMEOUT,
        reopen: Callable[[SerialPort], SerialPort] = _reopen_same,
        backoff: tuple[float, float] = BACKOFF,
        read_timeout: float = READ_TIMEOUT,
        write_timeout: float = WRITE_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
        max_line: int = MAX_LINE,
    ) -> None:
        self.table = table
        self.port = port
        self.name = str(getattr(port, "port", None) or getattr(port, "name", None) or "port")
        self.protocol = ConsoleProtocol(table, staff_pin=staff_pin,
                                        link=QueueLink(table, call_timeout), clock=clock,
                                        max_line=max_line)
        self.reopen = reopen
        self.backoff = backoff
        self.read_timeout = read_timeout
        self.write_timeout = write_timeout
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._write_stalled = False

    def start(self) -> None:
        """Start watching the table and serving the port (returns at once)."""
        if self._thread is not None:
            raise RuntimeError("console already started")
        self.table.post(Call(lambda: self.protocol.attach(self.table), _ignore))
        self._thread = threading.Thread(target=self._run, name="pitboard-console", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread, stop watching the table, close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.table.post(Call(lambda: self.protocol.detach(self.table), _ignore))
        _close_quietly(self.port)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # ------------------------------------------------------------------ thread
    def _run(self) -> None:
        delay = self.backoff[0]
        failing = False  # in an outage: already logged, stay quiet until it is over
        first = True
        while not self._stop.is_set():
            if not self.port.is_open or first:
                try:
                    self._open(first)
                except (serial.SerialException, OSError, ValueError) as exc:
                    if not failing:
                        log.warning("console %s: cannot open (%s); retrying", self.name, exc)
                        failing = True
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                if failing:
                    log.info("console %s: open again", self.name)
                failing, first, delay = False, False, self.backoff[0]
            try:
                self._serve_once()
            except (serial.SerialException, OSError) as exc:
                log.warning("console %s: %s; reopening", self.name, exc)
                failing = True
                _close_quietly(self.port)
            except Exception:  # a bug: keep serving, but do not spin on it
                log.exception("console %s: unexpected error", self.name)
                self._stop.wait(delay)

    def _open(self, first: bool) -> None:
        if not self.port.is_open:
            self.port = self.reopen(self.port)
        self.port.timeout = self.read_timeout
        self.port.write_timeout = self.write_timeout
        self.protocol.splitter.reset()
        if not first:
            self.protocol.lock()  # a replugged cable may be someone else's

    def _serve_once(self) -> None:
        port = self.port
        data = port.read(min(max(port.in_waiting, 1), 4096))
        if data:
            self._send(self.protocol.feed(data))
        self._send(self.protocol.take_events())

    def _send(self, lines: Sequence[str]) -> None:
        if not lines:
            return
        data = "".join(line + "\r\n" for line in lines).encode("utf-8")
        try:
            self.port.write(data)
        except serial.SerialTimeoutException:
            # nobody is reading (or flow control holds us): drop the output, keep serving
            if not self._write_stalled:
                log.warning("console %s: write timed out, output dropped", self.name)
                self._write_stalled = True
            return
        if self._write_stalled:
            log.info("console %s: writing again", self.name)
            self._write_stalled = False


def _ignore(_: Any) -> None:
    pass


def _close_quietly(port: SerialPort) -> None:
    try:
        port.close()
    except Exception as exc:  # closing a vanished device may fail; it is closed either way
        log.debug("closing the console port: %s", exc)


def open_console(config: ConsoleConfig, table: Table, *, start: bool = True) -> Console | None:
    """The console that ``config`` asks for (None when ``console.port`` is empty), started.

    The port (a device path or a pyserial URL) is opened by the console thread, so a USB
    adapter that is missing at boot is picked up once it is plugged in. A malformed URL raises
    ValueError here.

    Example::

        >>> from pitboard.table.table import Table
        >>> console = open_console(ConsoleConfig(staff_pin="2468", port="loop://"),
        ...                        Table(stations=1))
        >>> console is not None and console.running
        True
        >>> console.stop()
    """
    if not config.enabled:
        return None
    port = serial.serial_for_url(config.port, baudrate=config.baud, timeout=READ_TIMEOUT,
                                 write_timeout=WRITE_TIMEOUT, do_not_open=True)
    console = Console(table=table, port=port, staff_pin=config.staff_pin)
    if start:
        console.start()
    return console
