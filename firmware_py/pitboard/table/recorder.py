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
``{"setup": true}``
    The players confirmed the set-up checklist (tokens and Legend cars on the board).
``{"legends": n}``
    The players have moved the first ``n`` Legend moves of the race on the board.
``{"back": [[car, [space, racing line, lap], [space, racing line, lap]], ...]}``
    After an undo: the cars the players still have to put back, from where to where
    (:mod:`pitboard.table.cars_back`); written again after each confirm.
``{"race": n}``
    A championship season: its race ``n`` (from 0) begins, the one before it over; the records
    after it (decisions, undo, checklist, Legends...) are that race's.
``{"end": true}``
    The race (the season) is over and dismissed (or reset): nothing to resume.

The race header holds the :class:`~pitboard.engine.setup.RaceSetup`, which station drives which
car, whether a race-control display showed the Legend moves, and the race's stamp
(:mod:`pitboard.engine.stamp`: the rules version and digests of the track, card and module
data); a snapshot holds the decision log so far (and the checklist and Legend confirms). A
championship season is one journal: its header holds the
:class:`~pitboard.engine.championship.season.SeasonSetup` (``"season"`` instead of ``"setup"``)
and the season's stamp (every race's data); its snapshots add the finished races' decision logs
(``"logs"``) and the current race's number (``"race"``), so a power cut between races or in the
middle of one resumes there, with the standings, decks and sponsors replayed exactly. A
single-race journal reads as it always did. A
race whose stamp does not match today's rules and data (or that has none: journals from before
stamps) is never replayed into a different race: its files are put away, kept for good, in
``other-version-<UTC time>/`` and the table starts in the lobby, saying so.

Selections in progress are never written (SD-card wear): after a power cut players pick their
cards again.

Records are buffered while bots and forced steps run and written with one fsync by
:meth:`JournalRecorder.flush`, which the table calls before it draws anything.

