"""Bots that fill empty seats: a random-legal one and a heuristic one that manages Heat.

A bot answers ``choose(race, car_id)`` with a legal decision for that car, whatever the race is
waiting for. Bots hold their own seeded RNG so a bot race is reproducible too.
"""

from __future__ import annotations

import random
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
        pending = race.pending()
        kind = pending.kind
        car = race.cars[car_id]
        if kind == dec.PLAN:
            return self._plan(race, pending.plan_rules[car_id])
        if kind == dec.REACT:
            return self._react(race, car_id, pending.options)
        if kind == dec.SLIPSTREAM:
            cost = race.corner_bill(car.start_d, car.d + 2, car.speed)
            return Slipstream(car_id, cost <= car.engine - self.reserve)
        # discard: the 0 upgrade is dead weight; low cards too when the hand is full of them
        junk = [c for c in pending.discardable if c == "0"]
        ones = [c for c in pending.discardable if c == "1"]
        if len(ones) >= 2:
            junk.extend(ones[1:])
        return Discard(car_id, tuple(junk))

    # -- planning
    def _plan(self, race: Race, rule: PlanRule) -> Plan:
        car = race.cars[rule.car]
        playable = sorted(rule.playable, key=_expected)
        heat_in_hand = car.hand.count(HEAT)
        ahead = race.corners_ahead(car.d, MAX_SPEED)
        best: tuple[float, int, list[str]] | None = None
        targets: dict[int, int] = {}
        for gear in rule.gears:
            if gear in rule.clogged:
                continue
            budget = max(0, car.engine - rule.shift_cost[gear] - self.reserve)
            if budget not in targets:
                targets[budget] = _target(car.d, ahead, budget)
            target = targets[budget]
            cards = _pick(playable, gear, target)
            worst = sum(_worst(c) for c in cards)
            score = sum(_expected(c) for c in cards) + 0.3 * gear - 2.0 * rule.shift_cost[gear]
            if worst > target:  # could spin out or overpay: only when nothing safer exists
                score -= 10.0 * (worst - target)
            if heat_in_hand:
                score += 1.5 * min(heat_in_hand, 3 if gear == 1 else 1 if gear == 2 else 0)
            if best is None or score > best[0]:
                best = (score, gear, cards)
        if best is None:  # clogged at every gear: drop to the lowest for Cooldown next time
            return Plan(rule.car, min(rule.gears), rule.playable)
        return Plan(rule.car, best[1], tuple(best[2]))

    # -- react
    def _react(self, race: Race, car_id: int, options: tuple[Decision, ...]) -> Decision:
        car = race.cars[car_id]
        cooldowns = [o for o in options if isinstance(o, React) and o.action == dec.COOLDOWN]
        if cooldowns:
            return max(cooldowns, key=lambda o: o.n if isinstance(o, React) else 0)
        actions = {o.action for o in options if isinstance(o, React)}
        spare = car.engine - self.reserve
        if dec.ADRENALINE in actions and \
                race.corner_bill(car.start_d, car.d + 1, car.speed + 1) <= spare:
            return React(car_id, dec.ADRENALINE)
        if dec.BOOST in actions and \
                race.corner_bill(car.start_d, car.d + 4, car.speed + 4) <= spare - 1:
            return React(car_id, dec.BOOST)
        return React(car_id, dec.DONE)


def _target(d: int, ahead: list[tuple[int, int, int]], heat: int) -> int:
    """Highest speed whose corner bill ``heat`` can pay (MAX_SPEED with no corner near)."""
    for speed in range(MAX_SPEED, 0, -1):
        bill = 0
        for line, _, limit in ahead:
            if line < d + speed and speed > limit:
                bill += speed - limit
        if bill <= heat:
            return speed
    return 0


WORST: dict[str, int] = {}
EXPECTED: dict[str, float] = {}


def _worst(card: str) -> int:
    value = WORST.get(card)
    if value is None:
        value = WORST[card] = STRESS_WORST if card == STRESS else SPEED[card]
    return value


def _expected(card: str) -> float:
    value = EXPECTED.get(card)
    if value is None:
        value = EXPECTED[card] = STRESS_EXPECTED if card == STRESS else float(SPEED[card])
    return value


def _pick(by_expected: list[str], n: int, target: int) -> list[str]:
    """n cards worth as much as possible whose worst case does not pass ``target``.

    Greedy from the top: each slot takes the most valuable card that still leaves room for the
    cheapest cards in the slots after it; falls back to the cheapest card.
    """
    pool = list(by_expected)
    worst = [_worst(c) for c in pool]
    chosen: list[str] = []
    total = 0
    for slot in range(n):
        left = n - slot - 1
        room = target - total - (sum(sorted(worst)[:left]) if left else 0)
        pick = 0
        for i in range(len(pool) - 1, -1, -1):
            if worst[i] <= room:
                pick = i
                break
        chosen.append(pool.pop(pick))
        total += worst.pop(pick)
    return chosen


def make_bot(kind: str, *, seed: int = 0) -> Bot:
    """``random`` or ``heuristic``."""
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "heuristic":
        return HeuristicBot(seed=seed)
    raise ValueError(f"unknown bot {kind!r} (random, heuristic)")
