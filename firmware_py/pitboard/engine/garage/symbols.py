"""Every upgrade symbol and when it acts: one place per symbol.

At reveal (the ``after_reveal`` hook, before the car moves) each revealed upgrade resolves its
mandatory symbols by itself, card by card in play order, symbols in printed order:

- ``heat N`` is checked first: when the engine cannot pay, the card is discarded and a random
  speed card is played instead (a flip to the next basic Speed card, :func:`replace_card`), and
  none of its other symbols apply;
- ``boost N`` flips N times to a basic Speed card (each adds to Speed and counts as a [+]);
- ``scrap N`` puts the top N cards of the draw deck on the discard pile (an empty deck is
  refilled from the discard once; with both empty there is nothing to scrap);
- ``adjust ±N`` changes this car's limit at every corner it crosses this turn;
- ``onetime`` takes the card out of the game when the turn ends (sponsors).

``slipstream +N`` is offered at the Slipstream step itself: the distances to choose become the
usual one and the usual one plus the sum of any of the turn's slipstream symbols
(:func:`slipstream_reaches`, via the module's ``slipstream_choices`` hook).

The other optional symbols become React actions (the classes below), offered only while they
can still change something, in any order the player picks:

========================  ====================================================================
``speed CARD N``          a speed choice (Brakes 1/3): the card counts its lowest speed until
                          the player picks another; the car moves the difference
``cooldown``              the card's Cooldown joins the turn's (the base Cooldown action)
``reduce N``              discard up to N Stress cards from hand
``refresh CARD``          the card goes on top of the draw deck at the end of the turn
``salvage CARD``          one card from the discard pile shuffled into the draw deck (up to N)
``direct CARD``           play the card from hand now: its speed and symbols apply
``accelerate``            +N Speed for every [+] flipped this turn, all of them (later ones too)
``supercool N``           up to N Heat cards from the discard pile back to the engine
``draft N``               move exactly up to the next car ahead, at most N empty spaces (not
                          Speed)
========================  ====================================================================
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from ..cards import HEAT, SPEED, STRESS
from ..decisions import CARD_ARG, CARD_N_ARG, N_ARG, NO_ARG, React
from ..react import Boost, ReactAction, ReactGroup, register_action
from .data import BY_CODE

if TYPE_CHECKING:
    from ..race import Car, Race
    from .module import GarageModule

_new = object.__new__
#: card codes with a symbol, for cheap tests on the hot path
DIRECT = frozenset(c for c, u in BY_CODE.items() if u.has("direct"))
ONETIME = frozenset(c for c, u in BY_CODE.items() if u.has("onetime"))


@dataclass(slots=True, init=False)
class TurnState:
    """What a car's upgrades still offer this turn (reset each turn; part of snapshots)."""

    flips: int
    adjust: int
    cool: int
    choices: list[str]
    reduce: int
    salvage: int
    supercool: int
    slip: list[int]
    refresh: list[str]
    refreshed: list[str]
    accelerate: list[int]
    accel: int
    drafts: list[int]

    # written out: a turn state starts on most turns an upgrade is played, and the generated
    # __init__ binds every field by keyword and calls a factory per list
    def __init__(self, flips: int = 0) -> None:
        self.flips = flips
        self.adjust = self.cool = self.reduce = self.salvage = self.supercool = self.accel = 0
        self.choices, self.slip, self.refresh, self.refreshed = [], [], [], []
        self.accelerate, self.drafts = [], []

    def to_dict(self) -> dict[str, Any]:
        return {f.name: (list(v) if isinstance(v := getattr(self, f.name), list) else v)
                for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnState:
        ts = cls()
        for f in fields(cls):
            if f.name in data:
                value = data[f.name]
                setattr(ts, f.name, list(value) if isinstance(value, list) else value)
        return ts


def _module(race: Race) -> GarageModule:
    return race.hooks.by_key["garage"]  # type: ignore[return-value]


def offers_symbols(ts: TurnState | None, hand: Collection[str]) -> bool:
    """Could an optional upgrade symbol be on offer (a cheap first test: most turns offer
    none)? One open in the turn state ``ts``, or a direct-play card in ``hand``."""
    if ts is not None and (ts.choices or ts.reduce or ts.salvage or ts.supercool or
                           ts.refresh or ts.accelerate or ts.drafts):
        return True
    return not DIRECT.isdisjoint(hand)


def _flip(race: Race, car: Car, ts: TurnState, why: str) -> int:
    """One [+]: flip to a basic Speed card; its value (plus any accelerate) is the speed gained."""
    card = race._flip_basic(car, why)
    ts.flips += 1
    return (SPEED[card] if card is not None else 0) + ts.accel


def replace_card(race: Race, car: Car, code: str) -> None:
    """Heat cost unpayable: the card goes to the discard and a random speed card (the next basic
    Speed card of the deck) is played in its place. One function, so the reading is easy to
    change if a source shows another.

    Sources: the rulebook summary (../shared/seeds/001, Garage symbols: "discard the card and
    play a random speed card instead"); modules.md is silent; Board Game Arena
    (``ReactTrait::actPayHeats``) discards each unpaid card and resolves one flip to a basic
    Speed card for it, as a Stress card is. Where several cards cost Heat and the engine cannot
    pay them all, Board Game Arena lets the player choose which to pay (as many cards as it
    can); here they are paid in play order."""
    car.play.remove(code)
    car.discard.append(code)
    car.speed -= SPEED[code]
    card = race._flip_basic(car, "replace")
    car.speed += SPEED[card] if card is not None else 0
    if race.record_events:
        race._event("upgrade_replaced", car=car.id, card=code, by=card)


def resolve_card(race: Race, car: Car, code: str, ts: TurnState, reacting: bool) -> None:
    """A revealed (or directly played) upgrade: its mandatory symbols now, its optional ones
    into ``ts``. ``car.speed`` already counts the card's lowest speed. (``reacting`` is
    positional: a keyword argument makes every call slower.)"""
    heat, choice, symbols = _RESOLVE[code]
    if heat:
        if car.engine < heat:
            replace_card(race, car, code)
            return
        car.engine -= heat
        car.discard.extend([HEAT] * heat)
        if race.record_events:
            race._event("heat", car=car.id, n=heat, why=code)
    if choice:
        ts.choices.append(code)
    for name, n in symbols:
        if name == "boost":
            for _ in range(n):
                car.speed += _flip(race, car, ts, code)
        elif name == "scrap":
            _scrap(race, car, n)
        elif name == "adjust":
            ts.adjust += n
        elif name == "cooldown":
            if reacting:  # the turn's Cooldown is already counted: add what the card adds,
                # as the modules' cooldown hooks see it (a no-cooling sector adds nothing)
                hook = race.hooks.cooldown
                before = hook(race, car, 0) if hook else 0
                ts.cool += n
                after = hook(race, car, 0) if hook else n
                car.cooldown += max(0, after - before)
            else:
                ts.cool += n
        elif name == "reduce":
            ts.reduce += n
        elif name == "salvage":
            ts.salvage += n
        elif name == "supercool":
            ts.supercool += n
        elif name == "slipstream":
            ts.slip.append(n)
        elif name == "refresh":
            ts.refresh.append(code)
        elif name == "accelerate":
            ts.accelerate.append(n)
        elif name == "draft":
            ts.drafts.append(n)


#: card code -> what :func:`resolve_card` reads of it: its Heat cost, whether it has a speed
#: choice, and its other symbols in printed order (heat is paid first; direct is a way to play
#: the card; onetime acts at the end of the turn)
_RESOLVE = {code: (u.count("heat"), len(u.speeds) > 1,
                   tuple((name, n) for name, n in u.symbols
                         if name not in ("heat", "direct", "onetime")))
            for code, u in BY_CODE.items()}


def _scrap(race: Race, car: Car, n: int) -> None:
    draw = car.draw
    if len(draw) >= n:  # no reshuffle: the top n cards at once, top card first as if drawn
        scrapped = draw[:-n - 1:-1]  # (not drawn one by one: a call per card)
        del draw[-n:]
        car.discard += scrapped
    else:
        reshuffled = [False]
        scrapped = []
        for _ in range(n):
            card = race._draw_one(car, reshuffled)
            if card is None:  # deck and discard both empty: nothing more to scrap
                break
            car.discard.append(card)
            scrapped.append(card)
    if race.record_events:
        race._event("scrap", car=car.id, cards=scrapped, n=n)


def _move(race: Race, car: Car, gained: int, why: str) -> None:
    if gained:
        race._move(car, gained, why)


# ---------------------------------------------------------------------------- React actions
class UpgradeAction(ReactAction):
    """A React action of the Garage, bound to the race's Garage module (its turn states)."""

    def __init__(self, module: GarageModule) -> None:
        # the module's turn states, not the module: the module holds its actions, and a cycle
        # would leave every finished race's Garage to the garbage collector
        self.turns = module.turn


class SpeedChoice(UpgradeAction):
    name, arg = "speed", CARD_N_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.choices:
            for code in dict.fromkeys(ts.choices):
                for value in BY_CODE[code].speeds[1:]:
                    yield React(car.id, self.name, value, code)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.choices)

    def legal(self, race: Race, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and react.card in ts.choices and
                    react.n in BY_CODE[react.card].speeds[1:])

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.choices.remove(react.card)
        gained = react.n - SPEED[react.card]
        car.speed += gained
        if race.record_events:
            race._event("speed_choice", car=car.id, card=react.card, value=react.n,
                        speed=car.speed)
        _move(race, car, gained, "speed choice")


