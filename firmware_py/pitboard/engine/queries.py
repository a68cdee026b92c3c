"""What a race waits for and what is legal now: the questions :class:`~pitboard.engine.race.Race`
answers without changing anything (its rules in motion, ``apply``, are in ``race.py``).

Bots, screens and the console ask these before every decision: the pending decision with its
options, each car's plan rule, the React options, the car to decide next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .car import Car
from .cards import DISCARDABLE, HEAT, PLAYABLE, STRESS, UNDISCARDABLE
from .decisions import (
    DISCARD,
    DONE,
    OVER,
    PLAN,
    REACT,
    SLIPSTREAM,
    Decision,
    Pending,
    Plan,
    PlanProblem,
    PlanRule,
    React,
    Slipstream,
)
from .piles import Piles

if TYPE_CHECKING:
    from .race import Race
    from .react import ReactAction


def _shifts(gear: int, *, heat: bool) -> tuple[tuple[int, ...], dict[int, int]]:
    """Gears reachable from ``gear``: 1 step free, 2 steps for 1 Heat (if there is any)."""
    gears = tuple(g for g in range(1, 5) if abs(g - gear) < 2 or (abs(g - gear) == 2 and heat))
    return gears, {g: 1 if abs(g - gear) == 2 else 0 for g in gears}


#: the shift table: gear -> (the gears reachable from it, the Heat each shift costs); shared:
#: read it, never change it. SHIFTS with Heat in the engine, FREE_SHIFTS without (no 2-gear
#: shift then). ``Race.shifts(car)`` picks the one for a car.
SHIFTS = {g: _shifts(g, heat=True) for g in range(1, 5)}
FREE_SHIFTS = {g: _shifts(g, heat=False) for g in range(1, 5)}
#: (gear, Heat in the engine up to 4, extra Heat a downshift costs) -> shifts and costs
_PAID_SHIFTS: dict[tuple[int, int, int], tuple[tuple[int, ...], dict[int, int]]] = {}


def _paid_shifts(gear: int, engine: int, extra: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """Shifts when a downshift costs ``extra`` Heat more (a flooded space): those the engine's
    Heat pays for. Cached: read them, never change them."""
    key = (gear, min(engine, 4), extra)
    found = _PAID_SHIFTS.get(key)
    if found is None:
        costs = {g: (abs(g - gear) == 2) + (extra if g < gear else 0)
                 for g in range(max(1, gear - 2), min(4, gear + 2) + 1)}
        gears = tuple(g for g, cost in costs.items() if cost <= engine)
        found = _PAID_SHIFTS[key] = (gears, {g: costs[g] for g in gears})
    return found


BASE_PHASES = frozenset({PLAN, REACT, SLIPSTREAM, DISCARD, OVER})
#: the base game's undiscardable cards, as the undiscardable hooks receive them
_UNDISCARDABLE = frozenset(UNDISCARDABLE)


def undiscardable_text(kept: frozenset[str] | set[str]) -> str:
    """Why a card of ``kept`` cannot leave a hand in step 8, in one sentence.

    Example::

        >>> undiscardable_text(frozenset({"H", "S"})), undiscardable_text(frozenset({"S"}))
        ('Heat and Stress cards can never be discarded', 'Stress cards cannot be discarded now')
    """
    heat, stress = HEAT in kept, STRESS in kept
    if heat and stress:
        return "Heat and Stress cards can never be discarded"
    kinds = "Heat" if heat else "Stress" if stress else "these"
    return f"{kinds} cards cannot be discarded now"
#: the phases of one car's turn
TURN_PHASES = frozenset({REACT, SLIPSTREAM, DISCARD})


class Queries(Piles):
    """The read-only side of a race (a layer of :class:`~pitboard.engine.race.Race`, which
    keeps the state named below).

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.pending().kind, race.waiting_for(), race.plan_rule(0).gears
        ('plan', 0, (1, 2, 3))
    """

    __slots__ = ("_pending", "_rules")

    #: pending() and the log length it was found at: a decision applied grows the log
    _pending: tuple[int, Pending] | None
    #: plan rules of this round by car (cleared each round)
    _rules: dict[int, PlanRule]
    phase: str
    order: list[int]
    turn: int
    log: list[Decision]
    _to_plan: list[int]
    _react_actions: tuple[ReactAction, ...]

    def pending(self) -> Pending:
        """What the race is waiting for, with the legal options (cached until a decision is
        applied)."""
        cached = self._pending
        if cached is None or cached[0] != len(self.log):
            cached = self._pending = (len(self.log), self._compute_pending())
        return cached[1]

    def _compute_pending(self) -> Pending:
        phase = self.phase
        if phase == PLAN:
            rules = {c.id: self.plan_rule(c.id) for c in self.cars if not c.planned and
                     not c.finished}
            cars = tuple(sorted(rules))
            forced = bool(cars) and all(rules[c].forced for c in cars)
            return Pending(PLAN, cars, plan_rules=rules, forced=forced)
        if phase == OVER:
            return Pending(OVER)
        if phase not in BASE_PHASES:
            found = self.hooks.pending(self)  # type: ignore[arg-type]  # (always a Race)
            if found is None:
                raise RuntimeError(f"no module answers for phase {phase!r}")
            return found
        car = self.cars[self.order[self.turn]]
        if phase == REACT:
            options = tuple(self._react_options(car))
            return Pending(REACT, (car.id,), options, forced=len(options) == 1)
        if phase == SLIPSTREAM:
            longer = tuple(Slipstream(car.id, True, n) for n in self.slipstream_reaches(car)[1:])
            return Pending(SLIPSTREAM, (car.id,),
                           (Slipstream(car.id, True), *longer, Slipstream(car.id, False)))
        if self.hooks.undiscardable or self.hooks.discard_limit:  # e.g. a championship Event
            kept = self.undiscardable(car)
            return Pending(DISCARD, (car.id,),
                           discardable=tuple(c for c in car.hand if c not in kept),
                           discard_most=self.discard_limit(car))
        return Pending(DISCARD, (car.id,),
                       discardable=tuple(c for c in car.hand if DISCARDABLE[c]))

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def current(self) -> Car | None:
        """The car resolving its turn (None while planning or when the race is over)."""
        if self.phase in (PLAN, OVER) or self.phase not in BASE_PHASES:
            return None
        return self.cars[self.order[self.turn]]

    def plan_rule(self, car_id: int) -> PlanRule:
        """How ``car_id`` may plan this round (memoized: nothing it depends on changes
        until that car plans)."""
        rule = self._rules.get(car_id)
        if rule is None:
            rule = self._rules[car_id] = self._plan_rule(car_id)
        return rule

    def _plan_rule(self, car_id: int) -> PlanRule:
        car = self.cars[car_id]
        gears, cost = self.shifts(car)
        playable = tuple(filter(PLAYABLE.__getitem__, car.hand))
        clogged = tuple(g for g in gears if g > len(playable)) if len(playable) < 4 else ()
        extra = self.hooks.downshift_heat
        if extra is None:
            return PlanRule(car.id, car.gear, gears, cost, playable, clogged)
        return PlanRule(car.id, car.gear, gears, cost, playable, clogged,
                        extra(self, car, 0))

    def shifts(self, car: Car) -> tuple[tuple[int, ...], dict[int, int]]:
        """The gears ``car`` may plan now and the Heat each shift costs (shared tables: read
        them, never change them)."""
        extra = self.hooks.downshift_heat  # e.g. a flooded space
        if extra is not None and (n := extra(self, car, 0)):
            return _paid_shifts(car.gear, car.engine, n)
        return SHIFTS[car.gear] if car.engine else FREE_SHIFTS[car.gear]

    def may_discard(self, car: Car) -> bool:
        """May ``car`` discard cards from its hand now? (Not on a tunnel space: the Discard
        step and every effect that discards from a hand ask this.)"""
        may = self.hooks.may_discard
        return may is None or may(self, car)

    def undiscardable(self, car: Car) -> frozenset[str]:
        """The card codes ``car`` may never discard in step 8 now: Heat and Stress in the base
        game (a championship Event may free one of them)."""
        hook = self.hooks.undiscardable
        return hook(self, car, _UNDISCARDABLE) if hook else _UNDISCARDABLE

    def discard_limit(self, car: Car) -> int | None:
        """The most cards ``car`` may discard in step 8 (None: any number, the base game)."""
        hook = self.hooks.discard_limit
        return hook(self, car, None) if hook else None

    def _waiting_text(self) -> str:
        p = self.pending()
        return f"{p.kind} from car {', '.join(str(c) for c in p.cars)}"

    def plan_problem(self, plan: Plan) -> PlanProblem | None:
        """Why ``plan`` is not legal for its car now (None if it is)."""
        return self.plan_rule(plan.car).problem(plan, self.cars[plan.car].hand)

    def boost_heat(self, car: Car) -> int:
        """Heat a Boost costs ``car`` now (1 in the base game)."""
        return self.hooks.boost_heat(self, car, 1) if self.hooks.boost_heat else 1

    def react_options(self, car_id: int) -> list[React]:
        """Every legal React decision of the car now resolving (ends with 'done')."""
        return self._react_options(self.cars[car_id])

    def waiting_for(self) -> int:
        """The car that must decide next (while planning, the lowest unplanned car); -1 when
        the race is over. Cheaper than :meth:`pending` for bots and loops."""
        phase = self.phase
        if phase in TURN_PHASES:
            return self.order[self.turn]
        if phase == PLAN:
            return self._to_plan[0] if self._to_plan else self.order[self.turn]
        if phase == OVER:
            return -1
        if self.hooks.waiting and (car_id := self.hooks.waiting(self)) is not None:
            return car_id  # a module's phase, named without listing its options
        cars = self.pending().cars  # a module's phase
        return cars[0] if cars else -1

    def _react_options(self, car: Car) -> list[React]:
        race: Race = self  # type: ignore[assignment]  # a Queries is always a Race
        options = [o for action in self._react_actions for o in action.options(race, car)]
        options.append(React(car.id, DONE))
        return options
