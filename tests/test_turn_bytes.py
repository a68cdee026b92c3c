"""Issue 15.13 on the turn screen (the acting station's resolution screen): what a press there
puts on the bus. A DISC press is GO and then the hand to discard from, a whole new picture, so
it is answered first by its key reading OK (two pages of one tray column); picking a card to
discard adds the bar over it and moves no text line; a card in the seventh column is a card,
not GO. Checked on the bytes the panels were sent, through the display writer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from pitboard.hw.oled import BusWrite
from pitboard.hw.writer import BusWriter
from pitboard.table.canvas import _KEY_W, column_x
from pitboard.table.turn import DISCARD_KEY
from pitboard.table.view import RESOLUTION, StationView
from rig import Grid6, Players, find_text

#: the soft keys' rows 55..63 and the tray's rows 40..63, in RAM pages
KEY_PAGES = {6, 7}
TRAY_PAGES = {5, 6, 7}


def windows(writes: Sequence[BusWrite]) -> list[tuple[set[int], range]]:
    """The SSD1306 windows in ``writes``: their pages and columns."""
    out = []
    for w in writes:
        if w.kind == "command" and w.payload[:1] == b"\x21":
            columns = range(w.payload[1], w.payload[2] + 1)
            out.append((set(range(w.payload[4], w.payload[5] + 1)), columns))
    return out


class Turns(Grid6):
    """The rig with a display writer, noting each slot press on a turn screen: the views
    before and after, the writes of the writer's first part (the answer), the glass after
    it, and every write the press caused."""

    def __init__(self, **kw: Any) -> None:
        self.presses: list[tuple[int, StationView, StationView, list[BusWrite], Image.Image,
                                 list[BusWrite]]] = []
        super().__init__(**kw)
        self.writer = BusWriter(name="I2C", threaded=False)
        self.table.screens = [self.writer.add(d) for d in self.displays]

    def slot(self, station: int, slot: int) -> None:
        self.writer.drain()
        old = self.table.views[station]
        panel = self.panels[station]
        mark = len(panel.writes)
        super().slot(station, slot)
        new = self.table.views[station]
        if old is None or new is None or old.kind != RESOLUTION:
            self.writer.drain()
            return
        queued = self.writer.order()
        if queued:  # the acting station's answer goes out first
            assert queued[0] == f"S{station + 1}", queued
            self.writer.step()
        first, glass = panel.writes[mark:], panel.image()
        self.writer.drain()
        self.presses.append((slot, old, new, first, glass, panel.writes[mark:]))


def _played(seed: int) -> Turns:
    rig = Turns(seed=seed)
    for i in range(6):
        rig.go(i)
    rig.slot(5, 1)
    rig.slot(5, 1)  # one lap
    rig.slot(5, 6)  # RACE
    rig.presses.clear()
    players = Players(rig, seed=seed - 6)
    while players.step():
        pass
    rig.close()
    return rig


def test_turn_screen_presses_rewrite_only_what_they_change() -> None:
    discs = picks = 0
    for seed in (12, 13):
        rig = _played(seed)
        for slot, old, new, first, glass, _every in rig.presses:
            key = old.soft_keys[slot] if slot < len(old.soft_keys) else ""
            if key == "DISC" and new.kind == RESOLUTION and new.cards:
                # the answer: the DISC key reads OK (its column, pages 6-7), then the hand
                x = column_x(DISCARD_KEY)
                for pages, columns in windows(first):
                    assert pages <= KEY_PAGES, pages
                    assert x <= columns.start and columns.stop <= x + _KEY_W, columns
                spot = find_text(glass, "OK")
                assert spot is not None and x <= spot[0] < x + _KEY_W, spot
                discs += 1
            elif not key and old.cards and old.message == new.message \
                    and sum(c.selected for c in new.cards) == \
                    sum(c.selected for c in old.cards) + 1 and not old.detail \
                    and not new.detail:
                # a card picked to discard: its bar, in page 5 over its column, nothing else
                x = column_x(slot)
                assert windows(first), "the pick never reached the glass"
                for pages, columns in windows(first):
                    assert pages == {5}, pages
                    assert x <= columns.start and columns.stop <= x + _KEY_W + 1, columns
                picks += 1
    assert discs >= 5 and picks >= 5, (discs, picks)


def test_the_discard_steps_seventh_card_is_a_card_not_go() -> None:
    """On the discard step the seventh column holds a card: its press selects it and is not
    answered like GO (no "OK" on the glass)."""
    seen = 0
    for seed in (12, 13, 14):
        rig = _played(seed)
        for slot, old, new, _first, glass, _every in rig.presses:
            if slot == 6 and old.cards and not old.soft_keys:
                assert find_text(glass, "OK") is None
                assert new.kind == RESOLUTION
                seen += 1
    if not seen:  # the bots never pressed it in these races: ask the table directly
        from pitboard.hw.events import GoPressed, SlotPressed
        from pitboard.table.table import _commit_key
        view = StationView(RESOLUTION, 0, message="discard? then GO")
        assert _commit_key(SlotPressed(station=0, slot=6), view) == ""
        assert _commit_key(GoPressed(station=0), view) == "GO"
        keys = StationView(RESOLUTION, 0, soft_keys=("", "", "", "", "DISC", "", "GO"))
        assert _commit_key(SlotPressed(station=0, slot=4), keys) == "DISC"
        assert _commit_key(SlotPressed(station=0, slot=6), keys) == "GO"
