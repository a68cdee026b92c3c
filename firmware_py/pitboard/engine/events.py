"""Everything a race can say: one frozen class per kind of event, the base game's and its modules'.

A race records what happens, in order, in ``race.events`` (when ``record_events`` is on, as at
the table; a simulation leaves it off). Each entry is one of the classes below: narration
(:mod:`pitboard.narrate`), the station screens, the Legend moves the table waits for, the
console and scenario expectations read their fields. :meth:`Event.to_dict` gives the JSON form
the console's ``events json`` stream and a saved race (``race_to_dict(race, events=True)``)
carry: the fields in order, then ``type`` (the kind's name) and ``round`` (the round it happened
in; 0 before the first). :func:`event_from_dict` reads it back. The doctest of each class shows
its JSON; ``docs/events.md`` lists them all.

A car's place after it moved (:class:`Moved`, :class:`SpunOut`, :class:`LegendMoved`) is five
fields, as :meth:`Race.where <pitboard.engine.course.Course.where>` gives them (:class:`Place`):
``d`` (spaces from the start line), ``lap``, board ``space``, ``spot`` (1 or 2) and
``racing_line``.

A rules module outside the engine adds kinds of its own with :func:`register_event`; the
modules' kinds are listed here, after the base game's, so this file stays the one list.

Example::

    >>> from pitboard.engine import Plan, Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
    >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
    >>> race.events[-1]
    Shifted(round=1, car=0, frm=1, to=2, heat=0)
    >>> race.events[-1].to_dict()
    {'car': 0, 'frm': 1, 'to': 2, 'heat': 0, 'type': 'shift', 'round': 1}
    >>> event_from_dict(race.events[-1].to_dict()) == race.events[-1]
    True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

#: kind ("move") -> its class; every class below registers itself
EVENTS: dict[str, type[Event]] = {}

E = TypeVar("E", bound="Event")
#: field name -> a function making the field's value from its JSON form
Decoders = Mapping[str, Callable[[Any], Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event has: the round it happened in (0 before the first round).

    Example: the kind's name and the JSON keys in order, from the class::

        >>> Moved.kind, Moved.keys[:4], Moved.keys[-2:]
        ('move', ('car', 'why', 'frm', 'spaces'), ('type', 'round'))
    """

    #: the kind's name: the ``type`` of the JSON form
    kind: ClassVar[str] = ""
    #: the keys of the JSON form, in order (set by :func:`register_event`)
    keys: ClassVar[tuple[str, ...]] = ()
    #: fields whose JSON form is not the field's (lists read back as tuples by default)
    decode: ClassVar[Decoders] = {}

    round: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: plain types (lists, not tuples), keys in the documented order."""
        return {key: self.kind if key == "type" else _plain(getattr(self, key))
                for key in self.keys}


@dataclass(frozen=True, slots=True, kw_only=True)
class CarEvent(Event):
    """An event about one car (``car``: its id, from 0).

    Example::

        >>> isinstance(Flipped(car=1, card="3", kept=True, why="boost", round=2), CarEvent)
        True
    """

    car: int


def register_event(cls: type[E]) -> type[E]:
    """Make ``cls`` (a frozen dataclass of :class:`Event`) readable by :func:`event_from_dict`
    under ``cls.kind``; its JSON keys are its fields in order, then ``type`` and ``round``
    (unless the class lists its own :attr:`Event.keys`). Use as a decorator."""
    if not cls.kind:
        raise ValueError(f"{cls.__name__} has no kind")
    if EVENTS.get(cls.kind, cls) is not cls:
        raise ValueError(f"event kind {cls.kind!r} already registered")
    if "keys" not in vars(cls):
        cls.keys = (*(f.name for f in fields(cls) if f.name != "round"), "type", "round")
    EVENTS[cls.kind] = cls
    return cls


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event :meth:`Event.to_dict` wrote; ValueError (one line) if it is none."""
    kind = EVENTS.get(data.get("type"))  # type: ignore[arg-type]  # (any value: checked here)
    if kind is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    values = {}
    for f in fields(kind):
        if f.name not in data:
            raise ValueError(f"{kind.kind} event without {f.name!r}")
        value = data[f.name]
        try:
            values[f.name] = kind.decode[f.name](value) if f.name in kind.decode else \
                _tuples(value)
        except (TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{kind.kind} event: {f.name}: {exc}") from None
    return kind(**values)


def _plain(value: Any) -> Any:
    """A field's JSON value: tuples become lists, places dicts."""
    if type(value) is tuple:
        return [_plain(v) for v in value]
    if isinstance(value, Place):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    return value


def _tuples(value: Any) -> Any:
    """A field's value from JSON: lists become tuples."""
    return tuple(map(_tuples, value)) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class Place:
    """Where a car stands: ``d`` (spaces travelled from the start line; the grid is at 0 and
    below), the ``lap`` it drives (0 on the grid), the board ``space`` (1..N from the finish
    line), its ``spot`` there (1 or 2) and whether that spot is on the ``racing_line``.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.where(race.cars[0])
        Place(d=0, lap=0, space=69, spot=2, racing_line=False)
    """

    d: int
    lap: int
    space: int
    spot: int
    racing_line: bool


@dataclass(frozen=True, slots=True)
class GridSpot(Place):
    """A car's place on the starting grid (in :class:`GridDrawn`).

    Example::

        >>> GridSpot(d=0, lap=0, space=70, spot=1, racing_line=True, car=2).car
        2
    """

    car: int


# ---------------------------------------------------------------------------- the base game
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


# ---------------------------------------------------------------------------- the Garage
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


# ---------------------------------------------------------------------------- Legends
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


# ---------------------------------------------------------------------------- Weather
@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class WeatherDrawn(Event):
    """The race's ``weather`` token and its ``road`` tokens: (corner as printed, token) pairs.

    Example::

        >>> WeatherDrawn(weather="fog", road=((2, "limit+1"),), round=0).to_dict()
        {'weather': 'fog', 'road': {'2': 'limit+1'}, 'type': 'weather', 'round': 0}
    """

    kind = "weather"
    decode: ClassVar[Decoders] = {"road": lambda road: tuple((int(c), t) for c, t in road.items())}
    weather: str
    road: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"weather": self.weather, "road": {str(c): token for c, token in self.road},
                "type": self.kind, "round": self.round}


# ---------------------------------------------------------------------------- Championship
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
