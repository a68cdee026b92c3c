"""The ``pitboard`` command.

Each command imports what it needs when it runs: parsing the arguments (and ``--help``) loads
only argparse and the few names the help text shows, never the engine, the table or the
hardware libraries (benchmarks/cold_start.py measures it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__
from .argtypes import number_in, whole_in
from .catalog import MAX_CARS, SEASONS, TRACKS
from .module_args import (
    add_garage_options,
    add_module_options,
    check_setup,
    describe_modules,
    race_modules,
)
from .usage import EXIT_BAD_INPUT, Parser

#: commands with their own argument parser (``pitboard NAME --help``), by module
DELEGATED = {"sim": "pitboard.sim", "screens": "pitboard.table.gallery",
             "wiring-docs": "pitboard.wiring", "hw-test": "pitboard.hwtest"}
DELEGATED_HELP = {
    "sim": "the desktop simulation: every station's OLED in the terminal, keyboard or autoplay",
    "screens": "draw every station screen kind as PNGs (the docs/screens gallery)",
    "wiring-docs": "generate wiring_docs/ (pin tables, harness, BOM) from the hw_config profiles",
    "hw-test": "check a build first: GPIO, every I2C address, display patterns, live inputs",
}


_cars = whole_in(1, MAX_CARS, "cars")
_positive = whole_in(1)


def _command(sub: Any, name: str, summary: str, description: str = "") -> argparse.ArgumentParser:
    """A subcommand whose --help starts with what it does (``summary`` is its line in
    ``pitboard --help``)."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=description or summary[0].upper() + summary[1:] + ".",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="pitboard",
        description="Pitboard: the digital pit wall for Heat: Pedal to the Metal.",
        epilog="pitboard COMMAND --help describes a command and each of its options. "
               "Exit status: 0 done, 2 bad input (arguments, config, scenario or track "
               "file), 1 a failure at run time (hardware that does not start, a stuck "
               "autoplay, stale files for wiring-docs --check, a problem hw-test found).",
    )
    parser.add_argument("--version", action="version", version=f"pitboard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    demo = _command(sub, "demo", "play a whole bot race and print it as text",
                    "Play one race between bots and narrate it turn by turn on stdout\n"
                    "(nothing is written to disk). Cars count from 1.")
    _race_options(demo, cars=4, laps=1)
    add_module_options(demo)
    add_garage_options(demo)
    demo.add_argument("--bot", choices=("heuristic", "random"), default="heuristic",
                      help="how the bots play: heuristic (sensible) or random legal moves "
                           "(default heuristic)")

    sc = _command(sub, "scenario", "run a scenario file (docs/scenarios.md)",
                  "Run a rules scenario (the line format of docs/scenarios.md) and print\n"
                  "what happened. The text counts cars from 1, as players do; the file\n"
                  "and --json keep the documented 0-based car indexes.")
    sc.add_argument("file", help="a scenario file, e.g. tests/scenarios/worked_example.txt")
    sc.add_argument("--json", action="store_true",
                    help="print the final state and event log as JSON (cars indexed from 0)")

    sim = _command(sub, "simulate", "race bots many times (or whole seasons): stats and speed",
                   "Race bots against each other many times and print who wins, by car\n"
                   "and grid position, average rounds and spin-outs, and engine speed.\n"
                   "With --championship SEASON it plays whole championship seasons instead\n"
                   "(the season's tracks and Events: --track and --laps do not apply) and\n"
                   "prints the standings: titles, points and final places by car.\n"
                   "  pitboard simulate --championship 1963 --seasons 200 --cars 4 --jobs 2")
    _race_options(sim, cars=6, laps=None)
    add_module_options(sim)
    sim.add_argument("--races", type=_positive, default=100, metavar="N",
                     help="how many races (default 100)")
    sim.add_argument("--bot", choices=("heuristic", "random"), default="heuristic",
                     help="how the bots play (default heuristic)")
    sim.add_argument("--championship", choices=SEASONS, default=None, metavar="SEASON",
                     help=f"play whole championship seasons ({', '.join(SEASONS)}): the "
                          "season's races, Events, sponsors and points")
    sim.add_argument("--seasons", type=_positive, default=10, metavar="N",
                     help="how many seasons with --championship (default 10)")
    sim.add_argument("--jobs", type=_positive, default=1, metavar="N",
                     help="share the races (or seasons) among N processes (default 1); each "
                          "depends on its seed alone, so the results are the same for any N")
    sim.add_argument("--json", action="store_true",
                     help="print the figures as JSON instead of text (wins_by_car is keyed by "
                          "0-based car index, wins_by_grid_position from 1)")
    add_garage_options(sim)

    up = _command(sub, "upgrades", "list the Garage module's upgrade cards",
                  "List every upgrade card type of the Garage module (and the sponsor\n"
                  "cards): code, name, tier, symbols (' !' = mandatory), and the rows where\n"
                  "the sources disagree. --file checks an edited copy of the card file.")
    up.add_argument("--file", default=None, metavar="FILE",
                    help="an upgrade card file to check and list (default: the shipped one)")

    tr = _command(sub, "tracks", "list the shipped tracks, or draw one as SVG",
                  "List the shipped tracks (the base game's, then Heavy Rain's and Tunnel\n"
                  "Vision's): key, name, spaces, laps, Heat and Stress, corner speed limits,\n"
                  "chicanes, flooded and tunnel spaces. --svg checks a track (a shipped one\n"
                  "or a .toml track file) and prints its drawing as SVG: every space with\n"
                  "both spots, the finish line, corners and their limits, sectors, the\n"
                  "Legends lines; a file without [spots] on a generated outline.\n"
                  "  pitboard tracks --svg my_track.toml > my_track.svg")
    tr.add_argument("--svg", default=None, metavar="NAME|FILE",
                    help="print this track's drawing as SVG (a mistake in a track file is one "
                         "line naming the field, exit 2)")

    cc = _command(sub, "check-config", "validate a hw_config profile and print its pin map",
                  "Validate a hardware profile and print its pin map, I2C devices and\n"
                  "stations (numbered from 1, as on the wiring docs). Every problem is one\n"
                  "line naming the key; exit 2 if there is any. Warns while the staff PIN\n"
                  "is a default published with Pitboard.")
    cc.add_argument("file", help="a .toml file or a shipped profile name (sim, duo, grid6, phones)")
    cc.add_argument("--install-facts", action="store_true",
                    help="print, instead of the pin map, the KEY=VALUE lines "
                         "systemd/install-pi.sh sets the Pi up by")

    fd = _command(sub, "flow-diagram", "print the table flow as a Mermaid diagram",
                  "Print the table's state machine (attract, lobby, the set-up checklist,\n"
                  "the Garage draft, planning, resolution, results) as Markdown with a\n"
                  "Mermaid diagram. The repository keeps it in\n"
                  "docs/table-flow.md: pitboard flow-diagram --out docs/table-flow.md")
    fd.add_argument("--out", metavar="FILE", default=None,
                    help="write the Markdown to FILE instead of printing it")

    for name, text in DELEGATED_HELP.items():
        sub.add_parser(name, help=text, add_help=False)

    tv = _command(sub, "tv", "show the race on this machine's screen (Chromium, kiosk mode)",
                  "Open the track view (the race on the track, live) full-screen on this\n"
                  "machine's screen: Chromium in kiosk mode on the table's web server. Waits\n"
                  "until the server answers, and starts the browser again if it exits. The\n"
                  "desktop runs it at login when install-pi.sh set the TV up ([tv] screen).\n"
                  "Any other browser on the LAN shows the same page: http://<pi>:8080/track")
    tv.add_argument("--config", default=None, metavar="FILE|PROFILE",
                    help="the table's hw_config profile, for the page's address (default: "
                         "$PITBOARD_HW_CONFIG, else sim)")
    tv.add_argument("--browser", default=None, metavar="PATH",
                    help="the Chromium to run (default: chromium-browser or chromium on PATH)")
    tv.add_argument("--pace", type=number_in(0.02, 5, "pace"), default=None, metavar="N",
                    help="make the moves' animations N times as long (0.02-5; default 1)")
    tv.add_argument("--wait", type=number_in(0, 86400, "wait", " seconds"), default=None,
                    metavar="SECONDS", help="give up when the server has not answered after "
                    "SECONDS (0-86400; default: wait for ever)")
    tv.add_argument("--once", action="store_true",
                    help="do not start the browser again when it exits")
    tv.add_argument("--at-login", action="store_true",
                    help="do nothing unless the profile's [tv] screen is on (the autostart "
                         "entry's way)")
    tv.add_argument("--print", action="store_true", dest="print_only",
                    help="print the browser's command line instead of running it")

    run = _command(sub, "run", "run the table on a hardware profile (the systemd service)",
                   "Run the table: open the stations, journal and console a hardware\n"
                   "profile names, resume a journalled race, and play until SIGTERM.\n"
                   "On a profile of emulated stations (sim) at a terminal it draws them\n"
                   "there, the keyboard working their levers and trays (keys as in\n"
                   "pitboard sim; q quits), and logs to pitboard.log in the journal folder.\n"
                   "Exit status: 2 a bad configuration (systemd does not retry), 1 hardware\n"
                   "that does not start (systemd retries), 0 stopped.")
    run.add_argument("--config", default=None, metavar="FILE|PROFILE",
                     help="hw_config profile: a .toml file or sim, duo, grid6, phones "
                          "(default: $PITBOARD_HW_CONFIG, else sim)")
    run.add_argument("--journal", default=None, metavar="DIR",
                     help="journal directory (default: the profile's [journal] dir; a relative "
                          "one goes under $STATE_DIRECTORY with systemd, else under "
                          "$XDG_STATE_HOME/pitboard, i.e. ~/.local/state/pitboard)")
    run.add_argument("--verbose", action="store_true",
                     help="also log every table state change (the transitions library's INFO "
                          "lines); by default Pitboard's own INFO lines (the start-up line, "
                          "hardware waits, journal recovery) and other libraries' warnings "
                          "and errors")
    return parser


