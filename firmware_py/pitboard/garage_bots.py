"""Bots for Garage races: they draft upgrades and use their symbols.

:class:`GarageBot` is the heuristic bot plus a draft (it values each market card by speed,
[+] flips, Cooldown and corner help, and shuns the pool's Heat cards) and React choices for every
symbol, each taken when the corners ahead can pay for it. :class:`GarageRandomBot` picks any
legal decision (the random bot already does: the draft market and every symbol are listed in
``pending().options``), so it walks every symbol path.

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(cars=2, seed=1, laps=1, modules={"garage": {"choose": "draft"}}))
    >>> bot = GarageBot()
    >>> while not race.over:
    ...     race.apply(bot.choose(race, race.waiting_for()))
    >>> race.over
    True
"""

from __future__ import annotations

from functools import cache

from .bots import _EXPECTED, _WORST, Bot, HeuristicBot, RandomBot, card_value
from .engine.cards import HEAT, SPEED, STRESS
from .engine.decisions import DONE, REACT, SLIPSTREAM, Decision, Plan, PlanRule, React, Slipstream
from .engine.garage.data import BY_CODE, UPGRADES, Upgrade
from .engine.garage.draft import DRAFT, DraftDrop, DraftPick
from .engine.garage.symbols import draft_spaces, has_options
from .engine.race import Car, Race

#: what one [+] flip adds, on average and at most
FLIP_EXPECTED, FLIP_WORST = 2.5, 4


@cache
def draft_value(u: Upgrade) -> float:
    """How much the bot wants ``u`` in its deck: the speed it brings (the best choice, flips at
    their average), plus the help of its symbols, less its Heat cost."""
    if u.heat_card:
        return -5.0
    value = u.speeds[-1] + FLIP_EXPECTED * u.count("boost")
    value += 0.8 * u.count("cooldown") + 0.6 * u.count("reduce") + 0.5 * u.count("supercool")
    value += 1.2 * max(u.count("adjust"), -1) + 0.3 * u.count("slipstream")
    value += 0.3 * u.count("salvage") + 0.8 * u.count("refresh") + 0.7 * u.count("draft")
    value += 1.0 * u.has("direct") + 1.0 * u.count("accelerate")
    value -= 1.5 * u.count("heat") + 0.1 * u.count("scrap")
    if len(u.speeds) > 1:
        value += 0.5  # a choice keeps corners safe
    return value


#: card code -> the code the planner thinks of it as: the first card (base cards first) with
#: the same worst and expected value. Planning a hand of representatives meets far fewer
#: distinct hands, so the heuristic bot's memo of hands keeps working with upgrades about.
_SAME_AS: dict[str, str] = {}


def _teach_values() -> None:
    """The planner's card values: a speed choice is worth its top speed but can be played at
    its lowest; [+] flips add their average, and at worst 4 each; Heat costs and lowered limits
    count against the worst case."""
    for code, u in BY_CODE.items():
        flips = u.count("boost")
        # for corners a lower limit (adjust -N) or Heat spent first (heat N) weigh like speed
        card_value(code, worst=u.speeds[0] + FLIP_WORST * flips + u.count("heat")
                   + max(0, -u.count("adjust")),
                   expected=u.speeds[-1] + FLIP_EXPECTED * flips - 0.5 * u.count("heat"))
    first: dict[tuple[float, float], str] = {}
    for code in ("0", "1", "2", "3", "4", "5", *BY_CODE):
        value = (_WORST[code], _EXPECTED[code])
        _SAME_AS[code] = first.setdefault(value, code)


_teach_values()


