"""Views as JSON: a :class:`~pitboard.table.view.StationView` (and the race-control view) as
plain dicts for a browser, beside the OLED renderer (:mod:`pitboard.table.screens`) and the
text one (:mod:`pitboard.table.textview`).

Nothing is decided here: the fields are the view's, in the same slots. A tap on a phone means
what the tray button under that spot of an OLED means: ``cards[i]`` and ``keys[i]`` are both
over slot ``i`` (a paged hand has cards on slots 0-5 and ``PG>`` on slot 6). What an OLED
abbreviates or draws as a 5x5 icon is spelled out:

* every text's upgrade icons become words (:func:`~pitboard.table.icons.as_words`);
* each soft key has its label and the words a touch screen has room for (``BST`` -> "Boost");
* each card has its face: the speed, and an upgrade's name and symbols, each symbol with its
  number, whether it is mandatory, and what it does in a few words.

Example::

    >>> from pitboard.table.view import CardView, StationView
    >>> view = StationView("planning", 0, title="Alice", gear=2, target_gear=3, speed="7",
    ...                    cards=(CardView("4", "4", selected=True), CardView("U44", "U44")),
    ...                    soft_keys=("", "", "", "", "", "", "PG>"))
    >>> data = station_view_dict(view)
    >>> data["kind"], data["gear"], data["target_gear"], data["cards"][0]
    ('planning', 2, 3, {'slot': 0, 'code': '4', 'label': '4', 'kind': 'speed', 'selected': True, \
'disabled': False})
    >>> data["cards"][1]["face"]["name"], data["cards"][1]["face"]["symbols"][0]["says"]
    ('Wings', 'pays 1 Heat')
    >>> data["keys"]  # soft keys that are on, each over its slot
    [{'slot': 6, 'label': 'PG>', 'words': 'More cards', 'off': False}]
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ..engine.garage.data import MANDATORY
from .icons import ICON, MANDATORY_ICON, as_words
from .race_control import RaceControlView
from .upgrade_art import by_code, phrase, speed_text
from .view import CardView, CornerView, MoveView, StationView

#: the bump of the JSON shape: a page drawn for another shape reloads
SCHEMA = 1

#: soft-key abbreviations (OLED keys are 16 px wide) -> what a phone's key says
KEY_WORDS = {
    "TRK": "Track", "LAPS": "Laps", "CARS": "Cars", "OPTS": "More options", "RACE": "Race!",
    "ADR": "Adrenaline", "BST": "Boost", "COOL": "Cool down", "SLIP": "Slipstream",
    "DISC": "Discard", "GO": "GO", "OK": "OK", "PG>": "More cards", "NEXT": "Next",
    "BACK": "Back", "TYPE": "Garage type", "POOL": "Card pool", "EXP": "Expansions",
    "PRO": "Pro level", "AGGR": "Aggressive", "SKY": "Weather", "ROAD": "Road tokens",
    "UPG": "Upgrades", "MORE": "More", "TURN": "Turn",
}


@cache
def key_words(label: str) -> str:
    """What a phone's key says for the OLED key ``label`` (``SL2``: "Slipstream +2").

    Example::

        >>> key_words("BST"), key_words("SL2"), key_words("SP5"), key_words("XYZ")
        ('Boost', 'Slipstream +2', 'Speed 5', 'XYZ')
        >>> from pitboard.table.icons import ICON
        >>> key_words(ICON["salvage"] + "2")
        'Salvage 2'

    """
    if label in KEY_WORDS:
        return KEY_WORDS[label]
    if label.startswith("SL") and label[2:].isdigit():
        return f"Slipstream +{label[2:]}"
    if label.startswith("SP") and label[2:].isdigit():  # a card with a choice of speeds
        return f"Speed {label[2:]}"
    words = as_words(label)  # an upgrade's symbol key: its icon as a word, and its number
    return words[:1].upper() + re.sub(r"(?<=[a-z])(?=\d)", " ", words[1:])


@cache
def card_face(code: str) -> dict[str, Any]:
    """What a card shows: its speed (or "H", "S"), and an upgrade's name and symbols.

    Example::

        >>> card_face("3"), card_face("H")["name"]
        ({'speed': '3'}, 'Heat')
        >>> card_face("U8")["speed"], card_face("U8")["says"]
        ('1/3', 'Brakes 1/3: choose the speed')
    """
    if code == "H":
        return {"speed": "", "name": "Heat"}
    if code == "S":
        return {"speed": "?", "name": "Stress"}
    u = by_code(code)
    if u is None:
        return {"speed": code}
    from .upgrade_art import detail

    symbols = [{"symbol": name, "n": n, "mandatory": MANDATORY[name],
                "short": phrase(name, n, short=True).rstrip("!"), "says": phrase(name, n)}
               for name, n in u.symbols]
    return {"speed": speed_text(u), "name": u.family, "label": u.label,
            "symbols": symbols, "says": detail(code)[0] if detail(code) else u.label,
            "heat_card": u.heat_card}


def _card(slot: int, card: CardView) -> dict[str, Any]:
    out: dict[str, Any] = {"slot": slot, "code": card.code, "label": _text(card.label),
                           "kind": card.kind, "selected": card.selected,
                           "disabled": card.disabled}
    if card.kind == "upgrade":
        out["face"] = card_face(card.code)
    return out


def _corner(c: CornerView | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {"number": c.number, "limit": c.limit, "heat": c.heat, "adjust": c.adjust,
            "overheat": c.overheat, "ahead": c.ahead}


def _move(m: MoveView | None) -> dict[str, Any] | None:
    if m is None:
        return None
    return {"spaces": m.spaces, "space": m.space, "spot": m.spot, "lap": m.lap,
            "blocked": m.blocked, "who": m.who}


#: every upgrade icon -> its word: one str.translate per text (as_words char by char was a
#: third of the web thread's time)
_ICON_WORDS = {ord(ch): as_words(ch) for ch in (*ICON.values(), *MANDATORY_ICON.values())}


def _text(text: str) -> str:
    return text.translate(_ICON_WORDS)


def _words(texts: tuple[str, ...]) -> list[str]:
    return [t.translate(_ICON_WORDS) for t in texts]


def station_view_dict(view: StationView) -> dict[str, Any]:
    """``view`` as JSON types (see the module docstring)."""
    return {
        "kind": view.kind, "station": view.station, "title": _text(view.title),
        "cards": [_card(i, c) for i, c in enumerate(view.cards) if c.code],
        "keys": [{"slot": i, "label": _text(k), "words": key_words(k),
                  "off": i in view.keys_off}
                 for i, k in enumerate(view.soft_keys) if k],
        "gear": view.gear, "target_gear": view.target_gear, "shift_cost": view.shift_cost,
        "engine": view.engine, "speed": view.speed,
        "corners": [_corner(c) for c in view.corners],
        "next_corner": _corner(view.next_corner), "heat_owed": view.heat_owed,
        "spin_out": view.spin_out, "spin_odds": view.spin_odds,
        "message": _text(view.message),
        "go_fields": [_text(text) for text, _ in view.go_fields if text],
        "flips": _words(view.flips), "move": _move(view.move),
        "heat_paid": _words(view.heat_paid), "order": _words(view.order),
        "lap": view.lap, "laps": view.laps, "round": view.round,
        "lines": _words(view.lines), "sector": _text(view.sector),
        "detail": _text(view.detail[0]) if view.detail else "",
    }


def race_control_dict(view: RaceControlView) -> dict[str, Any]:
    """The race-control view as JSON types (for a read-only page, such as a TV's).

    Example::

        >>> race_control_dict(RaceControlView("ROUND 2", "Fog", lines=("1 Alice sp4 L1",)))
        {'title': 'ROUND 2', 'right': 'Fog', 'legend': '', 'spaces': '', 'spot': '', \
'lines': ['1 Alice sp4 L1'], 'footer': ''}
    """
    return {"title": view.title, "right": view.right, "legend": view.legend,
            "spaces": view.spaces, "spot": view.spot, "lines": _words(view.lines),
            "footer": view.footer}
