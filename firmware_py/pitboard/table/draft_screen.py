"""The draft screen: a :class:`~pitboard.table.view.StationView` of kind ``draft`` drawn at
128×64 (the view is built by :mod:`pitboard.table.draft_view`).

Top band: the draft round on the left, whose pick it is on the right ("YOUR PICK" inverted
in the band like every "act on this" cue). Middle: the selected card's meaning
(:func:`~pitboard.table.upgrade_art.draw_detail`) and what GO does, or what is left of the
market. Bottom: the market's cards over the tray buttons, each drawn with its face, the
selected one marked with a bar; on the stations that wait, the same cards dotted (not theirs
to press).
"""

from __future__ import annotations

from pitboard.table.canvas import _L, _R, HEIGHT, _cards_row, _cards_top, _Screen
from pitboard.table.fonts import SMALL
from pitboard.table.upgrade_art import draw_detail
from pitboard.table.view import StationView


def draw_draft(s: _Screen, v: StationView) -> None:
    s.band(0, 8)
    w = s.fitted(_L, 1, _R - _L + 1, v.title, ink=0).image.width
    room = _R - _L - w - 6
    if v.message and room >= 12:
        s.fitted(_R, 1, room, v.message, ink=0, align="right")
    bottom = _cards_top(v.cards) - 2 if v.cards else HEIGHT - 1
    y = 11
    if v.detail:  # the selected card's meaning, above the lines (what GO does)
        below = len([ln for ln in v.lines if ln]) * (SMALL.height + 2)
        y = draw_detail(s, _L, y, _R - _L + 1, bottom - below, v.detail) + 1
    s.lines(y, bottom, v.lines, x=_L, width=_R - _L + 1)
    _cards_row(s, v.cards, v.soft_keys)
