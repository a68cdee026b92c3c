"""A station screen as words: what the OLED says, legible in any terminal and in logs.

The 128x64 pictures need 130 terminal columns to be drawn pixel for pixel; shrunk to fit 80
columns their small text is a blur. These lines say the same things (gear, hand, speed, corner
warnings, Heat owed, where to move the car, whose turn) as plain text.

Example::

    >>> from pitboard.table.view import CardView, StationView
    >>> view = StationView("planning", 0, title="S1", gear=2, target_gear=3,
    ...                    cards=(CardView("4", "4", selected=True), CardView("1", "1")),
    ...                    speed="4", message="pick 3 cards: 1/3")
    >>> screen_line(view)
    'S1 planning: gear 2->3 · hand [4] 1 · speed 4 · pick 3 cards: 1/3'
    >>> screen_text(view, width=30, rows=4)
    ['S1 planning', 'gear 2->3 · hand [4] 1', 'speed 4 · pick 3 cards: 1/3']
"""

from __future__ import annotations

from .icons import as_words
from .view import (
    ATTRACT,
    DRAFT,
    FAULT,
    LOBBY,
    LOCKED,
    PLANNING,
    RESOLUTION,
    RESULTS,
    WAITING,
    StationView,
)

__all__ = ["screen_line", "screen_parts", "screen_text"]

_TITLES = {LOBBY: "lobby", PLANNING: "planning", LOCKED: "locked in", RESOLUTION: "your move",
           WAITING: "waiting", RESULTS: "results", ATTRACT: "attract loop", FAULT: "FAULT"}


def screen_parts(view: StationView, *, everything: bool = False) -> tuple[str, list[str]]:
    """(heading, short phrases) for ``view``. ``everything`` adds what a one-line summary
    leaves out (whose turn while waiting, flips, Heat paid, results in full)."""
    parts: list[str] = []
    cards = " ".join(f"[{c.label}]" if c.selected else c.label for c in view.cards if c.code)
    # a toggle that is off (drawn outlined on the OLED) in lower case: "ADR bst COOL"
    keys = as_words(" ".join(k.lower() if i in view.keys_off else k
                             for i, k in enumerate(view.soft_keys) if k))
    kind = view.kind
    if kind == PLANNING:
        gear = f"{view.gear}->{view.target_gear}" if view.target_gear != view.gear else \
            str(view.gear)
        parts += [f"gear {gear}", f"hand {cards}"]
        if view.speed:
            parts.append(f"speed {view.speed}")
        if everything:
            parts += [f"corner {c.number} (limit {c.limit}): {c.heat} Heat"
                      for c in view.corners]
        if view.heat_owed:
            parts.append(f"{view.heat_owed} Heat owed")
        if view.spin_out:
            parts.append(f"SPIN-OUT risk {view.spin_odds}%")
        parts.append(view.message)
        if everything and view.detail:  # the upgrade last pressed, spelled out
            parts.append(view.detail[0])
    elif kind == LOCKED:
        parts += [f"gear {view.gear}", f"plays {cards}"]
        if everything:
            parts.append(view.message)
    elif kind == RESOLUTION:
        parts.append(f"speed {view.speed}")
        if everything and view.flips:
            parts.append("flips " + " ".join(view.flips))
        if view.move is not None:
            parts.append(f"move {view.move.spaces} to space {view.move.space} ({view.move.spot})")
        if everything and view.heat_paid:
            parts.append("paid " + ", ".join(view.heat_paid))
        if cards:
            parts.append(f"hand {cards}")
        parts.append(view.message)
        if everything:  # the upgrades' effects, the turn's GO (Garage)
            parts += list(view.lines)
        if keys:
            parts.append(f"keys {keys}")
    elif kind == WAITING:
        # who is playing changes every turn: a one-line summary leaves it to the narration
        if everything or view.message.startswith("FINISHED"):
            parts.append(view.message)
    elif kind == RESULTS:
        parts.append(", ".join(view.order))
    elif kind == DRAFT:  # "S1 DRAFT 2/3: YOUR PICK · market a b c"
        parts += [view.message, *view.lines]
        if everything and cards:
            parts.append(f"market {cards}")
    else:
        parts += list(view.lines)
        if everything and keys:
            parts.append(f"keys {keys}")
    name = view.title if kind not in (RESULTS, LOBBY, ATTRACT) else f"S{view.station + 1}"
    if kind == DRAFT:
        return f"S{view.station + 1} {view.title}", [p for p in parts if p]
    return f"{name} {_TITLES.get(kind, kind)}", [p for p in parts if p]


def screen_line(view: StationView) -> str:
    """A station screen as one line of text (the plain-text mode's screen changes)."""
    heading, parts = screen_parts(view)
    return heading + (": " + " · ".join(parts) if parts else "")


def screen_text(view: StationView, *, width: int, rows: int) -> list[str]:
    """The screen as at most ``rows`` lines of at most ``width`` characters: the heading,
    then every phrase, packed left to right (a phrase is cut only if it is wider than a line;
    the last line ends in "…" when something did not fit)."""
    heading, parts = screen_parts(view, everything=True)
    if view.laps and view.kind in (PLANNING, LOCKED, RESOLUTION, WAITING):
        heading += f" · lap {max(view.lap, 1)}/{view.laps}" + (
            f" · engine {view.engine} Heat" if view.kind != WAITING else "")
    lines = [heading[:width]]
    line = ""
    for part in parts:
        part = part if len(part) <= width else part[: width - 1] + "…"
        if line and len(line) + 3 + len(part) <= width:
            line += " · " + part
            continue
        if line:
            lines.append(line)
        line = part
    if line:
        lines.append(line)
    if len(lines) > rows:
        lines = lines[:rows]
        lines[-1] = lines[-1][: width - 1] + "…"
    return lines
