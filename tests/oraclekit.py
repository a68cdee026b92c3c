"""The forecast's oracle: what the engine itself does with a plan, for every order of the cards.

:func:`engine_outcomes` applies a plan to a copy of a real race (the car leads the round and is
the last to plan, so its turn starts on that plan, in the engine's own order), lets the one-GO
answers play the rest of the turn (:func:`pitboard.engine.preset.play_turn`) and reads what
happened from the race's events, once for every way the car's cards can come: a depth-first
search over the top of its draw pile and of each reshuffled discard pile (the engine's one
source of chance, ``Race.shuffle``, is taken over for that car), each card read branching on
what it could be, with the chance the real pile gives it. It takes no shortcut of the
forecast's (no multiset of flips, no merged states, no rule about which cards matter): every
card the engine reads is decided when read. Cards are told apart by class (each basic value;
any other card) or, with ``codes``, by their codes, which proves the classes are enough.

:func:`scenario_text` writes a race state and a plan as a scenario file (docs/scenarios.md) that
reproduces it, for a disagreement to be replayed.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import fields
from fractions import Fraction
from operator import attrgetter
from typing import Any, SupportsIndex

from pitboard.bots import HeuristicBot
from pitboard.engine import Plan, Race, RaceSetup
from pitboard.engine.car import Car
from pitboard.engine.cards import BASIC, HEAT
from pitboard.engine.events import CarEvent, CornerChecked, HeatPaid, Revealed, SpunOut
from pitboard.engine.forecast import Forecast, forecast
from pitboard.engine.modules import Hooks, build_modules
from pitboard.engine.preset import play_turn

#: what the oracle compares of a turn: speed, where the car ends (d, spot), the corners it paid
#: (number, limit, Heat), the spin-out (corner, Heat paid there) or None, all Heat paid, Heat
#: left in the engine
Key = tuple[int, int, int, tuple[tuple[int, int, int], ...], tuple[int, int] | None, int, int]
_CAR_FIELDS = tuple(f.name for f in fields(Car))
_GET_CAR = attrgetter(*_CAR_FIELDS)
_PILE_AT = frozenset(i for i, name in enumerate(_CAR_FIELDS)
                     if name in ("hand", "draw", "discard", "play"))
_SLOTS = tuple(dict.fromkeys(s for cls in Race.__mro__ for s in getattr(cls, "__slots__", ())))


class _More(Exception):
    """The engine read past the cards decided so far: what the next card could be."""

    def __init__(self, counts: Counter[str]) -> None:
        super().__init__()
        self.counts = counts


class _Pile(list[str]):
    """A pile whose top cards are set by the search (``script``, top first); reading past
    them raises :class:`_More` unless every card left is alike."""

    def __init__(self, cards: Iterable[str], script: list[str], codes: bool) -> None:
        rest, top = list(cards), []
        for cls in script:
            card = next(c for c in rest if _class(c, codes) == cls)
            rest.remove(card)
            top.append(card)
        super().__init__(rest + top[::-1])
        self.known = len(top)
        self.codes = codes

    def _need(self, n: int) -> None:
        if n > self.known:
            unknown = list.__getitem__(self, slice(0, len(self) - self.known))
            counts = Counter(_class(c, self.codes) for c in unknown)
            if len(counts) > 1:
                raise _More(counts)
            self.known = len(self)

    def pop(self, index: SupportsIndex = -1) -> str:
        assert index == -1
        self._need(1)
        self.known -= 1
        return super().pop()

    def __getitem__(self, key: Any) -> Any:
        n = len(self)
        if isinstance(key, slice):
            touched = range(*key.indices(n))
            if touched:
                self._need(n - min(touched))
        else:
            self._need(n - key % n)
        return super().__getitem__(key)

    def __delitem__(self, key: Any) -> None:
        n = len(self)
        super().__delitem__(key)
        self.known = max(0, self.known - (n - len(self)))

    def append(self, card: str) -> None:
        super().append(card)
        self.known += 1


def _class(card: str, codes: bool) -> str:
    return card if codes or card in BASIC else "x"


class _OracleRace(Race):
    """A race whose car ``subject`` gets its reshuffles from the search (each a new pile)."""

    subject: int
    scripts: list[list[str]]
    stage: int
    codes: bool

    def shuffle(self, cards: list[Any]) -> None:
        car = self.cars[self.subject]
        if cards is car.draw:
            self.shuffles += 1
            self.stage += 1
            script = self.scripts[self.stage] if self.stage < len(self.scripts) else []
            car.draw = _Pile(list(cards), script, self.codes)
            return
        super().shuffle(cards)


class _Template:
    """What a copy of ``race`` to play on is made from, taken once (cars, held spots, the
    modules' state)."""

    def __init__(self, race: Race, subject: int) -> None:
        self.race = race
        self.subject = subject
        self.slots = {name: getattr(race, name) for name in _SLOTS if hasattr(race, name)}
        self.cars = [_GET_CAR(c) for c in race.cars]
        self.modules = [m.to_dict() for m in race.hooks.modules]

    def game(self) -> _OracleRace:
        race, new = self.race, _OracleRace.__new__(_OracleRace)
        for name, value in self.slots.items():
            setattr(new, name, value)
        new.cars = [Car(*[v.copy() if i in _PILE_AT else v for i, v in enumerate(state)])
                    for state in self.cars]
        new._taken = race._taken.copy()
        new.order, new._to_plan = list(race.order), list(race._to_plan)
        new.log, new.events, new._pending, new._rules = [], [], None, {}
        new.hall_of_fame, new.grid = list(race.hall_of_fame), list(race.grid)
        if self.modules:
            new.hooks = Hooks(build_modules(race.setup), race.hooks.features)
            for module, data in zip(new.hooks.modules, self.modules, strict=True):
                module.load(data)
            new._derive()
        new.record_events = True
        new.subject = self.subject
        return new


def engine_outcomes(race: Race, plan: Plan, *, codes: bool = False, budget: int | None = None
                    ) -> tuple[dict[Key, Fraction], int] | None:
    """What the engine does with ``plan`` (its car leads the round and plans last), for every
    order of the car's cards: each outcome (:data:`Key`) with its chance, and how many plays it
    took; None past ``budget`` plays."""
    subject = plan.car
    assert race.order[0] == subject and race.pending().cars == (subject,)
    out: dict[Key, Fraction] = {}
    stack: list[tuple[list[list[str]], Fraction]] = [([[]], Fraction(1))]
    plays = 0
    template = _Template(race, subject)
    while stack:
        scripts, p = stack.pop()
        plays += 1
        if budget is not None and plays > budget:
            return None
        game = template.game()
        game.scripts, game.stage, game.codes = scripts, 0, codes
        car = game.cars[subject]
        car.draw = _Pile(car.draw, scripts[0], codes)
        try:
            game.apply(plan)
            play_turn(game, subject)
        except _More as more:
            total = sum(more.counts.values())
            stage = game.stage
            for cls, n in sorted(more.counts.items()):
                longer = [list(s) for s in scripts] + [[] for _ in range(stage + 1 - len(scripts))]
                longer[stage].append(cls)
                stack.append((longer, p * Fraction(n, total)))
            continue
        key = _read(game, subject)
        out[key] = out.get(key, Fraction(0)) + p
    return out, plays


def _read(race: Race, subject: int) -> Key:
    """The turn of ``subject`` just played, from the race's events."""
    car = race.cars[subject]
    events = [e for e in race.events if isinstance(e, CarEvent) and e.car == subject]
    corners = tuple((e.corner, e.limit, e.heat) for e in events if isinstance(e, CornerChecked))
    spins = [(e.corner, e.heat) for e in events if isinstance(e, SpunOut)]
    heat = sum(e.n for e in events if isinstance(e, HeatPaid)) + sum(h for _, h in spins)
    revealed = any(isinstance(e, Revealed) for e in events)  # (clogged: no move, speed 0)
    return (car.speed if revealed else 0, car.d, car.spot, corners, spins[0] if spins else None,
            heat, car.engine)


def forecast_outcomes(fc: Forecast) -> dict[Key, Fraction]:
    """The forecast's outcomes as the oracle's keys."""
    out: dict[Key, Fraction] = {}
    for o in fc.outcomes:
        spin = next(((c.corner, c.heat) for c in o.corners if c.corner == o.spin_corner), None)
        corners = tuple((c.corner, c.limit, c.heat) for c in o.corners
                        if c.corner != o.spin_corner)
        key = (o.speed, o.d, o.spot, corners, spin, o.heat, o.engine)
        out[key] = out.get(key, Fraction(0)) + o.probability
    return out


# -- states ---------------------------------------------------------------------------------------
#: the tracks states are drawn on
TRACKS = ("usa", "italy", "france", "great_britain", "japan", "mexico", "netherlands", "spain")


def mid_race(modules: dict[str, Any], seed: int, *, cars: int = 4) -> tuple[Race, int] | None:
    """A race that heuristic bots played for a while (from ``seed``), stopped while it plans,
    the other cars' plans made: the round's leader is the one car left to plan (its turn
    starts on its plan). None when that car is not a player's (a Legend leads) or a car has
    finished."""
    rng = random.Random(seed)
    race = Race(RaceSetup(track=rng.choice(TRACKS), cars=cars, seed=seed, laps=rng.choice((1, 2)),
                          modules=modules))
    bot = HeuristicBot(seed=seed)
    for _ in range(rng.randrange(8, 160)):
        if race.over:
            return None
        race.apply(bot.choose(race, race.waiting_for()))
    while not race.over and race.phase != "plan":
        race.apply(bot.choose(race, race.waiting_for()))
    if race.over or any(c.finished for c in race.cars):  # (a scenario places no finished car)
        return None
    planning = race.pending().cars
    lead = race.order[0]
    if lead not in planning:
        return None
    for car in planning:
        if car != lead:
            race.apply(bot.choose(race, car))
    return race, lead


def legal_plans(race: Race, car_id: int) -> list[Plan]:
    """Every legal plan of ``car_id`` now (each gear, each set of cards from the hand)."""
    rule = race.plan_rule(car_id)
    hand = sorted(race.cars[car_id].hand)
    plans = set()
    for gear in rule.gears:
        choices = [rule.playable] if gear in rule.clogged else \
            itertools.combinations([c for c in hand if c != HEAT], gear)
        for cards in choices:
            plan = Plan(car_id, gear, tuple(cards))
            if race.plan_problem(plan) is None:
                plans.add(plan)
    return sorted(plans)


def disagreement(race: Race, plan: Plan, *, codes: bool = False) -> str | None:
    """None when the forecast of ``plan`` is what the engine does; else a scenario file that
    reproduces the state, with both answers in its comments."""
    fc = forecast(race, plan.car, plan.gear, plan.cards)
    found = engine_outcomes(race, plan, codes=codes)
    assert found is not None
    engine = found[0]
    mine = forecast_outcomes(fc)
    if engine == mine:
        return None
    notes = ["the forecast and the engine disagree on this plan", "forecast:"]
    notes += [f"  {key} {p}" for key, p in sorted(mine.items())]
    notes += ["engine (every order of the cards):"]
    notes += [f"  {key} {p}" for key, p in sorted(engine.items())]
    return scenario_text(race, plan, notes)


# -- scenario files --------------------------------------------------------------------------------
def scenario_text(race: Race, plan: Plan, notes: Iterable[str] = ()) -> str:
    """``race`` (planning; every car but ``plan.car`` has planned) as a scenario file that
    reproduces it, ``plan`` its last decision: each car where it stands with its cards (a car
    that planned: its hand before, its gear after, and its plan), the modules' options and
    state (upgrades, Legend cars and deck, weather and road tokens).

    Example::

        >>> race = Race(RaceSetup(track="usa", cars=1, seed=3, laps=1))
        >>> print(scenario_text(race, Plan(0, 1, ("4",))).splitlines()[1])
        track usa
    """
    spaces = race.track.spaces
    lines = [f"# {n}" for n in notes] or ["# a state written by tests/oraclekit.py"]
    lines += [f"track {race.track.key}", f"laps {race.laps}", f"cars {len(race.cars)}",
              f"seed {race.setup.seed}"]
    modules = {m.key: m.to_dict() for m in race.hooks.modules}
    options = race.setup.modules
    decisions = []
    for car in race.cars:
        n = car.id
        lap = 0 if car.d <= 0 else (car.d - 1) // spaces + 1
        lines.append(f"car {n} at lap {lap} space {car.space} spot {car.spot}")
        legend = modules.get("legends", {}).get("colour_of", {}).get(str(n)) or \
            modules.get("legends", {}).get("colour_of", {}).get(n)
        if legend:
            lines.append(f"car {n} legend {legend}")
            continue
        planned = car.planned and car.id != plan.car
        hand = [*car.hand, *car.play] if planned else list(car.hand)
        lines += [f"car {n} gear {car.gear}", f"car {n} engine {car.engine}",
                  f"car {n} hand {' '.join(hand) or '-'}",
                  f"car {n} draw {' '.join(reversed(car.draw)) or '-'}",
                  f"car {n} discard {' '.join(car.discard) or '-'}"]
        picks = modules.get("garage", {}).get("picks", {}).get(str(n))
        if picks:
            lines.append(f"car {n} upgrades {' '.join(picks)}")
        if planned:  # (a clogged plan's Heat cards are the engine's to add)
            played = [c for c in car.play if c != HEAT] if car.clogged else car.play
            decisions.append(str(Plan(n, car.gear, tuple(played))))
    if "garage" in options and not any(ln.split()[2:3] == ["upgrades"] for ln in lines
                                       if ln.startswith("car ")):
        lines.append("garage choose random")
    legends = modules.get("legends")
    if legends is not None:
        if legends.get("deck"):
            lines.append(f"legends deck {' '.join(map(str, legends['deck']))}")
        if options["legends"].get("pro"):
            lines.append(f"legends pro {options['legends']['pro']}")
        if options["legends"].get("aggressive"):
            lines.append("legends aggressive on")
    weather = modules.get("weather")
    if weather is not None:
        if weather.get("weather"):
            lines.append(f"weather {weather['weather']}")
        for corner, token in sorted(weather.get("road", {}).items(), key=lambda kv: int(kv[0])):
            lines.append(f"road {corner} {token}")
    return "\n".join([*lines, *decisions, str(plan)]) + "\n"
