"""The deterministic shuffle: a race's seed and shuffle number give the order, everywhere.

Each shuffle of a race draws from its own stream of 64-bit words, derived from the race seed and
the shuffle's number by integer mixing (SplitMix64, Steele, Lea and Flood 2014). Only Python
integer arithmetic masked to 64 bits is involved: no ``random`` module, no ``hash()``, no floats,
so the same seed deals the same cards on the Pi's Python 3.11 as on any newer desktop Python,
and a restored race (which keeps its shuffle counter) shuffles as the original would.

The stream of shuffle ``n`` of a race with seed ``s`` (``s`` taken modulo 2**64)::

    state   = mix64(mix64(s ^ DOMAIN) ^ n)
    word[i] = mix64(state + (i + 1) * GAMMA)        (i = 0, 1, 2, ... ; all mod 2**64)

and :func:`shuffle_cards` turns words into a Fisher-Yates shuffle without bias (see there). Changing
any of this changes which cards every seed deals: pinned by ``tests/test_shuffle.py`` and the
golden race in ``tests/golden/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, repeat
from math import factorial
from typing import Any, TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
#: SplitMix64's increment: 2**64 / golden ratio, odd
GAMMA = 0x9E3779B97F4A7C15
#: keeps Pitboard's streams apart from anyone else's SplitMix64 of the same seed ("pitboard")
DOMAIN = 0x706974626F617264


#: mix64's multipliers
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit integers that scatters every input bit."""
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


def seed_key(seed: int) -> int:
    """A race seed (any Python int) as the 64-bit key of its streams.

    Seeds are taken modulo 2**64: seeds that agree there (-1 and 2**64 - 1) deal alike.
    """
    return mix64((seed & MASK64) ^ DOMAIN)


def stream_start(key: int, n: int) -> int:
    """The SplitMix64 state that shuffle number ``n`` of a race with ``key`` starts from."""
    return mix64(key ^ (n & MASK64))


@lru_cache(maxsize=64)
def _draw_plan(m: int) -> tuple[int, int]:
    """For shuffling ``m`` cards: 64-bit words to draw, and the rejection limit (a multiple of
    m! at most 2**(64 * words), so that a number below it is uniform modulo m!)."""
    total = factorial(m)
    words = (total.bit_length() + 16 + 63) // 64  # a redraw is needed less than once in 65536
    span = 1 << (64 * words)
    return words, span - span % total


