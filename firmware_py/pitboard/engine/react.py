"""React actions (steps 4–5): each one a small registered object, the base game's included.

A race offers the base actions (:data:`BASE_ACTIONS`) plus those of its modules
(:attr:`RaceModule.react_actions <pitboard.engine.modules.RaceModule>`). Each action says which
:class:`~pitboard.engine.decisions.React` decisions it allows now (``options``) and what one does
(``apply``); the race only asks, in turn, and keeps ``done`` last. So a Garage symbol is one class
in the Garage's files, not a branch in three if-chains of race.py.

Example::

    >>> [a.name for a in BASE_ACTIONS]
    ['adrenaline', 'boost', 'cooldown']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, ClassVar

from .cards import HEAT, SPEED
from .decisions import (
    ADRENALINE,
    BOOST,
    COOLDOWN,
    NO_ARG,
    REACT_ACTIONS,
    React,
    register_react_word,
)
from .events import AdrenalineUsed, Boosted, CooledDown, HeatPaid

if TYPE_CHECKING:
    from .car import Car
    from .modules import ModuleRace


class ReactAction:
    """One kind of React decision. Subclasses set ``name`` and ``arg`` (see
    :data:`pitboard.engine.decisions.REACT_ACTIONS`) and write ``options`` and ``apply``.

    ``available`` is asked after every move, so override it with a cheap test when
    ``options`` builds much. An action whose every option would change nothing offers none
    ("a choice that cannot change anything is not asked").

    Example: the base game's three, asked for the leader after both cars planned::

        >>> from pitboard.engine import Plan, Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
        >>> race.apply(Plan(car=1, gear=2, cards=("3", "4")))
        >>> car = race.cars[1]
        >>> [(a.name, a.available(race, car)) for a in BASE_ACTIONS]
        [('adrenaline', False), ('boost', True), ('cooldown', False)]
        >>> list(by_name(BASE_ACTIONS)["boost"].options(race, car))
        [React(car=1, action='boost', n=0, card='')]
    """

    name: ClassVar[str] = ""
    arg: ClassVar[str] = NO_ARG

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        """Every legal React decision of this kind for ``car`` now."""
        raise NotImplementedError

    def available(self, race: ModuleRace, car: Car) -> bool:
        for _ in self.options(race, car):
            return True
        return False

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        return react in set(self.options(race, car))

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        """Carry out a legal ``react`` (already logged by the race)."""
        raise NotImplementedError


class ReactGroup(ReactAction):
    """Several actions offered together behind one cheap test (``gate``), so a race asks one
    question after each move instead of one per action; each member keeps its own rules and
    its own name (the race finds members by name to apply them).

    Example: the Garage's upgrade symbols are one
    (:class:`~pitboard.engine.garage.choices.UpgradeSymbols`); here the base actions, grouped::

        >>> from pitboard.engine import Plan, Race, RaceSetup
        >>> class Basics(ReactGroup):
        ...     members = BASE_ACTIONS
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
        >>> race.apply(Plan(car=1, gear=2, cards=("3", "4")))
        >>> list(Basics().options(race, race.cars[1]))
        [React(car=1, action='boost', n=0, card='')]
        >>> sorted(by_name((Basics(),)))
        ['adrenaline', 'boost', 'cooldown']
    """

    members: tuple[ReactAction, ...] = ()

    def gate(self, race: ModuleRace, car: Car) -> bool:
        """False when no member can be available (a cheap, conservative test)."""
        return True

    def available(self, race: ModuleRace, car: Car) -> bool:
        return self.gate(race, car) and any(m.available(race, car) for m in self.members)

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        if self.gate(race, car):
            for m in self.members:
                yield from m.options(race, car)


def by_name(actions: tuple[ReactAction, ...]) -> dict[str, ReactAction]:
    """Actions (and the members of groups) by the name their decisions carry."""
    out: dict[str, ReactAction] = {}
    for a in actions:
        if isinstance(a, ReactGroup):
            out.update(by_name(a.members))
        else:
            out[a.name] = a
    return out


def more_available(actions: tuple[ReactAction, ...]
                   ) -> tuple[Callable[[ModuleRace, Car], bool], ...] | None:
    """The ``available`` checks of ``actions`` beyond the base game's three, when all three are
    there with their own availability (a refinement that keeps it, like the Garage's Boost,
    counts as the base one): the race then writes the base checks out and asks only these.
    None when a base action is missing or changes when it is available."""
    by_name = {a.name: a for a in actions}
    for base in BASE_ACTIONS:
        found = by_name.get(base.name)
        if found is None or type(found).available is not type(base).available:
            return None
    base_checks = {type(a).available for a in BASE_ACTIONS}
    return tuple(a.available for a in actions if type(a).available not in base_checks)


def register_action(action: ReactAction | type[ReactAction]) -> None:
    """Make the action's text form parse (its rules apply only in races that list it)."""
    register_react_word(action.name, action.arg)


