"""The Legend cards: the data file ``legend_cards.toml`` and its loader.

Example::

    >>> deck = load_legend_cards()
    >>> len(deck.cards), deck.colours[0]
    (10, 'black')
    >>> deck.cards[0].entry("blue")
    LegendEntry(speed=18, diamond=3)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..datafile import Fields, read_toml

#: top speeds are checked against this range (the printed cards use 10..19)
MAX_SPEED = 40
MAX_DIAMOND = 3


class LegendEntry(NamedTuple):
    """One helmet on one card: the top speed and the diamond (0-3).

    Example::

        >>> entry = load_legend_cards().card(1).entry("yellow")
        >>> entry
        LegendEntry(speed=11, diamond=0)
        >>> entry.speed + 2             # Pro Legends +2: the top speed on a straight
        13
    """

    speed: int
    diamond: int


@dataclass(frozen=True, slots=True)
class LegendCard:
    """One Legend card: its number (1-based, as printed) and an entry per helmet colour.

    Example::

        >>> card = load_legend_cards().card(2)
        >>> card.number, card.entry("gray"), list(card.entries)[:2]
        (2, LegendEntry(speed=19, diamond=3), ['black', 'blue'])
    """

    number: int
    entries: dict[str, LegendEntry]

    def entry(self, colour: str) -> LegendEntry:
        return self.entries[colour]


@dataclass(frozen=True, slots=True)
class LegendDeck:
    """Every Legend card and the helmet colours, in the file's order.

    Example::

        >>> deck = load_legend_cards()
        >>> deck.colours
        ('black', 'blue', 'green', 'red', 'gray', 'yellow')
        >>> deck.card(10) is deck.cards[-1]    # cards by their printed number
        True
        >>> sorted(card.entry("red").speed for card in deck.cards) == list(range(10, 20))
        True
    """

    colours: tuple[str, ...]
    cards: tuple[LegendCard, ...]

    def card(self, number: int) -> LegendCard:
        return self.cards[number - 1]


@functools.cache
def load_legend_cards(path: str | None = None) -> LegendDeck:
    """The shipped Legend cards, or those of ``path``; DataFileError (one line) if broken."""
    source, doc = read_toml(__package__ or "pitboard.engine.legends", "legend_cards.toml",
                            Path(path) if path is not None else None)
    check = Fields(source)
    check.keys(doc, "", ("colours", "cards"))
    colours = doc["colours"]
    if not isinstance(colours, list) or not colours or \
            not all(isinstance(c, str) and c.isalpha() and c.islower() for c in colours):
        check.fail("colours", "must be an array of lower-case colour names")
    if len(set(colours)) != len(colours):
        check.fail("colours", "names a colour twice")
    cards = []
    for i, table in enumerate(check.tables(doc, "cards"), start=1):
        where = f"cards[{i}]"
        check.keys(table, where, ("number", *colours))
        number = check.integer(table, "number", f"{where}.number", 1, len(doc["cards"]))
        if number != i:
            check.fail(f"{where}.number", f"cards go in order: expected {i}, got {number}")
        entries = {}
        for colour in colours:
            value = table[colour]
            if not isinstance(value, list) or len(value) != 2:
                check.fail(f"{where}.{colour}", "must be [top speed, diamond]")
            pair = {"speed": value[0], "diamond": value[1]}
            entries[colour] = LegendEntry(
                check.integer(pair, "speed", f"{where}.{colour} top speed", 1, MAX_SPEED),
                check.integer(pair, "diamond", f"{where}.{colour} diamond", 0, MAX_DIAMOND))
        cards.append(LegendCard(number, entries))
    return LegendDeck(tuple(colours), tuple(cards))
