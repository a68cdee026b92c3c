"""Bots that fill empty seats: a random-legal one and a heuristic one that manages Heat.

A bot answers ``choose(race, car_id)`` with a legal decision for that car, whatever the race is
waiting for. Bots draw from their own seeded :class:`~pitboard.engine.shuffle.Stream` (integer
mixing, like the engine's shuffles), so a bot race replays alike on every platform and Python.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from operator import itemgetter
from typing import Protocol

from .engine.cards import HEAT, PLAYABLE, SPEED, STRESS
from .engine.course import SLIPSTREAM_SPACES
from .engine.decisions import (
    ADRENALINE,
    BOOST,
    COOLDOWN,
    DISCARD,
    DONE,
    PLAN,
    REACT,
    SLIPSTREAM,
    Decision,
    Discard,
    Plan,
    PlanRule,
    React,
    Slipstream,
)
from .engine.race import Car, Race
from .engine.setup import MAX_CARS
from .engine.shuffle import Stream

#: what a Stress card is worth when a bot must not overshoot (a flip can give 4)
STRESS_WORST = 4
#: ... and what it gives on average
STRESS_EXPECTED = 2.5
#: no hand of four cards moves further than this (4+4+5+4)
MAX_SPEED = 20


class Bot(Protocol):
    """Anything that answers for a seat: ``choose(race, car_id)`` gives a legal decision for
    that car, whatever the race waits for; ``name`` is what screens and logs call it.

    Example: the heuristic bot is one; two of them race to the flag::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> bot: Bot = HeuristicBot(seed=1)
        >>> bot.name, str(bot.choose(race, 0))
        ('heuristic', 'plan 0 gear 3 cards 5 4 3')
        >>> while race.pending().kind != "over":
        ...     race.apply(bot.choose(race, race.pending().cars[0]))
        >>> all(car.finished for car in race.cars)
        True
    """

    name: str

    def choose(self, race: Race, car_id: int) -> Decision: ...


class RandomBot:
    """Any legal decision, uniformly; the baseline that finds rule holes.

    Example::

        bot = RandomBot(seed=1)
        race.apply(bot.choose(race, race.pending().cars[0]))
    """

    name = "random"

    def __init__(self, *, seed: int = 0) -> None:
        self.rng = Stream(seed)

    def choose(self, race: Race, car_id: int) -> Decision:
        pending = race.pending()
        if pending.kind == PLAN:
            rule = pending.plan_rules[car_id]
            gear = self.rng.choice(rule.gears)
            cards = self.rng.sample(list(rule.playable), rule.cards_needed(gear))
            return Plan(car_id, gear, tuple(cards))
        if pending.kind == DISCARD:
            cards = [c for c in pending.discardable if self.rng.below(10) < 3]  # 30% each
            if pending.discard_most is not None:  # an Event's limit
                cards = cards[:pending.discard_most]
            return Discard(car_id, tuple(cards))
        return self.rng.choice(pending.options)


class HeuristicBot:
    """Drives fast on straights, brakes for corners, pays Heat only when it can, never
    risks a spin-out it can see, cools down when Heat clogs its hand.

    Example::

        bot = HeuristicBot()
        while not race.over:
            race.apply(bot.choose(race, race.pending().cars[0]))
    """

    name = "heuristic"

    def __init__(self, *, seed: int = 0, reserve: int = 1) -> None:
        self.rng = Stream(seed)
        #: Heat the bot keeps in the engine for surprises
        self.reserve = reserve
        #: plan from the car's hand directly, unless a subclass plans from the rule its own way
        self._own_plan = type(self)._plan is HeuristicBot._plan
        # what the bot knows of the corners of the race last seen (see _Course): top speeds by
        # (d, Heat to spare); corner bills by (start, end, speed), or None when modules bill
        # car by car
        self._race: Race | None = None
        self._speeds: dict[tuple[int, int], _Speeds] = {}
        self._bills: dict[tuple[int, int, int], int] | None = None
        self._usual_slipstream = True
        #: a downshift may cost Heat on some spaces (a flooded track): shift tables vary there
        self._downshifts = False

    def choose(self, race: Race, car_id: int) -> Decision:
        phase = race.phase
        if phase == REACT:
            return self._react(race, car_id)
        if phase == PLAN:
            if self._own_plan:  # from the car's hand directly: no PlanRule to build
                car = race.cars[car_id]
                key = tuple(sorted(car.hand))
                hand = _HANDS.get(key)
                if hand is None:
                    hand = new_hand(_HANDS, _HANDS_MAX, key)
                found = self._best_plan(race, car, hand)
                if found is None:  # clogged at every gear: drop to the lowest for Cooldown
                    return Plan(car_id, min(race.shifts(car)[0]),
                                tuple(filter(PLAYABLE.__getitem__, car.hand)))
                return found
            return self._plan(race, race.plan_rule(car_id))
        car = race.cars[car_id]
        if phase == SLIPSTREAM:  # the longest reach whose corners it can pay, if any
            spare = car.engine - self.reserve
            if race is not self._race:
                self._see(race)
            if self._usual_slipstream:  # no module changes it: the usual reach alone
                return _SLIPSTREAM[car_id][
                    self._bill(race, car, car.d + SLIPSTREAM_SPACES, car.speed) <= spare]
            reaches = race.slipstream_reaches(car)
            i = len(reaches) - 1  # (a while loop: range() is a builtin call, ~1,000 instructions)
            while i >= 0:
                if self._bill(race, car, car.d + reaches[i], car.speed) <= spare:
                    return Slipstream(car_id, True, reaches[i]) if i else _SLIPSTREAM[car_id][1]
                i -= 1
            return _SLIPSTREAM[car_id][0]
        if race.hooks.undiscardable or race.hooks.discard_limit:  # a championship Event's
            return self._event_discard(race, car)
        # discard: the 0 upgrade is dead weight; spare 1s too. `in` tests first: count() is a
        # method call, ~1,200 instructions, and most hands hold neither
        cards = car.hand
        if "0" not in cards and ("1" not in cards or cards.count("1") < 2):
            return _NO_DISCARD[car_id]
        return Discard(car_id, ("0",) * cards.count("0") + ("1",) * (cards.count("1") - 1))

    def _event_discard(self, race: Race, car: Car) -> Discard:
        """Discard under an Event's rules: Heat first when it may go (it clogs a hand), then
        Stress, the 0 and spare 1s, up to the most the Event allows."""
        kept = race.undiscardable(car)
        hand = car.hand
        cards = [c for c in (HEAT, STRESS) if c not in kept for _ in range(hand.count(c))]
        cards += ["0"] * hand.count("0") + ["1"] * max(0, hand.count("1") - 1)
        most = race.discard_limit(car)
        return Discard(car.id, tuple(cards if most is None else cards[:most]))

    # -- planning
    def _plan(self, race: Race, rule: PlanRule) -> Plan:
        """The plan for ``rule`` (a subclass may override this to plan with other cards)."""
        car = race.cars[rule.car]
        found = self._best_plan(race, car, _hand(tuple(sorted(car.hand))))
        if found is None:  # clogged at every gear: drop to the lowest for Cooldown next time
            return Plan(rule.car, min(rule.gears), rule.playable)
        return found

    def _best_plan(self, race: Race, car: Car, hand: _Hand) -> Plan | None:
        """The best-scoring gear and cards of ``hand`` (the car's playable cards, with its
        Heat cards) for ``car`` at the gears it may plan now; None when the hand is clogged at
        every gear."""
        if race is not self._race:
            self._see(race)
        heat = car.engine - self.reserve
        if heat < 0:
            heat = 0
        speeds = self._speeds.get((car.d, heat))
        if speeds is None:
            speeds = self._speeds[(car.d, heat)] = _speeds_at(race, car.d, heat,
                                                              self._downshifts)
        # the gears it may plan, their targets and bonuses: race.shifts(car) depends on its
        # gear and on whether it has Heat to pay a 2-gear shift, nothing else, but on a track
        # where a downshift may cost more (a flooded space): there asked afresh
        if self._downshifts:
            moves = speeds.moves_for(*race.shifts(car))
        else:
            shifting = car.gear if car.engine else -car.gear
            cached = speeds.moves[shifting]
            if cached is None:
                cached = speeds.moves[shifting] = speeds.moves_for(*race.shifts(car))
            moves = cached
        fits, scores, picks = hand.fits, hand.scores, hand.picks
        best_score = -1e9
        best_gear = 0
        best: tuple[str, ...] | None = None
        for gear, target, bonus, pick in moves:
            if fits[gear] <= target:  # the best cards fit: no choice
                score = scores[gear] + bonus
                if score > best_score:
                    best_score, best_gear, best = score, gear, None
                continue
            # no pick scores above the best cards (nor, when no card may give more than its
            # worst case, above the target): skip a search that cannot win. A gear the hand
            # cannot fill (clogged) scores -inf
            score = scores[gear]
            if hand.capped and target < hand.tops[gear]:
                score = target + hand.cool[gear]
                floor = hand.floor[gear]
                if target < floor:
                    # even the cheapest cards overshoot: a pick's worst case is at least
                    # `floor` (no card gives more than its worst case), and each point over
                    # the target costs 10, so it scores at most 10 target - 9 floor
                    score = 10.0 * target - 9.0 * floor + hand.cool[gear]
            if score + bonus <= best_score:
                continue
            found = picks.get(pick)
            if found is None:
                found = picks[pick] = hand.search(gear, target)
            score = found[0] + bonus
            if score > best_score:
                best_score, best_gear, best = score, gear, found[1]
        if not best_gear:
            return None
        if best is None:
            cards = hand.cards
            if cards is None:
                cards = hand.cards = tuple(map(_CODE, hand.records))
            best = cards[hand.size - best_gear:]
        key = (car.id, best_gear, best)
        plan = _PLANS.get(key)
        if plan is None:
            if len(_PLANS) >= _PLANS_MAX:
                _PLANS.clear()
            plan = _PLANS[key] = _new_tuple(Plan, key)
        return plan

    # -- the course
    def _see(self, race: Race) -> None:
        """Take up what the bot knows of the corners of ``race`` (shared by races alike)."""
        course = _course_of(race)
        hooks = race.hooks
        self._race, self._speeds = race, course.speeds
        self._bills = None if hooks.car_corner_limit or hooks.corner_heat else course.bills
        #: the slipstream is the usual one (race.slipstream_reaches would answer its one reach)
        self._usual_slipstream = not (hooks.slipstream_spaces or hooks.slipstream_choices)
        self._downshifts = hooks.downshift_heat is not None

    def _bill(self, race: Race, car: Car, end: int, speed: int) -> int:
        """Heat the corners would charge ``car`` for its move from where it began to ``end`` at
        ``speed`` (race.corner_bill, remembered when no module bills car by car)."""
        if race is not self._race:
            self._see(race)
        bills = self._bills
        if bills is None:
            return race.corner_bill(car.start_d, end, speed, car)
        key = (car.start_d, end, speed)
        bill = bills.get(key)
        if bill is None:
            if len(bills) >= _BILLS_MAX:
                bills.clear()
            # without the car: what goes in the memo every race on this course shares must
            # never hold one car's own limits (equal to the car's bill whenever the memo is used)
            bill = bills[key] = race.corner_bill(car.start_d, end, speed)
        return bill

    # -- react
    def _react(self, race: Race, car_id: int) -> Decision:
        car = race.cars[car_id]
        if car.cooldown > 0 and HEAT in car.hand:
            n = min(car.cooldown, car.hand.count(HEAT))
            return _COOLDOWN[car_id][n] if n < _COOLDOWN_MAX else React(car_id, COOLDOWN, n)
        spare = car.engine - self.reserve
        if car.adrenaline and not car.adrenaline_used and \
                self._bill(race, car, car.d + 1, car.speed + 1) <= spare:
            return _ADRENALINE[car_id]
        if not car.boosted and car.engine > 0 and \
                self._bill(race, car, car.d + 4, car.speed + 4) <= spare - 1:
            return _BOOST[car_id]
        return _DONE[car_id]


#: Plan(...) runs the NamedTuple's __new__, a Python function: tuple.__new__ builds the same
#: value for half the cost (callgrind: 1,700 instructions against 3,000, once a car-turn)
_new_tuple = tuple.__new__
#: plans made so far, by value: the same plan comes back to a car again and again (2,355
#: distinct ones in 120 six-car races, base and Garage, against 14,000 plans), and a plan the
#: race log keeps is one more object for every full garbage collection to walk. Bounded
#: (cleared when full): a plan takes ~130 bytes with its key (getsizeof), ~0.5 MiB at most
_PLANS: dict[tuple[int, int, tuple[str, ...]], Plan] = {}
_PLANS_MAX = 4_096

# The bot's most common answers, built once per car: decisions are immutable values, and a bot
# race asks for a few hundred of these.
_ADRENALINE = tuple(React(i, ADRENALINE) for i in range(MAX_CARS))
_BOOST = tuple(React(i, BOOST) for i in range(MAX_CARS))
_DONE = tuple(React(i, DONE) for i in range(MAX_CARS))
_SLIPSTREAM = tuple((Slipstream(i, False), Slipstream(i, True)) for i in range(MAX_CARS))
_NO_DISCARD = tuple(Discard(i, ()) for i in range(MAX_CARS))
_COOLDOWN_MAX = 8
_COOLDOWN = tuple(tuple(React(i, COOLDOWN, n) for n in range(_COOLDOWN_MAX))
                  for i in range(MAX_CARS))


class _Course:
    """What the bot works out about one race geometry (its corner lines), kept for every race
    that shares it: top speeds by (d, Heat to spare) (see _Speeds), and corner bills by (start,
    end, speed). 300 six-car races on USA (2 laps) meet 571 and 2,704
    of them; a bill takes ~91 bytes (getsizeof), so a full bill memo (_BILLS_MAX, then cleared)
    holds ~0.75 MiB, and at most _COURSES_MAX geometries are kept."""

    __slots__ = ("bills", "speeds")

    def __init__(self) -> None:
        self.speeds: dict[tuple[int, int], _Speeds] = {}
        self.bills: dict[tuple[int, int, int], int] = {}


#: per race geometry (its corner lines, and whether a downshift may cost Heat there): every
#: race on a track and lap count shares one
_COURSES: dict[tuple[tuple[tuple[int, int, int], ...], bool], _Course] = {}
_COURSES_MAX = 8
_BILLS_MAX = 8_192


def _course_of(race: Race) -> _Course:
    """What the bot knows of races with the corner lines of ``race``: the same few hundred
    positions come up in every race there."""
    key = (tuple(race.corners_between(-sys.maxsize, sys.maxsize)),
           race.hooks.downshift_heat is not None)
    found = _COURSES.get(key)
    if found is None:
        if len(_COURSES) >= _COURSES_MAX:
            _COURSES.clear()
        found = _COURSES[key] = _Course()
    return found


class _Speeds:
    """The highest speeds the corners ahead of a car can let it pay for with its spare Heat,
    and with one and two less after a shift that costs them (a 2-gear shift, a downshift on a
    flooded space); and, per gear it is in (as ``race.shifts`` tells), the gears it may plan
    with each one's target speed and bonus. Positions alike share one: a course meets a few
    dozen."""

    __slots__ = ("moves", "targets")

    def __init__(self, targets: tuple[int, ...]) -> None:
        self.targets = targets
        #: by gear, negative without Heat in the engine: per gear it may plan, (gear, target,
        #: bonus, the key of its picks in a _Hand); the target a float, as every value it is
        #: compared with (an int beside a float takes CPython's slow comparison)
        self.moves: list[tuple[tuple[int, float, float, int], ...] | None] = [None] * 9

    def moves_for(self, gears: tuple[int, ...], shift_cost: dict[int, int]
                  ) -> tuple[tuple[int, float, float, int], ...]:
        return tuple((gear, float(target), _GEAR_BONUS[gear][cost], gear * 32 + target)
                     for gear in gears
                     for cost in (shift_cost[gear],) for target in (self.targets[cost],))


#: the speeds objects by their targets (every target is 0..MAX_SPEED)
_SPEEDS: dict[tuple[int, ...], _Speeds] = {}


def _speeds_at(race: Race, d: int, heat: int, costly: bool = False) -> _Speeds:
    """The speeds from ``d`` with ``heat`` to spare (``costly``: and with 2 less, for a track
    where a downshift may cost 2 Heat)."""
    ahead = race.corners_ahead(d, MAX_SPEED)
    targets = _targets(d, ahead, heat)
    if costly:
        targets += _targets(d, ahead, heat - 2 if heat > 1 else 0)[:1]
    speeds = _SPEEDS.get(targets)
    if speeds is None:
        speeds = _SPEEDS[targets] = _Speeds(targets)
    return speeds


def _targets(d: int, ahead: list[tuple[int, int, int]], heat: int) -> tuple[int, ...]:
    """The highest speeds whose corner bill ``heat`` can pay, and ``heat`` less 1 (a 2-gear
    shift's) (MAX_SPEED with no corner near).

    The bill only grows with speed, and is 0 until the first line is crossed, so scan up from
    the first speed that crosses it, once for both.
    """
    if not ahead:
        return MAX_SPEED, MAX_SPEED
    less = heat - 1 if heat else 0
    lower = -1
    speed = ahead[0][0] - d + 1
    while speed <= MAX_SPEED:
        bill = 0
        for line, _, limit in ahead:
            if line < d + speed and speed > limit:
                bill += speed - limit
        if bill > less and lower < 0:
            lower = speed - 1
        if bill > heat:
            return speed - 1, lower
        speed += 1
    return MAX_SPEED, MAX_SPEED if lower < 0 else lower


class _Values(dict[str, float]):
    """Card code -> value for the bot, filled on first sight (modules add cards later)."""

    def __init__(self, stress: float) -> None:
        super().__init__()
        self.stress = stress

    def __missing__(self, code: str) -> float:
        value = self[code] = self.stress if code == STRESS else float(SPEED[code])
        return value


_WORST = _Values(STRESS_WORST)
_EXPECTED = _Values(STRESS_EXPECTED)


class _Records(dict[str, "tuple[float, float, str, float] | None"]):
    """Card code -> what the planner needs of it: (order, expected, code, worst), where order
    ranks by expected speed, then among cards as fast on average the safer first (the greedy
    search takes from the top), so a hand's records sort by it and then by code; None for a
    card that cannot be played (Heat)."""

    def __missing__(self, code: str) -> tuple[float, float, str, float] | None:
        expected, worst = _EXPECTED[code], _WORST[code]
        record = self[code] = (expected * _WORST_SPAN - worst, expected, code, worst) \
            if PLAYABLE[code] else None
        return record


#: more than any card's worst case (and a power of 2: the orders are exact floats), so a
#: record's order ranks by expected speed first
_WORST_SPAN = 1024.0


_RECORDS = _Records()
#: cards that may give more than their worst case on average (see _Hand.capped)
_UNCAPPED: set[str] = set()


def card_value(code: str, *, worst: float, expected: float) -> None:
    """Teach the planner what a module's card is worth (an upgrade's flips or speed choice):
    its speed at worst (for corners) and on average (for the score)."""
    _WORST[code], _EXPECTED[code] = worst, expected
    _RECORDS.pop(code, None)
    if expected > worst:
        _UNCAPPED.add(code)
    else:
        _UNCAPPED.discard(code)
    for memo in HAND_MEMOS:  # views made with the old value are stale, in every memo
        memo.clear()


#: Heat cards a Cooldown can return at each gear (Cooldown 3 in 1st, 1 in 2nd)
_COOLABLE = (0, 3, 1, 0, 0)
#: what a plan gains by the Cooldown its gear allows, by Heat in hand (0-3+) and gear
_COOLDOWN_BONUS = tuple(tuple(1.5 * min(heat, cool) for cool in _COOLABLE) for heat in range(4))
#: what a plan gains by its gear, less what its shift costs, by gear and shift cost (0-2 Heat)
_GEAR_BONUS = tuple(tuple(0.3 * gear - 2.0 * cost for cost in range(3)) for gear in range(5))


class _Hand:
    """The bot's view of one hand: its playable cards sorted by value, its Heat cards (what a
    Cooldown could return), and its best play per gear and target speed, each worked out once:
    races keep meeting the same hands (about 1,500 distinct ones in 600 six-car races, against
    65,000 plans). Built with plain loops: a new hand comes up in a quarter of the plans of a
    fresh process, and a few C calls per value cost more than the loops."""

    __slots__ = ("capped", "cards", "cool", "fits", "floor", "least", "picks", "records",
                 "scores", "size", "tops")

    def __init__(self, cards_in_hand: Sequence[str],
                 records: tuple[tuple[float, float, str, float], ...] | None = None) -> None:
        if records is None:  # sorted by value and code (a caller may give its own order)
            records = tuple(sorted(filter(None, map(_RECORDS.__getitem__, cards_in_hand))))
        self.records = records
        size = self.size = len(records)
        #: per gear 0-4, what its Cooldown is worth with this hand's Heat cards (every card
        #: that cannot be played is one: CardType.playable). Bytecodes, not min() and count():
        #: a builtin call costs ~1,200 instructions (callgrind), and a fresh process builds a
        #: view in a third of its plans
        heat = len(cards_in_hand) - size
        cool = self.cool = _COOLDOWN_BONUS[heat if heat < 3 else 3]
        #: per gear 0-4: the worst case of the gear's best cards, their expected speed, and
        #: that with the gear's Cooldown (every value is a multiple of 0.5, so sums come out
        #: alike in any order); a gear the hand cannot fill never fits and scores -inf. As
        #: tuples: the garbage collector stops tracking a tuple of floats, where each full
        #: collection would walk every list of the memo again
        (_, e4, _, w4), (_, e3, _, w3), (_, e2, _, w2), (_, e1, _, w1) = \
            records[-4:] if size >= 4 else (_NO_CARD,) * (4 - size) + records
        w2 += w1
        w3 += w2
        w4 += w3
        e2 += e1
        e3 += e2
        e4 += e3
        self.fits = (0.0, w1, w2, w3, w4)
        self.tops = (0.0, e1, e2, e3, e4)
        self.scores = (cool[0], e1 + cool[1], e2 + cool[2], e3 + cool[3], e4 + cool[4])
        #: per number of slots to fill (1-4), the worst case of the cheapest cards that could
        #: fill all but one (what the slots left after a card need at least)
        (_, e1, _, w1), (_, e2, _, w2), (_, e3, _, w3), (_, e4, _, _) = \
            records[:4] if size >= 4 else records + (_NO_CARD,) * (4 - size)
        w2 += w1
        self.least = (0.0, 0.0, w1, w2, w2 + w3)
        #: per gear 0-4, the expected speed of the cheapest cards: when no card gives more than
        #: its worst case, no pick's worst case is lower (see _best_plan)
        e2 += e1
        e3 += e2
        self.floor = (0.0, e1, e2, e3, e3 + e4)
        #: the cards, cheapest first: made when first needed (the best cards fit and win)
        self.cards: tuple[str, ...] | None = None
        #: no card gives more than its worst case on average (a pick then scores at most its
        #: target)
        self.capped = not _UNCAPPED or _UNCAPPED.isdisjoint(cards_in_hand)
        #: gear * 32 + target (0..MAX_SPEED) -> the pick when the best cards do not fit
        self.picks: dict[int, tuple[float, tuple[str, ...]]] = {}

    def search(self, gear: int, target: float) -> tuple[float, tuple[str, ...]]:
        """The ``gear`` cards to play when the worst case should stay within ``target`` (the
        best cards do not fit: :meth:`HeuristicBot._best_plan` takes them when they do), and
        their score. Greedy from the most valuable card down: a card is taken if the cheapest
        cards below it can still fill the remaining slots within ``target``; when only just
        enough cards are left, they all go. The score is their expected speed and the gear's
        Cooldown, less 10 per point the worst case could overshoot (only when nothing safer
        exists)."""
        records, least = self.records, self.least
        chosen: list[str] = []
        need, room, score = gear, target, self.cool[gear]  # room: what the worst case may add
        limit = room - least[need]  # the worst case a card may have and still be taken
        i = self.size - 1
        while i >= need:  # more cards left than slots: a choice
            _, expected, code, worst = records[i]
            if worst <= limit:
                chosen.append(code)
                room -= worst
                score += expected
                need -= 1
                if not need:
                    break
                limit = room - least[need]
            i -= 1
        while need:  # only just enough cards left: they all go
            need -= 1
            _, expected, code, worst = records[need]
            chosen.append(code)
            room -= worst
            score += expected
        if room < 0.0:  # could spin out or overpay
            score += 10.0 * room
        return score, tuple(chosen)


_CODE = itemgetter(2)
#: a record's order (expected speed, then the safer first), for a sort that keeps cards alike
#: in the order given: one float, so the sort costs no more than a plain one
_ORDER_OF = itemgetter(0)
#: what stands for a card a hand lacks (its gear can never be filled): it never fits, and
#: scores -inf
_NO_CARD = (-math.inf, -math.inf, "", math.inf)


#: hands seen so far, keyed by their cards in code order (bounded: cleared when full). Six-car
#: races on USA meet 1,318 distinct hands in 150 races, 1,487 in 600, 1,519 in 1,200; with
#: tracemalloc every memo of this module (hands and their picks, speeds, bills) holds 3.4 MiB
#: after 150 races and 5.3 MiB after 600 (3.6 KiB a hand, picks growing towards their bound of
#: 4 gears x 21 targets), so a full memo stays near 8 MiB. Sharing equal picks between hands
#: halved that but cost 2.5% of the engine's time per car-turn: not worth it.
_HANDS: dict[tuple[str, ...], _Hand] = {}
_HANDS_MAX = 2_048
#: every memo of hand views (a bot with its own memo adds it here): card_value() clears them
HAND_MEMOS: list[dict[tuple[str, ...], _Hand]] = [_HANDS]


def _hand(key: tuple[str, ...]) -> _Hand:
    """The bot's view of the cards ``key`` (in code order): their playable ones. The key may
    hold Heat cards (a whole hand) or not (a rule's playable cards): a full hand's Heat count
    follows from its playable cards, so whole hands are no more numerous than playable ones."""
    hand = _HANDS.get(key)
    return new_hand(_HANDS, _HANDS_MAX, key) if hand is None else hand


def new_hand(memo: dict[tuple[str, ...], _Hand], limit: int, key: tuple[str, ...]) -> _Hand:
    """Make the view of ``key`` and remember it in ``memo`` (cleared when it holds ``limit``)."""
    if len(memo) >= limit:
        memo.clear()
    hand = memo[key] = _Hand(key)
    return hand


def make_bot(kind: str, *, seed: int = 0) -> Bot:
    """``random`` or ``heuristic``."""
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "heuristic":
        return HeuristicBot(seed=seed)
    raise ValueError(f"unknown bot {kind!r} (random, heuristic)")
