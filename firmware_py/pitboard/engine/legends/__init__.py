"""The Legends module: Legend cars driven by the Legend cards (see :mod:`.module`).

Example::

    >>> from pitboard.engine.legends import load_legend_cards
    >>> [c.number for c in load_legend_cards().cards][:3]
    [1, 2, 3]
"""

from .cards import LegendCard, LegendDeck, LegendEntry, load_legend_cards
from .module import Legends, legend_card, legend_cars, legend_count, legend_grid
from .movement import BRANCHES, LegendMove, legend_move

__all__ = ["BRANCHES", "LegendCard", "LegendDeck", "LegendEntry", "LegendMove", "Legends",
           "legend_card", "legend_cars", "legend_count", "legend_grid", "legend_move",
           "load_legend_cards"]