def shuffle_cards(cards: list[Any], key: int, n: int) -> None:
    """Shuffle ``cards`` in place with shuffle number ``n`` of the race whose key is ``key``.

    An unbiased Fisher-Yates shuffle: for ``i`` from the last position down to 1, swap card
    ``i`` with card ``j``, ``j`` uniform over ``0..i``. The ``j``'s are the mixed-radix digits
    (radices m, m-1, ..., 2) of ONE integer ``r`` uniform over ``0..m!-1``: reading them off
    with ``divmod`` gives independent uniform digits, because mixed-radix notation is a
    bijection. ``r`` comes from the stream's words by rejection sampling: words are concatenated
    into a number below ``2**(64*w)``, and drawn again (next words of the same stream) while it
    is at or above the largest multiple of m! that fits, so every permutation is exactly
    equally likely.
    """
    m = len(cards)
    if m < 2:
        return
    plan = _PLANS.get(m)
    if plan is None:
        top = min(m, PAIRED_RADIX)  # positions top..m-1 a digit at a time, the rest in pairs
        plan = _PLANS[m] = (*_draw_plan(m), tuple(range(m - 1, top - 1, -1)), _digit_pairs(top))
    words, limit, singles, pairs = plan
    # mix64() written out (here and for each word): its calls cost a tenth of a 15-card shuffle
    z = key ^ (n & MASK64)  # stream_start()
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    state = z ^ (z >> 31)
    while True:
        state = z = (state + GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * _MIX1) & MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & MASK64
        r = z ^ (z >> 31)
        for _ in range(words - 1):  # decks of 17 cards and more: two words or more
            state = z = (state + GAMMA) & MASK64
            z = ((z ^ (z >> 30)) * _MIX1) & MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & MASK64
            r = (r << 64) | z ^ (z >> 31)
        if r < limit:
            break
    # a long deck's (the Garage's 120-card pool) high radices first, a digit per divmod: their
    # pair tables would be large
    for i in singles:
        r, j = divmod(r, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    # the other digits, read off two at a time: one divmod by the pair's radices' product, then
    # the two digits from two tables (a fifth cheaper than a division per digit)
    for size, i, k, low_digit, high_digit in pairs:
        r, low = divmod(r, size)
        j = low_digit[low]
        h = high_digit[low]
        cards[i], cards[j] = cards[j], cards[i]
        cards[k], cards[h] = cards[h], cards[k]


_Pairs = tuple[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], ...]
#: m -> (words, limit, single positions, digit pairs) for shuffling m cards: a dict, as an
#: lru_cache lookup cost ~6% of a shuffle (entries: the few dozen deck sizes a game has)
_PLANS: dict[int, tuple[int, int, tuple[int, ...], _Pairs]] = {}
#: radices above this go one digit per divmod: a pair table holds a * (a - 1) digits, so tables
#: up to the Garage draft pool's 120 cards would hold ~1.1 million (~9 MiB), built in every
#: fresh process (~70,000 instructions per car-turn over 40 Garage races); up to 32: ~21,000.
#: 24: a deck of the base game (22 cards at most) builds its tables anyway, so the Garage's
#: pool adds one; up to 32 its first shuffle built ~1.5 million instructions of tables (with
#: the garbage collector's passes over them), ~300 per car-turn over 20 cold Garage races
PAIRED_RADIX = 24
#: radix a -> for each low below a * (a - 1): low % a and low // a, the digits of radices a and
#: a - 1 (a = 2: the last digit, paired with a digit of radix 1, always 0). Two tuples of ints
#: build at C speed: for decks up to 19 cards ~1.1 million instructions, against 2.2 million for
#: one table of pairs (every fresh process builds them)
_PAIR_TABLES: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _digit_pairs(m: int) -> _Pairs:
    """The steps of :func:`shuffle_cards` two at a time: positions ``i`` and ``i - 1`` (radices
    ``i + 1`` and ``i``), from the last position down, with the product of their radices and
    their digit tables; an odd last step (position 1) pairs with a no-op (position 0, radix 1)."""
    pairs = []
    for i in range(m - 1, 0, -2):
        a = i + 1
        tables = _PAIR_TABLES.get(a)
        if tables is None:
            tables = _PAIR_TABLES[a] = (tuple(range(a)) * i,
                                        tuple(chain.from_iterable(repeat(h, a) for h in range(i))))
        pairs.append((a * i, i, i - 1, *tables))
    return tuple(pairs)


class Stream:
    """A seeded stream of uniform choices built on the same SplitMix64 words: what a bot draws
    from, so a bot race replays alike on every platform and Python version (``random.Random``'s
    ``choice`` and ``sample`` may change between versions). A bot's stream is shuffle number 0
    of its seed, a number no race shuffle uses.

    Example::

        >>> a, b = Stream(7), Stream(7)
        >>> [a.below(6) for _ in range(8)] == [b.below(6) for _ in range(8)]
        True
        >>> sorted(Stream(1).sample("abcde", 5))
        ['a', 'b', 'c', 'd', 'e']
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = stream_start(seed_key(seed), 0)

    def word(self) -> int:
        """The next 64-bit word."""
        self._state = (self._state + GAMMA) & MASK64
        return mix64(self._state)

    def below(self, n: int) -> int:
        """Uniform over ``0 .. n - 1`` (words at or above the largest multiple of ``n`` under
        2**64 are drawn again, so there is no modulo bias)."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        limit = (MASK64 + 1) - (MASK64 + 1) % n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly."""
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct positions of ``items`` in random order (a partial Fisher-Yates)."""
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