Recovery keeps every record up to the first bad one: besides what the journal itself finds (a
bad checksum, see :mod:`pitboard.journal`), a record outside its valid range -- an undo below 0
or past the log, a seat that is no car, a decision the rules refuse -- is damage too, and the
journal is cut back to the records before it (the original is kept in ``corrupt-*``).
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..engine.championship.season import (
    Season,
    SeasonSetup,
    replay_season,
    season_stamp,
    season_stamp_change,
)
from ..engine.decisions import Decision, IllegalDecision, decision_from_dict, decision_to_dict
from ..engine.race import Race
from ..engine.setup import RaceSetup
from ..engine.snapshot import replay
from ..engine.stamp import RULES_VERSION, race_stamp, stamp_change
from ..journal import Journal, JournalCorrupted, JournalError, Recovered
from .legend_moves import legend_move_count
from .storage_problem import (
    CLEARED_AT_RACE_END,
    CLEARED_BY_RESERVE,
    DAMAGED_KEPT,
    DAMAGED_MOVED,
    DAMAGED_RECOVERED,
    DISK_FULL,
    OTHER_VERSION,
    OTHER_VERSION_KEPT,
    READ_ONLY,
    START_FAILED,
    STORAGE_ERROR,
    UNREADABLE_KEPT,
    UNREADABLE_MOVED,
    WRITE_FAILED,
    StorageProblem,
)

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
    #: the set-up checklist was confirmed (a race with no checklist counts as set up)
    set_up: bool = False
    #: Legend moves confirmed on the board, from the race's start
    legends_confirmed: int = 0
    #: the race was played with a race-control display
    race_control: bool = False
    #: cars to put back on the board after an undo (:meth:`CarBack.record` form)
    cars_back: list[list[Any]] = field(default_factory=list)
    #: a championship season: its setup (``setup`` is then its current race's) and the
    #: decision logs of the races before the current one (``log``)
    season: SeasonSetup | None = None
    season_logs: list[list[Decision]] = field(default_factory=list)


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
        #: the last storage problem (None while all is well), for the lobby and the status
        self.problem: StorageProblem | None = None
        self._log_length = 0
        #: the table's own progress in the race, for snapshots: checklist done, Legends moved
        self._table_state: dict[str, Any] = {}
        #: an unresumable race could not be put away: never overwrite it with a new one
        self._keep_on_disk = False

    # ------------------------------------------------------------------ the Recorder protocol
    def prepare(self) -> None:
        """Before a race: reserve the journal's disk space, so that players read in the lobby
        that the race will not be saved *before* they start it, not after a power cut."""
        try:
            self.journal.reserve()
        except OSError as exc:
            self.problem = StorageProblem({errno.ENOSPC: DISK_FULL, errno.EROFS: READ_ONLY}.get(
                exc.errno or 0, STORAGE_ERROR))
            log.error("journal: cannot reserve space for the next race, so it will not be "
                      "durable: %s", exc)
            return
        if self.problem is not None and self.problem.kind in CLEARED_BY_RESERVE:
            self.problem = None

    def race_started(self, setup: RaceSetup, seats: Sequence[int | None], *,
                     race_control: bool = False) -> None:
        header: dict[str, Any] = {"setup": setup.to_dict(), "seats": list(seats),
                                  "stamp": _stamp(setup)}
        self._start(header, race_control)

    def _start(self, header: dict[str, Any], race_control: bool) -> None:
        if race_control:
            header["race_control"] = True
        self.pending.clear()
        self._log_length = 0
        self._table_state = {}
        if self._keep_on_disk:  # the old race's files are still where a new one would go
            log.error("journal: not saving this race, so as not to overwrite the race kept in "
                      "%s", self.journal.directory)
            return
        try:
            self.journal.start(header)
            self.problem = None
        except OSError as exc:
            self._failed(StorageProblem(START_FAILED), exc)
            return
        self.prepare()  # a race started from the console had no lobby to reserve in

    def season_started(self, setup: SeasonSetup, seats: Sequence[int | None], *,
                       race_control: bool = False) -> None:
        """A championship season begins (its first race): one journal for all its races."""
        header: dict[str, Any] = {"season": setup.to_dict(), "seats": list(seats),
                                  "stamp": _season_stamp(setup)}
        self._start(header, race_control)

    def next_race(self, index: int, logs: Sequence[Sequence[Decision]]) -> None:
        """The season's race ``index`` (from 0) begins; ``logs``: every finished race's
        decisions (kept in snapshots)."""
        self.pending.append({"race": index})
        self._log_length = 0
        self._table_state = {"race": index,
                             "logs": [[decision_to_dict(d) for d in log] for log in logs]}

    def decision(self, decision: Decision) -> None:
        self.pending.append({"d": decision_to_dict(decision)})
        self._log_length += 1

    def undone(self, length: int) -> None:
        self.pending.append({"undo": length})
        self._log_length = length

    def set_up(self) -> None:
        self.pending.append({"setup": True})
        self._table_state["setup"] = True

    def legends_moved(self, confirmed: int) -> None:
        self.pending.append({"legends": confirmed})
        self._table_state["legends"] = confirmed

    def cars_back(self, records: list[list[Any]]) -> None:
        self.pending.append({"back": records})
        self._table_state["back"] = records

    def seat_to_bot(self, car: int) -> None:
        self.pending.append({"bot": car})

    def seat_back(self, car: int) -> None:
        self.pending.append({"human": car})

    def race_closed(self) -> None:
        if self.journal.is_open:
            self.pending.append({"end": True})
            self.flush(None, ())
        if self.problem is not None and self.problem.kind in CLEARED_AT_RACE_END:
            self.problem = None  # that race is over; the next one starts a new journal
        self.prepare()

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
                self.journal.snapshot({"log": log_, "idle_bots": sorted(idle_bots),
                                       **self._table_state})
                self.journal.compact()
        except OSError as exc:
            # The race goes on (a kiosk must not stop for a worn SD card), but say so.
            self._failed(StorageProblem(WRITE_FAILED), exc)

    def set_aside(self, reason: str) -> None:
        """Give up on the journalled race (moved to ``corrupt-*``) so the next boot does not
        trip over it again; a new race starts a new journal."""
        outcome = self.journal.set_aside(reason)
        self.problem = StorageProblem(UNREADABLE_MOVED if outcome.moved_to is not None
                                      else UNREADABLE_KEPT)

    def _failed(self, problem: StorageProblem, exc: OSError) -> None:
        self.problem = problem
        log.error("%s: %s", problem, exc)
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
            # the message says truthfully whether the files could be moved
            self.problem = StorageProblem(DAMAGED_MOVED if exc.moved_to is not None
                                          else DAMAGED_KEPT)
            log.error("%s", exc.message)
            return None
        if found is None:
            return None
        if self._other_version(found):
            return None
        try:
            saved, bad = _rebuild(found.header, found.snapshot, found.records)
        except (KeyError, TypeError, ValueError) as exc:
            self.set_aside(f"it does not describe a race ({exc})")
            return None
        if bad is not None and not found.read_only:
            index, reason = bad
            try:
                found = self.journal.keep_prefix(found.covers + index,
                                                 f"record {found.covers + index + 1}: {reason}")
            except (JournalError, OSError) as exc:
                self.set_aside(f"record {found.covers + index + 1}: {reason} ({exc})")
                return None
        elif bad is not None:
            found = replace_damage(found, f"record {found.covers + bad[0] + 1}: {bad[1]}")
        self._log_length = len(saved.log)
        self._table_state = {k: v for k, v in (("setup", saved.set_up),
                                               ("legends", saved.legends_confirmed),
                                               ("back", saved.cars_back)) if v}
        if saved.season is not None:
            self._table_state["race"] = len(saved.season_logs)
            self._table_state["logs"] = [[decision_to_dict(d) for d in log]
                                         for log in saved.season_logs]
        self._report(found, saved)
        return saved

    def _other_version(self, found: Recovered) -> bool:
        """True if the race on disk was saved under other rules or data (or without a stamp):
        it is then put away, kept, and not resumed."""
        try:
            if "season" in found.header:
                season = SeasonSetup.from_dict(found.header["season"])
                change = season_stamp_change(found.header.get("stamp"), season)
            else:
                setup = RaceSetup.from_dict(found.header["setup"])
                change = stamp_change(found.header.get("stamp"), setup)
        except (KeyError, TypeError, ValueError):
            return False  # not a race at all: recover() sets it aside as damaged
        if change is None:
            return False
        try:
            where = self.journal.put_away(OTHER_VERSION_PREFIX)
        except OSError as exc:
            self._keep_on_disk = True
            self.problem = StorageProblem(OTHER_VERSION_KEPT)
            log.error("saved race not resumed: %s; it could not be moved aside (%s), so it stays "
                      "in %s and new races are not saved", change, exc, self.journal.directory)
            return True
        self.problem = StorageProblem(OTHER_VERSION)
        log.error("saved race not resumed: %s; kept in %s; the table starts in the lobby",
                  change, where)
        return True

    def _report(self, found: Recovered, saved: SavedRace) -> None:
        """Say what recovery did, truthfully: in the log in full, on the lobby in a few words."""
        decisions = len(saved.log)
        if found.damage:
            kept = (f"the damaged original is kept in {found.kept_at}" if found.kept_at
                    else "the damaged original could not be copied aside")
            log.error("journal damaged (%s): recovered %d decisions, every one before the "
                      "damage; %s", found.damage, decisions, kept)
            self.problem = StorageProblem(DAMAGED_RECOVERED, decisions)
        if found.read_only:
            log.error("journal cannot be written (%s): the race resumes, but is not saved",
                      found.read_only)
            self.problem = StorageProblem(READ_ONLY)


