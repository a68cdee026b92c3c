"""What the parts of :class:`~pitboard.table.table.Table` share: its events, the display and
journal protocols, the kiosk options, and :class:`TableBase`, the attributes and methods the
parts use of each other (the mixins of :mod:`~pitboard.table.table_lobby`,
:mod:`~pitboard.table.table_turns` and :mod:`~pitboard.table.table_kiosk` are type-checked
against it; :class:`~pitboard.table.table.Table` sets and defines them). Public names are
re-exported by :mod:`pitboard.table.table`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from ..bots import Bot, HeuristicBot
from ..engine.championship.season import Season, SeasonSetup
from ..engine.decisions import Decision, Pending
from ..engine.race import Race
from ..engine.setup import RaceSetup
from ..hw.events import StationEvent
from .phone_seats import PhoneSeats, SeatEvent
from .station import Station
from .storage_problem import StorageProblem

#: queued input events beyond which the table reports itself unhealthy (no watchdog ping)
BACKLOG_LIMIT = 500


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passing (posted by the game loop when the queue is quiet).

    Example (a kiosk's attract race takes a step each ``attract_step`` s)::

        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, clock=lambda: 0.0, kiosk=KioskOptions())
        >>> table.handle(Tick(now=0.5))  # what Table.tick() hands it, with the clock's time
        >>> table.state, len(table.attract.log)
        ('attract', 1)
    """

    now: float


@dataclass(frozen=True, slots=True)
class Call:
    """Run ``fn`` on the game thread (console commands); its result goes to ``reply``.

    Example (as :class:`~pitboard.console.link.QueueLink` posts one)::

        >>> from pitboard.table.table import Table
        >>> table, replies = Table(stations=1), []
        >>> table.post(Call(lambda: table.state, replies.append))  # from any thread
        >>> table.step(timeout=0), replies  # the game thread runs it, then redraws
        (True, ['lobby'])
    """

    fn: Callable[[], Any]
    reply: Callable[[Any], None]


TableEvent = StationEvent | Tick | Call | SeatEvent


class Screen(Protocol):
    """What the table needs of a display (see :mod:`pitboard.hw.display`).

    Example (anything with ``show`` will do; the app passes the stations' displays)::

        >>> from pitboard.table.screens import render
        >>> from pitboard.table.table import Table
        >>> class Printed:
        ...     def show(self, image):
        ...         print(image.size, image.mode)
        >>> table = Table(stations=1, screens=[Printed()], render=render)  # the first frame
        (128, 64) 1
    """

    def show(self, image: Image.Image) -> None: ...


class Recorder(Protocol):
    """Where confirmed decisions go before they are shown as done (the journal).

    Calls may be buffered; :meth:`flush` runs before every redraw and must make them durable.
    See :class:`pitboard.table.recorder.JournalRecorder`. The recorder is handed what it
    writes, never the table.

    Example (the journal's recorder; a new table recovers the race after a power cut)::

        >>> import tempfile
        >>> from pathlib import Path
        >>> from pitboard.hw.events import GoPressed, SlotPressed
        >>> from pitboard.journal import Journal
        >>> from pitboard.table.recorder import JournalRecorder
        >>> from pitboard.table.table import Table
        >>> with tempfile.TemporaryDirectory() as d, Journal(Path(d)) as journal:
        ...     recorder: Recorder = JournalRecorder(journal)
        ...     table = Table(stations=1, seed=1, recorder=recorder)
        ...     table.handle(GoPressed(station=0)); table.handle(SlotPressed(station=0, slot=6))
        ...     with Journal(Path(d)) as again:
        ...         saved = JournalRecorder(again).recover()
        >>> saved.seats, saved.setup.cars, saved.ended
        ([0], 1, False)
    """

    #: a storage problem (None when all is well), shown in the lobby
    problem: StorageProblem | None

    def race_started(self, setup: RaceSetup, seats: Sequence[int | None], *,
                     race_control: bool = False) -> None: ...

    def season_started(self, setup: SeasonSetup, seats: Sequence[int | None], *,
                       race_control: bool = False) -> None: ...

    def next_race(self, index: int, logs: Sequence[Sequence[Decision]]) -> None: ...

    def set_up(self) -> None: ...

    def legends_moved(self, confirmed: int) -> None: ...

    def cars_back(self, records: list[list[Any]]) -> None: ...

    def decision(self, decision: Decision) -> None: ...

    def undone(self, length: int) -> None: ...

    def seat_to_bot(self, car: int) -> None: ...

    def seat_back(self, car: int) -> None: ...

    def race_closed(self) -> None: ...

    def flush(self, race: Race | None, idle_bots: Collection[int]) -> None: ...


