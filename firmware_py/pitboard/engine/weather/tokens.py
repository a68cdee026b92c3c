"""Weather and road-condition tokens: the data file ``tokens.toml`` and its loader.

Example::

    >>> tokens = load_tokens()
    >>> [w.key for w in tokens.weather]
    ['cloud', 'fog', 'storm', 'snow', 'rain', 'sun']
    >>> len(tokens.road_bag()), tokens.road_token("limit+1").limit
    (12, 1)
    >>> tokens.weather_token("storm").sector
    SectorEffect(cooldown=0, no_cooldown=False, slipstream=2, no_slipstream=False, free_boost=False)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ..datafile import Fields, read_toml

_SECTOR_KEYS = ("cooldown", "no_cooldown", "slipstream", "no_slipstream", "free_boost")
_WEATHER_KEYS = ("key", "name", "stress", "heat", "heat_to_deck", "heat_to_discard", "sector")
_ROAD_KEYS = ("key", "name", "count", "target", "limit", "overheat", "weather", *_SECTOR_KEYS)
CORNER = "corner"
SECTOR = "sector"


class SectorEffect(NamedTuple):
    """What a sector does to a car standing in it (all zero/False: nothing).

    Example::

        >>> SectorEffect(cooldown=1, free_boost=True).words()
        ['cooldown +1', 'free boost']
        >>> NO_EFFECT.words(), load_tokens().road_token("slipstream+1").sector.slipstream
        ([], 1)
    """

    cooldown: int = 0
    no_cooldown: bool = False
    slipstream: int = 0
    no_slipstream: bool = False
    free_boost: bool = False

    def words(self) -> list[str]:
        """Short words for a screen or narration, e.g. ['slipstream +2']."""
        out = []
        if self.no_cooldown:
            out.append("no cooldown")
        if self.cooldown:
            out.append(f"cooldown +{self.cooldown}")
        if self.no_slipstream:
            out.append("no slipstream start")
        if self.slipstream:
            out.append(f"slipstream +{self.slipstream}")
        if self.free_boost:
            out.append("free boost")
        return out


NO_EFFECT = SectorEffect()


@dataclass(frozen=True, slots=True)
class WeatherToken:
    """One weather token: its set-up changes and its effect in 'weather' sectors.

    Example::

        >>> rain = load_tokens().weather_token("rain")
        >>> rain.name, rain.heat_to_deck, rain.sector.words()  # 3 Heat shuffled into the deck
        ('Rain', 3, ['cooldown +1'])
    """

    key: str
    name: str
    stress: int
    heat: int
    heat_to_deck: int
    heat_to_discard: int
    sector: SectorEffect


@dataclass(frozen=True, slots=True)
class RoadToken:
    """One kind of road-condition token.

    Example: a corner token changes the corner; a sector token the stretch after it::

        >>> tokens = load_tokens()
        >>> overheat = tokens.road_token("overheat")
        >>> overheat.target, overheat.overheat, overheat.count
        ('corner', 1, 2)
        >>> boost = tokens.road_token("free-boost")
        >>> boost.target, boost.weather, boost.sector.words()
        ('sector', False, ['free boost'])
        >>> tokens.road_token("weather").weather    # the race's weather token's effect
        True
    """

    key: str
    name: str
    count: int
    target: str
    #: corner tokens
    limit: int = 0
    overheat: int = 0
    #: sector tokens: the weather token's effect applies, or this one
    weather: bool = False
    sector: SectorEffect = NO_EFFECT


@dataclass(frozen=True, slots=True)
class Tokens:
    """Every weather token and kind of road token, in the file's order.

    Example::

        >>> tokens = load_tokens()
        >>> tokens.road_keys
        ('overheat', 'limit-1', 'limit+1', 'weather', 'free-boost', 'slipstream+1')
        >>> tokens.road_bag()[:3]                  # the box: 2 of each kind
        ['overheat', 'overheat', 'limit-1']
        >>> tokens.weather_token("hail")
        Traceback (most recent call last):
        ...
        ValueError: unknown weather 'hail' (known: cloud, fog, storm, snow, rain, sun)
    """

    weather: tuple[WeatherToken, ...]
    road: tuple[RoadToken, ...]

    def weather_token(self, key: str) -> WeatherToken:
        for w in self.weather:
            if w.key == key:
                return w
        raise ValueError(f"unknown weather {key!r} (known: {', '.join(self.weather_keys)})")

    def road_token(self, key: str) -> RoadToken:
        for r in self.road:
            if r.key == key:
                return r
        raise ValueError(f"unknown road token {key!r} (known: {', '.join(self.road_keys)})")

    @property
    def weather_keys(self) -> tuple[str, ...]:
        return tuple(w.key for w in self.weather)

    @property
    def road_keys(self) -> tuple[str, ...]:
        return tuple(r.key for r in self.road)

    def road_bag(self) -> list[str]:
        """Every road token in the box, by key (2 of each kind)."""
        return [r.key for r in self.road for _ in range(r.count)]


@functools.cache
def load_tokens(path: str | None = None) -> Tokens:
    """The shipped tokens, or those of ``path``; DataFileError (one line) if broken."""
    source, doc = read_toml(__package__ or "pitboard.engine.weather", "tokens.toml",
                            Path(path) if path is not None else None)
    check = Fields(source)
    check.keys(doc, "", ("weather", "road"))
    weather = []
    for i, table in enumerate(check.tables(doc, "weather"), start=1):
        where = f"weather[{i}]"
        check.keys(table, where, _WEATHER_KEYS, frozenset(_WEATHER_KEYS[2:]))
        setup = {k: check.integer(table, k, f"{where}.{k}", -9, 9, default=0)
                 for k in ("stress", "heat")}
        moves = {k: check.integer(table, k, f"{where}.{k}", 0, 9, default=0)
                 for k in ("heat_to_deck", "heat_to_discard")}
        weather.append(WeatherToken(
            key=_key(check, table, where), name=check.string(table, "name", f"{where}.name"),
            **setup, **moves,
            sector=_sector(check, check.table(table.get("sector", {}), f"{where}.sector"),
                           f"{where}.sector")))
    road = []
    for i, table in enumerate(check.tables(doc, "road"), start=1):
        where = f"road[{i}]"
        check.keys(table, where, _ROAD_KEYS, frozenset(_ROAD_KEYS[4:]))
        key = _key(check, table, where)
        target = check.string(table, "target", f"{where}.target")
        count = check.integer(table, "count", f"{where}.count", 0, 9)
        if target == CORNER:
            extra = [k for k in table if k in ("weather", *_SECTOR_KEYS)]
            if extra:
                check.fail(f"{where}.{extra[0]}", "is a sector effect, but target is corner")
            road.append(RoadToken(
                key, check.string(table, "name", f"{where}.name"), count, CORNER,
                limit=check.integer(table, "limit", f"{where}.limit", -9, 9, default=0),
                overheat=check.integer(table, "overheat", f"{where}.overheat", 0, 9, default=0)))
        elif target == SECTOR:
            for k in ("limit", "overheat"):
                if k in table:
                    check.fail(f"{where}.{k}", "is a corner effect, but target is sector")
            use_weather = check.boolean(table, "weather", f"{where}.weather", False)
            sector = _sector(check, {k: v for k, v in table.items() if k in _SECTOR_KEYS}, where)
            if use_weather == (sector != NO_EFFECT):
                check.fail(where, "a sector token needs weather = true or one effect, not both")
            road.append(RoadToken(key, check.string(table, "name", f"{where}.name"), count,
                                  SECTOR, weather=use_weather, sector=sector))
        else:
            check.fail(f"{where}.target", f"must be \"corner\" or \"sector\", got {target!r}")
    for what, keys in (("weather", [w.key for w in weather]), ("road", [r.key for r in road])):
        twice = [k for k in keys if keys.count(k) > 1]
        if twice:
            check.fail(what, f"key {twice[0]!r} is used twice")
    return Tokens(tuple(weather), tuple(road))


def _key(check: Fields, table: Mapping[str, Any], where: str) -> str:
    key = check.string(table, "key", f"{where}.key")
    if not all(c.isalnum() or c in "+-_" for c in key) or key != key.lower():
        check.fail(f"{where}.key", f"lower-case letters, digits, + - _ only, got {key!r}")
    return key


def _sector(check: Fields, table: Mapping[str, Any], where: str) -> SectorEffect:
    check.keys(table, where, _SECTOR_KEYS, frozenset(_SECTOR_KEYS))
    return SectorEffect(
        cooldown=check.integer(table, "cooldown", f"{where}.cooldown", 0, 9, default=0),
        no_cooldown=check.boolean(table, "no_cooldown", f"{where}.no_cooldown", False),
        slipstream=check.integer(table, "slipstream", f"{where}.slipstream", 0, 9, default=0),
        no_slipstream=check.boolean(table, "no_slipstream", f"{where}.no_slipstream", False),
        free_boost=check.boolean(table, "free_boost", f"{where}.free_boost", False))
