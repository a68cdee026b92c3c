"""The table: one game thread turning station inputs into engine decisions and screens.

Everything here runs on the game thread. Input backends (gpiozero callbacks, the MCP23017 INT
line, the serial console, the desktop keyboard) only call :meth:`Table.post`; the game thread's
:meth:`Table.run` takes events off the queue and hands each to :meth:`Table.handle`, which tests
call directly. The engine stays pure; the table owns bots, seats and the journal hooks.

:class:`Table` is assembled from parts: this module holds the threads, the event dispatch, the
staff commands (undo, reset) and the redraw; :mod:`~pitboard.table.table_lobby` the lobby, race
start and restore; :mod:`~pitboard.table.table_turns` the planning and resolution input and
driving the engine; :mod:`~pitboard.table.table_kiosk` the kiosk timers and idle seats;
:mod:`~pitboard.table.table_base` the shared events, protocols and options (re-exported here).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from PIL import Image

from ..bots import Bot
from ..engine import decisions as dec
from ..engine.championship.season import Season
from ..engine.garage.draft import DRAFT
from ..engine.race import Race
from ..engine.setup import MAX_CARS
from ..engine.snapshot import replay
from ..hw.events import (
    GoPressed,
    InputFault,
    InputFaultCleared,
    LeverFault,
    LeverFaultCleared,
    LeverMoved,
    SlotPressed,
    StationEvent,
)
from ..trackfile import track_ref
from . import flow
from .answers import acknowledgement, key_answer, press_answer
from .cars_back import CarsBackMixin
from .chatter import ChatterGuard
from .feed import TableFeed
from .lobby_options import LobbyOptionsMixin
from .phone_seats import PhoneSeats, SeatClaimed, SeatLeft
from .race_control import RaceControlView, race_control_view, render_race_control
from .station import Station
from .table_base import (
    BACKLOG_LIMIT,
    Call,
    KioskOptions,
    Recorder,
    Screen,
    TableBase,
    TableEvent,
    Tick,
)
from .table_draft import DraftMixin
from .table_kiosk import KioskMixin
from .table_lobby import LobbyMixin
from .table_season import SeasonMixin
from .table_setup import SetupMixin
from .table_turns import TurnsMixin
from .track_view import TrackViews
from .trays import replay_trays
from .view import StationView
from .views import COMMIT_LABELS, GO_LABEL, TableScene, station_view

__all__ = [
    "BACKLOG_LIMIT",
    "Call",
    "KioskOptions",
    "Recorder",
    "Screen",
    "Table",
    "TableEvent",
    "Tick",
]

log = logging.getLogger("pitboard.table")

#: redraws in a row that may leave the other stations' screens to the next one, for an event
#: already waiting (see Table.refresh): a bound, so that they come
CUT_LIMIT = 3


class Table(LobbyMixin, LobbyOptionsMixin, SeasonMixin, SetupMixin, CarsBackMixin, DraftMixin,
            TurnsMixin, KioskMixin, TableBase):
    """The table flow and every station.

    Example::

        table = Table(stations=2)
        table.handle(GoPressed(station=0))      # S1 joins
        table.handle(SlotPressed(station=0, slot=6))   # RACE
        table.state                             # 'planning'
    """

    def __init__(
        self,
        *,
        stations: int,
        screens: Sequence[Screen] | None = None,
        render: Callable[[StationView], Image.Image] | None = None,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        track: str = "usa",
        laps: int | None = None,
        cars: int | None = None,
        modules: Mapping[str, Mapping[str, Any]] | None = None,
        recorder: Recorder | None = None,
        kiosk: KioskOptions | None = None,
        names: Sequence[str] = (),
        chatter: ChatterGuard | None = None,
        race_control: Screen | None = None,
        phones: PhoneSeats | None = None,
    ) -> None:
        if not 1 <= stations <= MAX_CARS:
            raise ValueError(f"stations must be 1..{MAX_CARS}")
        self.stations = [Station(index=i, name=names[i] if i < len(names) else f"S{i + 1}")
                         for i in range(stations)]
        self.screens = list(screens or [])
        self.render = render
        self.clock = clock
        self.seeds = random.Random(seed)
        self.track = track_ref(track)  # a shipped key or a track file path
        self.laps = laps
        self.cars = cars
        #: rules modules for the races this table starts (RaceSetup.modules), e.g. Legends
        self.modules: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (modules or {}).items()}
        self.recorder = recorder
        self.kiosk = kiosk
        self.race: Race | None = None
        #: the lobby's championship choice (a season; None: single races) and the season
        #: under way (table_season.py)
        self.championship: str | None = None
        self.season: Season | None = None
        #: the optional race-control display (race_control.py); drawn after the stations
        self.race_control = race_control
        self.race_control_view: RaceControlView | None = None
        self.setup_page = 0
        self.legends_confirmed = 0
        #: one line: why the lobby's choices could not be raced ("" when they can)
        self.lobby_problem = ""
        self.bots: dict[int, Bot] = {}
        #: the stations phones may take and the join code (None: none; phone_seats.py)
        self.phones = phones
        self.queue: queue.Queue[TableEvent] = queue.Queue()
        self.views: list[StationView | None] = [None] * stations
        #: station input events handled, by station (TableFeed.handled)
        self.handled = [0] * stations
        self.frames = 0
        self._acting: int | None = None  # station of the event being handled: drawn first
        #: ... and the key it pressed when that was GO (or the turn screen's GO or DISC key:
        #: answered at once by a small change, the new screen behind it), else ""
        self._acting_go = ""
        #: ... and the tray button it pressed (a turn screen's toggle is answered by its key
        #: first, the GO line behind it), else None
        self._acting_slot: int | None = None
        self.deadline: float | None = None  # kiosk countdowns
        self.attract: Race | None = None
        #: called on the game thread after every handled event (console event stream)
        self.observers: list[Callable[[Table], None]] = []
        #: called on the game thread with the views after a redraw that changed any (feed.py):
        #: clients beside the table (the web server) get views, never the table
        self.view_observers: list[Callable[[TableFeed], None]] = []
        #: called on the game thread with the acting station once its answer is published,
        #: before the other stations' views are built: a client holding that seat (a phone)
        #: may take a moment to send it, ahead of the game thread's next work
        self.answer_handovers: list[Callable[[int], None]] = []
        self._feed: TableFeed | None = None
        #: an event was handled and no redraw has finished since (a Tick then redraws)
        self._redraw_owed = True
        self._countdown_shown: int | None = None  # the kiosk lobby's countdown on the screens
        self._cuts = 0  # redraws in a row cut short for an event waiting (CUT_LIMIT)
        self._answering: set[int] = set()  # stations whose input this redraw answers
        self._track_views = TrackViews()  # the TV's view, built for the view observers
        self._waiting: set[int] = set()  # cars the table waits for (idle clocks)
        #: physical inputs only (a keyboard or autoplay may press faster than any person)
        self.chatter = chatter
        if phones is not None:
            phones.labels.update({i: self.stations[i].name for i in phones.stations})
        self.machine = flow.build_machine(self, initial=flow.ATTRACT if kiosk else flow.LOBBY)
        if kiosk:
            if kiosk.modules is None:
                self.kiosk = replace(kiosk, modules={k: dict(v) for k, v in self.modules.items()})
            self._start_attract()  # with the kiosk's presets
        self.refresh()

    # ------------------------------------------------------------------ threads
    def post(self, event: TableEvent) -> None:
        """Thread-safe: queue an input event for the game thread."""
        self.queue.put(event)

    def run(self, stop: threading.Event, *, tick: float = 0.1) -> None:
        """The game thread: handle queued events (and a Tick when quiet) until ``stop`` is set.

        :class:`pitboard.app.App` runs its own loop around :meth:`step` to poll hardware too.
        """
        while not stop.is_set():
            if not self.step(timeout=tick):
                self.tick()

    def step(self, *, timeout: float) -> bool:
        """Handle the queued events, waiting up to ``timeout`` s for the first; False if none
        came. Then each display that changed gets one frame of the latest state: events that
        arrived while the last frames went out are coalesced, so a chattering input cannot
        queue more frames than the bus carries (at most one frame in flight per display)."""
        try:
            event: TableEvent = self.queue.get(timeout=timeout)
        except queue.Empty:
            return False
        for handled in range(1, BACKLOG_LIMIT + 1):
            self._safely(event, redraw=False)
            if handled == BACKLOG_LIMIT:  # bounded: the loop still polls hardware and ticks
                break
            try:
                event = self.queue.get_nowait()
            except queue.Empty:
                break
        self._safely_refresh()
        self._done_acting()
        return True

    def tick(self) -> None:
        """Let time pass (kiosk timers, idle seats): a redraw only for what that changed."""
        self._safely(Tick(self.clock()))

    def _safely(self, event: TableEvent, *, redraw: bool = True) -> None:
        try:
            self.handle(event, redraw=redraw)
        except Exception:  # one bad event must not stop the table
            log.exception("event %r failed", event)

    def _safely_refresh(self) -> None:
        try:
            self.refresh()
        except Exception:
            log.exception("redraw failed")

    def healthy(self) -> bool:
        """For the watchdog: the state is consistent and the game loop keeps up with its inputs
        (a backlog of :data:`BACKLOG_LIMIT` events means presses go unanswered)."""
        if self.queue.qsize() >= BACKLOG_LIMIT:
            return False
        return self.state in flow.STATES and (self.race is None or self.race.phase is not None)

    # ------------------------------------------------------------------ events
    def handle(self, event: TableEvent, *, redraw: bool = True) -> None:
        """Apply one event, drive bots and forced decisions, redraw what changed (``redraw=False``:
        the caller redraws once after a batch; see :meth:`step`)."""
        try:
            self._handle(event, redraw=redraw)
        finally:
            if redraw:
                self._done_acting()

    def _done_acting(self) -> None:
        """The acting station's frames are drawn: a later redraw (a Tick, a bot's move, a
        console command) answers nobody, so it sends no frame first and no GO answer."""
        self._acting = None
        self._acting_go = ""
        self._acting_slot = None
        self._answering.clear()

    def _handle(self, event: TableEvent, *, redraw: bool) -> None:
        now = self.clock()
        if not isinstance(event, Tick):
            self._redraw_owed = True
        if isinstance(event, Call):
            try:
                result = event.fn()
            except Exception as exc:  # report to the caller, keep the table going
                result = exc
            try:
                self.refresh()  # durable and drawn before the caller hears "done"
            finally:
                event.reply(result)  # a failed redraw must not leave the caller waiting
            return
        if isinstance(event, Tick):
            # ten a second; views are the state's and, of the time, the countdown's (six built
            # for nothing cost 1+ ms); a redraw owed is left to an event waiting (it redraws)
            owed = self._redraw_owed and self.queue.empty()
            if not self._tick(event.now) and not owed \
                    and self._countdown() == self._countdown_shown:
                return
        elif isinstance(event, SeatClaimed | SeatLeft):
            if self.phones is not None:  # a phone takes or gives up a seat (phone_seats.py)
                self.phones.handle(event, self.stations, self.state)
        else:
            st = self._station(event.station)
            if st is None:
                return
            self.handled[st.index] += 1
            self._acting = st.index
            self._answering.add(st.index)
            self._acting_go = _commit_key(event, self.views[st.index])
            self._acting_slot = event.slot if isinstance(event, SlotPressed) else None
            name = _input_name(st, event)
            if name is not None and self.chatter is not None and \
                    not self.chatter.admit(name, now=now):
                st.message = name.split(" ", 1)[1] + " chattering"  # reported once, in the log
                if redraw:
                    self.refresh()
                return
            if self._can_advance(st, event):
                st.last_input = now
            if st.idle_bot and st.car is not None and self.race is not None and \
                    isinstance(event, LeverMoved | SlotPressed | GoPressed):
                self._take_seat_back(st)
                if not isinstance(event, LeverMoved):  # that press only meant "I'm back"
                    if redraw:
                        self.refresh()
                    return
            if isinstance(event, LeverMoved):
                st.lever = event.gear
            elif isinstance(event, LeverFault):
                st.lever_fault = event.contacts
            elif isinstance(event, LeverFaultCleared):
                st.lever_fault = ()
            elif isinstance(event, InputFault):
                st.input_fault = event.message
            elif isinstance(event, InputFaultCleared):
                st.input_fault = ""
            elif isinstance(event, SlotPressed):
                self._slot(st, event.slot)
            elif isinstance(event, GoPressed):
                self._go(st)
        if redraw:
            self.refresh()

    def _can_advance(self, st: Station, event: StationEvent) -> bool:
        """Does ``event`` count as someone at ``st`` playing (it resets the idle clock)? Only
        input that can move the station's turn on: a tray tap cannot plan while the lever reads
        no valid gear, so a stuck lever cannot hold a race for ever."""
        if isinstance(event, LeverMoved):
            return True
        if not isinstance(event, SlotPressed | GoPressed):
            return False  # faults and their clearing are the hardware talking, not a player
        return not (self.state == flow.PLANNING and st.lever_fault)

    def _station(self, index: int) -> Station | None:
        if 0 <= index < len(self.stations):
            return self.stations[index]
        log.warning("input from unknown station %d ignored", index)
        return None

    # ------------------------------------------------------------------ console / staff
    def undo(self) -> None:
        """Take back the last decision (replayed from the log)."""
        race = self.race
        if race is None or not any(d.car not in self.bots for d in race.log):
            raise ValueError("nothing to undo")
        was, confirmed = self.state, self.legends_confirmed
        for st in self.stations:
            st.turn = None  # a GO's later answers must not replay what is being undone
        # the bots' moves since a person's last decision go too (they would come back at
        # once: a bot that planned first, the bots' picks after a person's last draft pick)
        n = len(race.log)
        while n and race.log[n - 1].car in self.bots:
            n -= 1
        log_ = race.log[:n - 1]
        # back past bot moves too, to the last decision a person made
        self.race = replay(race.setup, log_, track=race.track)
        while log_ and self._decider(self.race) in self.bots:
            log_ = log_[:-1]
            self.race = replay(race.setup, log_, track=race.track)
        # the trays as a table restored with this log lays them out (trays.py)
        self.race = replay_trays(race.setup, log_, self.stations, track=race.track)
        if self.season is not None:  # the season's current race is the one replayed
            self.season.race = self.race
        if self.recorder is not None:
            self.recorder.undone(len(log_))
        pending = self.race.pending()
        target = {dec.PLAN: flow.PLANNING, DRAFT: flow.DRAFT}.get(pending.kind, flow.RESOLUTION)
        if was != target:
            self.machine.set_state(target)
        self._drive()  # bots and forced steps move again, as they would have
        self._board_after_undo(race, confirmed)  # which cars the players put back
        self._sync_hands()
        for st in self.stations:
            st.clear()
        self.refresh()

    def _decider(self, race: Race) -> int:
        pending = race.pending()
        return pending.cars[0] if pending.cars else -1

    def do_reset(self) -> None:
        """Staff reset: abandon any race, back to the lobby (or attract loop in kiosk)."""
        if self.race is not None and self.recorder is not None:
            self.recorder.race_closed()
        self.race = self.season = None
        self.bots = {}
        for st in self.stations:
            st.release()
        if self.state != flow.LOBBY:
            self.reset()
        if self.kiosk:
            self.sleep()
            self._start_attract()
        self.refresh()

    def _after_results(self) -> None:
        if self.season is not None and self.season.between:  # a season goes on
            self._next_season_race()
            return
        self.season = None  # (the season is over: its final standings were on the screens)
        if self.recorder is not None:
            self.recorder.race_closed()
        self.dismiss()
        for st in self.stations:
            st.release()  # every per-seat flag, or a bot's takeover would outlive the race
        if self.kiosk:
            self.sleep()
            self._start_attract()

    # ------------------------------------------------------------------ screens
    def scene(self) -> TableScene:
        """What the station views are built from (see :mod:`pitboard.table.views`)."""
        current = self.current_station()
        problem = self.recorder.problem if self.recorder is not None else None
        return TableScene(
            state=self.state, stations=self.stations, lobby=self.lobby_summary(),
            race=self.race, attract=self.attract,
            current=current.index if current is not None else None,
            storage_problem="" if problem is None else str(problem),
            countdown=self._countdown(), modules=self.modules, lobby_problem=self.lobby_problem,
            setup_page=self.setup_page, legend_moves=self.legend_moves_waiting(),
            race_control=self.race_control is not None,
            join=self.phones.info() if self.phones is not None else None,
            season=self.season, championship=self.championship)

    def refresh(self) -> None:
        """Rebuild every station's view; render and show only the ones that changed. The
        station that acted comes first; when an event waits by then (a player pressed), the
        screens that answer no input are left to the next redraw, right behind it (at most
        :data:`CUT_LIMIT` times in a row; a Tick draws them if nothing comes)."""
        if self.phones is not None:
            self.phones.note_race(self.race)  # a new race: a new join code
        self._legends_unattended()  # journalled with the rest, before anything is drawn
        if self.recorder is not None:
            self.recorder.flush(self.race, self._idle_cars())
        self._note_waiting()
        scene = self.scene()
        self._countdown_shown = scene.countdown
        # the station that acted is drawn first: its player is the one waiting for the glass;
        # but a move on the board goes to the TVs before any station's screen is worked out
        self._publish_move(scene)
        first, cut = self._acting, False
        for st in sorted(self.stations, key=lambda s: s.index != first):
            if st.index not in self._answering and (cut or self._event_waits(first)):
                cut = True  # nobody's answer: the next redraw builds it
                continue
            answered = self._refresh_station(scene, st, first)
            if st.index == first and self.view_observers and not answered:
                # a phone that acted gets its answer before the other views are built (the
                # waiting screens' forecasts, a car move's worth of them, come behind it)
                self._answer_first(scene, st.index)
        if cut:  # a redraw is still owed; what was built goes out
            if self.view_observers:
                self._publish(scene)
            return
        if self.race_control is not None or self.view_observers:
            rc = race_control_view(scene)
            if rc != self.race_control_view:
                self.race_control_view = rc
                if self.race_control is not None:  # last: players wait for their stations
                    self.race_control.show(render_race_control(rc))
        if self.view_observers:
            self._publish(scene)
        self._redraw_owed = False
        self._cuts = 0
        for observer in self.observers:
            observer(self)

    def _event_waits(self, first: int | None) -> bool:
        """Does an event wait while this redraw answers ``first``'s input (and may it cut)?"""
        if first is None or self._cuts >= CUT_LIMIT or self.queue.empty():
            return False
        self._cuts += 1
        return True

    def _answer_first(self, scene: TableScene, station: int) -> None:
        """Publish the views as they stand, the acting station's answer in them, and let a
        phone holding that seat have it sent first."""
        self._publish(scene)
        for handover in self.answer_handovers:
            handover(station)

    def _refresh_station(self, scene: TableScene, st: Station, first: int | None) -> bool:
        """Rebuild one station's view; render and show it when it changed (``first``: the
        station that acted, answered first: :mod:`pitboard.table.answers`). True when the view
        observers were already handed the acting station's answer."""
        old = self.views[st.index]
        early = None
        published = False
        screen = self.screens[st.index] \
            if self.render is not None and st.index < len(self.screens) else None
        # a display with a writer thread (pitboard.hw.writer) sends the acting station's
        # frame ahead of frames already waiting for its bus
        urgent = getattr(screen, "show_first", None)
        # answered at once, before the new screen (its forecast) is worked out: a key or the
        # lever while planning by the tray or gear as pressed; a GO that brings a whole new
        # picture by a small change of the one in front of the player (on the glass and to
        # a phone: the new screen follows)
        if st.index == first and (urgent is not None or self.view_observers):
            early = acknowledgement(old, scene.state, self._acting_go) if self._acting_go \
                else press_answer(old, scene, st)
            published = early is not None and bool(self.view_observers)
        if early is not None and urgent is not None:
            self._show_early(urgent, early)
        if published:
            self.views[st.index] = early
            self._answer_first(scene, st.index)
        view = station_view(scene, st)
        if early is None and urgent is not None and st.index == first \
                and self._acting_slot is not None:
            # a toggle of the turn screen: its key as the new screen has it (built: the
            # resolution screen's view is cheap), the GO line right behind it
            early = key_answer(old, view, self._acting_slot)
            if early is not None:
                self._show_early(urgent, early)
        if view == old and early is None:
            return False
        self.views[st.index] = view
        if screen is not None and self.render is not None:
            show = urgent if urgent is not None and st.index == first and early is None \
                else screen.show
            show(self.render(view))  # (after an answer: the new screen right behind it)
            self.frames += 1
        return published

    def _show_early(self, urgent: Callable[[Image.Image], None], answer: StationView) -> None:
        """Send the acting station's answer ahead of every frame waiting for its bus."""
        assert self.render is not None  # (a screen with show_first is drawn by render)
        urgent(self.render(answer))
        self.frames += 1

    def _publish(self, scene: TableScene) -> None:
        """Hand the view observers the new views, when anything they show changed."""
        phones = self.phones
        feed = TableFeed(
            state=self.state, views=tuple(self.views), race_control=self.race_control_view,
            handled=tuple(self.handled), kiosk=self.kiosk is not None,
            seats=phones.seat_views(self.stations) if phones is not None else (),
            join=scene.join, season=self.season is not None,
            track=self._track_views.build(scene))
        if feed != self._feed:
            self._hand(feed)

    def _publish_move(self, scene: TableScene) -> None:
        """Hand the view observers a move (new events on the board) ahead of the stations'
        screens: the last feed with its track view alone new (a phone finds nothing new)."""
        feed = self._feed
        if not self.view_observers or feed is None or feed.track is None:
            return
        track = self._track_views.build(scene)
        if track.event_count != feed.track.event_count:
            self._hand(replace(feed, track=track))

    def _hand(self, feed: TableFeed) -> None:
        self._feed = feed
        for observer in self.view_observers:
            try:
                observer(feed)
            except Exception:  # a client's bug must not stop the table
                log.exception("view observer failed")


def _commit_key(event: StationEvent, old: StationView | None) -> str:
    """The key ``event`` pressed when it commits (GO, or the turn screen's GO or DISC soft key
    on the screen ``old``), else "": a slot under a card (the discard step's seventh card, its
    page key) is no GO."""
    if isinstance(event, GoPressed):
        return GO_LABEL
    if isinstance(event, SlotPressed) and old is not None \
            and event.slot < len(old.soft_keys) and old.soft_keys[event.slot] in COMMIT_LABELS:
        return old.soft_keys[event.slot]
    return ""


def _input_name(st: Station, event: StationEvent) -> str | None:
    """How people name the input ``event`` came from ("S2 slot 4"), for presses and moves."""
    if isinstance(event, SlotPressed):
        return f"{st.name} slot {event.slot + 1}"
    if isinstance(event, GoPressed):
        return f"{st.name} GO"
    if isinstance(event, LeverMoved):
        return f"{st.name} lever"
    return None