class Reduce(UpgradeAction):
    name, arg = "reduce", N_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.reduce:
            for n in range(1, min(ts.reduce, car.hand.count(STRESS)) + 1):
                yield React(car.id, self.name, n)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.reduce and STRESS in car.hand)

    def legal(self, race: Race, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.card and
                    1 <= react.n <= min(ts.reduce, car.hand.count(STRESS)))

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.reduce = 0
        for _ in range(react.n):
            car.hand.remove(STRESS)
        car.discard.extend([STRESS] * react.n)
        if race.record_events:
            race._event("reduce", car=car.id, n=react.n)


class Supercool(UpgradeAction):
    name, arg = "supercool", N_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.supercool:
            for n in range(1, min(ts.supercool, car.discard.count(HEAT)) + 1):
                yield React(car.id, self.name, n)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.supercool and HEAT in car.discard)

    def legal(self, race: Race, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.card and
                    1 <= react.n <= min(ts.supercool, car.discard.count(HEAT)))

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.supercool = 0
        for _ in range(react.n):
            car.discard.remove(HEAT)
        car.engine += react.n
        if race.record_events:
            race._event("supercool", car=car.id, n=react.n, engine=car.engine)


class Salvage(UpgradeAction):
    name, arg = "salvage", CARD_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.salvage:
            for code in sorted(set(car.discard)):
                yield React(car.id, self.name, 0, code)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.salvage and car.discard)

    def legal(self, race: Race, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.salvage and not react.n and react.card in car.discard)

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.salvage -= 1
        car.discard.remove(react.card)
        car.draw.append(react.card)
        race.shuffle(car.draw)
        if race.record_events:
            race._event("salvage", car=car.id, card=react.card)


