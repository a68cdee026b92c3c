"""Phone seats on the table's side: holders and generations, the join code that changes every
race, the lobby's join line and PHONES page (with a QR code an OLED can show), the race-control
lobby, the views as JSON, and the feed the table hands its view observers."""

from __future__ import annotations

import json
import logging

import pytest
import segno
from PIL import Image

from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.feed import TableFeed
from pitboard.table.gallery import sample_views
from pitboard.table.join_screen import QUIET, qr_image, qr_modules
from pitboard.table.lobby_options import JOIN_PAGE, PAGE_KEY, PAGES
from pitboard.table.phone_seats import JoinInfo, PhoneSeats, SeatClaimed, SeatLeft, valid_name
from pitboard.table.race_control import race_control_view, render_race_control
from pitboard.table.screens import render
from pitboard.table.table import Table
from pitboard.table.view_json import card_face, race_control_dict, station_view_dict

URL = "http://pitboard.local:8080/"


def _table(stations: int = 3, seats: tuple[int, ...] = (1, 2), **kw: object) -> Table:
    return Table(stations=stations, seed=1, laps=1, phones=PhoneSeats(seats, url=URL),
                 **kw)  # type: ignore[arg-type]


def _phones(table: Table) -> PhoneSeats:
    assert table.phones is not None
    return table.phones


# ---- holders and generations ------------------------------------------------------------

def test_a_claimed_seat_is_named_for_its_player_and_races_under_that_name() -> None:
    table = _table()
    table.handle(SeatClaimed(station=1, name="Alice", generation=0))
    assert table.stations[1].name == "Alice" and _phones(table).generations[1] == 1
    assert table.views[1] is not None and table.views[1].title == "Alice LOBBY"
    table.handle(GoPressed(station=1))
    table.start_race(seed=3)
    assert table.race is not None and "Alice" in table.race.setup.names


def test_a_claim_that_is_out_of_date_or_for_a_held_seat_is_dropped() -> None:
    table = _table()
    table.handle(SeatClaimed(station=1, name="Alice", generation=0))
    table.handle(SeatClaimed(station=1, name="Mallory", generation=0))  # the server's old look
    table.handle(SeatClaimed(station=1, name="Mallory", generation=1))  # held
    table.handle(SeatClaimed(station=0, name="Mallory", generation=0))  # not a phone seat
    assert [st.name for st in table.stations] == ["S1", "Alice", "S3"]
    assert _phones(table).holders == {1: "Alice"}


def test_leaving_gives_the_seat_and_its_name_back_and_unjoins_in_the_lobby() -> None:
    table = _table()
    table.handle(SeatClaimed(station=2, name="Bo", generation=0))
    table.handle(GoPressed(station=2))
    assert table.stations[2].joined
    table.handle(SeatLeft(station=2, generation=0))  # out of date: nothing
    assert table.stations[2].name == "Bo"
    table.handle(SeatLeft(station=2, generation=1))
    assert (table.stations[2].name, table.stations[2].joined) == ("S3", False)
    assert _phones(table).holders == {} and _phones(table).generations[2] == 2


def test_a_car_stays_in_the_race_when_its_phone_leaves_and_the_next_holder_drives_it() -> None:
    table = _table()
    table.handle(SeatClaimed(station=1, name="Alice", generation=0))
    table.handle(GoPressed(station=1))
    table.start_race(seed=3)
    assert table.stations[1].car == 0
    table.handle(SeatLeft(station=1, generation=1))
    assert table.stations[1].car == 0 and table.state == flow.PLANNING  # the table waits
    table.handle(SeatClaimed(station=1, name="Ann", generation=2))  # Alice's new phone
    event = next_input(table, stations={1})
    assert event is not None
    table.handle(event)
    assert table.stations[1].name == "Ann"


def test_an_emulated_station_someone_joined_at_the_keyboard_is_not_free() -> None:
    seats = PhoneSeats([0, 1], url=URL, shared=[0, 1])
    table = Table(stations=2, seed=1, phones=seats)
    table.handle(GoPressed(station=0))  # at the keyboard
    assert [s.free for s in seats.seat_views(table.stations)] == [False, True]
    table.handle(SeatClaimed(station=0, name="Alice", generation=0))
    assert table.stations[0].name == "S1"


