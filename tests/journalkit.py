"""Helpers for the journal tests: a sample header, records, a written race, a load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pitboard.journal import (
    Journal,
    Recovered,
)

HEADER = {"track": "usa", "players": ["ana", "ben", "cho"], "laps": 2}


def record(i: int) -> dict[str, Any]:
    return {"i": i, "player": i % 3, "gear": 1 + i % 4, "cards": [i, i + 1], "note": "é" * (i % 3)}


def write_race(directory: Path, n: int, *, snapshot_at: int | None = None) -> Journal:
    journal = Journal(directory)
    journal.start(HEADER)
    for i in range(n):
        if snapshot_at is not None and i == snapshot_at:
            journal.snapshot({"upto": i})
        journal.append(record(i))
    if snapshot_at == n:
        journal.snapshot({"upto": n})
    journal.close()
    return journal


def load(directory: Path) -> Recovered:
    """What a fresh Journal recovers from ``directory`` (closed again: a loaded journal holds
    its file open for appends, and hundreds of loads would run a test process out of fds)."""
    journal = Journal(directory)
    try:
        recovered = journal.load()
    finally:
        journal.close()
    assert recovered is not None
    return recovered


def line_offsets(path: Path) -> list[int]:
    """Byte offset where each line starts, plus the end of the file."""
    data = path.read_bytes()
    offsets = [0]
    for i, byte in enumerate(data):
        if byte == ord("\n"):
            offsets.append(i + 1)
    return offsets