@dataclass
class KioskOptions:
    """Store-demo behaviour (hw_config ``[table] kiosk = true`` and its times).

    Example (:func:`pitboard.app.kiosk_options` makes it from a profile's ``[table]``)::

        >>> from pitboard.table.table import Table
        >>> kiosk = KioskOptions(cars=2, join_seconds=10, modules={"legends": {"cars": 2}})
        >>> table = Table(stations=2, seed=1, kiosk=kiosk)
        >>> table.state, len(table.attract.cars)  # bots (and Legends) race until a GO
        ('attract', 6)
    """

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
    #: driven cars in a kiosk race; bots take the seats nobody joined (Legends come on top)
    cars: int = 4
    #: the demo's rules modules (RaceSetup.modules) for its races and its attract loop,
    #: restored after every race; None: the modules the table was built with
    modules: dict[str, dict[str, Any]] | None = None


class TableBase:
    """The table state every part reads and writes, and the methods one part calls of another
    (defined by :class:`~pitboard.table.table.Table` or one of its mixins).

    Example (what a part reads, on the composed table)::

        >>> from pitboard.hw.events import GoPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=2, laps=1, cars=2)
        >>> table.handle(GoPressed(station=0))  # S1 joins
        >>> table.state, table.race, [st.joined for st in table.stations]
        ('lobby', None, [True, False])
        >>> table.start_race(seed=7)  # one part's method another part calls
        >>> table.state, [st.car for st in table.stations], sorted(table.bots)
        ('planning', [0, None], [1])
    """

    # set by the transitions machine (see flow.py): the state and one method per trigger
    state: str
    wake: Callable[[], bool]
    sleep: Callable[[], bool]
    checklist: Callable[[], bool]
    green_flag: Callable[[], bool]
    open_draft: Callable[[], bool]
    draft_done: Callable[[], bool]
    resume_draft: Callable[[], bool]
    plans_locked: Callable[[], bool]
    next_round: Callable[[], bool]
    race_over: Callable[[], bool]
    abandon: Callable[[], bool]
    dismiss: Callable[[], bool]
    reset: Callable[[], bool]
    resume: Callable[[], bool]
    resume_resolution: Callable[[], bool]
    resume_results: Callable[[], bool]
    resume_setup: Callable[[], bool]

    # set by Table.__init__ (see there)
    stations: list[Station]
    clock: Callable[[], float]
    seeds: random.Random
    track: str
    laps: int | None
    cars: int | None
    modules: dict[str, dict[str, Any]]
    recorder: Recorder | None
    kiosk: KioskOptions | None
    race: Race | None
    #: the championship the lobby's next start races (a season key; None: a single race)
    championship: str | None
    #: the championship season under way (``race`` is its current race), else None
    season: Season | None
    #: the race-control display (None: Legend moves go on the stations' status lines)
    race_control: Screen | None
    #: the set-up checklist: the page shown (table_setup.py)
    setup_page: int
    #: Legend moves the players have confirmed on the board, counted from the race's start
    legends_confirmed: int
    lobby_problem: str
    #: the phone seats and the join code (None: no phone seats; phone_seats.py)
    phones: PhoneSeats | None
    bots: dict[int, Bot]
    deadline: float | None
    attract: Race | None
    _waiting: set[int]

    # one part's methods another part calls
    refresh: Callable[[], None]
    start_race: Callable[..., None]
    _after_results: Callable[[], None]
    _drive: Callable[[], None]
    _sync_hands: Callable[[], None]
    _arm_join_countdown: Callable[[], None]
    _planning_key: Callable[[Station, int], None]
    _resolution_key: Callable[[Station, int], None]
    _commit_plan: Callable[[Station], None]
    _resolution_go: Callable[[Station], None]
    _enter_checklist_or_race: Callable[[], None]
    _setup_key: Callable[[Station, int], None]
    _setup_go: Callable[[Station], None]
    _confirm_legend: Callable[[Station], bool]
    _legends_unattended: Callable[[], None]
    _board_after_undo: Callable[[Race, int], None]
    _load_cars_back: Callable[[Sequence[Sequence[Any]]], None]
    _options_key: Callable[[Station, int], bool]
    _draft_step: Callable[[Pending], bool]
    _draft_key: Callable[[Station, int], None]
    _draft_go: Callable[[Station], None]
    _commit: Callable[[Decision], None]
    _commit_quiet: Callable[[Decision], None]
    _next_setup: Callable[..., RaceSetup]
    _seat: Callable[..., None]
    _seats: Callable[[], list[int | None]]
    _start_season: Callable[[int], None]
    _next_season_race: Callable[[], None]


def seat_bot(setup: RaceSetup, car: int) -> Bot:
    """The bot that drives ``car`` (a seat nobody joined, or one left idle): in a Garage race
    one that drafts and uses upgrades."""
    seed = setup.seed + car
    if "garage" in setup.modules:
        from ..garage_bots import GarageBot

        return GarageBot(seed=seed)
    return HeuristicBot(seed=seed)
