"""Forecast: what a tentative gear and card selection would do, before the player commits.

Feeds the stations' corner and spin-out warnings, so it answers for the turn **as it will be
played**: the plan revealed, then the React step as the turn screen presets it and one GO
confirms it (:mod:`pitboard.engine.preset`: cool the most Heat, Adrenaline and Boost where the
car can pay for them, slipstream as preset), then the corner checks. It reads the engine
itself: the turn is played on a copy of the race (:mod:`pitboard.engine.sandbox`) once for
every way the car's cards can fall (Stress flips, an upgrade's [+], the Boost, a reshuffle),
each with its exact chance. So every module's rules count as the engine applies them: Garage
symbols, Legend cars in the way, weather and road tokens.

The car plays as if it moved first this round: other cars are taken where they stand now
(one that moves earlier in the round may still block or give a slipstream).

The preset only takes Adrenaline, a Boost or a slipstream where the car can pay for the corners
they add, so what GO does never spins out where holding back would not. Cooling is different:
a corner paid only thanks to the Heat GO cools first would spin the car out with COOL turned
off. :attr:`Forecast.risks` says so, for a warning in a few words ("keep COOL") rather than a
plain "ok" (the old forecast knew no Cooldown and cried SPIN OUT there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .cards import HEAT
from .decisions import COUNT, PLAN, Plan, PlanProblem
from .events import CooledDown, CornerChecked, HeatPaid, Moved, Shifted, SpunOut
from .race import Race
from .sandbox import Sandbox, play_all


@dataclass(frozen=True, slots=True)
class CornerCheck:
    """One corner line the move crosses: its number (1-based), the limit in force for this car
    this turn and the Heat it charges (on a spin-out: all the engine had left).

    Example: speed 13 from the start is 6 over corner 1's limit of 7, with 5 Heat left after
    shifting to gear 3; the lone car's Adrenaline would add 1 more: it stays off, and the car
    pays all 5 and spins out::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> forecast(race, 0, gear=3, cards=("4", "5", "4")).corners()
        [CornerCheck(corner=1, limit=7, heat=5)]
    """

    corner: int
    limit: int
    heat: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way the turn can go, with its chance: the speed, where the car ends, every corner
    crossed, the Heat paid and what the one-GO answer did.

    Example: the Stress card flips a basic card from the draw pile (7 of them, one 4); car 0
    is last in the round, so GO takes Adrenaline's +1 where corner 1 does not charge for it::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> fc = forecast(race, 0, gear=3, cards=("4", "5", "S"))
        >>> [(o.speed, str(o.probability), o.adrenaline, o.spin_out) for o in fc.outcomes]
        [(11, '2/7', True, False), (12, '2/7', True, False), (12, '2/7', False, False), \
(13, '1/7', False, True)]
        >>> spun = fc.outcomes[-1]          # stopped before corner 1: shift 1 + all 5 Heat
        >>> spun.space, spun.heat, spun.spin_corner, spun.engine
        (12, 6, 1, 0)
    """

    speed: int
    probability: Fraction
    d: int
    lap: int
    space: int
    spot: int
    racing_line: bool
    spaces: int
    blocked: int
    corners: tuple[CornerCheck, ...]
    #: Heat paid this turn: the shift, upgrades and a Boost, then each corner (all the engine
    #: has on a spin-out)
    heat: int
    spin_out: bool
    spin_corner: int | None = None
    #: Heat in the engine when the turn is over (cooling included)
    engine: int = 0
    #: what the one-GO answer did: Heat cooled, Adrenaline taken, a Boost, slipstream spaces
    cooled: int = 0
    adrenaline: bool = False
    boosted: bool = False
    slipstream: int = 0
    #: the turn put the car out of the race (a championship Event: a spin-out eliminates)
    retired: bool = False


