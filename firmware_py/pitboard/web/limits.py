"""Bounds on what the LAN can ask of the server: how many connections, how many messages a
second, how many wrong codes and PINs. A store's network is not trusted: a phone (or anything
else on the Wi-Fi) can flood, guess, or hold connections open, and must not slow the table.

* :data:`MAX_CONNECTIONS` TCP connections in all (more are closed at once), of which
  :data:`MAX_SOCKETS` WebSockets, :data:`MAX_SOCKETS_PER_ADDRESS` from one address;
* a WebSocket message is at most :data:`~pitboard.web.protocol.MAX_MESSAGE` bytes;
* :class:`TokenBucket`: :data:`MESSAGE_RATE` messages a second with bursts of
  :data:`MESSAGE_BURST` (a person taps a few times a second); a socket that keeps going over
  is closed;
* :class:`Guesses`: wrong join codes and wrong staff PINs are counted per address with the
  console's rule (:mod:`pitboard.staffpin`: 5 in a row lock that address out for a minute),
  and the staff PIN also for all addresses together (:data:`PIN_FAILURES_ANYWHERE`).

Example::

    >>> bucket = TokenBucket(rate=2, burst=3, now=0.0)
    >>> [bucket.take(0.0) for _ in range(4)], bucket.take(0.5)
    ([True, True, True, False], True)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from ..staffpin import PinCheck, PinLockout

MAX_CONNECTIONS: Final = 64
MAX_SOCKETS: Final = 32
MAX_SOCKETS_PER_ADDRESS: Final = 6
MESSAGE_RATE: Final = 15.0
MESSAGE_BURST: Final = 30
#: a socket over the rate this many times in a row (each refused message) is closed
MAX_REFUSED: Final = 40
#: wrong staff PINs from any addresses, in a row, before PIN entry is locked for everyone
PIN_FAILURES_ANYWHERE: Final = 20
#: addresses whose wrong guesses are remembered (the oldest quiet one is forgotten first)
ADDRESSES: Final = 256


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; a message takes one.

    Example::

        >>> TokenBucket(rate=1, burst=1, now=0.0).take(0.0)
        True
    """

    def __init__(self, *, rate: float = MESSAGE_RATE, burst: int = MESSAGE_BURST,
                 now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = now

    def take(self, now: float) -> bool:
        """Take a token if there is one."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Guesses:
    """Wrong secrets (join codes or PINs) per client address, each address with its own
    :class:`~pitboard.staffpin.PinLockout`; with ``anywhere``, also all addresses together.

    Example::

        >>> guesses = Guesses(clock=lambda: 0.0)
        >>> [guesses.check("10.0.0.9", "1111", "2468").reason for _ in range(6)][-2:]
        ['wrong PIN; PIN entry locked for 60 s', 'too many wrong PINs, try again in 61 s']
        >>> guesses.check("10.0.0.10", "2468", "2468").ok  # another address is not locked
        True
    """

    def __init__(self, *, clock: Callable[[], float], anywhere: int = 0,
                 what: str = "PIN") -> None:
        self.clock = clock
        self.what = what
        self._by_address: OrderedDict[str, PinLockout] = OrderedDict()
        self._anywhere = PinLockout(max_failures=anywhere, clock=clock) if anywhere else None

    def check(self, address: str, given: str, secret: str) -> PinCheck:
        """Compare ``given`` with ``secret`` for a client at ``address``."""
        gate = self._by_address.get(address)
        if gate is None:
            gate = self._by_address[address] = PinLockout(clock=self.clock)
            while len(self._by_address) > ADDRESSES:  # bounded: forget the oldest
                self._by_address.popitem(last=False)
        self._by_address.move_to_end(address)
        if self._anywhere is not None and self._anywhere.locked():
            return self._anywhere.check(given, secret)  # refused, and says for how long
        check = gate.check(given, secret)
        if self._anywhere is not None and check.failures:
            self._anywhere.fail()  # one more wrong one, anywhere
        elif self._anywhere is not None and check.ok:
            self._anywhere.failures = 0
        if self.what != "PIN" and not check.ok:
            return PinCheck(False, check.reason.replace("PIN", self.what), check.failures)
        return check
