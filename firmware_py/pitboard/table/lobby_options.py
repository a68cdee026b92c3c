"""The lobby's rules pages: module options chosen with a station's tray buttons (no keyboard).

The lobby's fourth tray button, **OPTS**, turns a station's lobby through its pages: the race
(track, laps, cars), then the Garage, Legends, the Weather and the championship SEASON (and, on
a table with phone seats, PHONES: the join code and its QR code, :mod:`.join_screen`). On a
module page the first three buttons each step one option through its values; RACE stays on the
last button and GO still joins. Every station keeps its own page; the choices are the table's
(``Table.modules``, ``Table.championship``), so every station's race page names them before the
race starts.

=========  =============================  ===============================================
page       buttons 1, 2, 3                values
=========  =============================  ===============================================
garage     TYPE, POOL, EXP                off/random/draft/snake; basic/advanced/all;
                                          the expansions' cards off/on
legends    CARS, PRO, AGGR                0 (off)..5 Legend cars; Pro Legends +0..+6;
                                          Aggressive Legends off/on
weather    SKY, ROAD                      off/random/a token (cloud, fog...); road
                                          conditions off/on (on alone draws the weather)
season     YEAR                           off (single races)/1961/.../1965/random: RACE
                                          starts the whole season (table_season.py)
=========  =============================  ===============================================

A value the engine refuses for the race the lobby would start (5 Legends beside 2 players) is
stepped over to the next one it takes, and the station says why in one line; when none fits
nothing changes. The same vocabulary serves the console's ``garage``, ``legends`` and
``weather`` commands (:func:`garage_options`, :func:`legends_options`,
:func:`weather_options`).

Example::

    >>> garage_options("draft", pool="basic")
    {'choose': 'draft', 'pool': 'basic', 'expansions': False}
    >>> legends_options(0) is None, weather_options("off", road=True)
    (True, {'weather': 'random', 'road': True})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..catalog import MAX_CARS, SEASONS, WEATHER_TOKENS
from ..module_args import MAX_PRO
from .canvas import WIDTH
from .fonts import TINY
from .season_view import season_words
from .station import Station
from .table_base import TableBase
from .upgrade_art import wrap
from .view import LOBBY, StationView

#: the lobby's pages, in the order OPTS turns through them ("race": track, laps, cars)
PAGES = ("race", "garage", "legends", "weather", "season")
#: the page after the modules' on a table with phone seats: how to join (join_screen.py)
JOIN_PAGE = len(PAGES)
#: the tray button that turns the pages
PAGE_KEY = 3
GARAGE_MODES = ("off", "random", "draft", "snake")
POOLS = ("basic", "advanced", "all")
WEATHERS = ("off", "random", *WEATHER_TOKENS)
LEGEND_CARS = tuple(range(MAX_CARS))  # 0 = no Legends
PRO_LEVELS = tuple(range(MAX_PRO + 1))
#: the SEASON page's values: single races, then each season of the championship
SEASON_CHOICES = ("off", *SEASONS)
_TITLES = {"garage": "GARAGE", "legends": "LEGENDS", "weather": "WEATHER", "season": "SEASON"}
_KEYS = {"garage": ("TYPE", "POOL", "EXP"), "legends": ("CARS", "PRO", "AGGR"),
         "weather": ("SKY", "ROAD", ""), "season": ("YEAR", "", "")}

Options = dict[str, Any] | None


# -- the options each module takes, from the lobby's words ----------------------------------------

def garage_options(mode: str, *, pool: str = "all", expansions: bool = False) -> Options:
    """``RaceSetup.modules["garage"]`` for a TYPE (None: ``off``)."""
    if mode == "off":
        return None
    return {"choose": mode, "pool": pool, "expansions": expansions}


def legends_options(cars: int, *, pro: int = 0, aggressive: bool = False) -> Options:
    """``RaceSetup.modules["legends"]`` for ``cars`` Legend cars (None: 0)."""
    if cars == 0:
        return None
    options: dict[str, Any] = {"cars": cars}
    if pro:
        options["pro"] = pro
    if aggressive:
        options["aggressive"] = True
    return options


def weather_options(weather: str, *, road: bool | Mapping[str, str] = False) -> Options:
    """``RaceSetup.modules["weather"]`` (None: no weather and no road tokens; road tokens alone
    come with a weather token drawn at random, as the module deals them)."""
    if weather == "off" and not road:
        return None
    options: dict[str, Any] = {"weather": "random" if weather == "off" else weather}
    if road:
        options["road"] = road if isinstance(road, bool) else dict(road)
    return options


# -- reading the table's modules back into the lobby's words --------------------------------------

def garage_words(modules: Mapping[str, Mapping[str, Any]]) -> tuple[str, str, bool]:
    """(mode, pool, expansions) of the Garage in ``modules``."""
    g = modules.get("garage")
    if g is None:
        return "off", "all", False
    return str(g.get("choose", "draft")), str(g.get("pool", "all")), bool(g.get("expansions"))


def legends_words(modules: Mapping[str, Mapping[str, Any]]) -> tuple[int, int, bool]:
    """(cars, pro, aggressive) of the Legends in ``modules``."""
    lg = modules.get("legends")
    if lg is None:
        return 0, 0, False
    cars = lg.get("cars") or len(lg.get("colours") or ())
    return int(cars), int(lg.get("pro", 0)), bool(lg.get("aggressive"))


def weather_words(modules: Mapping[str, Mapping[str, Any]]) -> tuple[str, bool | dict[str, str]]:
    """(weather, road) of the Weather in ``modules``; road is True for random tokens or the
    fixed tokens by corner a profile or the console set."""
    w = modules.get("weather")
    if w is None:
        return "off", False
    road = w.get("road", False)
    return str(w.get("weather", "random")), dict(road) if isinstance(road, Mapping) else bool(road)


def _keeping(current: Mapping[str, Any], stepped: Options) -> Options:
    """``stepped`` Legends options with what the lobby's keys do not set kept from ``current``
    (a profile's or the console's deck and helmet colours; the colours cut to the new number
    of cars, or left to the defaults when there are more cars than colours given)."""
    if stepped is None:
        return None
    options = {k: v for k, v in current.items() if k not in ("cars", "pro", "aggressive")}
    colours = options.pop("colours", None)
    if isinstance(colours, list) and len(colours) >= stepped["cars"]:
        options["colours"] = colours[: stepped["cars"]]
    return {**options, **stepped}


def _after(values: Sequence[Any], now: Any) -> list[Any]:
    """Every other value in cycle order, starting after ``now``."""
    i = values.index(now) if now in values else -1
    return [values[(i + k) % len(values)] for k in range(1, len(values))]


def choices(page: str, button: int, modules: Mapping[str, Mapping[str, Any]]
            ) -> tuple[str, list[Options]] | str:
    """(module key, the options to try in turn) for ``button`` on ``page``, or a one-line reason
    the button does nothing now."""
    if page == "garage":
        mode, pool, exp = garage_words(modules)
        if button == 0:
            return "garage", [garage_options(m, pool=pool, expansions=exp)
                              for m in _after(GARAGE_MODES, mode)]
        if mode == "off":
            return "the Garage is off: TYPE first"
        if button == 1:
            return "garage", [garage_options(mode, pool=p, expansions=exp)
                              for p in _after(POOLS, pool)]
        return "garage", [garage_options(mode, pool=pool, expansions=not exp)]
    if page == "legends":
        cars, pro, aggressive = legends_words(modules)
        kept = modules.get("legends") or {}
        if button == 0:
            return "legends", [_keeping(kept, legends_options(n, pro=pro, aggressive=aggressive))
                               for n in _after(LEGEND_CARS, cars)]
        if cars == 0:
            return "no Legends: CARS first"
        if button == 1:
            return "legends", [_keeping(kept, legends_options(cars, pro=p, aggressive=aggressive))
                               for p in _after(PRO_LEVELS, pro)]
        return "legends", [_keeping(kept, legends_options(cars, pro=pro,
                                                          aggressive=not aggressive))]
    if page == "weather":
        weather, road = weather_words(modules)
        if button == 0:
            return "weather", [weather_options(w, road=road) for w in _after(WEATHERS, weather)]
        if button == 1:
            return "weather", [weather_options(weather, road=not road)]
    return ""


def page_lines(page: str, modules: Mapping[str, Mapping[str, Any]],
               championship: str | None = None) -> tuple[str, ...]:
    """What a module page says about its options (the SEASON page: the championship)."""
    if page == "season":
        if championship is None:
            return ("championship: off", "RACE starts one race")
        return (*season_words(championship), "RACE starts the season")
    if page == "garage":
        mode, pool, exp = garage_words(modules)
        if mode == "off":
            return ("Garage: off",)
        return (f"Garage: {mode}", f"{pool} cards, expansions {'on' if exp else 'off'}")
    if page == "legends":
        cars, pro, aggressive = legends_words(modules)
        if not cars:
            return ("Legends: off",)
        return (f"Legends: {cars} car{'s' if cars > 1 else ''}",
                f"pro +{pro}, aggressive {'on' if aggressive else 'off'}")
    weather, road = weather_words(modules)
    if isinstance(road, dict):  # fixed tokens by corner (a profile, the console)
        tokens = ",".join(f"{c}={t}" for c, t in road.items())
    else:
        tokens = "on" if road else "off"
    return (f"weather: {weather}", f"road: {tokens}")


def rules_lines(modules: Mapping[str, Mapping[str, Any]],
                other: Callable[[Mapping[str, Mapping[str, Any]]], str]) -> tuple[str, ...]:
    """The race page's lines naming each module of the next race in the lobby's words, one
    line each (``other`` writes the line of a module this page does not know).

    Example::

        >>> rules_lines({"garage": {"choose": "snake", "expansions": True},
        ...              "legends": {"cars": 2, "pro": 1}, "weather": {"road": True}}, str)
        ('+ Garage snake all+exp', '+ 2 Legends pro+1', '+ weather random road')
    """
    lines = []
    for key, options in modules.items():
        if key == "garage":
            mode, pool, exp = garage_words(modules)
            lines.append(f"+ Garage {mode} {pool}{'+exp' if exp else ''}")
        elif key == "legends":
            cars, pro, aggressive = legends_words(modules)
            lines.append(f"+ {cars} Legend{'s' if cars != 1 else ''}"
                         + (f" pro+{pro}" if pro else "") + (" aggressive" if aggressive else ""))
        elif key == "weather":
            weather, road = weather_words(modules)
            tokens = "" if not road else " road" if road is True else \
                " road " + ",".join(f"{c}={t}" for c, t in dict(road).items())
            lines.append(f"+ weather {weather}{tokens}")
        else:
            lines.append(other({key: options}))
    return tuple(lines)


def options_view(st: Station, modules: Mapping[str, Mapping[str, Any]], *,
                 joined_line: str, problem: str = "",
                 championship: str | None = None) -> StationView:
    """``st``'s lobby on a module page."""
    page = PAGES[st.lobby_page % len(PAGES)]
    keys = (*_KEYS[page], "OPTS", "", "", "RACE")
    # why a value was skipped or refused: the engine's reason in full, over two small lines
    message = st.message or problem
    why = tuple(wrap(message, TINY, WIDTH - 4)[:2]) if message else ()
    lines = (*why, *page_lines(page, modules, championship), joined_line)
    return StationView(LOBBY, st.index, title=f"{st.name} {_TITLES[page]}", lines=lines,
                       soft_keys=keys)


