"""Pitboard as a running device: hardware profile → stations, journal, table, console, systemd.

``pitboard run --config FILE`` (:mod:`pitboard.run`) builds an :class:`App` and runs it until
SIGTERM. Start-up order:
open the journal and recover the race, build the table (which redraws every station), start the
inputs and the serial console, tell systemd READY, then turn the game loop, pinging the watchdog
only while the table's health check passes.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from luma.core.error import Error as LumaError

from . import sdnotify
from .hw.display import EmulatedDisplay, open_display
from .hw.inputs import StationInputs, build_station_inputs
from .hw.mcp23017 import SMBusLike
from .hw.muxguard import MuxGuard, guarded_stations, mux_probe
from .hw.writer import BusWriter, QueuedDisplay, part_bytes
from .hwconfig import DisplayConfig, HwConfig, TableConfig, resolve_i2c_bus
from .hwconfig.schema import RACE_CONTROL_LABEL
from .journal import Journal
from .journallock import JournalBusy, JournalLock
from .table.chatter import ChatterGuard
from .table.recorder import JournalRecorder
from .table.screens import render
from .table.table import KioskOptions, Table
from .web.wiring import phone_seats

log = logging.getLogger("pitboard")

#: how often the game loop polls inputs and displays when no event arrives (s). An MCP23017's
#: INT read happens at the edge, in gpiozero's thread, but its confirming read waits for this
#: poll: 2 ms keeps button-to-glass short (benchmarks/press_to_glass.py) for a few % of a core
POLL_SECONDS = 0.002
#: ... and while an input change waits for its confirming sample (a press counts ~2-3 ms after
#: its first edge: see pitboard.hw.inputs)
FAST_POLL_SECONDS = 0.001
#: Tick events (kiosk timers, idle seats) at this period (s)
TICK_SECONDS = 0.1

#: how long boot() waits for the display writers to draw every station (s)
BOOT_DRAW_SECONDS = 5.0
#: how long start-up waits for the I2C buses (the i2c-mux channels appear a moment after the
#: kernel loads the overlay, and the service may start before that)
BOOT_WAIT_SECONDS = 20.0


def with_gpiozero(*errors: type[Exception]) -> tuple[type[Exception], ...]:
    """``errors`` and gpiozero's base error, once something has imported gpiozero (a profile
    with nothing wired -- the sim, phones only -- never does: its start-up is spared
    gpiozero's 60 ms of imports); an ``except`` clause calls it when an exception is raised."""
    gpiozero = sys.modules.get("gpiozero")
    return (*errors, gpiozero.GPIOZeroError) if gpiozero is not None else errors


class StartupError(Exception):
    """The device cannot start (a bus that does not open, an unreadable journal directory).

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> try:
        ...     wait_for_hardware(load_profile("duo"), seconds=0, sleep=lambda s: None,
        ...                       check=lambda config: ["no /dev/i2c-1 (enable I2C)"])
        ... except StartupError as exc:
        ...     print(exc)
        no /dev/i2c-1 (enable I2C)
    """


def wait_for_hardware(
    config: HwConfig,
    *,
    seconds: float = BOOT_WAIT_SECONDS,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    check: Callable[[HwConfig], list[str]] | None = None,
) -> None:
    """Wait up to ``seconds`` for what the profile needs (buses, mux channels, SPI, modules),
    saying so in one status line; then :class:`StartupError` naming the first missing thing
    and its fix. A missing Python module is not worth waiting for: it fails at once."""
    from .hwconfig import missing

    look = check or missing
    start = clock()
    said = ""
    while True:
        problems = look(config)
        if not problems:
            if said:
                log.info("hardware ready after %.1f s", clock() - start)
            return
        waited = clock() - start
        fatal = [p for p in problems if p.startswith("Python module")]
        if fatal or waited >= seconds:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise StartupError((fatal or problems)[0] + more)
        line = f"waiting for {problems[0].split(' missing', 1)[0]} ({waited:.0f} s of {seconds:g})"
        if line.split(" (")[0] != said.split(" (")[0]:
            log.info("%s", line)
        said = line
        sdnotify.status(line)
        sleep(0.5)


#: the log of ``pitboard run`` at a terminal, in its journal folder
LOG_NAME = "pitboard.log"


