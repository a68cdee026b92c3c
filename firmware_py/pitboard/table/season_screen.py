"""The standings screen of a championship season (:data:`~pitboard.table.view.STANDINGS`): every
car's place, name and points, the leader inverted, what GO does at the bottom.

Example::

    >>> from pitboard.table.view import StationView
    >>> view = StationView("standings", 0, title="1961 RACE 1/3",
    ...                    order=("1 Ann\\t9 +9", "2 Bob\\t6 +6"), message="GO: race 2, USA",
    ...                    soft_keys=("", "", "", "", "", "", "NEXT"))
    >>> from pitboard.table.screens import render
    >>> render(view).size
    (128, 64)
"""

from __future__ import annotations

from .canvas import _KEY_Y, _L, _R, HEIGHT, _keys_left, _Screen, _soft_keys
from .fonts import SMALL, TINY
from .view import StationView


def draw_standings(s: _Screen, v: StationView) -> None:
    s.band(0, 8)
    s.fitted(_L, 1, _R - _L + 1, v.title or "STANDINGS", ink=0)
    keys = any(v.soft_keys)
    footer_y = _KEY_Y + 2 if keys else HEIGHT - TINY.height
    rows = [r for r in v.order if r]
    bottom = footer_y - 3
    small = 11 + len(rows) * (SMALL.height + 2) - 2 <= bottom
    font, pitch = (SMALL, SMALL.height + 2) if small else (TINY, TINY.height + 2)
    y = 11 if small else 10
    for i, row in enumerate(rows):
        if y + font.height - 1 > bottom:
            break
        name, _, points = row.partition("\t")
        ink = 0 if i == 0 else 1
        if i == 0:  # the leader: inverted
            s.band(y - 1, y + font.height, _L - 1, _R)
        width = s.fitted(_R - 1, y, 40, points, (font, TINY), ink=ink, align="right").image.width
        s.fitted(_L + 1, y, _R - _L - width - 6, name, (font, TINY), ink=ink)
        y += pitch
    # what GO does, left of the soft key
    room = (_keys_left(v.soft_keys) if keys else _R) - _L - 3
    s.fitted(_L, footer_y, room, v.message, (TINY,))
    _soft_keys(s, v.soft_keys)


__all__ = ["draw_standings"]
