"""Upgrade cards on a 128×64 OLED: one card's face, its symbol icons and its meaning in words.

Used by the tray (:mod:`pitboard.table.canvas` draws a Garage card's face with :func:`face`)
and by any screen that lists upgrade cards (the draft market): :func:`symbols_text` is the
card's speed and icons as one TINY line, :func:`detail` its full meaning for a detail line.

How a card reads:

* **speed** first: ``4``, or the choices ``1/3``, ``1-4`` (Brakes 1/2/3/4);
* then each symbol in printed order as a 5×5 icon (:mod:`pitboard.table.icons`) with its
  number (``▲2``: corner limits +2; bare symbols -- refresh, direct play, one-time -- have
  none);
* a **mandatory** symbol (it acts by itself at reveal: boost, Heat, scrap, adjust, one-time)
  is drawn inverted, a lit block with the icon cut out; optional ones are plain.

On the 16×20 tray card the face holds the speed and up to four symbols; when a card's icons
and numbers cannot all fit, the numbers 1 are left out first (an icon alone means 1), and the
detail line always says everything.

Example::

    >>> speed_text(by_code("U7"))
    '1-4'
    >>> detail("U44")[0]
    'Wings 4: pays 1 Heat, scraps 2, corner limits +2'
    >>> face("U44").size, face("3") is None
    ((14, 18), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol

from PIL import Image, ImageDraw

from ..engine.garage.data import BY_CODE, MANDATORY, UPGRADES, Upgrade
from .fonts import MEDIUM, SMALL, TINY, BitmapFont
from .icons import ICON, MANDATORY_ICON, icon_key

__all__ = ["FACE_SIZE", "Canvas", "by_code", "detail", "draw_detail", "face", "icon", "phrase",
           "speed_text", "symbol_items", "symbols_text", "wrap"]

#: the face inside a tray card's 1 px outline (the card is 16×20)
FACE_SIZE = (14, 18)


def by_code(code: str) -> Upgrade | None:
    """The Garage upgrade whose pile code (``U7``) or key (``P1``) is ``code``; None for any
    other card (the base game's cards, Heat, Stress)."""
    return BY_CODE.get(code) or UPGRADES.get(code)


def speed_text(u: Upgrade) -> str:
    """The speed as printed small: ``4``, ``1/3``, or ``1-4`` for a run of three or more."""
    s = u.speeds
    if len(s) >= 3 and list(s) == list(range(s[0], s[-1] + 1)):
        return f"{s[0]}-{s[-1]}"
    return "/".join(map(str, s))


def icon(symbol: str, n: int = 1, *, number: bool = True) -> str:
    """One symbol as TINY text: its icon (inverted when mandatory) and its number.

    Example::

        >>> icon("heat", 2) == MANDATORY_ICON["heat"] + "2"
        True
        >>> icon("refresh") == ICON["refresh"]
        True
    """
    key = icon_key(symbol, n)
    glyph = MANDATORY_ICON[key] if MANDATORY[symbol] else ICON[key]
    if symbol in _BARE or not number:
        return glyph
    return glyph + str(abs(n))


def symbol_items(u: Upgrade, *, ones: bool = True) -> list[str]:
    """Each symbol of ``u`` as TINY text (:func:`icon`), in printed order; ``ones=False``
    leaves out the number 1."""
    return [icon(name, n, number=ones or abs(n) != 1) for name, n in u.symbols]


def symbols_text(code: str) -> str:
    """The card's speed and icons on one TINY line, e.g. for a list of market cards ("" for a
    card that is not an upgrade)."""
    u = by_code(code)
    if u is None:
        return ""
    return " ".join([speed_text(u), *symbol_items(u)])


# -- the card face -------------------------------------------------------------------------------

def face(code: str) -> Image.Image | None:
    """The inside of a tray card (:data:`FACE_SIZE`, lit ink on dark) for a Garage upgrade;
    None for any other card. Cached: do not modify it."""
    u = by_code(code)
    return None if u is None else _face(u)


@cache
def _face(u: Upgrade) -> Image.Image:
    w, h = FACE_SIZE
    img = Image.new("1", (w, h), 0)
    if u.heat_card:  # the pool's Heat cards are plain Heat in the deck
        _paste(img, 0, 0, SMALL.render("H"))
        return img
    speed = speed_text(u)
    if not u.symbols and len(u.speeds) == 2:  # Brakes 1/3: a fraction of two SMALL digits
        low, high = (SMALL.render(str(v)) for v in u.speeds)
        _paste(img, 1, 2, low)
        _paste(img, w - 1 - high.width, h - 2 - high.height, high)
        ImageDraw.Draw(img).line([(4, 14), (9, 3)], fill=255)  # the slash between them
        return img
    if not u.symbols:  # a plain card: the speed as big as it fits, centred low
        glyph = _fitted(speed, w, (MEDIUM, SMALL, TINY))
        _paste(img, (w - glyph.width) // 2, h - 1 - glyph.height, glyph)
        return img
    for ones in (True, False):
        items = symbol_items(u, ones=ones)
        for font, gap, rows in _LAYOUTS:
            placed = _pack(speed, font, gap, rows, items)
            if placed is not None:
                for x, y, glyph in placed:
                    _paste(img, x, y, glyph)
                return img
    raise ValueError(f"upgrade {u.key}: its symbols do not fit a tray card")  # a data bug


#: (speed font, gap after the speed, rows of icons: y of each row below the speed's line),
#: tried in order
_LAYOUTS: tuple[tuple[BitmapFont, int, tuple[int, ...]], ...] = (
    (SMALL, 2, (10,)),
    (TINY, 2, (7, 13)),
    (TINY, 1, (7, 13)),
)


def _pack(speed: str, font: BitmapFont, gap: int, rows: Sequence[int], items: Sequence[str]
          ) -> list[tuple[int, int, Image.Image]] | None:
    """Speed at the top left, the symbols after it on its line and then row by row; None if
    they do not fit the face."""
    w, _ = FACE_SIZE
    first = font.render(speed)
    if 1 + first.width > w:
        return None
    placed = [(1, 1, first)]
    # the speed's own line: icons vertically centred on it
    lines = [(1 + first.width + gap, 1 + (font.height - TINY.height) // 2)]
    lines += [(1, y) for y in rows]
    line = 0
    x, y = lines[0]
    for item in items:
        glyph = TINY.render(item)
        while x + glyph.width > w:  # (the face's last column touches no outline)
            line += 1
            if line == len(lines):
                return None
            x, y = lines[line]
        placed.append((x, y, glyph))
        x += glyph.width + 2
    return placed


def _fitted(text: str, width: int, fonts: Sequence[BitmapFont]) -> Image.Image:
    for font in fonts:
        img = font.render(text)
        if img.width <= width:
            return img
    return fonts[-1].render(text)


def _paste(img: Image.Image, x: int, y: int, glyph: Image.Image) -> None:
    img.paste(255, (x, y, x + glyph.width, y + glyph.height), glyph)


# -- the detail line ------------------------------------------------------------------------------

def wrap(text: str, font: BitmapFont, width: int) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` px (a word longer than a line
    gets a line of its own, to be shortened by whoever draws it).

    Example::

        >>> wrap("Wings 4: pays 1 Heat, scraps 2", TINY, 60)
        ['WINGS 4: PAYS 1', 'HEAT, SCRAPS 2']
    """
    lines: list[str] = []
    for word in font.normalize(text).split(" "):
        if lines and font.width(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


class Canvas(Protocol):
    """What :func:`draw_detail` draws on (a screen of :mod:`pitboard.table.canvas`).

    Example (anything with this ``text`` will do)::

        >>> class Printed:
        ...     def text(self, x, y, text, font=TINY, *, ink=1, align="left"):
        ...         print(y, text)
        ...         return font.width(text)
        >>> draw_detail(Printed(), 0, 0, 60, 20, detail("U44"))  # returns the y below it
        0 WINGS 4: PAYS 1
        6 HEAT, SCRAPS 2,
        12 CORNER LIMITS +2
        18
    """

    def text(self, x: int, y: int, text: str, font: BitmapFont = ..., *, ink: int = ...,
             align: str = ...) -> int: ...


def draw_detail(s: Canvas, x: int, y: int, width: int, bottom: int,
                candidates: Sequence[str]) -> int:
    """Draw a card's meaning (:func:`detail`) in the box from (x, y) to ``bottom``: the most
    verbose candidate that fits, wrapped (SMALL lines first, then TINY); else the tersest one
    on one line, shortened (nothing when not even that fits). Return the y below the text."""
    for text in candidates:
        for font in (SMALL, TINY):
            lines = wrap(text, font, width)
            pitch = font.height + (2 if font is SMALL else 1)
            if y + (len(lines) - 1) * pitch + font.height - 1 <= bottom and \
                    all(font.width(ln) <= width for ln in lines):
                for i, line in enumerate(lines):
                    s.text(x, y + i * pitch, line, font)
                return y + len(lines) * pitch
    text = candidates[-1] if candidates and y + TINY.height - 1 <= bottom else ""
    while text and TINY.width(text + "…") > width:
        text = text[:-1]
    s.text(x, y, text + "…" if text else "", TINY)
    return y + TINY.height + 1


# -- the meaning in words ------------------------------------------------------------------------

_BARE = frozenset({"refresh", "direct", "onetime"})


def phrase(symbol: str, n: int, *, short: bool = False) -> str:
    """What one symbol does, in a few words (``short``: in fewer, mandatory ones marked "!").

    Example::

        >>> phrase("adjust", -1), phrase("salvage", 2, short=True)
        ('corner limits -1', 'salvage 2')
    """
    if short:
        text = {
            "boost": f"boost {n}", "heat": f"Heat {n}", "scrap": f"scrap {n}",
            "adjust": f"limit {n:+d}", "cooldown": f"cool {n}", "reduce": f"-{n} Stress",
            "slipstream": f"slip +{n}", "refresh": "refresh", "salvage": f"salvage {n}",
            "direct": "direct", "accelerate": f"accel {n}", "supercool": f"supercool {n}",
            "draft": f"close up {n}", "onetime": "once",
        }[symbol]
        return text + "!" if MANDATORY[symbol] else text
    return {
        "boost": f"boost x{n}" if n > 1 else "boost", "heat": f"pays {n} Heat",
        "scrap": f"scraps {n}", "adjust": f"corner limits {n:+d}",
        "cooldown": f"may cool {n}", "reduce": f"may drop {n} Stress",
        "slipstream": f"slipstream +{n}", "refresh": "may go back on the deck",
        "salvage": f"may take back {n}", "direct": "play it from hand",
        "accelerate": f"may add {n} per boost", "supercool": f"may cool {n} from discard",
        "draft": f"may close up {n}", "onetime": "used once",
    }[symbol]


def detail(code: str) -> tuple[str, ...]:
    """The card's full meaning for a detail line, from most to least verbose (give them to
    the screens' text fitting); () for a card that is not an upgrade.

    Example::

        >>> detail("U8")
        ('Brakes 1/3: choose the speed', 'Brakes 1/3: speed 1/3', 'speed 1/3')
    """
    u = by_code(code)
    if u is None:
        return ()
    if u.heat_card:
        return ("a Heat card", "Heat")
    words = [phrase(s, n) for s, n in u.symbols]
    terse = [phrase(s, n, short=True) for s, n in u.symbols]
    if len(u.speeds) > 1:
        words.insert(0, "choose the speed")
        terse.insert(0, f"speed {'/'.join(map(str, u.speeds))}")
    if not words:
        return (u.label, u.label, f"speed {u.speeds[0]}")
    return (f"{u.label}: {', '.join(words)}", f"{u.label}: {' '.join(terse)}",
            " ".join(terse) if len(u.speeds) > 1 else f"{u.speeds[0]}: {' '.join(terse)}")
