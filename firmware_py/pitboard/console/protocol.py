"""The console's line protocol: :class:`ConsoleProtocol` (one session: the command table,
the staff PIN, the ``EVT`` stream) and its argument parsing; no port and no thread here.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from typing import Any, Final

from ..engine.events import Event
from ..engine.race import Race
from ..engine.setup import MAX_CARS
from ..hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from ..narrate import describe
from ..staffpin import MAX_PIN_FAILURES, PIN_LOCKOUT, UNLOCK_IDLE, PinLockout
from ..table import flow
from ..table.station import SLOTS
from ..table.table import Table
from ..trackfile import load_track, track_names
from .command import CommandError, _Command, _Usage
from .lines import MAX_LINE, LineSplitter
from .link import DirectLink, TableBusy, TableLink
from .options import option_commands
from .seats import seat_commands
from .views import RaceUndone, TableStateChanged, state_dict, status_line

log = logging.getLogger("pitboard.console")

#: streamed event lines kept while the port is not keeping up
EVENT_BACKLOG: Final = 1000
#: the first word of lines this console writes; such lines are ignored on input, so a peer
#: that echoes everything back (looped wires, a terminal with echo on) cannot start a loop
OUTPUT_WORDS: Final = frozenset({"OK", "ERR", "EVT"})

EVENT_MODES: Final = ("off", "text", "json")
_INT = re.compile(r"[0-9]{1,10}")
_TRACK = re.compile(r"[A-Za-z][A-Za-z_-]{0,31}")  # names only: never a path from the wire
_ERASE = frozenset("\b\x7f")  # backspace and DEL, as terminals send them


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
        self.unlock_idle = unlock_idle
        self._pin = staff_pin
        self.unlocked = False
        #: wrong PINs and the lockout, by the rule the web pages use too (staffpin.py)
        self._pins = PinLockout(max_failures=max_pin_failures, lockout=pin_lockout, clock=clock)
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
            # garage, legends, weather (the lobby's words) and draft: console/options.py
            **option_commands(self),
            # phone seats: console/seats.py
            **seat_commands(self),
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
        check = self._pins.check(args[0], self._pin)
        if check.ok:
            self.unlocked = True
            return ["OK unlocked"]
        self.unlocked = False
        if check.failures:
            log.warning("console: wrong staff PIN (%d in a row)", check.failures)
        return [f"ERR {check.reason}"]

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
            try:
                self.table.start_race(seed=seed, track=track, laps=laps, cars=cars)
            except ValueError as exc:  # a race the lobby refuses (module options, car count)
                raise CommandError(str(exc)) from None
            race, season = self.table.race, self.table.season
            used = season.setup.seed if season is not None else \
                race.setup.seed if race is not None else None  # (a season: the season's)
            chosen = f"seed={used} " if used is not None else ""
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
            if self.table.state not in (*flow.RACING, flow.RESULTS):
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
        out: list[Event | TableStateChanged | RaceUndone] = []
        if table.state != self._seen_state:
            self._seen_state = table.state
            out.append(TableStateChanged(table.state))
        race = table.race
        if race is not self._seen_race:
            previous = self._seen_race
            self._seen_race = race
            self._seen_events = 0
            if race is not None and previous is not None and race.setup is previous.setup:
                # undo replays the same setup to an earlier point: report that, not a replay
                self._seen_events = len(race.events)
                out.append(RaceUndone(decisions=len(race.log), round=race.round))
        if race is not None and len(race.events) > self._seen_events:
            if mode != "off":
                out += race.events[self._seen_events:]
            self._seen_events = len(race.events)
        if mode == "off" or not out:
            return
        lines: list[str] = []
        for event in out:
            if mode == "json":
                lines.append("EVT " + json.dumps(event.to_dict(), separators=(",", ":"),
                                                 default=str))
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


def _event_text(event: Event | TableStateChanged | RaceUndone, race: Race | None) -> list[str]:
    if not isinstance(event, Event):  # the table's own
        return [event.text()]
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