def _race_options(p: argparse.ArgumentParser, *, cars: int, laps: int | None) -> None:
    p.add_argument("--track", default="usa", metavar="NAME|FILE",
                   help=f"track name ({', '.join(TRACKS)}) or a .toml file "
                        "(default usa)")
    p.add_argument("--cars", type=_cars, default=cars, metavar="N",
                   help=f"cars the bots drive, 1..{MAX_CARS} (default {cars}); --legends "
                        "adds Legend cars")
    p.add_argument("--laps", type=_positive, default=laps, metavar="N",
                   help="laps (default: the track's)" if laps is None else f"laps (default {laps})")
    p.add_argument("--seed", type=int, default=1, metavar="N",
                   help="random seed: the same seed plays the same race (default 1)")


def cmd_demo(args: argparse.Namespace) -> int:
    from .bots import make_bot
    from .engine.race import Race
    from .engine.setup import RaceSetup
    from .narrate import narrate
    from .trackfile import load_track

    track = load_track(args.track)
    modules = race_modules(args, cars=args.cars)
    cars = args.cars + args.legends
    check_setup(track=track.key, cars=cars, laps=args.laps, modules=modules)
    setup = RaceSetup(track=track.key, cars=cars, seed=args.seed, laps=args.laps,
                      modules=modules)
    race = Race(setup, track=track)
    names = [f"Bot {i + 1}" if i < args.cars else c.name for i, c in enumerate(race.cars)]
    if "garage" in modules:  # bots that draft and use upgrades
        from .garage_bots import make_garage_bot as make_bot
    bot = make_bot(args.bot, seed=args.seed)
    extra = describe_modules(modules)
    print(f"{track.name}: {race.laps} lap(s), {args.cars} cars, seed {args.seed}"
          + (f", {extra}" if extra else ""))
    shown = 0
    while True:
        for line in narrate(race.events[shown:], names.__getitem__):
            print(line)
        shown = len(race.events)
        if race.over:
            return 0
        race.apply(bot.choose(race, race.pending().cars[0]))


