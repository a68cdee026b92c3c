"""The Legends module's events: a Legend car's move and its deck.

Each kind's doctest shows its JSON form; ``docs/events.md`` lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import CarEvent, Event, register_event


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class LegendMoved(CarEvent):
    """A Legend car (helmet ``colour``) moved by Legend card ``card``: ``branch`` of the
    movement rule (engine/legends/movement.py), about corner ``corner`` (from 1; None: none
    ahead), at ``speed`` from ``frm`` to the place in the last five fields.

    Example::

        >>> LegendMoved(car=2, colour="blue", card=2, branch="brake", corner=1, speed=11,
        ...             frm=-1, d=10, lap=1, space=10, spot=1, racing_line=True,
        ...             round=1).to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'car': 2, 'colour': 'blue', 'card': 2, 'branch': 'brake', 'corner': 1, 'speed': 11,
         'frm': -1, 'd': 10, 'lap': 1, 'space': 10, 'spot': 1, 'racing_line': True,
         'type': 'legend', 'round': 1}
    """

    kind = "legend"
    colour: str
    card: int
    branch: str
    corner: int | None
    speed: int
    frm: int
    d: int
    lap: int
    space: int
    spot: int
    racing_line: bool


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class LegendDeckReshuffled(Event):
    """Every Legend card was used: all ``cards`` are shuffled into a new Legend deck.

    Example::

        >>> LegendDeckReshuffled(cards=10, round=11).to_dict()
        {'cards': 10, 'type': 'legend_reshuffle', 'round': 11}
    """

    kind = "legend_reshuffle"
    cards: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class LegendCardFlipped(Event):
    """The round's Legend card, flipped when the first Legend car moves.

    Example::

        >>> LegendCardFlipped(card=4, round=1).to_dict()
        {'card': 4, 'type': 'legend_card', 'round': 1}
    """

    kind = "legend_card"
    card: int
