"""The Championship: seasons of races with Event cards, Press Corners and Sponsorship cards.

* :mod:`.data` reads ``championship.toml`` (points, sponsors, the 18 Events, the seasons);
* :mod:`.rules` holds each Event rule as a small class answering only its hooks;
* :mod:`.module` is the race module (key ``championship``): the Event, the Press Corners, the
  sponsors dealt and earned;
* :mod:`.season` plays a whole season: its races one after the other, the standings, the grid
  by standings and the Garage kept across races.

Importing this package registers the module.
"""

from .data import Championship, Event, load_championship
from .module import ChampionshipModule, championship
from .rules import RULES, EventRule

__all__ = ["RULES", "Championship", "ChampionshipModule", "Event", "EventRule",
           "championship", "load_championship"]
