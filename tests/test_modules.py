"""The named hook points modules plug into (engine/modules.py), with small test modules.

Each test module changes one thing; the tests check the base sequence asks at the right moment,
that a race with the module still replays, undoes and round-trips through a snapshot, and that a
race without modules is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, NamedTuple

import pytest

from pitboard.engine import IllegalDecision, Race, RaceSetup, React, StackedDeck
from pitboard.engine.decisions import (
    MODULE_DECISIONS,
    DecisionKind,
    Pending,
    Plan,
    decision_from_dict,
    decision_to_dict,
    parse_decision,
    register_decision,
)
from pitboard.engine.modules import MODULES, Hooks, ModuleRace, RaceModule, register_module
from pitboard.engine.race import Car
from pitboard.engine.snapshot import race_from_dict, race_to_dict, replay, undo


class Banked(RaceModule):
    """Every corner 1 faster; Cooldown +1; Boost free; slipstream 3; one corner overheats."""

    key = "test_banked"

    def corner_limit(self, race: Race, index: int, limit: int) -> int:
        return limit + 1

    def cooldown(self, race: Race, car: Car, n: int) -> int:
        return n + 1

    def boost_heat(self, race: Race, car: Car, cost: int) -> int:
        return 0

    def slipstream_spaces(self, race: Race, car: Car, spaces: int) -> int:
        return spaces + 1

    def corner_heat(self, race: Race, car: Car, index: int, excess: int) -> int:
        return excess + 1 if index == 0 else excess


class Ghost(RaceModule):
    """The last car drives itself: 3 spaces a turn, never plans."""

    key = "test_ghost"

    def _is_ghost(self, race: Race, car: Car) -> bool:
        return car.id == len(race.cars) - 1

    def plans(self, race: Race, car: Car) -> bool:
        return not self._is_ghost(race, car)

    def drive(self, race: Race, car: Car) -> bool:
        if not self._is_ghost(race, car):
            return False
        race.move(car, 3, "ghost")
        return True


class Pick(NamedTuple):
    car: int
    n: int

    def __str__(self) -> str:
        return f"pick {self.car} {self.n}"


def _parse_pick(car: int, words: list[str]) -> Pick:
    if len(words) != 1 or not words[0].isdigit():
        raise ValueError("expected 'pick CAR N'")
    return Pick(car, int(words[0]))


PICK = DecisionKind("pick", Pick, lambda p: {"n": p.n},
                    lambda car, data: Pick(car, int(data["n"])), _parse_pick)


class Toll(RaceModule):
    """Before the race each car names a number (a stand-in for a draft): that many Heat cards
    leave its deck. Shows pre-race decisions, module state and snapshots."""

    key = "test_toll"
    decisions: ClassVar[Mapping[type, str]] = {Pick: "toll"}

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.picks: dict[int, int] = {}

    def to_dict(self) -> dict[str, Any]:
        return {"picks": {str(k): v for k, v in self.picks.items()}}

    def load(self, data: Mapping[str, Any]) -> None:
        self.picks = {int(k): int(v) for k, v in data.get("picks", {}).items()}

    def pre_race(self, race: Race) -> bool:
        race.phase = "toll"
        return True

    def pending(self, race: Race) -> Pending | None:
        if race.phase != "toll":
            return None
        return Pending("toll", (len(self.picks),))

    def apply(self, race: Race, decision: Any) -> None:
        if decision.car != len(self.picks) or not 0 <= decision.n <= 1:
            raise IllegalDecision(f"car {decision.car}: cannot pick {decision.n} now")
        race.log.append(decision)
        self.picks[decision.car] = decision.n
        if len(self.picks) == len(race.cars):
            race.start()

    def setup_car(self, race: Race, car: Car) -> None:
        for _ in range(self.picks.get(car.id, 0)):
            car.draw.remove("H")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    for cls in (Banked, Ghost, Toll):
        register_module(cls)
    register_decision(PICK)
    yield
    for cls in (Banked, Ghost, Toll):
        MODULES.pop(cls.key, None)
    MODULE_DECISIONS.pop("pick", None)


def _setup(**modules: dict[str, Any]) -> RaceSetup:
    return RaceSetup(track="usa", cars=3, seed=5, laps=1, modules=dict(modules))


def test_no_modules_no_hooks() -> None:
    race = Race(_setup())
    assert race.hooks.modules == ()
    assert all(getattr(race.hooks, name) is None for name in
               ("prepare", "setup_car", "corner_limit", "drive", "cooldown", "end_turn"))


def test_unknown_module_is_one_line() -> None:
    with pytest.raises(ValueError, match="unknown module 'nitro'"):
        Race(RaceSetup(modules={"nitro": {}}))


def test_corner_limit_applies_to_every_car_and_query() -> None:
    base, banked = Race(_setup()), Race(_setup(test_banked={}))
    for i, corner in enumerate(base.track.corners):
        assert base.corner_limit(i) == corner.limit
        assert banked.corner_limit(i) == corner.limit + 1
    lines = banked.corners_between(0, banked.finish_d)
    assert [lim for _, _, lim in lines] == [c.limit + 1 for c in banked.track.corners]


def test_boost_cooldown_slipstream_hooks() -> None:
    deck = StackedDeck(hand=("1", "1", "2", "2", "3", "H", "H"), draw=("4", "4", "4"), engine=0)
    race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, grid=(0, 1),
                          stacked={0: deck, 1: deck}, modules={"test_banked": {}}))
    assert race.slipstream_spaces(race.cars[0]) == 3
    race.apply(Plan(0, 1, ("1",)))
    race.apply(Plan(1, 1, ("1",)))
    car = race.current
    assert car is not None
    assert car.cooldown == 4  # gear 1: 3, +1 from the module
    options = {str(o).split(" ", 2)[2] for o in race.react_options(car.id)}
    assert "boost" in options  # free: allowed with an empty engine
    race.apply(React(car.id, "boost"))
    assert car.engine == 0 and car.boosted


def test_corner_heat_hook_charges_overheat() -> None:
    race = Race(_setup(test_banked={}))
    lines = race.corners_between(0, race.finish_d)
    d_line, index, limit = lines[0]
    assert index == 0
    car = race.cars[0]
    car.start_d, car.d, car.speed, car.engine = d_line - 1, d_line + 1, limit + 1, 5
    race._check_corners(car)
    assert car.engine == 3  # 1 over the limit, +1 overheat


def test_driven_car_never_plans_and_still_finishes() -> None:
    race = Race(_setup(test_ghost={}))
    assert 2 not in race.pending().cars
    bots = 0
    while not race.over:
        p = race.pending()
        assert 2 not in p.cars
        if p.kind == "plan":
            for c in p.cars:
                rule = p.plan_rules[c]
                gear = rule.gears[0]
                race.apply(Plan(c, gear, rule.playable[:rule.cards_needed(gear)]))
        else:
            race.apply(p.options[-1] if p.options else _no_discard(p))
        bots += 1
        assert bots < 5000
    assert 2 in race.hall_of_fame
    assert race.cars[2].spinouts == 0


def _no_discard(p: Pending) -> Any:
    from pitboard.engine import Discard
    return Discard(p.cars[0], ())


def test_pre_race_decisions_replay_undo_and_snapshot() -> None:
    race = Race(_setup(test_toll={}))
    assert race.pending().kind == "toll" and race.cars[0].draw == []
    with pytest.raises(IllegalDecision):
        race.apply(Pick(1, 1))
    for car in range(3):
        race.apply(Pick(car, car % 2))
    assert race.pending().kind == "plan"
    heat = [c.draw.count("H") + c.hand.count("H") for c in race.cars]
    assert heat == [1, 0, 1]
    again = replay(race.setup, race.log)
    assert race_to_dict(again) == race_to_dict(race)
    before = undo(race)
    assert before.pending().kind == "toll" and before.pending().cars == (2,)
    restored = race_from_dict(race_to_dict(before))
    restored.apply(Pick(2, 0))
    assert race_to_dict(restored) == race_to_dict(race)


def test_module_decisions_have_json_and_text_forms() -> None:
    pick = Pick(2, 1)
    assert decision_to_dict(pick) == {"kind": "pick", "car": 2, "n": 1}
    assert decision_from_dict(decision_to_dict(pick)) == pick
    assert parse_decision(str(pick)) == pick
    with pytest.raises(ValueError, match="expected 'pick CAR N'"):
        parse_decision("pick 1 lots")
    with pytest.raises(ValueError, match=r"unknown decision 'nope'.*pick"):
        parse_decision("nope 1")


def test_chained_hooks_chain_in_registry_order() -> None:
    class Plus(RaceModule):
        key = "plus"

        def cooldown(self, race: Race, car: Car, n: int) -> int:
            return n + 2

    class Double(RaceModule):
        key = "double"

        def cooldown(self, race: Race, car: Car, n: int) -> int:
            return n * 2

    hooks = Hooks((Plus({}), Double({})))
    assert hooks.cooldown is not None
    assert hooks.cooldown(None, None, 1) == 6


def test_setup_modules_from_json_are_one_line_errors() -> None:
    with pytest.raises(ValueError, match=r"^modules must be a table of module -> options"):
        RaceSetup.from_dict({"track": "usa", "cars": 2, "seed": 1, "modules": ["weather"]})
    setup = RaceSetup.from_dict({"track": "usa", "cars": 2, "seed": 1,
                                 "modules": {"test_banked": 5}})
    with pytest.raises(ValueError, match=r"^module test_banked: options must be a table"):
        setup.validate()


def test_first_answer_hooks_take_the_first_module_that_answers() -> None:
    class Quiet(RaceModule):
        key = "quiet"

        def waiting(self, race: Race) -> int | None:
            return None

    class Speaks(RaceModule):
        key = "speaks"

        def waiting(self, race: Race) -> int | None:
            return 3

    assert Hooks((Quiet({}), Speaks({}))).waiting(None) == 3  # type: ignore[misc]
    assert Hooks((Quiet({}),)).waiting(None) is None  # type: ignore[misc]
    assert Hooks(()).waiting is None


def test_the_public_face_of_a_race_is_public_and_a_race_has_it() -> None:
    names = {n for n in vars(ModuleRace) if not n.startswith("_")} | \
        set(ModuleRace.__annotations__)
    assert {"move", "flip", "draws", "record", "where", "shifts", "shuffle", "cars",
            "hooks"} <= names
    race = Race(_setup())
    assert all(not n.startswith("_") and hasattr(race, n) for n in names), sorted(names)
