"""The staff serial console: the pure protocol, a real pty pair, port failures, random input.

Most tests drive :class:`ConsoleProtocol` directly (its commands run in the test's thread
through :class:`DirectLink`). The pty tests run the real thing: a table with its game thread, a
:class:`Console` serving pyserial on the slave side of ``os.openpty()``, and the test typing on
the master side. Nothing sleeps to wait: reads have timeouts and loop until the awaited line.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitboard.console import (
    MAX_LINE,
    Console,
    ConsoleProtocol,
    DirectLink,
    LineSplitter,
    QueueLink,
    open_console,
    status_line,
)
from pitboard.console import protocol as console_protocol
from pitboard.hwconfig import ConsoleConfig
from pitboard.table import flow
from pitboard.table.table import Call, KioskOptions, Table, Tick

PIN = "73519"
TIMEOUT = 60.0  # generous bound on a blocking read; never a sleep
LOBBY_STATUS = ("OK state=lobby track=usa laps=2 cars=1 round=- lap=- phase=- turn=- joined=- "
                "stations=2 modules=-")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make(stations: int = 2, **kwargs: Any) -> tuple[Table, ConsoleProtocol, Clock]:
    clock = Clock()
    table = Table(stations=stations, seed=1)
    proto = ConsoleProtocol(table, staff_pin=PIN, clock=clock, **kwargs)
    proto.attach(table)
    return table, proto, clock


def one(proto: ConsoleProtocol, line: str) -> str:
    replies = proto.handle_line(line)
    assert len(replies) == 1, replies
    return replies[0]


def fields(reply: str) -> dict[str, str]:
    assert reply.startswith("OK "), reply
    return dict(word.split("=", 1) for word in reply[3:].split())


def snapshot(table: Table) -> tuple[Any, ...]:
    race = table.race
    return (table.state, [(s.joined, s.car, s.lever) for s in table.stations],
            None if race is None else (race.setup, list(race.log)))


# ---------------------------------------------------------------------- commands
def test_status_and_state_in_the_lobby() -> None:
    _, proto, _ = make()
    assert one(proto, "status") == LOBBY_STATUS
    reply = one(proto, "STATE")  # command words are case-insensitive
    data = json.loads(reply.removeprefix("OK "))
    assert data["table"] == "lobby" and data["race"] is None
    assert [s["station"] for s in data["stations"]] == [1, 2]


def test_help_lists_every_command_as_comment_lines() -> None:
    _, proto, _ = make()
    replies = proto.handle_line("help")
    assert replies[-1] == "OK help"
    assert all(line.startswith("#") and len(line) <= 80 for line in replies[:-1])
    text = "\n".join(replies)
    for name in ("status", "state", "events", "pin", "lock", "new-race", "undo", "input",
                 "reset"):
        assert f"#   {name}" in text
    assert one(proto, "help me") == "ERR usage: help"


@pytest.mark.parametrize(("line", "reply"), [
    ("frobnicate", "ERR unknown command 'frobnicate' (try help)"),
    ("x" * 40, "ERR unknown command '" + "x" * 24 + "...' (try help)"),
    ("2468", "ERR unknown command (digits) (try help)"),  # maybe a PIN: never echoed
    ("status now", "ERR usage: status"),
    ("state x", "ERR usage: state"),
    ("events maybe", "ERR usage: events [on|off|text|json]"),
    ("events on off", "ERR usage: events [on|off|text|json]"),
    ("pin", "ERR usage: pin PIN"),
    ("pin 1 2", "ERR usage: pin PIN"),
    ("lock now", "ERR usage: lock"),
])
def test_errors_that_need_no_pin(line: str, reply: str) -> None:
    _, proto, _ = make()
    assert one(proto, line) == reply


@pytest.mark.parametrize(("line", "reply"), [
    ("input", "ERR usage: input STATION lever 1-4|press 1-7|go"),
    ("input 1", "ERR usage: input STATION lever 1-4|press 1-7|go"),
    ("input 1 fly", "ERR usage: input STATION lever 1-4|press 1-7|go"),
    ("input one go", "ERR usage: input STATION lever 1-4|press 1-7|go"),
    ("input 1 go now", "ERR usage: input STATION lever 1-4|press 1-7|go"),
    ("input 1 lever", "ERR usage: input STATION lever 1-4|press 1-7|go"),
    ("input 1 lever -1", "ERR usage: input STATION lever 1-4|press 1-7|go"),
    ("input 3 go", "ERR station must be 1..2, not 3"),
    ("input 0 go", "ERR station must be 1..2, not 0"),
    ("input 1 lever 5", "ERR gear must be 1..4, not 5"),
    ("input 1 press 0", "ERR slot must be 1..7, not 0"),
    ("input 1 press 8", "ERR slot must be 1..7, not 8"),
    ("input 1 press ٣", "ERR usage: input STATION lever 1-4|press 1-7|go"),  # Arabic-Indic 3
    ("new-race laps=0", "ERR laps must be 1..9, not 0"),
    ("new-race cars=7", "ERR cars must be 1..6, not 7"),
    ("new-race seed=99999999999", "ERR usage: new-race [track=NAME] [laps=1-9] [cars=1-6] "
                                  "[seed=N]"),
    ("new-race seed=-1", "ERR usage: new-race [track=NAME] [laps=1-9] [cars=1-6] [seed=N]"),
    ("new-race colour=red", "ERR usage: new-race [track=NAME] [laps=1-9] [cars=1-6] [seed=N]"),
    ("new-race laps=1 laps=2", "ERR usage: new-race [track=NAME] [laps=1-9] [cars=1-6] "
                               "[seed=N]"),
    ("new-race usa", "ERR usage: new-race [track=NAME] [laps=1-9] [cars=1-6] [seed=N]"),
    ("new-race track=monaco",
     "ERR unknown track 'monaco' (tracks: usa, france, great_britain, italy)"),
    # a track file path would read a file named over the wire: refused without looking
    ("new-race track=../../etc/passwd",
     "ERR unknown track (tracks: usa, france, great_britain, italy)"),
    ("new-race track=usa.toml", "ERR unknown track (tracks: usa, france, great_britain, italy)"),
    ("undo now", "ERR usage: undo"),
    ("undo", "ERR no race to undo"),
    ("reset please", "ERR usage: reset"),
])
def test_changing_command_errors(line: str, reply: str) -> None:
    table, proto, _ = make()
    before = snapshot(table)
    assert one(proto, f"pin {PIN}") == "OK unlocked"
    assert one(proto, line) == reply
    assert snapshot(table) == before


def test_changing_commands_need_the_pin_and_reads_do_not() -> None:
    table, proto, _ = make()
    before = snapshot(table)
    for line in ("new-race", "undo", "input 1 go", "reset", "RESET"):
        assert one(proto, line) == "ERR locked: send 'pin <staff PIN>' first"
    assert one(proto, "status").startswith("OK ")
    assert one(proto, "events on") == "OK events text"
    assert snapshot(table) == before
    assert one(proto, f"pin {PIN}") == "OK unlocked"
    assert fields(one(proto, "input 2 go"))["joined"] == "2"
    assert one(proto, "lock") == "OK locked"
    assert one(proto, "input 2 go").startswith("ERR locked")


def test_wrong_pins_are_counted_then_locked_out(caplog: pytest.LogCaptureFixture) -> None:
    _, proto, clock = make(max_pin_failures=3, pin_lockout=60)
    caplog.set_level(logging.DEBUG)
    assert one(proto, "pin 0000") == "ERR wrong PIN"
    assert one(proto, "pin 1111") == "ERR wrong PIN"
    assert one(proto, "pin 2222") == "ERR wrong PIN; PIN entry locked for 60 s"
    # even the right PIN is refused while locked out: no sleeping, the clock decides
    assert one(proto, f"pin {PIN}") == "ERR too many wrong PINs, try again in 61 s"
    clock.now += 30
    assert one(proto, f"pin {PIN}") == "ERR too many wrong PINs, try again in 31 s"
    clock.now += 30
    assert one(proto, f"pin {PIN}") == "OK unlocked"
    assert not proto.unlocked or one(proto, "pin 0000") == "ERR wrong PIN"
    assert not proto.unlocked  # a wrong PIN locks an open session again
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "wrong staff PIN" in logged
    for secret in (PIN, "0000", "1111", "2222"):
        assert secret not in logged


def test_the_pin_is_never_in_a_reply_or_the_log(caplog: pytest.LogCaptureFixture) -> None:
    _, proto, _ = make()
    caplog.set_level(logging.DEBUG)
    replies = []
    for line in (f"pin {PIN}", PIN, f"{PIN} status", f"pin {PIN} {PIN}", f"new-race seed={PIN}x",
                 f"PIN {PIN}"):
        replies += proto.handle_line(line)
    assert all(PIN not in reply for reply in replies), replies
    assert all(PIN not in r.getMessage() for r in caplog.records)


def test_an_idle_session_locks_itself() -> None:
    table, proto, clock = make(unlock_idle=600)
    assert one(proto, f"pin {PIN}") == "OK unlocked"
    clock.now += 599
    assert one(proto, "input 1 go").startswith("OK ")  # activity keeps it open
    clock.now += 600
    assert one(proto, "input 1 go") == "ERR locked: send 'pin <staff PIN>' first"
    assert table.stations[0].joined


def test_a_race_driven_from_the_console_with_undo_and_reset() -> None:
    table, proto, _ = make()
    one(proto, f"pin {PIN}")
    assert fields(one(proto, "input 1 go"))["joined"] == "1"
    started = fields(one(proto, "new-race track=France laps=1 cars=2 seed=5"))
    assert started == {"seed": "5", "state": "planning", "track": "france", "laps": "1",
                       "cars": "2", "round": "1", "lap": "1", "phase": "plan", "turn": "S1",
                       "joined": "1", "stations": "2", "modules": "-"}
    assert table.race is not None and table.race.setup.names == ("S1", "Bot 1")
    # plan gear 1 with one card, exactly as the lever and tray buttons would
    assert one(proto, "input 1 lever 1").startswith("OK ")
    station = table.stations[0]
    button = next(b for b, i in enumerate(station.visible_slots()) if station.slots[i] != "H")
    assert one(proto, f"input 1 press {button + 1}").startswith("OK ")
    assert station.selected
    after_go = fields(one(proto, "input 1 go"))
    assert after_go["state"] != "planning" or after_go["round"] == "2"
    decisions = len(table.race.log)
    undone = fields(one(proto, "undo"))
    assert (undone["state"], undone["round"], undone["turn"]) == ("planning", "1", "S1")
    assert len(table.race.log) < decisions
    reset = fields(one(proto, "reset"))
    assert (reset["state"], reset["joined"]) == ("lobby", "-")
    assert one(proto, "undo") == "ERR no race to undo"


def test_new_race_with_nobody_joined_is_raced_by_bots_at_once() -> None:
    _, proto, _ = make()
    one(proto, f"pin {PIN}")
    assert fields(one(proto, "new-race cars=3 seed=2 laps=1"))["state"] == "results"
    data = json.loads(one(proto, "state").removeprefix("OK "))
    assert data["table"] == "results" and data["race"]["phase"] == "over"
    assert data["race"]["setup"]["seed"] == 2
    # a race on the table (even a finished one) is ended with reset, never dropped silently
    assert one(proto, "new-race") == "ERR a race is on (results): 'reset' first"
    assert fields(one(proto, "reset"))["state"] == "lobby"
    assert fields(one(proto, "new-race seed=2"))["state"] == "results"


def test_new_race_from_the_kiosk_attract_loop() -> None:
    table = Table(stations=2, seed=1, kiosk=KioskOptions())
    proto = ConsoleProtocol(table, staff_pin=PIN)
    assert fields(one(proto, "status"))["state"] == "attract"
    one(proto, f"pin {PIN}")
    one(proto, "input 1 go")  # wakes the table: S1 joins
    assert fields(one(proto, "new-race laps=1 seed=6"))["state"] == "planning"
    assert one(proto, "new-race") == "ERR a race is on (planning): 'reset' first"
    assert fields(one(proto, "reset"))["state"] == "attract"


def test_a_command_that_fails_costs_only_itself(monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    table, proto, _ = make()
    one(proto, f"pin {PIN}")

    def broken() -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(table, "do_reset", broken)
    with caplog.at_level(logging.ERROR):
        assert one(proto, "reset") == "ERR internal error (see the log)"
    assert one(proto, "status") == LOBBY_STATUS


# ---------------------------------------------------------------------- lines and bytes
def test_line_endings_split_reads_blank_lines_and_comments() -> None:
    _, proto, _ = make()
    assert proto.feed(b"status\r\nstatus\nstatus\r") == [LOBBY_STATUS] * 3
    assert proto.feed(b"\nsta") == []  # the \n completes the \r\n: no blank command
    assert proto.feed(b"tus") == []
    assert proto.feed(b"\r\n\r\n\n   \t \n# a comment\n") == [LOBBY_STATUS]


def test_our_own_output_echoed_back_is_ignored() -> None:
    _, proto, _ = make()
    out = proto.handle_line("help") + proto.handle_line("bogus") + proto.handle_line("status")
    proto.handle_line("events json")
    echoed = "".join(line + "\r\n" for line in [*out, "EVT {\"type\":\"table\"}"]).encode()
    assert proto.feed(echoed) == []


def test_over_long_lines_are_dropped_with_one_error() -> None:
    _, proto, _ = make()
    fits = b"status" + b" " * (MAX_LINE - 6)
    assert proto.feed(fits + b"\n") == [LOBBY_STATUS]
    assert proto.feed(fits + b" \n") == [f"ERR line too long (max {MAX_LINE} bytes)"]
    # a flood without a line ending is dropped as it comes: memory stays bounded
    for _ in range(100):
        assert proto.feed(b"y" * 10_000) == []
    assert len(proto.splitter._buf) <= MAX_LINE
    assert proto.feed(b"\nstatus\n") == [f"ERR line too long (max {MAX_LINE} bytes)",
                                         LOBBY_STATUS]


@pytest.mark.parametrize(("data", "reply"), [
    (b"\xff\xfestatus\n", "ERR not UTF-8"),
    (b"stat\xc3us\n", "ERR not UTF-8"),  # a truncated sequence
    (b"\xed\xa0\x80\n", "ERR not UTF-8"),  # an encoded surrogate
    (b"sta\x00tus\n", "ERR control character in line"),
    (b"\x1b[A\n", "ERR control character in line"),  # an arrow key
    ("status \u202e\n".encode(), "ERR control character in line"),  # a bidi override
    ("status \u0085\n".encode(), "ERR control character in line"),  # C1 next-line
    (b"statuz\x7fs\n", LOBBY_STATUS),  # DEL as backspace
    (b"xx\b\b\bstatus\n", LOBBY_STATUS),  # backspace past the start
    (b"\tstatus\t\n", LOBBY_STATUS),
    ("stätus\n".encode(), "ERR unknown command 'stätus' (try help)"),
])
def test_bytes_that_are_not_a_clean_line(data: bytes, reply: str) -> None:
    _, proto, _ = make()
    assert proto.feed(data) == [reply]
    assert proto.feed(b"status\n") == [LOBBY_STATUS]


def test_splitter_keeps_a_partial_line_and_resets() -> None:
    splitter = LineSplitter(max_line=8)
    assert splitter.feed(b"") == []
    assert splitter.feed(b"abc") == []
    assert splitter.feed(b"def\r") == [b"abcdef"]
    assert splitter.feed(b"\n\n") == [b""]
    assert splitter.feed(b"123456789") == []
    assert splitter.feed(b"\n") == [None]
    splitter.feed(b"left over")
    splitter.reset()
    assert splitter.feed(b"ok\n") == [b"ok"]


# ---------------------------------------------------------------------- event stream
def test_events_text_json_and_off() -> None:
    table, proto, _ = make()
    one(proto, f"pin {PIN}")
    one(proto, "input 1 go")
    assert proto.take_events() == []  # streaming is off
    assert one(proto, "events") == "OK events text"  # toggle
    one(proto, "new-race cars=2 seed=3 laps=1")
    text = proto.take_events()
    assert text[0] == "EVT table planning"
    assert any(line.startswith("EVT Grid: ") for line in text)
    assert any(line.startswith("EVT === Round 1") for line in text)
    assert all("\n" not in line and "\r" not in line for line in text)
    assert one(proto, "events json") == "OK events json"
    # S1 plans gear 1 with one card, so there is a person's decision to take back
    one(proto, "input 1 lever 1")
    station = table.stations[0]
    button = next(b for b, i in enumerate(station.visible_slots()) if station.slots[i] != "H")
    one(proto, f"input 1 press {button + 1}")
    one(proto, "input 1 go")
    proto.take_events()
    one(proto, "undo")
    undo = [json.loads(line.removeprefix("EVT ")) for line in proto.take_events()]
    assert any(e["type"] == "undo" and e["round"] == 1 for e in undo), undo
    one(proto, "reset")
    assert [json.loads(line[4:]) for line in proto.take_events()] == [
        {"type": "table", "state": "lobby"}]
    assert one(proto, "events") == "OK events off"
    assert one(proto, "new-race seed=4").startswith("OK ")
    assert proto.take_events() == []


def test_a_second_race_with_the_same_seed_is_streamed_in_full() -> None:
    table, proto, _ = make()
    one(proto, f"pin {PIN}")
    one(proto, "events json")
    one(proto, "new-race cars=2 seed=9 laps=1")  # bots only: over at once
    first = [json.loads(line[4:])["type"] for line in proto.take_events()]
    assert fields(one(proto, "input 1 go"))["state"] == "lobby"  # GO dismisses the results
    assert table.race is not None  # the finished race stays on the table
    one(proto, "new-race cars=2 seed=9 laps=1")
    second = [json.loads(line[4:])["type"] for line in proto.take_events()]
    assert "undo" not in second and second.count("grid") == 1
    assert second[1:] == first  # the same race again, after {"type": "table"} for the lobby


def test_a_full_backlog_is_reported_not_grown() -> None:
    _, proto, _ = make(backlog=5)
    one(proto, f"pin {PIN}")
    one(proto, "events on")
    one(proto, "new-race cars=6 laps=1 seed=8")  # bots race it out: hundreds of events
    lines = proto.take_events()
    assert len(lines) == 6
    assert lines[-1].startswith("EVT dropped ") and lines[-1].endswith(
        " event lines (the port did not keep up)")
    assert proto.take_events() == []


def test_the_attract_loop_is_not_streamed() -> None:
    clock = Clock()
    table = Table(stations=2, seed=1, clock=clock, kiosk=KioskOptions(attract_step=0.5))
    proto = ConsoleProtocol(table, staff_pin=PIN)
    proto.attach(table)
    proto.handle_line("events json")
    for _ in range(20):
        clock.now += 1
        table.handle(Tick(clock.now))
    assert table.attract is not None and table.attract.log
    assert proto.take_events() == []


def test_the_observer_never_raises(monkeypatch: pytest.MonkeyPatch,
                                   caplog: pytest.LogCaptureFixture) -> None:
    table, proto, _ = make()
    one(proto, f"pin {PIN}")
    one(proto, "events on")
    monkeypatch.setattr(console_protocol, "describe", lambda *a: 1 / 0)
    with caplog.at_level(logging.ERROR):
        assert fields(one(proto, "new-race cars=2 seed=1"))["state"] == "results"
    assert "event stream failed" in caplog.text
    proto.detach(table)
    assert proto.observe not in table.observers


# ---------------------------------------------------------------------- the game thread
def test_busy_when_the_game_thread_does_not_answer() -> None:
    table = Table(stations=2)  # nobody runs its game thread
    proto = ConsoleProtocol(table, staff_pin=PIN, link=QueueLink(table, timeout=0.01))
    assert one(proto, "status") == "ERR busy"
    # the first call is still queued: later ones answer at once and queue nothing more
    assert one(proto, "state") == "ERR busy"
    assert one(proto, f"pin {PIN}") == "OK unlocked"
    assert one(proto, "input 1 go") == "ERR busy"
    assert table.queue.qsize() == 1
    table.handle(table.queue.get())  # the game thread catches up
    assert one(proto, "status") == "ERR busy"  # a new call, again unanswered
    table.handle(table.queue.get())


def test_direct_link_runs_in_the_callers_thread() -> None:
    table = Table(stations=1)
    assert DirectLink(table).call(lambda: threading.current_thread()) is \
        threading.current_thread()


# ---------------------------------------------------------------------- over a pty pair
class PtyClient:
    """The far end of the serial line: the master side of a pty, read with select timeouts."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = serial.Serial(os.ttyname(self.slave), baudrate=115200, timeout=0.1)
        self.received = b""

    def _pump(self, out: bytes, timeout: float) -> bytes:
        writing = [self.master] if out else []
        ready_r, ready_w, _ = select.select([self.master], writing, [], timeout)
        if ready_r:
            self.received += os.read(self.master, 65536)
        if ready_w:
            out = out[os.write(self.master, out[:1024]):]
        return out

    def send(self, data: bytes) -> None:
        """Write everything, reading replies meanwhile so neither side's buffer fills."""
        while data:
            data = self._pump(data, 5.0)

    def read_line(self, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while b"\r\n" not in self.received:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no line within {timeout} s; got {self.received[:200]!r}")
            self._pump(b"", left)
        line, self.received = self.received.split(b"\r\n", 1)
        return line.decode("utf-8")

    def until(self, wanted: Callable[[str], bool]) -> list[str]:
        """Lines up to and including the first one ``wanted`` accepts."""
        lines = [self.read_line()]
        while not wanted(lines[-1]):
            lines.append(self.read_line())
        return lines

    def command(self, line: str) -> str:
        """Send one command, skip EVT lines, return its final OK/ERR line."""
        self.send(line.encode() + b"\n")
        return self.until(lambda x: x.startswith(("OK", "ERR")))[-1]

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@dataclass
class Rig:
    table: Table
    console: Console
    client: PtyClient
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def close(self) -> None:
        self.console.stop()
        self.stop.set()
        if self.thread is not None:
            self.thread.join(5)
        self.client.close()


def make_rig(*, run_table: bool = True, call_timeout: float = 2.0) -> Rig:
    table = Table(stations=2, seed=1)
    client = PtyClient()
    console = Console(table=table, port=client.port, staff_pin=PIN, call_timeout=call_timeout)
    rig = Rig(table, console, client)
    if run_table:
        rig.thread = threading.Thread(target=table.run, args=(rig.stop,), daemon=True)
        rig.thread.start()
    console.start()
    return rig


@pytest.fixture
def rig() -> Iterator[Rig]:
    r = make_rig()
    yield r
    r.close()


def test_pty_commands_and_the_event_stream(rig: Rig) -> None:
    client = rig.client
    assert client.command("status") == LOBBY_STATUS
    assert client.command("reset") == "ERR locked: send 'pin <staff PIN>' first"
    assert client.command(f"pin {PIN}") == "OK unlocked"
    assert client.command("events on") == "OK events text"
    assert fields(client.command("input 1 go"))["joined"] == "1"
    assert fields(client.command("new-race cars=2 seed=3 laps=1"))["turn"] == "S1"
    # events are written by the console thread, after the command's own reply
    assert "EVT table planning" in client.until(lambda x: x.startswith("EVT === Round 1"))
    assert client.command("undo") == "ERR nothing to undo"  # only the bot has moved
    assert client.command("events off") == "OK events off"
    assert client.command("reset").startswith("OK state=lobby")
    assert client.command("undo") == "ERR no race to undo"  # raised on the game thread
    client.send(b"\xff\n" + b"z" * 1000 + b"\r\nhelp\r\n")
    assert client.until(lambda x: x == "OK help")[:2] == [
        "ERR not UTF-8", f"ERR line too long (max {MAX_LINE} bytes)"]
    assert rig.console.running and rig.thread is not None and rig.thread.is_alive()


def test_pty_busy_when_the_table_is_stuck() -> None:
    rig = make_rig(run_table=False, call_timeout=0.05)
    try:
        assert rig.client.command("status") == "ERR busy"
        assert rig.client.command("help").startswith("OK")  # answers without the table
    finally:
        rig.close()


@pytest.fixture(scope="module")
def shared_rig() -> Iterator[Rig]:
    r = make_rig()
    yield r
    r.close()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(garbage=st.binary(max_size=1500) | st.lists(
    st.sampled_from([b"\n", b"\r", b"\x00", b"\xff", b"\xc3", b"status", b"pin 1234 ", b"reset",
                     b"z" * 300, b"input 1 go", b"events on", b"\x1b[A", b"#"]),
    max_size=30).map(b"".join))
def test_pty_random_bytes_never_stop_the_console(shared_rig: Rig, garbage: bytes) -> None:
    client = shared_rig.client
    before = snapshot(shared_rig.table)
    client.send(garbage + b"\nstatus\n")
    lines = client.until(lambda x: x.startswith("OK state="))
    assert lines[-1] == LOBBY_STATUS
    assert all(x.startswith(("OK", "ERR", "EVT", "#")) for x in lines)
    assert shared_rig.console.running
    assert snapshot(shared_rig.table) == before


# ---------------------------------------------------------------------- port failures
class FakePort:
    """A serial port whose reads, writes and opens fail when a test says so.

    ``rx`` feeds the console (an exception object in it is raised by ``read``); everything the
    console writes lands in ``tx``.
    """

    def __init__(self) -> None:
        self.port = "/dev/ttyFAKE"
        self.timeout: float | None = None
        self.write_timeout: float | None = None
        self.is_open = False
        self.in_waiting = 0
        self.rx: queue.Queue[bytes | Exception] = queue.Queue()
        self.tx: queue.Queue[bytes] = queue.Queue()
        self.fail_opens = 0
        self.fail_writes = 0
        self.opens = 0

    def open(self) -> None:
        if self.fail_opens:
            self.fail_opens -= 1
            raise serial.SerialException(f"could not open port {self.port}: no such device")
        self.is_open = True
        self.opens += 1

    def close(self) -> None:
        self.is_open = False

    def read(self, size: int = 1) -> bytes:
        if not self.is_open:
            raise serial.PortNotOpenError()
        try:
            item = self.rx.get(timeout=self.timeout)
        except queue.Empty:
            return b""
        if isinstance(item, Exception):
            raise item
        return item

    def write(self, data: bytes) -> int:
        if self.fail_writes:
            self.fail_writes -= 1
            raise serial.SerialTimeoutException("Write timeout")
        self.tx.put(data)
        return len(data)

    def reply(self) -> str:
        return self.tx.get(timeout=TIMEOUT).decode()  # a bound on a hang, never a wait


@pytest.fixture
def running_table() -> Iterator[Table]:
    table = Table(stations=2, seed=1)
    stop = threading.Event()
    thread = threading.Thread(target=table.run, args=(stop,), daemon=True)
    thread.start()
    yield table
    stop.set()
    thread.join(5)


def test_a_lost_port_is_logged_once_and_reopened(running_table: Table,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """No wall clock decides the outcome: the retries wait 0 s, and the status call (which
    the game thread answers) may take as long as the machine needs. It once flaked under load
    because status went through the console's 2 s CALL_TIMEOUT: a game thread that did not
    get the CPU for 2 s made the answer ERR busy."""
    caplog.set_level(logging.INFO, logger="pitboard.console")
    port = FakePort()
    port.fail_opens = 3  # the USB adapter is not plugged in yet at boot
    console = Console(table=running_table, port=port, staff_pin=PIN, backoff=(0.0, 0.0),
                      call_timeout=TIMEOUT)
    console.start()
    try:
        port.rx.put(f"pin {PIN}\n".encode())
        assert port.reply() == "OK unlocked\r\n"
        assert (port.timeout, port.write_timeout) == (0.1, 1.0)
        port.fail_opens = 4  # unplugged: the next opens fail too
        port.rx.put(serial.SerialException("device reports readiness to read but returned no "
                                           "data (device disconnected?)"))
        port.rx.put(b"reset\n")
        # reopened, and a reopened port is a new session: locked again
        assert port.reply() == "ERR locked: send 'pin <staff PIN>' first\r\n"
        port.rx.put(b"status\n")
        assert port.reply() == LOBBY_STATUS + "\r\n"
        assert port.opens == 2
    finally:
        console.stop()
    assert console._thread is not None and not console._thread.is_alive()
    mine = [r for r in caplog.records if r.thread == console._thread.ident]
    warnings = [r.getMessage() for r in mine if r.levelno == logging.WARNING]
    assert warnings == [
        "console /dev/ttyFAKE: cannot open (could not open port /dev/ttyFAKE: no such device); "
        "retrying",
        "console /dev/ttyFAKE: device reports readiness to read but returned no data "
        "(device disconnected?); reopening",
    ]
    assert sum("open again" in r.getMessage() for r in mine) == 2
    assert not port.is_open


def test_a_write_nobody_reads_is_dropped(running_table: Table,
                                         caplog: pytest.LogCaptureFixture) -> None:
    port = FakePort()
    console = Console(table=running_table, port=port, staff_pin=PIN)
    console.start()
    try:
        port.fail_writes = 1
        port.rx.put(b"help\n")
        port.rx.put(b"status\n")
        assert port.reply() == LOBBY_STATUS + "\r\n"  # help's reply was dropped
    finally:
        console.stop()
    assert "write timed out, output dropped" in caplog.text
    assert port.opens == 1


def test_stop_detaches_the_observer(running_table: Table) -> None:
    port = FakePort()
    console = Console(table=running_table, port=port, staff_pin=PIN)
    console.start()
    port.rx.put(b"status\n")
    port.reply()  # the attach call ran before this status call
    assert console.protocol.observe in running_table.observers
    console.stop()
    done = threading.Event()
    running_table.post(Call(lambda: None, lambda _: done.set()))
    assert done.wait(5)
    assert console.protocol.observe not in running_table.observers
    assert not console.running
    with pytest.raises(RuntimeError):
        console.start()


def test_open_console_from_the_config() -> None:
    table = Table(stations=1)
    assert open_console(ConsoleConfig(staff_pin=PIN), table) is None
    console = open_console(ConsoleConfig(staff_pin=PIN, port="loop://", baud=9600), table,
                           start=False)
    assert console is not None and not console.running
    assert console.port.baudrate == 9600 and not console.port.is_open  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        open_console(ConsoleConfig(staff_pin=PIN, port="nosuchscheme://x"), table)
    with pytest.raises(ValueError):
        ConsoleProtocol(table, staff_pin="")


# ---------------------------------------------------------------------- random input
LINES = st.sampled_from([
    "status", "state", "help", "events", "events json", "events off", "pin 0000", "lock",
    "new-race", "new-race cars=3 laps=1 seed=4", "undo", "reset", "input 1 go", "input 2 go",
    "input 1 lever 2", "input 1 press 7", "input 2 press 3", "input 9 go", "bogus",
])
CHUNKS = st.one_of(st.binary(max_size=80), LINES.map(lambda s: s.encode() + b"\r\n"),
                   st.sampled_from([b"\n", b"\r", b"\x00", b"\xff\xfe", b"x" * 400]))


@settings(max_examples=300, deadline=None)
@given(chunks=st.lists(CHUNKS, max_size=25))
def test_random_input_without_the_pin_changes_nothing(chunks: list[bytes]) -> None:
    table = Table(stations=2, seed=1)
    proto = ConsoleProtocol(table, staff_pin=PIN)
    proto.attach(table)
    before = snapshot(table)
    out: list[str] = []
    for chunk in chunks:
        out += proto.feed(chunk)
        out += proto.take_events()
    out += proto.feed(b"\nstatus\n")
    assert out[-1] == LOBBY_STATUS
    assert all(isinstance(x, str) and "\n" not in x and "\r" not in x for x in out)
    assert all(x.startswith(("OK", "ERR", "EVT", "#")) for x in out)
    assert snapshot(table) == before


@settings(max_examples=150, deadline=None)
@given(chunks=st.lists(CHUNKS | st.just(f"pin {PIN}\n".encode()), max_size=25))
def test_random_input_with_the_pin_keeps_the_table_healthy(chunks: list[bytes]) -> None:
    table = Table(stations=2, seed=1)
    proto = ConsoleProtocol(table, staff_pin=PIN)
    proto.attach(table)
    for chunk in chunks:
        proto.feed(chunk)
    reply = proto.feed(b"\nstatus\n")[-1]
    assert reply == "OK " + status_line(table)
    assert table.healthy() and table.state in flow.STATES