class Refresh(UpgradeAction):
    name, arg = "refresh", CARD_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.refresh:
            for code in dict.fromkeys(ts.refresh):
                yield React(car.id, self.name, 0, code)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.refresh)

    def legal(self, race: Race, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.n and react.card in ts.refresh)

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.refresh.remove(react.card)
        ts.refreshed.append(react.card)
        if race.record_events:
            race._event("refresh", car=car.id, card=react.card)


class Direct(UpgradeAction):
    name, arg = "direct", CARD_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        for code in dict.fromkeys(car.hand):
            if code in DIRECT:
                yield React(car.id, self.name, 0, code)

    def available(self, race: Race, car: Car) -> bool:
        return not DIRECT.isdisjoint(car.hand)

    def legal(self, race: Race, car: Car, react: React) -> bool:
        return react.card in DIRECT and react.card in car.hand and not react.n

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = _module(race).turn_state(car)
        code = react.card
        car.hand.remove(code)
        car.play.append(code)
        before = car.speed
        car.speed += SPEED[code]
        if race.record_events:
            race._event("direct_play", car=car.id, card=code)
        resolve_card(race, car, code, ts, True)
        _move(race, car, car.speed - before, "direct play")


class Accelerate(UpgradeAction):
    name, arg = "accelerate", NO_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        if self.available(race, car):
            yield React(car.id, self.name)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.accelerate and ts.flips)

    def legal(self, race: Race, car: Car, react: React) -> bool:
        return self.available(race, car) and not react.n and not react.card

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        n = ts.accelerate.pop(0)
        ts.accel += n
        gained = n * ts.flips
        car.speed += gained
        if race.record_events:
            race._event("accelerate", car=car.id, n=n, flips=ts.flips, speed=car.speed)
        _move(race, car, gained, "accelerate")


