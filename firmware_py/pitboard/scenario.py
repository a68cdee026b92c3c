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
    garage choose draft             # the Garage module (docs/scenarios.md)
    car 1 upgrades U7 U21 U44
    plan 0 gear 3 cards 3 4 5
    react 0 done
    expect cars.0.engine 6          # an assertion, checked here
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
from .engine.decisions import MODULE_DECISIONS, Decision, IllegalDecision, parse_decision
from .engine.race import Race
from .engine.setup import MAX_CARS, RaceSetup, StackedDeck
from .scenario_expect import Expect, parse_expect
from .scenario_weather import DIRECTIVES as MODULE_DIRECTIVES
from .scenario_weather import legend_car, module_line
from .track import Track
from .trackfile import TrackFileError, load_track
from .userfile import UserFileError, escape, read_user_file

DECISION_WORDS = ("plan", "react", "slipstream", "discard")
Fail = Callable[[str], "ScenarioError"]


#: documented ranges (docs/scenarios.md); each is checked with a message naming the line
MAX_LAPS = 9
MAX_ENGINE = 99  # Heat cards in an engine: the track files' own cap
MAX_HAND_SIZE = 20
MAX_SEED = (1 << 63) - 1


class ScenarioError(ValueError):
    """A scenario problem; ``str()`` is one line ``FILE:LINE: reason``, with control characters
    (from the file or its name) escaped so nothing raw reaches a terminal.

    Example::

        >>> try:
        ...     parse_scenario("frobnicate 3", "mine.txt")
        ... except ScenarioError as exc:
        ...     print(str(exc).split(" (")[0])
        mine.txt:1: unknown directive 'frobnicate'
    """

    def __init__(self, message: str) -> None:
        super().__init__(escape(message))


