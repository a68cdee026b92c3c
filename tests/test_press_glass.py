"""Issue 15.13, what a press puts on the bus: the planning and locked screens are laid out by
RAM page (8 pixel rows), so a shift and GO rewrite few pages; a GO that brings a whole new
screen is answered first by a small change of the old one, which the display writer never
replaces before it is on the glass."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pitboard.hw.oled import BusWrite
from pitboard.hw.writer import BusWriter
from rig import Grid6, Players, find_text, shows

#: the message row (the LOCKED mark, "cards to play: 2", why GO is refused)
MESSAGE_PAGE = 4


def pages_written(writes: Sequence[BusWrite]) -> set[int]:
    """The RAM pages an SSD1306's windows covered in ``writes``."""
    out: set[int] = set()
    for w in writes:
        if w.kind == "command" and w.payload[:1] == b"\x21":
            out |= set(range(w.payload[4], w.payload[5] + 1))
    return out


class Watched(Grid6):
    """The rig, noting for every lever move and GO the views before and after and what went
    to each panel."""

    def __init__(self, **kw: Any) -> None:
        self.actions: list[tuple[str, int, list[Any], list[Any], list[set[int]]]] = []
        super().__init__(**kw)

    def _watch(self, kind: str, station: int, act: Any) -> None:
        before = [self.renders.views.get(i) for i in range(6)]
        marks = [len(p.writes) for p in self.panels]
        act()
        after = [self.renders.views.get(i) for i in range(6)]
        self.actions.append((kind, station, before, after,
                             [pages_written(p.writes[n:]) for p, n in zip(self.panels, marks,
                                                                          strict=True)]))

    def go(self, station: int) -> None:
        self._watch("go", station, lambda: super(Watched, self).go(station))

    def lever(self, station: int, gear: int) -> None:
        self._watch("lever", station, lambda: super(Watched, self).lever(station, gear))


def start(rig: Grid6) -> None:
    for i in range(6):
        rig.go(i)
    rig.slot(5, 1)
    rig.slot(5, 1)  # one lap
    rig.slot(5, 6)  # RACE


def test_go_and_the_lever_rewrite_few_pages_of_the_planning_screen() -> None:
    rig = Watched(seed=11)
    start(rig)
    rig.actions.clear()
    players = Players(rig, seed=5)
    while players.step() and players.actions < 40:
        pass
    locked = shifts = waits = 0
    for kind, station, before, after, pages in rig.actions:
        old, new = before[station], after[station]
        if kind == "go" and old.kind == "planning" and new.kind == "locked":
            # the plan as it was on the glass, plus the LOCKED mark in the message row
            assert pages[station] <= {MESSAGE_PAGE}, pages[station]
            locked += 1
            for i in range(6):  # a station already locked: its "waiting for N" only
                if i != station and before[i].kind == after[i].kind == "locked":
                    assert pages[i] <= {MESSAGE_PAGE}, (i, pages[i])
                    waits += 1
        if kind == "lever" and old.kind == new.kind == "planning" \
                and old.target_gear != new.target_gear:
            # the label row (GEAR 2→, a shift's Heat), the BIG digit, "cards to play: 3"
            assert pages[station] <= {0, 1, 2, MESSAGE_PAGE}, pages[station]
            shifts += 1
    assert locked >= 10 and shifts >= 5 and waits >= 10, (locked, shifts, waits)


def test_the_last_go_is_answered_by_the_locked_mark_then_the_reveal() -> None:
    """With the display writers: the last GO of a round shows the player's plan LOCKED ("all
    in") before the reveal, and the reveal follows on the same display."""
    rig = Grid6(seed=11)
    start(rig)
    writer = BusWriter(name="I2C", threaded=False)
    rig.table.screens = [writer.add(d) for d in rig.displays]
    players = Players(rig, seed=5)
    answered = 0
    while answered < 2:
        planning = [i for i in range(6) if rig.view(i).kind == "planning"]
        assert players.step()
        kinds = [rig.view(i).kind for i in range(6)]
        if len(planning) != 1 or "planning" in kinds or "locked" in kinds:
            writer.drain()
            continue
        # the round's last GO was just handled: its station's answer goes first
        station = planning[0]
        assert writer.order()[0] == f"S{station + 1}"
        panel = rig.panels[station]
        seen = False
        while writer.step():
            image = panel.image()
            seen = seen or (find_text(image, "LOCKED") is not None and shows(panel, "ALL IN"))
        assert seen, "the LOCKED mark never reached the glass"
        rig.check_glass()  # then the reveal, on every station
        answered += 1
    assert answered == 2


class Levers(Grid6):
    """The rig with a display writer, noting each lever move on a planning screen: the views
    before and after, the acting panel's writes of the writer's first part (the answer), the
    glass after it and once everything is out."""

    def __init__(self, **kw: Any) -> None:
        self.moves: list[tuple[Any, Any, list[BusWrite], Any, Any]] = []
        super().__init__(**kw)
        self.writer = BusWriter(name="I2C", threaded=False)
        self.table.screens = [self.writer.add(d) for d in self.displays]

    def lever(self, station: int, gear: int) -> None:
        if not hasattr(self, "writer"):  # the rig's own start-up
            super().lever(station, gear)
            return
        self.writer.drain()
        old = self.table.views[station]
        panel = self.panels[station]
        mark = len(panel.writes)
        super().lever(station, gear)
        new = self.table.views[station]
        if old is None or new is None or not old.kind == new.kind == "planning" \
                or old.target_gear == new.target_gear:
            self.writer.drain()
            return
        assert self.writer.order()[0] == f"S{station + 1}"  # the acting station first
        self.writer.step()
        first, glass = panel.writes[mark:], panel.image()
        self.writer.drain()
        self.moves.append((old, new, first, glass, panel.image()))


def test_a_lever_move_is_answered_by_its_gear_digit_then_the_new_screen() -> None:
    """The answer to a lever move is the gear as pressed alone: one transfer whose windows lie
    in the header's pages over the gear (its label GEAR 2→ and its BIG digit), the rest of the
    glass as it was (a 2-gear shift's Heat chip, the speed, the warnings and the cards to play
    come behind it, a chip of the old gear gone with the answer); then the new screen."""
    from dataclasses import replace

    from pitboard.table.planning_screen import _GEAR_X
    from pitboard.table.screens import render

    rig = Levers(seed=11)
    start(rig)
    players = Players(rig, seed=5)
    while players.step() and len(rig.moves) < 12:
        pass
    rig.close()
    assert len(rig.moves) >= 12, len(rig.moves)
    chips = 0
    for old, new, first, glass, final in rig.moves:
        assert first and not first[0].joined and all(w.joined for w in first[1:]), first
        assert pages_written(first) <= {0, 1, 2}, pages_written(first)
        for w in first:
            if w.kind == "command" and w.payload[:1] == b"\x21":  # the window's columns
                assert w.payload[1] >= _GEAR_X, list(w.payload)
        answer = replace(old, target_gear=new.target_gear, shift_cost=0)
        assert glass.tobytes() == render(answer).tobytes()
        assert final.tobytes() == render(new).tobytes()
        chips += bool(old.shift_cost or new.shift_cost)
    assert chips >= 1, "no 2-gear shift among the moves"
