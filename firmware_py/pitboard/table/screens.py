"""Station screens: a :class:`~pitboard.table.view.StationView` drawn as a 128×64 1-bit image.

:func:`render` is pure (same view → identical pixels) and fast (static parts and text are cached
images, a frame is a handful of pastes). White (1) is a lit OLED pixel.

Design decisions:

* **Own bitmap fonts, no FreeType.** Glyphs are hand-drawn pixel art below, so pixels are crisp
  on a 1-bit panel and identical on every machine (golden tests would break on a FreeType
  upgrade otherwise). Four sizes: :data:`TINY` 3×5 labels, :data:`SMALL` 5×7 text,
  :data:`MEDIUM` 10×14 (SMALL through Scale2x: card values, banners) and :data:`BIG` 10×16
  digits (its own 5×8 design through Scale2x) for the numbers read from arm's length: speed,
  gear, Heat in the engine, spaces to move.
* **The tray is the bottom of the screen.** Seven columns 18 px wide sit over the seven tray
  buttons; cards (planning, discard) and soft keys are drawn in them, so a button's meaning is
  the thing right above it.
* **Hierarchy by size and inversion, not by more text.** Inverted bands mean "act on this"
  (corner Heat owed, SPIN OUT, selected cards, soft keys); what does not fit is shortened
  (smaller font, then an ellipsis), never drawn over its neighbour.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from pitboard.table.view import (
    ATTRACT,
    FAULT,
    HEAT_CARD,
    LOBBY,
    LOCKED,
    PLANNING,
    RESOLUTION,
    RESULTS,
    STRESS_CARD,
    UPGRADE_CARD,
    WAITING,
    CardView,
    MoveView,
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
]

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
_CARD_RAISE = 2  # a selected card sits this much higher
_KEY_W, _KEY_H = 17, 9
_KEY_Y = HEIGHT - _KEY_H  # 55
# text margins: the same as the outer edges of the cards
_L, _R = 2, WIDTH - 3


def column_x(i: int) -> int:
    """Left x of tray column ``i`` (0..6), the column above tray button ``i``.

    Example::

        >>> column_x(0), column_x(6)
        (1, 109)
    """
    return _COLUMN_X0 + i * COLUMN_PITCH


# -- fonts ---------------------------------------------------------------------------------------
#
# Glyph art: rows top to bottom separated by spaces, "#" lit, "." dark. Glyphs are trimmed to
# their lit columns (a proportional font: "i" and "." take less room) except the characters in
# ``fixed`` (digits stay tabular so numbers do not wobble when they change).

_SMALL_ART: dict[str, str] = {
    " ": "... ... ... ... ... ... ...",
    "0": ".###. #...# #...# #...# #...# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": "### .#. .#. .#. .#. .#. ###",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "a": "..... ..... .###. ....# .#### #...# .####",
    "b": "#.... #.... #.##. ##..# #...# #...# ####.",
    "c": "..... ..... .###. #.... #.... #...# .###.",
    "d": "....# ....# .##.# #..## #...# #...# .####",
    "e": "..... ..... .###. #...# ##### #.... .###.",
    "f": "..##. .#..# .#... ###.. .#... .#... .#...",
    "g": "..... ..... .#### #...# .#### ....# .###.",
    "h": "#.... #.... #.##. ##..# #...# #...# #...#",
    "i": ".#. ... ##. .#. .#. .#. ###",
    "j": "...#. ..... ..##. ...#. ...#. #..#. .##..",
    "k": "#... #... #..# #.#. ##.. #.#. #..#",
    "l": "##. .#. .#. .#. .#. .#. ###",
    "m": "..... ..... ##.#. #.#.# #.#.# #...# #...#",
    "n": "..... ..... #.##. ##..# #...# #...# #...#",
    "o": "..... ..... .###. #...# #...# #...# .###.",
    "p": "..... ..... ####. #...# ####. #.... #....",
    "q": "..... ..... .#### #...# .#### ....# ....#",
    "r": "..... ..... #.##. ##..# #.... #.... #....",
    "s": "..... ..... .###. #.... .###. ....# ####.",
    "t": ".#.. .#.. ###. .#.. .#.. .#.# ..#.",
    "u": "..... ..... #...# #...# #...# #..## .##.#",
    "v": "..... ..... #...# #...# #...# .#.#. ..#..",
    "w": "..... ..... #...# #...# #.#.# #.#.# .#.#.",
    "x": "..... ..... #...# .#.#. ..#.. .#.#. #...#",
    "y": "..... ..... #...# #...# .#### ....# .###.",
    "z": "..... ..... ##### ...#. ..#.. .#... #####",
    "!": "# # # # # . #",
    '"': "#.# #.# #.# ... ... ... ...",
    "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
    "$": "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
    "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
    "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
    "'": "# # # . . . .",
    "(": "..# .#. #.. #.. #.. .#. ..#",
    ")": "#.. .#. ..# ..# ..# .#. #..",
    "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    ",": ".. .. .. .. ## .# #.",
    "-": "... ... ... ### ... ... ...",
    ".": ".. .. .. .. .. ## ##",
    "/": "..... ....# ...#. ..#.. .#... #.... .....",
    ":": ".. ## ## .. ## ## ..",
    ";": ".. ## ## .. ## .# #.",
    "<": "...# ..#. .#.. #... .#.. ..#. ...#",
    "=": "..... ..... ##### ..... ##### ..... .....",
    ">": "#... .#.. ..#. ...# ..#. .#.. #...",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    "@": ".###. #...# ....# .##.# #.#.# #.#.# .###.",
    "[": "### #.. #.. #.. #.. #.. ###",
    "\\": "..... #.... .#... ..#.. ...#. ....# .....",
    "]": "### ..# ..# ..# ..# ..# ###",
    "^": "..#.. .#.#. #...# ..... ..... ..... .....",
    "_": "..... ..... ..... ..... ..... ..... #####",
    "`": "#.. .#. ..# ... ... ... ...",
    "{": "..# .#. .#. #.. .#. .#. ..#",
    "|": "# # # # # # #",
    "}": "#.. .#. .#. ..# .#. .#. #..",
    "~": "..... ..... .#... #.#.# ...#. ..... .....",
    "→": "..... ..#.. ...#. ##### ...#. ..#.. .....",
    "←": "..... ..#.. .#... ##### .#... ..#.. .....",
    "·": ". . . # . . .",
    "…": "..... ..... ..... ..... ..... ..... #.#.#",
    "°": ".##. #..# #..# .##. .... .... ....",
}

# Labels over buttons and secondary text: 5 px tall, capitals only (lower case is folded).
_TINY_ART: dict[str, str] = {
    " ": ".. .. .. .. ..",
    "0": "### #.# #.# #.# ###",
    "1": ".#. ##. .#. .#. ###",
    "2": "##. ..# .#. #.. ###",
    "3": "##. ..# .#. ..# ##.",
    "4": "#.# #.# ### ..# ..#",
    "5": "### #.. ##. ..# ##.",
    "6": ".## #.. ### #.# ###",
    "7": "### ..# .#. .#. .#.",
    "8": "### #.# ### #.# ###",
    "9": "### #.# ### ..# ##.",
    "A": ".#. #.# ### #.# #.#",
    "B": "##. #.# ##. #.# ##.",
    "C": ".## #.. #.. #.. .##",
    "D": "##. #.# #.# #.# ##.",
    "E": "### #.. ##. #.. ###",
    "F": "### #.. ##. #.. #..",
    "G": ".## #.. #.# #.# .##",
    "H": "#.# #.# ### #.# #.#",
    "I": "# # # # #",
    "J": "..# ..# ..# #.# .#.",
    "K": "#.# #.# ##. #.# #.#",
    "L": "#.. #.. #.. #.. ###",
    "M": "#...# ##.## #.#.# #...# #...#",
    "N": "##. #.# #.# #.# #.#",
    "O": ".#. #.# #.# #.# .#.",
    "P": "##. #.# ##. #.. #..",
    "Q": ".#. #.# #.# ##. .##",
    "R": "##. #.# ##. #.# #.#",
    "S": ".## #.. .#. ..# ##.",
    "T": "### .#. .#. .#. .#.",
    "U": "#.# #.# #.# #.# ###",
    "V": "#.# #.# #.# #.# .#.",
    "W": "#...# #...# #.#.# ##.## #...#",
    "X": "#.# #.# .#. #.# #.#",
    "Y": "#.# #.# .#. .#. .#.",
    "Z": "### ..# .#. #.. ###",
    "-": "... ... ### ... ...",
    "+": "... .#. ### .#. ...",
    ".": ". . . . #",
    ",": ". . . # #",
    ":": ". # . # .",
    "'": "# # . . .",
    "!": "# # # . #",
    "?": "##. ..# .#. ... .#.",
    "/": "..# ..# .#. #.. #..",
    "%": "#.# ..# .#. #.. #.#",
    "<": "..# .#. #.. .#. ..#",
    ">": "#.. .#. ..# .#. #..",
    "=": "... ### ... ### ...",
    "(": ".# #. #. #. .#",
    ")": "#. .# .# .# #.",
    "#": "#.# ### #.# ### #.#",
    "→": ".... ..#. #### ..#. ....",
    "…": "..... ..... ..... ..... #.#.#",
    "·": ". . # . .",
}

# Big digits, designed at 5×8 and doubled with Scale2x to 10×16 (2 px strokes, smoothed
# diagonals): the numbers a player reads from arm's length.
_BIG_ART: dict[str, str] = {
    " ": "... ... ... ... ... ... ... ...",
    "0": ".###. #...# #...# #...# #...# #...# #...# .###.",
    "1": "..#.. .##.. #.#.. ..#.. ..#.. ..#.. ..#.. #####",
    "2": ".###. #...# ....# ...#. ..#.. .#... #.... #####",
    "3": ".###. #...# ....# ..##. ....# ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. #..#. ##### ...#. ...#.",
    "5": "##### #.... #.... ####. ....# ....# #...# .###.",
    "6": ".###. #.... #.... ####. #...# #...# #...# .###.",
    "7": "##### ....# ...#. ...#. ..#.. ..#.. .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# #...# .###.",
    "9": ".###. #...# #...# #...# .#### ....# ....# .###.",
    "-": "... ... ... ### ... ... ... ...",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. ..... .....",
    "?": ".###. #...# ....# ...#. ..#.. ..#.. ..... ..#..",
}


def _parse(art: str) -> list[str]:
    rows = art.split()
    if len({len(r) for r in rows}) != 1:
        raise ValueError(f"ragged glyph art: {art!r}")
    return rows


def _trim(rows: list[str]) -> list[str]:
    """Drop blank columns on both sides (keep at least one column)."""
    lit = [x for x in range(len(rows[0])) if any(r[x] == "#" for r in rows)]
    if not lit:
        return rows
    return [r[lit[0] : lit[-1] + 1] for r in rows]


def _scale2x(rows: list[str]) -> list[str]:
    """Double a glyph with Scale2x (EPX): 1 px strokes become 2 px, diagonals stay smooth."""
    h, w = len(rows), len(rows[0])

    def on(x: int, y: int) -> bool:
        return 0 <= x < w and 0 <= y < h and rows[y][x] == "#"

    out = [[False] * (2 * w) for _ in range(2 * h)]
    for y in range(h):
        for x in range(w):
            p, a, b, c, d = on(x, y), on(x, y - 1), on(x + 1, y), on(x - 1, y), on(x, y + 1)
            out[2 * y][2 * x] = a if (c == a and c != d and a != b) else p
            out[2 * y][2 * x + 1] = b if (a == b and a != c and b != d) else p
            out[2 * y + 1][2 * x] = c if (d == c and d != b and c != a) else p
            out[2 * y + 1][2 * x + 1] = d if (b == d and b != a and d != c) else p
    return ["".join("#" if v else "." for v in row) for row in out]


def _glyph_image(rows: list[str]) -> Image.Image:
    w, h = len(rows[0]), len(rows)
    data = bytes(255 if ch == "#" else 0 for row in rows for ch in row)
    return Image.frombytes("L", (w, h), data).convert("1", dither=Image.Dither.NONE)


class BitmapFont:
    """A 1-bit proportional bitmap font with a cache of rendered strings.

    ``render`` gives a mode ``"1"`` image exactly :attr:`height` px tall and as wide as the
    text's ink (no side bearings), so its size is the size the text takes on screen.

    Example::

        >>> BIG.render("12").size
        (22, 16)
        >>> SMALL.width("Go"), SMALL.height
        (11, 7)
    """

    _CACHE_LIMIT = 1024

    def __init__(self, name: str, glyphs: Mapping[str, list[str]], *, spacing: int,
                 upper: bool = False, fallback: str = "?") -> None:
        self.name = name
        self.spacing = spacing
        self.upper = upper
        self.fallback = fallback
        self._glyphs = {ch: _glyph_image(rows) for ch, rows in glyphs.items()}
        heights = {img.height for img in self._glyphs.values()}
        if len(heights) != 1:
            raise ValueError(f"font {name}: glyphs of different heights {sorted(heights)}")
        self.height: int = heights.pop()
        self._cache: dict[str, Image.Image] = {}

    def __repr__(self) -> str:
        return f"BitmapFont({self.name!r}, height={self.height})"

    def normalize(self, text: str) -> str:
        """The text as this font will draw it: accents stripped, unknown characters → fallback.

        Example::

            >>> TINY.normalize("José ✓")
            'JOSE ?'
        """
        if self.upper:
            text = text.upper()
        out = []
        for ch in text:
            if ch not in self._glyphs:
                # "é" → "e": decompose and keep the base letter if the font has it
                base = unicodedata.normalize("NFKD", ch)[:1]
                ch = base if base in self._glyphs else self.fallback
            out.append(ch)
        return "".join(out)

    def width(self, text: str) -> int:
        """Width in pixels of ``text`` drawn in this font (0 for an empty string).

        Example::

            >>> TINY.width("GO"), TINY.width("")
            (7, 0)
        """
        return self.render(text).width

    def render(self, text: str) -> Image.Image:
        """``text`` as a mode ``"1"`` image (white ink on black). Cached: do not modify it.

        Example::

            >>> img = BIG.render("+9")
            >>> img.mode, img.size, img.getbbox()
            ('1', (22, 16), (0, 0, 22, 16))
        """
        img = self._cache.get(text)
        if img is None:
            img = self._render(self.normalize(text))
            if len(self._cache) >= self._CACHE_LIMIT:
                self._cache.clear()  # rare (names and numbers repeat); keeps memory bounded
            self._cache[text] = img
        return img

    def _render(self, text: str) -> Image.Image:
        glyphs = [self._glyphs[ch] for ch in text]
        width = sum(g.width for g in glyphs) + self.spacing * max(len(glyphs) - 1, 0)
        img = Image.new("1", (width, self.height), 0)
        x = 0
        for g in glyphs:
            img.paste(g, (x, 0))
            x += g.width + self.spacing
        return img


def _font_rows(art: Mapping[str, str], *, fixed: str) -> dict[str, list[str]]:
    return {ch: _parse(a) if ch in fixed or ch == " " else _trim(_parse(a))
            for ch, a in art.items()}


_DIGITS = "0123456789"
_small_rows = _font_rows(_SMALL_ART, fixed=_DIGITS)

#: 3×5 capitals: labels over buttons and above numbers, secondary text
TINY = BitmapFont("tiny", _font_rows(_TINY_ART, fixed=_DIGITS), spacing=1, upper=True)
#: 5×7: ordinary text
SMALL = BitmapFont("small", _small_rows, spacing=1)
#: SMALL doubled (10×14): card values, banners
MEDIUM = BitmapFont("medium", {ch: _scale2x(r) for ch, r in _small_rows.items()}, spacing=2)
_big_rows = {ch: _scale2x(r) for ch, r in _font_rows(_BIG_ART, fixed=_DIGITS + "+").items()}
#: 10×16 digits, "+", "-": speed, gear, Heat in the engine, spaces to move
BIG = BitmapFont("big", _big_rows, spacing=2)
# the same glyphs 1 px closer, for a wide speed range such as "12-16"
_BIG_TIGHT = BitmapFont("big-tight", _big_rows, spacing=1)


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


def _aligned(x: int, width: int, align: str) -> int:
    if align == "right":
        return x - width + 1
    if align == "center":
        return x - width // 2
    return x


# -- cards and soft keys -------------------------------------------------------------------------

def _card_sprite(card: CardView) -> Image.Image:
    return _card_sprite_cached(card.kind, card.label, card.selected, card.disabled)


_sprites: dict[tuple[str, str, bool, bool], Image.Image] = {}


def _card_sprite_cached(kind: str, label: str, selected: bool, disabled: bool) -> Image.Image:
    key = (kind, label, selected, disabled)
    img = _sprites.get(key)
    if img is None:
        img = _draw_card(kind, label, selected, disabled)
        if len(_sprites) > 256:
            _sprites.clear()
        _sprites[key] = img
    return img


def _draw_card(kind: str, label: str, selected: bool, disabled: bool) -> Image.Image:
    """A 16×20 card: outline, value, type mark; inverted when selected, dotted when disabled."""
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
    if kind == HEAT_CARD:
        # Heat: hatched face with a small H cut out of it — junk, not a speed
        face = _hatch((w - 4, h - 4))
        glyph = SMALL.render(label or "H")
        gx, gy = (w - glyph.width) // 2, (h - glyph.height) // 2
        face.paste(0, (gx - 3, gy - 3, gx - 3 + glyph.width + 2, gy - 3 + glyph.height + 2),
                   _halo(glyph))
        card.paste(_ON, inner, face)
        card.paste(_ON, (gx, gy, gx + glyph.width, gy + glyph.height), glyph)
    else:
        fit = _fit(label, w - 4, (MEDIUM, SMALL, TINY))
        glyph = fit.image
        if disabled:
            glyph = _grey(glyph)
        # the value sits low (rows 4..17) to leave the top rows for the type mark
        gx, gy = (w - glyph.width) // 2, h - 2 - glyph.height if glyph.height > 8 else 7
        card.paste(_ON, (gx, gy, gx + glyph.width, gy + glyph.height), glyph)
        d = ImageDraw.Draw(card)
        if kind == UPGRADE_CARD:
            # upgrade: a solid header stripe
            d.rectangle((2, 1, w - 3, 2), fill=_ON)
        elif kind == STRESS_CARD:
            # Stress: a dog-eared top-left corner (a card of unknown value)
            d.polygon([(0, 0), (3, 0), (0, 3)], fill=0)
            d.line([(0, 3), (3, 0)], fill=_ON)
            d.line([(1, 3), (3, 3), (3, 1)], fill=_ON)
    if selected:
        # a solid lit card with a dark value: invert, but keep the outline lit (full size)
        card = ImageChops.invert(card)
        ImageDraw.Draw(card).rectangle((0, 0, w - 1, h - 1), outline=_ON)
        for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            card.putpixel((x, y), 0)
    return card


def _cards_row(s: _Screen, cards: Sequence[CardView], keys: Sequence[str] = (),
               off: Sequence[int] = ()) -> None:
    """Card i over tray button i; a soft key (e.g. "MORE") takes its column instead."""
    for i, card in enumerate(cards[:COLUMNS]):
        if not card.code or (i < len(keys) and keys[i]):
            continue  # an empty slot, or the column belongs to a soft key
        y = _CARD_Y - (_CARD_RAISE if card.selected else 0)
        # a plain paste: an inverted (selected) sprite's dark pixels must be drawn too
        s.img.paste(_card_sprite(card), (column_x(i) + 1, y))
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
    """The top row of the card row (a raised card included): text must end above it."""
    return _CARD_Y - (_CARD_RAISE if any(c.selected for c in cards[:COLUMNS]) else 0)


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


_SPOT_SHORT = {"racing line": "RL", "outside": "out"}


def _spot(spot: str, short: bool) -> str:
    return _SPOT_SHORT.get(spot, spot[:3]) if short else spot


def _lap(lap: int, laps: int) -> str:
    return f"lap {lap}/{laps}" if laps else f"lap {lap}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _move_block(s: _Screen, y: int, view: StationView, move: MoveView) -> None:
    """SPEED and MOVE as big numbers, the destination beside them (3 SMALL lines)."""
    x = _L
    if view.speed:
        x += _label_number(s, x, y, "SPEED", view.speed, max_width=34) + 6
    x += _label_number(s, x, y, "MOVE", _signed(move.spaces), max_width=36)
    right = max(x + 6, 64)
    width = _R - right + 1
    s.fitted(right, y, width, [f"→ space {move.space}", f"→ sp {move.space}"])
    s.fitted(right, y + 8, width, [_spot(move.spot, False), _spot(move.spot, True)])
    s.fitted(right, y + 16, width, _lap(move.lap, view.laps))


def _keys_left(keys: Sequence[str]) -> int:
    """x of the leftmost soft key, or WIDTH without keys: text above the keys stops there."""
    used = [i for i, k in enumerate(keys[:COLUMNS]) if k]
    return column_x(used[0]) if used else WIDTH


# -- screens -------------------------------------------------------------------------------------


def _corner_texts(view: StationView) -> list[str]:
    """Corner warning, from most to least verbose."""
    cs = view.corners
    owed = f"+{view.heat_owed}H" if view.heat_owed else "ok"
    texts = []
    if len(cs) == 1:
        c = cs[0]
        texts.append(f"corner {c.number} limit {c.limit}: " +
                     (f"+{c.heat} Heat" if c.heat else "ok"))
        texts.append(f"C{c.number} limit {c.limit}: " + (f"+{c.heat} Heat" if c.heat else "ok"))
    texts += [
        " ".join(f"C{c.number} lim{c.limit} " + (f"+{c.heat}H" if c.heat else "ok") for c in cs),
        " ".join(f"C{c.number} lim{c.limit}" for c in cs) + f" {owed}",
        " ".join(f"C{c.number}:{c.limit}" for c in cs) + f" {owed}",
    ]
    return texts


def _planning(s: _Screen, v: StationView) -> None:
    # Top: SPEED (left), GEAR (middle), HEAT in the engine (right), all BIG.
    _label_number(s, _L, 0, "SPEED", v.speed, max_width=52)
    gx = 62
    w = s.text(gx, 0, "GEAR", TINY)
    if v.shift_cost:
        # a 2-gear shift costs Heat: an inverted chip next to the label
        chip = TINY.render(f"+{v.shift_cost}H")
        cx = gx + w + 3
        s.band(0, 6, cx, cx + chip.width + 3)
        s.blit(cx + 2, 1, chip, 0)
    if v.target_gear != v.gear:
        w = s.text(gx, 7 + 5, f"{v.gear}→", SMALL)
        s.blit(gx + w + 2, 7, BIG.render(str(v.target_gear)))
    else:
        s.blit(gx, 7, BIG.render(str(v.gear)))
    _label_number(s, _R, 0, "HEAT", str(v.engine), align="right", max_width=30)

    # Middle: corner warning / SPIN OUT, then the message.
    spin = v.spin_out or 0 < v.spin_odds < 100
    if spin:
        odds = f"SPIN {v.spin_odds}%" if 0 < v.spin_odds < 100 else "SPIN OUT"
        owe = f"owe {v.heat_owed}H" if v.heat_owed else ""
        corners = " ".join(f"C{c.number}" for c in v.corners)
        if v.message:
            # the message (why GO is refused) needs its row: a one-line band
            s.band(24, 32)
            w = s.text(_L, 25, odds, SMALL, ink=0)
            s.fitted(_R, 26, _R - _L - w - 5, [f"{corners} {owe}".strip(), owe.strip()],
                     (TINY,), ink=0, align="right")
            s.fitted(_L, 34, _R - _L + 1, v.message)
        else:
            s.band(24, 40)
            w = s.text(_L + 1, 26, odds, MEDIUM, ink=0)
            rx = _L + w + 5
            rw = _R - rx
            s.fitted(rx, 26, rw, [corners, ""], (TINY,), ink=0)
            s.fitted(rx, 33, rw, [owe.upper(), f"{v.heat_owed}H"], (TINY,), ink=0)
    else:
        if v.corners:
            texts = _corner_texts(v)
            if v.heat_owed:
                s.band(24, 32)
                s.fitted(_L, 25, _R - _L + 1, texts, ink=0)
            else:
                s.fitted(_L, 25, _R - _L + 1, texts)
        if v.message:
            s.fitted(_L, 34, _R - _L + 1, v.message)

    _cards_row(s, v.cards, v.soft_keys)


def _status_band(s: _Screen, left: str, right: str) -> None:
    """The top band (rows 0..8): state or title on the left, context on the right."""
    s.band(0, 8)
    w = s.fitted(_L, 1, _R - _L + 1, left, ink=0).image.width if left else 0
    room = _R - _L - w - 6
    if right and room >= 12:
        s.fitted(_R, 1, room, right, ink=0, align="right")


def _locked(s: _Screen, v: StationView) -> None:
    _status_band(s, "LOCKED IN", v.title)
    top = 11
    gw = _label_number(s, _L, top, "GEAR", str(v.target_gear), max_width=30)
    hw = _label_number(s, _R, top, "HEAT", str(v.engine), align="right", max_width=30)
    # between the two numbers: the speed if known, else what we are waiting for
    mid_x, mid_w = _L + gw + 6, _R - hw - gw - _L - 11
    info = [*v.lines]
    if v.speed:
        _label_number(s, mid_x, top, "SPEED", v.speed, max_width=mid_w)
        info.insert(0, v.message)
    elif v.message:
        s.fitted(mid_x + mid_w // 2, top + 11, mid_w, v.message, align="center")
    if v.round or v.lap:
        where = [f"round {v.round}" if v.round else "", _lap(v.lap, v.laps) if v.lap else ""]
        info.append(", ".join(w for w in where if w))
    bottom = _cards_top(v.cards) - 2 if v.cards else HEIGHT - 1
    s.lines(top + 24, bottom, info, x=_L, width=_R - _L + 1)
    _cards_row(s, v.cards, v.soft_keys)


def _resolution(s: _Screen, v: StationView) -> None:
    bottom = HEIGHT - 1
    if v.cards:
        bottom = _cards_top(v.cards) - 2
    elif any(v.soft_keys):
        bottom = _KEY_Y - 2

    if v.spin_out:
        s.band(0, 15)
        s.text(WIDTH // 2, 1, "SPIN OUT", MEDIUM, ink=0, align="center")
        y = 17
    else:
        flips = " ".join(v.flips)
        if flips:
            s.fitted(_L, 0, _R - _L + 1, [f"flipped {flips}", f"flip {flips}", flips])
        else:
            s.fitted(_L, 0, _R - _L + 1, v.title)
        y = 10
    if v.move is not None:
        _move_block(s, y, v, v.move)
        y += 24
    elif v.speed:
        _label_number(s, _L, y, "SPEED", v.speed)
        y += 24
    info: list[str] = []
    if v.move is not None and v.move.blocked:
        n = v.move.blocked
        info.append(f"blocked: {n} space{'s' if n > 1 else ''} lost")
    if v.heat_paid:
        paid = ", ".join(v.heat_paid)
        info.append(f"Heat paid: {paid}" if SMALL.width(f"Heat paid: {paid}") <= _R - _L
                    else f"Heat: {paid}")
    info += [v.message, *v.lines]
    s.lines(y, bottom, info, x=_L, width=_R - _L + 1)
    _cards_row(s, v.cards, v.soft_keys, v.keys_off)


def _waiting(s: _Screen, v: StationView) -> None:
    # whose turn it is leads; round and lap are context
    lap = (f"LAP {v.lap}/{v.laps}" if v.laps else f"LAP {v.lap}") if v.lap else ""
    _status_band(s, v.message or (f"ROUND {v.round}" if v.round else "WAITING"), lap)
    left_w = 60
    y = 11
    if v.move is not None:
        m = v.move
        w = _label_number(s, _L, y, "MOVED", _signed(m.spaces), max_width=34)
        tx = _L + w + 4
        s.fitted(tx, y + 8, left_w - tx - 3, [f"→ sp {m.space}", f"sp {m.space}"])
        s.fitted(tx, y + 16, left_w - tx - 3, [_spot(m.spot, False), _spot(m.spot, True)])
        y += 25
        if m.blocked:
            s.fitted(_L, y, left_w - _L - 3, [f"blocked -{m.blocked}", f"blk -{m.blocked}"])
            y += 9
    if v.message and v.round:
        s.fitted(_L, y, left_w - _L - 3, f"round {v.round}")
    # race order on the right, after a dotted rule
    for ry in range(11, HEIGHT, 2):
        s.img.putpixel((left_w + 1, ry), _ON)
    s.lines(11, HEIGHT - 1, v.order, x=left_w + 5, width=_R - left_w - 4, uniform=True)


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
    """lobby, attract, fault: title, lines, soft keys."""
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
    PLANNING: _planning,
    LOCKED: _locked,
    RESOLUTION: _resolution,
    WAITING: _waiting,
    RESULTS: _results,
    LOBBY: _titled,
    ATTRACT: _titled,
    FAULT: _titled,
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