@dataclass(frozen=True, slots=True)
class Risk:
    """A toggle of the turn screen that would bring a spin-out: set to ``on`` (False: turned
    off), the chance of a spin-out becomes ``spin_probability``.

    Example::

        >>> Risk("cooling", False, Fraction(1)).toggle
        'cooling'
    """

    toggle: str
    on: bool
    spin_probability: Fraction


@dataclass(frozen=True, slots=True)
class Forecast:
    """Everything a station shows before GO.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> fc = forecast(race, 0, gear=3, cards=("4", "5", "S"))
        >>> fc.legal, fc.min_speed, fc.max_speed, fc.spin_probability, fc.max_heat
        (True, 11, 13, Fraction(1, 7), 6)
    """

    car: int
    gear: int
    cards: tuple[str, ...]
    problem: PlanProblem | None
    shift_cost: int
    clogged: bool
    engine: int
    outcomes: tuple[Outcome, ...]
    #: toggles that, set against the preset, would raise the chance of a spin-out (turning
    #: COOL off where the cooled Heat pays a corner)
    risks: tuple[Risk, ...] = ()

    @property
    def legal(self) -> bool:
        return self.problem is None

    @property
    def min_speed(self) -> int:
        return min((o.speed for o in self.outcomes), default=0)

    @property
    def max_speed(self) -> int:
        return max((o.speed for o in self.outcomes), default=0)

    @property
    def spin_probability(self) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.spin_out), Fraction(0))

    @property
    def out_probability(self) -> Fraction:
        """The chance the turn puts the car out of the race (a championship Event's spin-out
        elimination; 0 in any other race)."""
        return sum((o.probability for o in self.outcomes if o.retired), Fraction(0))

    @property
    def max_heat(self) -> int:
        return max((o.heat for o in self.outcomes), default=self.shift_cost)

    def corners(self) -> list[CornerCheck]:
        """Every corner any outcome crosses, with the worst Heat it could charge."""
        worst: dict[int, CornerCheck] = {}  # insertion order = order crossed
        for o in sorted(self.outcomes, key=lambda o: -o.speed):
            for c in o.corners:
                if c.corner not in worst or c.heat > worst[c.corner].heat:
                    worst[c.corner] = c
        return list(worst.values())


def forecast(race: Race, car_id: int, gear: int, cards: tuple[str, ...] | list[str], *,
             partial: bool = False, overrides: Mapping[str, bool] = {}) -> Forecast:
    """What playing ``cards`` in ``gear`` would do for ``car_id`` this round, the React step
    answered as the turn screen presets it (``overrides``: toggles set otherwise).

    With ``partial`` a selection that is still short of (or over) the gear's card count is
    forecast as if played, so a station can warn while the player is still choosing; the
    ``problem`` is still reported. While the race plans, answers are kept per selection until
    the round moves on.
    """
    cards = tuple(cards)
    key = (car_id, gear, cards, partial, tuple(sorted(overrides.items())))
    memo = _memo(race) if not race.cars[car_id].planned else None
    found = memo.get(key) if memo is not None else None
    if found is None:
        found = _forecast(race, car_id, gear, cards, partial, overrides)
        if memo is not None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[key] = found
    return found


