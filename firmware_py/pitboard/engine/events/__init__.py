"""Everything a race can say: one frozen class per kind of event, the base game's and its modules'.

A race records what happens, in order, in ``race.events`` (when ``record_events`` is on, as at
the table; a simulation leaves it off). Each entry is one of the classes below: narration
(:mod:`pitboard.narrate`), the station screens, the Legend moves the table waits for, the
console and scenario expectations read their fields. :meth:`Event.to_dict` gives the JSON form
the console's ``events json`` stream and a saved race (``race_to_dict(race, events=True)``)
carry: the fields in order, then ``type`` (the kind's name) and ``round`` (the round it happened
in; 0 before the first). :func:`event_from_dict` reads it back. The doctest of each class shows
its JSON; ``docs/events.md`` lists them all.

A car's place after it moved (:class:`Moved`, :class:`SpunOut`, :class:`LegendMoved`) is five
fields, as :meth:`Race.where <pitboard.engine.course.Course.where>` gives them (:class:`Place`):
``d`` (spaces from the start line), ``lap``, board ``space``, ``spot`` (1 or 2) and
``racing_line``.

The package is split by who says it: :mod:`.core` (what every event is, the register of kinds
and the JSON form), :mod:`.base` (the base game), then one file per module: :mod:`.garage`,
:mod:`.legends`, :mod:`.weather`, :mod:`.championship`. They are imported here in that order,
which is the order ``docs/events.md`` lists them in. A rules module outside the engine adds
kinds of its own with :func:`register_event`.

Example::

    >>> from pitboard.engine import Plan, Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
    >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
    >>> race.events[-1]
    Shifted(round=1, car=0, frm=1, to=2, heat=0)
    >>> race.events[-1].to_dict()
    {'car': 0, 'frm': 1, 'to': 2, 'heat': 0, 'type': 'shift', 'round': 1}
    >>> event_from_dict(race.events[-1].to_dict()) == race.events[-1]
    True
"""

from __future__ import annotations

from .core import (
    EVENTS,
    CarEvent,
    Decoders,
    Event,
    GridSpot,
    Place,
    event_from_dict,
    register_event,
)

# The kinds register as they are imported, and docs/events.md lists them in that order: the
# base game's first, then each module's (the splits keep ruff from sorting them).
# isort: split
from .base import (
    AdrenalineUsed,
    Boosted,
    Clogged,
    CooledDown,
    CornerChecked,
    Discarded,
    Finished,
    Flipped,
    GridDrawn,
    HeatPaid,
    LapStarted,
    Moved,
    Placed,
    RaceOver,
    Replenished,
    Reshuffled,
    Retired,
    Revealed,
    RoundStarted,
    Shifted,
    Slipstreamed,
    SpeedCounted,
    SpunOut,
    TurnStarted,
)

# isort: split
from .garage import (
    Accelerated,
    DirectPlayed,
    DraftDropped,
    Drafted,
    DraftMoved,
    MarketDealt,
    RefreshChosen,
    Salvaged,
    Scrapped,
    SpeedChosen,
    StressReduced,
    SuperCooled,
    Swapped,
    UpgradeReplaced,
    UsedUp,
)

# isort: split
from .legends import LegendCardFlipped, LegendDeckReshuffled, LegendMoved

# isort: split
from .weather import WeatherDrawn

# isort: split
from .championship import EventRevealed, HeatRemoved, SponsorEarned, SponsorsDealt

__all__ = [
    "EVENTS", "Accelerated", "AdrenalineUsed", "Boosted", "CarEvent", "Clogged", "CooledDown",
    "CornerChecked", "Decoders", "DirectPlayed", "Discarded", "DraftDropped", "DraftMoved",
    "Drafted", "Event", "EventRevealed", "Finished", "Flipped", "GridDrawn", "GridSpot",
    "HeatPaid", "HeatRemoved", "LapStarted", "LegendCardFlipped", "LegendDeckReshuffled",
    "LegendMoved", "MarketDealt", "Moved", "Place", "Placed", "RaceOver", "RefreshChosen",
    "Replenished", "Reshuffled", "Retired", "Revealed", "RoundStarted", "Salvaged", "Scrapped",
    "Shifted", "Slipstreamed", "SpeedChosen", "SpeedCounted", "SponsorEarned", "SponsorsDealt",
    "SpunOut", "StressReduced", "SuperCooled", "Swapped", "TurnStarted", "UpgradeReplaced",
    "UsedUp", "WeatherDrawn", "event_from_dict", "register_event",
]