class GarageBot(HeuristicBot):
    """The heuristic bot, drafting and using upgrades."""

    name = "heuristic"

    def choose(self, race: Race, car_id: int) -> Decision:
        phase = race.phase
        if phase == DRAFT:
            return self._draft(race, car_id)
        if phase == REACT:
            found = self._upgrade_react(race, race.cars[car_id])
            if found is not None:
                return found
        elif phase == SLIPSTREAM:  # the longest slipstream whose corners it can pay
            car = race.cars[car_id]
            spare = car.engine - self.reserve
            best = Slipstream(car_id, False)
            for o in race.pending().options:
                assert isinstance(o, Slipstream)
                reach = o.spaces or race.slipstream_spaces(car)
                if o.take and self._fits(race, car, reach, car.speed, spare) and \
                        (not best.take or reach > (best.spaces or race.slipstream_spaces(car))):
                    best = o
            return best
        return super().choose(race, car_id)

    def _plan(self, race: Race, rule: PlanRule) -> Plan:
        """The heuristic plan of the hand's representatives (see _SAME_AS), played with the
        real cards they stand for."""
        same = [_SAME_AS.get(c, c) for c in rule.playable]
        if same == list(rule.playable):
            return super()._plan(race, rule)
        plan = super()._plan(race, rule._replace(playable=tuple(same)))
        left = list(rule.playable)
        cards = []
        for rep in plan.cards:
            real = next(c for c, s in zip(left, (_SAME_AS.get(c, c) for c in left), strict=True)
                        if s == rep)
            left.remove(real)
            cards.append(real)
        return Plan(plan.car, plan.gear, tuple(cards))

    def _draft(self, race: Race, car_id: int) -> Decision:
        options = race.pending().options
        if isinstance(options[0], DraftDrop):
            return min(options, key=lambda d: draft_value(UPGRADES[d.card]))  # type: ignore
        best = max(options, key=lambda d: draft_value(UPGRADES[d.card]))  # type: ignore
        assert isinstance(best, DraftPick)
        return best

    def _fits(self, race: Race, car: Car, spaces: int, speed: int, spare: int) -> bool:
        """Can the corners a move of ``spaces`` more at ``speed`` would cross be paid?"""
        return race.corner_bill(car.start_d, car.d + spaces, speed, car) <= spare

    def _upgrade_react(self, race: Race, car: Car) -> Decision | None:
        if not has_options(race, car):
            return None
        options = race.react_options(car.id)
        spare = car.engine - self.reserve
        best_speed: React | None = None
        for o in options:
            action = o.action
            if action in ("reduce", "supercool"):
                return max((p for p in options if p.action == action), key=lambda p: p.n)
            if action == "refresh" and BY_CODE[o.card].speeds[-1] >= 3:
                return o
            if action == "salvage":
                best = max((p for p in options if p.action == "salvage"),
                           key=lambda p: -9 if p.card in (HEAT, STRESS) else SPEED[p.card])
                if best.card not in (HEAT, STRESS) and SPEED[best.card] >= 3:
                    return best
            if action == "speed":
                gained = o.n - SPEED[o.card]
                if self._fits(race, car, gained, car.speed + gained, spare) and \
                        (best_speed is None or o.n > best_speed.n):
                    best_speed = o
            if action == "direct":
                u = BY_CODE[o.card]
                gain = u.speeds[0] + FLIP_WORST * u.count("boost")
                if car.engine - u.count("heat") >= self.reserve and \
                        self._fits(race, car, gain, car.speed + gain, spare - u.count("heat")):
                    return o
            if action == "accelerate":
                ts = race.hooks.by_key["garage"].turn[car.id]  # type: ignore[attr-defined]
                gain = ts.accelerate[0] * ts.flips
                if self._fits(race, car, gain, car.speed + gain, spare):
                    return o
            if action == "draft":
                spaces = draft_spaces(race, car, o.n)
                if self._fits(race, car, spaces, car.speed, spare):
                    return o
        if best_speed is not None:
            return best_speed
        return None


class GarageRandomBot(RandomBot):
    """Any legal decision: draft picks and every upgrade symbol included."""


def make_garage_bot(kind: str, *, seed: int = 0) -> Bot:
    """``random`` or ``heuristic``, able to draft and use upgrades."""
    if kind == "random":
        return GarageRandomBot(seed=seed)
    if kind == "heuristic":
        return GarageBot(seed=seed)
    raise ValueError(f"unknown bot {kind!r} (random, heuristic)")


__all__ = ["DONE", "GarageBot", "GarageRandomBot", "draft_value", "make_garage_bot"]
