"""The staff PIN's checks, one rule for every way in: the serial console
(:mod:`pitboard.console`) and the phones' web pages (:mod:`pitboard.web`).

A PIN is compared in constant time; :data:`MAX_PIN_FAILURES` wrong ones in a row lock PIN entry
for :data:`PIN_LOCKOUT` seconds (a brute force of a 4-digit PIN then takes days); an unlocked
session locks itself after :data:`UNLOCK_IDLE` seconds without a word. Each console session
has its own :class:`PinLockout`; the web server keeps one per client address and one for all
of them together.

Example::

    >>> now = [0.0]
    >>> gate = PinLockout(max_failures=2, lockout=60, clock=lambda: now[0])
    >>> [gate.check("1111", "2468").reason for _ in range(3)]
    ['wrong PIN', 'wrong PIN; PIN entry locked for 60 s', 'too many wrong PINs, try again in 61 s']
    >>> now[0] = 60.0; gate.check("2468", "2468").ok
    True
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

#: wrong PINs in a row before PIN entry is refused for :data:`PIN_LOCKOUT` seconds
MAX_PIN_FAILURES: Final = 5
PIN_LOCKOUT: Final = 60.0
#: an unlocked session locks itself after this long without a line
UNLOCK_IDLE: Final = 600.0


@dataclass(frozen=True, slots=True)
class PinCheck:
    """The answer to one PIN entry: right, or why not (``failures``: wrong ones in a row,
    counting this one; 0 when it was not even compared, during a lockout).

    Example::

        >>> PinCheck(ok=False, reason="wrong PIN", failures=1).reason
        'wrong PIN'
    """

    ok: bool
    reason: str = ""
    failures: int = 0


class PinLockout:
    """Checks PIN entries and locks entry out after too many wrong ones in a row.

    Example::

        >>> PinLockout().check("2468", "2468")
        PinCheck(ok=True, reason='', failures=0)
    """

    def __init__(self, *, max_failures: int = MAX_PIN_FAILURES, lockout: float = PIN_LOCKOUT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures = max_failures
        self.lockout = lockout
        self.clock = clock
        self.failures = 0
        self.locked_until = 0.0

    def locked(self) -> float:
        """Seconds of lockout left (0: PINs are taken)."""
        return max(0.0, self.locked_until - self.clock())

    def check(self, given: str, pin: str) -> PinCheck:
        """Compare ``given`` with the staff ``pin`` (constant time), counting failures."""
        now = self.clock()
        if now < self.locked_until:
            left = int(self.locked_until - now) + 1
            return PinCheck(False, f"too many wrong PINs, try again in {left} s")
        if hmac.compare_digest(given.encode(), pin.encode()):
            self.failures = 0
            return PinCheck(True)
        return self.fail()

    def fail(self) -> PinCheck:
        """Count one wrong PIN (locking entry out after too many in a row)."""
        self.failures += 1
        failures = self.failures
        if failures >= self.max_failures:
            self.failures = 0
            self.locked_until = self.clock() + self.lockout
            return PinCheck(False, f"wrong PIN; PIN entry locked for {self.lockout:g} s", failures)
        return PinCheck(False, "wrong PIN", failures)
