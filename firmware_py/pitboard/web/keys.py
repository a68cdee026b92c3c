"""Seat tokens: the secret that makes a phone the holder of its seat.

A token is 32 random bytes (``secrets.token_urlsafe``) handed to the phone that takes a seat;
the phone keeps it (``localStorage``) and shows it again after a reload, a sleep or a lost
Wi-Fi. Only the holder of a seat's current token acts for that seat. A token is bound to the
seat's generation (:mod:`pitboard.table.phone_seats`): when the seat changes hands -- the
phone left, staff freed it -- the generation moves on and the old token is worthless.

Lives on the web thread only; compared in constant time.

Example::

    >>> keys = SeatKeys(clock=lambda: 0.0)
    >>> token = keys.issue(2, generation=1)
    >>> keys.check(2, token), keys.check(2, "x" * 43), keys.check(3, token)
    (True, False, False)
    >>> from pitboard.table.phone_seats import SeatView
    >>> keys.sync([SeatView(2, holder="", generation=2, joined=False, playing=False)])
    [2]
    >>> keys.check(2, token)
    False
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..table.phone_seats import SeatView

#: a claim the table has not confirmed this long after it was posted is given up (the seat
#: was taken at the keyboard meanwhile): the phone is told to try again
CLAIM_TIMEOUT = 5.0


@dataclass
class _Key:
    token: str
    #: the seat's generation this token belongs to
    generation: int
    #: when the claim was posted; None once the table's seat views confirmed it
    pending_since: float | None


class SeatKeys:
    """The tokens of the seats phones hold (see the module docstring).

    Example::

        >>> keys = SeatKeys(clock=lambda: 0.0)
        >>> len(keys.issue(0, generation=1)), keys.held()
        (43, [0])
    """

    def __init__(self, *, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._keys: dict[int, _Key] = {}

    def issue(self, seat: int, *, generation: int) -> str:
        """A new token for ``seat``, valid at ``generation`` (the one the claim brings about);
        pending until the table confirms the claim."""
        token = secrets.token_urlsafe(32)
        self._keys[seat] = _Key(token, generation, self.clock())
        return token

    def check(self, seat: int, token: str) -> bool:
        """Is ``token`` the current token of ``seat``?"""
        key = self._keys.get(seat)
        # compare even without a key, so the time taken says nothing about the seats
        want = key.token if key is not None else "-" * 43
        return hmac.compare_digest(token.encode(), want.encode()) and key is not None

    def generation(self, seat: int) -> int | None:
        """The generation ``seat``'s token belongs to (None: no token)."""
        key = self._keys.get(seat)
        return key.generation if key is not None else None

    def revoke(self, seat: int) -> None:
        """Forget ``seat``'s token (the phone left, or staff freed the seat)."""
        self._keys.pop(seat, None)

    def held(self) -> list[int]:
        """The seats with a token."""
        return sorted(self._keys)

    def sync(self, seats: Iterable[SeatView]) -> list[int]:
        """Follow the table's seat views: confirm pending claims, drop tokens of seats that
        changed hands or claims that never came through; return the seats dropped."""
        dropped = []
        now = self.clock()
        for seat in seats:
            key = self._keys.get(seat.station)
            if key is None:
                continue
            if seat.generation == key.generation and seat.holder:
                key.pending_since = None
            elif seat.generation > key.generation or (
                    key.pending_since is not None and now - key.pending_since > CLAIM_TIMEOUT):
                del self._keys[seat.station]
                dropped.append(seat.station)
        return dropped
