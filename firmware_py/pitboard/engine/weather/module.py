"""The Weather & road conditions module: one weather token per race, one road token per corner.

Options (``RaceSetup.modules["weather"]``), plain JSON:

===========  ================================================================================
``weather``  a weather key (cloud, fog, storm, snow, rain, sun) or "random" (default): drawn
             from the race's seed
``road``     false (default): no road tokens; true or "random": one token drawn from the bag
             of 12 for every corner (a chicane's two lines share one); or a table of corner
             number (as printed, from 1) -> token key for exactly those corners
===========  ================================================================================

The weather changes every car's set-up before the race (Legend cars hold no cards: they are
left alone). Corner tokens change their corner's limit for every car or add Heat over it;
sector tokens change the stretch after their corner, up to the next corner's first line, for a
car standing there: Cooldown in the React step where the car is after its move, a Boost where
the car is when it boosts, a slipstream where the car is before it slipstreams.

A chicane (two corner lines, the second marked ``chicane`` in the track file) is one corner:
its two lines share one road token, which a corner token changes at both lines, and a sector
token's sector starts after the chicane's second line (the spaces between its lines are still
the sector before it). :meth:`Track.token_corner <pitboard.track.Track.token_corner>` and
:meth:`Track.token_sector_of <pitboard.track.Track.token_sector_of>` say which token rules
where.

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
    ...             modules={"weather": {"weather": "fog", "road": {"2": "limit+1"}}}))
    >>> race.corner_limit(1), race.cars[0].engine     # corner 2 printed 3; Fog: +1 Heat
    (4, 7)
    >>> race_weather(race)
    'fog'
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..cards import HEAT, STRESS
from ..events import WeatherDrawn
from ..modules import RaceModule, register_module
from ..stamp import register_data
from .tokens import CORNER, NO_EFFECT, SectorEffect, Tokens, load_tokens

if TYPE_CHECKING:
    from ...track import Track
    from ..car import Car
    from ..modules import ModuleRace
    from ..setup import RaceSetup

KEY = "weather"
RANDOM = "random"
_OPTIONS = ("weather", "road")

# a journalled race replays only with the same tokens and rules (engine/stamp.py): bump the
# version whenever this module changes what a token does
register_data(KEY, "tokens", resources.files(__package__).joinpath("tokens.toml"))
register_data(KEY, "rules", "weather-1")


@register_module
class Weather(RaceModule):
    """The weather token and road tokens of one race (see the module docstring).

    Example: both drawn from the race's seed::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=5, laps=1,
        ...             modules={"weather": {"weather": "random", "road": True}}))
        >>> weather = race.hooks.by_key["weather"]
        >>> weather.weather, weather.road              # corner index (0-based) -> road token
        ('storm', {0: 'overheat', 1: 'weather', 2: 'limit+1', 3: 'limit-1'})
        >>> race.corner_limit(2), race.corner_limit(3)  # printed 3 and 2
        (4, 1)
        >>> weather.effect(race, 40).words()      # Storm's in the sector after corner 2
        ['slipstream +2']
        >>> weather.to_dict()["road"]             # as journalled: corners as printed
        {'1': 'overheat', '2': 'weather', '3': 'limit+1', '4': 'limit-1'}
    """

    key = KEY

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.tokens: Tokens = load_tokens()
        self.weather = str(options.get("weather", RANDOM))
        #: corner index (0-based, the first line of a chicane) -> road token key
        self.road: dict[int, str] = {}
        self._track: Track | None = None
        self._limit: list[int] = []
        self._overheat: list[int] = []
        self._sector: list[SectorEffect] = []

    # -- options and state ------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: Mapping[str, Any], setup: RaceSetup) -> None:
        for key in options:
            if key not in _OPTIONS:
                raise ValueError(f"weather: unknown option {key!r} (known: {', '.join(_OPTIONS)})")
        tokens = load_tokens()
        weather = options.get("weather", RANDOM)
        if weather != RANDOM:
            if not isinstance(weather, str):
                raise ValueError(f"weather: weather must be a name, not {weather!r}")
            tokens.weather_token(weather)  # ValueError naming the known ones
        road = options.get("road", False)
        if isinstance(road, Mapping):
            for corner, token in road.items():
                if not str(corner).isdigit():
                    raise ValueError(f"weather: road corner must be a number, not {corner!r}")
                if not isinstance(token, str):
                    raise ValueError(f"weather: road token for corner {corner} must be a name")
                tokens.road_token(token)
        elif road not in (True, False, RANDOM):
            raise ValueError(f"weather: road must be true, false or a table, not {road!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"weather": self.weather,
                "road": {str(k + 1): v for k, v in sorted(self.road.items())}}

    def load(self, data: Mapping[str, Any]) -> None:
        self.weather = str(data.get("weather", self.weather))
        self.road = {int(k) - 1: str(v) for k, v in data.get("road", {}).items()}

    # -- before the race --------------------------------------------------------------------
    def prepare(self, race: ModuleRace) -> None:
        if self.weather == RANDOM:
            keys = list(self.tokens.weather_keys)
            race.shuffle(keys)
            self.weather = keys[0]
        groups = race.track.token_corners()
        road = self.options.get("road", False)
        if road is True or road == RANDOM:
            bag = self.tokens.road_bag()
            if len(groups) > len(bag):
                raise ValueError(f"weather: track {race.track.key} has {len(groups)} corners "
                                 f"but the box has {len(bag)} road tokens")
            race.shuffle(bag)
            self.road = dict(zip(groups, bag, strict=False))
        elif isinstance(road, Mapping):
            lines = len(race.track.corners)
            for corner, token in road.items():
                index = int(corner) - 1
                if not 0 <= index < lines:
                    raise ValueError(f"weather: road token for corner {corner}, but track "
                                     f"{race.track.key} has corners 1..{lines}")
                if index not in groups:
                    raise ValueError(f"weather: corner {corner} is the second line of a chicane: "
                                     f"its road token is corner {index}'s")
                self.road[index] = token
        self._track = None  # the tables follow the tokens just drawn
        if race.record_events:
            race.record(WeatherDrawn(weather=self.weather, road=tuple(
                (k + 1, v) for k, v in sorted(self.road.items())), round=race.round))

    def _tables(self, track: Track) -> None:
        """Per corner line: limit change and overheat; per board space: the sector effect."""
        n = len(track.corners)
        if self.weather == RANDOM:  # asked before prepare() has drawn the tokens
            self._limit, self._overheat = [0] * n, [0] * n
            self._sector = [NO_EFFECT] * (track.spaces + 1)
            return
        self._track = track
        self._limit, self._overheat = [0] * n, [0] * n
        sector_of_group: dict[int, SectorEffect] = {}
        weather = self.tokens.weather_token(self.weather)
        for first, key in self.road.items():
            token = self.tokens.road_token(key)
            if token.target == CORNER:  # a chicane's lines both
                for i in range(n):
                    if track.token_corner(i) == first:
                        self._limit[i] += token.limit
                        self._overheat[i] += token.overheat
            else:
                sector_of_group[first] = weather.sector if token.weather else token.sector
        # (index 0, no space, is -1: no corner's group)
        self._sector = [sector_of_group.get(group, NO_EFFECT) for group in track.token_sectors]

    def effect(self, race: ModuleRace, space: int) -> SectorEffect:
        """The sector effect on board space ``space``."""
        if self._track is not race.track:
            self._tables(race.track)
        return self._sector[space]

    def setup_car(self, race: ModuleRace, car: Car) -> None:
        plans = race.hooks.plans
        if plans is not None and not plans(race, car):
            return  # a Legend car: no cards, no Heat
        w = self.tokens.weather_token(self.weather)
        if w.stress > 0:
            car.draw.extend([STRESS] * w.stress)
        for _ in range(min(-w.stress, car.draw.count(STRESS))):
            car.draw.remove(STRESS)
        car.engine = max(0, car.engine + w.heat)
        to_deck = min(w.heat_to_deck, car.engine)
        car.engine -= to_deck
        car.draw.extend([HEAT] * to_deck)  # shuffled in with the deck right after
        to_discard = min(w.heat_to_discard, car.engine)
        car.engine -= to_discard
        car.discard.extend([HEAT] * to_discard)

    # -- the race ------------------------------------------------------------------------------
    def corner_limit(self, race: ModuleRace, index: int, limit: int) -> int:
        if self._track is not race.track:
            self._tables(race.track)
        return limit + self._limit[index]

    def corner_heat(self, race: ModuleRace, car: Car, index: int, excess: int) -> int:
        return excess + self._overheat[index]

    def cooldown(self, race: ModuleRace, car: Car, n: int) -> int:
        e = self.effect(race, car.space)
        return 0 if e.no_cooldown else n + e.cooldown

    def boost_heat(self, race: ModuleRace, car: Car, cost: int) -> int:
        return 0 if self.effect(race, car.space).free_boost else cost

    def may_slipstream(self, race: ModuleRace, car: Car) -> bool:
        return not self.effect(race, car.space).no_slipstream

    def slipstream_choices(self, race: ModuleRace, car: Car, spaces: tuple[int, ...]
                           ) -> tuple[int, ...]:
        extra = self.effect(race, car.space).slipstream
        if not extra:
            return spaces
        return spaces + tuple(n + extra for n in spaces)


def token_corners(track: Track) -> list[int]:
    """Corner indexes (0-based) that take a road token: every corner line except the second
    line of a chicane, which shares the token of the line before it."""
    return track.token_corners()


def _module(race: ModuleRace) -> Weather | None:
    module = race.hooks.by_key.get(KEY)
    return module if isinstance(module, Weather) else None


def race_weather(race: ModuleRace) -> str | None:
    """The race's weather token key (None without the module)."""
    module = _module(race)
    return module.weather if module is not None else None


def road_tokens(race: ModuleRace) -> dict[int, str]:
    """Corner number (1-based, as printed) -> road token key (empty without the module)."""
    module = _module(race)
    return {k + 1: v for k, v in sorted(module.road.items())} if module is not None else {}


def sector_effect(race: ModuleRace, car_id: int) -> SectorEffect:
    """What the sector where ``car_id`` stands does to it (the station view's question):
    Cooldown bonus or none, slipstream reach or none, a free Boost."""
    module = _module(race)
    if module is None:
        return NO_EFFECT
    return module.effect(race, race.cars[car_id].space)
