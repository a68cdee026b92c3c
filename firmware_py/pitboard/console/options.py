"""The console's module commands, in the lobby's words (:mod:`pitboard.table.lobby_options`):
``garage``, ``legends`` and ``weather`` set the next race's options as a station's OPTS pages
do; ``draft`` says where the Garage draft stands.

============================================  ================================================
``garage off|random|draft|snake [pool=P]``     the Garage; P: basic, advanced, all;
``[expansions=on|off]``                        ``garage pool=basic`` alone changes one option
                                               of a Garage that is on
``legends 0-5 [pro=0-6] [aggressive=on|off]``  Legend cars (0: none)
``weather off|random|TOKEN [road=on|off]``     the weather token; road conditions
``championship off|1961|...|1965|random``      the next start races a whole season (off:
                                               single races); refused on a kiosk
``draft``                                      the draft: round, whose pick, the market, the
                                               picks so far
``standings``                                  a season's standings: points by car, the race
                                               it is at
============================================  ================================================

Options for a module that is not on (``legends pro=2`` without Legends), or ``draft`` in a race
without one, are a one-line ``ERR`` saying so; options the engine refuses for the lobby's race
are its one-line reason; nothing changes then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..catalog import SEASONS
from ..table import flow
from ..table.draft_view import draft_status, garage_of
from ..table.lobby_options import (
    GARAGE_MODES,
    LEGEND_CARS,
    POOLS,
    PRO_LEVELS,
    WEATHERS,
    Options,
    garage_options,
    garage_words,
    legends_options,
    legends_words,
    weather_options,
    weather_words,
)
from ..table.table import Table
from .command import CommandError, _Command, _Usage
from .link import TableLink
from .views import status_line

_SWITCH = {"on": True, "off": False}


class _Session(Protocol):
    table: Table
    link: TableLink


def option_commands(session: _Session) -> dict[str, _Command]:
    """The module commands of one console session."""

    def setter(key: str, vocabulary: tuple[tuple[str, ...], dict[str, Any]],
               build: Callable[[dict[str, str], Modules], Options], usage: str,
               help: str) -> _Command:
        def run(args: list[str]) -> list[str]:
            first, keys = vocabulary
            words = _words(args, first=first, keys=keys)  # ERR usage before anything else

            def apply() -> str:
                table = session.table
                if table.state not in (flow.LOBBY, flow.ATTRACT):
                    raise CommandError(f"a race is on ({table.state}): modules apply to the "
                                       "next race, 'reset' first")
                if "" not in words and key not in table.modules:
                    raise CommandError(f"{key} is not on: {usage}")
                try:
                    table.set_module(key, build(words, table.modules))
                except ValueError as exc:
                    raise CommandError(str(exc)) from None
                return status_line(table)

            return ["OK " + session.link.call(apply)]

        return _Command(run, usage, help, True)

    def draft(args: list[str]) -> list[str]:
        if args:
            raise _Usage
        return ["OK " + session.link.call(lambda: draft_line(session.table))]

    def season(args: list[str]) -> list[str]:
        if len(args) != 1 or args[0].lower() not in ("off", *SEASONS):
            raise _Usage
        choice = None if args[0].lower() == "off" else args[0].lower()

        def apply() -> str:
            table = session.table
            if table.state not in (flow.LOBBY, flow.ATTRACT):
                raise CommandError(f"a race is on ({table.state}): the championship applies to "
                                   "the next start, 'reset' first")
            try:
                table.set_championship(choice)
            except ValueError as exc:
                raise CommandError(str(exc)) from None
            return status_line(table)

        return ["OK " + session.link.call(apply)]

    def standings(args: list[str]) -> list[str]:
        if args:
            raise _Usage
        return ["OK " + session.link.call(lambda: standings_line(session.table))]

    return {
        "garage": setter("garage", (GARAGE_MODES, {"pool": POOLS, "expansions": _SWITCH}),
                         _garage, "garage off|random|draft|snake [pool=P] [expansions=on|off]",
                         "* the next race's Garage; P: basic, advanced, all"),
        "legends": setter("legends", (tuple(map(str, LEGEND_CARS)),
                                      {"pro": tuple(map(str, PRO_LEVELS)), "aggressive": _SWITCH}),
                          _legends, "legends 0-5 [pro=0-6] [aggressive=on|off]",
                          "* the next race's Legend cars (0: none)"),
        "weather": setter("weather", (WEATHERS, {"road": _SWITCH}), _weather,
                          "weather off|random|TOKEN [road=on|off]",
                          "* the next race's weather and road conditions"),
        "draft": _Command(draft, "draft", "the Garage draft: round, pick, market, picks"),
        "championship": _Command(season, "championship off|SEASON",
                                 "* the next start: a season 1961-1965|random", True),
        "standings": _Command(standings, "standings",
                              "a season: points by car, the race it is at"),
    }


Modules = Mapping[str, Mapping[str, Any]]


def _garage(words: dict[str, str], modules: Modules) -> Options:
    mode, pool, expansions = garage_words(modules)
    return garage_options(words.get("", mode), pool=words.get("pool", pool),
                          expansions=_SWITCH.get(words.get("expansions", ""), expansions))


def _legends(words: dict[str, str], modules: Modules) -> Options:
    cars, pro, aggressive = legends_words(modules)
    return legends_options(int(words.get("", cars)), pro=int(words.get("pro", pro)),
                           aggressive=_SWITCH.get(words.get("aggressive", ""), aggressive))


def _weather(words: dict[str, str], modules: Modules) -> Options:
    token, road = weather_words(modules)
    return weather_options(words.get("", token),
                           road=_SWITCH[words["road"]] if "road" in words else road)


def _words(args: list[str], *, first: tuple[str, ...], keys: dict[str, Any]) -> dict[str, str]:
    """``args`` as {"": the first word, key: value}; _Usage for anything else."""
    words: dict[str, str] = {}
    for i, arg in enumerate(args):
        arg = arg.lower()
        key, sep, value = arg.partition("=")
        if not sep and i == 0 and arg in first:
            words[""] = arg
        elif sep and key in keys and value in keys[key] and key not in words:
            words[key] = value
        else:
            raise _Usage
    if not words:
        raise _Usage
    return words


def draft_line(table: Table) -> str:
    """The ``draft`` answer (game thread), e.g. ``draft round=1/3 pick=S2 market=U7,U21
    picks=1:U11;2:-;3:U26`` (cars from 1); CommandError when there is no draft."""
    race = table.race
    garage = garage_of(race) if race is not None and table.state != flow.LOBBY else None
    if race is None or garage is None:
        planned = table.modules.get("garage", {}).get("choose")
        if planned in ("draft", "snake") and table.state in (flow.LOBBY, flow.ATTRACT):
            raise CommandError("no draft yet: it starts with the race")
        raise CommandError("the Garage is not on in this race (garage draft|snake turns it "
                           "on for the next one)")
    status = draft_status(race)
    if status is None:
        if garage.choose == "random":
            raise CommandError("no draft in this race: the Garage dealt its upgrades at random")
        raise CommandError(f"the draft is over (round {race.round} is on)")
    seat = next((st for st in table.stations if st.car == status.picker and not st.idle_bot),
                None)
    who = f"S{seat.index + 1}" if seat is not None else f"car{status.picker + 1}"
    picks = ";".join(f"{car + 1}:{','.join(keys) or '-'}"
                     for car, keys in sorted(status.picks.items()))
    kind = "drop" if status.dropping else "pick"
    return (f"draft round={status.round}/{status.rounds} {kind}={who} "
            f"market={','.join(status.market) or '-'} picks={picks}")


def standings_line(table: Table) -> str:
    """The ``standings`` answer (game thread), e.g. ``season=1961 race=2/3 points=S1:9,car3:6,
    S2:4`` (cars by place, from 1); CommandError without a season."""
    season = table.season
    if season is None:
        if table.championship is not None:
            raise CommandError(f"no standings yet: the {table.championship} season starts "
                               "with the race")
        raise CommandError("no championship season (championship SEASON, then new-race)")
    totals = season.totals()

    def who(car: int) -> str:
        seat = next((st for st in table.stations if st.car == car), None)
        return f"S{seat.index + 1}" if seat is not None else f"car{car + 1}"

    points = ",".join(f"{who(c)}:{totals[c]}" for c in season.standings())
    state = "over" if season.over else "between" if season.between else "racing"
    return (f"season={season.setup.season} race={season.index + 1}/{len(season.plan)} "
            f"{state} points={points}")
