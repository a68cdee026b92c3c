"""Soak: 500 races on each expansion track (Japan, Mexico, Netherlands, Spain) with every module
on: Legends (aggressive, some Pro), weather and road conditions, and the Garage's draft with the
Heavy Rain and Tunnel Vision cards. The checks of tests/test_module_properties.py after every
decision (Heat never negative, one car per spot, a Legend never asked to decide, every race
ends); at the end of each race every car in the Hall of Fame, replay identical and undo exact.
tests/test_track_features.py plays a few of these in ``make test``.

    python benchmarks/expansion_tracks.py [--races 500] [--tracks japan,spain] [--seed 0]

Prints per track: races, seconds, mean rounds, spin-outs, Legend wins, and how often each
track's own rules acted (Heat paid for flooded downshifts, turns that ended in a tunnel with
no Discard step, Legends that crossed three corner lines on a double chevron). Exits 1 on the
first failure, naming the game so it can be replayed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pitboard.engine.events import HeatPaid, LegendMoved, Moved, TurnStarted
from pitboard.engine.race import Race
from pitboard.trackfile import load_track
from test_module_properties import ModuleGame, check_finished, play

TRACKS = ("japan", "mexico", "netherlands", "spain")


def every_module(track: str, rng: random.Random) -> ModuleGame:
    """A race with every module on, over the laps the board prints; the field and the bots
    vary with ``rng``."""
    drivers = rng.randint(1, 5)
    return ModuleGame(
        track=track, drivers=drivers, legends=rng.randint(1, 6 - drivers),
        laps=load_track(track).laps, seed=rng.getrandbits(32),
        weather="random", road=True, pro=rng.randint(0, 3), aggressive=True,
        random_bots=tuple(rng.random() < 0.25 for _ in range(drivers)),
        garage="draft", expansions=True)


def rules_seen(race: Race) -> dict[str, int]:
    """How often the track's own rules acted in ``race`` (from its event log)."""
    track = race.track
    seen = {"flooded downshift Heat": 0, "turns ended in a tunnel": 0,
            "three-line Legend moves": 0}
    ends: dict[int, Moved] = {}
    for e in race.events:
        if isinstance(e, HeatPaid) and e.why == "downshift":
            seen["flooded downshift Heat"] += e.n
        elif isinstance(e, Moved):
            ends[e.car] = e
        elif isinstance(e, TurnStarted):
            last = ends.pop(e.car, None)
            if last is not None and last.space in track.tunnels:
                seen["turns ended in a tunnel"] += 1
        elif isinstance(e, LegendMoved) and e.frm < e.d:
            lines = race.corners_between(e.frm, e.d)
            seen["three-line Legend moves"] += len(lines) >= 3
    return {k: v for k, v in seen.items() if v}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=500, help="races per track (default 500)")
    parser.add_argument("--tracks", default=",".join(TRACKS), metavar="KEY,...")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for track in args.tracks.split(","):
        rng = random.Random(f"{args.seed}:{track}")
        start = time.perf_counter()
        rounds = spinouts = legend_wins = 0
        seen: dict[str, int] = {}
        for i in range(args.races):
            game = every_module(track, rng)
            try:
                race, before_last = play(game)
                check_finished(game, race, before_last)
            except Exception as exc:  # any failure: name the game, stop
                print(f"{track}: race {i + 1} FAILED: {type(exc).__name__}: {exc}\n  {game}")
                return 1
            rounds += race.round
            spinouts += sum(c.spinouts for c in race.cars)
            legend_wins += race.hall_of_fame[0] >= game.drivers
            for key, n in rules_seen(race).items():
                seen[key] = seen.get(key, 0) + n
        seconds = time.perf_counter() - start
        extra = "".join(f", {k} {v}" for k, v in sorted(seen.items()))
        print(f"{track}: {args.races} races with every module, all checks held in {seconds:.0f} s "
              f"({args.races / seconds:.1f} races/s); mean rounds {rounds / args.races:.1f}, "
              f"spin-outs {spinouts / args.races:.2f}/race, Legend wins "
              f"{legend_wins / args.races:.0%}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
