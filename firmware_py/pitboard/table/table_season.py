"""A championship season at the table: one season, its races one after the other on the same
seats, one journal. A mixin of :class:`~pitboard.table.table.Table`.

The lobby's SEASON page (or the console's ``championship 1961``) turns the next start into a
season (:class:`~pitboard.engine.championship.season.Season`): the lobby's players, cars and
rules modules, the season's tracks and Events. Each race starts with its set-up checklist (the
Event card, its rule, the Press Corners; the weather and Legend cars as usual), then the Garage's
draft round when the season races upgrades, then round 1. A race over shows the results with
every car's points and the standings, and the next race: GO on any seated station starts it
(the grid by the standings, the Garage's upgrades kept). After the last race the final
standings end the season: GO goes back to the lobby. The kiosk keeps to single races.

Journal: the season's header, then each race's records behind a ``{"race": n}`` record
(:mod:`~pitboard.table.recorder`): a power cut between races resumes at the standings, one in
the middle of a race resumes that race.

Example::

    >>> from pitboard.hw.events import GoPressed
    >>> from pitboard.table.table import Table
    >>> table = Table(stations=1, seed=1, cars=2)
    >>> table.handle(GoPressed(station=0))  # S1 joins
    >>> table.set_championship("1961")
    >>> table.start_race(seed=4); table.refresh()
    >>> table.state, table.season.index, table.race.track.key, table.views[0].title
    ('setup', 0, 'great_britain', 'SET-UP 1/2 EVENT')
"""

from __future__ import annotations

import logging

from ..engine.championship.season import Season, SeasonSetup, season_names
from .station import SLOTS
from .table_base import TableBase, seat_bot

log = logging.getLogger("pitboard.table")


class SeasonMixin(TableBase):
    """Seasons at the table (see the module docstring and
    :class:`~pitboard.table.table.Table`).

    Example: the lobby refuses a season it cannot start, in one line::

        >>> from pitboard.table.table import KioskOptions, Table
        >>> table = Table(stations=1, seed=1, kiosk=KioskOptions())
        >>> table.set_championship("1961")
        Traceback (most recent call last):
        ...
        ValueError: the kiosk races single races, not a championship
    """

    def set_championship(self, season: str | None) -> None:
        """Race the lobby's next start as a championship ``season`` (``1961``..``1965``,
        ``random``; None: single races). ValueError (one line) for a season the lobby cannot
        start now (the kiosk, an unknown season, cars the season's races refuse); nothing
        changes then."""
        if season is not None:
            if self.kiosk is not None:
                raise ValueError("the kiosk races single races, not a championship")
            if season not in season_names():
                raise ValueError(f"unknown season {season!r} (seasons: "
                                 f"{', '.join(season_names())})")
            self._next_season_setup(season, seed=0).validate()
        self.championship = season
        self.lobby_problem = ""
        self.refresh()

    def _next_season_setup(self, season: str, *, seed: int) -> SeasonSetup:
        """The season the lobby would start: its players, cars, names and rules modules."""
        race = self._next_setup(self.modules, seed=seed)
        return SeasonSetup(season=season, cars=race.cars, seed=seed, names=race.names,
                           modules={k: dict(v) for k, v in race.modules.items()})

    def _start_season(self, seed: int) -> None:
        """Lobby -> the season's first race: joined stations take the first cars, bots the
        others; the season's journal starts."""
        assert self.championship is not None
        try:
            setup = self._next_season_setup(self.championship, seed=seed)
            season = Season(setup)
        except ValueError as exc:
            self.lobby_problem = f"can't race: {exc}"
            raise ValueError(str(exc)) from None
        self.lobby_problem = ""
        players = [st.index for st in self.stations if st.joined][: setup.cars]
        seats: list[int | None] = [None] * len(self.stations)
        for car, index in enumerate(players):
            seats[index] = car
        self._seat(season.race.setup, seats)
        self.season = season
        self.race = season.race
        self._fresh_trays()
        self.legends_confirmed = 0
        self._load_cars_back([])
        if self.recorder is not None:
            self.recorder.season_started(setup, self._seats(),
                                         race_control=self.race_control is not None)
        log.info("championship %s: race 1 of %d", setup.season, len(season.plan))
        self._enter_checklist_or_race()

    def _next_season_race(self) -> None:
        """GO on the standings: the season's next race, on the same seats (its grid by the
        standings). Journalled before anything is drawn."""
        season = self.season
        assert season is not None and season.between
        season.next_race()
        self.race = season.race
        self.legends_confirmed = 0
        self._load_cars_back([])
        for st in self.stations:
            st.clear()
        # the bots of the new race (their seeds follow the race's)
        self.bots = {car: seat_bot(season.race.setup, car) for car in self.bots}
        self._fresh_trays()
        if self.recorder is not None:
            self.recorder.next_race(season.index, season.logs)
        log.info("championship %s: race %d of %d", season.setup.season, season.index + 1,
                 len(season.plan))
        self._enter_checklist_or_race()

    def _fresh_trays(self) -> None:
        """Each race's trays start from empty, as a resumed table's do (trays.py)."""
        for st in self.stations:
            st.slots, st.tray, st.page = [None] * SLOTS, "", 0
        self._sync_hands()


__all__ = ["SeasonMixin"]
