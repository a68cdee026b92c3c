"""Forecast: what a tentative gear and card selection would do, before the player commits.

Feeds the stations' corner warnings. Stress cards make the speed a range: each Stress flips the
player's draw pile until a basic Speed card, so the odds come from the basic cards that can still
be drawn (the draw pile, then the discard pile once the draw pile runs out). Other cars are taken
where they stand now; cars that move earlier in the round may still block.

Modules change what cards do at reveal (an upgrade's [+] flips, Heat cost, corner-limit adjust,
speed choices) through the ``forecast_reveal`` hook: they adjust a :class:`RevealForecast`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .cards import BASIC, SPEED, STRESS
from .decisions import COUNT, Plan, PlanProblem
from .race import Race


@dataclass(frozen=True, slots=True)
class RevealForecast:
    """What planned cards do at reveal, before any flip is known.

    ``speed`` is the fixed part (speed choices at their lowest), ``flips`` the [+] flips (each
    Stress card, each upgrade boost), ``engine`` the Heat left after the shift and the cards'
    own Heat costs (``heat``), ``adjust`` this car's corner-limit change this turn and ``choice``
    how much higher the player's speed choices can still take the speed.

    Example: ``4 5 S`` in gear 3 with 6 Heat, as the forecast starts it; a module's hook
    returns a changed copy (here an upgrade's [+] flip that costs 1 Heat)::

        >>> from dataclasses import replace
        >>> reveal = RevealForecast(speed=9, flips=1, engine=5)  # 1 Heat paid to shift
        >>> replace(reveal, flips=reveal.flips + 1, engine=reveal.engine - 1, heat=1)
        RevealForecast(speed=9, flips=2, engine=4, heat=1, adjust=0, choice=0)
    """

    speed: int
    flips: int
    engine: int
    heat: int = 0
    adjust: int = 0
    choice: int = 0


@dataclass(frozen=True, slots=True)
class CornerCheck:
    """One corner line the move would cross: its number (1-based), limit and Heat charged.

    Example: speed 13 from the start is 6 over corner 1's limit of 7, with 5 Heat left after
    shifting to gear 3: the car pays all 5 and spins out::

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
    """One possible speed and its consequences.

    Example: the Stress card flips a basic card from the draw pile, 7 of them with one 4::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> fc = forecast(race, 0, gear=3, cards=("4", "5", "S"))
        >>> [(o.speed, str(o.probability), o.spin_out) for o in fc.outcomes]
        [(10, '2/7', False), (11, '2/7', False), (12, '2/7', False), (13, '1/7', True)]
        >>> spun = fc.outcomes[-1]          # stopped before corner 1: shift 1 + all 5 Heat
        >>> spun.space, spun.heat, spun.spin_corner
        (12, 6, 1)
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
    #: Heat paid this turn: the shift, then each corner (all the engine has on a spin-out)
    heat: int
    spin_out: bool
    spin_corner: int | None = None


@dataclass(frozen=True, slots=True)
class Forecast:
    """Everything a station shows before GO.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> fc = forecast(race, 0, gear=3, cards=("4", "5", "S"))
        >>> fc.legal, fc.min_speed, fc.max_speed, fc.spin_probability, fc.max_heat
        (True, 10, 13, Fraction(1, 7), 6)
    """

    car: int
    gear: int
    cards: tuple[str, ...]
    problem: PlanProblem | None
    shift_cost: int
    clogged: bool
    engine: int
    outcomes: tuple[Outcome, ...]
    #: how much higher speed choices (an upgrade's 1/3...) can take any outcome's speed; the
    #: outcomes and the spin-out chance assume the lowest choice, which is always open
    choice: int = 0

    @property
    def legal(self) -> bool:
        return self.problem is None

    @property
    def min_speed(self) -> int:
        return min((o.speed for o in self.outcomes), default=0)

    @property
    def max_speed(self) -> int:
        return max((o.speed for o in self.outcomes), default=0) + self.choice

    @property
    def spin_probability(self) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.spin_out), Fraction(0))

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


def stress_distribution(draw: list[str], discard: list[str], flips: int) -> dict[int, Fraction]:
    """Exact distribution of the total that ``flips`` Stress flips add.

    The first basic card of a shuffled pile is uniform over its basic cards, so each flip draws
    without replacement from the draw pile's basics, then from the discard's.
    """
    if flips == 0:
        return {0: Fraction(1)}
    first = _counts(draw)
    second = _counts(discard)
    return dict(_dist(first, second, flips))


def _counts(pile: list[str]) -> tuple[int, int, int, int]:
    return (pile.count("1"), pile.count("2"), pile.count("3"), pile.count("4"))


@lru_cache(maxsize=4096)
def _dist(first: tuple[int, ...], second: tuple[int, ...], flips: int
          ) -> tuple[tuple[int, Fraction], ...]:
    if flips == 0:
        return ((0, Fraction(1)),)
    if not sum(first):
        if not sum(second):  # nothing left anywhere: each further flip gives nothing
            return ((0, Fraction(1)),)
        first, second = second, (0, 0, 0, 0)  # the reshuffled discard
    total = sum(first)
    out: dict[int, Fraction] = {}
    for i, n in enumerate(first):
        if not n:
            continue
        after = (*first[:i], n - 1, *first[i + 1:])
        for value, q in _dist(after, second, flips - 1):
            out[value + i + 1] = out.get(value + i + 1, Fraction(0)) + Fraction(n, total) * q
    return tuple(sorted(out.items()))


def forecast(race: Race, car_id: int, gear: int, cards: tuple[str, ...] | list[str], *,
             partial: bool = False) -> Forecast:
    """What playing ``cards`` in ``gear`` would do for ``car_id`` this round.

    With ``partial`` a selection that is still short of (or over) the gear's card count is
    forecast as if played, so a station can warn while the player is still choosing; the
    ``problem`` is still reported.
    """
    cards = tuple(cards)
    car = race.cars[car_id]
    plan = Plan(car_id, gear, cards)
    problem = race.plan_problem(plan)
    rule = race.plan_rule(car_id)
    shift_cost = rule.shift_cost.get(gear, 0)
    engine = car.engine - shift_cost
    clogged = gear in rule.clogged
    if problem is not None and not (partial and problem.kind == COUNT):
        return Forecast(car_id, gear, cards, problem, shift_cost, clogged, car.engine, ())
    if clogged:
        where = race.where(car)
        still = Outcome(0, Fraction(1), car.d, where.lap, car.space, car.spot,
                        where.racing_line, 0, 0, (), shift_cost, False)
        return Forecast(car_id, gear, cards, problem, shift_cost, True, car.engine, (still,))
    reveal = RevealForecast(sum(SPEED[c] for c in cards), cards.count(STRESS), engine)
    if race.hooks.forecast_reveal:  # e.g. upgrades: [+] flips, Heat costs, adjusted limits
        reveal = race.hooks.forecast_reveal(race, car, cards, reveal)
    draw = [c for c in car.draw if c in BASIC]
    discard = [c for c in car.discard if c in BASIC]
    outcomes = []
    for extra, p in sorted(stress_distribution(draw, discard, reveal.flips).items()):
        outcomes.append(_outcome(race, car_id, reveal.speed + extra, p, reveal.engine,
                                 shift_cost + reveal.heat, reveal.adjust))
    return Forecast(car_id, gear, cards, problem, shift_cost, False, car.engine, tuple(outcomes),
                    reveal.choice)


def _outcome(race: Race, car_id: int, speed: int, p: Fraction, engine: int, paid: int,
             adjust: int = 0) -> Outcome:
    car = race.cars[car_id]
    target = car.d + speed
    d, spot = race.landing(car, target)
    blocked = target - d
    checks: list[CornerCheck] = []
    spin_corner = None
    own_limit, heat_for = race.hooks.car_corner_limit, race.hooks.corner_heat
    for line, index, limit in race.corners_between(car.d, d):
        if own_limit:  # as _check_corners does: this car's limit, then the Heat over it
            limit = own_limit(race, car, index, limit)
        limit += adjust  # the planned cards' own (an upgrade's adjust symbol)
        excess = max(0, speed - limit)
        if excess and heat_for:  # e.g. an overheat road token
            excess = heat_for(race, car, index, excess)
        if excess > engine:
            checks.append(CornerCheck(index + 1, limit, engine))
            paid += engine
            spin_corner = index + 1
            d, spot = race.landing(car, line)
            break
        engine -= excess
        paid += excess
        checks.append(CornerCheck(index + 1, limit, excess))
    return Outcome(
        speed=speed, probability=p, d=d, lap=race.lap_of(d), space=race.space_of(d), spot=spot,
        racing_line=spot == race.racing_spot(d), spaces=d - car.d, blocked=blocked,
        corners=tuple(checks), heat=paid, spin_out=spin_corner is not None,
        spin_corner=spin_corner,
    )