#: where a race saved under other rules or data is put away (see the module docstring)
OTHER_VERSION_PREFIX = "other-version-"


def _stamp(setup: RaceSetup) -> dict[str, Any]:
    """The race's stamp; if its data cannot be read, one no resume will match (logged)."""
    try:
        return race_stamp(setup)
    except (OSError, ValueError) as exc:
        log.error("journal: cannot stamp the race's data (%s): it will not resume after a "
                  "restart", exc)
        return {"rules": RULES_VERSION, "data": {"unreadable": str(exc)}}


def _season_stamp(setup: SeasonSetup) -> dict[str, Any]:
    """The season's stamp; if its data cannot be read, one no resume will match (logged)."""
    try:
        return season_stamp(setup)
    except (OSError, ValueError) as exc:
        log.error("journal: cannot stamp the season's data (%s): it will not resume after a "
                  "restart", exc)
        return {"rules": RULES_VERSION, "data": {"unreadable": str(exc)}}


def replace_damage(found: Recovered, damage: str) -> Recovered:
    return replace(found, damage="; ".join(filter(None, (found.damage, damage))))


def _rebuild(header: dict[str, Any], snapshot: dict[str, Any] | None,
             records: list[dict[str, Any]]) -> tuple[SavedRace, tuple[int, str] | None]:
    """The race the header, snapshot and records describe, and the first bad record (its index
    in ``records`` and why), if any: the race is then what the records before it describe.

    Raises KeyError/TypeError/ValueError when the header or snapshot is unusable.
    """
    seats = [None if s is None else int(s) for s in header["seats"]]
    season: Season | None = None
    if "season" in header:  # a championship season: its races one after another
        season_setup = SeasonSetup.from_dict(header["season"])
        logs = [[decision_from_dict(d) for d in log] for log in
                (snapshot or {}).get("logs", [])]
        if snapshot is not None and int(snapshot.get("race", 0)) != len(logs):
            raise ValueError("snapshot: race and logs disagree")
        season = replay_season(season_setup, [*logs, []])  # (IllegalDecision: a ValueError)
        setup = season.race.setup
        saved = SavedRace(setup=setup, seats=seats, season=season_setup, season_logs=logs,
                          race_control=header.get("race_control") is True)
    else:
        setup = RaceSetup.from_dict(header["setup"])
        setup.validate()
        saved = SavedRace(setup=setup, seats=seats,
                          race_control=header.get("race_control") is True)
    if snapshot is not None:
        saved.log = [decision_from_dict(d) for d in snapshot["log"]]
        saved.idle_bots = {int(c) for c in snapshot.get("idle_bots", [])}
        saved.set_up = snapshot.get("setup") is True
        saved.legends_confirmed = int(snapshot.get("legends", 0))
        back = snapshot.get("back", [])
        if _back_problem(back, setup.cars):
            raise ValueError(_back_problem(back, setup.cars))
        saved.cars_back = back
    replayer = _Replayer(saved, replay(setup, list(saved.log)), season)
    if season is not None:
        season.race = replayer.race
    for index, record in enumerate(records):
        problem = replayer.apply(record)
        if problem:
            return saved, (index, problem)
    return saved, None


