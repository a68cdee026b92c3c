"""A championship season: its races one after the other, scored, pure and deterministic.

A :class:`Season` is to a season what a :class:`~pitboard.engine.race.Race` is to a race: a
:class:`SeasonSetup` (the season, the cars, a seed, the rules modules every race uses) plus the
decision log of each race replays it exactly (:func:`replay_season`). Each race is an ordinary
:class:`~pitboard.engine.race.Race` whose setup the season works out from what came before:

* its track and Event from the season (``championship.toml``; a random season draws its races
  from the seed: different tracks, different Events);
* its seed from the season's seed and the race's number;
* the grid: race 1's drawn from its seed, every later one by the standings (the leader on pole;
  equal points: the better place in the race before);
* the Garage (when the season races upgrades): race 1 chooses them as the setup says; every later
  race keeps each car's upgrades, deals one draft round (the last placed picks first) and lets
  each car swap one of its upgrades for a card left in the market (:mod:`..garage.draft`).
  Without the Garage a season still deals its sponsors through the Garage module
  (``choose = "none"``: the starting upgrades stay);
* the championship module with the race's Event (:mod:`.module`).

A race over scores its points (9-6-4-3-2-1 and the Event's bonuses, :meth:`ChampionshipModule.points
<pitboard.engine.championship.module.ChampionshipModule.points>`); :meth:`Season.next_race`
starts the next one. Undo works inside the current race (:meth:`Season.undo`); a finished race
stays as played.

Example: the 1961 season with two bots::

    >>> from pitboard.bots import HeuristicBot
    >>> season = Season(SeasonSetup(season="1961", cars=2, seed=3))
    >>> [(r.track, r.event) for r in season.plan]  # doctest: +NORMALIZE_WHITESPACE
    [('great_britain', 'new_grandstand'), ('usa', 'new_speed_record'),
     ('italy', 'drivers_strike')]
    >>> bots = {0: HeuristicBot(seed=0), 1: HeuristicBot(seed=1)}
    >>> while not season.over:
    ...     if season.race.over:
    ...         season.next_race()
    ...     car = season.race.waiting_for()
    ...     if car >= 0:
    ...         season.race.apply(bots[car].choose(season.race, car))
    >>> [r.points for r in season.results()]
    [{0: 9, 1: 6}, {0: 9, 1: 6}, {0: 11, 1: 6}]
    >>> season.standings(), season.totals()   # Drivers' strike: the winner scores 2 more
    ([0, 1], {0: 29, 1: 18})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...catalog import MAX_CARS, TRACKS
from ..decisions import Decision, decision_from_dict, decision_to_dict
from ..race import Race
from ..setup import RaceSetup
from ..shuffle import MASK64, mix64, seed_key, shuffle_cards
from ..stamp import RULES_VERSION, compare_stamp, race_stamp
from .data import Championship, SeasonRace, load_championship
from .module import KEY, ChampionshipModule

RANDOM = "random"
#: keeps the seasons' streams (race seeds, a random season's draw) apart from the races'
_DOMAIN = 0x736561736F6E  # "season"
#: the Garage options a season may set for race 1 (every later race drafts one round)
_GARAGE_MODES = ("random", "draft", "snake")


def season_names() -> tuple[str, ...]:
    """The seasons a setup may name: the years of the data file, then ``random``.

    Example::

        >>> season_names()
        ('1961', '1962', '1963', '1964', '1965', 'random')
    """
    return (*(str(s.year) for s in load_championship().seasons), RANDOM)


@dataclass(frozen=True, slots=True)
class SeasonSetup:
    """The inputs of a season: with each race's decisions, they replay it exactly.

    ``cars`` counts every car, Legend cars too (as :class:`RaceSetup` does); ``modules`` are the
    rules modules every race uses (``garage``: how race 1 chooses upgrades; ``legends``,
    ``weather``), never ``championship`` (the season sets it per race).

    Example::

        >>> SeasonSetup(season="1963", cars=3, seed=9).to_dict()
        {'season': '1963', 'cars': 3, 'seed': 9}
    """

    season: str = "1961"
    cars: int = 2
    seed: int = 0
    names: tuple[str, ...] = ()
    modules: dict[str, dict[str, Any]] = field(default_factory=dict)

    def validate(self) -> None:
        """Raise ValueError (one line) when the season cannot be raced."""
        if self.season not in season_names():
            raise ValueError(f"unknown season {self.season!r} (seasons: "
                             f"{', '.join(season_names())})")
        if not 1 <= self.cars <= MAX_CARS:
            raise ValueError(f"cars must be 1..{MAX_CARS}, not {self.cars}")
        if KEY in self.modules:
            raise ValueError("a season sets the championship module of each race itself")
        garage = self.modules.get("garage")
        if garage is not None and garage.get("choose", "draft") not in _GARAGE_MODES:
            raise ValueError(f"garage: a season chooses upgrades by "
                             f"{', '.join(_GARAGE_MODES)}, not {garage.get('choose')!r}")
        for i, race in enumerate(season_plan(self)):  # every race must be raceable
            season_race_setup(self, race, i).validate()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"season": self.season, "cars": self.cars, "seed": self.seed}
        if self.names:
            out["names"] = list(self.names)
        if self.modules:
            out["modules"] = {k: dict(v) for k, v in self.modules.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeasonSetup:
        modules = data.get("modules", {})
        if not isinstance(modules, Mapping):
            raise ValueError(f"modules must be a table, not {modules!r}")
        return cls(season=str(data["season"]), cars=int(data["cars"]), seed=int(data["seed"]),
                   names=tuple(str(n) for n in data.get("names", ())),
                   modules={str(k): dict(v) for k, v in modules.items()})


def season_plan(setup: SeasonSetup, data: Championship | None = None
                ) -> tuple[SeasonRace, ...]:
    """The races of ``setup``'s season in order: the box's, or for ``random`` a draw from the
    seed (``[random] races`` of them, each on another track with another Event).

    Example::

        >>> [r.track for r in season_plan(SeasonSetup(season="random", seed=1))]
        ['france', 'usa', 'mexico', 'netherlands']
    """
    data = data or load_championship()
    if setup.season != RANDOM:
        return data.season(int(setup.season)).races
    key = seed_key(setup.seed ^ _DOMAIN)
    tracks, events = list(TRACKS), [e.key for e in data.events]
    shuffle_cards(tracks, key, 1)
    shuffle_cards(events, key, 2)
    return tuple(SeasonRace(t, e) for t, e in zip(tracks, events, strict=False)
                 )[:data.random_races]


def race_seed(setup: SeasonSetup, index: int) -> int:
    """The seed of race ``index`` (from 0): the season's seed and the race's number, mixed."""
    return mix64((seed_key(setup.seed ^ _DOMAIN) + index + 1) & MASK64) >> 1


def _expansions(plan: tuple[SeasonRace, ...], data: Championship) -> list[str]:
    """The boxes whose sponsors the season's deck holds: those of its Events."""
    found = {data.event(r.event).expansion for r in plan} - {""}
    return sorted(found)


