"""Many bot races in a row: winner statistics and engine speed."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .bots import make_bot
from .engine.race import Race
from .engine.setup import RaceSetup
from .module_args import SetupError, describe_modules
from .trackfile import load_track


@dataclass
class SimulationResult:
    """Totals over a batch of races.

    Example (what ``pitboard simulate`` prints, as text or ``--json``)::

        >>> result = simulate(track="usa", cars=2, laps=1, races=2, seed=0)
        >>> result.races, sum(result.wins.values()), result.text().splitlines()[0]
        (2, 2, '2 races, 2 heuristic bots, usa, 1 lap(s)')
        >>> sorted(result.to_dict())[:4]
        ['bot', 'cars', 'laps', 'legend_wins']
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
        lines.append(f"races per second: {d['races_per_second']:.0f} "
                     f"({d['us_per_car_turn']:.1f} us per car-turn)")
        return "\n".join(lines)


def simulate(*, track: str = "usa", cars: int = 6, laps: int | None = None, races: int = 100,
             seed: int = 0, bot: str = "heuristic",
             modules: dict[str, dict[str, Any]] | None = None) -> SimulationResult:
    """Race ``races`` times with seeds ``seed, seed+1, ...`` (event log off: not needed here).

    ``cars`` are the bot-driven cars; ``modules`` are RaceSetup.modules (Legend cars in
    ``modules["legends"]["cars"]`` come on top of ``cars``; with ``garage`` the bots draft and
    use upgrades)."""
    t = load_track(track)
    modules = modules or {}
    legends = int(modules.get("legends", {}).get("cars", 0))
    result = SimulationResult(t.key, cars, laps or t.laps, races, bot, legends=legends,
                              modules=describe_modules(modules))
    try:
        Race(RaceSetup(track=t.key, cars=cars + legends, seed=seed, laps=laps,
                       modules=modules), track=t, record_events=False)
    except ValueError as exc:  # options or track that cannot make a race: one line
        raise SetupError(str(exc)) from None
    start = time.perf_counter()
    if modules and "garage" in modules:
        from .garage_bots import make_garage_bot as make
    else:
        make = make_bot
    for i in range(races):
        player = make(bot, seed=seed + i)
        race = Race(RaceSetup(track=t.key, cars=cars + legends, seed=seed + i, laps=laps,
                              modules=modules), track=t, record_events=False)
        grid = sorted(race.cars, key=race.ahead_key, reverse=True)
        waiting_for, apply, choose = race.waiting_for, race.apply, player.choose
        while (car := waiting_for()) >= 0:  # -1 once the race is over
            apply(choose(race, car))
        winner = race.hall_of_fame[0]
        result.wins[winner] += 1
        result.wins_by_grid[[c.id for c in grid].index(winner)] += 1
        result.rounds += race.round
        result.car_turns += race.car_turns
        result.spinouts += sum(c.spinouts for c in race.cars)
    result.seconds = time.perf_counter() - start
    return result