def cmd_scenario(args: argparse.Namespace) -> int:
    import json

    from .engine.snapshot import race_to_dict
    from .narrate import narrate
    from .scenario import load_scenario

    scenario = load_scenario(args.file)
    race = scenario.run()
    if args.json:
        json.dump(race_to_dict(race, events=True), sys.stdout, indent=1)
        print()
        return 0
    if not scenario.setup.names:
        print("(Cars are numbered from 1 here: the scenario file's car 0 is Car 1.)")
    for line in narrate(race.events, lambda i: race.cars[i].name):  # Legend cars' own names
        print(line)
    pending = race.pending()
    who = ""
    if pending.cars:  # names as in the text above, then the file's 0-based indexes
        names = ", ".join(race.cars[car].name for car in pending.cars)
        indexes = ", ".join(map(str, pending.cars))
        who = f" from {names} (file car{'s' if len(pending.cars) > 1 else ''} {indexes})"
    print(f"\nWaiting for: {pending.kind}{who}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    import json

    from .simulate import SeasonSimulation, SimulationResult, simulate, simulate_seasons

    modules = race_modules(args, cars=args.cars)
    result: SeasonSimulation | SimulationResult
    if args.championship is not None:
        result = simulate_seasons(season=args.championship, cars=args.cars,
                                  seasons=args.seasons, seed=args.seed, bot=args.bot,
                                  modules=modules, jobs=args.jobs)
    else:
        result = simulate(track=args.track, cars=args.cars, laps=args.laps, races=args.races,
                          seed=args.seed, bot=args.bot, modules=modules, jobs=args.jobs)
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result.text())
    return 0


