"""Rules modules (Garage, Legends, Weather & road conditions, the Championship) and the rules a
track's spaces bring (flooded, tunnel): the named points where they hook in.

The base sequence in :mod:`pitboard.engine.race` asks a few named questions and announces a few
named moments; a module is a :class:`RaceModule` subclass that answers or handles only the ones
its rules change. The race collects, once, which modules override which hook (:class:`Hooks`),
so a race without modules pays one ``if`` per point and the rules of each module stay in its own
files instead of ``if garage:`` branches through the base game.

A race picks its modules with :attr:`RaceSetup.modules <pitboard.engine.setup.RaceSetup>`: a
mapping of module key to that module's options (plain JSON types, so setups serialize). A
:class:`TrackFeature` uses the same hooks but is no one's choice: it is on whenever the race's
track has the spaces it rules (:func:`build_features`), and it has no options and no state.

The hook points, in the order a race meets them:

=====================  ========================================================================
``laps``               once, when the race is set up: the laps it races (a championship Event:
                       one lap more or fewer)
``prepare``            once, before any car is dealt: draw tokens, shuffle a Legend deck
``corner_limit``       once per corner, before the race: the limit every car faces there
``hand_size``          once, before the deal: the cards in a full hand (an Event: 6 or 8)
``setup_car``          each car's starting deck and engine, before the deck is shuffled
``pre_race``           whether decisions (a draft) must come before the cards are dealt
``waiting``            the car a module's phase waits for (a draft pick), options not listed
``plans``              does this car plan this round (a Legend car does not)
``adrenaline``         does this car get Adrenaline this round, given the base game's answer
                       (the last car or two); an Event may take it away
``downshift_heat``     Heat a downshift costs this car this round on top of the base game's
                       (a flooded space: 1)
``drive``              a car's whole turn when the module drives it (a Legend); True = handled
``after_reveal``       the planned cards are revealed and the speed added up, before moving
``car_corner_limit``   one car's limit at one corner this turn (an upgrade's adjust symbol)
``corner_heat``        Heat charged over a corner's limit (an overheat token adds one)
``cooldown``           Cooldown a car gets this turn
``boost_heat``         Heat a Boost costs
``may_slipstream``     may this car start a slipstream from where it is
``slipstream_spaces``  how far a slipstream moves
``slipstream_choices`` the distances a car may pick (a road token's "may add 1 space")
``after_corners``      step 7 is over for this car: every corner line of the turn was
                       checked, or a spin-out ended the checks (an Event rewards a Press Corner
                       or puts a spun-out car out of the race)
``may_discard``        may this car discard cards from its hand now (not in a tunnel): the
                       Discard step and any effect that discards from a hand ask it
``undiscardable``      the card codes step 8 never lets this car discard (the base game: Heat
                       and Stress; an Event may allow one of them)
``discard_limit``      the most cards this car may discard in step 8 (None: any number)
``end_turn``           the turn's cards leave the play area (refresh, one-time cards)
=====================  ========================================================================

A module may bring its rules as several objects (:attr:`RaceModule.parts`: a championship
Event's rules, each a small class answering its own hooks): the race asks each part like a
module, right after the module, so a rule nobody's race uses costs nothing.

React actions a module adds (an upgrade's symbols) are :class:`~pitboard.engine.react.ReactAction`
objects listed in :attr:`RaceModule.react_actions`; the race offers them after the base ones.

Modules add decisions of their own (a draft pick) with :attr:`RaceModule.decisions` and phases
with :meth:`RaceModule.pending`; their state round-trips through :meth:`RaceModule.to_dict`. A
module draws randomness only through :meth:`ModuleRace.shuffle`, so seed + decision log still
replays the race.

What a module may read of a race and do to it is :class:`ModuleRace`, the race as every hook
receives it: move a car, flip, draw, shuffle, record an event, ask where a car stands and
whether it may discard, read the shift table, take a car out of the race. Nothing else of
:class:`~pitboard.engine.race.Race` is the modules' (its names with an underscore may change
with any version; ``tests/test_imports.py`` checks that no file outside race.py's layers uses
one).

Example::

    >>> class Gusty(RaceModule):
    ...     key = "gusty"
    ...     def slipstream_spaces(self, race, car, spaces):
    ...         return spaces + 1
    >>> hooks = Hooks((Gusty({}),))
    >>> hooks.slipstream_spaces is not None, hooks.cooldown is None
    (True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..track import Track
from .car import Car
from .decisions import Decision, Pending
from .events import Event, Place

if TYPE_CHECKING:
    from .react import ReactAction
    from .setup import RaceSetup


class ModuleRace(Protocol):
    """A race as its modules (and the React actions) see it: what they may read and do. A
    :class:`~pitboard.engine.race.Race` is one; every hook receives it.

    Example: the verbs a module uses, on a race (a car flips for a Boost, then moves)::

        >>> from pitboard.engine import Race, RaceSetup
        >>> from pitboard.engine.events import Boosted
        >>> race: ModuleRace = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> car = race.cars[0]
        >>> race.flip(car, "boost"), race.where(car).space
        ('4', 69)
        >>> race.record(Boosted(car=car.id, card="4", value=4, speed=4, round=race.round))
        >>> race.move(car, 4, "boost")
        >>> race.where(car), [e.kind for e in race.events[-4:]]
        (Place(d=4, lap=1, space=4, spot=1, racing_line=True), ['flip', 'boost', 'lap', 'move'])
    """

    # -- what a module reads ------------------------------------------------------------------
    #: the setup the race was started with (its modules' options in ``setup.modules``)
    setup: RaceSetup
    track: Track
    laps: int
    #: ``d`` past which a car has finished (laps x spaces)
    finish_d: int
    #: cards in a full hand this race (the setup's, as the modules' hand_size hooks changed it)
    hand_size: int
    #: 0 before the first round
    round: int
    #: "plan", "react", ... or a module's own phase (a module sets its phase, see pre_race)
    phase: str
    #: by id
    cars: list[Car]
    #: car ids, pole position first
    grid: list[int]
    #: the decisions applied: a module appends its own once it has checked one (see apply)
    log: list[Decision]
    #: the race's modules and their hooks (``hooks.by_key["garage"]``)
    hooks: Hooks
    #: events are kept (at the table) or not (a simulation): test before building one
    record_events: bool
    events: list[Event]

    def where(self, car: Car) -> Place:
        """Where ``car`` stands now."""

    def corners_between(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """Corner lines crossed moving from ``start`` to ``end``: (d of the line, corner
        index, limit)."""

    def boost_heat(self, car: Car) -> int:
        """Heat a Boost costs ``car`` now (the modules' boost_heat hooks asked)."""

    def shifts(self, car: Car) -> tuple[tuple[int, ...], dict[int, int]]:
        """The shift table's row for ``car``: the gears it may plan and the Heat each costs."""

    def may_discard(self, car: Car) -> bool:
        """May ``car`` discard cards from its hand now (not on a tunnel space)?"""

    def undiscardable(self, car: Car) -> frozenset[str]:
        """The card codes ``car`` may never discard in step 8 now (Heat and Stress in the base
        game)."""

    def discard_limit(self, car: Car) -> int | None:
        """The most cards ``car`` may discard in step 8 (None: any number)."""

    # -- what a module does --------------------------------------------------------------------
    def move(self, car: Car, spaces: int, why: str) -> None:
        """Move ``car`` forward, stepping back while a space is full (events: lap, move)."""

    def flip(self, car: Car, why: str) -> str | None:
        """Flip to the next basic Speed card: into the play area, the rest discarded (None:
        none left)."""

    def draws(self, car: Car) -> Iterator[str]:
        """Cards off the top of ``car``'s draw pile, the discard pile shuffled in once."""

    def shuffle(self, cards: list[Any]) -> None:
        """Shuffle ``cards`` with the race's seeded stream (the only randomness allowed)."""

    def record(self, event: Event) -> None:
        """Keep ``event`` among the race's events (only while ``record_events`` is on)."""

    def start(self) -> None:
        """Deal the cards and begin round 1 (a module's pre-race phase calls it when done)."""

    def retire(self, car: Car, why: str) -> None:
        """Take ``car`` out of the race: off the board, no more turns and no place (an Event's
        elimination); recorded as a :class:`~pitboard.engine.events.Retired`."""


class RaceModule:
    """One rules module in one race. Override the hooks the module's rules change; the base
    answers below are the base game's, so an unchanged hook costs the race nothing.

    ``options`` are the module's entry in :attr:`RaceSetup.modules`, already checked by
    :meth:`check_options`.

    Example: a module whose Boost costs no Heat, registered for one race::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React
        >>> @register_module
        ... class FreeBoost(RaceModule):
        ...     key = "free_boost"
        ...     def boost_heat(self, race, car, cost):
        ...         return 0
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
        ...                       modules={"free_boost": {}}))
        >>> del MODULES["free_boost"]  # (an example: other races do not see it)
        >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
        >>> race.apply(Plan(car=1, gear=2, cards=("3", "4")))
        >>> car = race.cars[1]
        >>> race.apply(React(car=1, action="boost"))  # flips a 2, for no Heat
        >>> car.speed, car.engine, car.boosted
        (9, 6, True)
    """

    #: the module's key in RaceSetup.modules and in snapshots
    key: ClassVar[str] = ""
    #: decision types this module adds: type -> the phase that takes it
    decisions: ClassVar[Mapping[type, str]] = {}
    #: React actions this module adds, offered after the base game's (a module may build
    #: them per race in ``__init__``, bound to itself)
    react_actions: tuple[ReactAction, ...] = ()
    #: one-time cards this module deals may join a pile during the race (a championship's
    #: sponsors): the module that takes played one-time cards out (the Garage) looks every turn
    deals_onetime: ClassVar[bool] = False
    #: hook objects this module brings beside itself, asked like modules right after it (a
    #: championship Event's rules: each answers only the hooks its rule changes); built per
    #: race in ``__init__``. Parts have no options, state, decisions or React actions of
    #: their own: the module keeps those
    parts: tuple[RaceModule, ...] = ()

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)

    # -- options and state ------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: Mapping[str, Any], setup: RaceSetup) -> None:
        """Raise ValueError with a one-line reason when ``options`` cannot be raced."""

    def to_dict(self) -> dict[str, Any]:
        """The module's state in a race (JSON types), for snapshots."""
        return {}

    def load(self, data: Mapping[str, Any]) -> None:
        """Restore the state :meth:`to_dict` wrote."""

    # -- before the race --------------------------------------------------------------------
    def laps(self, race: ModuleRace, laps: int) -> int:
        """The laps the race runs, given the setup's (or the track's) ``laps``: asked once,
        when the race is set up (never when a saved race is loaded: its laps are saved)."""
        return laps

    def prepare(self, race: ModuleRace) -> None:
        """Once, after the track is known and before any car is dealt."""

    def corner_limit(self, race: ModuleRace, index: int, limit: int) -> int:
        """The limit at corner ``index`` (0-based) for every car, given the printed one."""
        return limit

    def hand_size(self, race: ModuleRace, size: int) -> int:
        """The cards in a full hand this race, given the setup's ``size`` (asked before the
        deal, and again when a saved race is loaded)."""
        return size

    def setup_car(self, race: ModuleRace, car: Car) -> None:
        """Adjust ``car.draw`` (unshuffled starting deck) and ``car.engine`` before the shuffle."""

    def pre_race(self, race: ModuleRace) -> bool:
        """True if the module needs decisions before the cards are dealt (a draft): it then
        sets ``race.phase`` to its own phase and calls ``race.start()`` when they are done."""
        return False

    # -- decisions the module owns ------------------------------------------------------------
    def pending(self, race: ModuleRace) -> Pending | None:
        """What the race waits for in a phase this module owns (None: not its phase)."""
        return None

    def waiting(self, race: ModuleRace) -> int | None:
        """The car that decides next in a phase this module owns, -1 if none, None if not its
        phase: what :meth:`pending` would name, without listing every option (bots and loops
        ask ``race.waiting_for()`` before each decision)."""
        return None

    def apply(self, race: ModuleRace, decision: Decision) -> None:
        """Apply one of :attr:`decisions` (raise IllegalDecision, state untouched, if illegal)."""
        raise NotImplementedError

    # -- the round -----------------------------------------------------------------------------
    def plans(self, race: ModuleRace, car: Car) -> bool:
        """Does ``car`` plan (choose a gear and cards) this round?"""
        return True

    def adrenaline(self, race: ModuleRace, car: Car, has: bool) -> bool:
        """Does ``car`` get Adrenaline this round, given ``has``, the answer so far (the base
        game's: the last car, or the last two with 5 or more starters)?"""
        return has

    def drive(self, race: ModuleRace, car: Car) -> bool:
        """Take ``car``'s whole turn; True if the module did (the race then ends the turn)."""
        return False

    def after_reveal(self, race: ModuleRace, car: Car) -> None:
        """The played cards are revealed and ``car.speed`` added up; the car has not moved."""

    def car_corner_limit(self, race: ModuleRace, car: Car, index: int, limit: int) -> int:
        """``car``'s limit at corner ``index`` this turn, given the race's limit there."""
        return limit

    def corner_heat(self, race: ModuleRace, car: Car, index: int, excess: int) -> int:
        """Heat charged for crossing corner ``index`` ``excess`` over its limit (excess > 0)."""
        return excess

    def cooldown(self, race: ModuleRace, car: Car, n: int) -> int:
        """Cooldown ``car`` gets this turn, given the base game's ``n``."""
        return n

    def boost_heat(self, race: ModuleRace, car: Car, cost: int) -> int:
        """Heat a Boost costs ``car`` now, given the base game's ``cost``."""
        return cost

    def downshift_heat(self, race: ModuleRace, car: Car, heat: int) -> int:
        """Heat any downshift costs ``car`` this round on top of the base game's, given the
        answer so far (0 in the base game)."""
        return heat

    def may_slipstream(self, race: ModuleRace, car: Car) -> bool:
        """May ``car`` start a slipstream where it stands (the base rule already allows it)?"""
        return True

    def after_corners(self, race: ModuleRace, car: Car) -> None:
        """Step 7 is over for ``car`` (every corner line of its turn checked, or a spin-out
        ended the checks: ``car.spun``); its Discard step and the turn's end come next."""

    def may_discard(self, race: ModuleRace, car: Car) -> bool:
        """May ``car`` discard cards from its hand now (the Discard step, a reduce symbol)?"""
        return True

    def undiscardable(self, race: ModuleRace, car: Car, codes: frozenset[str]
                      ) -> frozenset[str]:
        """The card codes ``car`` may never discard in step 8, given the answer so far
        (``codes``: Heat and Stress in the base game)."""
        return codes

    def discard_limit(self, race: ModuleRace, car: Car, most: int | None) -> int | None:
        """The most cards ``car`` may discard in step 8, given the answer so far (None: any
        number)."""
        return most

    def slipstream_spaces(self, race: ModuleRace, car: Car, spaces: int) -> int:
        """How far ``car`` slipstreams, given the base game's ``spaces``."""
        return spaces

    def slipstream_choices(self, race: ModuleRace, car: Car, spaces: tuple[int, ...]
                           ) -> tuple[int, ...]:
        """Every distance ``car`` may choose to slipstream, the usual one first, given the
        choices so far (``(slipstream_spaces,)`` in the base game)."""
        return spaces

    def end_turn(self, race: ModuleRace, car: Car) -> None:
        """``car.play`` is about to go to the discard pile (a module may take cards out)."""


