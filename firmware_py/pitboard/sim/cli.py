"""``pitboard sim``'s command line: options, terminal or plain text, saved frames."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import termios
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn

from ..argtypes import number_in, whole_in
from ..catalog import MAX_CARS, SEASONS, TRACKS
from ..module_args import (
    SetupError,
    add_garage_options,
    add_module_options,
    check_setup,
    race_modules,
)
from ..usage import isatty

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from .session import FrameTape

EXIT_BAD_ARGS = 2
KEYS_HELP = """keys:
  Tab or →            next station in focus (Shift-Tab or ←: previous)
  1 2 3 4, ↑ ↓        the focused station's gear lever
  a s d f g h j       tray slot buttons 1..7, left to right
  Space or Enter      GO
  q or Ctrl-C         quit
  lobby: GO joins, a = track, s = laps, d = cars, f = OPTS (the rules pages), j = RACE

without a terminal (or with --text) keys are read from stdin a line at a time:
  printf ' \\tj\\n' | pitboard sim --stations 1"""
PROG = "pitboard sim"
#: autoplay pacing on a terminal: seconds between two key presses (``--delay``)
TERMINAL_DELAY = 0.1
#: how long the results stay up after an autoplayed race on a terminal (any key ends it)
RESULTS_HOLD = 3.0


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (raised, not printed) and help to a chosen stream."""

    out: IO[str] | None = None

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        super().print_help(file or self.out)


def _station(stations: int) -> Callable[[str], int | str]:
    """``--station``: a station's number, or ``rc`` for the race-control display."""
    number = whole_in(1, stations, "station")

    def parse(text: str) -> int | str:
        if text.lower() == "rc":
            return "rc"
        try:
            return number(text)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                f"station must be 1..{stations} or rc, got {text!r}") from None

    parse.__name__ = "station"
    return parse


def _scale(text: str) -> int:
    if text == "text":
        from .terminal import TEXT  # loaded only when asked for: --help stays quick

        return TEXT
    return whole_in(1, 2, "scale")(text)


def build_parser() -> argparse.ArgumentParser:
    """The ``pitboard sim`` options. The defaults of --track and --laps, and how many stations
    there are, come from the ``sim`` hardware profile, read only when the command runs (not
    for ``--help``, which stays quick: benchmarks/cold_start.py)."""
    stations = MAX_CARS
    p = _Parser(prog=PROG, description="The Pitboard table in a terminal: every station's "
                "screen,\nthe keyboard as levers and trays, bots in the empty seats.",
                epilog=KEYS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stations", metavar="N", type=whole_in(1, stations, "stations"),
                   help=f"player stations, 1..{stations} (default 2; with --config, the "
                   "profile's)")
    p.add_argument("--track", metavar="NAME",
                   help=f"{', '.join(TRACKS)} (default: the sim profile's track, usa as "
                   "shipped)")
    p.add_argument("--laps", metavar="N", type=whole_in(1, 9, "laps"),
                   help="laps (default: the sim profile's, else the track's)")
    p.add_argument("--cars", metavar="N", type=whole_in(1, MAX_CARS, "cars"),
                   help=f"cars players and bots drive, 1..{MAX_CARS} (default: 4, or one per "
                        "station; fewer with --legends)")
    p.add_argument("--seed", metavar="N", type=int,
                   help="race seed (default: random, shown in the header)")
    p.add_argument("--autoplay", action="store_true",
                   help="bots play every station through the keyboard; exit with the results")
    p.add_argument("--kiosk", action="store_true",
                   help="preview the store kiosk on a terminal: the attract loop, GO to join, "
                   "the countdown, idle seats and results times of the sim profile's [table] "
                   "settings (kiosk_cars, seat_idle_seconds, ...), and its demo race "
                   "([table.kiosk_modules]: 2 Legends, random weather, road tokens as shipped; "
                   "--legends/--weather/... given here replace it)")
    p.add_argument("--text", action="store_true",
                   help="plain text even on a terminal (the default without one)")
    p.add_argument("--scale", metavar="{1,2,text}", type=_scale,
                   help="how a screen is drawn on a terminal: 1 = every pixel (130x35 "
                   "characters a station), 2 = half size (small text is hard to read), text = "
                   "its content as words (default: 1 when every station fits, else text)")
    p.add_argument("--delay", metavar="SECONDS", type=number_in(0, 10, "delay", " seconds"),
                   help=f"autoplay: seconds between key presses (default {TERMINAL_DELAY} on "
                   "a terminal, 0 in text mode)")
    p.add_argument("--save-png", metavar="DIR", type=Path,
                   help="save every frame the station showed as DIR/sN-0001.png ... "
                   "(DIR/rc-0001.png ... for race control)")
    p.add_argument("--save-gif", metavar="FILE", type=Path,
                   help="save every frame the station showed as one animated GIF")
    p.add_argument("--station", metavar="N|rc", type=_station(stations), default=1,
                   help="the station --save-png/--save-gif record, or rc: the race-control "
                   "display (default 1)")
    p.add_argument("--config", metavar="FILE|PROFILE",
                   help="take the table's settings from this hardware profile instead of the "
                   "sim profile: its [table] (track, laps, lobby presets, kiosk times and demo "
                   "race) and its number of stations, on emulated stations; with --kiosk, "
                   "preview your own kiosk: pitboard sim --kiosk --config "
                   "/etc/pitboard/pitboard.toml")
    p.add_argument("--journal", metavar="DIR", type=Path,
                   help="keep the race journal in DIR: a race left unfinished there resumes on "
                   "the next start (default: a temporary folder, removed at exit)")
    add_module_options(p)
    add_garage_options(p)
    p.add_argument("--championship", metavar="SEASON", choices=SEASONS,
                   help=f"race a whole championship season ({', '.join(SEASONS)}): its races "
                        "one after the other, the standings between them (not with --kiosk)")
    p.add_argument("--image-scale", metavar="N", type=whole_in(1, 8, "image scale"), default=1,
                   help="enlarge saved images N times, pixel for pixel (default 1: 128x64)")
    return p