def forecast_planned(race: Race, car_id: int) -> Forecast:
    """What ``car_id``'s plan, locked in with its turn still to come, will do from the race as
    it stands (the locked and waiting screens): the forecast of its cards in play as the
    planning screen showed it at GO, read from the engine alone (the gear it shifted from and
    the Heat the shift took are in the round's ``shift`` event). Kept while no car moves: while
    the race plans, it is the answer the planning screen had for the same cards.

    Example::

        >>> from pitboard.engine import Plan, Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.apply(Plan(car=0, gear=3, cards=("4", "5", "S")))
        >>> fc = forecast_planned(race, 0)
        >>> fc == forecast(Race(RaceSetup(track="usa", cars=2, seed=1, laps=1)), 0, 3,
        ...                ("4", "5", "S"))
        True
    """
    car = race.cars[car_id]
    where = (race.round, tuple((c.d, c.spot, c.on_track) for c in race.cars))
    entry = _planned.get(id(race))
    if entry is None or entry[0] is not race:
        if len(_planned) >= 4:
            _planned.clear()
        entry = _planned[id(race)] = (race, {})
    kept = entry[1].get(car_id)
    if kept is not None and kept[0] == where:
        return kept[1]
    cards = tuple(c for c in car.play if c != HEAT) if car.clogged else tuple(car.play)
    memo = _memo(race)  # while the race plans: the planning screen's answer, if it had one
    found = None if memo is None else \
        memo.get((car_id, car.gear, cards, True, ())) or memo.get((car_id, car.gear, cards,
                                                                    False, ()))
    if found is None:
        _, shift_cost = shifted(race, car_id)
        head: Head = (car_id, car.gear, cards, None, shift_cost, car.clogged,
                      car.engine + shift_cost)
        if car.clogged or not car.play:
            found = Forecast(*head, (_still(race, car, shift_cost, car.engine),))
        else:
            found = _assess(Sandbox(race, car_id), head, {})
    entry[1][car_id] = (where, found)
    return found


def shifted(race: Race, car_id: int) -> tuple[int, int]:
    """The gear ``car_id`` was in before it planned this round, and the Heat the shift took
    (its ``shift`` event; none: it kept its gear)."""
    for e in reversed(race.events):
        if e.round != race.round:
            break
        if isinstance(e, Shifted) and e.car == car_id:
            return e.frm, e.heat
    return race.cars[car_id].gear, 0


def _still(race: Race, car: Any, shift_cost: int, engine: int) -> Outcome:
    """A clogged plan: no move, the Heat cards fill it, the car drops to gear 1."""
    return Outcome(0, Fraction(1), car.d, race.lap_of(car.d), car.space, car.spot,
                   car.spot == race.racing_spot(car.d), 0, 0, (), shift_cost, False,
                   engine=engine)


def _forecast(race: Race, car_id: int, gear: int, cards: tuple[str, ...], partial: bool,
              overrides: Mapping[str, bool]) -> Forecast:
    car = race.cars[car_id]
    problem = race.plan_problem(Plan(car_id, gear, cards))
    rule = race.plan_rule(car_id)
    shift_cost = rule.shift_cost.get(gear, 0)
    clogged = gear in rule.clogged
    head: Head = (car_id, gear, cards, problem, shift_cost, clogged, car.engine)
    if (problem is not None and not (partial and problem.kind == COUNT)) or not cards:
        return Forecast(*head, ())
    if clogged:
        return Forecast(*head, (_still(race, car, shift_cost, car.engine - shift_cost),))
    sandbox = _sandbox(race, car_id) if not car.planned else Sandbox(race, car_id)
    return _assess(sandbox, head, overrides)


#: a forecast's fields before its outcomes: car, gear, cards, problem, shift cost, clogged,
#: Heat in the engine
Head = tuple[int, int, tuple[str, ...], PlanProblem | None, int, bool, int]


def _assess(sandbox: Sandbox, head: Head, overrides: Mapping[str, bool]) -> Forecast:
    """The forecast of the plan in ``head`` (car, gear, cards, problem, shift cost, ...): its
    outcomes, and the risk of turning COOL off where the cooled Heat pays a corner."""
    gear, cards, shift_cost = head[1], head[2], head[4]
    outcomes = _outcomes(sandbox, gear, cards, shift_cost, overrides)
    fc = Forecast(*head, outcomes)
    if "cooling" in overrides or not any(o.cooled and any(c.heat for c in o.corners)
                                         for o in outcomes):
        return fc
    # the cooled Heat pays a corner: would the car spin without it?
    uncooled = _outcomes(sandbox, gear, cards, shift_cost, {**overrides, "cooling": False})
    p = sum((o.probability for o in uncooled if o.spin_out), Fraction(0))
    if p <= fc.spin_probability:
        return fc
    return replace(fc, risks=(Risk("cooling", False, p),))


