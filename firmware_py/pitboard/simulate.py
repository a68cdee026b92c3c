"""Many bot races (or whole championship seasons) in a row: winner statistics and engine speed.

Races (:func:`simulate`) and seasons (:func:`simulate_seasons`) are shared among processes the
same way (:func:`blocks`, :func:`run_jobs`): each depends on its seed alone, so the totals are
the same for any number of jobs."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .bots import make_bot
from .engine.race import Race
from .engine.setup import RaceSetup
from .module_args import SetupError, describe_modules
from .trackfile import load_track

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class _Totals:
    """What a block of races adds up to (summed in any order: the same totals)."""

    wins: Counter[int] = field(default_factory=Counter)
    wins_by_grid: Counter[int] = field(default_factory=Counter)
    rounds: int = 0
    car_turns: int = 0
    spinouts: int = 0


@dataclass
class SimulationResult:
    """Totals over a batch of races.

    Example (what ``pitboard simulate`` prints, as text or ``--json``)::

        >>> result = simulate(track="usa", cars=2, laps=1, races=2, seed=0)
        >>> result.races, sum(result.wins.values()), result.text().splitlines()[0]
        (2, 2, '2 races, 2 heuristic bots, usa, 1 lap(s)')
        >>> sorted(result.to_dict())[:4]
        ['bot', 'cars', 'jobs', 'laps']
    """

    track: str
    cars: int
    laps: int
    races: int
    bot: str
    wins: Counter[int] = field(default_factory=Counter)
    wins_by_grid: Counter[int] = field(default_factory=Counter)
    rounds: int = 0
    car_turns: int = 0
    spinouts: int = 0
    seconds: float = 0.0
    #: Legend cars (numbered after the bot cars) and the modules in words
    legends: int = 0
    modules: str = ""
    #: processes the races were shared among
    jobs: int = 1

    def add(self, part: _Totals) -> None:
        self.wins += part.wins
        self.wins_by_grid += part.wins_by_grid
        self.rounds += part.rounds
        self.car_turns += part.car_turns
        self.spinouts += part.spinouts

    def to_dict(self) -> dict[str, Any]:
        legend_wins = sum(v for k, v in self.wins.items() if k >= self.cars)
        return {
            "track": self.track, "cars": self.cars, "laps": self.laps, "races": self.races,
            "bot": self.bot, "legends": self.legends, "modules": self.modules,
            "legend_wins": legend_wins,
            "wins_by_car": {str(k): v for k, v in sorted(self.wins.items())},
            "wins_by_grid_position": {str(k + 1): v for k, v in sorted(self.wins_by_grid.items())},
            "mean_rounds": self.rounds / self.races,
            "spinouts_per_race": self.spinouts / self.races,
            "jobs": self.jobs,
            "races_per_second": self.races / self.seconds if self.seconds else 0.0,
            "us_per_car_turn": self.seconds / self.car_turns * 1e6 if self.car_turns else 0.0,
        }

    def text(self) -> str:
        d = self.to_dict()
        lines = [f"{self.races} races, {self.cars} {self.bot} bots, {self.track}, "
                 f"{self.laps} lap(s)" + (f", {self.modules}" if self.modules else "")]
        if self.legends:
            lines.append(f"Legend wins: {d['legend_wins']} ({d['legend_wins'] / self.races:.0%})")
        lines.append("wins by grid position: " + ", ".join(
            f"P{k}: {v} ({v / self.races:.0%})" for k, v in d["wins_by_grid_position"].items()))
        lines.append(f"mean rounds: {d['mean_rounds']:.2f}")
        lines.append(f"spin-outs per race: {d['spinouts_per_race']:.2f}")
        jobs = f" with {self.jobs} jobs" if self.jobs > 1 else ""
        lines.append(f"races per second{jobs}: {d['races_per_second']:.0f} "
                     f"({d['us_per_car_turn']:.1f} us per car-turn)")
        return "\n".join(lines)


def simulate(*, track: str = "usa", cars: int = 6, laps: int | None = None, races: int = 100,
             seed: int = 0, bot: str = "heuristic",
             modules: dict[str, dict[str, Any]] | None = None, jobs: int = 1
             ) -> SimulationResult:
    """Race ``races`` times with seeds ``seed, seed+1, ...`` (event log off: not needed here).

    ``cars`` are the bot-driven cars; ``modules`` are RaceSetup.modules (Legend cars in
    ``modules["legends"]["cars"]`` come on top of ``cars``; with ``garage`` the bots draft and
    use upgrades). ``jobs`` processes share the races: each race depends on its seed alone, so
    the totals are the same for any number of jobs (only the speed figures differ)."""
    t = load_track(track)
    modules = modules or {}
    legends = int(modules.get("legends", {}).get("cars", 0))
    result = SimulationResult(t.key, cars, laps or t.laps, races, bot, legends=legends,
                              modules=describe_modules(modules), jobs=jobs)
    try:
        Race(RaceSetup(track=t.key, cars=cars + legends, seed=seed, laps=laps,
                       modules=modules), track=t, record_events=False)
    except ValueError as exc:  # options or track that cannot make a race: one line
        raise SetupError(str(exc)) from None
    batch = _Batch(track, cars + legends, laps, bot, modules)
    result.seconds = _timed(batch.play, result.add, seed, races, jobs)
    return result


@dataclass(frozen=True)
class _Batch:
    """What every race of a simulation shares (picklable: a job process gets it whole)."""

    track: str
    cars: int
    laps: int | None
    bot: str
    modules: dict[str, dict[str, Any]]

    def play(self, seeds: range) -> _Totals:
        """Race once per seed; the totals."""
        t = load_track(self.track)
        if "garage" in self.modules:
            from .garage_bots import make_garage_bot as make
        else:
            make = make_bot
        totals = _Totals()
        for seed in seeds:
            player = make(self.bot, seed=seed)
            race = Race(RaceSetup(track=t.key, cars=self.cars, seed=seed, laps=self.laps,
                                  modules=self.modules), track=t, record_events=False)
            grid = sorted(race.cars, key=race.ahead_key, reverse=True)
            waiting_for, apply, choose = race.waiting_for, race.apply, player.choose
            while (car := waiting_for()) >= 0:  # -1 once the race is over
                apply(choose(race, car))
            winner = race.hall_of_fame[0]
            totals.wins[winner] += 1
            totals.wins_by_grid[[c.id for c in grid].index(winner)] += 1
            totals.rounds += race.round
            totals.car_turns += race.car_turns
            totals.spinouts += sum(c.spinouts for c in race.cars)
        return totals


def blocks(first: int, count: int, jobs: int) -> list[range]:
    """``first .. first+count-1`` in blocks for ``jobs`` processes: a few per job, so one that
    draws long races does not hold the others up (one block for one job)."""
    if jobs <= 1:
        return [range(first, first + count)]
    size = max(1, -(-count // (jobs * 4)))
    return [range(at, min(at + size, first + count)) for at in range(first, first + count, size)]


def _timed(work: Callable[[range], R], add: Callable[[R], None], first: int, count: int,
           jobs: int) -> float:
    """Seeds ``first .. first+count-1`` played by ``work`` in blocks over ``jobs`` processes,
    each block's totals handed to ``add`` in seed order; the wall seconds it took."""
    start = time.perf_counter()
    for part in run_jobs(work, blocks(first, count, jobs), jobs=jobs):
        add(part)
    return time.perf_counter() - start