def terminal_size(out: IO[str], fd: int) -> Callable[[], tuple[int, int]]:
    def size() -> tuple[int, int]:
        for candidate in (out, fd):
            try:
                number = candidate if isinstance(candidate, int) else candidate.fileno()
                cols, rows = os.get_terminal_size(number)
            except (AttributeError, OSError, ValueError):
                continue
            if cols > 0 and rows > 0:
                return cols, rows
        return 80, 24

    return size


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    tty: bool | None = None,
    size: tuple[int, int] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """``pitboard sim [options]``; returns the exit status (0, 1 autoplay failure, 2 bad usage).

    ``tty`` decides terminal vs plain-text mode (default: stdin and stdout are terminals);
    ``size`` fixes the terminal size (columns, rows) instead of asking the terminal.

    Example::

        main(["--autoplay", "--text", "--seed", "3"])   # a whole race as text, exit 0
    """
    stdin = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr

    def fail(message: str) -> int:
        print(f"{PROG}: {message}", file=err)
        return EXIT_BAD_ARGS

    parser = build_parser()
    if isinstance(parser, _Parser):
        parser.out = out
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        return fail(f"{exc} (see pitboard sim --help)")
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    from dataclasses import replace  # (not for --help: cold_start.py)

    from ..hwconfig import ConfigError, load_profile

    try:
        profile = load_profile("sim")
    except ConfigError as exc:
        return fail(f"the sim profile is broken: {exc}")
    if args.config is not None:  # an owner's table settings, on the sim's emulated stations
        try:
            owner = load_profile(args.config)
        except ConfigError as exc:
            return fail(exc.problems[0] + (f" (and {len(exc.problems) - 1} more: pitboard "
                                           f"check-config {args.config})"
                                           if len(exc.problems) > 1 else ""))
        profile = replace(profile, table=owner.table)
        if args.stations is None:
            args.stations = min(len(owner.stations), len(profile.stations))
    if args.stations is None:
        args.stations = 2
    if args.stations > len(profile.stations):
        return fail(f"--stations {args.stations}: the sim profile has "
                    f"{len(profile.stations)} stations")
    if args.track is None:
        args.track = profile.table.track
    if args.laps is None:
        args.laps = profile.table.laps
    if args.track not in TRACKS and args.track != profile.table.track:  # (or its track file)
        return fail(f"unknown track {args.track!r} (tracks: {', '.join(TRACKS)})")
    if args.station != "rc" and args.station > args.stations:
        return fail(f"--station {args.station}: there are only {args.stations} stations")
    if args.station == "rc" and profile.race_control is None:
        return fail("--station rc: the sim profile has no race-control display")
    problem = _unsaveable(args.save_png, args.save_gif)
    if problem:
        return fail(problem)

    if args.journal is not None and args.journal.exists() and not args.journal.is_dir():
        return fail(f"--journal {args.journal}: not a directory")
    if args.autoplay and args.stations + args.legends > MAX_CARS:  # every station plays
        return fail(f"--stations {args.stations} + --legends {args.legends} = "
                    f"{args.stations + args.legends} cars with --autoplay (every station "
                    f"plays), but a race has at most {MAX_CARS}")
    try:
        cars = args.cars if args.cars is not None else \
            min(max(4, args.stations), MAX_CARS - args.legends)
        if args.autoplay:
            cars = max(cars, args.stations)
        modules = race_modules(args, cars=cars)
        check_setup(track=args.track, cars=cars + args.legends, laps=args.laps,
                    modules=modules)
    except SetupError as exc:
        return fail(str(exc))

    terminal = not args.text and (tty if tty is not None else isatty(stdin) and isatty(out))
    if args.kiosk and args.championship:
        return fail("--championship races a season: the kiosk races single races")
    if args.kiosk:
        if args.autoplay or not terminal:
            return fail("--kiosk is a preview to try by hand on a terminal (not with --autoplay "
                        "or --text)")
        # module options on the command line replace the profile's kiosk demo preset
        demo = modules if modules else profile.table.kiosk_modules
        profile = replace(profile, table=replace(profile.table, kiosk=True, kiosk_modules=demo))
    # the table, its screens and the engine load only now: --help and bad options stay quick
    from ..app import StartupError
    from ..table.keys import AutoplayStuck
    from .report import run_text
    from .session import Sim
    from .terminal import run_terminal

    recording = args.save_png is not None or args.save_gif is not None
    # none given: with --config the owner's lobby presets, as on the device (None)
    lobby = None if args.config is not None and not modules else modules
    try:
        sim = Sim(args.stations, track=args.track, laps=args.laps, cars=args.cars,
                  modules=lobby,
                  seed=args.seed, record=_recorded(args.station) if recording else None,
                  clock=clock,
                  journal=args.journal, profile=profile)
    except (StartupError, OSError) as exc:  # a run-time failure (a journal in use), not
        print(f"{PROG}: cannot start: {exc}", file=err)  # bad arguments: exit 1, as `run`
        return 1
    if args.championship and sim.table.race is None:  # (a resumed race keeps its own)
        try:
            sim.table.set_championship(args.championship)
        except ValueError as exc:
            sim.close()
            return fail(str(exc))
    status = 0
    try:
        if terminal:
            delay = TERMINAL_DELAY if args.delay is None else args.delay
            fd = stdin.fileno()
            run_terminal(sim, fd, out,
                         size=(lambda: size) if size is not None else terminal_size(out, fd),
                         scale=args.scale, autoplay=args.autoplay, delay=delay,
                         hold=RESULTS_HOLD if delay > 0 else 0.0)
            line = sim.results_line()
            if line:
                print(line, file=out)
        else:
            # pictures full size in logs; on a terminal (--text) the size that fits
            scale = args.scale if args.scale in (1, 2) else (
                1 if not isatty(out) or terminal_size(out, -1)()[0] >= 130 else 2)
            run_text(sim, out, stdin, autoplay=args.autoplay, delay=args.delay or 0.0,
                     prompt=isatty(stdin), scale=scale)
    except AutoplayStuck as exc:
        print(f"{PROG}: autoplay stuck: {exc}", file=err)
        status = 1
    except termios.error as exc:  # stdin said it was a terminal but will not act like one
        print(f"{PROG}: cannot use the terminal ({exc}); try --text", file=err)
        status = 1
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:  # `pitboard sim --autoplay | head`
        if out is sys.stdout:  # Python flushes stdout at exit: point it somewhere quiet
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
    finally:
        if sim.tape is not None and not _save(sim.tape, args, err):
            status = status or 1
        sim.close()
    return status


