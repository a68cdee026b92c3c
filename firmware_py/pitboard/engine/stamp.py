"""The stamp of a race: which rules and which data a saved decision log was played with.

A decision log replays to the same race only under the same rules (engine code, shuffle stream)
and the same data (track, cards, and each module's data files). A journal records
:func:`race_stamp` when its race starts; on resume :func:`stamp_change` says, in one line, what
differs, and the table sets the old race aside instead of replaying it into a different one.

The stamp holds :data:`RULES_VERSION` and one short SHA-256 per data source: the race's track
(as loaded, so any edit to what its file says about the race counts; its drawing coordinates
do not, since they change no rule), the base card types, and every source registered for a
module the race uses or a feature its track has (flooded, tunnel spaces). A module registers
its data where it is defined::

    register_data("garage", "upgrades", resources.files(__package__) / "upgrades.toml")
    register_data("garage", "rules", "garage-1")   # a version: bump it when its rules change

Example::

    >>> stamp = race_stamp(RaceSetup(track="usa", cars=2))
    >>> stamp["rules"] == RULES_VERSION, sorted(stamp["data"])
    (True, ['base.cards', 'base.track'])
    >>> stamp_change(stamp, RaceSetup(track="usa", cars=2)) is None
    True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ..track import Track
from ..trackfile import load_track
from .cards import CARD_TYPES, HEAT, STRESS, starting_deck
from .modules import feature_keys
from .setup import RaceSetup

#: The base rules' version: bump it whenever an engine change makes a saved decision log replay
#: differently (a rule fix, the shuffle stream). 1 = string-seeded shuffles; 2 = SplitMix64.
RULES_VERSION = 2

#: what a data source can be: a file (its bytes: a path, or a package resource as
#: importlib.resources gives it), a version string, or a function returning JSON-like data
#: (dataclasses, tuples and sets allowed)
Source = Path | Traversable | str | Callable[[], object]

#: module key -> {name: source}; "base" is the engine's own
_SOURCES: dict[str, dict[str, Source]] = {}


def register_data(module: str, name: str, source: Source) -> None:
    """Make races that use ``module`` depend on ``source`` (see the module docstring)."""
    _SOURCES.setdefault(module, {})[name] = source


@contextmanager
def registered(module: str, name: str, source: Source) -> Iterator[None]:
    """:func:`register_data` for the length of a ``with`` block (tests, tools)."""
    register_data(module, name, source)
    try:
        yield
    finally:
        del _SOURCES[module][name]
        if not _SOURCES[module]:
            del _SOURCES[module]


def _plain(value: Any) -> Any:
    """JSON-ready form of dataclasses, tuples and sets (sets sorted), for a stable digest."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    return value


def _digest(source: Source) -> str:
    """16 hex digits of SHA-256: a file's bytes, a version string, or data as canonical JSON."""
    if isinstance(source, (Path, Traversable)):
        data = source.read_bytes()
    elif isinstance(source, str):
        data = source.encode()
    else:
        data = json.dumps(_plain(source()), sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(data).hexdigest()[:16]


def _base_cards() -> dict[str, Any]:
    """The card types a base race holds (Garage cards register their own data)."""
    return {code: CARD_TYPES[code] for code in sorted({*starting_deck(1), HEAT, STRESS})}


register_data("base", "cards", _base_cards)


def _rules_of(track: Track) -> Track:
    """``track`` without its drawing coordinates: an owner correcting where a space is drawn
    changes no rule, and a journalled race on that track still resumes."""
    corners = tuple(dataclasses.replace(c, x=0.0, y=0.0) for c in track.corners)
    return dataclasses.replace(track, corners=corners, places={})


def race_stamp(setup: RaceSetup) -> dict[str, Any]:
    """The rules version and data digests a race of ``setup`` is played with (JSON types).

    Raises ValueError (a TrackFileError) if the race's track cannot be loaded, OSError if a
    registered data file cannot be read.
    """
    track = load_track(setup.track)
    data = {"base.track": _digest(lambda: _rules_of(track))}
    for module in ("base", *sorted(setup.modules), *feature_keys(track)):
        for name, source in sorted(_SOURCES.get(module, {}).items()):
            data[f"{module}.{name}"] = _digest(source)
    return {"rules": RULES_VERSION, "data": data}


def stamp_change(saved: object, setup: RaceSetup) -> str | None:
    """What differs between a saved stamp and today's rules and data for ``setup``, in one
    line (None when nothing does: the saved race replays as it was played)."""
    return compare_stamp(saved, lambda: race_stamp(setup))


def compare_stamp(saved: object, stamp: Callable[[], dict[str, Any]]) -> str | None:
    """What differs between a saved stamp and today's (``stamp()``, a race's or a season's),
    in one line; None when nothing does."""
    if not isinstance(saved, dict) or "rules" not in saved or "data" not in saved:
        return "it was saved without a rules stamp (an older Pitboard)"
    if saved["rules"] != RULES_VERSION:
        return f"it was saved under rules version {saved['rules']!r}, these are {RULES_VERSION}"
    try:
        now = stamp()["data"]
    except (OSError, ValueError) as exc:
        return f"its data cannot be read now ({' '.join(str(exc).split())})"
    old = saved["data"] if isinstance(saved["data"], dict) else {}
    changed = sorted(name for name in now.keys() | old.keys() if now.get(name) != old.get(name))
    if changed:
        return f"its data changed since it was saved: {', '.join(changed)}"
    return None
