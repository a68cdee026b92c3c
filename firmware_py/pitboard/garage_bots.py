"""Bots for Garage races: they draft upgrades and use their symbols.

:class:`GarageBot` is the heuristic bot plus a draft (it values each market card by speed,
[+] flips, Cooldown and corner help, and shuns the pool's Heat cards) and React choices for every
symbol, each taken when the corners ahead can pay for it. The base game's random bot needs nothing
more (:func:`make_garage_bot` gives it for ``random``): it picks any legal decision, and the
draft market and every symbol are listed in ``pending().options``, so it walks every symbol
path.

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

from .bots import (
    _ORDER_OF,
    _RECORDS,
    _SLIPSTREAM,
    Bot,
    HeuristicBot,
    RandomBot,
    _course_of,
    _Hand,
    card_value,
)
from .engine.cards import HEAT, PLAYABLE, SPEED, STRESS
from .engine.course import SLIPSTREAM_SPACES
from .engine.decisions import (
    DONE,
    PLAN,
    REACT,
    SLIPSTREAM,
    Decision,
    Plan,
    PlanRule,
    React,
)
from .engine.garage.choices import draft_spaces
from .engine.garage.data import BY_CODE, UPGRADES, Upgrade
from .engine.garage.draft import DRAFT, DraftSwap, draft_drop, draft_pick
from .engine.garage.module import GarageModule
from .engine.garage.symbols import DIRECT, TurnState, offers_symbols
from .engine.race import Car, Race

#: what one [+] flip adds, on average and at most
FLIP_EXPECTED, FLIP_WORST = 2.5, 4


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


#: upgrade key -> its draft value (keyed by the key: hashing an Upgrade hashes all its fields)
_DRAFT_VALUE = {key: draft_value(u) for key, u in UPGRADES.items()}



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


_teach_values()
_RECORD_OF = _RECORDS.__getitem__


class GarageBot(HeuristicBot):
    """The heuristic bot, drafting and using upgrades.

    Example: it drafts for car 0, the last on the grid, which picks first::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
        ...                       modules={"garage": {"choose": "draft"}}))
        >>> pending = race.pending()
        >>> pending.kind, pending.cars
        ('draft', (0,))
        >>> pick = GarageBot(seed=1).choose(race, 0)
        >>> pick, pick in pending.options
        (DraftPick(car=0, card='U41'), True)
    """

    name = "heuristic"

    def __init__(self, *, seed: int = 0, reserve: int = 1) -> None:
        super().__init__(seed=seed, reserve=reserve)
        #: the Garage module's turn states in the race last seen (None: no Garage there)
        self._turns: dict[int, TurnState] | None = None
        #: the race's corner bills (see _see), for cars whose upgrades leave their limits alone
        self._course_bills: dict[tuple[int, int, int], int] | None = None
        #: the race's slipstream is the usual one whenever a turn has no slipstream +N (see _see)
        self._usual_reach = False
        #: the cars of the race last seen that own a direct-play card (None: not looked yet)
        self._direct_cars: frozenset[int] | None = None

    def choose(self, race: Race, car_id: int) -> Decision:
        if race is not self._race:
            self._see(race)
        phase = race.phase
        # two comparisons, not `in (REACT, SLIPSTREAM)`: that builds a tuple per answer and cost
        # ~1,500 instructions per car-turn (callgrind)
        if phase == REACT or phase == SLIPSTREAM:  # noqa: SIM109
            turns = self._turns
            ts = turns.get(car_id) if turns is not None else None
            # the bills the answer will ask for (HeuristicBot._bill): remembered ones, unless
            # this car's upgrades adjust its limits this turn. Chosen here, once per answer,
            # rather than in a _bill override: that cost a call per bill (1.8 a car-turn)
            self._bills = None if ts is not None and ts.adjust else self._course_bills
            if phase == SLIPSTREAM:  # the longest reach, slipstream +N too
                if self._usual_reach and (ts is None or not ts.slip):
                    # no slipstream +N this turn: the usual reach alone, as the engine would
                    # list it (race.slipstream_reaches asks the module: ~8,000 instructions)
                    car = race.cars[car_id]
                    pays = self._bill(race, car, car.d + SLIPSTREAM_SPACES, car.speed) <= \
                        car.engine - self.reserve
                    return _SLIPSTREAM[car_id][pays]
                return HeuristicBot.choose(self, race, car_id)
            # most React steps hold no open symbol and no direct play: half of them have no
            # turn state at all, and then only a car that owns a direct-play card may have one
            # in hand (offers_symbols and its set test, ~2,000 instructions, spared)
            if ts is not None:
                if offers_symbols(ts, race.cars[car_id].hand):
                    found = self._upgrade_react(race, race.cars[car_id], ts)
                    if found is not None:
                        return found
            elif turns is not None:
                direct = self._direct_cars
                if direct is None:
                    direct = self._direct_cars = _direct_holders(race)
                if car_id in direct and not DIRECT.isdisjoint(race.cars[car_id].hand):
                    found = self._upgrade_react(race, race.cars[car_id], None)
                    if found is not None:
                        return found
            return self._react(race, car_id)
        if phase == PLAN:
            return self._plan_hand(race, race.cars[car_id])
        if phase == DRAFT:
            return self._draft(race, car_id)
        return HeuristicBot.choose(self, race, car_id)  # discard

    def _see(self, race: Race) -> None:
        super()._see(race)
        hooks = race.hooks
        module = hooks.by_key.get("garage")
        self._turns = module.turn if isinstance(module, GarageModule) else None
        self._direct_cars = None  # looked at on the first React step: after the draft
        # a car with no adjust symbol this turn meets the race's own limits: its bills can be
        # remembered as the base game's are, unless another module bills car by car too
        # the usual slipstream only, unless the turn has slipstream +N: no module changes it
        # but the Garage (with its symbols), none moves it further
        self._usual_reach = self._turns is not None and hooks.slipstream_spaces is None and \
            hooks.slipstream_choices == hooks.by_key["garage"].slipstream_choices
        if self._turns is not None and hooks.corner_heat is None and \
                hooks.car_corner_limit == hooks.by_key["garage"].car_corner_limit:
            self._course_bills = self._bills = _course_of(race).bills
        else:
            self._course_bills = self._bills

    def _plan(self, race: Race, rule: PlanRule) -> Plan:
        """The plan for ``rule`` (the race's own rule for the car: its hand as it stands)."""
        return self._plan_hand(race, race.cars[rule.car])

    def _plan_hand(self, race: Race, car: Car) -> Plan:
        """The heuristic plan of the car's hand, upgrades valued as _teach_values says. Its
        view is made afresh, not remembered: a fresh process meets a new Garage hand in 4
        plans out of 5 (27 kinds of value make many distinct hands), so a memo cost more to
        fill and look up than it saved."""
        cards = car.hand
        # cards alike in value are played in the order they came into the hand, the first
        # first (the search takes from the top of the records; a sort on the order alone
        # keeps equals as given): by code instead, 600 races spun out ~0.13 more per race
        records = tuple(sorted(filter(None, map(_RECORD_OF, reversed(cards))), key=_ORDER_OF))
        found = self._best_plan(race, car, _Hand(cards, records))
        if found is None:  # clogged at every gear: drop to the lowest for Cooldown next time
            return Plan(car.id, min(race.shifts(car)[0]),
                        tuple(filter(PLAYABLE.__getitem__, cards)))
        return found

    def _draft(self, race: Race, car_id: int) -> Decision:
        """The market card of the highest draft value (the first of equals, in market order),
        or in a snake draft's last step the upgrade of the lowest. Read off the Garage module
        (what ``pending().options`` lists, without listing it: ~30,000 instructions a pick)."""
        module = race.hooks.by_key["garage"]
        assert isinstance(module, GarageModule)
        if module.swapping:  # a season: the market's best for its own worst, if better
            worst = min(module.picks[car_id], key=_DRAFT_VALUE.__getitem__)
            best = max(module.market, key=_DRAFT_VALUE.__getitem__)
            if _DRAFT_VALUE[best] > _DRAFT_VALUE[worst] + 1.0:
                return DraftSwap(car_id, worst, best)
            return DraftSwap(car_id, "", "")
        if module.market:  # max and min keep the first of equals, as over pending().options
            return draft_pick(car_id, max(module.market, key=_DRAFT_VALUE.__getitem__))
        return draft_drop(car_id, min(module.picks[car_id], key=_DRAFT_VALUE.__getitem__))

    def _fits(self, race: Race, car: Car, spaces: int, speed: int, spare: int) -> bool:
        """Can the corners a move of ``spaces`` more at ``speed`` would cross be paid?"""
        return self._bill(race, car, car.d + spaces, speed) <= spare

    def _upgrade_react(self, race: Race, car: Car, ts: TurnState | None) -> Decision | None:
        """An upgrade symbol worth using now, read straight off the turn's upgrade state (the
        full option list is not built): a direct play or accelerate the corners can pay, then
        reduce, a salvage of a 3 or better, supercool, a draft move the corners can pay, a
        refresh of a card worth 3 or more, and last the highest speed choice that fits. Asked
        when the turn state has an optional symbol open or the hand a direct-play card."""
        hand = car.hand
        spare = car.engine - self.reserve
        if not DIRECT.isdisjoint(hand):
            for code in dict.fromkeys(hand):
                play = _DIRECT_PLAY.get(code)
                if play is not None:
                    heat, gain = play
                    if car.engine - heat >= self.reserve and \
                            self._fits(race, car, gain, car.speed + gain, spare - heat):
                        return React(car.id, "direct", 0, code)
        if ts is None:
            return None
        if ts.accelerate and ts.flips:
            gain = ts.accelerate[0] * ts.flips
            if self._fits(race, car, gain, car.speed + gain, spare):
                return React(car.id, "accelerate")
        if ts.reduce and STRESS in hand and race.may_discard(car):  # (not in a tunnel)
            return React(car.id, "reduce", min(ts.reduce, hand.count(STRESS)))
        discard = car.discard
        if ts.salvage and discard:
            best = max(sorted(set(discard)), key=_SALVAGE_VALUE.__getitem__)
            if _SALVAGE_VALUE[best] >= 3:
                return React(car.id, "salvage", 0, best)
        if ts.supercool and HEAT in discard:
            return React(car.id, "supercool", min(ts.supercool, discard.count(HEAT)))
        if ts.drafts:
            for n in sorted(set(ts.drafts)):
                spaces = draft_spaces(race, car, n)
                if spaces and self._fits(race, car, spaces, car.speed, spare):
                    return React(car.id, "draft", n)
        for code in ts.refresh:
            if BY_CODE[code].speeds[-1] >= 3:
                return React(car.id, "refresh", 0, code)
        best_speed: React | None = None
        for code in dict.fromkeys(ts.choices):
            low = SPEED[code]
            for value in _CHOICES[code]:
                gained = value - low
                if (best_speed is None or value > best_speed.n) and \
                        self._fits(race, car, gained, car.speed + gained, spare):
                    best_speed = React(car.id, "speed", value, code)
        return best_speed


def _direct_holders(race: Race) -> frozenset[int]:
    """The cars that own a direct-play card (in any pile): the draft is over once a React step
    comes, and no upgrade joins a deck during the race (cards only move between piles or leave
    it: scrap, one-time)."""
    return frozenset(car.id for car in race.cars
                     if not (DIRECT.isdisjoint(car.hand) and DIRECT.isdisjoint(car.draw)
                             and DIRECT.isdisjoint(car.discard) and DIRECT.isdisjoint(car.play)))


#: direct-play card -> its Heat cost and the speed its play adds at worst
_DIRECT_PLAY = {code: (BY_CODE[code].count("heat"),
                       BY_CODE[code].speeds[0] + FLIP_WORST * BY_CODE[code].count("boost"))
                for code in DIRECT}
#: card with a speed choice -> the speeds it may be raised to
_CHOICES = {code: u.speeds[1:] for code, u in BY_CODE.items() if len(u.speeds) > 1}


class _SalvageValues(dict[str, int]):
    """What salvaging a card is worth to the bot: its speed; Heat and Stress nothing."""

    def __missing__(self, code: str) -> int:
        value = self[code] = -9 if code in (HEAT, STRESS) else SPEED[code]
        return value


_SALVAGE_VALUE = _SalvageValues()


def make_garage_bot(kind: str, *, seed: int = 0) -> Bot:
    """``random`` or ``heuristic``, able to draft and use upgrades."""
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "heuristic":
        return GarageBot(seed=seed)
    raise ValueError(f"unknown bot {kind!r} (random, heuristic)")


__all__ = ["DONE", "GarageBot", "draft_value", "make_garage_bot"]