def _unsaveable(pngs: Path | None, gif: Path | None) -> str:
    """Why the frames could not be saved where --save-png/--save-gif say (\"\" if they can):
    checked before the race, not found out after it. The PNG folder is created now."""
    if pngs is not None:
        try:
            pngs.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            return f"--save-png {pngs}: not a directory"
        except OSError as exc:
            return f"--save-png {pngs}: cannot create the folder: {exc.strerror or exc}"
    if gif is not None:
        folder = gif.parent
        if not folder.is_dir():
            return f"--save-gif {gif}: no such directory {folder}"
        if gif.is_dir():
            return f"--save-gif {gif}: is a directory"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"--save-gif {gif}: cannot write in {folder}"
    return ""


def _recorded(station: int | str) -> int | str:
    """``Sim(record=...)`` for ``--station``: a station's index, or the race-control display."""
    return station if isinstance(station, str) else station - 1


def _save(tape: FrameTape, args: argparse.Namespace, err: IO[str]) -> bool:
    rc = args.station == "rc"
    prefix, name = ("rc", "race control") if rc else (f"s{args.station}", f"S{args.station}")
    try:
        if args.save_png is not None:
            paths = tape.save_pngs(args.save_png, prefix=prefix, scale=args.image_scale)
            print(f"{PROG}: saved {len(paths)} frames of {name} to {args.save_png}/", file=err)
        if args.save_gif is not None:
            tape.save_gif(args.save_gif, scale=args.image_scale)
            print(f"{PROG}: saved {len(tape.frames)} frames of {name} to {args.save_gif}",
                  file=err)
    except (OSError, ValueError) as exc:
        print(f"{PROG}: could not save frames: {exc}", file=err)
        return False
    return True
