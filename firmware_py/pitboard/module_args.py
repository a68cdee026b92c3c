"""Command-line options for the Garage, Legends and Weather & road conditions modules, shared by
``pitboard demo``, ``pitboard simulate`` and ``pitboard sim``.

Parsing them imports nothing from the engine (``--help`` stays fast); :func:`race_modules`
turns them into ``RaceSetup.modules``.

Example::

    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_module_options(p)
    >>> args = p.parse_args(["--legends", "2", "--weather", "fog", "--road-conditions"])
    >>> race_modules(args, cars=3)
    {'legends': {'cars': 2}, 'weather': {'weather': 'fog', 'road': True}}
"""

from __future__ import annotations

import argparse
from typing import Any

from .argtypes import whole_in
from .catalog import MAX_CARS, WEATHER_TOKENS

#: Pro Legends: the most that may be added to every top speed
MAX_PRO = 6


class SetupError(ValueError):
    """Options that cannot make a race (too many cars...): one line, exit status 2.

    Example::

        >>> try:
        ...     check_setup(track="usa", cars=4, laps=None, modules={"legends": {"cars": 4}})
        ... except SetupError as exc:
        ...     print(exc)
        legends: 4 Legend cars leave no driven car among 4 cars (solo is 1 player against Legends)
    """


def _road(text: str) -> dict[str, str]:
    """``1=overheat,3=weather`` -> {"1": "overheat", "3": "weather"} (names checked later)."""
    road: dict[str, str] = {}
    for part in text.split(","):
        corner, _, token = part.strip().partition("=")
        if not corner.strip().isdigit() or not token.strip():
            raise argparse.ArgumentTypeError(
                f"expected CORNER=TOKEN,... like 1=overheat,3=weather, got {text!r}")
        road[corner.strip()] = token.strip().lower()
    return road


def add_module_options(p: argparse.ArgumentParser) -> None:
    """--legends, --legend-pro, --aggressive-legends, --weather, --road-conditions."""
    p.add_argument("--legends", type=whole_in(0, MAX_CARS - 1, "legends"), default=0,
                   metavar="N",
                   help="add N Legend cars (the Legends module) to the --cars driven ones; "
                        f"all cars together at most {MAX_CARS} (default 0)")
    p.add_argument("--legend-pro", type=whole_in(0, MAX_PRO, "legend-pro"), default=0,
                   metavar="N",
                   help=f"Pro Legends: add N (0..{MAX_PRO}) to every Legend top speed "
                        "(default 0)")
    p.add_argument("--aggressive-legends", action="store_true",
                   help="Aggressive Legends: they may cross 2 corner lines where the track "
                        "prints chevrons")
    p.add_argument("--weather", choices=("random", *WEATHER_TOKENS), default=None,
                   help="race with a weather token (the Weather & road conditions module): "
                        "random draws one from the seed (default: no weather)")
    p.add_argument("--road-conditions", nargs="?", const=True, default=None, type=_road,
                   metavar="CORNER=TOKEN,...",
                   help="road-condition tokens: alone, one for every corner drawn from the "
                        "seed; or fixed ones, e.g. 1=overheat,3=weather (tokens: overheat, "
                        "limit-1, limit+1, weather, free-boost, slipstream+1). Implies "
                        "--weather random unless --weather is given")


def add_garage_options(p: argparse.ArgumentParser) -> None:
    """--garage, --upgrades, --expansions (the Garage module)."""
    p.add_argument("--garage", choices=("random", "draft", "snake"), default=None,
                   help="race with the Garage module: 3 upgrades each, dealt at random, "
                        "drafted, or snake-drafted (default: no Garage)")
    p.add_argument("--upgrades", choices=("basic", "advanced", "all"), default="all",
                   help="the Garage pool: basic, advanced or all upgrade cards (default all)")
    p.add_argument("--expansions", action="store_true",
                   help="add the Heavy Rain and Tunnel Vision upgrades to the Garage pool")


def race_modules(args: argparse.Namespace, *, cars: int) -> dict[str, dict[str, Any]]:
    """``RaceSetup.modules`` for the parsed options; ``cars`` is the number of driven cars.

    Raises SetupError (one line) when the cars do not fit."""
    modules: dict[str, dict[str, Any]] = {}
    legends = int(getattr(args, "legends", 0) or 0)
    if cars + legends > MAX_CARS:
        raise SetupError(f"{cars} cars + {legends} Legends = {cars + legends} cars, but a race "
                         f"has at most {MAX_CARS} (lower --cars or --legends)")
    if legends:
        legend: dict[str, Any] = {"cars": legends}
        if args.legend_pro:
            legend["pro"] = args.legend_pro
        if args.aggressive_legends:
            legend["aggressive"] = True
        modules["legends"] = legend
    elif args.legend_pro or args.aggressive_legends:
        raise SetupError("--legend-pro and --aggressive-legends need --legends N")
    if args.weather is not None or args.road_conditions is not None:
        weather: dict[str, Any] = {"weather": args.weather or "random"}
        if args.road_conditions is not None:
            weather["road"] = args.road_conditions
        modules["weather"] = weather
    if getattr(args, "garage", None) is not None:
        modules["garage"] = {"choose": args.garage, "pool": args.upgrades,
                             "expansions": args.expansions}
    elif getattr(args, "expansions", False) or getattr(args, "upgrades", "all") != "all":
        raise SetupError("--upgrades and --expansions need --garage random|draft|snake")
    return modules


def check_setup(*, track: str, cars: int, laps: int | None,
                modules: dict[str, dict[str, Any]]) -> None:
    """Build the race once (seed 0) so options the engine refuses (an unknown road token, a
    corner the track does not have) are a SetupError now, not a traceback later."""
    from .engine.race import Race
    from .engine.setup import RaceSetup
    from .trackfile import TrackFileError, load_track

    try:
        t = load_track(track)
    except TrackFileError:
        return  # the command reports the track itself
    try:
        Race(RaceSetup(track=t.key, cars=cars, seed=0, laps=laps, modules=modules), track=t,
             record_events=False)
    except ValueError as exc:
        raise SetupError(str(exc)) from None


def describe_modules(modules: dict[str, dict[str, Any]]) -> str:
    """A few words for a report line, e.g. '4 Legends, weather random, road conditions'."""
    words = []
    legends = modules.get("legends")
    if legends:
        extra = [f"pro +{legends['pro']}"] if legends.get("pro") else []
        extra += ["aggressive"] if legends.get("aggressive") else []
        words.append(f"{legends['cars']} Legends" + (f" ({', '.join(extra)})" if extra else ""))
    garage = modules.get("garage")
    if garage:
        plus = " + expansions" if garage.get("expansions") else ""
        words.append(f"Garage {garage.get('choose', 'draft')}, {garage.get('pool', 'all')} "
                     f"upgrades{plus}")
    weather = modules.get("weather")
    if weather:
        words.append(f"weather {weather['weather']}")
        road = weather.get("road")
        if isinstance(road, dict):
            words.append("road " + ",".join(f"{c}={t}" for c, t in road.items()))
        elif road:
            words.append("road conditions")
    return ", ".join(words)
