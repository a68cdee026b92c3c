"""The Garage module: each car races 3 upgrade cards instead of the starting 0, 5 and Heat.

Options (``RaceSetup.modules["garage"]``, plain JSON):

``choose``      ``random`` (3 cards each, dealt in grid order), ``draft``, ``snake`` or
                ``none`` (no upgrades: the starting 0, 5 and Heat stay; the module only plays
                cards dealt by another module, a championship's sponsors)
``pool``        ``basic``, ``advanced`` or ``all``
``expansions``  true adds the Heavy Rain and Tunnel Vision types (49-60) to the pool
``upgrades``    ``{"0": ["U7", "U21", "U44"], ...}``: cars given their cards (scenarios); they
                do not draft
``market``      the draft deck, top first (scenarios): markets are dealt from it in order
``kept``        ``{"0": [...], ...}``: the upgrades cars already own (a championship season's
                earlier races): they stay in their decks, the draft adds to them, and the pool
                loses those copies
``rounds``      draft rounds (default 3, the snake draft's 2): a season's races after the first
                draft 1
``order``       the pick order of every round, car ids (a season: the last placed first)
``swap``        true: after the draft each car, in ``order``, may swap one upgrade it owns for
                one left in the market (:class:`~.draft.DraftSwap`)

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(cars=2, seed=3, modules={"garage": {"choose": "draft"}}))
    >>> race.pending().kind, len(race.pending().options) >= 1
    ('draft', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from ..cards import HEAT, STARTING_UPGRADES, STRESS
from ..decisions import IllegalDecision, Pending
from ..events import DraftDropped, Drafted, MarketDealt, Swapped, UsedUp
from ..modules import RaceModule, register_module
from .choices import GarageBoost, UpgradeSymbols
from .data import BY_CODE, UPGRADES, parse_key
from .draft import (
    CHOOSE,
    DRAFT,
    PICKS,
    POOLS,
    DraftDrop,
    DraftPick,
    DraftSwap,
    draft_drop,
    draft_pick,
    market_size,
    pick_order,
    pool,
    pool_size,
)
from .symbols import ONETIME, TurnState, resolve_card, slipstream_reaches, turn_state

if TYPE_CHECKING:
    from ..car import Car
    from ..decisions import Decision
    from ..modules import ModuleRace
    from ..setup import RaceSetup

UPGRADE_CODES = frozenset(BY_CODE)
_new = object.__new__
#: upgrade key -> its code in piles (Upgrade.code is a property: worked out per call)
_CODE_OF = {key: u.code for key, u in UPGRADES.items()}
_DRAFT_TYPES = (DraftPick, DraftDrop, DraftSwap)
_OPTIONS = ("choose", "pool", "expansions", "upgrades", "market", "kept", "rounds", "order",
            "swap")
_PASS = ("", "")


@register_module
class GarageModule(RaceModule):
    """Upgrades chosen before the race, and their symbols during it (see symbols.py and choices.py).

    Example: a draft on USA from the whole pool; car 0, last on the grid, picks first::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, modules={
        ...     "garage": {"choose": "draft", "pool": "all", "expansions": True}}))
        >>> garage = race.hooks.by_key["garage"]
        >>> garage.round, garage.market
        (1, ['U46', 'U34', 'U6', 'U5', 'U15'])
        >>> race.pending().options[0]
        DraftPick(car=0, card='U46')
        >>> while race.phase == "draft":  # 3 rounds, a pick each
        ...     race.apply(race.pending().options[0])
        >>> garage.picks, race.pending().kind
        ({1: ['U34', 'U53', 'U37'], 0: ['U46', 'U41', 'U55']}, 'plan')
        >>> car = race.cars[0]  # its picks replace the starting upgrades 0, 5 and Heat
        >>> sorted(c for c in car.hand + car.draw if c.startswith("U")), "5" in car.hand + car.draw
        (['U41', 'U46', 'U55'], False)
    """

    key = "garage"
    decisions: ClassVar[Mapping[type, str]] = {DraftPick: DRAFT, DraftDrop: DRAFT,
                                               DraftSwap: DRAFT}

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.choose: str = options.get("choose", "draft")
        #: Board Game Arena's snake draft (an attribute, not a property: read at every round)
        self.snake = self.choose == "snake"
        self.pool: str = options.get("pool", "all")
        self.expansions: bool = options.get("expansions", False)
        given = options.get("upgrades", {})
        #: each car's upgrade keys (U7...), as given or as picked so far
        self.picks: dict[int, list[str]] = {
            int(car): [parse_key(k, "garage upgrades").key for k in keys]
            for car, keys in given.items()}
        self.given = frozenset(self.picks)
        kept = options.get("kept", {})
        for car, keys in kept.items():  # they draft, adding to these
            self.picks[int(car)] = [parse_key(k, "garage kept").key for k in keys]
        #: draft rounds and the given pick order (None: the grid's, as the draft says)
        self.rounds: int = int(options.get("rounds", 2 if self.snake else PICKS))
        self.pick_order: list[int] | None = None if options.get("order") is None else \
            [int(c) for c in options["order"]]
        #: after the draft, each car may swap an upgrade for a market card
        self.swap: bool = bool(options.get("swap", False))
        self.swapping = False
        self.deck: list[str] = []
        self.market: list[str] = []
        self.round = 0
        self.order: list[int] = []
        self.at = 0
        #: the cars that draft, in grid order (not state: worked out again after a load)
        self._drafting: list[int] | None = None
        #: one-time cards taken out of the game, by car
        self.removed: dict[int, list[str]] = {}
        #: the resolving car's upgrade symbols this turn
        self.turn: dict[int, TurnState] = {}
        #: the optional symbols' React actions; Boost refined to count for accelerate
        self.symbols = UpgradeSymbols(self.turn)
        #: does any car race a one-time card (a sponsor)? None until the first turn ends
        self._onetime: bool | None = None
        self.react_actions = (GarageBoost(self.turn), self.symbols)

    # -- options and state ----------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: Mapping[str, Any], setup: RaceSetup) -> None:
        unknown = set(options) - set(_OPTIONS)
        if unknown:
            raise ValueError(f"garage: unknown option {sorted(unknown)[0]!r} "
                             f"(known: {', '.join(_OPTIONS)})")
        _check_season_options(options, setup)
        if options.get("choose", "draft") not in CHOOSE:
            raise ValueError(f"garage: choose must be {', '.join(CHOOSE)}, "
                             f"not {options.get('choose')!r}")
        if options.get("pool", "all") not in POOLS:
            raise ValueError(f"garage: pool must be {', '.join(POOLS)}, "
                             f"not {options.get('pool')!r}")
        if not isinstance(options.get("expansions", False), bool):
            raise ValueError("garage: expansions must be true or false")
        given = options.get("upgrades", {})
        if not isinstance(given, Mapping):
            raise ValueError("garage: upgrades must map a car to its cards")
        for car, keys in given.items():
            if not str(car).isdigit() or not 0 <= int(car) < setup.cars:
                raise ValueError(f"garage: upgrades for car {car}, but cars are "
                                 f"0..{setup.cars - 1}")
            if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
                raise ValueError(f"garage: car {car} upgrades must be a list of cards")
            for k in keys:
                parse_key(k, f"garage: car {car} upgrades")
        market = options.get("market")
        if market is not None:
            if not isinstance(market, list) or not all(isinstance(k, str) for k in market):
                raise ValueError("garage: market must be a list of cards")
            for k in market:
                parse_key(k, "garage: market")
        drafting = setup.cars - len(given)
        snake = options.get("choose", "draft") == "snake"
        rounds = options.get("rounds", 2 if snake else PICKS)
        need = rounds * market_size(drafting, snake) if drafting else 0
        if options.get("choose", "draft") == "random":
            need = PICKS * drafting
        elif options.get("choose", "draft") == "none":
            need = 0
        have = len(market) if market is not None else \
            pool_size(options.get("pool", "all"), options.get("expansions", False))
        if have < need:
            raise ValueError(f"garage: {have} cards cannot fill the draft of {drafting} "
                             f"car(s) (needs {need})")

    def to_dict(self) -> dict[str, Any]:
        out = {"picks": {str(k): list(v) for k, v in self.picks.items()},
               "deck": list(self.deck), "market": list(self.market), "round": self.round,
               "order": list(self.order), "at": self.at,
               "removed": {str(k): list(v) for k, v in self.removed.items()},
               "turn": {str(k): v.to_dict() for k, v in self.turn.items()}}
        if self.swapping:  # (only then: other races save as they always did)
            out["swapping"] = True
        return out

    def load(self, data: Mapping[str, Any]) -> None:
        self.picks = {int(k): list(v) for k, v in data.get("picks", {}).items()}
        self.deck = list(data.get("deck", []))
        self.market = list(data.get("market", []))
        self.round = int(data.get("round", 0))
        self.order = [int(c) for c in data.get("order", [])]
        self.at = int(data.get("at", 0))
        self.swapping = bool(data.get("swapping", False))
        self.removed = {int(k): list(v) for k, v in data.get("removed", {}).items()}
        self._onetime = None
        self.turn.clear()  # in place: the React actions hold this dict
        self.turn.update((int(k), TurnState.from_dict(v)) for k, v in data.get("turn", {}).items())

    # -- choosing upgrades ----------------------------------------------------------------------
    def pre_race(self, race: ModuleRace) -> bool:
        if self.choose == "none":
            return False
        market = self.options.get("market")
        self.deck = list(market) if market is not None else pool(self.pool, self.expansions)
        if market is None:
            for keys in self.options.get("kept", {}).values():
                for key in keys:  # the copies the cars own are not in the pool
                    if key in self.deck:
                        self.deck.remove(key)
            race.shuffle(self.deck)
        drafters = self._drafters(race)
        if not drafters:
            return False
        if self.choose == "random":
            for car in drafters:
                self.picks[car] = self.deck[:PICKS]
                del self.deck[:PICKS]
            return False
        for car in drafters:
            self.picks.setdefault(car, [])  # (a season: the upgrades it owns)
        race.phase = DRAFT
        self._next_round(race)
        return True

    def _drafters(self, race: ModuleRace) -> list[int]:
        """Cars that choose upgrades, in grid order: not those given theirs, nor cars that
        never play cards (a Legend). Worked out once per race (each round asks)."""
        found = self._drafting
        if found is None:
            plans = race.hooks.plans
            found = self._drafting = [c for c in race.grid if c not in self.given and
                                      (plans is None or plans(race, race.cars[c]))]
        return found

    def _next_round(self, race: ModuleRace) -> None:
        self.round += 1
        drafters = self._drafters(race)
        rounds = self.rounds
        if self.round > rounds:
            if self.snake and self.round == rounds + 1:  # each drops 1 of 4
                self.market = []
                self.order, self.at = drafters[::-1], 0
                return
            if self.swap and self.round == rounds + 1:  # a season: each may swap one
                self.swapping = True
                self.order, self.at = self._order(drafters), 0
                return
            self.swapping = False
            self.market, self.order = [], []
            race.start()
            return
        size = market_size(len(drafters), self.snake)
        self.market = self.deck[:size]
        del self.deck[:size]
        self.order, self.at = self._order(drafters) if self.pick_order is not None else \
            pick_order(self.round, drafters, self.snake), 0
        if race.record_events:
            race.record(MarketDealt(draft_round=self.round, cards=tuple(self.market),
                                    round=race.round))

    def _order(self, drafters: list[int]) -> list[int]:
        """The given pick order, of the cars that draft (the grid's reversed when none)."""
        if self.pick_order is None:
            return drafters[::-1]
        return [c for c in self.pick_order if c in drafters]

    def pending(self, race: ModuleRace) -> Pending | None:
        if race.phase != DRAFT:
            return None
        car = self.order[self.at]
        if self.swapping:  # every swap of an owned card for a market card, or none
            options: tuple[Decision, ...] = (*(
                DraftSwap(car, give, take) for give in dict.fromkeys(self.picks[car])
                for take in dict.fromkeys(self.market) if give != take), DraftSwap(car, *_PASS))
            return Pending(DRAFT, (car,), options, forced=len(options) == 1)
        if self.market:
            options = tuple(map(draft_pick, repeat(car), dict.fromkeys(self.market)))
        else:
            options = tuple(map(draft_drop, repeat(car), dict.fromkeys(self.picks[car])))
        return Pending(DRAFT, (car,), options, forced=len(options) == 1)

    def waiting(self, race: ModuleRace) -> int | None:
        # a draft pick's Pending lists the market (~30,000 instructions, callgrind): a bot race
        # asked for it at every pick only to learn whose pick it is
        return self.order[self.at] if race.phase == DRAFT else None

    def apply(self, race: ModuleRace, decision: Decision) -> None:
        car = self.order[self.at]
        if type(decision) is DraftPick:  # a legal pick, the usual case, tested first
            card = decision.card
            market = self.market
            if decision.car != car or card not in market or self.swapping:
                self._refuse(car, decision)
            race.log.append(decision)
            market.remove(card)
            self.picks[car].append(card)
        elif type(decision) is DraftSwap:
            self._apply_swap(race, car, decision)
        else:
            if not isinstance(decision, DraftDrop) or decision.car != car or self.market or \
                    self.swapping or decision.card not in self.picks[car]:
                self._refuse(car, decision)
            race.log.append(decision)
            self.picks[car].remove(decision.card)
        if race.record_events and not isinstance(decision, DraftSwap):
            kind = Drafted if isinstance(decision, DraftPick) else DraftDropped
            race.record(kind(car=car, card=decision.card, round=race.round))
        self.at += 1
        if self.at == len(self.order):
            self._next_round(race)

    def _apply_swap(self, race: ModuleRace, car: int, swap: DraftSwap) -> None:
        if not self.swapping or swap.car != car or (swap.give and (
                swap.give not in self.picks[car] or swap.take not in self.market)):
            self._refuse(car, swap)
        race.log.append(swap)
        if swap.give:
            picks = self.picks[car]
            picks[picks.index(swap.give)] = swap.take
            self.market.remove(swap.take)
            self.market.append(swap.give)  # back in the market: a later car may take it
        if race.record_events:
            race.record(Swapped(car=car, give=swap.give or None, take=swap.take or None,
                                round=race.round))

    def _refuse(self, car: int, decision: Decision) -> NoReturn:
        """Why ``decision`` is not the draft decision the race waits for (from ``car``)."""
        if not isinstance(decision, _DRAFT_TYPES):
            raise IllegalDecision(f"not a draft decision: {decision!r}")
        if decision.car != car:
            what = "swap" if self.swapping else "draft pick"
            raise IllegalDecision(f"waiting for a {what} from car {car}, "
                                  f"not car {decision.car}")
        if self.swapping or isinstance(decision, DraftSwap):
            if not self.swapping:
                raise IllegalDecision(f"car {car}: no swap now: pick from the market")
            if isinstance(decision, DraftSwap):
                raise IllegalDecision(
                    f"car {car}: cannot swap {decision.give} for {decision.take} (yours: "
                    f"{' '.join(self.picks[car])}; market: {' '.join(self.market)})")
            raise IllegalDecision(f"car {car}: swap an upgrade for a market card, or none")
        if isinstance(decision, DraftPick):
            if not self.market:
                raise IllegalDecision(f"car {car}: drop one of your 4 upgrades "
                                      f"({' '.join(self.picks[car])}), not draft")
            raise IllegalDecision(f"car {car}: {decision.card} is not in the market "
                                  f"({' '.join(self.market)})")
        raise IllegalDecision(f"car {car}: cannot drop {decision.card} now")

    def setup_car(self, race: ModuleRace, car: Car) -> None:
        keys = self.picks.get(car.id)
        if keys is None:
            return
        for code in STARTING_UPGRADES:
            car.draw.remove(code)
        car.draw.extend(map(_CODE_OF.__getitem__, keys))

    # -- the turn -------------------------------------------------------------------------------
    def after_reveal(self, race: ModuleRace, car: Car) -> None:
        play = car.play
        if UPGRADE_CODES.isdisjoint(play):
            return  # no upgrade revealed (a direct play starts the turn state itself)
        ts = self.turn.get(car.id)
        if ts is None:  # turn_state() and TurnState(), written out (no __init__ frame)
            ts = self.turn[car.id] = _new(TurnState)
            ts.flips = play.count(STRESS) + car.boosted
            ts.adjust = ts.cool = ts.reduce = ts.salvage = ts.supercool = ts.accel = 0
            ts.choices, ts.slip, ts.refresh, ts.refreshed = [], [], [], []
            ts.accelerate, ts.drafts = [], []
        for code in tuple(play):  # a copy: an unpayable card leaves the play area
            if code in UPGRADE_CODES:
                resolve_card(race, car, code, ts, False)

    def turn_state(self, car: Car) -> TurnState:
        """``car``'s upgrade state this turn, started on first use: the [+] flips so far are
        its Stress cards and a Boost (upgrade flips only come with a state)."""
        return turn_state(self.turn, car)

    def cooldown(self, race: ModuleRace, car: Car, n: int) -> int:
        ts = self.turn.get(car.id)
        return n + ts.cool if ts else n

    def car_corner_limit(self, race: ModuleRace, car: Car, index: int, limit: int) -> int:
        ts = self.turn.get(car.id)
        return limit + ts.adjust if ts else limit

    def slipstream_choices(self, race: ModuleRace, car: Car, spaces: tuple[int, ...]
                           ) -> tuple[int, ...]:
        ts = self.turn.get(car.id)
        return slipstream_reaches(ts, spaces) if ts else spaces

    def end_turn(self, race: ModuleRace, car: Car) -> None:
        ts = self.turn.pop(car.id, None) if self.turn else None  # (most turns have none)
        if ts is not None:
            for code in ts.refreshed:
                car.play.remove(code)
                car.draw.append(code)  # on top
        onetime = self._onetime
        if onetime is None:  # worked out once, from every card in the race (most have none),
            # or from a module that deals them during the race (a championship's sponsors)
            onetime = self._onetime = any(m.deals_onetime for m in race.hooks.modules) or any(
                not ONETIME.isdisjoint(pile) for c in race.cars
                for pile in (c.draw, c.hand, c.play, c.discard))
        if onetime and not ONETIME.isdisjoint(car.play):
            gone = [c for c in car.play if c in ONETIME]
            for code in gone:
                car.play.remove(code)
            self.removed.setdefault(car.id, []).extend(gone)
            if race.record_events:
                race.record(UsedUp(car=car.id, cards=tuple(gone), round=race.round))


def _check_season_options(options: Mapping[str, Any], setup: RaceSetup) -> None:
    """The options a championship season gives its races' Garage: kept, rounds, order, swap."""
    kept = options.get("kept", {})
    if not isinstance(kept, Mapping):
        raise ValueError("garage: kept must map a car to the upgrades it owns")
    for car, keys in kept.items():
        if not str(car).isdigit() or not 0 <= int(car) < setup.cars:
            raise ValueError(f"garage: kept upgrades for car {car}, but cars are "
                             f"0..{setup.cars - 1}")
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ValueError(f"garage: car {car} kept upgrades must be a list of cards")
        for k in keys:
            parse_key(k, f"garage: car {car} kept")
    rounds = options.get("rounds", 1)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 3:
        raise ValueError(f"garage: rounds must be 1..3, not {rounds!r}")
    order = options.get("order")
    if order is not None and (not isinstance(order, list) or sorted(order) != sorted(
            set(order)) or not all(isinstance(c, int) and 0 <= c < setup.cars for c in order)):
        raise ValueError(f"garage: order must list cars 0..{setup.cars - 1}, each once")
    if not isinstance(options.get("swap", False), bool):
        raise ValueError("garage: swap must be true or false")


def removed_cards(race: ModuleRace, car: int) -> list[str]:
    """The one-time cards ``car`` has used up (out of the game)."""
    module = race.hooks.by_key.get("garage")
    return list(module.removed.get(car, [])) if isinstance(module, GarageModule) else []


__all__ = ["HEAT", "GarageModule", "removed_cards"]
