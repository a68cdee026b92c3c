"""The table: one game thread turning station inputs into engine decisions and screens.

Everything here runs on the game thread. Input backends (gpiozero callbacks, the MCP23017 INT
line, the serial console, the desktop keyboard) only call :meth:`Table.post`; the game thread's
:meth:`Table.run` takes events off the queue and hands each to :meth:`Table.handle`, which tests
call directly. The engine stays pure; this module owns bots, seats and the journal hooks.
"""

from __future__ import annotations

import contextlib
import logging
import math
import queue
import random
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from ..bots import Bot, HeuristicBot
from ..catalog import NOT_AT_THE_TABLE
from ..engine import decisions as dec
from ..engine.cards import DISCARDABLE, PLAYABLE
from ..engine.decisions import Decision, Discard, IllegalDecision, Plan, Slipstream
from ..engine.legends import legend_count, load_legend_cards
from ..engine.modules import MODULES
from ..engine.race import Race
from ..engine.setup import MAX_CARS, RaceSetup
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
from ..trackfile import load_track, track_names, track_ref
from . import flow
from .chatter import ChatterGuard
from .hand import in_hand_order, short_problem
from .recorder import SavedRace
from .station import SLOTS, Station
from .turn import DISCARD_KEY, GO_KEY, TOGGLES, TurnIntent, shown_for
from .view import StationView
from .views import TableScene, station_view

log = logging.getLogger("pitboard.table")