def run_jobs(work: Callable[[T], R], items: Sequence[T], *, jobs: int) -> Iterator[R]:
    """``work(item)`` for each item, in ``jobs`` processes (spawned: a fresh interpreter each,
    whatever threads the caller runs), in the items' order; in this process for one job."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(min(jobs, len(items)), mp_context=get_context("spawn")) as pool:
        yield from pool.map(work, items)


# ---------------------------------------------------------------------------- seasons
@dataclass
class _SeasonTotals:
    """What a block of seasons adds up to (summed in any order: the same totals)."""

    titles: Counter[int] = field(default_factory=Counter)
    points: Counter[int] = field(default_factory=Counter)
    places: Counter[int] = field(default_factory=Counter)
    race_wins: Counter[int] = field(default_factory=Counter)
    margin: int = 0
    races: int = 0
    rounds: int = 0
    car_turns: int = 0
    spinouts: int = 0
    retired: int = 0
    sponsors: int = 0
    tracks: Counter[str] = field(default_factory=Counter)

    def add(self, part: _SeasonTotals) -> None:
        for name in ("titles", "points", "places", "race_wins", "tracks"):
            getattr(self, name).update(getattr(part, name))
        for name in ("margin", "races", "rounds", "car_turns", "spinouts", "retired",
                     "sponsors"):
            setattr(self, name, getattr(self, name) + getattr(part, name))


@dataclass
class SeasonSimulation:
    """Totals over a batch of championship seasons.

    Example (what ``pitboard simulate --championship 1961`` prints, as text or ``--json``)::

        >>> result = simulate_seasons(season="1961", cars=2, seasons=2, seed=0)
        >>> result.seasons, sum(result.totals.titles.values()), result.text().splitlines()[0]
        (2, 2, '2 seasons of the 1961 championship, 2 heuristic bots')
        >>> sorted(result.to_dict())[:4]
        ['bot', 'cars', 'eliminations_per_race', 'jobs']
    """

    season: str
    cars: int
    seasons: int
    bot: str
    totals: _SeasonTotals = field(default_factory=_SeasonTotals)
    seconds: float = 0.0
    legends: int = 0
    modules: str = ""
    jobs: int = 1

    def to_dict(self) -> dict[str, Any]:
        t, n = self.totals, self.seasons
        return {
            "season": self.season, "cars": self.cars, "seasons": n, "bot": self.bot,
            "legends": self.legends, "modules": self.modules, "jobs": self.jobs,
            "titles_by_car": {str(k): v for k, v in sorted(t.titles.items())},
            "mean_points_by_car": {str(c): t.points[c] / n for c in range(self.cars)},
            "mean_place_by_car": {str(c): t.places[c] / n for c in range(self.cars)},
            "race_wins_by_car": {str(k): v for k, v in sorted(t.race_wins.items())},
            "mean_title_margin": t.margin / n,
            "races": t.races,
            "races_by_track": dict(sorted(t.tracks.items())),
            "mean_rounds_per_race": t.rounds / t.races if t.races else 0.0,
            "spinouts_per_race": t.spinouts / t.races if t.races else 0.0,
            "eliminations_per_race": t.retired / t.races if t.races else 0.0,
            "sponsors_earned_per_race": t.sponsors / t.races if t.races else 0.0,
            "seasons_per_second": n / self.seconds if self.seconds else 0.0,
            "us_per_car_turn": self.seconds / t.car_turns * 1e6 if t.car_turns else 0.0,
        }

    def text(self) -> str:
        d, n = self.to_dict(), self.seasons
        lines = [f"{n} seasons of the {self.season} championship, {self.cars} {self.bot} bots"
                 + (f", {self.modules}" if self.modules else "")]
        lines.append("titles by car: " + ", ".join(
            f"car {int(k) + 1}: {v} ({v / n:.0%})" for k, v in d["titles_by_car"].items()))
        lines.append("mean points by car: " + ", ".join(
            f"car {int(k) + 1}: {v:.1f}" for k, v in d["mean_points_by_car"].items()))
        lines.append("mean final place by car: " + ", ".join(
            f"car {int(k) + 1}: {v:.2f}" for k, v in d["mean_place_by_car"].items()))
        lines.append(f"mean title margin: {d['mean_title_margin']:.1f} points")
        lines.append(f"{d['races']} races: {d['mean_rounds_per_race']:.2f} rounds, "
                     f"{d['spinouts_per_race']:.2f} spin-outs, "
                     f"{d['sponsors_earned_per_race']:.2f} sponsors earned, "
                     f"{d['eliminations_per_race']:.2f} cars out per race")
        jobs = f" with {self.jobs} jobs" if self.jobs > 1 else ""
        lines.append(f"seasons per second{jobs}: {d['seasons_per_second']:.1f} "
                     f"({d['us_per_car_turn']:.1f} us per car-turn)")
        return "\n".join(lines)


def simulate_seasons(*, season: str = "1961", cars: int = 6, seasons: int = 10, seed: int = 0,
                     bot: str = "heuristic", modules: dict[str, dict[str, Any]] | None = None,
                     jobs: int = 1) -> SeasonSimulation:
    """Play ``seasons`` whole seasons with seeds ``seed, seed+1, ...`` (event log off).

    ``cars`` are the bot-driven cars (Legend cars of ``modules["legends"]`` come on top);
    ``modules`` are the rules modules every race uses (SeasonSetup.modules). ``jobs``
    processes share the seasons: each depends on its seed alone, so the totals are the same
    for any number of jobs (only the speed figures differ)."""
    from .engine.championship.season import SeasonSetup

    modules = modules or {}
    legends = int(modules.get("legends", {}).get("cars", 0))
    result = SeasonSimulation(season, cars + legends, seasons, bot, legends=legends,
                              modules=describe_modules(modules), jobs=jobs)
    try:
        SeasonSetup(season=season, cars=cars + legends, seed=seed, modules=modules).validate()
    except ValueError as exc:  # options that cannot make a season: one line
        raise SetupError(str(exc)) from None
    batch = _SeasonBatch(season, cars + legends, bot, modules)
    result.seconds = _timed(batch.play, result.totals.add, seed, seasons, jobs)
    return result


@dataclass(frozen=True)
class _SeasonBatch:
    """What every season of a simulation shares (picklable: a job process gets it whole)."""

    season: str
    cars: int
    bot: str
    modules: dict[str, dict[str, Any]]

    def play(self, seeds: range) -> _SeasonTotals:
        """One season per seed; the totals."""
        from .engine.championship.season import Season, SeasonSetup

        # every race has the Garage module (sponsors are upgrade cards): bots that play them
        from .garage_bots import make_garage_bot as make

        totals = _SeasonTotals()
        for seed in seeds:
            season = Season(SeasonSetup(season=self.season, cars=self.cars, seed=seed,
                                        modules=self.modules), record_events=False)
            bots = [make(self.bot, seed=seed + c) for c in range(self.cars)]
            while True:
                race = season.race
                waiting_for, apply = race.waiting_for, race.apply
                while (car := waiting_for()) >= 0:
                    apply(bots[car].choose(race, car))
                totals.races += 1
                totals.rounds += race.round
                totals.car_turns += race.car_turns
                totals.spinouts += sum(c.spinouts for c in race.cars)
                totals.retired += sum(c.retired for c in race.cars)
                earned: dict[int, list[str]] = race.hooks.by_key[
                    "championship"].earned  # type: ignore[attr-defined]
                totals.sponsors += sum(len(cards) for cards in earned.values())
                totals.tracks[race.track.key] += 1
                if race.hall_of_fame:
                    totals.race_wins[race.hall_of_fame[0]] += 1
                if season.over:
                    break
                season.next_race()
            ranking, points = season.standings(), season.totals()
            totals.titles[ranking[0]] += 1
            totals.margin += points[ranking[0]] - (points[ranking[1]] if len(ranking) > 1 else 0)
            for place, car in enumerate(ranking, start=1):
                totals.places[car] += place
                totals.points[car] += points[car]
        return totals
