"""The Garage draft at the table: each player picks upgrades from the market on their own OLED
with the tray buttons and GO, in the rulebook's order; the others see whose pick it is; bots
pick at once; picks are journalled (a power cut mid-draft resumes at the same pick) and undone
like any decision."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pitboard.console import ConsoleProtocol
from pitboard.engine.garage.draft import DraftDrop, DraftPick
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.draft_view import draft_status
from pitboard.table.recorder import JournalRecorder
from pitboard.table.screens import render
from pitboard.table.table import KioskOptions, Table
from rig import Grid6, shows

PIN = "2468"


@pytest.fixture
def rig() -> Iterator[Grid6]:
    r = Grid6(seed=11)
    yield r
    r.close()


def draft_table(stations: int = 2, *, cars: int = 3, choose: str = "draft", seed: int = 1,
                recorder: JournalRecorder | None = None) -> Table:
    table = Table(stations=stations, seed=seed, cars=cars, recorder=recorder, clock=lambda: 0.0)
    table.set_module("garage", {"choose": choose})
    for i in range(stations):
        table.handle(GoPressed(station=i))
    table.handle(SlotPressed(station=0, slot=6))  # RACE
    return table


def picker(table: Table) -> int:
    """The station whose pick it is."""
    assert table.race is not None
    car = table.race.pending().cars[0]
    return next(st.index for st in table.stations if st.car == car)


def pick_first(table: Table) -> str:
    """The picking station presses its first card and GO; returns the card."""
    st = table.stations[picker(table)]
    button = next(i for i, key in enumerate(st.slots[:7]) if key is not None)
    card = st.slots[button]
    assert card is not None
    table.handle(SlotPressed(station=st.index, slot=button))
    table.handle(GoPressed(station=st.index))
    return card


def test_the_draft_through_the_pins_in_the_rulebooks_order(rig: Grid6) -> None:
    """Three players and three bots draft on grid6: each pick on the picker's own glass, in the
    rulebook's order (rounds 1 and 3 from the last grid position, round 2 from the first)."""
    table = rig.table
    table.set_module("garage", {"choose": "draft"})
    for i in range(3):
        rig.go(i)
    rig.slot(0, 2)  # CARS 3 -> 4 ... the lobby counts up from the joined players
    rig.slot(0, 2)
    rig.slot(0, 2)  # 6 cars: 3 players, 3 bots
    rig.slot(0, 6)  # RACE
    race = table.race
    assert race is not None and table.state == flow.DRAFT and race.setup.cars == 6
    grid = list(race.grid)
    expected = [*reversed(grid), *grid, *reversed(grid)]
    people = 0
    while table.state == flow.DRAFT:
        st = picker(table)
        others = [i for i in range(3) if i != st]
        assert shows(rig.panels[st], "YOUR PICK")
        name = rig.view(st).title  # DRAFT n/3
        for other in others:
            assert rig.view(other).message == f"{rig.table.stations[st].name} picks"
            assert rig.view(other).title == name
        button = next(i for i, key in enumerate(table.stations[st].slots[:6]) if key)
        rig.slot(st, button)
        assert shows(rig.panels[st], "GO: take it")
        rig.go(st)
        people += 1
    rig.check_glass()
    assert people == 9 and table.state == flow.PLANNING
    picks = [d for d in race.log if isinstance(d, DraftPick)]
    assert [d.car for d in picks] == expected  # bots picked at once, in their turns
    for car in race.cars:
        assert sum(1 for d in picks if d.car == car.id) == 3
        assert not {"0", "5"} & set(car.hand + car.draw)  # the starting upgrades made way


def test_the_others_see_whose_pick_and_what_is_left() -> None:
    table = draft_table()
    assert table.state == flow.DRAFT
    st = picker(table)
    other = 1 - st
    status = draft_status(table.race)  # type: ignore[arg-type]
    assert status is not None
    view = table.views[other]
    assert view is not None and view.kind == "draft"
    assert view.message == f"S{st + 1} picks"
    assert view.lines[0] == f"{len(status.market)} cards left"
    assert [c.code for c in view.cards if c.code] == list(status.market)
    assert all(c.disabled for c in view.cards)  # not theirs to press
    table.handle(SlotPressed(station=other, slot=0))  # ignored: not their pick
    table.handle(GoPressed(station=other))
    assert draft_status(table.race) == status  # type: ignore[arg-type]
    mine = table.views[st]
    assert mine is not None and mine.message == "YOUR PICK"
    table.handle(GoPressed(station=st))  # GO with no card chosen: says what to do
    mine = table.views[st]
    assert mine is not None and mine.lines[0] == "press a card first"
    # a press selects, a second press on the same card lets go of it
    table.handle(SlotPressed(station=st, slot=0))
    assert table.stations[st].selected == {0}
    table.handle(SlotPressed(station=st, slot=0))
    assert table.stations[st].selected == set()
    render(table.views[st])  # type: ignore[arg-type]  # draws


