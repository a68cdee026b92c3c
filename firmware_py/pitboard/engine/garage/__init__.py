"""The Garage module: upgrade cards (data.py, upgrades.toml), choosing them (draft.py), their
symbols (symbols.py at reveal, choices.py as React actions) and the module that hooks them into
a race (module.py).

Importing this package registers the cards, the draft decisions, the React actions and the
module (key ``garage``).
"""

from importlib import resources

from ..stamp import register_data
from .data import BY_CODE, UPGRADES, Upgrade, UpgradeFileError, by_type, load_upgrades
from .draft import DraftDrop, DraftPick, pool
from .module import GarageModule, removed_cards

__all__ = ["BY_CODE", "UPGRADES", "DraftDrop", "DraftPick", "GarageModule", "Upgrade",
           "UpgradeFileError", "by_type", "load_upgrades", "pool", "removed_cards"]

# a saved Garage race replays only with the same card file and the same symbol rules
register_data("garage", "upgrades", resources.files(__package__).joinpath("upgrades.toml"))
register_data("garage", "rules", "garage-1")  # bump when a symbol's rules change