def cmd_upgrades(args: argparse.Namespace) -> int:
    from .engine.garage import UPGRADES, UpgradeFileError, load_upgrades
    try:
        cards = UPGRADES if args.file is None else load_upgrades(args.file)
    except UpgradeFileError as exc:
        print(f"pitboard upgrades: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for u in cards.values():
        print(u.text())
    disputed = sum(1 for u in cards.values() if u.disputed)
    print(f"{len(cards)} card types; {disputed} rows where the sources disagree (DISPUTED)")
    return 0


def cmd_tracks(args: argparse.Namespace) -> int:
    from .trackfile import load_track, track_names

    if args.svg is not None:
        from .tracksvg import track_svg

        sys.stdout.write(track_svg(load_track(args.svg)))
        return 0
    for key in track_names():
        print(f"{key:13} {load_track(key).summary()}")
    return 0


def cmd_check_config(args: argparse.Namespace) -> int:
    from .hwconfig import check_config_main

    return check_config_main(args.file, install_facts=args.install_facts)


def cmd_flow_diagram(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .table.flow import flow_doc, write_flow_doc

    if args.out is None:
        sys.stdout.write(flow_doc())
        return 0
    try:
        write_flow_doc(Path(args.out))
    except OSError as exc:
        print(f"pitboard flow-diagram: cannot write {args.out}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"wrote {args.out}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .hwconfig import default_config_path
    from .run import run_main

    return run_main(args.config or str(default_config_path()), journal=args.journal,
                    verbose=args.verbose)


def cmd_tv(args: argparse.Namespace) -> int:
    import logging

    from .hwconfig import default_config_path
    from .tvscreen import tv_main

    logging.basicConfig(level=logging.INFO, format="pitboard tv: %(message)s")
    return tv_main(args.config or str(default_config_path()), browser=args.browser,
                   at_login=args.at_login, once=args.once, wait=args.wait, pace=args.pace,
                   print_only=args.print_only)


COMMANDS = {"run": cmd_run, "demo": cmd_demo, "scenario": cmd_scenario, "simulate": cmd_simulate,
            "upgrades": cmd_upgrades, "tv": cmd_tv,
            "tracks": cmd_tracks, "check-config": cmd_check_config,
            "flow-diagram": cmd_flow_diagram}


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0] in DELEGATED:
        import importlib

        module = importlib.import_module(DELEGATED[words[0]])
        code: int = module.main(words[1:])
        return code
    args = build_parser().parse_args(words)
    try:
        return COMMANDS[args.command](args)
    except BrokenPipeError:  # `pitboard demo | head`
        return 0
    except ValueError as exc:
        if not isinstance(exc, _bad_input_errors()):
            raise
        print(f"pitboard: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _bad_input_errors() -> tuple[type[ValueError], ...]:
    """Errors that mean a bad file, not a bug (imported only when something was raised)."""
    from .engine.datafile import DataFileError
    from .module_args import SetupError
    from .scenario import ScenarioError
    from .trackfile import TrackFileError

    return ScenarioError, TrackFileError, DataFileError, SetupError


if __name__ == "__main__":
    sys.exit(main())