class LobbyOptionsMixin(TableBase):
    """The OPTS key and the module pages' buttons (see :class:`~pitboard.table.table.Table`).

    Example::

        >>> from pitboard.hw.events import SlotPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=2)
        >>> table.handle(SlotPressed(station=0, slot=PAGE_KEY))  # OPTS: S1 turns to the Garage
        >>> table.views[0].title, table.views[0].soft_keys[:4]
        ('S1 GARAGE', ('TYPE', 'POOL', 'EXP', 'OPTS'))
        >>> for _ in range(2):
        ...     table.handle(SlotPressed(station=0, slot=0))  # TYPE: off, random, draft
        >>> table.modules
        {'garage': {'choose': 'draft', 'pool': 'all', 'expansions': False}}
    """

    set_module: Callable[[str, Mapping[str, Any] | None], None]
    set_championship: Callable[[str | None], None]

    def _options_key(self, st: Station, slot: int) -> bool:
        """A lobby button on a rules page, or OPTS; False: the race page's own button."""
        if slot == PAGE_KEY:
            st.lobby_page = (st.lobby_page + 1) % (len(PAGES) + (self.phones is not None))
            st.message = ""
            return True
        if st.lobby_page == JOIN_PAGE:
            return slot != 6  # only RACE does something there
        page = PAGES[st.lobby_page % len(PAGES)]
        if page == "race" or slot > 2:
            return False
        if page == "season":
            if slot == 0:
                self._step_season(st)
            return True
        found = choices(page, slot, self.modules)
        if isinstance(found, str):
            st.message = found
            return True
        key, tries = found
        refused = ""
        for options in tries:
            try:
                self.set_module(key, options)
            except ValueError as exc:  # the engine refuses it for this race: try the next
                refused = refused or str(exc)
                continue
            st.message = f"skipped: {refused}" if refused else ""
            return True
        st.message = refused
        return True

    def _step_season(self, st: Station) -> None:
        """YEAR: the next championship choice the lobby can start (single races, each season,
        random), stepping over one it refuses (the kiosk, cars a season cannot seat)."""
        now = self.championship or "off"
        refused = ""
        for choice in _after(SEASON_CHOICES, now):
            try:
                self.set_championship(None if choice == "off" else choice)
            except ValueError as exc:
                refused = refused or str(exc)
                continue
            st.message = f"skipped: {refused}" if refused else ""
            return
        st.message = refused
