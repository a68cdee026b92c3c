"""The shuffle stream: pinned values, no bias, no dependence on hash randomisation."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from itertools import permutations
from math import factorial

from pitboard.engine import Race, RaceSetup
from pitboard.engine.shuffle import (
    _PAIR_TABLES,
    GAMMA,
    MASK64,
    PAIRED_RADIX,
    Stream,
    _draw_plan,
    mix64,
    seed_key,
    shuffle_cards,
    stream_start,
)


def test_mix64_is_splitmix64() -> None:
    # the first two outputs of the published SplitMix64 from state 0
    assert mix64(GAMMA) == 0xE220A8397B1DCDAF
    assert mix64(2 * GAMMA & MASK64) == 0x6E789E6AA1B965F4


def test_stream_values_are_pinned() -> None:
    key = seed_key(0)
    assert key == 0x3D022BB6887F4D2F
    assert stream_start(key, 1) == 0xA31E53EAF114A6CF
    cards = list(range(10))
    shuffle_cards(cards, key, 1)
    assert cards == [1, 4, 2, 7, 5, 8, 9, 3, 6, 0]
    cards = list(range(30))  # three 64-bit words per draw
    shuffle_cards(cards, seed_key(42), 7)
    assert cards == [29, 14, 6, 20, 12, 17, 7, 24, 25, 1, 0, 9, 16, 8, 2, 18, 5, 13, 10, 23, 3,
                     21, 27, 15, 26, 28, 11, 19, 22, 4]


def _fisher_yates(cards: list[int], key: int, n: int) -> None:
    """The shuffle as its docstring defines it: one uniform r below m!, read a digit per divmod
    from the last position down (the definition the fast paths must deal alike)."""
    m = len(cards)
    words, limit = _draw_plan(m)
    state = stream_start(key, n)
    while True:
        r = 0
        for _ in range(words):
            state = (state + GAMMA) & MASK64
            r = (r << 64) | mix64(state)
        if r < limit:
            break
    for i in range(m - 1, 0, -1):
        r, j = divmod(r, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def test_long_decks_deal_as_the_definition_without_large_tables() -> None:
    # around the radix where pairs give way to single digits, and the Garage's 120-card pool
    for m in (2, 3, 17, 18, PAIRED_RADIX - 1, PAIRED_RADIX, PAIRED_RADIX + 1, PAIRED_RADIX + 2,
              60, 120, 121):
        for n in range(1, 6):
            fast, plain = list(range(m)), list(range(m))
            shuffle_cards(fast, seed_key(m), n)
            _fisher_yates(plain, seed_key(m), n)
            assert fast == plain, (m, n)
    assert max(_PAIR_TABLES) <= PAIRED_RADIX  # no table for the long decks' radices


def test_seed_keys_keep_seeds_apart() -> None:
    seeds = [0, 1, 2, 7, 2**31 - 1, 2**63, 2**64 - 2, -7]
    assert len({seed_key(s) for s in seeds}) == len(seeds)
    assert seed_key(-1) == seed_key(2**64 - 1) == seed_key(2**128 - 1)  # documented: mod 2**64


def test_every_permutation_is_equally_likely() -> None:
    # 4 cards, 24 permutations, 24000 shuffles: each count within 5 sigma of 1000
    key = seed_key(5)
    counts: Counter[tuple[str, ...]] = Counter()
    for n in range(24_000):
        cards = ["a", "b", "c", "d"]
        shuffle_cards(cards, key, n)
        counts[tuple(cards)] += 1
    assert set(counts) == set(permutations("abcd"))
    assert all(abs(c - 1000) < 5 * 31 for c in counts.values())


def test_each_card_lands_everywhere_equally_often() -> None:
    # a 20-card deck (m! needs two words): where card 0 ends, over 20000 shuffles
    key = seed_key(9)
    places: Counter[int] = Counter()
    for n in range(20_000):
        cards = list(range(20))
        shuffle_cards(cards, key, n)
        places[cards.index(0)] += 1
    assert len(places) == 20 and all(abs(c - 1000) < 5 * 31 for c in places.values())


def test_draw_plan_rejects_only_the_uneven_tail() -> None:
    for m in (2, 3, 17, 20, 21, 40, 60):
        words, limit = _draw_plan(m)
        span = 1 << (64 * words)
        assert limit % factorial(m) == 0 and 0 <= span - limit < factorial(m)
        assert (span - limit) / span < 2**-16  # a redraw is rare


def test_tiny_piles_are_left_alone() -> None:
    for cards in ([], ["4"]):
        before = list(cards)
        shuffle_cards(cards, seed_key(1), 1)
        assert cards == before


def test_same_seed_same_deal_under_any_hash_seed() -> None:
    code = ("from pitboard.engine import Race, RaceSetup\n"
            "r = Race(RaceSetup(track='usa', cars=6, seed=99))\n"
            "print([c.hand + c.draw for c in r.cars], r.order)")
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        outputs.add(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    here = Race(RaceSetup(track="usa", cars=6, seed=99))
    assert outputs == {f"{[c.hand + c.draw for c in here.cars]} {here.order}\n"}


def test_a_restored_race_shuffles_as_the_original() -> None:
    # the stream depends on the seed and the shuffle count only, never on earlier draws
    a = Race(RaceSetup(track="usa", cars=2, seed=3))
    b = Race(RaceSetup(track="usa", cars=2, seed=3))
    b.shuffles = a.shuffles
    pile_a, pile_b = list("1234512345HH"), list("1234512345HH")
    a.shuffle(pile_a)
    b.shuffle(pile_b)
    assert pile_a == pile_b and a.shuffles == b.shuffles


def test_bot_stream_is_pinned_and_uniform() -> None:
    # the bots' choices: SplitMix64 words of shuffle 0 of the seed, the same on every platform
    s = Stream(2026)
    assert [s.word() for _ in range(2)] == [8875613128665061296, 1389388505592136758]
    assert [s.below(6) for _ in range(10)] == [4, 4, 1, 3, 0, 0, 3, 0, 0, 2]
    assert Stream(2026).sample("ABCDEFG", 3) == ["A", "B", "F"]
    five = Stream(5)
    counts = Counter(five.below(3) for _ in range(3000))
    assert set(counts) == {0, 1, 2} and min(counts.values()) > 900


def test_random_bot_replays_under_any_hash_seed() -> None:
    code = ("from pitboard.bots import RandomBot\n"
            "from pitboard.engine import Race, RaceSetup\n"
            "r = Race(RaceSetup(track='usa', cars=3, seed=4, laps=1)); b = RandomBot(seed=4)\n"
            "while not r.over: r.apply(b.choose(r, r.waiting_for()))\n"
            "print(len(r.log), r.hall_of_fame, [str(d) for d in r.log[:9]])")
    outputs = {subprocess.run([sys.executable, "-c", code], check=True, text=True,
                              capture_output=True, env=dict(os.environ, PYTHONHASHSEED=h)).stdout
               for h in ("0", "7")}
    assert len(outputs) == 1