def test_a_station_that_does_not_race_sees_the_draft_without_picks_of_its_own() -> None:
    table = Table(stations=3, seed=1, cars=2, clock=lambda: 0.0)
    table.set_module("garage", {"choose": "draft"})
    table.handle(GoPressed(station=0))
    table.handle(GoPressed(station=1))
    table.handle(SlotPressed(station=0, slot=6))
    view = table.views[2]
    assert view is not None and view.kind == "draft" and view.lines == ("5 cards left",)
    table.handle(SlotPressed(station=2, slot=0))  # its buttons pick nothing
    table.handle(GoPressed(station=2))
    assert table.race is not None and not table.race.log


def test_cards_stay_over_their_buttons_while_others_pick() -> None:
    table = draft_table(cars=2)
    first = picker(table)
    before = list(table.stations[1 - first].slots)
    taken = pick_first(table)
    after = table.stations[1 - first].slots
    assert [k if k != taken or i != before.index(taken) else None for i, k in
            enumerate(before)] == after


def test_a_power_cut_mid_draft_resumes_at_the_same_pick(tmp_path: Path) -> None:
    table = draft_table(recorder=JournalRecorder(Journal(tmp_path)))
    taken = [pick_first(table) for _ in range(2)]
    race = table.race
    assert race is not None
    log, status = list(race.log), draft_status(race)
    # the power goes: a new table on the same journal
    saved = JournalRecorder(Journal(tmp_path)).recover()
    assert saved is not None and not saved.ended
    again = Table(stations=2, seed=99, clock=lambda: 0.0,
                  recorder=JournalRecorder(Journal(tmp_path)))
    again.restore(saved)
    assert again.state == flow.DRAFT and again.race is not None
    assert again.race.log == log and draft_status(again.race) == status
    assert all(any(isinstance(d, DraftPick) and d.card == card for d in log) for card in taken)
    view = again.views[picker(again)]
    assert view is not None and view.message == "YOUR PICK"
    while again.state == flow.DRAFT:
        pick_first(again)
    assert again.state == flow.PLANNING


def test_undo_takes_back_the_last_pick_a_person_made() -> None:
    table = draft_table()
    race = table.race
    assert race is not None
    before = list(race.log)
    first = pick_first(table)
    assert len(table.race.log) > len(before)  # type: ignore[union-attr]
    proto = ConsoleProtocol(table, staff_pin=PIN)
    proto.handle_line(f"pin {PIN}")
    reply = proto.handle_line("undo")
    assert reply[0].startswith("OK state=draft ")
    assert table.race is not None and table.race.log == before
    status = draft_status(table.race)
    assert status is not None and first in status.market
    # undo from round 1's planning goes back into the draft
    while table.state == flow.DRAFT:
        pick_first(table)
    assert table.state == flow.PLANNING
    table.undo()
    assert table.state == flow.DRAFT and draft_status(table.race) is not None


def test_the_snake_draft_ends_with_each_player_dropping_one() -> None:
    table = draft_table(cars=2, choose="snake")
    while table.race is not None and draft_status(table.race) is not None and \
            not draft_status(table.race).dropping:  # type: ignore[union-attr]
        pick_first(table)
    st = picker(table)
    view = table.views[st]
    assert view is not None and view.title == "DROP 1 OF 4" and view.message == "YOUR DROP"
    car = table.stations[st].car
    assert car is not None
    own = [k for k in table.stations[st].slots if k]
    assert len(own) == 4
    dropped = pick_first(table)
    race = table.race
    assert race is not None
    assert DraftDrop(car, dropped) in race.log
    while table.state == flow.DRAFT:
        pick_first(table)
    assert table.state == flow.PLANNING


def test_a_market_of_more_than_seven_cards_pages() -> None:
    table = draft_table(stations=5, cars=5)  # a market of 8
    st = table.stations[picker(table)]
    view = table.views[st.index]
    assert view is not None and view.soft_keys[6] == "PG>"
    assert len([c for c in view.cards if c.code]) == 6
    table.handle(SlotPressed(station=st.index, slot=6))  # the next page: the last 2 cards
    view = table.views[st.index]
    assert view is not None and len([c for c in view.cards if c.code]) == 2
    table.handle(SlotPressed(station=st.index, slot=1))
    card = st.slots[7]
    table.handle(GoPressed(station=st.index))
    assert table.race is not None and DraftPick(st.car, card) in table.race.log  # type: ignore


def test_a_kiosk_visitor_who_walks_away_mid_draft_is_replaced_by_a_drafting_bot() -> None:
    now = [0.0]
    kiosk = KioskOptions(cars=2, modules={"garage": {"choose": "draft"}})
    table = Table(stations=2, seed=3, clock=lambda: now[0], kiosk=kiosk)
    table.handle(GoPressed(station=0))  # wakes the kiosk, joins
    table.handle(GoPressed(station=1))
    now[0] += kiosk.join_seconds
    table.tick()
    assert table.state == flow.DRAFT
    away = table.stations[picker(table)]
    stays = table.stations[1 - away.index]
    now[0] += kiosk.seat_idle_seconds  # the picker has gone; the other visitor is still here
    stays.last_input = now[0]
    table.tick()
    assert away.idle_bot and table.race is not None
    assert table.race.pending().cars == (stays.car,)  # the bot picked at once
    assert any(isinstance(d, DraftPick) and d.car == away.car for d in table.race.log)
