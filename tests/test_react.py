"""React actions: which availability checks the race writes out and which it asks."""

from __future__ import annotations

from collections.abc import Iterator

from pitboard.engine import Race, RaceSetup
from pitboard.engine.decisions import React
from pitboard.engine.race import Car
from pitboard.engine.react import BASE_ACTIONS, Boost, ReactAction, more_available


class _NoBoost(Boost):
    """A Boost that is never available (changes the base action's availability)."""

    def available(self, race: Race, car: Car) -> bool:
        return False

    def options(self, race: Race, car: Car) -> Iterator[React]:
        return iter(())


class _Wave(ReactAction):
    """A module's own action, available while the car has Heat in its engine."""

    name = "wave"

    def available(self, race: Race, car: Car) -> bool:
        return car.engine > 0


class _KeepsBoost(Boost):
    """A refined Boost that keeps the base availability (as the Garage's does)."""


def test_base_actions_need_no_more_checks() -> None:
    assert more_available(BASE_ACTIONS) == ()


def test_a_modules_own_action_is_asked_after_the_base_ones() -> None:
    wave = _Wave()
    adrenaline, _, cooldown = BASE_ACTIONS
    more = more_available((adrenaline, _KeepsBoost(), cooldown, wave))
    assert more is not None and [m.__self__ for m in more] == [wave]


def test_a_base_action_with_other_availability_asks_every_action() -> None:
    adrenaline, _, cooldown = BASE_ACTIONS
    assert more_available((adrenaline, _NoBoost(), cooldown)) is None
    assert more_available((adrenaline, cooldown)) is None


def test_garage_race_asks_only_its_upgrade_symbols() -> None:
    race = Race(RaceSetup(cars=2, seed=1, modules={"garage": {"choose": "random"}}))
    symbols = race.hooks.by_key["garage"].symbols
    more = race._react_more
    assert more is not None and [m.__self__ for m in more] == [symbols]
