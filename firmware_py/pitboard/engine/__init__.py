"""The rules engine: the base game of Heat, pure and deterministic.

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=3, seed=42, laps=1))
    >>> race.pending().kind
    'plan'
"""

from .cards import CARD_TYPES, HEAT, STRESS, CardType
from .decisions import (
    Decision,
    Discard,
    IllegalDecision,
    Pending,
    Plan,
    PlanRule,
    React,
    Slipstream,
    decision_from_dict,
    decision_to_dict,
    parse_decision,
)
from .events import Event, event_from_dict
from .modules import ModuleRace, RaceModule, register_module
from .race import Car, Race
from .setup import RaceSetup, StackedDeck
from .snapshot import race_from_dict, race_to_dict, replay, undo

__all__ = [
    "CARD_TYPES",
    "HEAT",
    "STRESS",
    "Car",
    "CardType",
    "Decision",
    "Discard",
    "Event",
    "IllegalDecision",
    "ModuleRace",
    "Pending",
    "Plan",
    "PlanRule",
    "Race",
    "RaceModule",
    "RaceSetup",
    "React",
    "Slipstream",
    "StackedDeck",
    "decision_from_dict",
    "decision_to_dict",
    "event_from_dict",
    "parse_decision",
    "race_from_dict",
    "race_to_dict",
    "register_module",
    "replay",
    "undo",
]

# Rules modules register themselves on import (engine/modules.py): import each module's
# package here, after the base engine, so RaceSetup.modules finds it.
from . import (
    championship,  # noqa: F401  (the Championship: Events, Press Corners, sponsors)
    garage,  # noqa: F401  (Garage module)
    legends,  # noqa: F401  (Legends module)
    track_features,  # noqa: F401  (flooded and tunnel spaces: on with the track)
    weather,  # noqa: F401  (Weather & road conditions module)
)