def test_staff_free_a_seat_and_say_the_code() -> None:
    table = _table()
    phones = _phones(table)
    table.handle(SeatClaimed(station=1, name="Alice", generation=0))
    assert phones.free(1, table.stations, table.state) == \
        f"S2 freed (Alice's phone is out); join code {phones.code}"
    assert phones.free(1, table.stations, table.state) == f"S2 is free; join code {phones.code}"
    with pytest.raises(ValueError, match="S1 is not a phone seat"):
        phones.free(0, table.stations, table.state)


@pytest.mark.parametrize(("text", "name"), [("Alice", "Alice"), ("  Jo  Ann ", "Jo Ann"),
                                            ("O'Neil-2", "O'Neil-2"), ("a.b_c", "a.b_c")])
def test_names(text: str, name: str) -> None:
    assert valid_name(text) == name


@pytest.mark.parametrize("text", ["", "   ", "Alexandrina1", "Zoë", "a\x1bb", "<script>",
                                  "Bot 2", "bottom", "Red Legend", "S3", "s12"])
def test_names_refused(text: str) -> None:
    with pytest.raises(ValueError):
        valid_name(text)


# ---- the join code -----------------------------------------------------------------------

def test_the_join_code_changes_with_every_race_but_not_on_undo(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "pitboard.table")
    table = _table()
    phones = _phones(table)
    codes = [phones.code]
    for _ in range(3):
        table.handle(GoPressed(station=0))
        table.start_race(seed=len(codes))
        table.refresh()  # as after the console's new-race
        codes.append(phones.code)
        table.handle(LeverMoved(station=0, gear=1))
        table.handle(SlotPressed(station=0, slot=0))
        table.handle(GoPressed(station=0))  # a plan: something to undo
        table.undo()
        assert phones.code == codes[-1]  # undo replays the same race
        table.do_reset()
    assert len(codes) == 4 and all(len(c) == 4 and c.isdigit() for c in codes)
    assert len(set(codes)) >= 3  # four draws of 10 000: a repeat is possible, two are not
    logged = [r.getMessage() for r in caplog.records if "join code" in r.getMessage()]
    assert logged[-1] == f"phones: join code {codes[-1]} at {URL}"


# ---- the lobby ----------------------------------------------------------------------------

def test_the_lobby_shows_the_code_and_opts_turns_to_the_phones_page() -> None:
    table = _table()
    code = _phones(table).code
    view = table.views[0]
    assert view is not None and f"phones: code {code}, QR: OPTS" in view.lines
    for _ in range(JOIN_PAGE):
        table.handle(SlotPressed(station=0, slot=PAGE_KEY))
    view = table.views[0]
    assert view is not None and view.title == "S1 PHONES"
    assert view.qr == f"HTTP://PITBOARD.LOCAL:8080/J/{code}"
    assert view.lines == ("code", code, "pitboard.local:8080", "press GO to join")
    before = (table.track, table.laps, table.cars)
    for slot in (0, 1, 2, 4, 5):  # nothing on the PHONES page's other buttons
        table.handle(SlotPressed(station=0, slot=slot))
    assert (table.track, table.laps, table.cars) == before and table.state == flow.LOBBY
    table.handle(SlotPressed(station=0, slot=PAGE_KEY))
    assert table.views[0] is not None and table.views[0].title == "S1 LOBBY"  # round again
    table.handle(GoPressed(station=0))
    for _ in range(JOIN_PAGE):
        table.handle(SlotPressed(station=0, slot=PAGE_KEY))
    table.handle(SlotPressed(station=0, slot=6))  # RACE starts from the PHONES page too
    assert table.state == flow.PLANNING


def test_without_phone_seats_the_lobby_is_as_before() -> None:
    table = Table(stations=2, seed=1)
    view = table.views[0]
    assert view is not None and not any("phones" in line for line in view.lines)
    for _ in range(len(PAGES)):
        table.handle(SlotPressed(station=0, slot=PAGE_KEY))
    assert table.views[0] is not None and table.views[0].title == "S1 LOBBY"


