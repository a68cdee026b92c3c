"""The table's journal: every confirmed decision is on disk before any screen shows it.

Records, in the order they happened (one JSON object each, see :mod:`pitboard.journal`):

``{"d": <decision>}``
    A decision the engine accepted (a person's, a bot's or a forced one).
``{"undo": n}``
    Staff undo: the decision log was cut back to its first ``n`` decisions.
``{"bot": car}``
    Kiosk: an idle seat was handed to a bot.
``{"human": car}``
    Kiosk: its player came back and took the seat again.
``{"end": true}``
    The race is over and dismissed (or reset): nothing to resume.

The race header holds the :class:`~pitboard.engine.setup.RaceSetup` and which station drives
which car; a snapshot holds the decision log so far. Selections in progress are never written
(SD-card wear): after a power cut players pick their cards again.

Records are buffered while bots and forced steps run and written with one fsync by
:meth:`JournalRecorder.flush`, which the table calls before it draws anything.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.decisions import Decision, decision_from_dict, decision_to_dict
from ..engine.race import Race
from ..engine.setup import RaceSetup
from ..journal import Journal, JournalCorrupted

log = logging.getLogger("pitboard.journal")

#: journal records between two snapshots (each snapshot lets the journal be compacted)
SNAPSHOT_EVERY = 64


@dataclass
class SavedRace:
    """A race as recovered from the journal, ready for :meth:`Table.restore`.

    Example::

        saved = recorder.recover()
        if saved is not None and not saved.ended:
            table.restore(saved)
    """

    setup: RaceSetup
    #: station index -> car (None: that station does not play)
    seats: list[int | None]
    log: list[Decision] = field(default_factory=list)
    #: cars whose seats were handed to a bot while idle
    idle_bots: set[int] = field(default_factory=set)
    ended: bool = False


class JournalRecorder:
    """Makes the table's decisions durable in a :class:`~pitboard.journal.Journal`.

    Example::

        recorder = JournalRecorder(Journal(Path("/var/lib/pitboard/journal")))
        saved = recorder.recover()          # None, or the race to resume
        table = Table(stations=2, recorder=recorder)
        if saved is not None and not saved.ended:
            table.restore(saved)
    """

    def __init__(self, journal: Journal, *, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.journal = journal
        self.snapshot_every = snapshot_every
        self.pending: list[dict[str, Any]] = []
        #: one line about the last storage problem ("" when all is well), for screens and status
        self.problem = ""
        self._log_length = 0

    # ------------------------------------------------------------------ the Recorder protocol
    def race_started(self, setup: RaceSetup, seats: Sequence[int | None]) -> None:
        header = {"setup": setup.to_dict(), "seats": list(seats)}
        self.pending.clear()
        self._log_length = 0
        try:
            self.journal.start(header)
            self.problem = ""
        except OSError as exc:
            self._failed("cannot start the journal", exc)

    def decision(self, decision: Decision) -> None:
        self.pending.append({"d": decision_to_dict(decision)})
        self._log_length += 1

    def undone(self, length: int) -> None:
        self.pending.append({"undo": length})
        self._log_length = length

    def seat_to_bot(self, car: int) -> None:
        self.pending.append({"bot": car})

    def seat_back(self, car: int) -> None:
        self.pending.append({"human": car})

    def race_closed(self) -> None:
        if self.journal.is_open:
            self.pending.append({"end": True})
            self.flush(None, ())

    def flush(self, race: Race | None, idle_bots: Collection[int]) -> None:
        """Write what is buffered with one fsync (called before any screen is drawn).

        ``race`` and ``idle_bots`` (cars a bot drives while their player is away) go into a
        snapshot every :data:`SNAPSHOT_EVERY` records.
        """
        if not self.pending or not self.journal.is_open:
            self.pending.clear()
            return
        records, self.pending = self.pending, []
        try:
            self.journal.append_many(records)
            if self.journal.records_since_snapshot >= self.snapshot_every and race:
                log_ = [decision_to_dict(d) for d in race.log]
                self.journal.snapshot({"log": log_, "idle_bots": sorted(idle_bots)})
                self.journal.compact()
        except OSError as exc:
            # The race goes on (a kiosk must not stop for a worn SD card), but say so.
            self._failed("journal write failed; this race cannot be resumed", exc)

    def set_aside(self, reason: str) -> None:
        """Give up on the journalled race (moved to ``corrupt-*``) so the next boot does not
        trip over it again; a new race starts a new journal."""
        self.problem = "saved race unreadable; new race"
        self.journal.set_aside(reason)

    def _failed(self, what: str, exc: OSError) -> None:
        self.problem = what
        log.error("%s: %s", what, exc)
        self.journal.close()

    # ------------------------------------------------------------------ recovery
    def recover(self) -> SavedRace | None:
        """The race the journal holds, or None (no journal, or it was damaged and moved aside).

        Never raises for bad bytes on disk: a damaged journal is logged in one line and moved
        aside so a new race can start.
        """
        try:
            found = self.journal.load()
        except JournalCorrupted as exc:
            self.problem = "journal damaged; moved aside"
            log.error("%s", exc.message)
            return None
        if found is None:
            return None
        try:
            saved = _rebuild(found.header, found.snapshot, found.records)
        except (KeyError, TypeError, ValueError) as exc:
            self.set_aside(f"it does not describe a race ({exc})")
            return None
        self._log_length = len(saved.log)
        return saved


def _rebuild(header: dict[str, Any], snapshot: dict[str, Any] | None,
             records: list[dict[str, Any]]) -> SavedRace:
    setup = RaceSetup.from_dict(header["setup"])
    setup.validate()
    seats = [None if s is None else int(s) for s in header["seats"]]
    saved = SavedRace(setup=setup, seats=seats)
    if snapshot is not None:
        saved.log = [decision_from_dict(d) for d in snapshot["log"]]
        saved.idle_bots = {int(c) for c in snapshot.get("idle_bots", [])}
    for record in records:
        if "d" in record:
            saved.log.append(decision_from_dict(record["d"]))
        elif "undo" in record:
            del saved.log[int(record["undo"]):]
        elif "bot" in record:
            saved.idle_bots.add(int(record["bot"]))
        elif "human" in record:
            saved.idle_bots.discard(int(record["human"]))
        elif record.get("end"):
            saved.ended = True
        else:
            raise ValueError(f"unknown journal record {sorted(record)}")
    return saved


def open_recorder(directory: Path) -> JournalRecorder:
    """A recorder on ``directory`` (created on the first race)."""
    return JournalRecorder(Journal(directory))
