"""Choosing upgrades before the race: the pool, random hands, the draft and the snake draft.

Draft (the rulebook's): 3 rounds; each round a market of (drafting players + 3) cards is dealt
from the shuffled pool; rounds 1 and 3 pick from the last grid position to the first, round 2
from the first to the last; leftovers are discarded.

Snake draft (Board Game Arena's): 2 rounds; each round a market of (2 × players + 3) cards; every
player picks twice, in the draft's order for the round and then back (round 1: last to first and
back, round 2: first to last and back); after both rounds each player drops one of their 4 cards
to keep 3.

Between the races of a championship season (:mod:`pitboard.engine.championship.season`): the
upgrades each car owns stay in its deck; one draft round (a market of drafting players + 3,
the order given: the last placed picks first), then each player in the same order may swap one
upgrade they own for one left in the market (:class:`DraftSwap`; the card given back joins the
market, so a later player may take it).

A pick is a decision (:class:`DraftPick`, :class:`DraftDrop`, :class:`DraftSwap`): it replays,
undoes and journals like a plan.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from ..decisions import DecisionKind, register_decision
from .data import UPGRADES, Upgrade, parse_key

DRAFT = "draft"
#: how cars get their upgrades; "none": they keep the starting upgrades (the module then only
#: plays the cards others deal, a championship's sponsors)
CHOOSE = ("random", "draft", "snake", "none")
POOLS = ("basic", "advanced", "all")
COPIES = 2
PICKS = 3


class DraftPick(NamedTuple):
    """Take ``card`` (an upgrade key such as ``U7``) from the market.

    Example: the first pick of a two-car draft, from the market the race shows; the same pick
    again is refused (the card is taken, and it is the other car's turn)::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
        ...                       modules={"garage": {"choose": "draft"}}))
        >>> pending = race.pending()
        >>> pick = pending.options[0]
        >>> isinstance(pick, DraftPick), pick.car == pending.cars[0]
        (True, True)
        >>> race.apply(pick)
        >>> race.apply(DraftPick(car=pick.car, card=pick.card))
        Traceback (most recent call last):
        ...
        pitboard.engine.decisions.IllegalDecision: waiting for a draft pick from car 1, not car 0
    """

    car: int
    card: str

    def __str__(self) -> str:
        return f"draft {self.car} {self.card}"


class DraftDrop(NamedTuple):
    """Snake draft, at the end: give back ``card`` to keep the other three.

    Example: two cars, two rounds of two picks each; then each car, car 0 first, drops one::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
        ...                       modules={"garage": {"choose": "snake"}}))
        >>> for _ in range(8):
        ...     race.apply(race.pending().options[0])
        >>> [str(drop) for drop in race.pending().options]
        ['drop 0 U34', 'drop 0 U18', 'drop 0 U26', 'drop 0 U14']
        >>> race.apply(DraftDrop(car=0, card="U34"))
        >>> race.hooks.by_key["garage"].picks[0], race.pending().cars
        (['U18', 'U26', 'U14'], (1,))
    """

    car: int
    card: str

    def __str__(self) -> str:
        return f"drop {self.car} {self.card}"


class DraftSwap(NamedTuple):
    """Championship, after a season's draft round: give back ``give`` (an upgrade the car owns)
    and take ``take`` from the market instead; both empty: keep the upgrades as they are.

    Example: two cars, the second race of a season; each owns three upgrades and picks one,
    the last placed (car 1) first; then each may swap::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, modules={"garage": {
        ...     "choose": "draft", "rounds": 1, "swap": True, "order": [1, 0],
        ...     "kept": {"0": ["U1", "U2", "U3"], "1": ["U4", "U5", "U6"]}}}))
        >>> race.apply(race.pending().options[0]); race.apply(race.pending().options[0])
        >>> garage = race.hooks.by_key["garage"]
        >>> garage.picks[1], garage.market, str(race.pending().options[-1])
        (['U4', 'U5', 'U6', 'U2'], ['U34', 'U26', 'U36'], 'swap 1 -')
        >>> race.apply(DraftSwap(car=1, give="U4", take="U26"))
        >>> race.apply(DraftSwap(car=0, give="", take=""))
        >>> garage.picks[1], race.pending().kind
        (['U26', 'U5', 'U6', 'U2'], 'plan')
    """

    car: int
    give: str
    take: str

    def __str__(self) -> str:
        if not self.give:
            return f"swap {self.car} -"
        return f"swap {self.car} {self.give} {self.take}"


#: a pick or drop, made once per car and card (decisions are values; a NamedTuple's own
#: constructor is a Python call, the cache's lookup is not)
draft_pick = cache(DraftPick)
draft_drop = cache(DraftDrop)


def _key(car: int, words: list[str], kind: str) -> str:
    if len(words) != 1:
        raise ValueError(f"expected '{kind} CAR CARD' (an upgrade such as U7)")
    return parse_key(words[0], kind).key


def _from_dict(make: type, kind: str) -> object:
    def build(car: int, data: dict[str, object]) -> object:
        card = data.get("card")
        if not isinstance(card, str):
            raise ValueError(f"{kind} needs 'card' (an upgrade such as U7)")
        return make(car, parse_key(card, kind).key)
    return build


register_decision(DecisionKind(
    DRAFT, DraftPick, lambda d: {"card": d.card}, _from_dict(DraftPick, DRAFT),  # type: ignore
    lambda car, words: DraftPick(car, _key(car, words, DRAFT))))


def _parse_swap(car: int, words: list[str]) -> DraftSwap:
    if words == ["-"]:
        return DraftSwap(car, "", "")
    if len(words) != 2:
        raise ValueError("expected 'swap CAR GIVE TAKE' (two upgrades such as U7) or "
                         "'swap CAR -'")
    return DraftSwap(car, parse_key(words[0], "swap").key, parse_key(words[1], "swap").key)


def _swap_from_dict(car: int, data: dict[str, object]) -> DraftSwap:
    give, take = data.get("give", ""), data.get("take", "")
    if not isinstance(give, str) or not isinstance(take, str) or bool(give) != bool(take):
        raise ValueError("swap needs 'give' and 'take' (upgrades such as U7), or neither")
    if not give:
        return DraftSwap(car, "", "")
    return DraftSwap(car, parse_key(give, "swap").key, parse_key(take, "swap").key)


register_decision(DecisionKind(
    "drop", DraftDrop, lambda d: {"card": d.card}, _from_dict(DraftDrop, "drop"),  # type: ignore
    lambda car, words: DraftDrop(car, _key(car, words, "drop"))))
register_decision(DecisionKind(
    "swap", DraftSwap, lambda d: {"give": d.give, "take": d.take} if d.give else {},
    _swap_from_dict, _parse_swap))


def pool(tier: str, expansions: bool) -> list[str]:
    """The draft deck before shuffling: 2 copies of each type of ``tier`` (basic 1-17,
    advanced 18-48, all), plus types 49-60 with the expansions (they are advanced cards)."""
    return list(_pool(tier, expansions))


def pool_size(tier: str, expansions: bool) -> int:
    """How many cards :func:`pool` holds (without copying it)."""
    return len(_pool(tier, expansions))


@cache
def _pool(tier: str, expansions: bool) -> tuple[str, ...]:
    def wanted(u: Upgrade) -> bool:
        if u.tier == "sponsor" or (u.expansion and not expansions):
            return False
        return tier == "all" or u.tier == tier
    return tuple(u.key for u in UPGRADES.values() if wanted(u) for _ in range(COPIES))


def pick_order(rnd: int, grid: list[int], snake: bool) -> list[int]:
    """Who picks in draft round ``rnd`` (1-based), given the grid (pole first).

    The order, one place to change it: rounds 1 and 3 from the last grid position to the first,
    round 2 from the first to the last (the rulebook summary, ../shared/seeds/001, and
    modules.md section 2); the snake draft's rounds go that way and back (modules.md: Board Game
    Arena's ``stPrepareGarageDraft`` appends the reversed order, so its round 2 starts at pole).

    >>> pick_order(1, [2, 0, 1], snake=False), pick_order(2, [2, 0, 1], snake=False)
    ([1, 0, 2], [2, 0, 1])
    >>> pick_order(1, [2, 0, 1], snake=True), pick_order(2, [2, 0, 1], snake=True)
    ([1, 0, 2, 2, 0, 1], [2, 0, 1, 1, 0, 2])
    """
    order = list(reversed(grid)) if rnd in (1, 3) else list(grid)
    return order + order[::-1] if snake else order


def market_size(players: int, snake: bool) -> int:
    return 2 * players + 3 if snake else players + 3
