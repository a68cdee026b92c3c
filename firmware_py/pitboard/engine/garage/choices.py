"""The Garage's optional symbols as React actions: one class per symbol (the table of them is
in :mod:`.symbols`, with the mandatory symbols that resolve by themselves at reveal), each
offered only while it can still change something, in any order the player picks; and the
Garage's Boost, which counts its flips for Accelerate."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..cards import HEAT, SPEED, STRESS
from ..decisions import CARD_ARG, CARD_N_ARG, N_ARG, NO_ARG, React
from ..events import (
    Accelerated,
    DirectPlayed,
    DraftMoved,
    RefreshChosen,
    Salvaged,
    SpeedChosen,
    StressReduced,
    SuperCooled,
)
from ..react import Boost, ReactAction, ReactGroup, register_action
from .data import BY_CODE
from .symbols import DIRECT, TurnState, offers_symbols, resolve_card, turn_state

if TYPE_CHECKING:
    from ..car import Car
    from ..modules import ModuleRace

_new = object.__new__


class UpgradeAction(ReactAction):
    """A React action of the Garage, bound to the race's Garage module's turn states.

    Example: each race's Garage builds one of each, offered in this order::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
        ...                       modules={"garage": {"choose": "random"}}))
        >>> garage = race.hooks.by_key["garage"]
        >>> [action.name for action in garage.symbols.members]
        ['speed', 'direct', 'accelerate', 'reduce', 'salvage', 'supercool', 'draft', 'refresh']
        >>> all(action.turns is garage.turn for action in garage.symbols.members)
        True
    """

    def __init__(self, turns: dict[int, TurnState]) -> None:
        # the module's turn states, not the module: the module holds its actions, and a cycle
        # would leave every finished race's Garage to the garbage collector
        self.turns = turns


class SpeedChoice(UpgradeAction):
    """A speed choice: the card counted its lowest speed at reveal; pick another and move.

    Example: Brakes 1/3::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U8", "1", "1", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U4", "U8", "U12"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U8",)))
        >>> car = race.cars[0]
        >>> car.speed, car.d, [str(o) for o in race.pending().options if o.action == "speed"]
        (1, 6, ['react 0 speed U8 3'])
        >>> race.apply(React(car=0, action="speed", n=3, card="U8"))
        >>> car.speed, car.d
        (3, 8)
    """

    name, arg = "speed", CARD_N_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.choices:
            for code in dict.fromkeys(ts.choices):
                for value in BY_CODE[code].speeds[1:]:
                    yield React(car.id, self.name, value, code)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.choices)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and react.card in ts.choices and
                    react.n in BY_CODE[react.card].speeds[1:])

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.choices.remove(react.card)
        gained = react.n - SPEED[react.card]
        car.speed += gained
        if race.record_events:
            race.record(SpeedChosen(car=car.id, card=react.card, value=react.n, speed=car.speed,
                                    round=race.round))
        _move_gained(race, car, gained, "speed choice")


class Reduce(UpgradeAction):
    """Reduce N: discard up to N Stress cards from hand (a discard: not on a tunnel space,
    :meth:`Race.may_discard <pitboard.engine.queries.Queries.may_discard>`).

    Example: Body 3 (reduce 2)::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U4", "S", "S", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U4", "U8", "U12"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U4",)))
        >>> [str(o) for o in race.pending().options if o.action == "reduce"]
        ['react 0 reduce 1', 'react 0 reduce 2']
        >>> race.apply(React(car=0, action="reduce", n=2))
        >>> race.cars[0].hand, race.cars[0].discard
        (['1', '1', '1', '1'], ['S', 'S'])
    """

    name, arg = "reduce", N_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.reduce and race.may_discard(car):
            for n in range(1, min(ts.reduce, car.hand.count(STRESS)) + 1):
                yield React(car.id, self.name, n)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.reduce and STRESS in car.hand and race.may_discard(car))

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.card and race.may_discard(car) and
                    1 <= react.n <= min(ts.reduce, car.hand.count(STRESS)))

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.reduce = 0
        for _ in range(react.n):
            car.hand.remove(STRESS)
        car.discard.extend([STRESS] * react.n)
        if race.record_events:
            race.record(StressReduced(car=car.id, n=react.n, round=race.round))


class Supercool(UpgradeAction):
    """Supercool N: up to N Heat cards from the discard pile back to the engine.

    Example: Air Intake 3 (supercool 1, scrap 3) with two Heat cards discarded::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U52", "1", "1", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    discard=("H", "H"), d=5, spot=1, engine=4)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U52", "U49", "U50"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U52",)))
        >>> [str(o) for o in race.pending().options if o.action == "supercool"]
        ['react 0 supercool 1']
        >>> race.apply(React(car=0, action="supercool", n=1))
        >>> race.cars[0].engine, race.cars[0].discard.count("H")
        (5, 1)
    """

    name, arg = "supercool", N_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.supercool:
            for n in range(1, min(ts.supercool, car.discard.count(HEAT)) + 1):
                yield React(car.id, self.name, n)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.supercool and HEAT in car.discard)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.card and
                    1 <= react.n <= min(ts.supercool, car.discard.count(HEAT)))

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.supercool = 0
        for _ in range(react.n):
            car.discard.remove(HEAT)
        car.engine += react.n
        if race.record_events:
            race.record(SuperCooled(car=car.id, n=react.n, engine=car.engine, round=race.round))


class Salvage(UpgradeAction):
    """Salvage N: up to N cards, one at a time, from the discard pile shuffled into the deck.

    Example: Fuel 2 (salvage 2)::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U22", "1", "1", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    discard=("3", "H"), d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U22", "U8", "U12"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U22",)))
        >>> [str(o) for o in race.pending().options if o.action == "salvage"]
        ['react 0 salvage 3', 'react 0 salvage H']
        >>> race.apply(React(car=0, action="salvage", card="3"))
        >>> race.cars[0].discard, "3" in race.cars[0].draw
        (['H'], True)
    """

    name, arg = "salvage", CARD_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.salvage:
            for code in sorted(set(car.discard)):
                yield React(car.id, self.name, 0, code)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.salvage and car.discard)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.salvage and not react.n and react.card in car.discard)

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.salvage -= 1
        car.discard.remove(react.card)
        car.draw.append(react.card)
        race.shuffle(car.draw)
        if race.record_events:
            race.record(Salvaged(car=car.id, card=react.card, round=race.round))


class Refresh(UpgradeAction):
    """Refresh: the card goes on top of the draw deck when the turn ends (not the discard).

    Example: Suspension 4 comes back into the next hand::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U34", "1", "1", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U34", "U8", "U12"]}}}))
        >>> from pitboard.engine import Discard
        >>> race.apply(Plan(car=0, gear=1, cards=("U34",)))
        >>> race.apply(React(car=0, action="refresh", card="U34"))
        >>> race.apply(React(car=0, action="done"))
        >>> race.apply(Discard(car=0, cards=()))
        >>> race.pending().kind, race.cars[0].hand, race.cars[0].discard
        ('plan', ['1', '1', '1', '1', '1', '1', 'U34'], [])
    """

    name, arg = "refresh", CARD_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.refresh:
            for code in dict.fromkeys(ts.refresh):
                yield React(car.id, self.name, 0, code)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.refresh)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.n and react.card in ts.refresh)

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.refresh.remove(react.card)
        ts.refreshed.append(react.card)
        if race.record_events:
            race.record(RefreshChosen(car=car.id, card=react.card, round=race.round))


class Direct(UpgradeAction):
    """Direct play: play the card from hand in the React step; its speed and symbols apply.

    Example: Gas Pedal 1 (direct, scrap 1) played after a 1::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("1", "U24", "1", "1", "1", "1", "1"),
        ...                    draw=("3", "2", "2", "2", "2", "2", "2", "2"), d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U24", "U8", "U12"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("1",)))
        >>> [str(o) for o in race.pending().options if o.action == "direct"]
        ['react 0 direct U24']
        >>> race.apply(React(car=0, action="direct", card="U24"))
        >>> car = race.cars[0]  # the 3 on top of the deck is scrapped
        >>> car.speed, car.d, car.play, car.discard
        (2, 7, ['1', 'U24'], ['3'])
    """

    name, arg = "direct", CARD_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        for code in dict.fromkeys(car.hand):
            if code in DIRECT:
                yield React(car.id, self.name, 0, code)

    def available(self, race: ModuleRace, car: Car) -> bool:
        return not DIRECT.isdisjoint(car.hand)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        return react.card in DIRECT and react.card in car.hand and not react.n

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = turn_state(self.turns, car)
        code = react.card
        car.hand.remove(code)
        car.play.append(code)
        before = car.speed
        car.speed += SPEED[code]
        if race.record_events:
            race.record(DirectPlayed(car=car.id, card=code, round=race.round))
        resolve_card(race, car, code, ts, True)
        _move_gained(race, car, car.speed - before, "direct play")


class Accelerate(UpgradeAction):
    """Accelerate N: +N Speed for every [+] flipped this turn, and for each one flipped later.

    Example: 4 Wheel Drive 0 (boost 1, accelerate 1) flips a 2::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U47", "1", "1", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U47", "U8", "U12"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U47",)))
        >>> car = race.cars[0]
        >>> car.speed, [str(o) for o in race.pending().options if o.action == "accelerate"]
        (2, ['react 0 accelerate'])
        >>> race.apply(React(car=0, action="accelerate"))  # one [+] so far: +1
        >>> car.speed
        3
        >>> race.apply(React(car=0, action="boost"))  # a 2, and +1 for accelerate
        >>> car.speed
        6
    """

    name, arg = "accelerate", NO_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        if self.available(race, car):
            yield React(car.id, self.name)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and ts.accelerate and ts.flips)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        return self.available(race, car) and not react.n and not react.card

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        n = ts.accelerate.pop(0)
        ts.accel += n
        gained = n * ts.flips
        car.speed += gained
        if race.record_events:
            race.record(Accelerated(car=car.id, n=n, flips=ts.flips, speed=car.speed,
                                    round=race.round))
        _move_gained(race, car, gained, "accelerate")


def _move_gained(race: ModuleRace, car: Car, gained: int, why: str) -> None:
    """Move ``car`` the speed a symbol gained it (no move, and no move event, for none)."""
    if gained:
        race.move(car, gained, why)


def draft_spaces(race: ModuleRace, car: Car, most: int) -> int:
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
    """Draft N: move up behind the next car ahead, over at most N empty spaces (not Speed).

    Example: Front Wing 0 (boost 1, draft 3) behind car 1, which stays put::

        >>> from pitboard.engine import Discard, Plan, Race, RaceSetup, React, StackedDeck
        >>> hands = {0: ("U55", "1", "1", "1", "1", "1", "1"), 1: ("0", "1", "1", "1", "1", "1")}
        >>> decks = {car: StackedDeck(hand=hand, draw=("2",) * 8, d=d, spot=1)
        ...          for (car, hand), d in zip(hands.items(), (5, 10))}
        >>> race = Race(RaceSetup(track="usa", cars=2, laps=1, stacked=decks, modules={
        ...     "garage": {"upgrades": {"0": ["U55"], "1": ["U1"]}, "expansions": True}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U55",)))
        >>> race.apply(Plan(car=1, gear=1, cards=("0",)))
        >>> race.apply(React(car=1, action="done"))  # the leader first: speed 0
        >>> race.apply(Discard(car=1, cards=()))
        >>> car = race.cars[0]  # flipped a 2: two empty spaces behind car 1
        >>> car.d, [str(o) for o in race.pending().options if o.action == "draft"]
        (7, ['react 0 draft 3'])
        >>> race.apply(React(car=0, action="draft", n=3))
        >>> car.d, car.speed, race.cars[1].d
        (9, 2, 10)
    """

    name, arg = "draft", N_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        ts = self.turns.get(car.id)
        if ts and ts.drafts:
            for n in sorted(set(ts.drafts)):
                if draft_spaces(race, car, n):
                    yield React(car.id, self.name, n)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)
        # the longest draft moves whenever a shorter one would (the same nearest car)
        return bool(ts and ts.drafts and draft_spaces(race, car, max(ts.drafts)))

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        ts = self.turns.get(car.id)
        return bool(ts and not react.card and react.n in ts.drafts and
                    draft_spaces(race, car, react.n))

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        assert ts is not None
        ts.drafts.remove(react.n)
        spaces = draft_spaces(race, car, react.n)
        if race.record_events:
            race.record(DraftMoved(car=car.id, spaces=spaces, round=race.round))
        race.move(car, spaces, "draft")


class GarageBoost(Boost):
    """The base Boost; its [+] also counts for accelerate (and takes an accelerate bonus).

    Example: 4 Wheel Drive 0 (boost 1, accelerate 1) flips a 2, then a Boost flips another::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U47", "1", "1", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U47", "U8", "U12"]}}}))
        >>> race.apply(Plan(car=0, gear=1, cards=("U47",)))
        >>> race.apply(React(car=0, action="boost"))
        >>> car, ts = race.cars[0], race.hooks.by_key["garage"].turn[0]
        >>> car.speed, car.engine, ts.flips
        (4, 5, 2)
        >>> race.apply(React(car=0, action="accelerate"))  # +1 for each of the two [+]
        >>> car.speed
        6
    """

    def __init__(self, turns: dict[int, TurnState]) -> None:
        self.turns = turns

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        ts = self.turns.get(car.id)
        Boost.apply(self, race, car, react)  # (not super(): a lookup per Boost)
        if ts is not None:
            ts.flips += 1
            if ts.accel:
                car.speed += ts.accel
                race.move(car, ts.accel, "accelerate")


#: the optional symbols' actions, in the order they are offered
SYMBOL_ACTIONS: tuple[type[UpgradeAction], ...] = (
    SpeedChoice, Direct, Accelerate, Reduce, Salvage, Supercool, Draft, Refresh)
for _action in SYMBOL_ACTIONS:
    register_action(_action)
    # UpgradeSymbols builds them without calling __init__: none may have one of its own
    assert _action.__init__ is UpgradeAction.__init__, _action


class UpgradeSymbols(ReactGroup):
    """All the optional symbols, behind :func:`offers_symbols` (most turns offer none).

    Example: Body 3 (reduce 2) opens them; a plain card would not::

        >>> from pitboard.engine import Plan, Race, RaceSetup, React, StackedDeck
        >>> deck = StackedDeck(hand=("U4", "S", "1", "1", "1", "1", "1"), draw=("2",) * 8,
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck},
        ...                       modules={"garage": {"upgrades": {"0": ["U4", "U8", "U12"]}}}))
        >>> symbols, car = race.hooks.by_key["garage"].symbols, race.cars[0]
        >>> symbols.gate(race, car)
        False
        >>> race.apply(Plan(car=0, gear=1, cards=("U4",)))
        >>> symbols.gate(race, car), symbols.available(race, car)
        (True, True)
        >>> race.apply(React(car=0, action="reduce", n=1))  # nothing more to reduce
        >>> symbols.available(race, car)
        False
    """

    def __init__(self, turns: dict[int, TurnState]) -> None:
        self.turns = turns
        # every race builds them: UpgradeAction.__init__ written out (no frame per action;
        # the symbol actions have no __init__ of their own)
        members = []
        for action in SYMBOL_ACTIONS:
            member = _new(action)
            member.turns = turns
            members.append(member)
        self.members = tuple(members)

    def gate(self, race: ModuleRace, car: Car) -> bool:
        return offers_symbols(self.turns.get(car.id), car.hand)

    def available(self, race: ModuleRace, car: Car) -> bool:
        ts = self.turns.get(car.id)  # offers_symbols(), written out (asked after most moves)
        if not (ts is not None and (ts.choices or ts.reduce or ts.salvage or ts.supercool or
                                    ts.refresh or ts.accelerate or ts.drafts)) and \
                DIRECT.isdisjoint(car.hand):
            return False
        for m in self.members:  # noqa: SIM110 (a loop: any() with a generator costs more)
            if m.available(race, car):
                return True
        return False
