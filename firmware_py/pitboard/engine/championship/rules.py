"""The Events' rules: one small class per rule, each answering only the hooks its rule changes.

An Event card (``championship.toml``) lists its rules by name with their numbers
(``"laps -1"``, ``"bonus 1 2"``); the championship module builds one object per rule and hands
them to the race as its parts (:attr:`RaceModule.parts <pitboard.engine.modules.RaceModule>`),
so a race asks each rule like a module and a rule no Event of the race uses costs it nothing.
Besides the race's hooks, a rule may answer the championship's own: whether a Press Corner
pays (:meth:`EventRule.press_pays`), how many sponsors it pays (:meth:`EventRule.press_sponsors`)
and the points a race scores (:meth:`EventRule.race_points`).

======================  ==================  =====================================================
rule                    hook                what it does
======================  ==================  =====================================================
``laps N``              laps                N laps more or fewer than the track prints (at least 1)
``heat N``              setup_car           N Heat cards more or fewer in each engine
``stress N``            setup_car           N Stress cards more or fewer in each deck
``hand_size N``         hand_size           N cards in a full hand
``no_adrenaline``       adrenaline          nobody gets Adrenaline (nor its Cooldown)
``slipstream_gear N``   may_slipstream      a car slipstreams only in gear N or higher
``discard_heat``        undiscardable       Heat cards may be discarded in step 8
``discard_stress``      undiscardable       Stress cards may be discarded in step 8
``discard_most N``      discard_limit       at most N cards discarded a turn
``spin_out_eliminates``  after_corners      a car that spins out is out of the race (0 points)
``lap_one_sponsors N``  after_corners       the first N cars to finish lap 1 earn a sponsor
``speed_sponsor N``     after_corners       a turn ending at speed N or more earns a sponsor
``passing_sponsor N``   after_corners       passing N cars in one move earns a sponsor
``heat_per_lap N``      after_corners       each lap a car completes takes N Heat out of the game
``press_sponsors N``    press_sponsors      a Press Corner earns N sponsors
``press_below_limit``   press_pays          a Press Corner earns one only below its limit
``bonus N P``           race_points         the first N cars of the race score P points more
======================  ==================  =====================================================

A sponsor is never earned on a turn the car spun out (:func:`earn` says so).

Example: the rules of Record crowds, as a race asks them::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="great_britain", cars=2, seed=1, modules={
    ...     "garage": {"choose": "none"}, "championship": {"event": "record_crowds"}}))
    >>> race.laps, race.hand_size, len(race.cars[0].hand)   # GB prints 2 laps
    (3, 8, 8)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..cards import HEAT, STRESS
from ..events import HeatRemoved
from ..modules import RaceModule

if TYPE_CHECKING:
    from ..car import Car
    from ..modules import ModuleRace

class EventRule(RaceModule):
    """One rule of an Event card with its numbers (see the module docstring).

    Subclasses set ``name`` and ``takes`` (how many numbers follow the name) and override the
    hooks their rule changes; :meth:`check` refuses numbers the rule cannot race with.

    Example::

        >>> rule = RULES["laps"]((-1,))
        >>> rule.name, rule.numbers, RULES["laps"].check((0,))
        ('laps', (-1,), 'must be -9..9, not 0')
    """

    name: ClassVar[str] = ""
    takes: ClassVar[int] = 0
    #: the range of every number; ``signed``: a change, so 0 is refused (it would do nothing)
    low: ClassVar[int] = 1
    high: ClassVar[int] = 9
    signed: ClassVar[bool] = False

    def __init__(self, numbers: tuple[int, ...] = ()) -> None:
        super().__init__({})
        self.numbers = numbers

    @classmethod
    def check(cls, numbers: tuple[int, ...]) -> str:
        """Why ``numbers`` cannot make this rule ("" when they can)."""
        if any(not cls.low <= n <= cls.high or (cls.signed and n == 0) for n in numbers):
            return f"must be {cls.low}..{cls.high}" + (", not 0" if cls.signed else "")
        return ""

    @property
    def n(self) -> int:
        return self.numbers[0]

    # -- the championship's own hooks ----------------------------------------------------------
    def press_pays(self, race: ModuleRace, car: Car, limit: int, slipstream: bool,
                   pays: bool) -> bool:
        """Does crossing a Press Corner of ``limit`` (at ``car.speed``; by a slipstream or
        not) earn sponsors, given the answer so far (the base rule's: speed >= limit + 2, or a
        slipstream)?"""
        return pays

    def press_sponsors(self, n: int) -> int:
        """Sponsors a paying Press Corner earns, given ``n`` (1 by the base rule)."""
        return n

    def race_points(self, hall_of_fame: list[int], points: dict[int, int]) -> None:
        """Add this rule's points to ``points`` (car -> points of the race so far), given the
        finish order ``hall_of_fame``."""


#: rule name -> its class; the data file's rules are checked against it
RULES: dict[str, type[EventRule]] = {}


def rule(cls: type[EventRule]) -> type[EventRule]:
    """Register an Event rule under ``cls.name`` (a decorator)."""
    if not cls.name or cls.name in RULES:
        raise ValueError(f"Event rule {cls.name!r} missing or already registered")
    RULES[cls.name] = cls
    return cls


def _drives(race: ModuleRace, car: Car) -> bool:
    """Does ``car`` hold cards (a Legend car holds none)?"""
    plans = race.hooks.plans
    return plans is None or plans(race, car)


# -- the race's set-up -----------------------------------------------------------------------------
@rule
class Laps(EventRule):
    """``laps N``: N laps more (or fewer) than the track prints; at least 1 is raced.

    Example::

        >>> Laps((-1,)).laps(None, 3)
        2
    """

    name, takes = "laps", 1
    low, signed = -9, True

    def laps(self, race: ModuleRace, laps: int) -> int:
        return laps + self.n


@rule
class Heat(EventRule):
    """``heat N``: N Heat cards more (or fewer, down to none) in each engine.

    Example: a rule as the race sees it, one of a championship module's parts::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="france", cars=1, modules={"garage": {"choose": "none"},
        ...             "championship": {"event": "safety_regulations"}}))
        >>> [type(p).__name__ for p in race.hooks.by_key["championship"].parts]
        ['Heat', 'Stress', 'HandSize']
        >>> race.cars[0].engine, race.hand_size
        (4, 6)
    """

    name, takes = "heat", 1
    low, signed = -9, True

    def setup_car(self, race: ModuleRace, car: Car) -> None:
        if _drives(race, car):
            car.engine = max(0, car.engine + self.n)


@rule
class Stress(EventRule):
    """``stress N``: N Stress cards more (or fewer, down to none) in each deck.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="italy", cars=1, modules={"garage": {"choose": "none"},
        ...             "championship": {"event": "future_unknown"}}))
        >>> car = race.cars[0]
        >>> (car.hand + car.draw).count("S")   # Italy prints 3
        4
    """

    name, takes = "stress", 1
    low, signed = -9, True

    def setup_car(self, race: ModuleRace, car: Car) -> None:
        if not _drives(race, car):
            return
        if self.n > 0:
            car.draw.extend([STRESS] * self.n)
        for _ in range(min(-self.n, car.draw.count(STRESS))):
            car.draw.remove(STRESS)


@rule
class HandSize(EventRule):
    """``hand_size N``: N cards in a full hand.

    Example::

        >>> HandSize((8,)).hand_size(None, 7)
        8
    """

    name, takes = "hand_size", 1
    low, high = 1, 20

    def hand_size(self, race: ModuleRace, size: int) -> int:
        return self.n


# -- the round ----------------------------------------------------------------------------------
@rule
class NoAdrenaline(EventRule):
    """``no_adrenaline``: nobody gets Adrenaline (so nor its +1 Cooldown).

    Example::

        >>> NoAdrenaline().adrenaline(None, None, True)
        False
    """

    name = "no_adrenaline"

    def adrenaline(self, race: ModuleRace, car: Car, has: bool) -> bool:
        return False


@rule
class SlipstreamGear(EventRule):
    """``slipstream_gear N``: a car slipstreams only in gear N or higher.

    Example::

        >>> from pitboard.engine.car import Car
        >>> car = Car(id=0, name="Ann", d=5, spot=1, space=5, gear=2)
        >>> SlipstreamGear((3,)).may_slipstream(None, car)
        False
    """

    name, takes = "slipstream_gear", 1
    low, high = 1, 4

    def may_slipstream(self, race: ModuleRace, car: Car) -> bool:
        return car.gear >= self.n


@rule
class DiscardHeat(EventRule):
    """``discard_heat``: Heat cards may be discarded in step 8.

    Example::

        >>> sorted(DiscardHeat().undiscardable(None, None, frozenset({"H", "S"})))
        ['S']
    """

    name = "discard_heat"

    def undiscardable(self, race: ModuleRace, car: Car, codes: frozenset[str]
                      ) -> frozenset[str]:
        return codes - {HEAT}


@rule
class DiscardStress(EventRule):
    """``discard_stress``: Stress cards may be discarded in step 8.

    Example::

        >>> sorted(DiscardStress().undiscardable(None, None, frozenset({"H", "S"})))
        ['H']
    """

    name = "discard_stress"

    def undiscardable(self, race: ModuleRace, car: Car, codes: frozenset[str]
                      ) -> frozenset[str]:
        return codes - {STRESS}


@rule
class DiscardMost(EventRule):
    """``discard_most N``: at most N cards discarded a turn.

    Example::

        >>> DiscardMost((1,)).discard_limit(None, None, None)
        1
    """

    name, takes = "discard_most", 1
    low, high = 0, 20

    def discard_limit(self, race: ModuleRace, car: Car, most: int | None) -> int | None:
        return self.n if most is None else min(most, self.n)


@rule
class SpinOutEliminates(EventRule):
    """``spin_out_eliminates``: a car that spins out is out of the race: off the board, no
    place, no points.

    Example: scenario ``tests/scenarios/champ_future_unknown.txt``::

        >>> from pitboard.scenario import load_scenario
        >>> race = load_scenario("tests/scenarios/champ_future_unknown.txt").run()
        >>> race.cars[0].retired, race.hall_of_fame
        (True, [1])
    """

    name = "spin_out_eliminates"

    def after_corners(self, race: ModuleRace, car: Car) -> None:
        if car.spun:
            race.retire(car, "spin-out")


# -- sponsors -------------------------------------------------------------------------------------
def earn(race: ModuleRace, car: Car, why: str, corner: int | None = None, n: int = 1) -> None:
    """``car`` earns ``n`` sponsors for ``why`` (never on a turn it spun out): the
    championship module deals them (see :meth:`ChampionshipModule.earn
    <pitboard.engine.championship.module.ChampionshipModule.earn>`)."""
    if car.spun:
        return
    module = race.hooks.by_key.get("championship")
    if module is not None:
        for _ in range(n):
            module.earn(race, car, why, corner)  # type: ignore[attr-defined]


@rule
class LapOneSponsors(EventRule):
    """``lap_one_sponsors N``: the first N cars to finish lap 1 earn a sponsor (every car
    counts, a Legend too).

    Example: four cars finish lap 1 in a round (``tests/scenarios/champ_lap_one.txt``)::

        >>> from pitboard.scenario import load_scenario
        >>> race = load_scenario("tests/scenarios/champ_lap_one.txt").run()
        >>> [(e.car, e.why) for e in race.events if e.kind == "sponsor"]
        [(0, 'lap'), (1, 'lap'), (2, 'lap')]
    """

    name, takes = "lap_one_sponsors", 1

    def after_corners(self, race: ModuleRace, car: Car) -> None:
        line = race.track.spaces  # the finish line at the end of lap 1
        if car.start_d <= line < car.d:
            ahead = sum(1 for c in race.cars if c is not car and c.d > line)
            if ahead < self.n:
                earn(race, car, "lap")


@rule
class SpeedSponsor(EventRule):
    """``speed_sponsor N``: a turn at speed N or more earns a sponsor.

    Example (``tests/scenarios/champ_speed_record.txt``)::

        >>> from pitboard.scenario import load_scenario
        >>> race = load_scenario("tests/scenarios/champ_speed_record.txt").run()
        >>> [(e.car, e.card, e.why) for e in race.events if e.kind == "sponsor"]
        [(0, 'P3', 'record')]
    """

    name, takes = "speed_sponsor", 1
    low, high = 1, 99

    def after_corners(self, race: ModuleRace, car: Car) -> None:
        if car.speed >= self.n:
            earn(race, car, "record")


@rule
class PassingSponsor(EventRule):
    """``passing_sponsor N``: a move that passes N cars earns a sponsor: the cars on the board
    spaces strictly between where the car started its turn and where it ends (Board Game
    Arena's count, both spots of each space).

    Example (``tests/scenarios/champ_first_live_tv.txt``)::

        >>> from pitboard.scenario import load_scenario
        >>> race = load_scenario("tests/scenarios/champ_first_live_tv.txt").run()
        >>> [(e.car, e.why) for e in race.events if e.kind == "sponsor"]
        [(3, 'passing')]
    """

    name, takes = "passing_sponsor", 1

    def after_corners(self, race: ModuleRace, car: Car) -> None:
        moved = car.d - car.start_d
        if moved < 2:
            return
        spaces = race.track.spaces
        start = (car.start_d - 1) % spaces + 1
        passed = sum(1 for c in race.cars if c is not car and c.on_track
                     and 0 < (c.space - start) % spaces < moved)
        if passed >= self.n:
            earn(race, car, "passing")


@rule
class HeatPerLap(EventRule):
    """``heat_per_lap N``: each lap a car completes takes N Heat cards out of the game: from
    its engine first, then its hand, its discard pile, its draw deck.

    Example (``tests/scenarios/champ_pressure_cooker.txt``)::

        >>> from pitboard.scenario import load_scenario
        >>> race = load_scenario("tests/scenarios/champ_pressure_cooker.txt").run()
        >>> [(e.car, e.piles) for e in race.events if e.kind == "heat_removed"]
        [(0, ('engine',)), (1, ('hand',))]
    """

    name, takes = "heat_per_lap", 1

    def after_corners(self, race: ModuleRace, car: Car) -> None:
        spaces = race.track.spaces
        lap = max(1, -(-car.start_d // spaces))  # the first finish line at or after the start
        while lap * spaces < car.d and lap <= race.laps:
            piles = tuple(p for p in (_take_heat(car) for _ in range(self.n)) if p)
            module = race.hooks.by_key.get("championship")
            if module is not None:
                module.heat_gone(car, len(piles))  # type: ignore[attr-defined]
            if race.record_events and piles:
                race.record(HeatRemoved(car=car.id, piles=piles, lap=lap, round=race.round))
            lap += 1


def _take_heat(car: Car) -> str:
    """Take one Heat card out of ``car``'s engine, else hand, discard pile, draw deck: the
    pile's name ("" when there is none anywhere)."""
    if car.engine:
        car.engine -= 1
        return "engine"
    for name, pile in (("hand", car.hand), ("discard", car.discard), ("draw", car.draw)):
        if HEAT in pile:
            pile.remove(HEAT)
            return name
    return ""


@rule
class PressSponsors(EventRule):
    """``press_sponsors N``: a paying Press Corner earns N sponsors.

    Example::

        >>> PressSponsors((2,)).press_sponsors(1)
        2
    """

    name, takes = "press_sponsors", 1

    def press_sponsors(self, n: int) -> int:
        return self.n


@rule
class PressBelowLimit(EventRule):
    """``press_below_limit``: a Press Corner earns a sponsor only when crossed below its
    limit, by a slipstream or not (Board Game Arena's Smile and wave).

    Example::

        >>> from pitboard.engine.car import Car
        >>> car = Car(id=0, name="Ann", d=50, spot=1, space=50, speed=3)
        >>> PressBelowLimit().press_pays(None, car, 3, False, True)
        False
    """

    name = "press_below_limit"

    def press_pays(self, race: ModuleRace, car: Car, limit: int, slipstream: bool,
                   pays: bool) -> bool:
        return car.speed < limit


# -- the points -----------------------------------------------------------------------------------
@rule
class Bonus(EventRule):
    """``bonus N P``: the first N cars of the race score P points more.

    Example::

        >>> points = {2: 9, 0: 6, 1: 4}
        >>> Bonus((1, 2)).race_points([2, 0, 1], points)
        >>> points
        {2: 11, 0: 6, 1: 4}
    """

    name, takes = "bonus", 2

    def race_points(self, hall_of_fame: list[int], points: dict[int, int]) -> None:
        for car in hall_of_fame[:self.numbers[0]]:
            points[car] = points.get(car, 0) + self.numbers[1]


def build_rules(rules: tuple[tuple[str, tuple[int, ...]], ...]) -> tuple[EventRule, ...]:
    """The rule objects of an Event's ``rules`` (names already checked by the data file)."""
    return tuple(RULES[name](numbers) for name, numbers in rules)


def overriding(rules: tuple[EventRule, ...], hook: str) -> tuple[EventRule, ...]:
    """The rules among ``rules`` that answer the championship hook ``hook``."""
    base = getattr(EventRule, hook)
    return tuple(r for r in rules if getattr(type(r), hook) is not base)


__all__ = ["RULES", "EventRule", "build_rules", "earn", "overriding", "rule"]