class Adrenaline(ReactAction):
    """+1 move and +1 Speed, once, for the last car(s) of the round (their +1 Cooldown comes
    with the turn's Cooldown, see :class:`Cooldown`).

    Example: car 0 starts the round last in the race order, so it may take it::

        >>> from pitboard.engine import Discard, Plan, Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
        >>> race.apply(Plan(car=1, gear=2, cards=("3", "4")))
        >>> race.apply(React(car=1, action="done"))
        >>> race.apply(Discard(car=1, cards=()))
        >>> car = race.cars[0]
        >>> Adrenaline().available(race, car), car.speed, car.d
        (True, 9, 9)
        >>> race.apply(React(car=0, action="adrenaline"))
        >>> Adrenaline().available(race, car), car.speed, car.d
        (False, 10, 10)
    """

    name = ADRENALINE

    def available(self, race: ModuleRace, car: Car) -> bool:
        return car.adrenaline and not car.adrenaline_used

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        if self.available(race, car):
            yield React(car.id, ADRENALINE)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        return car.adrenaline and not car.adrenaline_used  # available(), written out

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        car.adrenaline_used = True
        car.speed += 1
        if race.record_events:
            race.record(AdrenalineUsed(car=car.id, speed=car.speed, round=race.round))
        race.move(car, 1, "adrenaline")


class Boost(ReactAction):
    """Once per turn, pay the Boost's Heat for one [+]: flip to a basic Speed card and move.

    Example::

        >>> from pitboard.engine import Plan, Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
        >>> race.apply(Plan(car=1, gear=2, cards=("3", "4")))
        >>> car = race.cars[1]
        >>> car.speed, car.engine, Boost().available(race, car)
        (7, 6, True)
        >>> race.apply(React(car=1, action="boost"))  # pays 1 Heat, flips a 2
        >>> car.speed, car.engine, car.boosted, Boost().available(race, car)
        (9, 5, True, False)
    """

    name = BOOST

    def available(self, race: ModuleRace, car: Car) -> bool:
        return not car.boosted and car.engine >= race.boost_heat(car)

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        if self.available(race, car):
            yield React(car.id, BOOST)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        # available(), written out: a call costs more than the test
        return not car.boosted and car.engine >= race.boost_heat(car)

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        car.boosted = True
        cost = race.boost_heat(car)
        car.engine -= cost
        car.discard.extend([HEAT] * cost)
        if cost and race.record_events:
            race.record(HeatPaid(car=car.id, n=cost, why="boost", round=race.round))
        card = race.flip(car, "boost")
        value = SPEED[card] if card is not None else 0
        car.speed += value
        if race.record_events:
            race.record(Boosted(car=car.id, card=card, value=value, speed=car.speed,
                                round=race.round))
        race.move(car, value, "boost")


class Cooldown(ReactAction):
    """Up to the turn's Cooldown of Heat cards from hand back to the engine.

    Example: a lone car in gear 1 has Cooldown 3, +1 for being last (Adrenaline)::

        >>> from pitboard.engine import Plan, Race, RaceSetup, StackedDeck
        >>> hand = StackedDeck(hand=("H", "H", "1", "2", "3", "4", "5"))
        >>> race = Race(RaceSetup(track="usa", cars=1, seed=1, laps=1, stacked={0: hand}))
        >>> race.apply(Plan(car=0, gear=1, cards=("3",)))
        >>> car = race.cars[0]
        >>> car.cooldown, [str(r) for r in Cooldown().options(race, car)]
        (4, ['react 0 cooldown 1', 'react 0 cooldown 2'])
        >>> race.apply(React(car=0, action="cooldown", n=2))
        >>> car.cooldown, car.engine, car.hand
        (2, 8, ['1', '2', '4', '5'])
    """

    name = COOLDOWN
    arg = REACT_ACTIONS[COOLDOWN]

    def available(self, race: ModuleRace, car: Car) -> bool:
        return car.cooldown > 0 and HEAT in car.hand

    def options(self, race: ModuleRace, car: Car) -> Iterator[React]:
        if car.cooldown > 0:
            for n in range(1, min(car.cooldown, car.hand.count(HEAT)) + 1):
                yield React(car.id, COOLDOWN, n)

    def legal(self, race: ModuleRace, car: Car, react: React) -> bool:
        # no min(): a builtin call costs more than the second comparison
        return 1 <= react.n <= car.cooldown and react.n <= car.hand.count(HEAT) and not react.card

    def apply(self, race: ModuleRace, car: Car, react: React) -> None:
        for _ in range(react.n):
            car.hand.remove(HEAT)
        car.engine += react.n
        car.cooldown -= react.n
        if race.record_events:
            race.record(CooledDown(car=car.id, n=react.n, engine=car.engine, round=race.round))


#: the base game's React actions, in the order they are offered ('done' always comes last)
BASE_ACTIONS: tuple[ReactAction, ...] = (Adrenaline(), Boost(), Cooldown())