@dataclass
class Scenario:
    """A parsed scenario: the setup, then decisions with their line numbers.

    Made by :func:`load_scenario` (a file) or :func:`parse_scenario` (text); ``pitboard
    scenario FILE`` runs it.

    Example::

        >>> scenario = parse_scenario('''track usa
        ... laps 1
        ... cars 1
        ... car 0 at lap 1 space 14 spot 2
        ... car 0 hand 1 1 1 1 2 2 2
        ... plan 0 gear 2 cards 2 2
        ... expect cars.0.space 18
        ... ''', "mine.txt")
        >>> scenario.decisions
        [(6, Plan(car=0, gear=2, cards=('2', '2')))]
        >>> scenario.run().cars[0].space
        18
    """

    path: str
    setup: RaceSetup
    track: Track
    decisions: list[tuple[int, Decision]] = field(default_factory=list)
    finish_with: str | None = None
    finish_line: int = 0
    #: (line, decisions applied before it, expectation)
    expects: list[tuple[int, int, Expect]] = field(default_factory=list)

    def run(self, *, record_events: bool = True) -> Race:
        """Play the scenario; an illegal decision or an unmet ``expect`` raises ScenarioError
        naming its line."""
        try:
            race = Race(self.setup, track=self.track, record_events=record_events)
        except ValueError as exc:
            raise ScenarioError(f"{self.path}: {exc}") from None
        expects = list(self.expects)
        for done, (line, decision) in enumerate(self.decisions):
            self._check(race, expects, done)
            try:
                race.apply(decision)
            except IllegalDecision as exc:
                raise ScenarioError(f"{self.path}:{line}: illegal decision: {exc}") from None
        self._check(race, expects, len(self.decisions))
        if self.finish_with is not None:
            if "garage" in self.setup.modules:
                from .garage_bots import make_garage_bot as make
            else:
                make = make_bot
            bot = make(self.finish_with, seed=self.setup.seed)
            guard = 0
            while not race.over:
                race.apply(bot.choose(race, race.pending().cars[0]))
                guard += 1
                if guard > 100_000:
                    raise ScenarioError(f"{self.path}:{self.finish_line}: race did not end")
        return race

    def _check(self, race: Race, expects: list[tuple[int, int, Expect]], done: int) -> None:
        while expects and expects[0][1] <= done:
            line, _, expect = expects.pop(0)
            found = expect.check(race)
            if found is not None:
                head = ".".join(expect.path) if expect.path else expect.kind
                what = " ".join((head, *expect.words))
                raise ScenarioError(f"{self.path}:{line}: expected {what}, found {found}")


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file."""
    p = Path(path)
    try:
        data = read_user_file(p)
    except UserFileError as exc:
        raise ScenarioError(str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ScenarioError(f"{p}:{line}: not UTF-8 text") from None
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
    expects: list[tuple[int, int, Expect]] = []
    modules: dict[str, dict[str, Any]] = {}
    lap_lines: dict[int, int] = {}  # car -> line of its 'at' (laps may be given later)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        key = words[0].lower()

        def fail(msg: str, number: int = number) -> ScenarioError:
            return ScenarioError(f"{name}:{number}: {msg}")

        if key == "expect":
            if finish_with is not None:
                raise fail("nothing may follow 'finish'")
            try:
                expects.append((number, len(decisions), parse_expect(words[1:])))
            except ValueError as exc:
                raise fail(str(exc)) from None
            continue
        deciding = key in DECISION_WORDS or key in MODULE_DECISIONS
        if decisions or deciding:
            if finish_with is not None:
                raise fail("nothing may follow 'finish'")
            if not deciding and key != "finish":
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
        elif key == "car" and len(words) > 2 and words[2].lower() == "upgrades":
            if words[1].isdigit():
                car_lines.setdefault(int(words[1]), number)
            _garage_line(["upgrades", *words[1:2], *words[3:]],
                         modules.setdefault("garage", {}), fail)
        elif key == "car":
            if len(words) > 1 and _natural(words[1]) is not None:
                car_lines.setdefault(int(words[1]), number)
                if len(words) > 2 and words[2].lower() == "at":
                    lap_lines[int(words[1])] = number
                if len(words) > 2 and words[2].lower() == "legend":
                    legend_car(int(words[1]), words[3:], modules, fail)
                    continue
            _car_line(words, cars, names, track, fail)
        elif key == "garage":
            _garage_line(words[1:], modules.setdefault("garage", {}), fail)
        elif key in MODULE_DIRECTIVES:
            module_line(words, modules, track, fail)
        else:
            raise fail(f"unknown directive '{key}' (track, laps, cars, seed, grid, hand_size, "
                       f"car, garage, legends, weather, road, event, sponsors, plan, react, "
                       f"slipstream, discard, draft, drop, swap, expect, finish)")
    if track is None:
        raise ScenarioError(f"{name}: no 'track' line")
    n = _int(opts.get("cars", "2"), "cars")
    for car, number in sorted(car_lines.items()):
        if car >= n:
            raise ScenarioError(f"{name}:{number}: car {car}, but cars are 0..{n - 1}")
    laps = _int(opts["laps"], "laps") if "laps" in opts else track.laps
    for car, number in sorted(lap_lines.items()):
        lap = (cars[car]["d"] - 1) // track.spaces + 1 if cars[car]["d"] > 0 else 0
        if lap > laps:
            raise ScenarioError(f"{name}:{number}: lap must be 0..{laps} (the race has {laps} "
                                f"lap{'s' if laps != 1 else ''}), not {lap}")
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
    return Scenario(name, setup, track, decisions, finish_with, finish_line, expects)


def _garage_line(words: list[str], garage: dict[str, Any], fail: Fail) -> None:
    """``garage choose|pool|expansions|market ...`` and ``car N upgrades ...`` (as
    ``upgrades N ...``): the Garage module's options."""
    from .engine.garage.data import parse_key

    what, rest = (words[0].lower(), words[1:]) if words else ("", [])
    if what in ("choose", "pool") and len(rest) == 1:
        garage[what] = rest[0].lower()
    elif what == "expansions" and len(rest) == 1 and rest[0].lower() in ("on", "off"):
        garage["expansions"] = rest[0].lower() == "on"
    elif what == "market" and rest:
        try:
            garage["market"] = [parse_key(k, "garage market").key for k in rest]
        except ValueError as exc:
            raise fail(str(exc)) from None
    elif what == "kept" and len(rest) > 1 and rest[0].isdigit():  # a season's race 2+
        try:
            keys = [parse_key(k, f"garage kept {rest[0]}").key for k in rest[1:]]
        except ValueError as exc:
            raise fail(str(exc)) from None
        garage.setdefault("kept", {})[rest[0]] = keys
    elif what == "rounds" and len(rest) == 1 and rest[0] in ("1", "2", "3"):
        garage["rounds"] = int(rest[0])
    elif what == "order" and rest and all(w.isdigit() for w in rest):
        garage["order"] = [int(w) for w in rest]
    elif what == "swap" and len(rest) == 1 and rest[0].lower() in ("on", "off"):
        garage["swap"] = rest[0].lower() == "on"
    elif what == "upgrades" and rest and rest[0].isdigit():
        try:
            keys = [parse_key(k, f"car {rest[0]} upgrades").key for k in rest[1:]]
        except ValueError as exc:
            raise fail(str(exc)) from None
        garage.setdefault("upgrades", {})[rest[0]] = keys
        garage.setdefault("choose", "draft")
    else:
        raise fail("expected 'garage choose random|draft|snake|none', 'garage pool "
                   "basic|advanced|all', 'garage expansions on|off', 'garage market CARDS...', "
                   "'garage kept CAR CARDS...', 'garage rounds N', 'garage order CARS...', "
                   "'garage swap on|off' or 'car N upgrades CARDS...'")


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
    if key == "laps" and not 1 <= n <= MAX_LAPS:
        raise fail(f"laps must be 1..{MAX_LAPS}, not {n}")
    if key == "hand_size" and not 1 <= n <= MAX_HAND_SIZE:
        raise fail(f"hand_size must be 1..{MAX_HAND_SIZE}, not {n}")
    if key == "seed" and not 0 <= n <= MAX_SEED:
        raise fail(f"seed must be 0..{MAX_SEED}, not {n}")