def season_race_setup(setup: SeasonSetup, race: SeasonRace, index: int,
                      grid: tuple[int, ...] | None = None,
                      garage: dict[str, Any] | None = None) -> RaceSetup:
    """The setup of race ``index`` of the season: its track, Event, seed and modules; its grid
    and Garage options as given (:meth:`Season.next_setup` gives them), else race 1's: the grid
    drawn from the race's seed, upgrades chosen as the season's setup says."""
    data = load_championship()
    modules: dict[str, dict[str, Any]] = {k: dict(v) for k, v in setup.modules.items()}
    if garage is None:
        garage = modules.get("garage", {"choose": "none"})
    modules["garage"] = garage
    if race.weather:
        modules["weather"] = {**modules.get("weather", {}), "weather": race.weather}
    modules[KEY] = {"event": race.event,
                    "expansions": _expansions(season_plan(setup, data), data)}
    return RaceSetup(track=race.track, cars=setup.cars, seed=race_seed(setup, index),
                     grid=grid, names=setup.names, modules=modules)


@dataclass(frozen=True, slots=True)
class RaceResult:
    """One finished race of a season: where, which Event, the finish order (Hall of Fame:
    a car out of the race is not in it) and the points each car scored.

    Example::

        >>> RaceResult("usa", "title_sponsor", (1, 0), {1: 9, 0: 6}).winner
        1
    """

    track: str
    event: str
    order: tuple[int, ...]
    points: dict[int, int]
    #: every car, the finish order then the cars out of the race (for the standings' ties)
    ranking: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        return self.order[0] if self.order else None