#: queued input events beyond which the table reports itself unhealthy (no watchdog ping)
BACKLOG_LIMIT = 500


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passing (posted by the game loop when the queue is quiet)."""

    now: float


@dataclass(frozen=True, slots=True)
class Call:
    """Run ``fn`` on the game thread (console commands); its result goes to ``reply``."""

    fn: Callable[[], Any]
    reply: Callable[[Any], None]


TableEvent = StationEvent | Tick | Call


class Screen(Protocol):
    """What the table needs of a display (see :mod:`pitboard.hw.display`)."""

    def show(self, image: Image.Image) -> None: ...


class Recorder(Protocol):
    """Where confirmed decisions go before they are shown as done (the journal).

    Calls may be buffered; :meth:`flush` runs before every redraw and must make them durable.
    See :class:`pitboard.table.recorder.JournalRecorder`. The recorder is handed what it
    writes, never the table.
    """

    #: one line about a storage problem ("" when all is well), shown in the lobby
    problem: str

    def race_started(self, setup: RaceSetup, seats: Sequence[int | None]) -> None: ...

    def decision(self, decision: Decision) -> None: ...

    def undone(self, length: int) -> None: ...

    def seat_to_bot(self, car: int) -> None: ...

    def seat_back(self, car: int) -> None: ...

    def race_closed(self) -> None: ...

    def flush(self, race: Race | None, idle_bots: Collection[int]) -> None: ...


@dataclass
class KioskOptions:
    """Store-demo behaviour (hw_config ``[table] kiosk = true`` and its times)."""

    #: a seat the table waits for, untouched this long, is played by a bot -- when someone
    #: else is still at the table (nobody is held up by a table everyone has left)
    seat_idle_seconds: float = 30.0
    #: no press at any seat this long during a race: it is abandoned for the attract loop
    table_idle_seconds: float = 120.0
    #: lobby countdown after the first player joins
    join_seconds: float = 20.0
    #: results stay up this long before the attract loop returns
    results_seconds: float = 30.0
    #: seconds between two decisions of the attract race (so people can watch)
    attract_step: float = 0.5
    track: str = "usa"
    laps: int = 1
    #: cars in a kiosk race; bots take the seats nobody joined
    cars: int = 4


class Table:
    """The table flow and every station.

    Example::

        table = Table(stations=2)
        table.handle(GoPressed(station=0))      # S1 joins
        table.handle(SlotPressed(station=0, slot=6))   # RACE
        table.state                             # 'planning'
    """

    # set by the transitions machine (see flow.py): the state and one method per trigger
    state: str
    wake: Callable[[], bool]
    sleep: Callable[[], bool]
    green_flag: Callable[[], bool]
    plans_locked: Callable[[], bool]
    next_round: Callable[[], bool]
    race_over: Callable[[], bool]
    abandon: Callable[[], bool]
    dismiss: Callable[[], bool]
    reset: Callable[[], bool]
    resume: Callable[[], bool]
    resume_resolution: Callable[[], bool]
    resume_results: Callable[[], bool]

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
        #: one line: why the lobby's choices could not be raced ("" when they can)
        self.lobby_problem = ""
        self.bots: dict[int, Bot] = {}
        self.queue: queue.Queue[TableEvent] = queue.Queue()
        self.views: list[StationView | None] = [None] * stations
        self.frames = 0
        self._acting: int | None = None  # station of the event being handled: drawn first
        self.deadline: float | None = None  # kiosk countdowns
        self.attract: Race | None = None
        #: called on the game thread after every handled event (console event stream)
        self.observers: list[Callable[[Table], None]] = []
        self._waiting: set[int] = set()  # cars the table waits for (idle clocks)
        #: physical inputs only (a keyboard or autoplay may press faster than any person)
        self.chatter = chatter
        self.machine = flow.build_machine(self, initial=flow.ATTRACT if kiosk else flow.LOBBY)
        if kiosk:
            self.track, self.laps = track_ref(kiosk.track), kiosk.laps
            self.cars = kiosk.cars
            self._start_attract()
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
        return True

    def tick(self) -> None:
        """Let time pass (kiosk timers, idle seats)."""
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
        now = self.clock()
        if isinstance(event, Call):
            try:
                result = event.fn()
            except Exception as exc:  # report to the caller, keep the table going
                result = exc
            self.refresh()  # durable and drawn before the caller hears "done"
            event.reply(result)
            return
        if isinstance(event, Tick):
            self._tick(event.now)
        else:
            st = self._station(event.station)
            if st is None:
                return
            self._acting = st.index
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

    # ------------------------------------------------------------------ lobby
    def _slot(self, st: Station, slot: int) -> None:
        if not 0 <= slot < SLOTS:
            return
        if self.state == flow.LOBBY:
            self._lobby_key(st, slot)
        elif self.state == flow.PLANNING:
            self._planning_key(st, slot)
        elif self.state == flow.RESOLUTION:
            self._resolution_key(st, slot)

    def _lobby_key(self, st: Station, slot: int) -> None:
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
        elif state == flow.PLANNING:
            self._commit_plan(st)
        elif state == flow.RESOLUTION:
            self._resolution_go(st)
        elif state == flow.RESULTS:
            self._after_results()

    def lobby_summary(self) -> tuple[str, int, int]:
        """(track, laps, cars) the next race would use; track is a key or a track file path."""
        track = load_track(self.track)
        joined = sum(s.joined for s in self.stations)
        cars = max(self.cars or 0, joined, 1)
        return self.track, self.laps or track.laps, min(cars, MAX_CARS)

    def set_module(self, key: str, options: Mapping[str, Any] | None) -> None:
        """Race the next race with module ``key`` and these ``options`` (None: without it).

        Raises ValueError (one line) for a module that is not registered, or options the
        module refuses for the race the lobby would start now; nothing changes then.
        """
        if key not in MODULES:
            known = ", ".join(sorted(MODULES)) or "none installed"
            raise ValueError(f"unknown module {key!r} (modules: {known})")
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
        setup = self._next_setup(self.modules,
                                 seed=self.seeds.randrange(1 << 31) if seed is None else seed)
        try:
            setup.validate()
        except ValueError as exc:  # e.g. module options the engine refuses for these cars
            self.lobby_problem = f"can't race: {exc}"
            raise ValueError(str(exc)) from None
        self.lobby_problem = ""
        self._begin(setup)
        self.green_flag()
        self._drive()

    def _next_setup(self, modules: dict[str, dict[str, Any]], *, seed: int) -> RaceSetup:
        """The race the lobby would start with ``modules``: joined stations first, bots, then
        the Legend cars the Legends module asks for."""
        key, n_laps, n_cars = self.lobby_summary()
        players = [st for st in self.stations if st.joined]
        try:
            legends = legend_count(modules.get("legends", {}))
        except (TypeError, ValueError):
            legends = 0  # options the module refuses: validate() says why
        n_cars = min(max(n_cars, len(players)), MAX_CARS - legends)
        names = [st.name for st in players] + [f"Bot {i + 1}" for i in range(n_cars - len(players))]
        names += [f"{c.capitalize()} Legend" for c in load_legend_cards().colours[:legends]]
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
        if self.recorder is not None:
            self.recorder.race_started(self.race.setup, self._seats())

    def _seats(self) -> list[int | None]:
        """Which car each station drives (None: it does not play)."""
        return [st.car for st in self.stations]

    def _idle_cars(self) -> list[int]:
        """Cars whose seats a bot drives while their players are away."""
        return sorted(st.car for st in self.stations if st.idle_bot and st.car is not None)

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
        self.bots = {car: HeuristicBot(seed=setup.seed + car)
                     for car in range(setup.cars) if car not in seated}
        self.deadline = None

    def restore(self, saved: SavedRace) -> None:
        """Resume a journalled race: same seats, same decks, same place in the flow.

        Raises ValueError (one line) when the saved log does not replay on its setup.
        """
        load_track(saved.setup.track)  # TrackFileError (a ValueError): unknown, or file gone
        if len(saved.seats) > len(self.stations):
            raise ValueError(f"race had {len(saved.seats)} stations, this table has "
                             f"{len(self.stations)}")
        race = replay(saved.setup, list(saved.log))  # IllegalDecision is a ValueError
        if self.state != flow.LOBBY:
            self.reset()
        self.track, self.laps, self.cars = saved.setup.track, saved.setup.laps, saved.setup.cars
        self.modules = {k: dict(v) for k, v in saved.setup.modules.items()}
        if self.cars is not None:  # the next race counts driven cars; Legends come on top
            self.cars -= legend_count(self.modules.get("legends", {}))
        self._seat(saved.setup, saved.seats, saved.idle_bots)
        self.race = race
        if race.over:
            self.resume_results()
            if self.kiosk:
                self.deadline = self.clock() + self.kiosk.results_seconds
        elif race.pending().kind == dec.PLAN:
            self.resume()
        else:
            self.resume_resolution()
        self._drive()
        self._sync_hands()
        self.refresh()

    # ------------------------------------------------------------------ planning
    def _car_of(self, st: Station) -> Any:
        if self.race is None or st.car is None:
            return None
        return self.race.cars[st.car]

    def _planning_key(self, st: Station, slot: int) -> None:
        car = self._car_of(st)
        if car is None or car.planned or car.finished or st.lever_fault:
            return
        if st.paged and slot == SLOTS - 1:
            st.page += 1
            return
        visible = st.visible_slots()
        if slot >= len(visible):
            return
        index = visible[slot]
        code = st.slots[index]
        if code is None:
            return
        if not PLAYABLE[code]:
            st.message = "Heat can't be played"
            return
        st.message = ""
        st.selected ^= {index}

    def target_gear(self, st: Station) -> int:
        car = self._car_of(st)
        return st.target_gear(int(car.gear) if car is not None else 1)

    def _commit_plan(self, st: Station) -> None:
        car = self._car_of(st)
        assert self.race is not None
        if car is None or car.planned or car.finished:
            return
        if st.lever_fault:
            st.message = "fix the gear lever"
            return
        gear = self.target_gear(st)
        rule = self.race.plan_rule(car.id)
        cards = in_hand_order(car.hand, st.selected_cards())
        if gear in rule.clogged:  # the hand decides: every playable card
            cards = rule.playable
        problem = self.race.plan_problem(Plan(car.id, gear, cards))
        if problem is not None:
            st.message = short_problem(problem)
            return
        self._commit(Plan(car.id, gear, cards))
        st.clear()

    # ------------------------------------------------------------------ resolution
    def current_station(self) -> Station | None:
        race = self.race
        if race is None or race.current is None:
            return None
        car = race.current.id
        return next((s for s in self.stations if s.car == car and not s.idle_bot), None)

    def _resolution_key(self, st: Station, slot: int) -> None:
        race = self.race
        if race is None or self.current_station() is not st or race.current is None:
            return
        car = race.current.id
        phase = race.phase
        if phase in (dec.REACT, dec.SLIPSTREAM):
            intent = self._intent(st, car)
            shown = shown_for(intent, race, car)
            if slot in TOGGLES:
                intent.toggle(TOGGLES[slot], shown)
            elif slot == DISCARD_KEY and shown.discard is not None:
                intent.overrides["discard"] = True
                self._turn_go(st, car)
            elif slot == GO_KEY:
                self._turn_go(st, car)
        elif phase == dec.DISCARD:
            if st.paged and slot == SLOTS - 1:
                st.page += 1
                return
            visible = st.visible_slots()
            if slot < len(visible):
                index = visible[slot]
                code = st.slots[index]
                if code is not None and DISCARDABLE[code]:
                    st.selected ^= {index}
                elif code is not None:
                    st.message = "Heat/Stress stay in hand"

    def _resolution_go(self, st: Station) -> None:
        race = self.race
        if race is None or self.current_station() is not st or race.current is None:
            return
        car = race.current.id
        if race.phase in (dec.REACT, dec.SLIPSTREAM):
            self._turn_go(st, car)
        elif race.phase == dec.DISCARD:
            hand = race.cars[car].hand
            self._commit(Discard(car, in_hand_order(hand, st.selected_cards())))
            st.clear()

    # ------------------------------------------------------------------ the turn screen
    def _intent(self, st: Station, car: int) -> TurnIntent:
        """The station's toggles for ``car``'s turn now (fresh each car-turn)."""
        assert self.race is not None
        turn = (self.race.round, car)
        if st.turn is None or st.turn.turn != turn:
            st.turn = TurnIntent(turn=turn)
        return st.turn

    def _resolving(self, car: int, phase: str) -> bool:
        race = self.race
        return race is not None and race.phase == phase and race.current is not None \
            and race.current.id == car

    def _turn_go(self, st: Station, car: int) -> None:
        """GO on the turn screen: the React decisions shown, then the later steps (slipstream,
        discard) answered as shown (see :meth:`_answer`)."""
        assert self.race is not None
        intent = self._intent(st, car)
        shown = shown_for(intent, self.race, car)
        intent.answers = shown
        if self.race.phase == dec.SLIPSTREAM:
            self._commit(Slipstream(car, bool(shown.slipstream)))
            return
        for decision in shown.react(car):
            if not self._resolving(car, dec.REACT):
                return
            self._commit(decision)

    def _answer(self, car: int) -> Decision | None:
        """The decision a person's GO already gave for the step ``car`` is at (None: ask)."""
        race = self.race
        st = next((s for s in self.stations if s.car == car and not s.idle_bot), None)
        if race is None or st is None or st.turn is None or st.turn.answers is None \
                or st.turn.turn != (race.round, car):
            return None
        answers = st.turn.answers
        if race.phase == dec.SLIPSTREAM and answers.slipstream is not None:
            return Slipstream(car, answers.slipstream)
        if race.phase == dec.DISCARD and answers.discard is False:
            return Discard(car, ())
        return None

    # ------------------------------------------------------------------ engine
    def _commit(self, decision: Decision) -> None:
        """Apply a decision, make it durable, then let bots and forced steps run."""
        assert self.race is not None
        try:
            self.race.apply(decision)
        except IllegalDecision as exc:  # a UI bug or a stale press: refuse, keep going
            log.warning("refused %s: %s", decision, exc)
            return
        if self.recorder is not None:
            self.recorder.decision(decision)
        self._drive()

    def _drive(self) -> None:
        """Run bot seats and forced decisions until a person must act; follow the flow."""
        race = self.race
        if race is None:
            return
        while True:
            if race.over:
                if self.state in (flow.PLANNING, flow.RESOLUTION):
                    self.race_over()
                    if self.kiosk:
                        self.deadline = self.clock() + self.kiosk.results_seconds
                return
            pending = race.pending()
            if pending.kind == dec.PLAN:
                if self.state == flow.RESOLUTION:
                    self.next_round()
                bots = [c for c in pending.cars if c in self.bots]
                if bots:
                    self._commit_quiet(self.bots[bots[0]].choose(race, bots[0]))
                    continue
                self._sync_hands()
                return
            if self.state == flow.PLANNING:
                self.plans_locked()
            car = pending.cars[0]
            if car in self.bots:
                self._commit_quiet(self.bots[car].choose(race, car))
                continue
            if pending.forced:
                self._commit_quiet(pending.options[0])
                continue
            answer = self._answer(car)
            if answer is not None:
                self._commit_quiet(answer)
                continue
            self._sync_hands()
            return

    def _commit_quiet(self, decision: Decision) -> None:
        assert self.race is not None
        self.race.apply(decision)
        if self.recorder is not None:
            self.recorder.decision(decision)

    def _sync_hands(self) -> None:
        if self.race is None:
            return
        for st in self.stations:
            if st.car is not None:
                st.sync_slots(self.race.cars[st.car].hand)

    # ------------------------------------------------------------------ console / staff
    def undo(self) -> None:
        """Take back the last decision (replayed from the log)."""
        race = self.race
        if race is None or not any(d.car not in self.bots for d in race.log):
            raise ValueError("nothing to undo")
        was = self.state
        for st in self.stations:
            st.turn = None  # a GO's later answers must not replay what is being undone
        log_ = race.log[:-1]
        # back past bot moves too, to the last decision a person made
        self.race = replay(race.setup, log_, track=race.track)
        while log_ and self._decider(self.race) in self.bots:
            log_ = log_[:-1]
            self.race = replay(race.setup, log_, track=race.track)
        if self.recorder is not None:
            self.recorder.undone(len(log_))
        pending = self.race.pending()
        target = flow.PLANNING if pending.kind == dec.PLAN else flow.RESOLUTION
        if was != target:
            self.machine.set_state(target)
        self._drive()  # bots and forced steps move again, as they would have
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
        self.race = None
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
        if self.recorder is not None:
            self.recorder.race_closed()
        self.dismiss()
        for st in self.stations:
            st.release()  # every per-seat flag, or a bot's takeover would outlive the race
        if self.kiosk:
            self.sleep()
            self._start_attract()

    # ------------------------------------------------------------------ kiosk and time
    def _arm_join_countdown(self) -> None:
        if self.kiosk is not None and any(s.joined for s in self.stations):
            self.deadline = self.clock() + self.kiosk.join_seconds

    def _start_attract(self) -> None:
        assert self.kiosk is not None
        self.attract = Race(RaceSetup(track=self.kiosk.track, cars=MAX_CARS, laps=1,
                                      seed=self.seeds.randrange(1 << 31),
                                      names=tuple(f"Bot {i + 1}" for i in range(MAX_CARS))))
        self._attract_bot = HeuristicBot()
        self.deadline = self.clock() + self.kiosk.attract_step

    def _tick(self, now: float) -> None:
        kiosk = self.kiosk
        if kiosk is None or (self.deadline is None and self.state not in (
                flow.PLANNING, flow.RESOLUTION)):
            return
        state = self.state
        if state == flow.ATTRACT and self.deadline is not None and now >= self.deadline:
            race = self.attract
            if race is None or race.over:
                self._start_attract()
                return
            race.apply(self._attract_bot.choose(race, race.waiting_for()))
            self.deadline = now + kiosk.attract_step
        elif state == flow.LOBBY and self.deadline is not None and now >= self.deadline:
            if any(s.joined for s in self.stations):
                try:
                    self.start_race(track=kiosk.track, laps=kiosk.laps, cars=kiosk.cars)
                except ValueError as exc:  # shown in the lobby; staff fix the presets
                    log.error("kiosk race refused: %s", exc)
                    self.deadline = None
            else:
                self.sleep()
                self._start_attract()
        elif state == flow.RESULTS and self.deadline is not None and now >= self.deadline:
            self._after_results()
        elif state in (flow.PLANNING, flow.RESOLUTION):
            self._idle_takeover(now, kiosk)

    def _take_seat_back(self, st: Station) -> None:
        """A player back at a seat a bot took over while they were away drives again."""
        if st.car is None or self.race is None or self.race.over:
            return
        if st.lever_fault:
            st.message = "fix the gear lever"  # the bot keeps driving until it reads a gear
            return
        st.idle_bot = False
        self.bots.pop(st.car, None)
        st.clear()
        st.message = "welcome back"
        if self.recorder is not None:
            self.recorder.seat_back(st.car)
        self._sync_hands()

    def _idle_takeover(self, now: float, kiosk: KioskOptions) -> None:
        """Idle seats during a race. A seat untouched for ``seat_idle_seconds`` while it was
        their move goes to a bot, unless every player is in the same case (then nobody is
        held up: the table waits). No press at any seat for ``table_idle_seconds``: everyone
        has left, back to the attract loop."""
        race = self.race
        if race is None:
            return
        seated = [st for st in self.stations if st.car is not None]
        if seated and now - max(st.last_input for st in seated) >= kiosk.table_idle_seconds:
            if self.recorder is not None:
                self.recorder.race_closed()
            self.race = None  # everyone left: back to the attract loop
            self.abandon()
            for st in self.stations:
                st.release()
            self.sleep()
            self._start_attract()
            return
        waiting = set(race.pending().cars)
        players = [st for st in seated if not st.idle_bot]
        idle = [st for st in players if st.car in waiting
                and now - st.last_input >= kiosk.seat_idle_seconds]
        if not idle or len(idle) == len(players):
            return
        for st in idle:
            assert st.car is not None
            if st.lever_fault:
                log.warning("station %s: the gear lever has read no valid gear (contacts "
                            "%s closed) for %d s; a bot takes the seat", st.name,
                            "+".join(map(str, st.lever_fault)), now - st.last_input)
            st.idle_bot = True
            self.bots[st.car] = HeuristicBot(seed=race.setup.seed + st.car)
            if self.recorder is not None:
                self.recorder.seat_to_bot(st.car)
        self._drive()

    def _note_waiting(self) -> None:
        """Start a seat's idle clock when the table starts waiting for it (not at its last
        press: a player who waited for others has not been idle)."""
        race = self.race
        waiting: set[int] = set()
        if race is not None and not race.over and self.state in (flow.PLANNING,
                                                                 flow.RESOLUTION):
            waiting = set(race.pending().cars)
        if waiting != self._waiting:
            now = self.clock()
            for st in self.stations:
                if st.car in waiting and st.car not in self._waiting:
                    st.last_input = max(st.last_input, now)
            self._waiting = waiting

    # ------------------------------------------------------------------ screens
    def scene(self) -> TableScene:
        """What the station views are built from (see :mod:`pitboard.table.views`)."""
        countdown = None
        if self.kiosk is not None and self.deadline is not None and self.state == flow.LOBBY:
            countdown = max(0, math.ceil(self.deadline - self.clock()))
        current = self.current_station()
        return TableScene(
            state=self.state, stations=self.stations, lobby=self.lobby_summary(),
            race=self.race, attract=self.attract,
            current=current.index if current is not None else None,
            storage_problem=self.recorder.problem if self.recorder is not None else "",
            countdown=countdown, modules=self.modules, lobby_problem=self.lobby_problem)

    def refresh(self) -> None:
        """Rebuild every station's view; render and show only the ones that changed."""
        if self.recorder is not None:
            self.recorder.flush(self.race, self._idle_cars())
        self._note_waiting()
        scene = self.scene()
        # the station that acted is drawn first: its player is the one waiting for the glass
        first = self._acting
        for st in sorted(self.stations, key=lambda s: s.index != first):
            view = station_view(scene, st)
            if view == self.views[st.index]:
                continue
            self.views[st.index] = view
            if self.render is not None and st.index < len(self.screens):
                self.screens[st.index].show(self.render(view))
                self.frames += 1
        for observer in self.observers:
            observer(self)



def _input_name(st: Station, event: StationEvent) -> str | None:
    """How people name the input ``event`` came from ("S2 slot 4"), for presses and moves."""
    if isinstance(event, SlotPressed):
        return f"{st.name} slot {event.slot + 1}"
    if isinstance(event, GoPressed):
        return f"{st.name} GO"
    if isinstance(event, LeverMoved):
        return f"{st.name} lever"
    return None
