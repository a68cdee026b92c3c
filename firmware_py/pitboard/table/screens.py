"""Station screens: a :class:`~pitboard.table.view.StationView` drawn as a 128×64 1-bit image.

:func:`render` is pure (same view → identical pixels) and fast (static parts and text are cached
images, a frame is a handful of pastes). White (1) is a lit OLED pixel. This module holds the
screen of each view kind (planning, locked, resolution, waiting, results, and the titled
lobby/attract/fault/set-up checklist screens; the draft's is in
:mod:`~pitboard.table.draft_screen`), the ``_SCREENS`` registry and :func:`render`; the fonts
live in :mod:`pitboard.table.fonts` and the shared drawing helpers in :mod:`pitboard.table.canvas`
(their public names are re-exported here).

Design decisions:

* **Own bitmap fonts, no FreeType.** Glyphs are hand-drawn pixel art (:mod:`~pitboard.table.fonts`),
  so pixels are crisp on a 1-bit panel and identical on every machine (golden tests would break
  on a FreeType upgrade otherwise). Four sizes: :data:`TINY` 3×5 labels, :data:`SMALL` 5×7 text,
  :data:`MEDIUM` 10×14 (SMALL through Scale2x: card values, banners) and :data:`BIG` 10×16
  digits (its own 5×8 design through Scale2x) for the numbers read from arm's length: speed,
  gear, Heat in the engine, spaces to move.
* **The tray is the bottom of the screen.** Seven columns 18 px wide sit over the seven tray
  buttons; cards (planning, discard) and soft keys are drawn in them, so a button's meaning is
  the thing right above it.
* **Hierarchy by size and inversion, not by more text.** Inverted bands mean "act on this"
  (corner Heat owed, SPIN OUT, soft keys; a bar over a selected card); what does not fit is
  shortened (smaller font, then an ellipsis), never drawn over its neighbour.
"""

from __future__ import annotations

from PIL import Image

from pitboard.table.canvas import (
    _KEY_Y,
    _L,
    _MARK_Y,
    _ON,
    _R,
    COLUMN_PITCH,
    COLUMNS,
    HEADER_Y,
    HEIGHT,
    WIDTH,
    _cards_row,
    _fit,
    _heat_block,
    _keys_left,
    _lap,
    _move_block,
    _Screen,
    _signed,
    _soft_keys,
    _speed_block,
    _spot,
    column_x,
)
from pitboard.table.canvas import (
    _key_label as _key_label,  # tests check the soft-key abbreviations through screens
)
from pitboard.table.draft_screen import draw_draft
from pitboard.table.fonts import BIG, MEDIUM, SMALL, TINY, BitmapFont
from pitboard.table.join_screen import draw_join
from pitboard.table.planning_screen import (
    corner_row,
    corner_texts,
    draw_locked,
    draw_planning,
    draw_waiting_plan,
)
from pitboard.table.season_screen import draw_standings
from pitboard.table.upgrade_art import draw_detail
from pitboard.table.view import (
    ATTRACT,
    DRAFT,
    FAULT,
    LOBBY,
    LOCKED,
    PLANNING,
    RESOLUTION,
    RESULTS,
    SETUP,
    STANDINGS,
    WAITING,
    StationView,
)

__all__ = [
    "BIG",
    "COLUMNS",
    "COLUMN_PITCH",
    "HEIGHT",
    "MEDIUM",
    "SMALL",
    "TINY",
    "WIDTH",
    "BitmapFont",
    "column_x",
    "render",
    "status_lines",
]

# -- screens -------------------------------------------------------------------------------------
# (the planning, locked and plan-waiting screens are in planning_screen.py)
_corner_texts = corner_texts  # tests and the weather view check the corner warning's texts
_CORNER_Y, _MESSAGE_Y = 25, 32
_HEADER_Y = HEADER_Y