def journal_dir(config: HwConfig, override: Path | None = None) -> Path:
    """Where the journal lives: ``override``, or ``[journal] dir``. A relative dir goes under
    systemd's ``$STATE_DIRECTORY``, else under the user's state folder
    (``$XDG_STATE_HOME/pitboard``, by default ``~/.local/state/pitboard``), never into the
    working directory (a checkout would collect stray journals)."""
    if override is not None:
        return override
    path = config.journal.dir
    if path.is_absolute():
        return path
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if state:
        return Path(state) / path
    xdg = os.environ.get("XDG_STATE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "state"
    return base / "pitboard" / path


def open_station_display(config: HwConfig, spec: DisplayConfig, label: str) -> Any:
    """The display ``spec`` describes: emulated, or luma over I2C (through the mux) or SPI."""
    if spec.bus == "emulated":
        return EmulatedDisplay(rotate=spec.rotate, station=label)
    kwargs: dict[str, Any] = {}
    if spec.column_offset is not None:
        kwargs["column_offset"] = spec.column_offset
    if spec.bus == "i2c":
        port = resolve_i2c_bus(config.i2c, spec.mux_channel, controller=spec.controller)
        return open_display(driver=spec.driver, bus="i2c", port=port,
                            address=spec.address or 0x3C, rotate=spec.rotate, station=label,
                            **kwargs)
    if spec.dc_pin is not None:
        kwargs["dc_pin"] = spec.dc_pin
    return open_display(driver=spec.driver, bus="spi", port=spec.port or 0,
                        spi_device=spec.device or 0, reset_pin=spec.reset_pin, rotate=spec.rotate,
                        station=label, **kwargs)


def with_writers(config: HwConfig, displays: Sequence[Any], *, threaded: bool = True,
                 specs: Sequence[DisplayConfig] | None = None
                 ) -> tuple[list[Any], list[BusWriter]]:
    """Give every real display a writer thread, one per I2C controller (and one for SPI), so
    the game thread only posts frames and the controllers send at the same time
    (:mod:`pitboard.hw.writer`). Emulated displays are drawn directly. ``specs``: what each
    display is (default: the stations' displays, in order)."""
    writers: dict[str, BusWriter] = {}
    out: list[Any] = []
    if specs is None:
        specs = [st.display for st in config.stations]
    for i, display in enumerate(displays):
        spec = specs[i] if i < len(specs) else None
        if spec is None or spec.bus == "emulated" or isinstance(display, EmulatedDisplay):
            out.append(display)  # drawn directly (a display the profile does not list too)
            continue
        key = f"I2C {spec.controller}" if spec.bus == "i2c" else "SPI"
        writer = writers.get(key)
        if writer is None:
            # parts as long on the wire at either I2C speed (SPI: 8 MHz, any part is short)
            chunk = part_bytes(config.i2c.baudrate if spec.bus == "i2c" else 400_000)
            writer = writers[key] = BusWriter(name=key, threaded=threaded, chunk_bytes=chunk)
        # the race-control display (after the stations') waits behind the stations' frames
        out.append(writer.add(display, background=i >= len(config.stations)))
    return out, list(writers.values())


def kiosk_options(t: TableConfig) -> KioskOptions:
    """The kiosk behaviour a profile's ``[table]`` asks for (used when ``kiosk = true``)."""
    return KioskOptions(seat_idle_seconds=t.seat_idle_seconds,
                        table_idle_seconds=t.table_idle_seconds, join_seconds=t.join_seconds,
                        results_seconds=t.results_seconds, track=t.track, laps=t.laps or 1,
                        cars=t.kiosk_cars,
                        modules={k: dict(v) for k, v in (
                            t.modules if t.kiosk_modules is None else t.kiosk_modules).items()})


@dataclass
class App:
    """Everything one Pitboard runs, built from a validated hardware profile.

    Example::

        app = App.build(load_profile("sim"), journal=Path("/tmp/pb-journal"))
        app.boot()                 # resume the journalled race, redraw every station
        stop = threading.Event()
        app.run(stop)              # until stop is set (SIGTERM in `pitboard run`)
    """

    config: HwConfig
    table: Table
    recorder: JournalRecorder
    displays: list[Any]
    inputs: list[StationInputs] = field(default_factory=list)
    #: the display writer threads, one per I2C controller (see :func:`with_writers`)
    writers: list[BusWriter] = field(default_factory=list)
    console: Any = None
    #: seconds from the start of boot() until every station had its frame
    boot_seconds: float = 0.0
    _board_resets: dict[int, int] = field(default_factory=dict)
    #: the TCA9548As' RESET line (``[i2c.mux] reset_pin``), pulsed when a bus hangs
    mux_reset: Any = None
    #: decides when to pulse it (:mod:`pitboard.hw.muxguard`)
    mux_guard: MuxGuard | None = None
    #: the parent buses the guard reads the muxes on
    _mux_buses: list[Any] = field(default_factory=list)
    #: this process's right to write the journal, released by close()
    journal_lock: JournalLock | None = None
    #: the phones' and TVs' web server (pitboard.web), once started
    web: Any = None
    #: serve the web pages the profile asks for (``pitboard run``; :meth:`start_web`)
    serve: bool = False

    @property
    def mux_resets(self) -> int:
        """Times the muxes were reset."""
        return self.mux_guard.resets if self.mux_guard is not None else 0

    @classmethod
    def build(
        cls,
        config: HwConfig,
        *,
        journal: Path | None = None,
        pin_factory: Any = None,
        bus_factory: Callable[[int], SMBusLike] | None = None,
        displays: Sequence[Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        cars: int | None = None,
        modules: Mapping[str, Mapping[str, Any]] | None = None,
        wait_s: float | None = None,
        writer_threads: bool | None = None,
        race_control_display: Any = None,
        phones: bool = False,
    ) -> App:
        """Open every part the profile names. Raises :class:`StartupError` (one line).

        With ``wait_s`` (``pitboard run``: 20 s), first waits for the buses and interfaces the
        profile needs (:func:`wait_for_hardware`). The displays the profile names get a writer
        thread per I2C controller (:func:`with_writers`); ``displays`` given by the caller are
        drawn directly unless ``writer_threads``. With ``displays`` given, the race-control
        display is ``race_control_display`` (None: none), else the profile's
        ``[race_control]``. ``phones``: the table gets the profile's phone seats (``[web]``),
        and :meth:`start_web` serves them and the TV's track view (``[web]``, ``[tv]``).

        First of all it takes the journal's lock (:mod:`pitboard.journallock`): a journal
        another live process writes is refused (StartupError naming that process) before any
        display is drawn or any file written."""
        lock = JournalLock(journal_dir(config, journal))
        try:
            lock.acquire()
        except JournalBusy as exc:
            raise StartupError(str(exc)) from None
        except OSError as exc:
            raise StartupError(f"cannot open the journal folder {lock.directory}: "
                               f"{exc.strerror or exc}") from None
        try:
            app = cls._open_parts(
                config, journal=journal, pin_factory=pin_factory, bus_factory=bus_factory,
                displays=displays, clock=clock, seed=seed, cars=cars, modules=modules,
                wait_s=wait_s, writer_threads=writer_threads,
                race_control_display=race_control_display, phones=phones)
        except BaseException:
            lock.release()
            raise
        app.journal_lock = lock
        return app

    @classmethod
    def _open_parts(
        cls,
        config: HwConfig,
        *,
        journal: Path | None,
        pin_factory: Any,
        bus_factory: Callable[[int], SMBusLike] | None,
        displays: Sequence[Any] | None,
        clock: Callable[[], float],
        seed: int | None,
        cars: int | None,
        modules: Mapping[str, Mapping[str, Any]] | None,
        wait_s: float | None,
        writer_threads: bool | None,
        race_control_display: Any,
        phones: bool = False,
    ) -> App:
        """:meth:`build` once the journal is this process's."""
        if wait_s is not None:
            wait_for_hardware(config, seconds=wait_s)
        writers: list[BusWriter] = []
        try:
            race_control = race_control_display
            if displays is not None:
                screens = list(displays)
                if writer_threads:  # given displays drawn as on the device (tests)
                    screens, writers = with_writers(config, screens)
            else:
                opened = [open_station_display(config, st.display, st.label)
                          for st in config.stations]
                specs = [st.display for st in config.stations]
                if config.race_control is not None:  # last: stations keep their indexes
                    opened.append(open_station_display(config, config.race_control,
                                                       RACE_CONTROL_LABEL))
                    specs.append(config.race_control)
                screens, writers = with_writers(config, opened, specs=specs)
                race_control = screens.pop() if config.race_control is not None else None
        except (OSError, LookupError, ValueError, LumaError) as exc:
            raise StartupError(f"cannot open a display: {exc}") from None
        recorder = JournalRecorder(Journal(journal_dir(config, journal)))
        kiosk = kiosk_options(config.table) if config.table.kiosk else None
        seats = phone_seats(config) if phones else None
        table = Table(stations=config.seats if seats else len(config.stations),
                      screens=screens, render=render,
                      clock=clock, seed=seed, track=config.table.track, laps=config.table.laps,
                      cars=cars,
                      modules=config.table.modules if modules is None else modules,
                      recorder=recorder, kiosk=kiosk,
                      names=[f"S{i + 1}" for i in range(config.seats)],
                      chatter=ChatterGuard() if any(st.input.kind != "emulated"
                                                    for st in config.stations) else None,
                      race_control=race_control, phones=seats)
        # the race-control display last: the stations' displays stay indexed by station
        app = cls(config=config, table=table, recorder=recorder,
                  displays=screens + ([race_control] if race_control is not None else []),
                  writers=writers, serve=phones)
        mux = config.i2c.mux
        if mux is not None and mux.reset_pin is not None:
            from gpiozero import DigitalOutputDevice

            try:
                # active low, held inactive (high): on() asserts RESET
                app.mux_reset = DigitalOutputDevice(mux.reset_pin, active_high=False,
                                                    initial_value=False,
                                                    pin_factory=pin_factory)
            except with_gpiozero(OSError) as exc:
                app.close()
                raise StartupError(f"cannot claim the mux RESET pin GPIO {mux.reset_pin}: "
                                   f"{exc}") from None
            probe, app._mux_buses = mux_probe(config, bus_factory)
            app.mux_guard = MuxGuard(controllers=guarded_stations(config),
                                     pulse=app._pulse_mux_reset, probe=probe, clock=clock)
        try:
            app.inputs = [build_station_inputs(config, i, table.post, pin_factory=pin_factory,
                                               bus_factory=bus_factory, clock=clock)
                          for i in range(len(config.stations))]
        except with_gpiozero(OSError, LookupError, ValueError) as exc:
            app.close()
            raise StartupError(f"cannot open station inputs: {exc}") from None
        for inputs, screen in zip(app.inputs, screens, strict=False):
            if isinstance(screen, QueuedDisplay):  # a press holds its display's bus
                inputs.set_on_edge(screen.hold)
        return app

    def boot(self) -> None:
        """Resume the journalled race (if any) and redraw every station; never raises for a
        bad journal: it is logged in one line and a new race can start."""
        started = time.perf_counter()
        saved = self.recorder.recover()
        if saved is not None and not saved.ended:
            try:
                self.table.restore(saved)
                race = self.table.race
                assert race is not None
                log.info("resumed race: %s, round %d, %d decisions", race.track.name,
                         race.round, len(race.log))
            except Exception as exc:  # whatever is on disk, never crash-loop on it
                self.recorder.set_aside(f"the race does not replay: {exc}")
                self.table.do_reset()
        self.recorder.prepare()  # reserve the journal's space: a full disk shows in the lobby
        self.table.refresh()
        deadline = time.monotonic() + BOOT_DRAW_SECONDS  # one wait for all the writers
        for writer in self.writers:  # every station drawn (or found silent) before READY
            if not writer.flush(timeout=max(0.0, deadline - time.monotonic())):
                log.warning("display writer %s still busy after %.0f s: starting anyway",
                            writer.name, BOOT_DRAW_SECONDS)
        self.boot_seconds = time.perf_counter() - started

    def start_console(self) -> None:
        """Open the staff console on the configured serial port (if any)."""
        if not self.config.console.enabled:
            return
        from .console import open_console

        try:
            self.console = open_console(self.config.console, self.table)
        except ValueError as exc:  # a malformed pyserial URL: the table still runs
            log.error("console: %s", exc)

    def start_web(self) -> None:
        """Start the web server for the phones and the TV's track view (``[web]``, ``[tv]``;
        game thread, before :meth:`run`). It starts on its own thread; when it cannot, a table
        with wired stations plays on (the error is logged) and one with nothing but phone
        seats stops (:meth:`run`)."""
        if self.table.phones is not None or (self.serve and self.config.serves_web):
            from .web.wiring import start_web

            self.web = start_web(self.config, self.table)

    def busy(self) -> bool:
        """An input change waits for confirmation: poll again within a millisecond."""
        return any(inputs.busy for inputs in self.inputs)

    def poll(self) -> None:
        """Game-thread housekeeping: confirm debounced inputs, retry faulted displays, and
        re-initialise the display of a station whose board was reset or came back."""
        for inputs in self.inputs:
            inputs.poll()
            resets = inputs.board_resets
            if resets != self._board_resets.get(inputs.station, 0):
                self._board_resets[inputs.station] = resets
                if inputs.station < len(self.displays):
                    self.displays[inputs.station].reinit()
        for display in self.displays:
            display.poll()
        if self.mux_guard is not None:  # one station holding SDA low must not stop the rest
            self.mux_guard.poll(self.inputs, self.displays)

    def _pulse_mux_reset(self) -> None:
        """Pulse RESET low: > 6 ns is enough (TCA9548A data sheet, tW(L)); every channel is
        deselected, which with idle disconnect is what the pca954x driver expects between
        transfers."""
        self.mux_reset.on()
        self.mux_reset.off()

    def run(self, stop: threading.Event) -> None:
        """The game loop: events, polls, kiosk ticks, watchdog pings; returns when stopped."""
        table = self.table
        interval = sdnotify.watchdog_interval()
        next_ping = 0.0
        next_tick = 0.0
        sdnotify.ready()
        problem = self.recorder.problem
        sdnotify.status(("racing" if table.race is not None else "lobby")
                        + (f"; {problem}" if problem is not None else ""))
        while not stop.is_set():
            if self.web is not None and self.web.error and not self.config.stations:
                raise StartupError(f"phones: {self.web.error}")  # nothing left to play on
            table.step(timeout=FAST_POLL_SECONDS if self.busy() else POLL_SECONDS)
            now = time.monotonic()
            if now >= next_tick:
                next_tick = now + TICK_SECONDS
                table.tick()
            try:
                self.poll()
            except Exception:  # a driver bug must not stop the table
                log.exception("input/display poll failed")
            if interval is not None and now >= next_ping and table.healthy():
                sdnotify.watchdog()
                next_ping = now + interval / 3

    def close(self) -> None:
        """Release buses and pins, blank the displays."""
        if self.web is not None:
            self.web.stop()
        if self.console is not None:
            self.console.stop()
        for inputs in self.inputs:
            inputs.close()
        if self.mux_reset is not None:
            self.mux_reset.close()
        for bus in self._mux_buses:
            bus.close()
        for display in self.displays:
            try:
                display.close()
            except Exception as exc:  # a dead panel must not block shutdown
                log.warning("closing a display failed: %s", exc)
        self.recorder.journal.close()
        if self.journal_lock is not None:
            self.journal_lock.release()


def startup_line(app: App, *, console_started: bool = True) -> tuple[int, str]:
    """The one line ``pitboard run`` logs once the stations are drawn: version, profile,
    stations (and displays answering), console, kiosk, journal, and whether the staff PIN is
    still a published default (then at WARNING level, so ``journalctl -p warning`` shows it).
    ``console_started=False`` (the terminal mode, which opens no serial port): the console is
    named off, whatever port the profile gives.

    Example::

        level, line = startup_line(app)
        # (20, 'pitboard 0.1.0 running "Pitboard simulation" (profile .../sim.toml); 6 stations,
        #  6 of 6 displays answering; console off; kiosk off; journal ...; staff PIN: console off')
    """
    from . import __version__
    from .hwconfig import is_default_pin

    config = app.config
    silent = [st.label for st, d in zip(config.stations, app.displays, strict=False)
              if not getattr(d, "healthy", True)]
    n = len(config.stations)
    console = config.console
    running = console.enabled and console_started
    # phones beyond this machine unlock the lobby's settings with the same PIN
    lan = app.web is not None and not ipaddress.ip_address(config.web.bind).is_loopback
    default_pin = (running or lan) and is_default_pin(console.staff_pin)
    if not running and not lan:
        pin = "staff PIN: console off"
    elif default_pin:
        pin = ("staff PIN STILL THE DEFAULT published with Pitboard: set [console] staff_pin in "
               f"{config.label}")
    else:
        pin = "staff PIN: set"
    parts = [
        f'pitboard {__version__} running "{config.table.name}" (profile {config.label})',
        f"{n} station{'s' if n != 1 else ''}, {n - len(silent)} of {n} displays answering"
        + (f" (not {', '.join(silent)}: retrying)" if silent else ""),
        *_race_control_part(app), *_web_part(app),
        f"console {console.port} at {console.baud} baud" if running else
        "console off (terminal mode: the profile's port is not opened)" if console.enabled else
        "console off",
        f"kiosk {'on' if config.table.kiosk else 'off'}",
        f"journal {app.recorder.journal.directory}",
        pin,
    ]
    return (logging.WARNING if default_pin else logging.INFO), "; ".join(parts)


def _race_control_part(app: App) -> list[str]:
    """The start-up line's word on the race-control display (none when there is none)."""
    display = app.table.race_control
    if display is None:
        return []
    answering = getattr(display, "healthy", True)
    return ["race-control display " + ("answering" if answering else "silent: retrying")]


def _web_part(app: App) -> list[str]:
    """The start-up line's word on the web server: the phones, the track view (none when it
    is off)."""
    from .hwconfig.web import track_page

    phones = app.table.phones
    out = []
    if phones is not None:
        out.append(f"phones at {phones.url} (code {phones.code}, {len(phones.stations)} seats)")
    if app.web is not None:
        out.append(f"track view at {track_page(app.config.web)}"
                   + (" (this machine's screen)" if app.config.tv.screen else ""))
    return out
