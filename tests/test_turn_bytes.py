"""Issue 15.13 on the turn screen (the acting station's resolution screen): what a press there
puts on the bus. A DISC press is GO and then the hand to discard from, a whole new picture, so
it is answered first by its key reading OK (one page of one tray column); picking a card to
discard adds the bar over it and moves no text line; a card in the seventh column is a card,
not GO; a toggle (ADR, BST, COOL, SLIP) rewrites its key and its field of the GO line.
Checked on the bytes the panels were sent, through the display writer (one toggle also on
rendered pages)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from PIL import Image

from pitboard.hw.oled import BusWrite
from pitboard.hw.writer import BusWriter
from pitboard.table.canvas import _KEY_W, column_x
from pitboard.table.turn import DISCARD_KEY
from pitboard.table.view import RESOLUTION, StationView
from rig import Grid6, Players, find_text

#: the races below are played once per test process (make test keeps these tests together)
pytestmark = pytest.mark.xdist_group("turn_bytes")

#: the soft keys' rows 56..63, the GO line's rows 49..53 and the tray's rows 40..63, in RAM pages
KEY_PAGES = {7}
GO_PAGE = 6
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
    it, and every write the press caused; and (``finals``) the glass once all is out."""

    def __init__(self, **kw: Any) -> None:
        self.presses: list[tuple[int, StationView, StationView, list[BusWrite], Image.Image,
                                 list[BusWrite]]] = []
        self.finals: list[Image.Image] = []
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
        self.finals.append(panel.image())


@cache  # a played race is only read: the tests share seeds 12 and 13
def _played(seed: int, *, toggles: bool = False) -> Turns:
    rig = Turns(seed=seed)
    for i in range(6):
        rig.go(i)
    rig.slot(5, 1)
    rig.slot(5, 1)  # one lap
    rig.slot(5, 6)  # RACE
    rig.presses.clear()
    rig.finals.clear()
    players = Players(rig, seed=seed - 6, tries=("ADR", "BST", "COOL", "SLIP") if toggles else ())
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
                # the answer: the DISC key reads OK (its column, page 7), then the hand
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


def test_a_toggle_rewrites_its_key_and_its_field_of_the_go_line() -> None:
    """Turning COOL off on the turn screen: the COOL key (outlined, page 7) and the "cool 2"
    field of the GO line (page 6); the header, the move, "GO:" and the other fields stay."""
    from dataclasses import replace

    from pitboard.hw.oled import to_pages
    from pitboard.table.canvas import _FIELD_GAP, _L
    from pitboard.table.screens import TINY, render
    from pitboard.table.turn import TurnChoices
    from pitboard.table.view import MoveView

    def view(choices: TurnChoices, off: tuple[int, ...]) -> StationView:
        return StationView(RESOLUTION, 0, engine=4, speed="7",
                           move=MoveView(7, 34, "outside", 1),
                           soft_keys=("ADR", "BST", "COOL", "", "DISC", "", "GO"), keys_off=off,
                           message=choices.summary(), message_toggles=True,
                           go_fields=choices.fields(), laps=2)

    cool = TurnChoices(adrenaline=True, boost=False, cool=2, cooling=True, discard=False)
    on, off = view(cool, (1,)), view(replace(cool, cooling=False), (1, 2))
    a, b = to_pages(render(on)), to_pages(render(off))
    changed: dict[int, list[int]] = {}
    for page in range(8):
        cols = [c for c in range(128) if a[page * 128 + c] != b[page * 128 + c]]
        if cols:
            changed[page] = cols
    assert set(changed) == {GO_PAGE} | KEY_PAGES, sorted(changed)
    key = column_x(2)
    assert all(key <= c < key + _KEY_W for c in changed[7]), changed[7]
    field = _L + TINY.width("GO:") + _FIELD_GAP  # the first field: "cool 2"
    assert field <= min(changed[GO_PAGE]), changed[GO_PAGE]
    assert max(changed[GO_PAGE]) < field + TINY.width("cool 2"), changed[GO_PAGE]
    assert find_text(render(on), "cool 2") is not None
    assert find_text(render(off), "cool 2") is None


def test_every_toggle_on_the_turn_screen_rewrites_its_keys_and_the_go_line_only() -> None:
    """Through the rig's display writer: each ADR, BST, COOL and SLIP press on a turn screen
    is answered in one transfer (one mux select) by its own key alone (one window in the
    keys' page, over its column: the pressed key as the new view has it, the rest of the
    glass as it was); the GO line and the other keys follow, every window of the press in
    the GO line's page and the keys' page; the glass is then the new view."""
    from pitboard.table.screens import render

    seen = 0
    for seed in (12, 13):
        rig = _played(seed, toggles=True)
        for (slot, old, new, first, glass, every), final in zip(rig.presses, rig.finals,
                                                                strict=True):
            key = old.soft_keys[slot] if slot < len(old.soft_keys) else ""
            if key.rstrip("0123456789") not in ("ADR", "BST", "COOL", "SL", "SLIP") \
                    or new.kind != RESOLUTION:
                continue
            assert first and not first[0].joined and all(w.joined for w in first[1:]), first
            assert windows(first), "the toggle never reached the glass"
            x = column_x(slot)
            for pages, columns in windows(first):
                assert pages == KEY_PAGES, pages
                assert x <= columns.start and columns.stop <= x + _KEY_W, columns
            for pages, _columns in windows(every):
                assert pages <= {GO_PAGE} | KEY_PAGES, pages
            # the answer: the glass as it was, the pressed key's cell as the new view's
            was, now = render(old), render(new)
            cell = (x, 56, x + _KEY_W, 64)
            assert glass.crop(cell).tobytes() == now.crop(cell).tobytes()
            answered = was.copy()
            answered.paste(now.crop(cell), cell[:2])
            assert glass.tobytes() == answered.tobytes()
            assert final.tobytes() == now.tobytes()
            seen += 1
    assert seen >= 10, seen


def test_the_go_line_says_done_with_nothing_on_and_falls_back_when_fields_do_not_fit() -> None:
    from pitboard.table.screens import render
    from pitboard.table.turn import TurnChoices
    from pitboard.table.view import MoveView

    nothing = TurnChoices(adrenaline=False, boost=False)
    view = StationView(RESOLUTION, 0, engine=4, speed="7", move=MoveView(7, 34, "outside", 1),
                       soft_keys=("ADR", "BST", "", "", "", "", "GO"), keys_off=(0, 1),
                       message=nothing.summary(), message_toggles=True,
                       go_fields=nothing.fields(), laps=2)
    image = render(view)
    assert nothing.summary() == "GO: done"
    assert find_text(image, "GO:") is not None and find_text(image, "done") is not None
    # fields that cannot keep their places on one line: the line as one text, as it comes
    wide = (("boost", "boost boost boost"), ("slip", "slip slip slip slip"),
            ("keep hand", "keep hand keep hand"))
    image = render(replace(view, message="GO: boost, slip, keep hand", go_fields=wide))
    assert find_text(image, "GO: boost, slip, keep hand") is not None