def _status_band(s: _Screen, left: str, right: str) -> None:
    """The top band (rows 0..8): state or title on the left, context on the right."""
    s.band(0, 8)
    w = s.fitted(_L, 1, _R - _L + 1, left, ink=0).image.width if left else 0
    room = _R - _L - w - 6
    if right and room >= 12:
        s.fitted(_R, 1, room, right, ink=0, align="right")


#: the waiting screen draws text in rows 0..39 (pages 0-4) only, as the planning and locked
#: screens do: its tray row is the locked screen's, so the reveal leaves pages 5-7 alone
_ABOVE_TRAY = 39
#: the waiting screen's columns: whose turn and the move left of a dotted rule at x=64, the
#: race order right of it (six TINY lines fill rows 0..39)
_ORDER_RULE = 64
_ORDER_X = _ORDER_RULE + 3


def _resolution(s: _Screen, v: StationView) -> None:
    bottom = HEIGHT - 1
    if v.cards:
        # the text ends above a selected card's bar whether or not a card is selected, so
        # the first selection adds its bar and moves no line (page 5 is the tray's)
        bottom = _MARK_Y - 2
    elif any(v.soft_keys):
        bottom = _KEY_Y - 2

    # The header as on the planning and locked screens: SPEED on the left and HEAT in the
    # engine on the right, in the same places and fonts (numbers that did not change are bytes
    # the reveal does not send); the move and where to put the car between them.
    sw = _speed_block(s, v.speed)
    hw = _heat_block(s, v.engine)
    if v.move is not None:
        # MOVE at a fixed place past a two-digit SPEED (a Boost toggle rewrites digits only)
        _move_block(s, _HEADER_Y, v, v.move, left=_L + max(sw, BIG.width("13")) + 6,
                    right=_R - hw - 4)
    y = 24
    sector = v.sector
    if v.spin_out:
        s.band(y, y + 15)
        s.text(WIDTH // 2, y + 1, "SPIN OUT", MEDIUM, ink=0, align="center")
        y += 17
    elif (v.corners or v.sector) and not v.detail:
        # the corner row as on the planning screen (page 3): the corners this move crosses
        # and the Heat they will cost when React is over, else what the sector does
        corner_row(s, v)
        y, sector = _MESSAGE_Y, ""
    flips = " ".join(v.flips)
    info: list[str] = [f"flipped {flips}"] if flips else []
    if v.detail:  # a pressed card's meaning (discard step) instead of the prompt
        y = s.lines(y, bottom, info, x=_L, width=_R - _L + 1)
        draw_detail(s, _L, y, _R - _L + 1, bottom, v.detail)
        _cards_row(s, v.cards, v.soft_keys, v.keys_off)
        return
    if v.move is not None and v.move.blocked:
        n = v.move.blocked
        info.append(f"blocked: {n} space{'s' if n > 1 else ''} lost")
    if v.heat_paid:  # "paid 3 Heat at corner 2, 1 Heat for Front Wing 6"
        info.append("paid " + ", ".join(v.heat_paid))
    if v.message_toggles and not v.cards and bottom >= _GO_LINE_Y + TINY.height - 1:
        # what GO does ("GO: cool 1 +1 keep hand"), in TINY fields at fixed places in the
        # page over the keys (rows 49..53: RAM page 6): a toggle rewrites its own field (and
        # its key, page 7), whatever the lines above it do
        if not (v.go_fields and s.fields(_L, _GO_LINE_Y, _R - _L + 1, "GO:", v.go_fields)):
            s.fitted(_L, _GO_LINE_Y, _R - _L + 1, v.message, (TINY,))
        s.lines(y, _GO_LINE_Y - 2, [*info, sector, *v.lines], x=_L, width=_R - _L + 1)
        _cards_row(s, v.cards, v.soft_keys, v.keys_off)
        return
    info += [v.message, sector, *v.lines]
    if v.message and len([i for i in info if i]) > _lines_fit(y, bottom):
        # too many lines: the status line (a prompt, a car to move) goes first, not last
        info = [v.message, *(i for i in info if i != v.message)]
    s.lines(y, bottom, info, x=_L, width=_R - _L + 1)
    _cards_row(s, v.cards, v.soft_keys, v.keys_off)


#: the turn screen's GO line (what GO does, while toggles change it): TINY rows 49..53, in the
#: RAM page over the soft keys
_GO_LINE_Y = 49


def _lines_fit(y: int, bottom: int) -> int:
    """How many TINY lines :meth:`_Screen.lines` stacks from ``y`` down to ``bottom``."""
    return max(0, (bottom - y - TINY.height + 1) // (TINY.height + 2) + 1)


def _wrap(text: str, width: int, font: BitmapFont) -> list[str]:
    """``text`` in lines of at most ``width`` px, broken at spaces (a word too long for a line
    is left to :func:`_fit` to shorten)."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.width(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


#: the waiting screen's status band: x 0.._BAND_RIGHT, its text _L.._BAND_RIGHT - 2
_BAND_RIGHT = _ORDER_RULE - 2


def status_lines(message: str) -> list[str]:
    """How the waiting screen's status band shows ``message``: one line, or two TINY lines
    when one does not hold it (a Legend move: "1/2 Red Legend 14→21 out: GO").

    Example::

        >>> status_lines("Bob to play")
        ['Bob to play']
    """
    width = _BAND_RIGHT - _L
    if TINY.width(message) <= width:
        return [message]
    return _wrap(message, width, TINY)[:2]


def _waiting(s: _Screen, v: StationView) -> None:
    if v.cards:  # a plan locked in, its turn to come: the locked screen with the news
        draw_waiting_plan(s, v)
        return
    # Left column: whose turn (an inverted band), the car's move big, round and lap. Right
    # column: the race order.
    left = _BAND_RIGHT
    width = left - _L
    lines = status_lines(v.message or (f"ROUND {v.round}" if v.round else "WAITING"))
    if len(lines) == 1:
        s.band(0, 8, 0, left)
        s.fitted(_L, 1, width, lines[0], ink=0)
        y, label = 10, True
    else:
        s.band(0, 14, 0, left)
        for i, line in enumerate(lines):
            s.fitted(_L, 2 + 6 * i, width, line, (TINY,), ink=0)
        y, label = 16, False  # the move without its label: the band took its row
    if v.move is not None:
        m = v.move
        if label:
            moved = f"{m.who} moved".strip()  # "you moved": this car's own turn is over
            blocked = [f"{moved}, blocked -{m.blocked}", f"{moved} blk -{m.blocked}",
                       f"moved blk -{m.blocked}"] if m.blocked else [moved, "moved"]
            s.fitted(_L, y, width, blocked, (TINY,))
            y += 7
        number = _fit(_signed(m.spaces), 34, (BIG, MEDIUM, SMALL))
        s.blit(_L, y, number.image)
        tx = _L + number.image.width + 4
        s.fitted(tx, y + 1, left - tx, [f"→ sp {m.space}", f"sp {m.space}"])
        s.fitted(tx, y + 9, left - tx, [_spot(m.spot, False), _spot(m.spot, True)])
    where = [f"round {v.round}" if v.round else "", _lap(v.lap, v.laps) if v.lap else ""]
    short = [f"R{v.round}" if v.round else "", _lap(v.lap, v.laps) if v.lap else ""]
    if v.move is not None and v.move.blocked and not label:  # the label row held it
        where.insert(0, f"blocked -{v.move.blocked}")
        short.insert(0, f"blk -{v.move.blocked}")
    tight = [*short[:-1], (f"L{v.lap}/{v.laps}" if v.laps else f"L{v.lap}") if v.lap else ""]
    texts = [", ".join(w for w in where if w), " ".join(w for w in short if w),
             " ".join(w for w in tight if w)]
    if texts[-1]:
        s.fitted(_L, _ABOVE_TRAY - 6, width, texts)
    # race order on the right, after a dotted rule
    for ry in range(0, _ABOVE_TRAY + 1, 2):
        s.img.putpixel((_ORDER_RULE, ry), _ON)
    s.lines(0, _ABOVE_TRAY, v.order, x=_ORDER_X, width=_R - _ORDER_X + 1, uniform=True)
    _cards_row(s, v.cards, v.soft_keys)


def _results(s: _Screen, v: StationView) -> None:
    _status_band(s, v.title or "RESULTS", f"{v.round} rounds" if v.round else "")
    # the finish order may run down beside soft keys on the right, not over them
    width = min(_R, _keys_left(v.soft_keys) - 3) - _L + 1
    order = [ln for ln in v.order if ln]
    small = len(order) <= 6 and all(SMALL.width(ln) <= width for ln in order)
    font, pitch = (SMALL, 9) if small else (TINY, 7)
    y = 11
    for i, line in enumerate(order):
        if y + font.height > HEIGHT:
            break
        if i == 0:
            # the winner: inverted
            w = _fit(line, width - 4, (font,)).image.width
            s.band(y - 1, y + font.height, _L - 1, _L + w + 2)
            s.fitted(_L + 1, y, width - 4, line, (font,), ink=0)
        else:
            s.fitted(_L + 1, y, width - 2, line, (font,))
        y += pitch
    _soft_keys(s, v.soft_keys)


def _titled(s: _Screen, v: StationView) -> None:
    """lobby, attract, fault, set-up checklist: title, lines, soft keys."""
    if v.qr:  # the lobby's PHONES page
        draw_join(s, v)
        return
    bottom = _KEY_Y - 2 if any(v.soft_keys) else HEIGHT - 1
    lines = [v.message, *v.lines]
    if v.kind == ATTRACT:
        title = v.title or "PITBOARD"
        if MEDIUM.width(title) <= WIDTH:
            s.text(WIDTH // 2, 0, title, MEDIUM, align="center")
        else:
            s.fitted(WIDTH // 2, 3, WIDTH, title, align="center")
        y = 17
        if v.order:
            # who leads the demo race, in one line at the bottom
            race = "  ".join(v.order)
            if v.round:
                race = f"R{v.round}: {race}"
            s.fitted(WIDTH // 2, bottom - 4, WIDTH, race, (TINY,), align="center")
            bottom -= 8
    elif v.kind == FAULT:
        _status_band(s, "FAULT", v.title)
        y = 11
    else:
        _status_band(s, v.title or v.kind.upper(), "")
        y = 11
    if v.kind == ATTRACT:
        s.lines(y, bottom, lines, x=WIDTH // 2, width=WIDTH, align="center")
    else:
        s.lines(y, bottom, lines, x=_L, width=_R - _L + 1)
    _soft_keys(s, v.soft_keys)


_SCREENS = {
    PLANNING: draw_planning,
    LOCKED: draw_locked,
    RESOLUTION: _resolution,
    WAITING: _waiting,
    RESULTS: _results,
    LOBBY: _titled,
    ATTRACT: _titled,
    FAULT: _titled,
    SETUP: _titled,
    DRAFT: draw_draft,
    STANDINGS: draw_standings,
}


def render(view: StationView) -> Image.Image:
    """Draw ``view`` as a new 128×64 mode ``"1"`` image (white = lit pixel).

    Pure and deterministic: equal views give identical pixels. Raises ``ValueError`` for an
    unknown ``view.kind`` (a caller bug).

    Example::

        >>> from pitboard.table.view import StationView
        >>> img = render(StationView(kind="planning", station=0, gear=2, target_gear=3,
        ...                          speed="7", engine=5))
        >>> img.mode, img.size
        ('1', (128, 64))
    """
    try:
        draw = _SCREENS[view.kind]
    except KeyError:
        raise ValueError(f"unknown screen kind {view.kind!r}") from None
    s = _Screen()
    draw(s, view)
    return s.img
