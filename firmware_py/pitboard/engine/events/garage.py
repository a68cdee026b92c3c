"""The Garage module's events: the draft of upgrade cards and what those cards do in a race.

Each kind's doctest shows its JSON form; ``docs/events.md`` lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import CarEvent, Event, register_event


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class MarketDealt(Event):
    """Draft round ``draft_round``: the upgrade ``cards`` dealt to the market.

    Example::

        >>> MarketDealt(draft_round=1, cards=("U7", "U21"), round=0).to_dict()
        {'draft_round': 1, 'cards': ['U7', 'U21'], 'type': 'draft_market', 'round': 0}
    """

    kind = "draft_market"
    draft_round: int
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Drafted(CarEvent):
    """A car took ``card`` from the draft market.

    Example::

        >>> Drafted(car=0, card="U7", round=0).to_dict()
        {'car': 0, 'card': 'U7', 'type': 'draft_pick', 'round': 0}
    """

    kind = "draft_pick"
    card: str


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class DraftDropped(CarEvent):
    """Snake draft: a car gave back ``card`` to keep its other three.

    Example::

        >>> DraftDropped(car=1, card="U21", round=0).to_dict()
        {'car': 1, 'card': 'U21', 'type': 'draft_drop', 'round': 0}
    """

    kind = "draft_drop"
    card: str


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Swapped(CarEvent):
    """Championship, after a season's draft round: a car gave back ``give`` for ``take`` from
    the market (both None: it kept its upgrades).

    Example::

        >>> Swapped(car=1, give="U4", take="U20", round=0).to_dict()
        {'car': 1, 'give': 'U4', 'take': 'U20', 'type': 'swap', 'round': 0}
    """

    kind = "swap"
    give: str | None
    take: str | None


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class UpgradeReplaced(CarEvent):
    """The engine could not pay the Heat of upgrade ``card``: it was discarded and ``by`` (a
    flipped basic Speed card; None: none left) played instead.

    Example::

        >>> UpgradeReplaced(car=0, card="U13", by="2", round=3).to_dict()
        {'car': 0, 'card': 'U13', 'by': '2', 'type': 'upgrade_replaced', 'round': 3}
    """

    kind = "upgrade_replaced"
    card: str
    by: str | None


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Scrapped(CarEvent):
    """Scrap ``n``: ``cards`` went from the top of the draw pile to the discard pile (fewer
    when both piles ran out).

    Example::

        >>> Scrapped(car=0, cards=("3", "H"), n=2, round=2).to_dict()
        {'car': 0, 'cards': ['3', 'H'], 'n': 2, 'type': 'scrap', 'round': 2}
    """

    kind = "scrap"
    cards: tuple[str, ...]
    n: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class SpeedChosen(CarEvent):
    """A speed choice: ``card`` counts ``value``; the car's ``speed`` now.

    Example::

        >>> SpeedChosen(car=0, card="U8", value=3, speed=3, round=1).to_dict()
        {'car': 0, 'card': 'U8', 'value': 3, 'speed': 3, 'type': 'speed_choice', 'round': 1}
    """

    kind = "speed_choice"
    card: str
    value: int
    speed: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class StressReduced(CarEvent):
    """Reduce: ``n`` Stress cards discarded from hand.

    Example::

        >>> StressReduced(car=0, n=2, round=1).to_dict()
        {'car': 0, 'n': 2, 'type': 'reduce', 'round': 1}
    """

    kind = "reduce"
    n: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class SuperCooled(CarEvent):
    """Super-cool: ``n`` Heat cards from the discard pile back to the engine (now ``engine``).

    Example::

        >>> SuperCooled(car=0, n=1, engine=4, round=2).to_dict()
        {'car': 0, 'n': 1, 'engine': 4, 'type': 'supercool', 'round': 2}
    """

    kind = "supercool"
    n: int
    engine: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Salvaged(CarEvent):
    """Salvage: ``card`` from the discard pile shuffled into the draw pile.

    Example::

        >>> Salvaged(car=0, card="3", round=2).to_dict()
        {'car': 0, 'card': '3', 'type': 'salvage', 'round': 2}
    """

    kind = "salvage"
    card: str


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class RefreshChosen(CarEvent):
    """Refresh: ``card`` goes back on top of the draw pile when the turn ends.

    Example::

        >>> RefreshChosen(car=0, card="U34", round=2).to_dict()
        {'car': 0, 'card': 'U34', 'type': 'refresh', 'round': 2}
    """

    kind = "refresh"
    card: str


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class DirectPlayed(CarEvent):
    """Direct play: ``card`` played from hand in the React step.

    Example::

        >>> DirectPlayed(car=0, card="U24", round=2).to_dict()
        {'car': 0, 'card': 'U24', 'type': 'direct_play', 'round': 2}
    """

    kind = "direct_play"
    card: str


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Accelerated(CarEvent):
    """Accelerate ``n``: +``n`` Speed for each of the turn's ``flips`` [+]; ``speed`` now.

    Example::

        >>> Accelerated(car=0, n=1, flips=2, speed=6, round=2).to_dict()
        {'car': 0, 'n': 1, 'flips': 2, 'speed': 6, 'type': 'accelerate', 'round': 2}
    """

    kind = "accelerate"
    n: int
    flips: int
    speed: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class DraftMoved(CarEvent):
    """Draft: the car moves ``spaces`` empty spaces up behind the car ahead (its
    :class:`Moved` follows).

    Example::

        >>> DraftMoved(car=0, spaces=2, round=3).to_dict()
        {'car': 0, 'spaces': 2, 'type': 'draft_move', 'round': 3}
    """

    kind = "draft_move"
    spaces: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class UsedUp(CarEvent):
    """One-time ``cards`` (sponsors) left the game at the end of the turn.

    Example::

        >>> UsedUp(car=0, cards=("U61",), round=4).to_dict()
        {'car': 0, 'cards': ['U61'], 'type': 'one_time', 'round': 4}
    """

    kind = "one_time"
    cards: tuple[str, ...]
