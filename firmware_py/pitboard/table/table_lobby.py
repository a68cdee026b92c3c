"""The table's lobby: its keys, the race it would start, starting a race (the seats and the
bots), and restoring a journalled race. A mixin of :class:`~pitboard.table.table.Table`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ..catalog import NOT_AT_THE_TABLE
from ..engine import decisions as dec
from ..engine.championship.module import KEY as CHAMPIONSHIP
from ..engine.championship.season import Season, replay_season
from ..engine.garage.draft import DRAFT
from ..engine.legends import legend_count, load_legend_cards
from ..engine.modules import MODULES
from ..engine.race import Race
from ..engine.setup import MAX_CARS, RaceSetup
from ..trackfile import load_track, track_names, track_ref
from . import flow
from .legend_moves import legend_move_count
from .recorder import SavedRace
from .station import SLOTS, Station
from .table_base import TableBase, seat_bot
from .table_setup import checklist
from .trays import replay_trays

log = logging.getLogger("pitboard.table")


def legend_names(options: Mapping[str, Any]) -> list[str]:
    """The names of the Legend cars the Legends ``options`` ask for, by helmet colour ("Black
    Legend"): the colours given, else the data file's first ones, as the module seats them."""
    given = options.get("colours")
    if isinstance(given, Mapping):  # car id -> colour
        colours = [str(given[k]) for k in sorted(given, key=lambda k: int(str(k)))]
    elif isinstance(given, list):
        colours = [str(c) for c in given]
    else:
        colours = list(load_legend_cards().colours[:legend_count(options)])
    return [f"{c.capitalize()} Legend" for c in colours]


class LobbyMixin(TableBase):
    """Lobby keys, race start and restore (see :class:`~pitboard.table.table.Table`).

    Example (what the console's ``legends`` and ``new-race`` commands call)::

        >>> from pitboard.hw.events import GoPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=2, seed=1)
        >>> table.handle(GoPressed(station=0))  # S1 joins
        >>> table.set_module("legends", {"cars": 2})
        >>> table.lobby_summary()  # track, laps, driven cars
        ('usa', 2, 1)
        >>> table.start_race(seed=5)
        >>> table.state, table.race.setup.names
        ('setup', ('S1', 'Black Legend', 'Blue Legend'))
    """

    def _slot(self, st: Station, slot: int) -> None:
        if not 0 <= slot < SLOTS:
            return
        if self.state == flow.LOBBY:
            self._lobby_key(st, slot)
        elif self.state == flow.SETUP:
            self._setup_key(st, slot)
        elif self.state == flow.PLANNING:
            self._planning_key(st, slot)
        elif self.state == flow.RESOLUTION:
            self._resolution_key(st, slot)
        elif self.state == flow.DRAFT:
            self._draft_key(st, slot)

    def _lobby_key(self, st: Station, slot: int) -> None:
        if self._options_key(st, slot):  # OPTS and the module pages (lobby_options.py)
            return
        if slot == 0:
            names = track_names()
            self.track = names[(names.index(self.track) + 1) % len(names)] \
                if self.track in names else names[0]
            self.laps = None
        elif slot == 1:
            default = load_track(self.track).laps
            current = self.laps or default
            self.laps = current % 3 + 1
        elif slot == 2:
            joined = sum(s.joined for s in self.stations)
            current = self.cars or max(joined, 1)
            self.cars = current % MAX_CARS + 1
        elif slot == 6:
            with contextlib.suppress(ValueError):  # the lobby says why (lobby_problem)
                self.start_race()

    def _go(self, st: Station) -> None:
        state = self.state
        if state == flow.ATTRACT:
            self.wake()
            st.joined = True
            self._arm_join_countdown()
        elif state == flow.LOBBY:
            st.joined = not st.joined
            if self.kiosk:
                self._arm_join_countdown()
        elif state == flow.SETUP:
            self._setup_go(st)
        elif state in (flow.PLANNING, flow.RESOLUTION) and self._confirm_legend(st):
            pass  # that GO said a Legend car has been moved on the board
        elif state == flow.PLANNING:
            self._commit_plan(st)
        elif state == flow.RESOLUTION:
            self._resolution_go(st)
        elif state == flow.DRAFT:
            self._draft_go(st)
        elif state == flow.RESULTS:
            self._after_results()

    def lobby_summary(self) -> tuple[str, int, int]:
        """(track, laps, cars) the next race would use; track is a key or a track file path."""
        track = load_track(self.track)
        joined = sum(s.joined for s in self.stations)
        try:
            legends = legend_count(self.modules.get("legends", {}))
        except (TypeError, ValueError):
            legends = 0  # options the module refuses: validate() says why
        # the Legend cars take seats: the driven cars are what is left (players never leave)
        cars = max(min(self.cars or 0, MAX_CARS - legends), joined, 1)
        return self.track, self.laps or track.laps, min(cars, MAX_CARS)

    def set_module(self, key: str, options: Mapping[str, Any] | None) -> None:
        """Race the next race with module ``key`` and these ``options`` (None: without it).

        Raises ValueError (one line) for a module that is not registered, or options the
        module refuses for the race the lobby would start now; nothing changes then.
        """
        if key not in MODULES:
            known = ", ".join(sorted(MODULES)) or "none installed"
            raise ValueError(f"unknown module {key!r} (modules: {known})")
        if key == CHAMPIONSHIP:  # a season, not one race's module (table_season.py)
            raise ValueError("a championship is a whole season: the lobby's SEASON page, or "
                             "the console's 'championship SEASON'")
        if options is not None and key in NOT_AT_THE_TABLE:
            raise ValueError(NOT_AT_THE_TABLE[key])
        modules = {k: v for k, v in self.modules.items() if k != key}
        if options is not None:
            modules[key] = dict(options)
        self._next_setup(modules, seed=0).validate()
        self.modules = modules
        self.lobby_problem = ""
        self.refresh()

    def on_enter_planning(self) -> None:
        for st in self.stations:
            st.clear()

    def start_race(self, *, seed: int | None = None, track: str | None = None,
                   laps: int | None = None, cars: int | None = None) -> None:
        """Lobby → race: joined stations take the first cars, bots fill the other seats."""
        if self.state != flow.LOBBY:
            if self.race is not None and self.recorder is not None:
                self.recorder.race_closed()
            self.reset()
        if track is not None:
            self.track = track_ref(track)  # a shipped key or a track file path
        if laps is not None:
            self.laps = laps
        if cars is not None:
            self.cars = cars
        seed = self.seeds.randrange(1 << 31) if seed is None else seed
        if self.championship is not None:  # a whole season (table_season.py)
            self._start_season(seed)
            return
        try:
            setup = self._next_setup(self.modules, seed=seed)
            setup.validate()
        except ValueError as exc:  # e.g. module options the engine refuses for these cars
            self.lobby_problem = f"can't race: {exc}"
            raise ValueError(str(exc)) from None
        self.lobby_problem = ""
        self._begin(setup)
        self._enter_checklist_or_race()

    def _next_setup(self, modules: dict[str, dict[str, Any]], *, seed: int) -> RaceSetup:
        """The race the lobby would start with ``modules``: joined stations first, bots, then
        the Legend cars the Legends module asks for."""
        key, n_laps, n_cars = self.lobby_summary()
        players = [st for st in self.stations if st.joined]
        try:
            legends = legend_count(modules.get("legends", {}))
        except (TypeError, ValueError):
            legends = 0  # options the module refuses: validate() says why
        if len(players) + legends > MAX_CARS:
            plural = "s" if legends != 1 else ""
            raise ValueError(f"{len(players)} players + {legends} Legend{plural}: a race has at "
                             f"most {MAX_CARS} cars")
        n_cars = min(max(n_cars, len(players)), MAX_CARS - legends)
        names = [st.name for st in players] + [f"Bot {i + 1}" for i in range(n_cars - len(players))]
        names += legend_names(modules.get("legends", {})) if legends else []
        return RaceSetup(track=key, cars=n_cars + legends, laps=n_laps, seed=seed,
                         names=tuple(names), modules={k: dict(v) for k, v in modules.items()})

    def _begin(self, setup: RaceSetup) -> None:
        """Joined stations take the first cars, bots the others; a new journal starts."""
        players = [st.index for st in self.stations if st.joined][: setup.cars]
        seats: list[int | None] = [None] * len(self.stations)
        for car, index in enumerate(players):
            seats[index] = car
        self._seat(setup, seats)
        self.race = Race(setup)
        self.season = None
        for st in self.stations:  # the trays start from empty, as a restored table's do
            st.slots, st.tray, st.page = [None] * SLOTS, "", 0
        self._sync_hands()
        self.legends_confirmed = 0
        self._load_cars_back([])
        if self.recorder is not None:
            self.recorder.race_started(self.race.setup, self._seats(),
                                       race_control=self.race_control is not None)

    def _seats(self) -> list[int | None]:
        """Which car each station drives (None: it does not play)."""
        return [st.car for st in self.stations]

    def _seat(self, setup: RaceSetup, seats: Sequence[int | None],
              idle_bots: Collection[int] = ()) -> None:
        """Give each station its car (``seats[i]``) with a fresh tray; bots drive the rest."""
        for st in self.stations:
            st.car = seats[st.index] if st.index < len(seats) else None
            st.joined = st.car is not None
            st.idle_bot = st.car in idle_bots
            st.clear()
            st.slots = [None] * SLOTS
            st.last_input = self.clock()
        seated = {st.car for st in self.stations if st.car is not None and not st.idle_bot}
        self.bots = {car: seat_bot(setup, car) for car in range(setup.cars) if car not in seated}
        self.deadline = None

    def restore(self, saved: SavedRace) -> None:
        """Resume a journalled race: same seats, same decks, same place in the flow.

        Raises ValueError (one line) when the saved log does not replay on its setup.
        """
        load_track(saved.setup.track)  # TrackFileError (a ValueError): unknown, or file gone
        if len(saved.seats) > len(self.stations):
            raise ValueError(f"race had {len(saved.seats)} stations, this table has "
                             f"{len(self.stations)}")
        # replayed with the trays synced after each decision, as the table that was cut synced
        # them (trays.py): its trays, card by card, on stand-in stations until it replays
        trays = [Station(index=st.index, car=saved.seats[st.index]
                         if st.index < len(saved.seats) else None) for st in self.stations]
        season: Season | None = None
        setup = saved.setup
        if saved.season is not None:  # a championship season: its races so far, replayed
            season = replay_season(saved.season, [*saved.season_logs, []])
            setup = season.race.setup
        race = replay_trays(setup, list(saved.log), trays)  # IllegalDecision: ValueError
        if season is not None:
            season.race = race
        if self.state != flow.LOBBY:
            self.reset()
        self.track, self.laps, self.cars = saved.setup.track, saved.setup.laps, saved.setup.cars
        self.modules = {k: dict(v) for k, v in saved.setup.modules.items()}
        if season is not None:  # the lobby's choices become the season's
            self.modules = {k: dict(v) for k, v in season.setup.modules.items()}
            self.championship, self.laps = season.setup.season, None
        if self.cars is not None:  # the next race counts driven cars; Legends come on top
            self.cars -= legend_count(self.modules.get("legends", {}))
        self._seat(saved.setup, saved.seats, saved.idle_bots)
        for st, tray in zip(self.stations, trays, strict=True):
            st.slots, st.tray, st.page = tray.slots, tray.tray, 0
        self.race, self.season = race, season
        self.legends_confirmed = min(saved.legends_confirmed, legend_move_count(race))
        self._load_cars_back(saved.cars_back)
        self.setup_page = 0
        if race.over:
            self.resume_results()
            if self.kiosk:
                self.deadline = self.clock() + self.kiosk.results_seconds
        elif not saved.set_up and not race.log and checklist(race, season):
            self.resume_setup()  # the power went before the players confirmed the set-up
        elif race.pending().kind == DRAFT:
            self.resume_draft()
        elif race.pending().kind == dec.PLAN:
            self.resume()
        else:
            self.resume_resolution()
        if saved.race_control and self.race_control is None:
            log.warning("resumed a race played with a race-control display on a profile "
                        "without one: the Legend moves show on the stations' status lines")
            for st in self.stations:
                if st.car is not None:
                    st.message = "no race-control display here"
        if self.state != flow.SETUP:
            self._drive()
        self._sync_hands()
        self.refresh()
