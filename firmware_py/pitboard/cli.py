"""The ``pitboard`` command."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import __version__
from .bots import make_bot
from .engine.race import Race
from .engine.setup import MAX_CARS, RaceSetup
from .engine.snapshot import race_to_dict
from .narrate import narrate
from .scenario import ScenarioError, load_scenario
from .simulate import simulate
from .trackfile import TrackFileError, load_track, track_names

#: exit status for bad input (config, scenario, track files)
EXIT_BAD_INPUT = 2

#: commands with their own argument parser (``pitboard NAME --help``), by module
DELEGATED = {"sim": "pitboard.sim", "screens": "pitboard.table.gallery",
             "wiring-docs": "pitboard.wiring"}
DELEGATED_HELP = {
    "sim": "the desktop simulation: every station's OLED in the terminal, keyboard or autoplay",
    "screens": "draw every station screen kind as PNGs (the docs/screens gallery)",
    "wiring-docs": "generate wiring_docs/ (pin tables, harness, BOM) from the hw_config profiles",
}


def _cars(text: str) -> int:
    n = int(text)
    if not 1 <= n <= MAX_CARS:
        raise argparse.ArgumentTypeError(f"cars must be 1..{MAX_CARS}")
    return n


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return n


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pitboard",
        description="Pitboard: the digital pit wall for Heat: Pedal to the Metal.",
    )
    parser.add_argument("--version", action="version", version=f"pitboard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    demo = sub.add_parser("demo", help="play a whole bot race and print it as text")
    _race_options(demo, cars=4, laps=1)
    demo.add_argument("--bot", choices=("heuristic", "random"), default="heuristic")

    sc = sub.add_parser("scenario", help="run a scenario file (docs/scenarios.md)")
    sc.add_argument("file")
    sc.add_argument("--json", action="store_true",
                    help="print the final state and event log as JSON")

    sim = sub.add_parser("simulate", help="race bots many times: winner stats and speed")
    _race_options(sim, cars=6, laps=None)
    sim.add_argument("--races", type=_positive, default=100)
    sim.add_argument("--bot", choices=("heuristic", "random"), default="heuristic")
    sim.add_argument("--json", action="store_true")

    sub.add_parser("tracks", help="list the tracks shipped with Pitboard")

    cc = sub.add_parser("check-config", help="validate a hw_config profile and print its pin map")
    cc.add_argument("file", help="a .toml file or a shipped profile name (sim, duo, grid6)")

    fd = sub.add_parser("flow-diagram", help="write the table flow as a Mermaid diagram")
    fd.add_argument("--out", default="docs/table-flow.md")

    for name, text in DELEGATED_HELP.items():
        sub.add_parser(name, help=text, add_help=False)

    run = sub.add_parser("run", help="run the table on a hardware profile (the systemd service)")
    run.add_argument("--config", default=None,
                     help="hw_config profile: a .toml file or sim, duo, grid6 "
                          "(default: $PITBOARD_HW_CONFIG, else sim)")
    run.add_argument("--journal", default=None,
                     help="journal directory (default: the profile's [journal] dir, relative "
                          "to $STATE_DIRECTORY under systemd)")
    return parser


def _race_options(p: argparse.ArgumentParser, *, cars: int, laps: int | None) -> None:
    p.add_argument("--track", default="usa",
                   help=f"track name ({', '.join(track_names())}) or a .toml file")
    p.add_argument("--cars", type=_cars, default=cars, help=f"1..{MAX_CARS}")
    p.add_argument("--laps", type=_positive, default=laps,
                   help="laps (default: the track's)" if laps is None else f"laps (default {laps})")
    p.add_argument("--seed", type=int, default=1)


def cmd_demo(args: argparse.Namespace) -> int:
    track = load_track(args.track)
    setup = RaceSetup(track=track.key, cars=args.cars, seed=args.seed, laps=args.laps,
                      names=tuple(f"Bot {i + 1}" for i in range(args.cars)))
    race = Race(setup, track=track)
    bot = make_bot(args.bot, seed=args.seed)
    print(f"{track.name}: {race.laps} lap(s), {args.cars} cars, seed {args.seed}")
    shown = 0
    while not race.over:
        race.apply(bot.choose(race, race.pending().cars[0]))
        for line in narrate(race.events[shown:], setup.name):
            print(line)
        shown = len(race.events)
    return 0


def cmd_scenario(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.file)
    race = scenario.run()
    if args.json:
        json.dump(race_to_dict(race, events=True), sys.stdout, indent=1)
        print()
        return 0
    for line in narrate(race.events, lambda i: race.cars[i].name):
        print(line)
    pending = race.pending()
    print(f"\nWaiting for: {pending.kind}" + (
        f" from car {', '.join(map(str, pending.cars))}" if pending.cars else ""))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    result = simulate(track=args.track, cars=args.cars, laps=args.laps, races=args.races,
                      seed=args.seed, bot=args.bot)
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result.text())
    return 0


def cmd_tracks(args: argparse.Namespace) -> int:
    for key in track_names():
        t = load_track(key)
        limits = ", ".join(str(c.limit) for c in t.corners)
        print(f"{key:15} {t.name:15} {t.spaces} spaces, {t.laps} laps, corners {limits}")
    return 0


def cmd_check_config(args: argparse.Namespace) -> int:
    from .hwconfig import check_config_main

    return check_config_main(args.file)


def cmd_flow_diagram(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .table.flow import write_flow_doc

    write_flow_doc(Path(args.out))
    print(f"wrote {args.out}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .app import run_main
    from .hwconfig import default_config_path

    return run_main(args.config or str(default_config_path()), journal=args.journal)


COMMANDS = {"run": cmd_run, "demo": cmd_demo, "scenario": cmd_scenario, "simulate": cmd_simulate,
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
    except (ScenarioError, TrackFileError) as exc:
        print(f"pitboard: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `pitboard demo | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