def _modules_of(img: Image.Image, x0: int, y0: int, size: int, scale: int) -> list[list[bool]]:
    """The QR code's modules as drawn (dark = an unlit pixel), read at each module's centre."""
    return [[img.getpixel((x0 + (QUIET + x) * scale + scale // 2,
                           y0 + (QUIET + y) * scale + scale // 2)) == 0
             for x in range(size)] for y in range(size)]


def test_the_phones_page_draws_the_qr_code_module_for_module() -> None:
    table = _table()
    for _ in range(JOIN_PAGE):
        table.handle(SlotPressed(station=0, slot=PAGE_KEY))
    view = table.views[0]
    assert view is not None
    img = render(view)
    want = [[bool(m) for m in row] for row in segno.make(view.qr, error="l", micro=False,
                                                          boost_error=True).matrix]
    assert len(want) == 25  # version 2: 2 px a module, above the soft keys
    assert _modules_of(img, 0, 0, 25, 2) == want
    # the quiet zone is lit all round
    assert all(img.getpixel((x, 0)) for x in range(54)) and all(img.getpixel((0, y))
                                                                for y in range(54))


def test_the_race_control_lobby_has_the_qr_code_and_the_code() -> None:
    table = _table()
    view = race_control_view(table.scene())
    assert view.qr == JoinInfo(URL, _phones(table).code).qr
    assert f"phone code {_phones(table).code}" in view.lines
    img = render_race_control(view)
    scale = (64 - 10) // (25 + 2 * QUIET)
    x0, y0 = 128 - (25 + 2 * QUIET) * scale, 64 - (25 + 2 * QUIET) * scale
    assert _modules_of(img, x0, y0, 25, scale) == [list(r) for r in qr_modules(view.qr)]


def test_a_long_address_gets_smaller_modules_or_none() -> None:
    info = JoinInfo("http://a-rather-long-host-name.example.org:8080/pitboard/", "1234")
    assert info.qr == "http://a-rather-long-host-name.example.org:8080/pitboard/j/1234"
    img = qr_image(info.qr, height=54)
    assert img is not None and img.width <= 54
    assert qr_image("x" * 300, height=54) is None


# ---- views as JSON, and the feed ------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(sample_views()))
def test_every_screen_kind_is_json_with_its_cards_and_keys_over_their_slots(name: str) -> None:
    view = sample_views()[name]
    data = json.loads(json.dumps(station_view_dict(view)))
    assert data["kind"] == view.kind
    for card in data["cards"]:
        assert view.cards[card["slot"]].code == card["code"]
    for key in data["keys"]:
        assert view.soft_keys[key["slot"]] and key["words"]
    text = json.dumps(data)
    assert not any(0xE000 <= ord(ch) <= 0xF8FF for ch in text)  # icons spelled out


def test_an_upgrades_face_says_its_symbols() -> None:
    face = card_face("U44")
    assert face["name"] == "Wings" and face["speed"] == "4"
    assert [(s["symbol"], s["mandatory"]) for s in face["symbols"]][:1] == [("heat", True)]
    assert race_control_dict(race_control_view(_table().scene()))["title"] == "RACE CONTROL"


def test_view_observers_get_a_feed_only_when_something_changed() -> None:
    table = _table()
    feeds: list[TableFeed] = []
    table.view_observers.append(feeds.append)
    table.refresh()
    table.refresh()
    assert len(feeds) == 1
    table.handle(SlotPressed(station=0, slot=5))  # nothing on screen changes...
    assert len(feeds) == 2 and feeds[-1].handled == (1, 0, 0)  # ...but it was handled
    feed = feeds[-1]
    assert feed.join == JoinInfo(URL, _phones(table).code)
    assert [s.station for s in feed.seats] == [1, 2] and feed.race_control is not None


def test_a_failing_view_observer_costs_nothing_at_the_table(
        caplog: pytest.LogCaptureFixture) -> None:
    table = _table()

    def broken(feed: TableFeed) -> None:
        raise RuntimeError("observer bug")

    table.view_observers.append(broken)
    table.handle(GoPressed(station=0))
    assert table.stations[0].joined and "view observer failed" in caplog.text