#: hooks whose answers chain: each module gets the previous module's answer
_CHAINED = ("corner_limit", "car_corner_limit", "corner_heat", "cooldown", "boost_heat",
            "slipstream_spaces", "slipstream_choices", "downshift_heat",
            "laps", "hand_size", "adrenaline", "undiscardable", "discard_limit")
#: hooks every overriding module hears, in module order
_BROADCAST = ("prepare", "setup_car", "after_reveal", "end_turn", "after_corners")
#: yes/no hooks: all must say yes (plans, may_slipstream) or one says yes (drive, pre_race)
_ALL = ("plans", "may_slipstream", "may_discard")
_ANY = ("drive", "pre_race")
#: hooks answered by the first module that answers (not None)
_FIRST = ("waiting",)


class Hooks:
    """The race's modules and track features, sorted by hook: each attribute is None when none
    overrides it (the base sequence then skips the call), else one callable with the base
    signature. Modules come first (each followed by its parts), then features, in each hook
    that chains.

    Example::

        >>> Hooks(()).corner_limit is None
        True
    """

    def __init__(self, modules: tuple[RaceModule, ...],
                 features: tuple[TrackFeature, ...] = ()) -> None:
        self.modules = modules
        #: the track's features (not modules: no options, no state, not in snapshots)
        self.features = features
        self.by_key = {m.key: m for m in modules}
        #: decision type -> (phase, module)
        self.decisions: dict[type, tuple[str, RaceModule]] = {
            kind: (phase, m) for m in modules for kind, phase in m.decisions.items()}
        self.prepare: Callable[..., None] | None = None
        self.setup_car: Callable[..., None] | None = None
        self.after_reveal: Callable[..., None] | None = None
        self.end_turn: Callable[..., None] | None = None
        self.corner_limit: Callable[..., int] | None = None
        self.car_corner_limit: Callable[..., int] | None = None
        self.corner_heat: Callable[..., int] | None = None
        self.cooldown: Callable[..., int] | None = None
        self.boost_heat: Callable[..., int] | None = None
        self.slipstream_spaces: Callable[..., int] | None = None
        self.slipstream_choices: Callable[..., tuple[int, ...]] | None = None
        self.plans: Callable[..., bool] | None = None
        self.downshift_heat: Callable[..., int] | None = None
        self.may_slipstream: Callable[..., bool] | None = None
        self.may_discard: Callable[..., bool] | None = None
        self.drive: Callable[..., bool] | None = None
        self.pre_race: Callable[..., bool] | None = None
        self.waiting: Callable[..., int | None] | None = None
        self.laps: Callable[..., int] | None = None
        self.hand_size: Callable[..., int] | None = None
        self.adrenaline: Callable[..., bool] | None = None
        self.after_corners: Callable[..., None] | None = None
        self.undiscardable: Callable[..., frozenset[str]] | None = None
        self.discard_limit: Callable[..., int | None] | None = None
        #: every module's React actions, in module order
        self.react_actions: tuple[ReactAction, ...] = tuple(
            a for m in modules for a in m.react_actions)
        found: dict[str, list[Callable[..., Any]]] = {}
        for m in (*(p for module in modules for p in (module, *module.parts)), *features):
            for name in _overrides(type(m)):
                found.setdefault(name, []).append(getattr(m, name))
        for name, fns in found.items():  # (one module's hook as it is: no call per hook)
            setattr(self, name, fns[0] if len(fns) == 1 else _combine(name, fns))

    def pending(self, race: ModuleRace) -> Pending | None:
        """The first module phase that is waiting, if any."""
        for m in self.modules:
            found = m.pending(race)
            if found is not None:
                return found
        return None


