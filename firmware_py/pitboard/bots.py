"""Bots that fill empty seats: a random-legal one and a heuristic one that manages Heat.

A bot answers ``choose(race, car_id)`` with a legal decision for that car, whatever the race is
waiting for. Bots hold their own seeded RNG so a bot race is reproducible too.
"""

from __future__ import annotations

import random
from itertools import accumulate
from typing import Protocol

from .engine import decisions as dec
from .engine.cards import HEAT, SPEED, STRESS
from .engine.decisions import Decision, Discard, Plan, PlanRule, React, Slipstream
from .engine.race import Race

#: what a Stress card is worth when a bot must not overshoot (a flip can give 4)
STRESS_WORST = 4
#: ... and what it gives on average
STRESS_EXPECTED = 2.5
#: no hand of four cards moves further than this (4+4+5+4)
MAX_SPEED = 20


class Bot(Protocol):
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
        self.rng = random.Random(seed)

    def choose(self, race: Race, car_id: int) -> Decision:
        pending = race.pending()
        if pending.kind == dec.PLAN:
            rule = pending.plan_rules[car_id]
            gear = self.rng.choice(rule.gears)
            cards = self.rng.sample(list(rule.playable), rule.cards_needed(gear))
            return Plan(car_id, gear, tuple(cards))
        if pending.kind == dec.DISCARD:
            cards = [c for c in pending.discardable if self.rng.random() < 0.3]
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
        self.rng = random.Random(seed)
        #: Heat the bot keeps in the engine for surprises
        self.reserve = reserve

    def choose(self, race: Race, car_id: int) -> Decision:
        phase = race.phase
        car = race.cars[car_id]
        if phase == dec.PLAN:
            return self._plan(race, race.plan_rule(car_id))
        if phase == dec.REACT:
            return self._react(race, car_id)
        if phase == dec.SLIPSTREAM:
            cost = race.corner_bill(car.start_d, car.d + 2, car.speed)
            return Slipstream(car_id, cost <= car.engine - self.reserve)
        # discard: the 0 upgrade is dead weight; spare 1s too
        junk = [c for c in car.hand if c == "0"]
        if car.hand.count("1") >= 2:
            junk.extend(["1"] * (car.hand.count("1") - 1))
        return Discard(car_id, tuple(junk))

    # -- planning
    def _plan(self, race: Race, rule: PlanRule) -> Plan:
        car = race.cars[rule.car]
        cards = sorted(rule.playable, key=_EXPECTED.__getitem__)
        k = len(cards)
        worst = [_WORST[c] for c in cards]
        expected = [_EXPECTED[c] for c in cards]
        prefix = list(accumulate(worst, initial=0.0))
        heat_in_hand = car.hand.count(HEAT)
        ahead = race.corners_ahead(car.d, MAX_SPEED)
        best_score = -1e9
        best: tuple[int, list[int] | range] | None = None
        targets: dict[int, int] = {}
        for gear in rule.gears:
            if gear > k:  # clogged at this gear
                continue
            cost = rule.shift_cost[gear]
            target = MAX_SPEED
            if ahead:
                budget = max(0, car.engine - cost - self.reserve)
                found = targets.get(budget)
                if found is None:
                    found = targets[budget] = _target(car.d, ahead, budget)
                target = found
            chosen: list[int] | range
            if prefix[k] - prefix[k - gear] <= target:  # the best cards fit: no choice
                chosen = range(k - gear, k)
                score = sum(expected[k - gear:])
            else:
                chosen = _pick(worst, prefix, gear, target)
                score = 0.0
                over = float(-target)
                for i in chosen:
                    score += expected[i]
                    over += worst[i]
                if over > 0:  # could spin out or overpay: only when nothing safer exists
                    score -= 10.0 * over
            score += 0.3 * gear - 2.0 * cost
            if heat_in_hand:
                score += 1.5 * min(heat_in_hand, 3 if gear == 1 else 1 if gear == 2 else 0)
            if score > best_score:
                best_score, best = score, (gear, chosen)
        if best is None:  # clogged at every gear: drop to the lowest for Cooldown next time
            return Plan(rule.car, min(rule.gears), rule.playable)
        return Plan(rule.car, best[0], tuple(cards[i] for i in best[1]))

    # -- react
    def _react(self, race: Race, car_id: int) -> Decision:
        car = race.cars[car_id]
        if car.cooldown > 0 and HEAT in car.hand:
            return React(car_id, dec.COOLDOWN, min(car.cooldown, car.hand.count(HEAT)))
        spare = car.engine - self.reserve
        if car.adrenaline and not car.adrenaline_used and \
                race.corner_bill(car.start_d, car.d + 1, car.speed + 1) <= spare:
            return React(car_id, dec.ADRENALINE)
        if not car.boosted and car.engine > 0 and \
                race.corner_bill(car.start_d, car.d + 4, car.speed + 4) <= spare - 1:
            return React(car_id, dec.BOOST)
        return React(car_id, dec.DONE)


def _target(d: int, ahead: list[tuple[int, int, int]], heat: int) -> int:
    """Highest speed whose corner bill ``heat`` can pay (MAX_SPEED with no corner near).

    The bill only grows with speed, and is 0 until the first line is crossed, so scan up from
    the first speed that crosses it.
    """
    if not ahead:
        return MAX_SPEED
    speed = ahead[0][0] - d + 1
    while speed <= MAX_SPEED:
        bill = 0
        for line, _, limit in ahead:
            if line < d + speed and speed > limit:
                bill += speed - limit
        if bill > heat:
            return speed - 1
        speed += 1
    return MAX_SPEED


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


def _pick(worst: list[float], prefix: list[float], n: int, target: int) -> list[int]:
    """Indices of n cards (sorted by value) worth the most whose worst case fits ``target``.

    Greedy from the top: a card is taken if the cheapest cards below it can still fill the
    remaining slots within the target; when only just enough cards are left, they all go.
    """
    chosen: list[int] = []
    need, total = n, 0.0
    for i in range(len(worst) - 1, -1, -1):
        if need == 0:
            break
        if i + 1 == need:
            chosen.extend(range(i, -1, -1))
            break
        if total + worst[i] + prefix[need - 1] <= target:
            chosen.append(i)
            total += worst[i]
            need -= 1
    return chosen


def make_bot(kind: str, *, seed: int = 0) -> Bot:
    """``random`` or ``heuristic``."""
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "heuristic":
        return HeuristicBot(seed=seed)
    raise ValueError(f"unknown bot {kind!r} (random, heuristic)")
