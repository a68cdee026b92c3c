"""Scenario files: a race set up by hand plus a list of decisions (see docs/scenarios.md).

One directive per line, ``#`` starts a comment::

    track usa
    laps 1
    cars 2
    seed 7
    grid 1 0
    car 0 name Alice
    car 0 hand 1 2 3 4 5 S H
    car 0 draw 3 4 H S 5 1          # top first
    car 0 discard -
    car 0 engine 6
    car 0 gear 2
    car 0 at lap 1 space 10 spot 2
    plan 0 gear 3 cards 3 4 5
    react 0 done
    finish heuristic                # let bots play every remaining decision

Every problem is reported as ``FILE:LINE: what is wrong``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bots import make_bot
from .engine.cards import check_codes
from .engine.decisions import Decision, IllegalDecision, parse_decision
from .engine.race import Race
from .engine.setup import MAX_CARS, RaceSetup, StackedDeck
from .scenario_weather import DIRECTIVES as MODULE_DIRECTIVES
from .scenario_weather import legend_car, module_line
from .track import Track
from .trackfile import TrackFileError, load_track

DECISION_WORDS = ("plan", "react", "slipstream", "discard")
Fail = Callable[[str], "ScenarioError"]


class ScenarioError(ValueError):
    """A scenario problem; ``str()`` is one line ``FILE:LINE: reason``."""


@dataclass
class Scenario:
    """A parsed scenario: the setup, then decisions with their line numbers."""

    path: str
    setup: RaceSetup
    track: Track
    decisions: list[tuple[int, Decision]] = field(default_factory=list)
    finish_with: str | None = None
    finish_line: int = 0

    def run(self, *, record_events: bool = True) -> Race:
        """Play the scenario; an illegal decision raises ScenarioError naming its line."""
        try:
            race = Race(self.setup, track=self.track, record_events=record_events)
        except ValueError as exc:
            raise ScenarioError(f"{self.path}: {exc}") from None
        for line, decision in self.decisions:
            try:
                race.apply(decision)
            except IllegalDecision as exc:
                raise ScenarioError(f"{self.path}:{line}: illegal decision: {exc}") from None
        if self.finish_with is not None:
            bot = make_bot(self.finish_with, seed=self.setup.seed)
            guard = 0
            while not race.over:
                race.apply(bot.choose(race, race.pending().cars[0]))
                guard += 1
                if guard > 100_000:
                    raise ScenarioError(f"{self.path}:{self.finish_line}: race did not end")
        return race


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{p}: cannot read: {exc}") from None
    return parse_scenario(text, str(p))


def parse_scenario(text: str, name: str = "<scenario>") -> Scenario:
    opts: dict[str, str] = {}
    cars: dict[int, dict[str, Any]] = {}
    names: dict[int, str] = {}
    decisions: list[tuple[int, Decision]] = []
    finish_with: str | None = None
    finish_line = 0
    track: Track | None = None
    #: where each setting and each car were first given, to name the line of a problem
    opt_lines: dict[str, int] = {}
    car_lines: dict[int, int] = {}
    modules: dict[str, dict[str, Any]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        key = words[0].lower()

        def fail(msg: str, number: int = number) -> ScenarioError:
            return ScenarioError(f"{name}:{number}: {msg}")

        if decisions or key in DECISION_WORDS:
            if finish_with is not None:
                raise fail("nothing may follow 'finish'")
            if key not in DECISION_WORDS and key != "finish":
                raise fail(f"'{key}' must come before the first decision")
            if key == "finish":
                finish_with, finish_line = _finish(words, fail), number
                continue
            try:
                decisions.append((number, parse_decision(line)))
            except ValueError as exc:
                raise fail(str(exc)) from None
            continue
        if key == "finish":
            finish_with, finish_line = _finish(words, fail), number
        elif key in ("track", "laps", "cars", "seed", "grid", "hand_size"):
            if key in opts:
                raise fail(f"'{key}' given twice")
            if len(words) < 2:
                raise fail(f"'{key}' needs a value")
            opts[key] = " ".join(words[1:])
            opt_lines[key] = number
            if key == "track":
                try:
                    track = load_track(words[1])
                except TrackFileError as exc:
                    raise fail(str(exc)) from None
            else:
                _check_option(key, opts[key], fail)
        elif key == "car":
            if len(words) > 1 and words[1].isdigit():
                car_lines.setdefault(int(words[1]), number)
            if len(words) > 2 and words[1].isdigit() and words[2].lower() == "legend":
                legend_car(int(words[1]), words[3:], modules, fail)
                continue
            _car_line(words, cars, names, track, fail)
        elif key in MODULE_DIRECTIVES:
            module_line(words, modules, track, fail)
        else:
            raise fail(f"unknown directive '{key}' (track, laps, cars, seed, grid, hand_size, "
                       f"car, legends, weather, road, plan, react, slipstream, discard, finish)")
    if track is None:
        raise ScenarioError(f"{name}: no 'track' line")
    n = _int(opts.get("cars", "2"), "cars")
    for car, number in sorted(car_lines.items()):
        if car >= n:
            raise ScenarioError(f"{name}:{number}: car {car}, but cars are 0..{n - 1}")
    grid = None
    if "grid" in opts:
        grid = tuple(_int(w, "grid") for w in opts["grid"].split())
        if sorted(grid) != list(range(n)):
            raise ScenarioError(f"{name}:{opt_lines['grid']}: grid must list each car "
                                f"0..{n - 1} once, not {' '.join(map(str, grid))}")
    try:
        setup = RaceSetup(
            track=track.key, cars=n, seed=_int(opts.get("seed", "0"), "seed"),
            laps=_int(opts["laps"], "laps") if "laps" in opts else None, grid=grid,
            names=tuple(names.get(i, f"Car {i + 1}") for i in range(n)) if names else (),
            stacked={i: StackedDeck.from_dict(c) for i, c in cars.items()},
            hand_size=_int(opts.get("hand_size", "7"), "hand_size"),
            modules=modules,
        )
        setup.validate()
    except ValueError as exc:
        raise ScenarioError(f"{name}: {exc}") from None
    return Scenario(name, setup, track, decisions, finish_with, finish_line)


def _finish(words: list[str], fail: Fail) -> str:
    bot = words[1] if len(words) > 1 else "heuristic"
    if bot not in ("heuristic", "random") or len(words) > 2:
        raise fail("expected 'finish heuristic' or 'finish random'")
    return bot


def _check_option(key: str, value: str, fail: Fail) -> None:
    """Check a number setting on its own line (ranges as RaceSetup.validate has them)."""
    try:
        numbers = [_int(w, key) for w in value.split()] if key == "grid" else [_int(value, key)]
    except ValueError as exc:
        raise fail(str(exc)) from None
    n = numbers[0]
    if key == "cars" and not 1 <= n <= MAX_CARS:
        raise fail(f"cars must be 1..{MAX_CARS}, not {n}")
    if key == "laps" and not 1 <= n <= 9:
        raise fail(f"laps must be 1..9, not {n}")
    if key == "hand_size" and n < 1:
        raise fail(f"hand_size must be 1 or more, not {n}")


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what} must be a whole number, not {text!r}") from None


def _car_line(words: list[str], cars: dict[int, dict[str, Any]], names: dict[int, str],
              track: Track | None, fail: Fail) -> None:
    if len(words) < 3 or not words[1].isdigit():
        raise fail("expected 'car N <name|hand|draw|discard|engine|gear|at> ...'")
    car, what, rest = int(words[1]), words[2].lower(), words[3:]
    entry = cars.setdefault(car, {})
    if what == "name":
        names[car] = " ".join(rest) or f"Car {car + 1}"
    elif what in ("hand", "draw", "discard"):
        cards = tuple(c.upper() for c in rest if c != "-")
        try:
            check_codes(cards, f"car {car} {what}")
        except ValueError as exc:
            raise fail(str(exc)) from None
        entry[what] = list(cards)
    elif what in ("engine", "gear"):
        if len(rest) != 1 or not rest[0].isdigit():
            raise fail(f"expected 'car {car} {what} N'")
        if what == "gear" and not 1 <= int(rest[0]) <= 4:
            raise fail(f"gear must be 1..4, not {rest[0]}")
        entry[what] = int(rest[0])
    elif what == "at":
        spec = dict(zip(rest[::2], rest[1::2], strict=False))
        if set(spec) != {"lap", "space", "spot"} or not all(v.isdigit() for v in spec.values()):
            raise fail(f"expected 'car {car} at lap L space S spot 1|2'")
        if track is None:
            raise fail("'track' must come before 'car N at'")
        lap, space, spot = int(spec["lap"]), int(spec["space"]), int(spec["spot"])
        if not 1 <= space <= track.spaces:
            raise fail(f"space must be 1..{track.spaces}")
        if spot not in (1, 2):
            raise fail(f"spot must be 1 or 2, not {spot}")
        for other, placed in cars.items():
            if other != car and "d" in placed and placed["spot"] == spot and \
                    (placed["d"] - 1) % track.spaces + 1 == space:
                raise fail(f"car {other} already starts on space {space} spot {spot}")
        # lap 0 is the grid stretch before the start line
        entry["d"] = (lap - 1) * track.spaces + space if lap >= 1 else space - track.spaces
        entry["spot"] = spot
    else:
        raise fail(f"unknown car setting '{what}' "
                   f"(name, hand, draw, discard, engine, gear, at, legend)")