def totals(cars: int, results: list[RaceResult]) -> dict[int, int]:
    """Points of ``results`` by car (every car of ``cars``, 0 included)."""
    out = dict.fromkeys(range(cars), 0)
    for result in results:
        for car, points in result.points.items():
            out[car] += points
    return out


def standings(cars: int, results: list[RaceResult]) -> list[int]:
    """Cars by points, the leader first; equal points: the better place in the latest race
    (then the one before, and so on; a car out of a race ranks after every car in it).

    Example: level on 9 points, car 1 was ahead in the latest race::

        >>> standings(2, [RaceResult("usa", "title_sponsor", (0, 1), {0: 9, 1: 0}, (0, 1)),
        ...               RaceResult("italy", "corruption", (1,), {1: 9}, (1, 0))])
        [1, 0]
    """
    points = totals(cars, results)

    def key(car: int) -> tuple[int, ...]:
        return (-points[car], *(r.ranking.index(car) if car in r.ranking else MAX_CARS
                                for r in reversed(results)), car)
    return sorted(range(cars), key=key)


class Season:
    """A season in progress (see the module docstring): ``race`` is the current race.

    Example::

        >>> season = Season(SeasonSetup(season="1962", cars=3, seed=1))
        >>> season.index, season.race.track.key, season.race.setup.modules["championship"]
        (0, 'italy', {'event': 'restrictions_lifted', 'expansions': []})
    """

    def __init__(self, setup: SeasonSetup, *, record_events: bool = True) -> None:
        setup.validate()
        self.setup = setup
        self.record_events = record_events
        self.data = load_championship()
        self.plan = season_plan(setup, self.data)
        self.index = 0
        #: the decision logs of the races before the current one
        self.logs: list[list[Decision]] = []
        self._results: list[RaceResult] = []
        self.race = Race(season_race_setup(setup, self.plan[0], 0), record_events=record_events)

    # -- where the season is -------------------------------------------------------------------
    @property
    def last(self) -> bool:
        """Is the current race the season's last?"""
        return self.index == len(self.plan) - 1

    @property
    def over(self) -> bool:
        """The last race is over: the season is decided."""
        return self.last and self.race.over

    @property
    def between(self) -> bool:
        """A race is over and another follows (the standings are shown)."""
        return self.race.over and not self.last

    def results(self) -> list[RaceResult]:
        """Every finished race's result, the current race's too once it is over."""
        if self.race.over:
            return [*self._results, self._result(self.race)]
        return list(self._results)

    def _result(self, race: Race) -> RaceResult:
        module = race.hooks.by_key[KEY]
        assert isinstance(module, ChampionshipModule)
        order = tuple(race.hall_of_fame)
        ranking = tuple(race.standings())
        return RaceResult(race.track.key, module.event.key, order,
                          module.points(list(order)), ranking)

    def totals(self) -> dict[int, int]:
        """Points so far by car (every car, 0 included)."""
        return totals(self.setup.cars, self.results())

    def standings(self) -> list[int]:
        """Cars by points, the leader first (:func:`standings`)."""
        return standings(self.setup.cars, self.results())

    # -- moving on -------------------------------------------------------------------------------
    def next_race(self) -> None:
        """Score the race just over and start the next one: grid by standings, the Garage's
        upgrades kept with a draft round (the last placed first) and a swap. ValueError when
        the race is not over or it was the last."""
        if not self.race.over:
            raise ValueError("the race is not over")
        if self.last:
            raise ValueError("the season is over")
        setup = self.next_setup()
        self._results.append(self._result(self.race))
        self.logs.append(list(self.race.log))
        self.index += 1
        self.race = Race(setup, record_events=self.record_events)

    def next_setup(self) -> RaceSetup:
        """The setup of the race after the current one, which is over: the grid by the
        standings, the Garage's upgrades kept (see the module docstring)."""
        index = self.index + 1
        standings = self.standings()
        garage: dict[str, Any] | None = None
        chosen = self.setup.modules.get("garage")
        if chosen is not None:
            owner = self.race.hooks.by_key["garage"]
            picks: dict[int, list[str]] = owner.picks  # type: ignore[attr-defined]
            kept = {str(car): list(keys) for car, keys in sorted(picks.items()) if keys}
            garage = {"choose": "draft", "pool": chosen.get("pool", "all"),
                      "expansions": bool(chosen.get("expansions", False)), "kept": kept,
                      "rounds": 1, "order": standings[::-1], "swap": True}
        return season_race_setup(self.setup, self.plan[index], index, grid=tuple(standings),
                                garage=garage)

    def undo(self) -> None:
        """Take back the current race's last decision (replayed; a finished race before it
        stays as played). ValueError when the race has no decision yet."""
        if not self.race.log:
            raise ValueError("nothing to undo in this race")
        log = self.race.log[:-1]
        race = Race(self.race.setup, track=self.race.track, record_events=self.record_events)
        for decision in log:
            race.apply(decision)
        self.race = race

    # -- saving ---------------------------------------------------------------------------------
    def all_logs(self) -> list[list[Decision]]:
        """Every race's decisions so far, the current race's last."""
        return [*self.logs, list(self.race.log)]

    def to_dict(self) -> dict[str, Any]:
        """The setup and every race's decisions (what :func:`season_from_dict` replays)."""
        return {"setup": self.setup.to_dict(),
                "logs": [[decision_to_dict(d) for d in log] for log in self.all_logs()]}


