"""The planning screen (and the locked and plan-waiting screens built on it): a
:class:`~pitboard.table.view.StationView` of kind ``planning``/``locked`` drawn at 128×64.

Rows, laid out so a press changes few RAM pages (8 pixel rows each):

* **header** (pages 0-2): SPEED left, GEAR in the middle, HEAT in the engine right, all BIG at
  fixed places. GEAR stands well clear of SPEED, so a range ("13-14") never runs into the gear
  digit; a 2-gear shift's Heat is a chip beside the gear digit;
* **the warning** (pages 3-4, rows 24..39), the largest thing after those three numbers:

  - no corner crossed: the next corner and how far ("C2 limit 4 ... in 6"), the message below;
  - a corner crossed: "C2 limit 4" on the left and what it costs on the right, MEDIUM and
    inverted when it costs Heat ("+3H"); below the corner, a few words when the turn screen
    must keep COOL on for it (:attr:`~pitboard.table.view.StationView.note`), or the message;
  - a spin-out, certain or possible: an inverted MEDIUM band "SPIN OUT" or "SPIN 40%", the
    corner and the Heat owed beside it (when a message must show, the band takes page 3 only,
    in SMALL, the message page 4);

* **the tray** from row 41: the hand over the tray buttons.

A pressed upgrade's meaning (``detail``) takes the middle instead, the corners then on one TINY
line above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pitboard.table.canvas import (
    _L,
    _R,
    HEADER_Y,
    WIDTH,
    _cards_row,
    _cards_top,
    _fit,
    _heat_block,
    _lap,
    _Screen,
    _signed,
    _speed_block,
    _spot,
)
from pitboard.table.fonts import BIG, MEDIUM, SMALL, TINY
from pitboard.table.upgrade_art import draw_detail
from pitboard.table.view import CornerView, StationView

_HEADER_Y = HEADER_Y  # labels rows 1..5, numbers rows 8..23
_CORNER_Y = 25  # text rows 25..31, its band rows 24..31
_MESSAGE_Y = 32  # rows 32..38
#: the warning block: rows 24..39 (RAM pages 3 and 4)
_BLOCK_TOP, _BLOCK_BOTTOM = 24, 39
#: GEAR's label and BIG digit (the digit stands here whether or not a shift is shown): past a
#: two-digit range of speeds ("13-14" ends at column 57) by more than a digit's width
_GEAR_X = 70
#: the corner line's Heat field, right-aligned at a fixed width ("+12H", "ok", "in 6"):
#: a card that changes the Heat a corner costs rewrites this field, not the line
HEAT_FIELD_W = MEDIUM.width("+88H") + 4
#: a possible spin in the corner row when a message takes page 4 ("SPIN 40% +14H", SMALL)
_SPIN_FIELD_W = SMALL.width("SPIN 40% +14H") + 4


def corner_texts(view: StationView) -> list[str]:
    """Corner warning, from most to least verbose."""
    cs = view.corners
    owed = f"+{view.heat_owed}H" if view.heat_owed else "ok"
    texts = []
    if len(cs) == 1:
        c = cs[0]
        heat = f"+{c.heat} Heat" if c.heat else "ok"
        if c.adjust or c.overheat:  # a road token changed it: say so where it fits
            road = ", ".join(([f"road {_signed(c.adjust)}"] if c.adjust else []) +
                             ([f"+{c.overheat}H over"] if c.overheat else []))
            texts += [f"corner {c.number} limit {c.limit} ({road}): {heat}",
                      f"C{c.number} limit {c.limit} ({road}): {heat}"]
        if c.adjust:
            texts.append(f"C{c.number} lim{c.limit}({_signed(c.adjust)}): {heat}")
        texts.append(f"corner {c.number} limit {c.limit}: {heat}")
        texts.append(f"C{c.number} limit {c.limit}: {heat}")
    if any(c.adjust for c in cs):  # the limits the road tokens changed, marked (+1)/(-1)
        texts.append(" ".join(f"C{c.number} lim{c.limit}" +
                              (f"({_signed(c.adjust)})" if c.adjust else "") +
                              (f" +{c.heat}H" if c.heat else " ok") for c in cs))
    texts += [
        " ".join(f"C{c.number} lim{c.limit} " + (f"+{c.heat}H" if c.heat else "ok") for c in cs),
        " ".join(f"C{c.number} lim{c.limit}" for c in cs) + f" {owed}",
        " ".join(f"C{c.number}:{c.limit}" for c in cs) + f" {owed}",
    ]
    return texts


def draw_planning(s: _Screen, v: StationView, *, locked: bool = False) -> None:
    plan_header(s, v)
    _middle(s, v, locked=locked)
    if locked and not _spinning(v):  # (a spin-out's band says LOCKED itself)
        _locked_mark(s, v)
    _cards_row(s, v.cards, v.soft_keys)


def _spinning(v: StationView) -> bool:
    return v.spin_out or 0 < v.spin_odds < 100


def draw_locked(s: _Screen, v: StationView) -> None:
    draw_planning(s, v, locked=True)


def plan_header(s: _Screen, v: StationView) -> None:
    """Top (pages 0-2) of the planning, locked and plan-waiting screens: SPEED (left), GEAR
    (middle), HEAT in the engine (right), all BIG at fixed places."""
    _speed_block(s, v.speed)
    gx = _GEAR_X
    # a shift shows the gear it leaves in the label ("GEAR 2→"): the label row (page 0) and
    # the BIG digit (pages 1-2, always at the same place) are all a lever move rewrites
    label = f"GEAR {v.gear}→" if v.target_gear != v.gear else "GEAR"
    s.text(gx, _HEADER_Y, label if TINY.width(label) <= 30 else "GEAR", TINY)
    digit = BIG.render(str(v.target_gear))
    s.blit(gx, _HEADER_Y + 7, digit)
    heat = _heat_block(s, v.engine)
    if v.shift_cost:  # a 2-gear shift costs Heat: an inverted chip beside the gear digit
        chip = SMALL.render(f"+{v.shift_cost}H")
        cx = gx + digit.width + 4
        if cx + chip.width + 3 < _R - heat - 2:  # (clear of the HEAT number)
            s.band(_HEADER_Y + 8, _HEADER_Y + 16, cx, cx + chip.width + 3)
            s.blit(cx + 2, _HEADER_Y + 9, chip, 0)


def _middle(s: _Screen, v: StationView, *, locked: bool) -> None:
    message = "" if locked else v.message
    spin = _spinning(v)
    detail = bool(v.detail) and not message and not locked  # a pressed upgrade's meaning
    if detail:
        _detail(s, v, spin=spin)
    elif spin and message:
        _spin_row(s, v)
        s.fitted(_L, _MESSAGE_Y, _R - _L + 1, message)
    elif spin:
        _spin_block(s, v, locked=locked)
    elif v.corners:
        _heat_chip(s, v)
        left = _R - HEAT_FIELD_W - _L - 2  # (the turn screen's corner text: the same place)
        below = message or v.note
        road = _corner_left(s, v, left, room=not below and not locked)
        if (below or road) and not locked:
            s.fitted(_L, _MESSAGE_Y, left, below or road)
    else:
        corner_row(s, v)
        if message:
            s.fitted(_L, _MESSAGE_Y, _R - _L + 1, message)


def _spin_text(v: StationView) -> str:
    return f"SPIN {v.spin_odds}%" if 0 < v.spin_odds < 100 else "SPIN OUT"


def _spin_block(s: _Screen, v: StationView, *, locked: bool = False) -> None:
    """A spin-out: an inverted MEDIUM band over pages 3-4, the corner(s) and the Heat owed in
    SMALL beside it (upper half); a locked plan's band says LOCKED below them, so GO rewrites
    those few columns of page 4 only."""
    s.band(_BLOCK_TOP, _BLOCK_BOTTOM)
    w = s.text(_L, _BLOCK_TOP + 1, _spin_text(v), MEDIUM, ink=0)
    room = _R - _L - w - 4
    corners = " ".join(f"C{c.number}" for c in v.corners)
    owe = f"+{v.heat_owed}H" if v.heat_owed else ""
    line = f"{corners} {owe}".strip()
    if SMALL.width(line) <= room:
        s.text(_R, _CORNER_Y, line, SMALL, ink=0, align="right")
    else:  # the corners (TINY) and the Heat owed (SMALL) side by side, as they fit
        s.fitted(_R, _CORNER_Y, room, [line, owe, corners.replace(" ", "")], (SMALL, TINY),
                 ink=0, align="right")
    if locked:
        s.fitted(_R, _MESSAGE_Y + 2, room, ["LOCKED", "LCKD"], (TINY,), ink=0, align="right")


def _spin_row(s: _Screen, v: StationView) -> None:
    """A spin-out in page 3 only (a message takes page 4): SMALL, inverted."""
    s.band(_CORNER_Y - 1, _MESSAGE_Y - 1)
    w = s.text(_L, _CORNER_Y, _spin_text(v), SMALL, ink=0)
    corners = " ".join(f"C{c.number}" for c in v.corners)
    owe = f"+{v.heat_owed}H" if v.heat_owed else ""
    s.fitted(_R, _CORNER_Y, _R - _L - w - 5, [f"{corners} {owe}".strip(), owe], (SMALL, TINY),
             ink=0, align="right")


def _heat_chip(s: _Screen, v: StationView) -> int:
    """What the corners cost, right-aligned in the warning block: MEDIUM, inverted when it is
    Heat ("+3H"), plain "ok" when the limits are kept; returns its width."""
    heat = sum(c.heat for c in v.corners)
    text = f"+{heat}H" if heat else "ok"
    fit = _fit(text, HEAT_FIELD_W - 4, (MEDIUM, SMALL))
    img = fit.image
    y = _BLOCK_TOP + 1 + (MEDIUM.height - fit.font.height) // 2
    if heat:
        s.band(_BLOCK_TOP, _BLOCK_BOTTOM, _R - img.width - 2, WIDTH - 1)
        s.blit(_R - img.width + 1, y, img, 0)
    else:
        s.blit(_R - img.width + 1, y, img)
    return img.width + 3


def _corner_left(s: _Screen, v: StationView, width: int, *, room: bool) -> str:
    """The corners crossed, left of the Heat chip (page 3): "C2 limit 4". With ``room`` (the
    row below is free) a road token's change goes there instead, and is returned to be drawn
    ("road -1"); else it is marked on the corner where it fits."""
    cs = v.corners
    if len(cs) == 1:
        c = cs[0]
        road = _road_text(c)
        if room and road:
            s.fitted(_L, _CORNER_Y, width, _corner_names(replace(c, adjust=0, overheat=0)))
            return road
        s.fitted(_L, _CORNER_Y, width, _corner_names(c))
        return ""
    texts = [" ".join(f"C{c.number} lim{c.limit}" + (f"({_signed(c.adjust)})" if c.adjust
                                                     else "") for c in cs),
             " ".join(f"C{c.number} lim{c.limit}" for c in cs),
             " ".join(f"C{c.number}:{c.limit}" for c in cs)]
    s.fitted(_L, _CORNER_Y, width, texts)
    return ""


def _road_text(c: CornerView) -> str:
    """What road tokens did to a corner ("road -1, +1H over"), "" when nothing."""
    return ", ".join(([f"road {_signed(c.adjust)}"] if c.adjust else []) +
                     ([f"+{c.overheat}H over"] if c.overheat else []))


def _corner_names(c: CornerView) -> list[str]:
    """One corner ahead as text for the left of the row, most to least verbose."""
    left = [f"corner {c.number} limit {c.limit}", f"C{c.number} limit {c.limit}",
            f"C{c.number} lim{c.limit}"]
    if c.adjust or c.overheat:  # a road token changed it: say so where it fits
        road = _road_text(c)
        left = [f"C{c.number} limit {c.limit} ({road})", f"C{c.number} lim{c.limit} ({road})",
                *([f"C{c.number} lim{c.limit}({_signed(c.adjust)})"] if c.adjust else []),
                left[-1]]
    return left


def _detail(s: _Screen, v: StationView, *, spin: bool) -> None:
    """A pressed upgrade's meaning in the middle; the corners (or the spin) one TINY line above
    it."""
    top, gap = 24, 2
    if v.corners or spin:
        texts = [f"{_spin_text(v)} {t}" for t in corner_texts(v)] if spin else corner_texts(v)
        if v.heat_owed or spin:
            s.band(23, 28)
            s.fitted(_L, 24, _R - _L + 1, texts, (TINY,), ink=0)
        else:
            s.fitted(_L, 24, _R - _L + 1, texts, (TINY,))
        top, gap = 30, 1
    draw_detail(s, _L, top, _R - _L + 1, _cards_top(v.cards) - gap, v.detail)


def corner_row(s: _Screen, v: StationView) -> None:
    """The corner row (page 3) where it takes one page (the turn screen; the planning screen
    before the plan reaches a corner): the corners the move crosses and their Heat (a SMALL
    inverted chip when owed), else what the sector does, else the next corner and how far."""
    if len(v.corners) == 1:
        _corner_line(s, v.corners[0], owed=v.heat_owed > 0)
    elif v.corners:
        texts = corner_texts(v)
        if v.heat_owed:
            s.band(_CORNER_Y - 1, _CORNER_Y + 6)
            s.fitted(_L, _CORNER_Y, _R - _L + 1, texts, ink=0)
        else:
            s.fitted(_L, _CORNER_Y, _R - _L + 1, texts)
    elif v.sector:  # no corner crossed: what the sector here does
        s.fitted(_L, _CORNER_Y, _R - _L + 1, v.sector)
    elif v.next_corner is not None:  # else the next corner and how far
        _corner_line(s, v.next_corner, owed=False)


def _corner_line(s: _Screen, c: CornerView, *, owed: bool) -> None:
    """One corner: "C2 limit 4" on the left, its Heat in a fixed field on the right (an
    inverted chip when owed: act on this), or how far it is when the plan does not reach it
    ("in 6": spaces): the left part stays put when a card makes the move reach the corner."""
    s.fitted(_L, _CORNER_Y, _R - HEAT_FIELD_W - _L - 2, _corner_names(c))
    heat = [f"in {c.ahead}"] if c.ahead else [f"+{c.heat}H"] if c.heat else ["ok"]
    if owed:
        # as wide as its TINY text (rows 26..30 in the band's 24..31, clear of its edges)
        fit = _fit(heat, HEAT_FIELD_W - 2, (TINY,))
        s.band(_CORNER_Y - 1, _CORNER_Y + 6, _R - fit.image.width - 1, WIDTH - 1)
        s.blit(_R - fit.image.width + 1, _CORNER_Y + 1, fit.image, 0)
        return
    s.fitted(_R, _CORNER_Y, HEAT_FIELD_W - 2, heat, align="right")


def _locked_mark(s: _Screen, v: StationView) -> None:
    """The message row of a locked plan: an inverted LOCKED chip, then what it waits for
    (left of a Heat chip in the warning block)."""
    chip = SMALL.render("LOCKED")
    s.band(_MESSAGE_Y, _MESSAGE_Y + 7, 0, chip.width + 3)
    s.blit(2, _MESSAGE_Y + 1, chip, 0)
    x = chip.width + 7
    right = _R - HEAT_FIELD_W - 2 if v.corners and not (v.spin_out or v.spin_odds) else _R
    s.fitted(x, _MESSAGE_Y + 2, right - x + 1, v.message, (TINY,))


def draw_waiting_plan(s: _Screen, v: StationView) -> None:
    """Waiting with a plan locked in: the locked screen's header (the plan's SPEED, GEAR,
    HEAT) and tray (the cards played) stay as they are, so the reveal sends pages 3-4 only:
    whose turn it is (or the Legend / undo instruction: it always wins its row) and how far
    away this car's turn is (``lines[0]``) in a band, then the move of the car playing and the
    lap."""
    plan_header(s, v)
    s.band(_CORNER_Y - 1, _MESSAGE_Y - 1)
    status = v.message or (f"ROUND {v.round}" if v.round else "WAITING")
    used = s.fitted(_L, _CORNER_Y, _R - _L + 1, status, ink=0).image.width
    room = _R - _L - used - 6
    if v.lines and room >= 20:  # how far away this car's turn is, when the row has room
        s.fitted(_R, _CORNER_Y + 1, room, v.lines[0], (TINY,), ink=0, align="right")
    where = _lap(v.lap, v.laps) if v.lap else ""
    lw = s.fitted(_R, _MESSAGE_Y + 1, 40, [where, f"L{v.lap}"], (TINY,), align="right"
                  ).image.width if where else 0
    if v.move is not None:  # the car playing (``lines[1]`` names it)
        m = v.move
        who = f"{v.lines[1]} " if len(v.lines) > 1 and v.lines[1] else ""
        blocked = f", blocked -{m.blocked}" if m.blocked else ""
        width = _R - _L - lw - 4
        texts: Sequence[str] = [
            f"{who}{_signed(m.spaces)} → sp {m.space} {m.spot}{blocked}",
            f"{who}{_signed(m.spaces)} → sp {m.space} {_spot(m.spot, True)}{blocked}"]
        if TINY.width(texts[-1]) > width:  # the spot in TINY before no spot in SMALL
            move = f"{_signed(m.spaces)} → sp {m.space}"
            texts = [f"{who}{move}", move]
        s.fitted(_L, _MESSAGE_Y, width, texts)
    _cards_row(s, v.cards, v.soft_keys)
