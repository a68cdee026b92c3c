"""Station screen drawing helpers shared by every screen kind of :mod:`pitboard.table.screens`.

The 128×64 geometry (the seven 18 px tray columns over the tray buttons, card and soft-key
sizes, text margins), the grey/halo masks, the :class:`_Screen` canvas with its text fitting,
the card sprites and soft keys drawn in the tray columns, and the blocks several screens share
(label + number, the move block). :mod:`pitboard.table.screens` re-exports the public names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from pitboard.table.fonts import _BIG_TIGHT, BIG, MEDIUM, SMALL, TINY, BitmapFont
from pitboard.table.upgrade_art import face as upgrade_face
from pitboard.table.view import (
    HEAT_CARD,
    STRESS_CARD,
    UPGRADE_CARD,
    CardView,
    MoveView,
    StationView,
)

__all__ = ["COLUMNS", "COLUMN_PITCH", "HEIGHT", "WIDTH", "column_x"]


WIDTH, HEIGHT = 128, 64
# A lit pixel as stored. Mode "1" keeps whatever byte is drawn (ink 1 stays 1, and
# ImageChops.invert turns it into 254, still lit): always draw 255.
_ON = 255
#: tray buttons under the screen; column ``i`` spans ``column_x(i) .. column_x(i) + 17``
COLUMNS = 7
COLUMN_PITCH = 18
_COLUMN_X0 = (WIDTH - COLUMNS * COLUMN_PITCH) // 2  # 1: the 7 columns centred

_CARD_W, _CARD_H = 16, 20
_CARD_Y = HEIGHT - _CARD_H  # 44: resting card top
#: a selected card: a bar over it in the tray's top RAM page (rows 41..42, the card stays put
#: at rest): a toggle rewrites the card's 16 columns of page 5 only, not its 3 pages (a raised or
#: inverted card changes every byte of its columns: ~3x the bus time of a toggle at 100 kHz)
_MARK_Y, _MARK_H = 41, 2
#: a soft key fills the last RAM page (rows 56..63): a toggle turning on or off, or GO reading
#: OK, rewrites its 17 columns of one page, not of two
_KEY_W, _KEY_H = 17, 8
_KEY_Y = HEIGHT - _KEY_H  # 56
# text margins: the same as the outer edges of the cards
_L, _R = 2, WIDTH - 3


def column_x(i: int) -> int:
    """Left x of tray column ``i`` (0..6), the column above tray button ``i``.

    Example::

        >>> column_x(0), column_x(6)
        (1, 109)
    """
    return _COLUMN_X0 + i * COLUMN_PITCH


# -- drawing helpers -----------------------------------------------------------------------------


def _checker(size: tuple[int, int], phase: int) -> Image.Image:
    """Every other pixel lit: greys out what it masks on a 1-bit panel."""
    w, h = size
    data = bytes(255 if (x + y + phase) % 2 == 0 else 0 for y in range(h) for x in range(w))
    return Image.frombytes("L", size, data).convert("1", dither=Image.Dither.NONE)


def _hatch(size: tuple[int, int]) -> Image.Image:
    """Diagonal hatching: the texture of a Heat card."""
    w, h = size
    data = bytes(255 if (x + y) % 3 == 0 else 0 for y in range(h) for x in range(w))
    return Image.frombytes("L", size, data).convert("1", dither=Image.Dither.NONE)


_GREY = _checker((WIDTH, HEIGHT), 0)


def _grey(img: Image.Image) -> Image.Image:
    return ImageChops.logical_and(img, _GREY.crop((0, 0, img.width, img.height)))


def _halo(img: Image.Image) -> Image.Image:
    """``img`` grown by one pixel in every direction (a dark outline to cut into texture)."""
    w, h = img.size
    out = Image.new("1", (w + 2, h + 2), 0)
    for dx in range(3):
        for dy in range(3):
            out.paste(_ON, (dx, dy, dx + w, dy + h), img)
    return out


@dataclass(frozen=True, slots=True)
class _Fit:
    font: BitmapFont
    text: str

    @property
    def image(self) -> Image.Image:
        return self.font.render(self.text)


def _fit(candidates: str | Sequence[str], width: int,
         fonts: Sequence[BitmapFont] = (SMALL, TINY)) -> _Fit:
    """The first candidate text that fits ``width`` in the first font that can; else shortened.

    Candidates go from most to least verbose ("C2 lim3 +2H C3 lim5" before "C2:3 C3:5").
    """
    texts = [candidates] if isinstance(candidates, str) else list(candidates)
    for font in fonts:
        for text in texts:
            if font.width(text) <= width:
                return _Fit(font, text)
    font, text = fonts[-1], texts[-1]
    while text and font.width(text + "…") > width:
        text = text[:-1]
    return _Fit(font, text.rstrip() + "…" if text else "")


class _Screen:
    """One frame being drawn; coordinates are pixels, ``ink`` 1 = lit."""

    def __init__(self) -> None:
        self.img = Image.new("1", (WIDTH, HEIGHT), 0)
        self.draw = ImageDraw.Draw(self.img)

    def blit(self, x: int, y: int, src: Image.Image, ink: int = 1) -> None:
        """Stamp the lit pixels of ``src`` at (x, y) in ``ink``."""
        if src.width and src.height:
            self.img.paste(_ON if ink else 0, (x, y, x + src.width, y + src.height), src)

    def text(self, x: int, y: int, text: str, font: BitmapFont = SMALL, *, ink: int = 1,
             align: str = "left") -> int:
        """Draw ``text`` with its left (or right/centre, per ``align``) at x; return its width."""
        img = font.render(text)
        self.blit(_aligned(x, img.width, align), y, img, ink)
        return img.width

    def fitted(self, x: int, y: int, width: int, candidates: str | Sequence[str],
               fonts: Sequence[BitmapFont] = (SMALL, TINY), *, ink: int = 1,
               align: str = "left") -> _Fit:
        """Draw the best fitting candidate in ``width`` px; small fonts are vertically centred."""
        fit = _fit(candidates, width, fonts)
        dy = (fonts[0].height - fit.font.height) // 2
        self.blit(_aligned(x, fit.image.width, align), y + dy, fit.image, ink)
        return fit

    def fill(self, box: tuple[int, int, int, int], ink: int = 1) -> None:
        """Fill the inclusive box (x0, y0, x1, y1)."""
        self.draw.rectangle(box, fill=_ON if ink else 0)

    def band(self, y0: int, y1: int, x0: int = 0, x1: int = WIDTH - 1) -> None:
        """A lit band (inverted background) with rounded corners."""
        self.fill((x0, y0, x1, y1))
        for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            self.img.putpixel((x, y), 0)

    def lines(self, y: int, bottom: int, lines: Sequence[str], x: int = 0,
              width: int = WIDTH, *, uniform: bool = False, align: str = "left") -> int:
        """Stack text lines from y down to ``bottom``; return the y after the last one.

        SMALL when every line fits vertically (and, if ``uniform``, horizontally: a list such
        as the race order reads better in one size), else TINY. Lines that do not fit are
        shortened, lines past ``bottom`` dropped.
        """
        lines = [ln for ln in lines if ln]
        small_pitch, tiny_pitch = SMALL.height + 2, TINY.height + 2
        fits = y + (len(lines) - 1) * small_pitch + SMALL.height - 1 <= bottom
        if uniform:
            fits = fits and all(SMALL.width(ln) <= width for ln in lines)
        fonts: tuple[BitmapFont, ...] = (SMALL, TINY) if fits else (TINY,)
        pitch = small_pitch if fits else tiny_pitch
        for line in lines:
            if y + fonts[0].height - 1 > bottom:
                break
            self.fitted(x, y, width, line, fonts, align=align)
            y += pitch
        return y


    def fields(self, x: int, y: int, width: int, lead: str,
               fields: Sequence[tuple[str, str]]) -> bool:
        """``lead`` then each field's text at a fixed place, in TINY: every field as wide as
        its widest text, the last one right-aligned at the end of ``width``, so a field that
        changes leaves the others' pixels alone ("done" in the first field when all are
        empty). Without ``lead`` when they do not fit with it; False (nothing drawn) when
        they do not fit ``width`` at all."""
        if not fields:
            return False
        gap = _FIELD_GAP
        *left, (last, last_widest) = fields
        widths = [max(TINY.width(text), TINY.width(widest)) for text, widest in left]
        need = sum(widths) + gap * len(widths)
        right = x + width - max(TINY.width(last), TINY.width(last_widest))
        start = x + TINY.width(lead) + gap
        if start + need > right:
            lead, start = "", x
            if start + need > right:
                return False
        self.text(x, y, lead, TINY)
        if not any(text for text, _ in fields):
            self.text(start, y, "done", TINY)
        for (text, _), w in zip(left, widths, strict=True):
            if text:
                self.text(start, y, text, TINY)
            start += w + gap
        if last:
            self.text(x + width - 1, y, last, TINY, align="right")
        return True


#: the space between two fields of :meth:`_Screen.fields`
_FIELD_GAP = 3


def _aligned(x: int, width: int, align: str) -> int:
    if align == "right":
        return x - width + 1
    if align == "center":
        return x - width // 2
    return x


# -- cards and soft keys -------------------------------------------------------------------------

def _card_sprite(card: CardView) -> Image.Image:
    return _card_sprite_cached(card.kind, card.label, card.disabled, card.code)


_sprites: dict[tuple[str, str, bool, str], Image.Image] = {}


def _card_sprite_cached(kind: str, label: str, disabled: bool, code: str = "") -> Image.Image:
    key = (kind, label, disabled, code)
    img = _sprites.get(key)
    if img is None:
        img = _draw_card(kind, label, disabled, code)
        if len(_sprites) > 256:
            _sprites.clear()
        _sprites[key] = img
    return img


def _draw_card(kind: str, label: str, disabled: bool, code: str = "") -> Image.Image:
    """A 16×20 card: outline, value, type mark; dotted when disabled (a selected one has a bar
    over it: :func:`_cards_row`).
    A Garage upgrade shows its speed and symbol icons instead (:mod:`.upgrade_art`)."""
    w, h = _CARD_W, _CARD_H
    card = Image.new("1", (w, h), 0)
    d = ImageDraw.Draw(card)
    d.rectangle((0, 0, w - 1, h - 1), outline=_ON)
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        card.putpixel((x, y), 0)  # rounded corners
    if disabled:
        # dotted outline: keep every other pixel of the frame
        card = ImageChops.logical_and(card, _checker((w, h), 0))

    inner = (2, 2, w - 2, h - 2)
    upgrade = upgrade_face(code) if kind == UPGRADE_CARD and code else None
    if upgrade is not None:
        if disabled:
            upgrade = _grey(upgrade)
        card.paste(_ON, (1, 1, 1 + upgrade.width, 1 + upgrade.height), upgrade)
    elif kind == HEAT_CARD:
        # Heat: hatched face with a small H cut out of it — junk, not a speed
        face = _hatch((w - 4, h - 4))
        glyph = SMALL.render(label or "H")
        gx, gy = (w - glyph.width) // 2, (h - glyph.height) // 2
        face.paste(0, (gx - 3, gy - 3, gx - 3 + glyph.width + 2, gy - 3 + glyph.height + 2),
                   _halo(glyph))
        card.paste(_ON, inner, face)
        card.paste(_ON, (gx, gy, gx + glyph.width, gy + glyph.height), glyph)
    elif kind == STRESS_CARD:
        # Stress: a lit face with its S cut out (a card of unknown value): at a glance nothing
        # like a Speed card or the 5, which are drawn in outline
        fit = _fit(label, w - 4, (MEDIUM, SMALL, TINY))
        glyph = fit.image
        face = Image.new("1", (w - 2, h - 2), 0)
        face.paste(_ON, (0, 0, face.width, face.height))
        for x, y in ((0, 0), (face.width - 1, 0), (0, face.height - 1),
                     (face.width - 1, face.height - 1)):
            face.putpixel((x, y), 0)
        gx, gy = (face.width - glyph.width) // 2, face.height - 1 - glyph.height
        face.paste(0, (gx, gy, gx + glyph.width, gy + glyph.height), glyph)
        if disabled:
            face = _grey(face)
        card.paste(_ON, (1, 1, 1 + face.width, 1 + face.height), face)
    else:
        fit = _fit(label, w - 4, (MEDIUM, SMALL, TINY))
        glyph = fit.image
        if disabled:
            glyph = _grey(glyph)
        # the value sits low (rows 4..17) to leave the top rows for the type mark
        gx, gy = (w - glyph.width) // 2, h - 2 - glyph.height if glyph.height > 8 else 7
        card.paste(_ON, (gx, gy, gx + glyph.width, gy + glyph.height), glyph)
        if kind == UPGRADE_CARD:  # upgrade: a solid header stripe
            ImageDraw.Draw(card).rectangle((2, 1, w - 3, 2), fill=_ON)
    return card


def _cards_row(s: _Screen, cards: Sequence[CardView], keys: Sequence[str] = (),
               off: Sequence[int] = ()) -> None:
    """Card i over tray button i; a soft key (e.g. "MORE") takes its column instead. A selected
    card has a bar over it (:data:`_MARK_Y`)."""
    for i, card in enumerate(cards[:COLUMNS]):
        if not card.code or (i < len(keys) and keys[i]):
            continue  # an empty slot, or the column belongs to a soft key
        x = column_x(i) + 1
        s.blit(x, _CARD_Y, _card_sprite(card))
        if card.selected:
            s.fill((x + 1, _MARK_Y, x + _CARD_W - 2, _MARK_Y + _MARK_H - 1))
    _soft_keys(s, keys, off)


_VOWELS = frozenset("AEIOU")


def _key_label(key: str, width: int) -> str:
    """``key`` shortened to ``width`` px of TINY: drop vowels from the end ("BOOST" → "BOST").

    Example::

        >>> _key_label("BOOST", 15), _key_label("DONE", 15)
        ('BOST', 'DONE')
    """
    text = TINY.normalize(key)
    while TINY.width(text) > width:
        vowels = [i for i, ch in enumerate(text) if i and ch in _VOWELS]
        if not vowels:
            break
        i = vowels[-1]
        text = text[:i] + text[i + 1 :]
    return _fit(text, width, (TINY,)).text


def _cards_top(cards: Sequence[CardView]) -> int:
    """The top row of the card row (a selected card's bar included): text must end above it."""
    return _MARK_Y if any(c.selected for c in cards[:COLUMNS]) else _CARD_Y


def _soft_keys(s: _Screen, keys: Sequence[str], off: Sequence[int] = ()) -> None:
    """Each key a lit band with a dark label; a toggle that is off (``off``) an outline."""
    for i, key in enumerate(keys[:COLUMNS]):
        if not key:
            continue
        x = column_x(i)
        label = TINY.render(_key_label(key, _KEY_W - 2))
        lx = x + (_KEY_W - label.width) // 2
        if i in off:
            s.draw.rectangle((x, _KEY_Y, x + _KEY_W - 1, HEIGHT - 1), outline=_ON)
            s.blit(lx, _KEY_Y + 2, label, 1)
            continue
        s.band(_KEY_Y, HEIGHT - 1, x, x + _KEY_W - 1)
        s.blit(lx, _KEY_Y + 2, label, 0)


# -- shared blocks -------------------------------------------------------------------------------


def _label_number(s: _Screen, x: int, y: int, label: str, number: str, *,
                  align: str = "left", max_width: int = 56) -> int:
    """A TINY label over a BIG number (falling back to smaller fonts); return the block width.

    The label takes rows y..y+4, the number y+7..y+22.
    """
    lw = s.text(x, y, label, TINY, align=align)
    fit = _fit(number or "-", max_width, (BIG, _BIG_TIGHT, MEDIUM, SMALL))
    dy = (BIG.height - fit.font.height) // 2
    s.blit(_aligned(x, fit.image.width, align), y + 7 + dy, fit.image)
    return max(lw, fit.image.width)


#: the planning header's rows (the locked screen's too, and the reveal keeps SPEED and HEAT
#: there): TINY labels rows 1..5 (RAM page 0), BIG numbers rows 8..23 (pages 1-2), so a
#: changed number rewrites two pages, not three
HEADER_Y = 1


#: SPEED's number in fixed BIG cells: the lowest speed right-aligned in two digit cells, the
#: dash of a range, the highest speed left-aligned in two more ("7", " 4-7", "10-13"), so a
#: card that changes one end of the range rewrites that end's digits, not the whole number
_SPEED_LOW = _L + BIG.width("88") - 1  # right edge of the lowest speed (col 23)
_SPEED_DASH = _SPEED_LOW + 3  # the dash (cols 26..31)
_SPEED_HIGH = _SPEED_DASH + BIG.width("-") + 2  # left edge of the highest speed (col 34)


def _speed_block(s: _Screen, speed: str) -> int:
    """SPEED at the planning header's place (left), its number in fixed cells
    (:data:`_SPEED_LOW`); returns its width."""
    low, dash, high = speed.partition("-")
    cells = low.isdigit() and len(low) <= 2 and (not dash or (high.isdigit() and len(high) <= 2))
    if speed and not cells:  # (not a speed or a range of speeds: as it comes)
        return _label_number(s, _L, HEADER_Y, "SPEED", speed, max_width=52)
    lw = s.text(_L, HEADER_Y, "SPEED", TINY)
    y = HEADER_Y + 7
    if not speed:  # no card chosen yet: the dash alone
        s.blit(_SPEED_DASH, y, BIG.render("-"))
        return max(lw, _SPEED_DASH + BIG.width("-") - _L)
    s.text(_SPEED_LOW, y, low, BIG, align="right")
    if not dash:
        return max(lw, _SPEED_LOW - _L + 1)
    s.blit(_SPEED_DASH, y, BIG.render("-"))
    w = s.text(_SPEED_HIGH, y, high, BIG)
    return _SPEED_HIGH + w - _L


def _heat_block(s: _Screen, engine: int) -> int:
    """HEAT in the engine at the planning header's place (right-aligned); returns its width."""
    return _label_number(s, _R, HEADER_Y, "HEAT", str(engine), align="right", max_width=30)


_SPOT_SHORT = {"racing line": "RL", "outside": "out"}


def _spot(spot: str, short: bool) -> str:
    return _SPOT_SHORT.get(spot, spot[:3]) if short else spot


def _lap(lap: int, laps: int) -> str:
    return f"lap {lap}/{laps}" if laps else f"lap {lap}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _move_block(s: _Screen, y: int, view: StationView, move: MoveView, *, left: int = _L,
                right: int = _R) -> None:
    """MOVE as a big number from x ``left``, where to put the car beside it (3 lines) up to x
    ``right``. The destination starts at a fixed place (past a two-digit move), so a toggle
    that changes the speed rewrites the numbers and the lines, not the block."""
    w = _label_number(s, left, y, "MOVE", _signed(move.spaces), max_width=36)
    x = left + max(w, BIG.width("+13")) + 5
    width = right - x + 1
    s.fitted(x, y, width, [f"→ space {move.space}", f"→ sp {move.space}", f"sp {move.space}"])
    spot = _spot(move.spot, False)  # "racing line" in TINY before "RL"
    s.fitted(x, y + 8, width, spot if TINY.width(spot) <= width else _spot(move.spot, True))
    s.fitted(x, y + 16, width, [_lap(move.lap, view.laps), f"L{move.lap}"])


def _keys_left(keys: Sequence[str]) -> int:
    """x of the leftmost soft key, or WIDTH without keys: text above the keys stops there."""
    used = [i for i, k in enumerate(keys[:COLUMNS]) if k]
    return column_x(used[0]) if used else WIDTH