def season_stamp(setup: SeasonSetup) -> dict[str, Any]:
    """The rules version and data digests a season of ``setup`` is played with (JSON types):
    every race's (:func:`~pitboard.engine.stamp.race_stamp`), each race's track under its own
    name. Raises ValueError or OSError as race_stamp does.

    Example::

        >>> stamp = season_stamp(SeasonSetup(season="1961"))
        >>> sorted(stamp["data"])[:4]
        ['base.cards', 'championship.data', 'championship.rules', 'garage.rules']
        >>> [k for k in sorted(stamp["data"]) if k.startswith("track.")]
        ['track.great_britain', 'track.italy', 'track.usa']
    """
    data: dict[str, str] = {}
    for i, race in enumerate(season_plan(setup)):
        for name, digest in race_stamp(season_race_setup(setup, race, i))["data"].items():
            data[f"track.{race.track}" if name == "base.track" else name] = digest
    return {"rules": RULES_VERSION, "data": data}


def season_stamp_change(saved: object, setup: SeasonSetup) -> str | None:
    """What differs between a saved season's stamp and today's rules and data, in one line
    (None: nothing; the saved season replays as it was played)."""
    return compare_stamp(saved, lambda: season_stamp(setup))


def replay_season(setup: SeasonSetup, logs: list[list[Decision]], *,
                  record_events: bool = True) -> Season:
    """Play ``logs`` (one decision log per race, the current race's last) from ``setup``: the
    same season, decision for decision. IllegalDecision or ValueError (one line) when a log
    does not fit."""
    season = Season(setup, record_events=record_events)
    for i, log in enumerate(logs):
        if i:
            season.next_race()
        for decision in log:
            season.race.apply(decision)
    return season


def season_from_dict(data: Mapping[str, Any]) -> Season:
    """The season :meth:`Season.to_dict` wrote, replayed; ValueError (one line) otherwise."""
    try:
        setup = SeasonSetup.from_dict(data["setup"])
        logs = [[decision_from_dict(d) for d in log] for log in data["logs"]]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a season: missing or wrong field {exc}") from None
    return replay_season(setup, logs)


__all__ = [
    "RANDOM",
    "RaceResult",
    "Season",
    "SeasonSetup",
    "race_seed",
    "replay_season",
    "season_from_dict",
    "season_names",
    "season_plan",
    "season_race_setup",
    "season_stamp",
    "season_stamp_change",
    "standings",
    "totals",
]
