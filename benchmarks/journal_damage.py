"""Damaged journals: how many confirmed decisions recovery keeps after one flipped bit.

    .venv/bin/python benchmarks/journal_damage.py [--flips 80] [--seed 1]

Plays a 6-car race (2 people, 4 bots, 2 laps on USA) through the table with its journal, then,
for each trial, copies the journal directory, flips one random bit of ``journal.log``, its
header copy ``journal.log.head`` or a snapshot and recovers it as a booting device would.
Prints the decisions recovered against the decisions journalled, and against what a perfect
prefix recovery keeps (every record before the damaged one, plus what the snapshot holds): a
flip in the header line is mended from its copy, so recovery keeps more than that prefix.
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import sys
import tempfile
from pathlib import Path

from pitboard.hw.events import GoPressed
from pitboard.journal import JOURNAL_NAME, SNAPSHOT_NAME, Journal
from pitboard.journalfile import HEAD_NAME, PREVIOUS_NAME
from pitboard.table.autoplay import next_input
from pitboard.table.recorder import JournalRecorder
from pitboard.table.table import Table


def play_race(directory: Path, seed: int) -> int:
    table = Table(stations=2, recorder=JournalRecorder(Journal(directory)), seed=seed,
                  clock=lambda: 0.0)
    for i in range(2):
        table.handle(GoPressed(station=i))
    table.start_race(track="usa", laps=2, cars=6)
    table.refresh()
    while table.race is not None and not table.race.over:
        event = next_input(table)
        assert event is not None
        table.handle(event)
    assert table.race is not None
    return len(table.race.log)


def best_possible(directory: Path, name: str, bit: int) -> int:
    """Decisions in the records wholly before the damaged byte (what a perfect recovery keeps)."""
    recorder = JournalRecorder(Journal(directory))
    saved = recorder.recover()
    full = len(saved.log) if saved else 0
    if name != JOURNAL_NAME:
        return full  # the journal itself is intact
    data = (directory / name).read_bytes()
    cut = data.rfind(b"\n", 0, bit // 8) + 1
    (directory / name).write_bytes(data[:cut])
    saved = JournalRecorder(Journal(directory)).recover()
    return len(saved.log) if saved else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flips", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        race = Path(tmp) / "race"
        decisions = play_race(race, args.seed)
        files = [n for n in (JOURNAL_NAME, HEAD_NAME, SNAPSHOT_NAME, PREVIOUS_NAME)
                 if (race / n).exists()]
        sizes = {n: (race / n).stat().st_size for n in files}
        recovered = possible = journalled = headers = 0
        header_bits = (race / JOURNAL_NAME).read_bytes().index(b"\n") * 8 + 8
        for trial in range(args.flips):
            name = rng.choice(files)
            bit = rng.randrange(sizes[name] * 8)
            headers += name == JOURNAL_NAME and bit < header_bits
            copy, ideal = Path(tmp) / f"t{trial}", Path(tmp) / f"i{trial}"
            shutil.copytree(race, copy)
            shutil.copytree(race, ideal)
            data = bytearray((copy / name).read_bytes())
            data[bit // 8] ^= 1 << (bit % 8)
            (copy / name).write_bytes(bytes(data))
            saved = JournalRecorder(Journal(copy)).recover()
            recovered += len(saved.log) if saved else 0
            possible += best_possible(ideal, name, bit)
            journalled += decisions
    print(f"race: {decisions} decisions; " + ", ".join(f"{n} {b} B" for n, b in sizes.items()))
    print(f"{args.flips} single-bit flips ({headers} in journal.log's header line): "
          f"{recovered} of {journalled} decisions recovered "
          f"({100 * recovered / journalled:.1f}%); a perfect prefix recovery keeps {possible}; "
          f"lost beyond it: {max(possible - recovered, 0)}, kept beyond it (mended headers): "
          f"{max(recovered - possible, 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
