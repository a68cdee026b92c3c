"""The set-up checklist: before the first round of a module race, what goes on the board.

A race with the Weather & road conditions or the Legends module, or a championship race,
starts with a few things only the players can do on the real board. The table lists them, one
page at a time, on every station (and on the race-control display when there is one):

* a championship race's **Event card**, its rule and the sponsors it deals, then its **Press
  Corners** (season_view.py);
* the **weather** token that goes on the billboard, and what it does in a weather sector;
* the **road-condition** token at each corner, by corner number as the board prints them (a
  chicane's two lines share one token);
* which **Legend car** goes on which grid position;
* for players who keep physical reminders: the cards the weather's set-up moves (the decks in
  Pitboard already include them, so nothing needs counting by hand).

**NEXT** (the last tray button) or **GO** on any seated station turns the page; **BACK** (the
first button) turns it back; GO on the last page starts round 1 (or the Garage draft, when the
race has one). The confirm is journalled (``{"setup": true}``): a power cut before it resumes
at the checklist (on its first page).

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=3, seed=2, laps=1, modules={
    ...     "weather": {"weather": "storm", "road": {"1": "limit-1", "2": "weather"}},
    ...     "legends": {"colours": ["red"]}}))
    >>> [page.title for page in checklist(race)]
    ['WEATHER', 'ROAD TOKENS', 'LEGEND GRID', 'CARDS']
    >>> checklist(race)[1].lines
    ('corner 1: Speed limit -1', 'corner 2: Weather')
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.championship.season import Season
from ..engine.garage.draft import DRAFT
from ..engine.legends import legend_grid
from ..engine.race import Race
from ..engine.weather import WeatherToken, load_tokens, race_weather, road_tokens
from .season_view import event_pages
from .station import SLOTS, Station
from .table_base import TableBase
from .view import SETUP, StationView

log = logging.getLogger("pitboard.table")

#: the checklist's soft keys: tray button -> what it does
BACK_KEY, NEXT_KEY = 0, SLOTS - 1
#: lines of one checklist page on a 128x64 screen (above the soft keys)
LINES_PER_PAGE = 4


@dataclass(frozen=True, slots=True)
class ChecklistPage:
    """One page of the checklist: a short title and up to :data:`LINES_PER_PAGE` lines.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1,
        ...                       modules={"legends": {"colours": ["red"]}}))
        >>> checklist(race)
        [ChecklistPage(title='LEGEND GRID', lines=('grid 1: Red Legend',))]
    """

    title: str
    lines: tuple[str, ...]


def checklist(race: Race, season: Season | None = None) -> list[ChecklistPage]:
    """The pages of ``race``'s set-up checklist (none for a race without these modules);
    ``season``: the championship season it belongs to, if any."""
    pages = [ChecklistPage(title, lines) for title, lines in event_pages(race, season)]
    tokens = load_tokens()
    weather_key = race_weather(race)
    weather = tokens.weather_token(weather_key) if weather_key is not None else None
    if weather is not None:
        effect = ", ".join(weather.sector.words()) or "nothing"
        pages.append(ChecklistPage("WEATHER", (
            f"billboard: {weather.name}", f"sectors: {effect}", "decks already changed:",
            "nothing to count")))
    road = [f"corner {n}: {tokens.road_token(key).name}" for n, key in road_tokens(race).items()]
    pages += _paged("ROAD TOKENS", road)
    grid = [f"grid {g['grid']}: {str(g['colour']).capitalize()} Legend" for g in legend_grid(race)]
    pages += _paged("LEGEND GRID", grid)
    reminders = weather_reminders(weather) if weather is not None else []
    if reminders:
        pages.append(ChecklistPage("CARDS", ("only if you keep cards:", *reminders)))
    return pages


def weather_reminders(weather: WeatherToken) -> list[str]:
    """The card moves the weather's set-up made in every player's deck and engine, for
    players who keep physical reminders (Legend cars hold no cards).

    Example::

        >>> weather_reminders(load_tokens().weather_token("rain"))
        ['each: 3 Heat engine → deck']
    """
    out = []
    if weather.stress:
        n = abs(weather.stress)
        out.append(f"each: {'+' if weather.stress > 0 else '-'}{n} Stress in deck")
    if weather.heat:
        n = abs(weather.heat)
        out.append(f"each: {'+' if weather.heat > 0 else '-'}{n} Heat in engine")
    if weather.heat_to_deck:
        out.append(f"each: {weather.heat_to_deck} Heat engine → deck")
    if weather.heat_to_discard:
        out.append(f"each: {weather.heat_to_discard} Heat engine → discard")
    return out


def _paged(title: str, lines: Sequence[str]) -> list[ChecklistPage]:
    chunks = [tuple(lines[i:i + LINES_PER_PAGE]) for i in range(0, len(lines), LINES_PER_PAGE)]
    if len(chunks) == 1:
        return [ChecklistPage(title, chunks[0])]
    return [ChecklistPage(f"{title} {i}/{len(chunks)}", chunk)
            for i, chunk in enumerate(chunks, start=1)]


def setup_view(pages: Sequence[ChecklistPage], page: int, st: Station) -> StationView:
    """What ``st`` shows on checklist page ``page``."""
    index = min(page, len(pages) - 1)
    current = pages[index]
    keys = [""] * SLOTS
    if index > 0:
        keys[BACK_KEY] = "BACK"
    last = index == len(pages) - 1
    keys[NEXT_KEY] = "RACE" if last else "NEXT"
    lines = current.lines
    if st.car is None:  # not racing: nothing to press here
        keys, lines = [""] * SLOTS, (*lines, "the players set up the board")
    return StationView(SETUP, st.index, title=f"SET-UP {index + 1}/{len(pages)} {current.title}",
                       lines=lines, soft_keys=tuple(keys))


class SetupMixin(TableBase):
    """The checklist's keys (see the module docstring); a mixin of
    :class:`~pitboard.table.table.Table`.

    Example::

        >>> from pitboard.hw.events import GoPressed, SlotPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, laps=1,
        ...               modules={"legends": {"cars": 1, "colours": ["red"]}})
        >>> table.handle(GoPressed(station=0)); table.handle(SlotPressed(station=0, slot=6))
        >>> table.state, table.views[0].title, table.views[0].lines
        ('setup', 'SET-UP 1/1 LEGEND GRID', ('grid 1: Red Legend',))
        >>> table.handle(GoPressed(station=0))  # the board is set up: round 1
        >>> table.state
        'planning'
    """

    def _enter_checklist_or_race(self) -> None:
        """A race just began: its checklist first if it has one, else round 1."""
        assert self.race is not None
        self.setup_page = 0
        if checklist(self.race, self.season):
            if any(st.car is not None and not st.idle_bot for st in self.stations):
                self.checklist()
                return
            # nobody seated to set the board up or press GO (a race of bots only): go on
            if self.recorder is not None:
                self.recorder.set_up()
        self._to_first_round()

    def _to_first_round(self) -> None:
        """The board is set up: the Garage draft if the race has one, else round 1."""
        assert self.race is not None
        if self.race.pending().kind == DRAFT:
            self.open_draft()
        else:
            self.green_flag()
        self._drive()

    def _setup_key(self, st: Station, slot: int) -> None:
        if st.car is None or self.race is None:
            return
        if slot == BACK_KEY:
            self.setup_page = max(0, self.setup_page - 1)
        elif slot == NEXT_KEY:
            self._setup_go(st)

    def _setup_go(self, st: Station) -> None:
        race = self.race
        if st.car is None or race is None:
            return
        pages = checklist(race, self.season)
        if self.setup_page < len(pages) - 1:
            self.setup_page += 1
            return
        log.info("set-up checklist confirmed at %s", st.name)
        if self.recorder is not None:
            self.recorder.set_up()
        self.setup_page = 0
        self._to_first_round()
