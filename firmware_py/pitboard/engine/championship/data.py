"""The championship's data file (``championship.toml`` beside this file): read and check it.

Owners correct the file by hand, so nothing in it is trusted: every mistake is a
:class:`~pitboard.engine.datafile.DataFileError` whose message is one line naming the file and
the field (``championship.toml: event[3].rules[1]: unknown rule 'lap' (known: ...)``).

Example::

    >>> data = load_championship()
    >>> data.points, [s.year for s in data.seasons]
    ((9, 6, 4, 3, 2, 1), [1961, 1962, 1963, 1964, 1965])
    >>> event = data.event("record_crowds")
    >>> event.name, event.sponsors, event.press, event.rules
    ('Record crowds', 1, 'CE', (('laps', (1,)), ('hand_size', (8,))))
    >>> [(r.track, r.event) for r in data.season(1961).races][:2]
    [('great_britain', 'new_grandstand'), ('usa', 'new_speed_record')]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...catalog import TRACKS, WEATHER_TOKENS
from ..datafile import DataFileError, Fields, read_toml
from .rules import RULES

FILE = "championship.toml"
EXPANSIONS = ("heavy_rain", "tunnel_vision")
PLACES = ("deck", "hand")
EARNED_PLACES = ("hand", "deck", "discard")
#: Press Corner letters: A is the 1st corner from the finish line, B the 2nd...
LETTERS = "ABCDEFGH"
_KEY = re.compile(r"[a-z][a-z0-9_]*")
_TOP = ("scoring", "sponsors", "random", "event", "season")
_EVENT = ("key", "name", "expansion", "sponsors", "press", "rules", "text")
_SEASON_RACE = ("track", "event", "weather")


@dataclass(frozen=True, slots=True)
class Event:
    """One Event card: its sponsors dealt at the start, its Press Corner letters and rules.

    ``rules`` are (rule name, numbers) pairs, each a rule of :mod:`.rules`.

    Example::

        >>> load_championship().event("drivers_strike").rules
        (('laps', (-1,)), ('bonus', (1, 2)))
    """

    key: str
    name: str
    expansion: str
    sponsors: int
    press: str
    rules: tuple[tuple[str, tuple[int, ...]], ...]
    text: str


@dataclass(frozen=True, slots=True)
class SeasonRace:
    """One race of a season: its track, its Event and, optionally, a fixed weather token.

    Example::

        >>> load_championship().season(1964).races[0]
        SeasonRace(track='japan', event='going_global', weather='')
    """

    track: str
    event: str
    weather: str = ""


@dataclass(frozen=True, slots=True)
class SeasonData:
    """One season of the box.

    Example::

        >>> [r.event for r in load_championship().season(1962).races]
        ['restrictions_lifted', 'record_crowds', 'corruption']
    """

    year: int
    races: tuple[SeasonRace, ...]


@dataclass(frozen=True, slots=True)
class Championship:
    """Everything the file says (see the file's own comments for each field).

    Example::

        >>> data = load_championship()
        >>> data.copies, data.dealt_to, data.earned_to, data.margin, data.random_races
        (7, 'deck', 'hand', 2, 4)
    """

    points: tuple[int, ...]
    copies: int
    dealt_to: str
    earned_to: str
    margin: int
    random_races: int
    events: tuple[Event, ...]
    seasons: tuple[SeasonData, ...]

    def event(self, key: str) -> Event:
        """The Event ``key``; ValueError (one line) naming the known ones otherwise."""
        for e in self.events:
            if e.key == key:
                return e
        known = ", ".join(e.key for e in self.events)
        raise ValueError(f"unknown Event {key!r} (known: {known})")

    def season(self, year: int) -> SeasonData:
        """The season of ``year``; ValueError (one line) otherwise."""
        for s in self.seasons:
            if s.year == year:
                return s
        known = ", ".join(str(s.year) for s in self.seasons)
        raise ValueError(f"no season {year} (seasons: {known}, random)")


def parse_championship(doc: Mapping[str, Any], source: str) -> Championship:
    """The championship a parsed document describes; DataFileError on any mistake."""
    check = Fields(source)
    check.keys(doc, "", _TOP, frozenset({"random"}))
    scoring = check.table(doc["scoring"], "scoring")
    check.keys(scoring, "scoring", ("points",))
    points = scoring["points"]
    if not isinstance(points, list) or not points or not all(
            isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 99 for p in points):
        check.fail("scoring.points", f"must be a list of points 0..99 by place, got {points!r}")
    sponsors = check.table(doc["sponsors"], "sponsors")
    check.keys(sponsors, "sponsors", ("copies", "dealt_to", "earned_to", "margin"))
    copies = check.integer(sponsors, "copies", "sponsors.copies", 1, 99)
    dealt_to = check.string(sponsors, "dealt_to", "sponsors.dealt_to")
    if dealt_to not in PLACES:
        check.fail("sponsors.dealt_to", f"must be {' or '.join(PLACES)}, got {dealt_to!r}")
    earned_to = check.string(sponsors, "earned_to", "sponsors.earned_to")
    if earned_to not in EARNED_PLACES:
        check.fail("sponsors.earned_to", f"must be {', '.join(EARNED_PLACES)}, got "
                   f"{earned_to!r}")
    margin = check.integer(sponsors, "margin", "sponsors.margin", 0, 20)
    random = check.table(doc.get("random", {"races": 4}), "random")
    check.keys(random, "random", ("races",))
    events = tuple(_event(check, table, i) for i, table in
                   enumerate(check.tables(doc, "event"), start=1))
    keys = [e.key for e in events]
    for i, key in enumerate(keys, start=1):
        if keys.index(key) != i - 1:
            check.fail(f"event[{i}].key", f"{key!r} is already event[{keys.index(key) + 1}]")
    random_races = check.integer(random, "races", "random.races", 1, min(len(TRACKS),
                                                                          len(events)))
    seasons = tuple(_season(check, table, i, set(keys)) for i, table in
                    enumerate(check.tables(doc, "season"), start=1))
    years = [s.year for s in seasons]
    for i, year in enumerate(years, start=1):
        if years.index(year) != i - 1:
            check.fail(f"season[{i}].year", f"{year} is already season[{years.index(year) + 1}]")
    return Championship(tuple(points), copies, dealt_to, earned_to, margin, random_races,
                        events, seasons)


def _event(check: Fields, table: Mapping[str, Any], i: int) -> Event:
    where = f"event[{i}]"
    check.keys(table, where, _EVENT, frozenset({"expansion"}))
    key = check.string(table, "key", f"{where}.key")
    if not _KEY.fullmatch(key):
        check.fail(f"{where}.key", f"must be lower-case letters, digits and _, got {key!r}")
    expansion = table.get("expansion", "")
    if expansion not in ("", *EXPANSIONS):
        check.fail(f"{where}.expansion", f"must be \"\", {', '.join(EXPANSIONS)}, got "
                   f"{expansion!r}")
    press = table.get("press")
    if not isinstance(press, str) or any(c not in LETTERS for c in press) or \
            len(set(press)) != len(press):
        check.fail(f"{where}.press", f"must be letters {LETTERS[0]}-{LETTERS[-1]}, each once "
                   f"(\"\" for none), got {press!r}")
    rules = table.get("rules")
    if not isinstance(rules, list):
        check.fail(f"{where}.rules", f"must be a list of rules, got {rules!r}")
    parsed = tuple(_rule(check, text, f"{where}.rules[{j}]")
                   for j, text in enumerate(rules, start=1))
    names = [name for name, _ in parsed]
    for j, name in enumerate(names, start=1):
        if names.index(name) != j - 1:
            check.fail(f"{where}.rules[{j}]", f"rule {name!r} is given twice")
    return Event(key, check.string(table, "name", f"{where}.name"), expansion,
                 check.integer(table, "sponsors", f"{where}.sponsors", 0, 9), press, parsed,
                 check.string(table, "text", f"{where}.text"))


def _rule(check: Fields, text: object, where: str) -> tuple[str, tuple[int, ...]]:
    if not isinstance(text, str) or not text.split():
        check.fail(where, f"must be a rule such as \"laps -1\", got {text!r}")
    name, *words = text.split()
    rule = RULES.get(name)
    if rule is None:
        check.fail(where, f"unknown rule {name!r} (known: {', '.join(RULES)})")
    numbers = []
    for word in words:
        try:
            numbers.append(int(word))
        except ValueError:
            check.fail(where, f"{name}: {word!r} is not a whole number")
    if len(numbers) != rule.takes:
        shape = " ".join(["N", "P"][:rule.takes])
        check.fail(where, f"{name} takes {rule.takes} number{'s' if rule.takes != 1 else ''}"
                   f" ({name}{' ' + shape if shape else ''}), got {text!r}")
    problem = rule.check(tuple(numbers))
    if problem:
        check.fail(where, f"{name}: {problem}")
    return name, tuple(numbers)


def _season(check: Fields, table: Mapping[str, Any], i: int, events: set[str]) -> SeasonData:
    where = f"season[{i}]"
    check.keys(table, where, ("year", "races"))
    year = check.integer(table, "year", f"{where}.year", 1900, 2100)
    races = table.get("races")
    if not isinstance(races, list) or not races:
        check.fail(f"{where}.races", f"must be a list of {{track, event}} tables, got {races!r}")
    out = []
    for j, race in enumerate(races, start=1):
        at = f"{where}.races[{j}]"
        race = check.table(race, at)
        check.keys(race, at, _SEASON_RACE, frozenset({"weather"}))
        track = check.string(race, "track", f"{at}.track")
        if track not in TRACKS:
            check.fail(f"{at}.track", f"must be a shipped track ({', '.join(TRACKS)}), got "
                       f"{track!r}")
        event = check.string(race, "event", f"{at}.event")
        if event not in events:
            check.fail(f"{at}.event", f"no [[event]] with key {event!r}")
        weather = race.get("weather", "")
        if weather not in ("", *WEATHER_TOKENS):
            check.fail(f"{at}.weather", f"must be a weather token ({', '.join(WEATHER_TOKENS)}),"
                       f" got {weather!r}")
        out.append(SeasonRace(track, event, weather))
    return SeasonData(year, tuple(out))


def load_championship(path: str | Path | None = None) -> Championship:
    """The shipped file (cached), or the file at ``path`` (an owner's edited copy)."""
    if path is None:
        return _shipped()
    source, doc = read_toml(__package__, FILE, path)
    return parse_championship(doc, source)


@functools.cache
def _shipped() -> Championship:
    source, doc = read_toml(__package__, FILE)
    return parse_championship(doc, f"pitboard/engine/championship/{source}")


__all__ = ["FILE", "LETTERS", "Championship", "DataFileError", "Event", "SeasonData",
           "SeasonRace", "load_championship", "parse_championship"]
