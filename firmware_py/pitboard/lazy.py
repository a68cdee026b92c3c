"""Lazy package exports: a package's public names, each imported from its file on first use.

A package ``__init__`` that imports every file up front makes ``import pitboard.x.anything``
pay for all of them; with this, ``pitboard sim --help`` loads the option parser alone. The
package lists its names twice: under ``if TYPE_CHECKING:`` (for mypy and readers) and in a
``{name: file}`` table for :func:`export`, which its module ``__getattr__`` (PEP 562) calls.

Example (in ``pitboard/sim/__init__.py``)::

    _HOMES = {"main": "cli", "Sim": "session"}

    def __getattr__(name: str) -> Any:
        return export(__name__, _HOMES, name)
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


def export(package: str, homes: dict[str, str], name: str) -> Any:
    """``package``'s attribute ``name``, imported from ``package.<homes[name]>``."""
    home = homes.get(name)
    if home is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{package}.{home}"), name)
    setattr(sys.modules[package], name, value)  # later lookups skip __getattr__
    return value
