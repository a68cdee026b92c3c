"""The simulated table: the device's App with emulated stations, one keyboard for all of them,
and the autopilot."""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image

from ..app import App
from ..engine.events import RaceOver
from ..engine.setup import MAX_CARS
from ..hw.display import EmulatedDisplay
from ..hwconfig import HwConfig, load_profile
from ..narrate import narrate
from ..table import flow
from ..table.keys import AutoPilot, AutoplayStuck, Keyboard, Quit
from ..trackfile import load_track

#: key presses without progress before autoplay gives up (one decision takes ~15)
STALL_LIMIT = 200
#: ``Sim(record=...)`` for the race-control display (its frames saved like a station's)
RACE_CONTROL = "rc"


class FrameTape:
    """A station screen that keeps every frame it showed (``--save-png``, ``--save-gif``).

    Wraps the station's :class:`EmulatedDisplay`; only frames that changed the picture are kept.

    Example::

        >>> from PIL import Image
        >>> tape = FrameTape(EmulatedDisplay(), clock=lambda: 0.0)
        >>> tape.show(Image.new("1", (128, 64))); tape.show(Image.new("1", (128, 64)))
        >>> len(tape.frames)
        1
    """

    def __init__(self, display: EmulatedDisplay, *, clock: Callable[[], float]) -> None:
        self.display = display
        self.clock = clock
        self.frames: list[Image.Image] = []
        self.times: list[float] = []

    def show(self, image: Image.Image) -> None:
        before = self.display.frames
        self.display.show(image)
        if self.display.frames != before:
            self.frames.append(image.copy())
            self.times.append(self.clock())

    def poll(self) -> None:
        self.display.poll()

    def close(self, *, blank: bool = True) -> None:
        self.display.close(blank=blank)

    def _scaled(self, scale: int) -> list[Image.Image]:
        if scale == 1:
            return list(self.frames)
        return [f.resize((f.width * scale, f.height * scale), Image.Resampling.NEAREST)
                for f in self.frames]

    def save_pngs(self, directory: Path, *, prefix: str, scale: int = 1) -> list[Path]:
        """One PNG per frame, ``<prefix>-0001.png`` upwards; returns the paths."""
        directory.mkdir(parents=True, exist_ok=True)
        digits = max(4, len(str(len(self.frames))))
        paths = []
        for i, image in enumerate(self._scaled(scale), start=1):
            path = directory / f"{prefix}-{i:0{digits}d}.png"
            image.save(path, format="PNG")
            paths.append(path)
        return paths

    def save_gif(self, path: Path, *, scale: int = 1) -> None:
        """All frames as one looping GIF, each shown as long as it was on screen (0.1-4 s)."""
        if not self.frames:
            raise ValueError("no frames to save")
        frames = self._scaled(scale)
        gaps = zip(self.times, self.times[1:], strict=False)
        ms = [min(max(b - a, 0.1), 4.0) * 1000 for a, b in gaps]
        ms.append(4000)  # the last frame (results) stays up before the loop restarts
        frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:],
                       duration=[round(d) for d in ms], loop=0)


