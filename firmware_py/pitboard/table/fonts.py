"""Station screen fonts: hand-drawn 1-bit bitmap fonts, no FreeType.

Glyphs are pixel art below, so pixels are crisp on a 1-bit panel and identical on every machine
(golden tests would break on a FreeType upgrade otherwise). Four sizes: :data:`TINY` 3×5 labels,
:data:`SMALL` 5×7 text, :data:`MEDIUM` 10×14 (SMALL through Scale2x: card values, banners) and
:data:`BIG` 10×16 digits (its own 5×8 design through Scale2x) for the numbers read from arm's
length. :mod:`pitboard.table.screens` re-exports the public names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from PIL import Image

from .icons import ART as ICON_ART

__all__ = ["BIG", "MEDIUM", "SMALL", "TINY", "BitmapFont"]

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
    "→": "..#.. ...#. ##### ...#. ..#..",  # a head of 2 px each side: not read as "+"
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

_tiny_rows = _font_rows({**_TINY_ART, **ICON_ART}, fixed=_DIGITS + "".join(ICON_ART))
#: 3×5 capitals: labels over buttons and above numbers, secondary text; with the upgrade
#: symbols' 5×5 icons (table/icons.py) as characters, kept 5 px wide
TINY = BitmapFont("tiny", _tiny_rows, spacing=1, upper=True)
#: 5×7: ordinary text
SMALL = BitmapFont("small", _small_rows, spacing=1)
#: SMALL doubled (10×14): card values, banners
MEDIUM = BitmapFont("medium", {ch: _scale2x(r) for ch, r in _small_rows.items()}, spacing=2)
_big_rows = {ch: _scale2x(r) for ch, r in _font_rows(_BIG_ART, fixed=_DIGITS + "+").items()}
#: 10×16 digits, "+", "-": speed, gear, Heat in the engine, spaces to move
BIG = BitmapFont("big", _big_rows, spacing=2)
# the same glyphs 1 px closer, for a wide speed range such as "12-16"
_BIG_TIGHT = BitmapFont("big-tight", _big_rows, spacing=1)