#: every hook, in the order _combine meets them
_HOOK_NAMES = (*_CHAINED, *_BROADCAST, *_ALL, *_ANY, *_FIRST)


#: module class -> the hooks it overrides (one entry per module class)
_OVERRIDES: dict[type[RaceModule], tuple[str, ...]] = {}


def _overrides(cls: type[RaceModule]) -> tuple[str, ...]:
    """The hooks ``cls`` overrides, worked out once per class: every race builds its Hooks, and
    scanning all hooks of every module per race cost a Garage race ~8 us (a fifth of its
    set-up before the draft)."""
    found = _OVERRIDES.get(cls)
    if found is None:
        found = _OVERRIDES[cls] = tuple(
            name for name in _HOOK_NAMES if getattr(cls, name) is not getattr(RaceModule, name))
    return found


def _combine(name: str, found: list[Callable[..., Any]]) -> Callable[..., Any]:
    if len(found) == 1:
        return found[0]
    if name in _CHAINED:
        def chained(*args: Any) -> Any:
            *head, value = args
            for fn in found:
                value = fn(*head, value)
            return value
        return chained
    if name in _ALL:
        return lambda *args: all(fn(*args) for fn in found)
    if name in _ANY:
        return lambda *args: any(fn(*args) for fn in found)
    if name in _FIRST:
        def first(*args: Any) -> Any:
            for fn in found:
                answer = fn(*args)
                if answer is not None:
                    return answer
            return None
        return first

    def broadcast(*args: Any) -> None:
        for fn in found:
            fn(*args)
    return broadcast


