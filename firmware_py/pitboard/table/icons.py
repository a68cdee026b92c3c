"""The upgrade symbols as 5×5 pixel icons, one private-use character each.

A leaf module (no imports from the table): :mod:`pitboard.table.fonts` adds these glyphs to
:data:`~pitboard.table.fonts.TINY`, whose letters are 5 px tall too, so an icon can sit in any
TINY text -- a soft key (``ICON["salvage"] + "2"``), a card face, a draft list line.

Each symbol has a plain icon and an inverted one (a lit 5×5 block with the icon cut out): the
inverted form marks a **mandatory** symbol, one that acts by itself when the card is revealed
(the yellow "!" of the printed cards). Adjust has two icons: ▲ raises the corner limits, ▼
lowers them, so "▲2" reads "limits +2" without a sign.

Art: rows top to bottom separated by spaces, ``#`` lit, ``.`` dark (as in fonts.py).

Example::

    >>> sorted(ICON)[:3]
    ['accelerate', 'adjust+', 'adjust-']
    >>> len(ART) == 2 * len(ICON)
    True
"""

from __future__ import annotations

#: the optional symbols' icons, drawn plain (lit on dark)
_PLAIN_ART: dict[str, str] = {
    # a snowflake: Heat from hand back to the engine
    "cooldown": "..#.. #.#.# .###. #.#.# ..#..",
    # S: Stress cards out of the hand
    "reduce": ".#### #.... .###. ....# ####.",
    # wind streaks
    "slipstream": "####. ..... .#### ..... ####.",
    # a round arrow: the card back on top of the deck
    "refresh": ".##.# #..## #.### #.... .###.",
    # an arrow up out of a tray: cards back from the discard pile
    "salvage": "..#.. .###. ..#.. #...# #####",
    # a lightning bolt: played straight from hand
    "direct": "..##. .##.. ##### ..##. .##..",
    # fast forward: more speed for every [+]
    "accelerate": "#.#.. .#.#. ..#.# .#.#. #.#..",
    # a heavy snowflake: Heat from the discard pile back to the engine
    "supercool": "#.#.# .###. ##### .###. #.#.#",
    # a chevron up to a car: the draft move
    "draft": "#..## .#.## ..### .#.## #..##",
}
#: the mandatory symbols' icons as they are drawn: a lit badge with the sign cut out
_BADGE_ART: dict[str, str] = {
    # [+]: a boxed plus, like the printed boost symbol
    "boost": "##### ##.## #...# ##.## #####",
    # H: Heat paid from the engine
    "heat": "##### #.#.# #...# #.#.# #####",
    # a cross: the top cards of the deck thrown away
    "scrap": "##### #.#.# ##.## #.#.# #####",
    # triangles: corner limits up / down
    "adjust+": "##### ##.## #...# ..... #####",
    "adjust-": "##### ..... #...# ##.## #####",
    # 1: a sponsor card, used once
    "onetime": "##.## #..## ##.## ##.## #...#",
}


def _inverted(art: str) -> str:
    return art.translate(str.maketrans("#.", ".#"))


#: symbol -> its 5×5 icon, plain (``adjust+``/``adjust-`` for the two directions of adjust)
_SYMBOL_ART: dict[str, str] = {**{k: _inverted(a) for k, a in _BADGE_ART.items()}, **_PLAIN_ART}

_FIRST = 0xE000

#: symbol -> the character of its plain icon
ICON: dict[str, str] = {name: chr(_FIRST + i) for i, name in enumerate(_SYMBOL_ART)}
#: symbol -> the character of its inverted (mandatory) icon
MANDATORY_ICON: dict[str, str] = {name: chr(_FIRST + 0x40 + i)
                                  for i, name in enumerate(_SYMBOL_ART)}


#: character -> glyph art, for the TINY font
ART: dict[str, str] = {
    **{ICON[name]: art for name, art in _SYMBOL_ART.items()},
    **{MANDATORY_ICON[name]: _inverted(art) for name, art in _SYMBOL_ART.items()},
}


_WORDS = {**{ch: name.replace("adjust+", "limit+").replace("adjust-", "limit-")
              for name, ch in ICON.items()},
          **{ch: name.replace("adjust+", "limit+").replace("adjust-", "limit-")
             for name, ch in MANDATORY_ICON.items()}}


def as_words(text: str) -> str:
    """``text`` with every icon written as its symbol's name, for terminals and logs.

    Example::

        >>> as_words(ICON["salvage"] + "2")
        'salvage2'
    """
    return "".join(_WORDS.get(ch, ch) for ch in text)


def icon_key(symbol: str, n: int) -> str:
    """The icon name of ``symbol`` with number ``n`` (adjust picks its direction).

    Example::

        >>> icon_key("adjust", -1), icon_key("heat", 2)
        ('adjust-', 'heat')
    """
    if symbol == "adjust":
        return "adjust+" if n > 0 else "adjust-"
    return symbol
