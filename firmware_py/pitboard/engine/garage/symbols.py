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

The other optional symbols become React actions (:mod:`.choices`), offered only while they
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

from collections.abc import Collection
from dataclasses import dataclass, fields
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..cards import HEAT, SPEED, STRESS
from ..events import HeatPaid, Scrapped, UpgradeReplaced
from .data import BY_CODE

if TYPE_CHECKING:
    from ..car import Car
    from ..modules import ModuleRace

_new = object.__new__
#: card codes with a symbol, for cheap tests on the hot path
DIRECT = frozenset(c for c, u in BY_CODE.items() if u.has("direct"))
ONETIME = frozenset(c for c, u in BY_CODE.items() if u.has("onetime"))


@dataclass(slots=True, init=False)
class TurnState:
    """What a car's upgrades still offer this turn (reset each turn; part of snapshots).

    Example: Body 3 (reduce 2) revealed with two Stress cards in hand::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U4", "S", "S", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U4", "U8", "U12"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U4",)))
        >>> ts = race.hooks.by_key["garage"].turn[0]
        >>> ts.reduce, ts.flips
        (2, 0)
        >>> race.apply(React(car=0, action="reduce", n=2))
        >>> ts.reduce, TurnState.from_dict(ts.to_dict()) == ts
        (0, True)
    """

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


def turn_state(turns: dict[int, TurnState], car: Car) -> TurnState:
    """``car``'s upgrade state this turn in ``turns`` (the Garage module's), started on first
    use: the [+] flips so far are its Stress cards and a Boost (upgrade flips only come with a
    state)."""
    ts = turns.get(car.id)
    if ts is None:
        ts = turns[car.id] = TurnState(car.play.count(STRESS) + car.boosted)
    return ts


def offers_symbols(ts: TurnState | None, hand: Collection[str]) -> bool:
    """Could an optional upgrade symbol be on offer (a cheap first test: most turns offer
    none)? One open in the turn state ``ts``, or a direct-play card in ``hand``."""
    if ts is not None and (ts.choices or ts.reduce or ts.salvage or ts.supercool or
                           ts.refresh or ts.accelerate or ts.drafts):
        return True
    return not DIRECT.isdisjoint(hand)


def _flip(race: ModuleRace, car: Car, ts: TurnState, why: str) -> int:
    """One [+]: flip to a basic Speed card; its value (plus any accelerate) is the speed gained."""
    card = race.flip(car, why)
    ts.flips += 1
    return (SPEED[card] if card is not None else 0) + ts.accel


def replace_card(race: ModuleRace, car: Car, code: str) -> None:
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
    card = race.flip(car, "replace")
    car.speed += SPEED[card] if card is not None else 0
    if race.record_events:
        race.record(UpgradeReplaced(car=car.id, card=code, by=card, round=race.round))


def resolve_card(race: ModuleRace, car: Car, code: str, ts: TurnState, reacting: bool) -> None:
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
            race.record(HeatPaid(car=car.id, n=heat, why=code, round=race.round))
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


def _scrap(race: ModuleRace, car: Car, n: int) -> None:
    draw = car.draw
    if len(draw) >= n:  # no reshuffle: the top n cards at once, top card first as if drawn
        scrapped = draw[:-n - 1:-1]  # (not drawn one by one: a call per card)
        del draw[-n:]
        car.discard += scrapped
    else:  # the discard pile shuffled in once; with both empty there is nothing more
        scrapped = []
        for card in islice(race.draws(car), n):
            car.discard.append(card)
            scrapped.append(card)
    if race.record_events:
        race.record(Scrapped(car=car.id, cards=tuple(scrapped), n=n, round=race.round))


def slipstream_reaches(ts: TurnState, reaches: tuple[int, ...]) -> tuple[int, ...]:
    """The slipstream distances with the turn's slipstream +N symbols: each given distance,
    plus the sum of any of them (combinable)."""
    if not ts.slip:
        return reaches
    sums = {0}
    for n in ts.slip:
        sums |= {s + n for s in sums}
    return tuple(dict.fromkeys(r + s for r in reaches for s in sorted(sums)))