@dataclass
class _Replayer:
    """Applies records to a saved race, checking each against the race replayed alongside."""

    saved: SavedRace
    race: Race
    #: a championship season (None: a single race), its race the one replayed here
    season: Season | None = None

    def apply(self, record: dict[str, Any]) -> str:
        """Apply one record; a one-line reason if it lies outside its valid range (nothing is
        applied then), else ""."""
        saved = self.saved
        if saved.ended:
            return "a record after the end of the race"
        if len(record) != 1:
            return f"not a journal record ({', '.join(sorted(record)) or 'empty'})"
        (kind, value), = record.items()
        if kind == "d":
            try:
                decision = decision_from_dict(value)
                self.race.apply(decision)
            except (IllegalDecision, ValueError, TypeError, KeyError) as exc:
                return f"a decision the race refuses ({' '.join(str(exc).split())})"
            saved.log.append(decision)
        elif kind == "undo":
            if not _is_int(value) or not 0 <= value <= len(saved.log):
                return f"undo to {value!r} outside 0..{len(saved.log)}"
            del saved.log[value:]
            self.race = replay(saved.setup, list(saved.log))
            if self.season is not None:
                self.season.race = self.race
        elif kind in ("bot", "human"):
            if not _is_int(value) or not 0 <= value < saved.setup.cars:
                return f"{kind} seat {value!r} outside cars 0..{saved.setup.cars - 1}"
            if kind == "bot":
                saved.idle_bots.add(value)
            else:
                saved.idle_bots.discard(value)
        elif kind == "setup" and value is True:
            saved.set_up = True
        elif kind == "legends":
            moves = legend_move_count(self.race)
            if not _is_int(value) or not 0 <= value <= moves:
                return f"legends {value!r} outside the race's 0..{moves} Legend moves"
            saved.legends_confirmed = value
        elif kind == "back":
            problem = _back_problem(value, saved.setup.cars)
            if problem:
                return problem
            saved.cars_back = value
        elif kind == "race":
            return self._next_race(value)
        elif kind == "end" and value is True:
            saved.ended = True
        else:
            return f"unknown journal record {kind!r}"
        return ""


    def _next_race(self, value: object) -> str:
        """A ``race`` record: the season's next race begins ("" or why it cannot)."""
        season, saved = self.season, self.saved
        if season is None:
            return "a race record in a single race's journal"
        if not _is_int(value) or value != season.index + 1:
            return f"race {value!r}, but race {season.index + 1} comes next"
        if not self.race.over or season.last:
            return f"race {value!r} before race {season.index} is over"
        season.next_race()
        saved.season_logs.append(saved.log)
        saved.log = []
        saved.setup = season.race.setup
        saved.set_up, saved.legends_confirmed, saved.cars_back = False, 0, []
        self.race = season.race
        return ""


def _back_problem(value: object, cars: int) -> str:
    """Why ``value`` is no ``back`` record for a race of ``cars`` cars ("" if it is one)."""
    if not isinstance(value, list):
        return f"back {value!r} is not a list"
    for entry in value:
        if not (isinstance(entry, list) and len(entry) == 3 and _is_int(entry[0])
                and 0 <= entry[0] < cars and all(_is_place(p) for p in entry[1:])):
            return f"back {entry!r} is not [car, [space, racing line, lap] from, to]"
    return ""


def _is_place(value: object) -> bool:
    return isinstance(value, list) and len(value) == 3 and _is_int(value[0]) \
        and value[0] > 0 and isinstance(value[1], bool) and _is_int(value[2])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def open_recorder(directory: Path) -> JournalRecorder:
    """A recorder on ``directory`` (created on the first race)."""
    return JournalRecorder(Journal(directory))
