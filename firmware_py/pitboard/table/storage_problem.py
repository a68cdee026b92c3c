"""What the table says when a race is not being made durable: :class:`StorageProblem`.

The journal's recorder (:mod:`pitboard.table.recorder`) keeps at most one problem, decides by
its kind when it stops being true (a reserve that works, a race that ends), and the lobby and
the service status show its words. The kinds are below; each one's sentence is in
:data:`TEXTS`, one place to change what the lobby says (at most 32 characters are shown).
"""

from __future__ import annotations

from dataclasses import dataclass

#: the disk cannot be written: the race goes on (or resumes) but is not saved
READ_ONLY = "read_only"
#: no room to reserve the next race's journal
DISK_FULL = "disk_full"
#: reserving the next race's journal failed otherwise
STORAGE_ERROR = "storage_error"
#: the journal of a race could not be started
START_FAILED = "start_failed"
#: a write failed in the middle of a race: it cannot be resumed
WRITE_FAILED = "write_failed"
#: the journal was damaged beyond use: moved aside (or not even that)
DAMAGED_MOVED = "damaged_moved"
DAMAGED_KEPT = "damaged_kept"
#: the journal was damaged: ``detail`` decisions before the damage were recovered
DAMAGED_RECOVERED = "damaged_recovered"
#: intact journal files that describe no race: set aside (or kept where they were)
UNREADABLE_MOVED = "unreadable_moved"
UNREADABLE_KEPT = "unreadable_kept"
#: a race saved under other rules or data: put away (or kept, and new races not saved)
OTHER_VERSION = "other_version"
OTHER_VERSION_KEPT = "other_version_kept"

#: kind -> what the lobby and the service status say ({detail} filled in)
TEXTS = {
    READ_ONLY: "read-only: race is not saved",
    DISK_FULL: "disk full: race won't be saved",
    STORAGE_ERROR: "storage error: not saved",
    START_FAILED: "cannot start the journal",
    WRITE_FAILED: "journal write failed; this race cannot be resumed",
    DAMAGED_MOVED: "journal damaged; moved aside",
    DAMAGED_KEPT: "journal damaged; could not move",
    DAMAGED_RECOVERED: "journal damaged: {detail} recovered",
    UNREADABLE_MOVED: "saved race unreadable; new race",
    UNREADABLE_KEPT: "saved race unreadable, kept",
    OTHER_VERSION: "old race set aside: new version",
    OTHER_VERSION_KEPT: "old race kept; races not saved",
}
#: the problems a journal reserved for the next race puts right
CLEARED_BY_RESERVE = frozenset({DISK_FULL, READ_ONLY, STORAGE_ERROR})
#: the problems of one race, over when it ends (the next race starts a new journal)
CLEARED_AT_RACE_END = frozenset({READ_ONLY, WRITE_FAILED, DAMAGED_MOVED, DAMAGED_KEPT,
                                 DAMAGED_RECOVERED})


@dataclass(frozen=True, slots=True)
class StorageProblem:
    """A storage problem: its ``kind`` (one of the names above) and a ``detail`` some kinds
    carry (how many decisions were recovered); ``str()`` is what the lobby shows.

    Example::

        >>> problem = StorageProblem(DAMAGED_RECOVERED, 12)
        >>> str(problem), problem.kind in CLEARED_AT_RACE_END
        ('journal damaged: 12 recovered', True)
        >>> str(StorageProblem(DISK_FULL))
        "disk full: race won't be saved"
    """

    kind: str
    detail: int = 0

    def __post_init__(self) -> None:
        if self.kind not in TEXTS:
            raise ValueError(f"unknown storage problem {self.kind!r}")

    def __str__(self) -> str:
        return TEXTS[self.kind].format(detail=self.detail)
