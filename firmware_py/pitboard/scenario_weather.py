"""Scenario directives of the Legends, Weather & road conditions and Championship modules
(docs/scenarios.md).

They fill ``RaceSetup.modules``::

    car 2 legend red            # car 2 is a Legend car with the red helmet
    legends deck 3 7 1          # Legend cards on top of the deck, top first
    legends pro 2               # Pro Legends: +2 to every top speed
    legends aggressive on       # Aggressive Legends
    weather fog                 # the weather token (or random)
    road 2 limit+1              # corner 2's road token (or: road random)
    event record_crowds         # a championship race with this Event card
    sponsors P4 P2 P1           # the sponsor deck, top first

Each problem is one line naming the scenario line, like every other directive.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .engine.legends import load_legend_cards
from .engine.weather import load_tokens, token_corners
from .track import Track

#: directives this file reads (besides ``car N legend COLOUR``)
DIRECTIVES = ("legends", "weather", "road", "event", "sponsors")
Fail = Callable[[str], ValueError]


def module_line(words: list[str], modules: dict[str, dict[str, Any]], track: Track | None,
                fail: Fail) -> None:
    """Read one ``legends``, ``weather``, ``road``, ``event`` or ``sponsors`` line into
    ``modules``."""
    key, rest = words[0].lower(), [w.lower() for w in words[1:]]
    if key in ("event", "sponsors"):
        _championship(key, rest, modules, fail)
    elif key == "legends":
        _legends(rest, modules.setdefault("legends", {}), fail)
    elif key == "weather":
        tokens = load_tokens()
        if len(rest) != 1 or rest[0] not in (*tokens.weather_keys, "random"):
            raise fail(f"expected 'weather {'|'.join(tokens.weather_keys)}|random'")
        weather = modules.setdefault("weather", {})
        if "weather" in weather:
            raise fail("'weather' given twice")
        weather["weather"] = rest[0]
    else:
        _road(rest, modules.setdefault("weather", {}), track, fail)


def legend_car(car: int, rest: list[str], modules: dict[str, dict[str, Any]],
               fail: Fail) -> None:
    """``car N legend COLOUR``: car N is a Legend car with that helmet colour."""
    colours = load_legend_cards().colours
    if len(rest) != 1 or rest[0].lower() not in colours:
        raise fail(f"expected 'car {car} legend {'|'.join(colours)}'")
    seats = modules.setdefault("legends", {}).setdefault("colours", {})
    colour = rest[0].lower()
    if colour in seats.values():
        raise fail(f"another Legend car already has the {colour} helmet")
    seats[str(car)] = colour


def _legends(rest: list[str], options: dict[str, Any], fail: Fail) -> None:
    if not rest or rest[0] not in ("deck", "pro", "aggressive"):
        raise fail("expected 'legends deck N N ...', 'legends pro N' or "
                   "'legends aggressive on|off'")
    what, values = rest[0], rest[1:]
    if what in options:
        raise fail(f"'legends {what}' given twice")
    if what == "deck":
        count = len(load_legend_cards().cards)
        if not values or not all(v.isdigit() and 1 <= int(v) <= count for v in values):
            raise fail(f"expected 'legends deck N N ...' with card numbers 1..{count}")
        if len(set(values)) != len(values):
            raise fail("the Legend deck lists a card twice")
        options["deck"] = [int(v) for v in values]
    elif what == "pro":
        if len(values) != 1 or not values[0].isdigit() or not 0 <= int(values[0]) <= 6:
            raise fail("expected 'legends pro N' with N 0..6")
        options["pro"] = int(values[0])
    else:
        if values not in (["on"], ["off"]):
            raise fail("expected 'legends aggressive on|off'")
        options["aggressive"] = values[0] == "on"


def _road(rest: list[str], options: dict[str, Any], track: Track | None, fail: Fail) -> None:
    tokens = load_tokens()
    if rest == ["random"]:
        if "road" in options:
            raise fail("'road random' cannot mix with other road lines")
        options["road"] = True
        return
    if len(rest) != 2 or not rest[0].isdigit() or rest[1] not in tokens.road_keys:
        raise fail(f"expected 'road CORNER {'|'.join(tokens.road_keys)}' or 'road random'")
    if track is None:
        raise fail("'track' must come before 'road'")
    corner = int(rest[0])
    if not 1 <= corner <= len(track.corners):
        raise fail(f"track {track.key} has corners 1..{len(track.corners)}, not {corner}")
    if corner - 1 not in token_corners(track):
        raise fail(f"corner {corner} is the second line of a chicane: its token is "
                   f"corner {corner - 1}'s")
    road = options.setdefault("road", {})
    if road is True:
        raise fail("'road random' cannot mix with other road lines")
    if str(corner) in road:
        raise fail(f"corner {corner} has a road token already")
    road[str(corner)] = rest[1]


def _championship(key: str, rest: list[str], modules: dict[str, dict[str, Any]],
                  fail: Fail) -> None:
    """``event KEY`` and ``sponsors C1 C2 ...``: the championship module (and the Garage
    module its sponsors need: without upgrades unless a ``garage`` line says otherwise)."""
    from .engine.championship import load_championship
    from .engine.championship.module import SPONSOR_CODES

    options = modules.setdefault("championship", {})
    modules.setdefault("garage", {}).setdefault("choose", "none")
    if key in options or (key == "sponsors" and "deck" in options):
        raise fail(f"'{key}' given twice")
    if key == "event":
        events = [e.key for e in load_championship().events]
        if len(rest) != 1 or rest[0] not in events:
            raise fail(f"expected 'event EVENT' (one of {', '.join(events)})")
        options["event"] = rest[0]
        return
    cards = [c.upper() for c in rest]
    if not cards or any(c not in SPONSOR_CODES for c in cards):
        raise fail(f"expected 'sponsors CARD ...' (sponsor cards "
                   f"{', '.join(sorted(SPONSOR_CODES))}), top first")
    options["deck"] = cards