def slipstream_reaches(ts: TurnState, reaches: tuple[int, ...]) -> tuple[int, ...]:
    """The slipstream distances with the turn's slipstream +N symbols: each given distance,
    plus the sum of any of them (combinable)."""
    if not ts.slip:
        return reaches
    sums = {0}
    for n in ts.slip:
        sums |= {s + n for s in sums}
    return tuple(dict.fromkeys(r + s for r in reaches for s in sorted(sums)))


def draft_spaces(race: Race, car: Car, most: int) -> int:
    """How far a draft symbol moves ``car`` now: the empty spaces up to the next car ahead
    (0 if there is no car within ``most`` + 1 spaces, or the move would cross the final line)."""
    d, spaces = car.d, race.track.spaces
    nearest = most + 1  # empty spaces before the nearest car ahead, looked at up to most
    for other in race.cars:
        if other.on_track and other is not car:
            # other stands k + 1 spaces ahead when space_of(d + k + 1) == other.space
            k = (other.space - 1 - d) % spaces
            if k < nearest:
                nearest = k
    if nearest > most or d + nearest > race.finish_d:
        return 0
    return nearest


class Draft(UpgradeAction):
    name, arg = "draft", N_ARG

    def options(self, race: Race, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.drafts:
            for n in sorted(set(ts.drafts)):
                if draft_spaces(race, car, n):
                    yield React(car.id, self.name, n)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)
        # the longest draft moves whenever a shorter one would (the same nearest car)
        return bool(ts and ts.drafts and draft_spaces(race, car, max(ts.drafts)))

    def legal(self, race: Race, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.card and react.n in ts.drafts and
                    draft_spaces(race, car, react.n))

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.drafts.remove(react.n)
        spaces = draft_spaces(race, car, react.n)
        if race.record_events:
            race._event("draft_move", car=car.id, spaces=spaces)
        race._move(car, spaces, "draft")


class GarageBoost(Boost):
    """The base Boost; its [+] also counts for accelerate (and takes an accelerate bonus)."""

    def __init__(self, module: GarageModule) -> None:
        self.turns = module.turn

    def apply(self, race: Race, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        Boost.apply(self, race, car, react)  # (not super(): a lookup per Boost)
        if ts is not None:
            ts.flips += 1
            if ts.accel:
                car.speed += ts.accel
                race._move(car, ts.accel, "accelerate")


#: the optional symbols' actions, in the order they are offered
SYMBOL_ACTIONS: tuple[type[UpgradeAction], ...] = (
    SpeedChoice, Direct, Accelerate, Reduce, Salvage, Supercool, Draft, Refresh)
for _action in SYMBOL_ACTIONS:
    register_action(_action)
    # UpgradeSymbols builds them without calling __init__: none may have one of its own
    assert _action.__init__ is UpgradeAction.__init__, _action


class UpgradeSymbols(ReactGroup):
    """All the optional symbols, behind :func:`offers_symbols` (most turns offer none)."""

    def __init__(self, module: GarageModule) -> None:
        self.turns = turns = module.turn
        # every race builds them: UpgradeAction.__init__ written out (no frame per action;
        # the symbol actions have no __init__ of their own)
        members = []
        for action in SYMBOL_ACTIONS:
            member = _new(action)
            member.turns = turns
            members.append(member)
        self.members = tuple(members)

    def gate(self, race: Race, car: Car) -> bool:
        return offers_symbols(self.turns.get(car.id), car.hand)

    def available(self, race: Race, car: Car) -> bool:
        ts = self.turns.get(car.id)  # offers_symbols(), written out (asked after most moves)
        if not (ts is not None and (ts.choices or ts.reduce or ts.salvage or ts.supercool or
                                    ts.refresh or ts.accelerate or ts.drafts)) and \
                DIRECT.isdisjoint(car.hand):
            return False
        for m in self.members:  # noqa: SIM110 (a loop: any() with a generator costs more)
            if m.available(race, car):
                return True
        return False
