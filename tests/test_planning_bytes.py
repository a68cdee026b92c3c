"""The planning screen's corner row on the bus (issue 15.13): the next corner ahead stands in
the row before the plan reaches it, so a card that makes the move reach it rewrites the row's
Heat field only, not the whole RAM page."""

from __future__ import annotations

from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.hw.oled import changed_spans, to_pages
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.planning_screen import HEAT_FIELD_W
from pitboard.table.screens import _R, render
from pitboard.table.table import Table
from pitboard.table.view import StationView
from rig import find_text


def started(*, seed: int = 5) -> Table:
    table = Table(stations=2, render=render, seed=seed, clock=lambda: 0.0)
    for i in range(2):
        table.handle(GoPressed(station=i))
    table.start_race(track="usa", laps=1, cars=2)
    while table.state == flow.SETUP:
        table.handle(GoPressed(station=0))
    table.refresh()
    assert table.state == flow.PLANNING, table.state
    return table


def view(table: Table) -> StationView:
    v = table.views[0]
    assert v is not None and v.kind == "planning"
    return v


def test_before_any_card_the_corner_row_names_the_next_corner_and_how_far() -> None:
    table = started()
    race = table.race
    assert race is not None
    car = race.cars[0]
    v = view(table)
    assert not v.corners and v.next_corner is not None
    line, index, limit = race.corners_between(car.d, race.finish_d + 1)[0]
    assert (v.next_corner.number, v.next_corner.limit) == (index + 1, limit)
    assert v.next_corner.ahead == line - car.d + 1
    image = render(v)
    assert find_text(image, f"in {v.next_corner.ahead}") is not None
    assert any(find_text(image, t) is not None for t in (
        f"corner {index + 1} limit {limit}", f"C{index + 1} limit {limit}"))


def test_reaching_the_next_corner_rewrites_the_heat_field_of_page_3_only() -> None:
    table = started()
    field = range(_R - HEAT_FIELD_W + 1, 128)
    reached = 0
    for _ in range(400):
        v = table.views[0]
        if v is not None and v.kind == "planning" and v.next_corner is not None:
            st = table.stations[0]
            for slot in range(7):
                visible = st.visible_slots()
                if slot >= len(visible) or st.slots[visible[slot]] in (None, "H"):
                    continue  # (a Heat card only says it cannot be played)
                before = view(table)
                table.handle(SlotPressed(station=0, slot=slot))
                after = view(table)
                if not before.corners and len(after.corners) == 1 and after.heat_owed == 0 \
                        and not after.spin_out and not after.spin_odds:
                    reached += 1
                    assert after.next_corner is None
                    spans = changed_spans(to_pages(render(before)), to_pages(render(after)))
                    page3 = [s for s in spans if s.page == 3]
                    assert page3 and all(s.first in field and s.last in field for s in page3)
                table.handle(SlotPressed(station=0, slot=slot))  # as it was
                assert view(table) == before
        if reached >= 3:
            break
        event = next_input(table)
        assert event is not None
        table.handle(event)
    assert reached >= 3, "too few cards reach the next corner"


def test_a_card_toggle_rewrites_the_speed_digits_the_heat_field_and_its_bar_only() -> None:
    """A card toggled on the planning screen: the SPEED digits that changed (fixed cells: an end
    of a range that stays the same is not rewritten), the warning block (pages 3-4: the corner
    row, its MEDIUM Heat chip or spin-out band; "cards to play: 2" does not count the cards),
    the bar over the card (page 5); never the label row (page 0), never the cards themselves
    (pages 6-7)."""
    from pitboard.table.canvas import _SPEED_LOW

    table = started()
    toggles = kept_low = 0
    for _ in range(400):
        v = table.views[0]
        if v is not None and v.kind == "planning":
            for slot in range(7):
                before = view(table)
                if slot >= len(before.cards) or not before.cards[slot].code \
                        or before.cards[slot].disabled:
                    continue
                table.handle(SlotPressed(station=0, slot=slot))
                after = view(table)
                if after.message == before.message and after.cards != before.cards:
                    toggles += 1
                    spans = changed_spans(to_pages(render(before)), to_pages(render(after)))
                    assert {s.page for s in spans} <= {1, 2, 3, 4, 5}, (
                        before.speed, after.speed, spans)
                    low, dash, _ = before.speed.partition("-")
                    new_low, new_dash, _ = after.speed.partition("-")
                    if dash and new_dash and low == new_low:  # "4-7" -> "4-9"
                        kept_low += 1
                        assert all(s.first > _SPEED_LOW for s in spans if s.page in (1, 2))
                table.handle(SlotPressed(station=0, slot=slot))  # as it was
                assert view(table) == before
        if toggles >= 40:
            break
        event = next_input(table)
        assert event is not None
        table.handle(event)
    assert toggles >= 40, toggles
    assert kept_low >= 1, "no toggle kept the low end of a range"
