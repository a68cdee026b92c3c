"""The championship's events: the Event card, sponsorships and Heat leaving the game.

Each kind's doctest shows its JSON form; ``docs/events.md`` lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import CarEvent, Event, register_event


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class EventRevealed(Event):
    """A championship race's Event card (its key in championship.toml) and its Press Corners,
    by corner number as the board prints them (the line a sponsor is checked at).

    Example::

        >>> EventRevealed(event="record_crowds", press=(3, 5), round=0).to_dict()
        {'event': 'record_crowds', 'press': [3, 5], 'type': 'event', 'round': 0}
    """

    kind = "event"
    event: str
    press: tuple[int, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class SponsorsDealt(CarEvent):
    """The Event's sponsorship ``cards`` dealt to a car at the start (into its deck).

    Example::

        >>> SponsorsDealt(car=0, cards=("P2", "P5"), round=0).to_dict()
        {'car': 0, 'cards': ['P2', 'P5'], 'type': 'sponsors_dealt', 'round': 0}
    """

    kind = "sponsors_dealt"
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class SponsorEarned(CarEvent):
    """A car earned a sponsorship ``card`` (None: the sponsor deck was empty) for ``why``:
    ``press`` (a Press Corner: at its limit + 2 or more, or as an Event says), ``slipstream``
    (slipstreamed across one), ``lap`` (among the first to finish lap 1),
    ``record`` (a speed record), ``passing`` (passed cars in one move); ``corner``: the Press
    Corner's number as printed (None for the others).

    Example::

        >>> SponsorEarned(car=1, card="P4", why="press", corner=3, round=6).to_dict()
        {'car': 1, 'card': 'P4', 'why': 'press', 'corner': 3, 'type': 'sponsor', 'round': 6}
    """

    kind = "sponsor"
    card: str | None
    why: str
    corner: int | None


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class HeatRemoved(CarEvent):
    """Heat cards left the game (an Event: one a completed lap), one from each pile named in
    ``piles`` (``engine``, ``hand``, ``discard``, ``draw``), after lap ``lap``.

    Example::

        >>> HeatRemoved(car=0, piles=("engine",), lap=1, round=9).to_dict()
        {'car': 0, 'piles': ['engine'], 'lap': 1, 'type': 'heat_removed', 'round': 9}
    """

    kind = "heat_removed"
    piles: tuple[str, ...]
    lap: int