def _int(text: str, what: str) -> int:
    # ASCII digits only (int() also takes "²"-free Unicode digits and "1_000"), at most 30 of
    # them: a longer number is a typo and would only make the engine allocate or loop for ever.
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit() and len(body) <= 30):
        raise ValueError(f"{what} must be a whole number, not {text!r}")
    return int(text)


def _natural(text: str) -> int | None:
    """``text`` as a number 0 or more written in ASCII digits, else None."""
    if text.isascii() and text.isdigit() and len(text) <= 30:
        return int(text)
    return None


def _car_line(words: list[str], cars: dict[int, dict[str, Any]], names: dict[int, str],
              track: Track | None, fail: Fail) -> None:
    if len(words) < 3 or _natural(words[1]) is None:
        raise fail("expected 'car N <name|hand|draw|discard|engine|gear|at> ...'")
    car, what, rest = int(words[1]), words[2].lower(), words[3:]
    entry = cars.setdefault(car, {})
    if what == "name":
        # stored escaped: the name is printed to terminals and logs, never raw control bytes
        names[car] = escape(" ".join(rest)) or f"Car {car + 1}"
    elif what in ("hand", "draw", "discard"):
        cards = tuple(c.upper() for c in rest if c != "-")
        try:
            check_codes(cards, f"car {car} {what}")
        except ValueError as exc:
            raise fail(str(exc)) from None
        entry[what] = list(cards)
    elif what in ("engine", "gear"):
        value = _natural(rest[0]) if len(rest) == 1 else None
        if value is None:
            raise fail(f"expected 'car {car} {what} N'")
        if what == "gear" and not 1 <= value <= 4:
            raise fail(f"gear must be 1..4, not {value}")
        if what == "engine" and value > MAX_ENGINE:
            raise fail(f"engine must be 0..{MAX_ENGINE} Heat cards, not {value}")
        entry[what] = value
    elif what == "at":
        spec = dict(zip(rest[::2], rest[1::2], strict=False))
        if set(spec) != {"lap", "space", "spot"} or len(rest) != 6 or \
                any(_natural(v) is None for v in spec.values()):
            raise fail(f"expected 'car {car} at lap L space S spot 1|2'")
        if track is None:
            raise fail("'track' must come before 'car N at'")
        lap, space, spot = int(spec["lap"]), int(spec["space"]), int(spec["spot"])
        if lap > MAX_LAPS:
            raise fail(f"lap must be 0..{MAX_LAPS}, not {lap}")
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