# ---------------------------------------------------------------------------- the registry
#: module key -> its class; module files register themselves (see engine/__init__.py)
MODULES: dict[str, type[RaceModule]] = {}


def register_module(cls: type[RaceModule]) -> type[RaceModule]:
    """Make a module available to RaceSetup.modules under ``cls.key`` (use as a decorator)."""
    if not cls.key:
        raise ValueError(f"{cls.__name__} has no key")
    if MODULES.get(cls.key, cls) is not cls:
        raise ValueError(f"module key {cls.key!r} already registered")
    MODULES[cls.key] = cls
    return cls


def check_modules(setup: RaceSetup) -> None:
    """Raise ValueError (one line) for an unknown module or options it refuses."""
    for key, options in setup.modules.items():
        cls = MODULES.get(key)
        if cls is None:
            known = ", ".join(sorted(MODULES)) or "none"
            raise ValueError(f"unknown module {key!r} (known: {known})")
        if not isinstance(options, Mapping):
            raise ValueError(f"module {key}: options must be a table, not {options!r}")
        cls.check_options(options, setup)


def build_modules(setup: RaceSetup) -> tuple[RaceModule, ...]:
    """The modules of a checked setup, in a fixed order (the registry's) so hooks that chain
    always chain the same way."""
    return tuple(cls(setup.modules[key]) for key, cls in MODULES.items() if key in setup.modules)


