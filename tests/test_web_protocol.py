"""The phone's messages are checked at the edge like a console line: every malformed one is a
one-line reason, never a traceback; a well-formed one becomes only the events of the phone's
own station. And the fuzz, beside the console's: whatever arrives, the table stays healthy."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.table import flow
from pitboard.table.phone_seats import PhoneSeats
from pitboard.table.table import Table
from pitboard.web.hub import Client
from pitboard.web.protocol import (
    MAX_MESSAGE,
    Gear,
    Go,
    Join,
    MessageError,
    Resume,
    Tap,
    parse_message,
    station_event,
)
from pitboard.web.session import Seats

PIN = "2468"


@pytest.mark.parametrize(("text", "message"), [
    ('{"t": "join", "code": "0427", "name": "Alice"}', Join("0427", "Alice")),
    ('{"t": "join", "code": "", "name": "Bo", "seat": 5}', Join("", "Bo", 5)),
    ('{"t": "resume", "seat": 0, "token": "' + "a" * 43 + '"}', Resume(0, "a" * 43)),
    ('{"t": "tap", "slot": 0}', Tap(0)), ('{"t": "tap", "slot": 6, "n": 9}', Tap(6, 9)),
    ('{"t": "go"}', Go()), ('{"t": "gear", "gear": 4, "n": 1}', Gear(4, 1)),
])
def test_well_formed_messages(text: str, message: Any) -> None:
    assert parse_message(text) == message
    assert parse_message(text.encode()) == message


@pytest.mark.parametrize(("text", "reason"), [
    ("", "not JSON"), ("{", "not JSON"), (b"\xff\xfe", "not JSON"), ("[1, 2]",
     'a message is a JSON object {"t": ...}'), ("null", 'a message is a JSON object {"t": ...}'),
    ('{"t": "fly"}', "unknown message kind 'fly' (kinds: join, resume, tap, go, gear, leave, "
     "pin, lock, free)"),
    ('{"t": 3}', "unknown message kind '?' (kinds: join, resume, tap, go, gear, leave, pin, "
     "lock, free)"),
    ('{"slot": 1}', "unknown message kind '?' (kinds: join, resume, tap, go, gear, leave, pin, "
     "lock, free)"),
    ('{"t": "tap"}', "tap: slot missing"),
    ('{"t": "tap", "slot": 7}', "slot must be 0..6, not 7"),
    ('{"t": "tap", "slot": -1}', "slot must be 0..6, not -1"),
    ('{"t": "tap", "slot": true}', "slot must be a whole number"),
    ('{"t": "tap", "slot": 1.0}', "slot must be a whole number"),
    ('{"t": "tap", "slot": "1"}', "slot must be a whole number"),
    ('{"t": "tap", "slot": 1, "station": 3}', "tap: unknown key 'station' (keys: n, slot)"),
    ('{"t": "go", "station": 3}', "go: unknown key 'station' (keys: n)"),
    ('{"t": "gear", "gear": 0}', "gear must be 1..4, not 0"),
    ('{"t": "gear", "gear": 99999999999999999999}', "gear must be 1..4, not 99999999999999999999"),
    ('{"t": "join", "code": "12a4", "name": "x"}', "code must be the digits of the join code"),
    ('{"t": "join", "code": "1234", "name": 5}', "name must be text"),
    ('{"t": "join", "code": "1234"}', "join: name missing"),
    ('{"t": "resume", "seat": 6, "token": "' + "a" * 43 + '"}', "seat must be 0..5, not 6"),
    ('{"t": "resume", "seat": 0, "token": "../../etc"}', "token must be a seat token"),
    ('{"t": "pin", "pin": "12345678901"}', "pin must be 4-8 digits"),
    ('{"t": "leave", "x\\u001b[2J": 1}', "leave: unknown key '?' (keys: none)"),
    ("[" * 100000, f"message too long (at most {MAX_MESSAGE} bytes)"),
    ("[" * 400 + "]" * 400, f"message too long (at most {MAX_MESSAGE} bytes)"),
    ("[" * 250 + "]" * 250, 'a message is a JSON object {"t": ...}'),
])
def test_malformed_messages_get_one_line(text: str | bytes, reason: str) -> None:
    with pytest.raises(MessageError) as err:
        parse_message(text)
    assert str(err.value) == reason
    assert "\n" not in reason


def test_an_input_is_an_event_of_the_phones_own_station_only() -> None:
    assert station_event(Tap(slot=3), 2) == SlotPressed(station=2, slot=3)
    assert station_event(Go(), 2) == GoPressed(station=2)
    assert station_event(Gear(gear=1), 2) == LeverMoved(station=2, gear=1)


# ---- the fuzz, beside the console's -------------------------------------------------------

def _table() -> tuple[Table, Seats, Client, Client]:
    """A table with two phone seats; the session runs synchronously beside it (its posts
    handled at once, its feed applied at once), one phone seated and one not."""
    table = Table(stations=3, seed=1, phones=PhoneSeats([1, 2], url="http://pi:8080/"))
    seats = Seats(post=table.handle, staff_pin=PIN, clock=lambda: 0.0)
    table.view_observers.append(seats.hub.apply)
    table.refresh()
    seated = Client(address="10.0.0.2", clock=lambda: 0.0)
    stranger = Client(address="10.0.0.3", clock=lambda: 0.0)
    for client in (seated, stranger):
        seats.connected(client)
    assert table.phones is not None
    seats.handle(seated, json.dumps({"t": "join", "code": table.phones.code, "name": "Ann"}))
    assert seated.seat == 1
    return table, seats, seated, stranger


KINDS = ("join", "resume", "tap", "go", "gear", "leave", "pin", "lock", "free", "x")
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=True),
                   st.text(max_size=12), st.sampled_from(["1234", PIN, "Bob", "a" * 43]),
                   st.lists(st.integers(), max_size=2))
OBJECTS = st.dictionaries(st.sampled_from(["t", "slot", "gear", "n", "seat", "code", "name",
                                           "token", "pin", "station", "x"]), VALUES, max_size=5)
MESSAGES = st.one_of(
    st.builds(lambda kind, rest: json.dumps({"t": kind, **rest}), st.sampled_from(KINDS),
              OBJECTS),
    st.builds(json.dumps, OBJECTS), st.text(max_size=60),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
    st.sampled_from(['{"t": "go"}', '{"t": "tap", "slot": 6}', '{"t": "gear", "gear": 2}',
                     '{"t": "leave"}', f'{{"t": "pin", "pin": "{PIN}"}}', '{"t": "lock"}',
                     '{"t": "free", "seat": 1}', "x" * 600]))


def _frames_ok(client: Client) -> None:
    for frame in client.outbox:
        data = json.loads(frame)
        assert data["t"] in ("hello", "seat", "err", "left", "bye", "staff", "seats", "freed",
                             "join")
        if data["t"] == "err":
            assert "\n" not in data["msg"] and "Traceback" not in data["msg"]
    client.outbox.clear()


@settings(max_examples=300, deadline=None)
@given(messages=st.lists(st.tuples(st.booleans(), MESSAGES), max_size=25))
def test_random_messages_keep_the_table_healthy(messages: list[tuple[bool, str]]) -> None:
    table, seats, seated, stranger = _table()
    for from_seated, text in messages:
        client = seated if from_seated else stranger
        seats.handle(client, text)
        _frames_ok(client)
        assert seated.seat in (None, 1, 2) and stranger.seat in (None, 1, 2)
    assert table.healthy() and table.state in flow.STATES
    assert table.stations[0].name == "S1"  # the wired station: never a phone's
    held = [c.seat for c in (seated, stranger) if c.seat is not None]
    assert len(held) == len(set(held))  # never two phones at one seat


@settings(max_examples=200, deadline=None)
@given(messages=st.lists(MESSAGES, max_size=25))
def test_a_phone_without_a_seat_changes_nothing_at_the_table(messages: list[str]) -> None:
    table, seats, _, stranger = _table()
    before = ([st.joined for st in table.stations], [st.name for st in table.stations],
              table.state, table.handled[:])
    for text in messages:
        if '"join"' in text or '"resume"' in text or PIN in text:
            continue  # taking a seat is what a stranger may do; freeing one, staff
        seats.handle(stranger, text)
        _frames_ok(stranger)
    after = ([st.joined for st in table.stations], [st.name for st in table.stations],
             table.state, table.handled[:])
    assert after == before
