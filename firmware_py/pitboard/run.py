"""``pitboard run``: the device service, or the same table at a terminal.

On a hardware profile it builds an :class:`~pitboard.app.App` and runs it until SIGTERM; on an
emulated profile at a terminal (the ``sim`` profile, never under systemd) it draws the stations
as ``pitboard sim`` does (:mod:`pitboard.sim`), the keyboard as their levers and trays. This
module sits above both: the app knows nothing of the simulation, which builds on the app.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from .hwconfig import ConfigError, load_profile
from .runstart import configure_logging, draws_in_terminal

if TYPE_CHECKING:
    from .hwconfig import HwConfig

# the table, the drivers, the simulation: imported once the configuration has loaded (a
# broken one is reported without them: runstart.py)

log = logging.getLogger("pitboard")


def _run_in_terminal(config: HwConfig, journal: Path) -> int:
    """``pitboard run`` on an emulated profile at a terminal: the stations drawn as in
    ``pitboard sim``, the keyboard as their levers and trays, the journal kept in ``journal``
    (a race left unfinished resumes on the next start). Log lines go to ``pitboard.log`` in
    that folder instead of the screen being drawn."""
    from .journallock import JournalBusy, JournalLock

    lock = JournalLock(journal)  # before the log file: a refused start writes nothing
    try:
        lock.acquire()
    except (JournalBusy, OSError) as exc:
        print(f"pitboard run: {exc}", file=sys.stderr)
        return 1
    try:
        return _draw_in_terminal(config, journal)
    finally:
        lock.release()


def _draw_in_terminal(config: HwConfig, journal: Path) -> int:
    from .app import LOG_NAME, StartupError, startup_line
    from .sim.cli import terminal_size
    from .sim.session import Sim
    from .sim.terminal import run_terminal

    log_file = journal / LOG_NAME
    try:
        handler: logging.Handler = logging.FileHandler(log_file, encoding="utf-8")
    except OSError as exc:
        log.error("cannot write the journal or its log at %s: %s", journal, exc.strerror or exc)
        return 1
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    try:
        sim = Sim(len(config.stations), track=config.table.track, laps=config.table.laps,
                  journal=journal, profile=config, phones=True)
        sim.app.start_web()
    except (StartupError, OSError) as exc:
        log.error("%s", exc)
        print(f"pitboard run: {exc}", file=sys.stderr)
        return 1
    level, line = startup_line(sim.app, console_started=False)  # Sim opens no serial port
    log.log(level, line)
    try:
        fd = sys.stdin.fileno()
        run_terminal(sim, fd, sys.stdout, size=terminal_size(sys.stdout, fd), scale=None,
                     autoplay=False, delay=0.0, hold=0.0)
    finally:
        sim.close()
    print(line)
    print(f"log: {log_file}")
    return 0


def run_main(config_path: str, *, journal: str | None = None, verbose: bool = False) -> int:
    """``pitboard run``: the device service. Returns the exit status."""
    configure_logging(verbose=verbose)
    try:
        config = load_profile(config_path)
    except ConfigError as exc:
        for problem in exc.problems:
            log.error("%s", problem)
        return 2
    from . import sdnotify
    from .app import BOOT_WAIT_SECONDS, App, StartupError, journal_dir, startup_line
    from .trackfile import TrackFileError
    from .userfile import escape

    if draws_in_terminal(config):
        return _run_in_terminal(config, journal_dir(config, Path(journal) if journal else None))
    try:
        wait = float(os.environ.get("PITBOARD_HW_WAIT_SECONDS", BOOT_WAIT_SECONDS))
        app = App.build(config, journal=Path(journal) if journal else None, wait_s=wait,
                        phones=True)
    except StartupError as exc:
        log.error("%s", exc)
        return 1
    except TrackFileError as exc:  # checked by load_profile; the file changed since
        log.error("%s: table.track: %s", escape(config.label), exc)
        return 2
    stop = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        app.boot()
        app.start_web()
        log.log(*startup_line(app))
        app.start_console()
        app.run(stop)
    except StartupError as exc:  # a table of phones only, and no server for them
        log.error("%s", exc)
        return 1
    finally:
        sdnotify.stopping()
        app.close()
    return 0