# ------------------------------------------------------------------ track features
class TrackFeature(RaceModule):
    """Rules printed on a track's spaces (flooded, tunnel): the hooks of a module, on whenever
    the race's track has such spaces (:meth:`on_track`), with no options and no state. A
    track without them builds none, so it pays for them what a race without modules does.

    Example::

        >>> class Gravel(TrackFeature):
        ...     key = "gravel"
        ...     @classmethod
        ...     def on_track(cls, track):
        ...         return track.key == "usa"
        >>> from pitboard.trackfile import load_track
        >>> Gravel.on_track(load_track("usa")), Gravel.on_track(load_track("italy"))
        (True, False)
    """

    def __init__(self, track: Track) -> None:
        super().__init__({})
        self.track = track

    @classmethod
    def on_track(cls, track: Track) -> bool:
        """Does ``track`` have the spaces this feature rules?"""
        raise NotImplementedError

    def notice(self, car: Car) -> str:
        """What the feature does to ``car`` where it stands, in a few words for a station
        ("" where it does nothing)."""
        return ""


#: feature key -> its class; feature files register themselves (see engine/__init__.py)
FEATURES: dict[str, type[TrackFeature]] = {}


def register_feature(cls: type[TrackFeature]) -> type[TrackFeature]:
    """Make a track feature apply to every race on a track that has its spaces (a decorator)."""
    if not cls.key or cls.key in MODULES or FEATURES.get(cls.key, cls) is not cls:
        raise ValueError(f"feature key {cls.key!r} missing or already taken")
    FEATURES[cls.key] = cls
    return cls


def feature_keys(track: Track) -> tuple[str, ...]:
    """Keys of the features ``track`` has, in the registry's order."""
    return tuple(key for key, cls in FEATURES.items() if cls.on_track(track))


def build_features(track: Track) -> tuple[TrackFeature, ...]:
    """The features of a race on ``track``, in the registry's order."""
    return tuple(cls(track) for cls in FEATURES.values() if cls.on_track(track))