class Sim:
    """The device's own table path on a desk: :class:`~pitboard.app.App` on the ``sim`` hardware
    profile, with emulated displays, the keyboard as every station's lever and tray, and the
    autopilot.

    Keys become station events posted to the table's queue, exactly as the GPIO and MCP23017
    backends post them; the game thread's step (:meth:`pump`) handles them, journal included.
    Without ``journal`` the journal lives in a temporary folder removed with the Sim; with one,
    a race left unfinished there resumes when the next Sim starts on it. ``phones``: the
    profile's phone seats are set (``[web]``), for ``pitboard run`` to serve them; each
    :meth:`tick` then also handles what the phones posted.

    Example::

        >>> sim = Sim(stations=2, seed=1)
        >>> sim.press("space"), sim.press("tab"), sim.press("space"), sim.press("j")
        (True, True, True, True)
        >>> sim.table.state, [st.car for st in sim.table.stations]
        ('planning', [0, 1])
        >>> sim.press("3"), sim.table.stations[1].lever
        (True, 3)
        >>> sim.close()
    """

    def __init__(
        self,
        stations: int = 2,
        *,
        track: str = "usa",
        laps: int | None = None,
        cars: int | None = None,
        modules: Mapping[str, Mapping[str, Any]] | None = None,
        seed: int | None = None,
        record: int | str | None = None,
        clock: Callable[[], float] = time.monotonic,
        journal: Path | None = None,
        profile: HwConfig | None = None,
        phones: bool = False,
    ) -> None:
        config = profile if profile is not None else load_profile("sim")
        if not 1 <= stations <= len(config.stations):
            raise ValueError(f"stations must be 1..{len(config.stations)}, got {stations}")
        config = replace(config, stations=config.stations[:stations],
                         table=replace(config.table, track=track, laps=laps))
        self.seed = random.randrange(1 << 31) if seed is None else seed
        self.displays = [EmulatedDisplay(rotate=spec.display.rotate, station=spec.label)
                         for spec in config.stations]
        #: the race-control display, when the profile has one (``[race_control]``)
        self.race_control = None if config.race_control is None else EmulatedDisplay(
            rotate=config.race_control.rotate, station="RC")
        screens: list[EmulatedDisplay | FrameTape] = list(self.displays)
        race_control: EmulatedDisplay | FrameTape | None = self.race_control
        #: every frame of the recorded screen (a station's index, or RACE_CONTROL)
        self.tape = None
        if record == RACE_CONTROL:
            if self.race_control is None:
                raise ValueError("the profile has no race-control display to record")
            self.tape = race_control = FrameTape(self.race_control, clock=clock)
        elif isinstance(record, int):
            self.tape = screens[record] = FrameTape(self.displays[record], clock=clock)
        self._scratch = None
        if journal is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="pitboard-sim-")
            journal = Path(self._scratch.name)
        self.journal_dir = journal
        # two players and two bots unless told otherwise: a race worth watching
        self.app = App.build(config, journal=journal, displays=screens, clock=clock,
                             seed=self.seed,
                             cars=cars if cars is not None else min(max(4, stations), MAX_CARS),
                             modules=modules, race_control_display=race_control,
                             phones=phones)
        self.table = self.app.table
        self.app.boot()  # resumes a race left unfinished in the journal
        race = self.table.race
        #: the round a journalled race resumed in (0: none resumed)
        self.resumed_round = race.round if race is not None else 0
        self.keyboard = Keyboard(stations)
        self.pilot = AutoPilot(seed=self.seed)
        self.narration: list[str] = []
        self._race: object = race
        self._events = len(race.events) if race is not None else 0  # narrate from here on
        if self.resumed_round:
            self.narration.append(f"Resumed the race journalled in {journal}, round "
                                  f"{self.resumed_round}")
        self._mark: tuple[Any, ...] = ()
        self._stalled = 0
        for event in self.keyboard.start_events():
            self.table.post(event)
        self.pump()

    def pump(self) -> None:
        """Run the game thread's step until the queue is empty (events, then polls), as
        :meth:`pitboard.app.App.run` does between two waits."""
        while self.table.step(timeout=0):
            pass
        self.app.poll()

    def tick(self) -> None:
        """Let time pass on the table (kiosk timers, idle seats), as the device does; and
        handle what came meanwhile from other threads (the phones' web server)."""
        self.pump()
        self.table.tick()
        self._narrate()

    def close(self) -> None:
        """Release the app (its journal closes) and remove a temporary journal folder."""
        self.app.close()
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None

    def press(self, key: str) -> bool:
        """Press one key (a :mod:`~pitboard.table.keys` name); False if it means quit."""
        result = self.keyboard.press(key)
        if isinstance(result, Quit):
            return False
        for event in result:
            self.table.post(event)
        self.pump()
        self._narrate()
        return True

    def autoplay_step(self) -> str | None:
        """Let the autopilot press its next key; returns it, or None when the race is over."""
        key = self.pilot.next_key(self.table, self.keyboard)
        if key is None:
            return None
        mark = self.progress()
        if mark == self._mark:
            self._stalled += 1
            if self._stalled > STALL_LIMIT:
                raise AutoplayStuck(f"{STALL_LIMIT} keys without progress in {mark[0]}")
        else:
            self._mark, self._stalled = mark, 0
        self.press(key)
        return key

    def progress(self) -> tuple[Any, ...]:
        """Changes whenever a decision is taken, someone joins, or the table state moves."""
        race = self.table.race
        return (self.table.state, id(race), len(race.log) if race is not None else 0,
                sum(st.joined for st in self.table.stations), self.table.setup_page,
                self.table.legends_confirmed, len(self.table.cars_back))

    def _narrate(self) -> None:
        race = self.table.race
        if race is None:
            return
        if race is not self._race:
            self._race, self._events = race, 0
        # the final order has its own line (results_line), with the rounds
        events = [e for e in race.events[self._events:] if not isinstance(e, RaceOver)]
        self._events = len(race.events)
        for line in narrate(events, race.setup.name):
            self.narration.extend(part for part in line.split("\n") if part)

    def image(self, station: int) -> Image.Image:
        """What the station's OLED shows now."""
        image = self.displays[station].image
        assert image is not None  # the table draws every screen when it is built
        return image

    def header(self, extra: str = "") -> str:
        """Track, laps, cars and where the race is, in one line (the seed last)."""
        table = self.table
        race = table.race
        if race is not None and table.state != flow.LOBBY:
            name, laps, cars = load_track(race.setup.track).name, race.laps, race.setup.cars
        else:
            key, laps, cars = table.lobby_summary()
            name = load_track(key).name
        where = {flow.LOBBY: "lobby", flow.RESULTS: "results"}.get(
            table.state, f"round {race.round}" if race is not None else table.state)
        return (f"PITBOARD · {name} {laps} lap{'s' if laps != 1 else ''} · {cars} cars · "
                f"{where}{extra} · seed {self.seed}")

    def results_line(self) -> str:
        """The final order (or the standings of an unfinished race); "" before any race. A
        championship season: its standings, with the points."""
        race = self.table.race
        if race is None:
            return ""
        season = self.table.season
        if season is not None and season.race.over:
            points = season.totals()
            order = ", ".join(f"{i + 1}. {race.cars[c].name} {points[c]}"
                              for i, c in enumerate(season.standings()))
            done = "over" if season.over else f"after race {season.index + 1}/{len(season.plan)}"
            return f"Championship {season.setup.season} {done}: {order}"
        order = ", ".join(f"{i + 1}. {race.cars[c].name}" for i, c in enumerate(
            race.hall_of_fame if race.over else race.standings()))
        if race.over:
            return f"Race over after {race.round} rounds. Final order: {order}"
        return f"Race stopped in round {race.round}. Standings: {order}"