def _outcomes(sandbox: Sandbox, gear: int, cards: tuple[str, ...], shift_cost: int,
              overrides: Mapping[str, bool]) -> tuple[Outcome, ...]:
    """Every way the turn can go, alike ones merged, from the slowest."""
    merged: dict[tuple[Any, ...], Fraction] = {}
    for outcome, p in play_all(sandbox, gear, cards, _reader(shift_cost),
                               shift_cost=shift_cost, overrides=overrides):
        merged[outcome] = merged.get(outcome, Fraction(0)) + p
    return tuple(sorted((Outcome(o[0], p, *o[1:]) for o, p in merged.items()),
                        key=lambda o: (o.speed, o.d, o.spin_out, o.heat, o.engine,
                                       o.spaces, o.spot)))


def _reader(shift_cost: int) -> Callable[[Sandbox], tuple[Any, ...]]:
    def read(sb: Sandbox) -> tuple[Any, ...]:
        return _outcome(sb, shift_cost)
    return read


def _outcome(sb: Sandbox, shift_cost: int) -> tuple[Any, ...]:
    """What the play just made in ``sb`` did, read from its events (the engine's own account
    of the turn): an :class:`Outcome`'s fields but its chance."""
    car = sb.cars[sb.car_id]
    corners: list[CornerCheck] = []
    heat = shift_cost
    spin_corner = None
    cooled = blocked = slip = 0
    for e in sb.events:
        if isinstance(e, CornerChecked):
            corners.append(CornerCheck(e.corner, e.limit, e.heat))
        elif isinstance(e, HeatPaid):
            heat += e.n
        elif isinstance(e, Moved):
            blocked += e.blocked
            if e.why == "slipstream":
                slip += e.spaces
        elif isinstance(e, CooledDown):
            cooled += e.n
        elif isinstance(e, SpunOut):
            spin_corner = e.corner
            heat += e.heat
            index = spin_corner - 1
            limit = sb.corner_limit(index)
            if sb.hooks.car_corner_limit:  # this car's limit there this turn
                limit = sb.hooks.car_corner_limit(sb, car, index, limit)
            corners.append(CornerCheck(spin_corner, limit, e.heat))
    d = car.d
    return (car.speed, d, sb.lap_of(d), car.space, car.spot, car.spot == sb.racing_spot(d),
            d - car.start_d, blocked, tuple(corners), heat, spin_corner is not None,
            spin_corner, car.engine, cooled, car.adrenaline_used, car.boosted, slip,
            car.retired)


# -- kept while the race plans ------------------------------------------------------------------
#: answers per selection, for the race and round they were made in: while the race plans, no
#: car moves and a car's own cards change only when it plans, so its forecasts stay true
_MEMO_SIZE = 512
_memos: dict[int, tuple[Race, int, dict[tuple[object, ...], Forecast], dict[int, Sandbox]]] = {}
#: locked plans' answers by car, for the race and where the cars stood then
_planned: dict[int, tuple[Race, dict[int, tuple[object, Forecast]]]] = {}


def _entry(race: Race) -> tuple[Race, int, dict[tuple[object, ...], Forecast],
                                dict[int, Sandbox]] | None:
    if race.phase != PLAN:
        return None
    entry = _memos.get(id(race))
    if entry is None or entry[0] is not race or entry[1] != race.round:
        if len(_memos) >= 4:  # a few tables at most (a kiosk's attract race, tests)
            _memos.clear()
        entry = _memos[id(race)] = (race, race.round, {}, {})
    return entry


def _memo(race: Race) -> dict[tuple[object, ...], Forecast] | None:
    entry = _entry(race)
    return entry[2] if entry is not None else None


def _sandbox(race: Race, car_id: int) -> Sandbox:
    entry = _entry(race)
    if entry is None:
        return Sandbox(race, car_id)
    sandboxes = entry[3]
    found = sandboxes.get(car_id)
    if found is None:
        found = sandboxes[car_id] = Sandbox(race, car_id)
    return found
