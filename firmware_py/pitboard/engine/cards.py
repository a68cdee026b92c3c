"""Card types.

A card in a pile is just its code (a short string), so piles are plain lists that copy, compare
and serialize cheaply; everything else about a card lives in its :class:`CardType`. Modules add
types (Garage upgrades, sponsors) with :func:`register` without touching the engine's piles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

HEAT = "H"
STRESS = "S"
#: the only cards that stop a Stress or Boost flip
BASIC = frozenset({"1", "2", "3", "4"})

#: symbols a card may carry (the Garage set); base cards carry none
SYMBOLS = frozenset(
    {
        "boost", "heat", "scrap", "cooldown", "reduce", "slipstream", "adjust", "refresh",
        "salvage", "direct", "accelerate", "supercool", "draft", "onetime",
    }
)


@dataclass(frozen=True, slots=True)
class CardType:
    """What a card code means.

    Example::

        >>> CARD_TYPES["5"].speed, CARD_TYPES["5"].basic
        (5, False)
    """

    code: str
    name: str
    speed: int = 0
    basic: bool = False
    heat: bool = False
    stress: bool = False
    #: Garage symbols as (symbol, n) pairs, in printed order
    symbols: tuple[tuple[str, int], ...] = ()

    @property
    def playable(self) -> bool:
        """Heat cards may only be played to fill a clogged hand."""
        return not self.heat

    @property
    def discardable(self) -> bool:
        """Step 8 never lets Heat or Stress leave the hand."""
        return not (self.heat or self.stress)


CARD_TYPES: dict[str, CardType] = {}
#: flat lookups for the hot path, kept in step with CARD_TYPES by register()
SPEED: dict[str, int] = {}
PLAYABLE: dict[str, bool] = {}
DISCARDABLE: dict[str, bool] = {}
#: the codes that are not playable / not discardable (Heat; Heat and Stress), as sets: one C
#: call (``UNPLAYABLE.isdisjoint(cards)``, ``UNDISCARDABLE.issuperset(hand)``) tests a whole
#: pile, where a lookup per card costs several times more on the engine's hot path
UNPLAYABLE: set[str] = set()
UNDISCARDABLE: set[str] = set()


def register(card: CardType) -> CardType:
    """Add a card type (modules call this); codes are unique."""
    for symbol, _ in card.symbols:
        if symbol not in SYMBOLS:
            raise ValueError(f"card {card.code}: unknown symbol {symbol!r}")
    if card.code in CARD_TYPES and CARD_TYPES[card.code] != card:
        raise ValueError(f"card code {card.code!r} already registered")
    CARD_TYPES[card.code] = card
    SPEED[card.code] = card.speed
    PLAYABLE[card.code] = card.playable
    DISCARDABLE[card.code] = card.discardable
    if not card.playable:
        UNPLAYABLE.add(card.code)
    if not card.discardable:
        UNDISCARDABLE.add(card.code)
    return card


for _v in (1, 2, 3, 4):
    register(CardType(str(_v), f"Speed {_v}", speed=_v, basic=True))
register(CardType("0", "Upgrade 0", speed=0))
register(CardType("5", "Upgrade 5", speed=5))
register(CardType(HEAT, "Heat", heat=True))
register(CardType(STRESS, "Stress", stress=True))

BASIC_SPEED_CARDS: tuple[str, ...] = tuple(str(v) for v in (1, 2, 3, 4) for _ in range(3))
STARTING_UPGRADES: tuple[str, ...] = ("0", "5", HEAT)


def starting_deck(stress: int, upgrades: Iterable[str] = STARTING_UPGRADES) -> list[str]:
    """The 12 basic Speed cards, the starting upgrades and ``stress`` Stress cards."""
    return [*BASIC_SPEED_CARDS, *upgrades, *([STRESS] * stress)]


def check_codes(cards: Iterable[str], where: str) -> None:
    """Raise ValueError naming ``where`` if a code is not a known card."""
    for code in cards:
        if code not in CARD_TYPES:
            known = ", ".join(sorted(CARD_TYPES))
            raise ValueError(f"{where}: unknown card {code!r} (known: {known})")
