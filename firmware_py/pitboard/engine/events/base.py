"""The base game's events: the grid, rounds and turns, shifting, Heat, the cards, movement,
corners and spin-outs, Adrenaline, Cooldown, Slipstream, the finish.

Each kind's doctest shows its JSON form; ``docs/events.md`` lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .core import CarEvent, Decoders, Event, GridSpot, register_event


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class GridDrawn(Event):
    """The cars on the grid, pole position first (recorded when the cards are dealt).

    Example::

        >>> spot = GridSpot(d=0, lap=0, space=70, spot=1, racing_line=True, car=1)
        >>> GridDrawn(grid=(spot,), round=0).to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'grid': [{'d': 0, 'lap': 0, 'space': 70, 'spot': 1, 'racing_line': True, 'car': 1}],
         'type': 'grid', 'round': 0}
    """

    kind = "grid"
    decode: ClassVar[Decoders] = {"grid": lambda spots: tuple(GridSpot(**s) for s in spots)}
    grid: tuple[GridSpot, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(Event):
    """A round begins; ``order``: the cars still racing, leader first (the turn order).

    Example::

        >>> RoundStarted(order=(2, 0, 1), round=3).to_dict()
        {'order': [2, 0, 1], 'type': 'round', 'round': 3}
    """

    kind = "round"
    order: tuple[int, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted(CarEvent):
    """A car's turn begins, in the gear it planned.

    Example::

        >>> TurnStarted(car=0, gear=3, round=1).to_dict()
        {'car': 0, 'gear': 3, 'type': 'turn', 'round': 1}
    """

    kind = "turn"
    gear: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Shifted(CarEvent):
    """A car planned another gear: from ``frm`` to ``to``, for ``heat`` (1 for two gears).

    Example::

        >>> Shifted(car=0, frm=1, to=3, heat=1, round=2).to_dict()
        {'car': 0, 'frm': 1, 'to': 3, 'heat': 1, 'type': 'shift', 'round': 2}
    """

    kind = "shift"
    frm: int
    to: int
    heat: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class HeatPaid(CarEvent):
    """``n`` Heat cards went from the engine to the discard pile; ``why``: "2-gear shift",
    "corner N", "boost" or the upgrade card that cost it.

    Example::

        >>> HeatPaid(car=1, n=2, why="corner 3", round=4).to_dict()
        {'car': 1, 'n': 2, 'why': 'corner 3', 'type': 'heat', 'round': 4}
    """

    kind = "heat"
    n: int
    why: str


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Clogged(CarEvent):
    """A clogged hand: the car plays ``cards``, does not move and drops to gear 1.

    Example::

        >>> Clogged(car=0, cards=("H", "H"), round=5).to_dict()
        {'car': 0, 'cards': ['H', 'H'], 'type': 'clogged', 'round': 5}
    """

    kind = "clogged"
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Revealed(CarEvent):
    """A car reveals the cards it planned.

    Example::

        >>> Revealed(car=0, cards=("3", "S"), round=1).to_dict()
        {'car': 0, 'cards': ['3', 'S'], 'type': 'reveal', 'round': 1}
    """

    kind = "reveal"
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Flipped(CarEvent):
    """One card flipped looking for a basic Speed card (for a Stress card, a Boost or an
    upgrade's symbol: ``why``). ``kept``: it was one, and joined the play area; else it went to
    the discard pile. ``card`` None: no card was left to flip.

    Example::

        >>> Flipped(car=0, card="H", kept=False, why="stress", round=1).to_dict()
        {'car': 0, 'card': 'H', 'kept': False, 'why': 'stress', 'type': 'flip', 'round': 1}
    """

    kind = "flip"
    card: str | None
    kept: bool
    why: str


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class SpeedCounted(CarEvent):
    """The revealed cards' speed, added up (flips and upgrades included), before the move.

    Example::

        >>> SpeedCounted(car=0, speed=9, round=1).to_dict()
        {'car': 0, 'speed': 9, 'type': 'speed', 'round': 1}
    """

    kind = "speed"
    speed: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Moved(CarEvent):
    """A car moved ``spaces`` from ``frm`` (``why``: "cards", "boost", "slipstream", ...),
    ``blocked`` short of where it aimed by full spaces, to the place in the last five fields.

    Example::

        >>> Moved(car=0, why="cards", frm=0, spaces=7, blocked=1, d=7, lap=1, space=7, spot=2,
        ...       racing_line=False, round=1).to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'car': 0, 'why': 'cards', 'frm': 0, 'spaces': 7, 'blocked': 1, 'd': 7, 'lap': 1,
         'space': 7, 'spot': 2, 'racing_line': False, 'type': 'move', 'round': 1}
    """

    kind = "move"
    why: str
    frm: int
    spaces: int
    blocked: int
    d: int
    lap: int
    space: int
    spot: int
    racing_line: bool


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class LapStarted(CarEvent):
    """A car crossed the finish line into lap ``lap`` (recorded before its :class:`Moved`).

    Example::

        >>> LapStarted(car=2, lap=2, round=9).to_dict()
        {'car': 2, 'lap': 2, 'type': 'lap', 'round': 9}
    """

    kind = "lap"
    lap: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class AdrenalineUsed(CarEvent):
    """A last car took Adrenaline's +1: its ``speed`` now (it moves 1 more).

    Example::

        >>> AdrenalineUsed(car=1, speed=8, round=2).to_dict()
        {'car': 1, 'speed': 8, 'type': 'adrenaline', 'round': 2}
    """

    kind = "adrenaline"
    speed: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Boosted(CarEvent):
    """A Boost flipped ``card`` (None: none left), worth ``value``; the car's ``speed`` now.

    Example::

        >>> Boosted(car=0, card="4", value=4, speed=11, round=3).to_dict()
        {'car': 0, 'card': '4', 'value': 4, 'speed': 11, 'type': 'boost', 'round': 3}
    """

    kind = "boost"
    card: str | None
    value: int
    speed: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class CooledDown(CarEvent):
    """``n`` Heat cards from hand back to the engine, which now holds ``engine``.

    Example::

        >>> CooledDown(car=0, n=2, engine=5, round=4).to_dict()
        {'car': 0, 'n': 2, 'engine': 5, 'type': 'cooldown', 'round': 4}
    """

    kind = "cooldown"
    n: int
    engine: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Slipstreamed(CarEvent):
    """A car takes a slipstream (its :class:`Moved` follows).

    Example::

        >>> Slipstreamed(car=3, round=6).to_dict()
        {'car': 3, 'type': 'slipstream', 'round': 6}
    """

    kind = "slipstream"


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class CornerChecked(CarEvent):
    """A car crossed corner ``corner`` (numbered from 1) at ``speed`` over ``limit`` (this
    car's, this turn) and paid ``heat`` (0: within the limit). A spin-out is :class:`SpunOut`.

    Example::

        >>> CornerChecked(car=0, corner=1, limit=7, speed=9, heat=2, round=2).to_dict()
        {'car': 0, 'corner': 1, 'limit': 7, 'speed': 9, 'heat': 2, 'type': 'corner', 'round': 2}
    """

    kind = "corner"
    corner: int
    limit: int
    speed: int
    heat: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class SpunOut(CarEvent):
    """A car could not pay for corner ``corner``: it paid its last ``heat``, took ``stress``
    Stress cards and went back from ``frm`` to the place before the corner (the last five
    fields), in gear 1.

    Example::

        >>> SpunOut(car=0, corner=2, heat=1, stress=1, frm=31, d=24, lap=1, space=24, spot=1,
        ...         racing_line=True, round=4).to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'car': 0, 'corner': 2, 'heat': 1, 'stress': 1, 'frm': 31, 'd': 24, 'lap': 1,
         'space': 24, 'spot': 1, 'racing_line': True, 'type': 'spin_out', 'round': 4}
    """

    kind = "spin_out"
    corner: int
    heat: int
    stress: int
    frm: int
    d: int
    lap: int
    space: int
    spot: int
    racing_line: bool


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Discarded(CarEvent):
    """A car discarded ``cards`` from its hand at the end of its turn.

    Example::

        >>> Discarded(car=1, cards=("1", "2"), round=2).to_dict()
        {'car': 1, 'cards': ['1', '2'], 'type': 'discard', 'round': 2}
    """

    kind = "discard"
    cards: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffled(CarEvent):
    """A car's discard pile was shuffled into a new draw pile of ``cards`` cards.

    Example::

        >>> Reshuffled(car=0, cards=11, round=7).to_dict()
        {'car': 0, 'cards': 11, 'type': 'reshuffle', 'round': 7}
    """

    kind = "reshuffle"
    cards: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Replenished(CarEvent):
    """A car drew ``drawn`` cards to refill its hand at the end of its turn.

    Example::

        >>> Replenished(car=0, drawn=3, round=1).to_dict()
        {'car': 0, 'drawn': 3, 'type': 'replenish', 'round': 1}
    """

    kind = "replenish"
    drawn: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Finished(CarEvent):
    """A car crossed the finish line of the last lap (its place comes at the end of the round:
    :class:`Placed`).

    Example: this kind writes the round before the type, as it always has::

        >>> Finished(car=2, round=12).to_dict()
        {'car': 2, 'round': 12, 'type': 'finish'}
    """

    kind = "finish"
    keys = ("car", "round", "type")


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Placed(CarEvent):
    """A finished car takes its ``place`` in the Hall of Fame (from 1) and leaves the track.

    Example::

        >>> Placed(car=2, place=1, round=12).to_dict()
        {'car': 2, 'place': 1, 'type': 'hall_of_fame', 'round': 12}
    """

    kind = "hall_of_fame"
    place: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class RaceOver(Event):
    """Every car has finished: the final ``order`` after ``rounds`` rounds.

    Example::

        >>> RaceOver(order=(2, 0, 1), rounds=12, round=12).to_dict()
        {'order': [2, 0, 1], 'rounds': 12, 'type': 'race_over', 'round': 12}
    """

    kind = "race_over"
    order: tuple[int, ...]
    rounds: int


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class Retired(CarEvent):
    """A car is out of the race without a place (a championship Event: ``why``, e.g.
    "spin-out"); it leaves the board.

    Example::

        >>> Retired(car=1, why="spin-out", round=5).to_dict()
        {'car': 1, 'why': 'spin-out', 'type': 'retired', 'round': 5}
    """

    kind = "retired"
    why: str
