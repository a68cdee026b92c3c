"""The staff serial console's protocol: commands, the PIN, lines and bytes, the event stream,
the link to the game thread, random input. The tests drive :class:`ConsoleProtocol` directly
(its commands run in the test's thread through :class:`DirectLink`); the real serial side (a
pty pair, port failures) is in test_console_serial.py.
"""

from __future__ import annotations

import json
import logging
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolekit import LOBBY_STATUS, PIN, Clock, fields, make, one, snapshot
from pitboard.catalog import TRACKS
from pitboard.console import (
    MAX_LINE,
    ConsoleProtocol,
    DirectLink,
    LineSplitter,
    QueueLink,
    status_line,
)
from pitboard.console import protocol as console_protocol
from pitboard.table import flow
from pitboard.table.table import KioskOptions, Table, Tick

KNOWN_TRACKS = ", ".join(TRACKS)


# ---------------------------------------------------------------------- commands
def test_status_and_state_in_the_lobby() -> None:
    _, proto, _ = make()
    assert one(proto, "status") == LOBBY_STATUS
    reply = one(proto, "STATE")  # command words are case-insensitive
    data = json.loads(reply.removeprefix("OK "))
    assert data["table"] == "lobby" and data["race"] is None
    assert [s["station"] for s in data["stations"]] == [1, 2]


def test_state_says_which_legend_move_the_board_waits_for() -> None:
    """Issue 23: a staff member (or a script) reads from ``state`` how many Legend moves the
    players confirmed on the board and which one a GO waits for."""
    from pitboard.hw.events import GoPressed
    from pitboard.table.autoplay import next_input

    table = Table(stations=1, seed=1, laps=1, modules={"legends": {"cars": 1,
                                                                   "colours": ["red"]}})
    proto = ConsoleProtocol(table, staff_pin=PIN, clock=Clock())
    proto.attach(table)
    data = json.loads(one(proto, "state").removeprefix("OK "))
    assert data["legends"] is None  # no race yet
    table.handle(GoPressed(station=0))
    table.start_race(track="usa", laps=1, cars=1)
    while not table.legend_moves_waiting():
        event = next_input(table)
        assert event is not None
        table.handle(event)
    data = json.loads(one(proto, "state").removeprefix("OK "))
    legends = data["legends"]
    waiting = table.legend_moves_waiting()[0]
    assert legends["confirmed"] == table.legends_confirmed < legends["moves"]
    assert legends["waiting"] == len(table.legend_moves_waiting())
    assert legends["next"]["name"] == "Red Legend" and legends["next"]["back"] is False
    assert (legends["next"]["from"], legends["next"]["to"]) == (waiting.frm, waiting.to)
    assert legends["next"]["instruction"] == waiting.instruction()
    table.handle(GoPressed(station=0))  # moved on the board: confirmed
    after = json.loads(one(proto, "state").removeprefix("OK "))["legends"]
    assert after["confirmed"] == legends["confirmed"] + 1


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
     f"ERR unknown track 'monaco' (tracks: {KNOWN_TRACKS})"),
    # a track file path would read a file named over the wire: refused without looking
    ("new-race track=../../etc/passwd", f"ERR unknown track (tracks: {KNOWN_TRACKS})"),
    ("new-race track=usa.toml", f"ERR unknown track (tracks: {KNOWN_TRACKS})"),
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
