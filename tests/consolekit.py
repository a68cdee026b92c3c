"""Test kit for the staff console: a table with its protocol on a fake clock, and readers for
its replies."""

from __future__ import annotations

from typing import Any

from pitboard.console import ConsoleProtocol
from pitboard.table.table import Table

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

