"""The Garage module: upgrade cards (data.py, upgrades.toml), choosing them (draft.py), their
symbols (symbols.py) and the module that hooks them into a race (module.py).

Importing this package registers the cards, the draft decisions, the React actions and the
module (key ``garage``).
"""

from .data import BY_CODE, UPGRADES, Upgrade, UpgradeFileError, by_type, load_upgrades
from .draft import DraftDrop, DraftPick, pool
from .module import GarageModule, removed_cards

__all__ = ["BY_CODE", "UPGRADES", "DraftDrop", "DraftPick", "GarageModule", "Upgrade",
           "UpgradeFileError", "by_type", "load_upgrades", "pool", "removed_cards"]
