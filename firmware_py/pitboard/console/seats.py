"""The console's ``seat`` command: phone seats, for staff (:mod:`pitboard.table.phone_seats`).

=======================  ======================================================================
``seat``                 every phone seat: who holds it, and the join code now
``seat STATION free``    * take the seat from the phone holding it: its token stops working,
                         and another phone takes the seat with the join code (the same
                         player's new phone, a phone that died mid-race)
=======================  ======================================================================

Taking a seat over from another device needs the old seat token or this command: the staff
PIN is what stands between a phone on a store's Wi-Fi and someone else's car.

Example::

    >>> from pitboard.console import ConsoleProtocol
    >>> from pitboard.table.phone_seats import PhoneSeats, SeatClaimed
    >>> from pitboard.table.table import Table
    >>> table = Table(stations=2, seed=1, phones=PhoneSeats([1], url="http://pi:8080/"))
    >>> table.handle(SeatClaimed(station=1, name="Alice", generation=0))
    >>> proto = ConsoleProtocol(table, staff_pin="2468")
    >>> proto.handle_line("seat")[0].split(";")[0]
    'OK S2 Alice'
    >>> proto.handle_line("seat 2 free")
    ["ERR locked: send 'pin <staff PIN>' first"]
    >>> proto.handle_line("pin 2468"), proto.handle_line("seat 2 free")[0].split(";")[0]
    (['OK unlocked'], "OK S2 freed (Alice's phone is out)")
"""

from __future__ import annotations

from typing import Protocol

from ..table.table import Table
from .command import CommandError, _Command, _Usage
from .link import TableLink


class _Session(Protocol):
    table: Table
    link: TableLink
    unlocked: bool


def seat_commands(session: _Session) -> dict[str, _Command]:
    """The ``seat`` command of one console session (its ``free`` needs the PIN)."""

    def run(args: list[str]) -> list[str]:
        table = session.table
        if not args:
            def holders() -> str:
                phones = table.phones
                if phones is None:
                    raise CommandError("this table has no phone seats ([web] in the profile)")
                seats = ", ".join(f"S{i + 1} {phones.holders.get(i, 'free')}"
                                  for i in phones.stations)
                return f"{seats}; join code {phones.code} at {phones.url}"

            return ["OK " + session.link.call(holders)]
        if len(args) != 2 or args[1].lower() != "free" or not args[0].isdigit() or \
                len(args[0]) > 2:
            raise _Usage
        if not session.unlocked:
            return ["ERR locked: send 'pin <staff PIN>' first"]
        station = int(args[0]) - 1

        def free() -> str:
            phones = table.phones
            if phones is None:
                raise CommandError("this table has no phone seats ([web] in the profile)")
            try:
                return phones.free(station, table.stations, table.state)
            except ValueError as exc:
                raise CommandError(str(exc)) from None

        return ["OK " + session.link.call(free)]

    return {"seat": _Command(run, "seat [STATION free]",
                             "phone seats, join code (free: * frees one)")}
