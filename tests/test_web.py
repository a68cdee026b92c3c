"""Phones as stations, over real WebSockets to the real server beside a running table: taking
a seat with the join code, coming back with the seat's token after a reload, a seat no other
phone can take without the token or staff, the lobby's settings behind the staff PIN, whole
races (a phone against bots; a wired station, a phone, bots and a Legend in one race), the
kiosk offering phone seats, and a table that waits for a phone that went away."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import aiohttp

from phonekit import PIN, Phone, Served, play, run, served
from pitboard.console import ConsoleProtocol, QueueLink
from pitboard.hw.events import GoPressed, StationEvent
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.table import Call, KioskOptions

CODE_WRONG = "0000"


def _other(code: str) -> str:
    return CODE_WRONG if code != CODE_WRONG else "1111"


async def _seated(session: aiohttp.ClientSession, s: Served, name: str,
                  seat: int | None = None) -> Phone:
    phone = await Phone.open(session, s.url, pace=s.pace)
    await phone.until("hello")
    await phone.join_as(s.code, name, seat)
    await phone.until_view(lambda v: v["title"].startswith(name))
    return phone


async def _in_race(phone: Phone) -> None:
    """Join the race from the lobby (GO) and start it (RACE)."""
    n = await phone.send({"t": "go"})
    await phone.answered(n)
    n = await phone.send({"t": "tap", "slot": 6})
    await phone.answered(n)


# ---- joining --------------------------------------------------------------------------------

def test_a_phone_takes_a_seat_with_the_code_and_a_name() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await Phone.open(session, s.url)
            hello = await phone.until("hello")
            assert hello == {"t": "hello", "schema": 1, "code_needed": True, "free": 2,
                             "kiosk": False}
            await phone.send({"t": "join", "code": _other(s.code), "name": "Alice"})
            assert (await phone.until("err"))["msg"] == "wrong code"
            await phone.send({"t": "join", "code": s.code, "name": "Bot 9"})
            assert (await phone.until("err"))["msg"].startswith("name: that name is")
            seat = await phone.join_as(s.code, "Alice")
            assert seat["seat"] == 0 and seat["name"] == "Alice" and len(seat["token"]) == 43
            view = await phone.until_view(lambda v: v["title"] == "Alice LOBBY")
            assert view["keys"][0] == {"slot": 0, "label": "TRK", "words": "Track", "off": False}
            while phone.join is None:  # what the seated phone shows the next player
                await phone.next()
            join = phone.join
            assert join["code"] == s.code and join["qr"].startswith("data:image/svg+xml")
            other = await Phone.open(session, s.url)
            assert (await other.until("hello"))["free"] == 1
            await other.send({"t": "join", "code": s.code, "name": "alice"})
            assert (await other.until("err"))["msg"] == \
                "alice is at the table already: another name, please"
            assert (await other.join_as(s.code, "Bea"))["seat"] == 2
            third = await Phone.open(session, s.url)
            assert (await third.until("hello"))["free"] == 0
            await third.send({"t": "join", "code": s.code, "name": "Cy"})
            assert (await third.until("err"))["msg"] == "no free seat: every seat is taken"

    with served(stations=3, seats=(0, 2)) as s:
        run(scenario(s))
        assert [st.name for st in s.table.stations] == ["Alice", "S2", "Bea"]


def test_the_first_phone_at_an_open_table_needs_no_code() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            first = await Phone.open(session, s.url)
            assert (await first.until("hello"))["code_needed"] is False
            await first.send({"t": "join", "code": "", "name": "Host"})
            assert (await first.until("seat"))["seat"] == 0
            second = await Phone.open(session, s.url)
            assert (await second.until("hello"))["code_needed"] is True
            await second.send({"t": "join", "code": "", "name": "Guest"})
            assert (await second.until("err"))["msg"] == "wrong code"

    with served(stations=2, open_table=True) as s:
        run(scenario(s))


def test_wrong_codes_lock_the_address_out() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await Phone.open(session, s.url)
            replies = []
            for _ in range(6):
                await phone.send({"t": "join", "code": _other(s.code), "name": "Eve"})
                replies.append((await phone.until("err"))["msg"])
            assert replies[4] == "wrong code; code entry locked for 60 s"
            assert replies[5].startswith("too many wrong codes, try again in")
            await phone.send({"t": "join", "code": s.code, "name": "Eve"})  # even the right one
            assert (await phone.until("err"))["msg"].startswith("too many wrong codes")

    with served(stations=2) as s:
        run(scenario(s))


# ---- back to the seat, and only with its token ---------------------------------------------

def test_a_reload_brings_the_phone_back_to_its_seat_and_the_table_waits() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await _seated(session, s, "Alice")
            await _in_race(phone)
            planning = await phone.until_view(lambda v: v["kind"] == "planning")
            token = phone.token
            await phone.close()  # the page reloads, the phone sleeps, the Wi-Fi drops
            assert s.table.state == flow.PLANNING  # bots planned; the table waits for her
            again = await Phone.open(session, s.url)
            await again.until("hello")
            await again.send({"t": "resume", "seat": 0, "token": token})
            assert (await again.until("seat"))["seat"] == 0
            view = await again.until_view(lambda v: v["kind"] == "planning")
            assert view == planning  # the screen redrawn as it was
            await play(again, until=lambda v: v["kind"] != "planning")

    with served(stations=2, seats=(0,), cars=3) as s:
        run(scenario(s))


def test_a_token_is_the_seat_and_another_device_with_it_takes_the_seat_over() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await _seated(session, s, "Alice")
            stranger = await Phone.open(session, s.url)
            await stranger.until("hello")
            for token in ("A" * 43, phone.token[:-1] + ("A" if phone.token[-1] != "A" else "B")):
                await stranger.send({"t": "resume", "seat": 0, "token": token})
                assert "no longer holds" in (await stranger.until("err"))["msg"]
            await stranger.send({"t": "resume", "seat": 1, "token": phone.token})
            assert "no longer holds" in (await stranger.until("err"))["msg"]
            await stranger.send({"t": "go"})
            assert (await stranger.until("err"))["msg"] == "take a seat first"
            assert not s.table.stations[0].joined
            # the same token on a second device (a tablet): the seat moves there
            tablet = await Phone.open(session, s.url)
            await tablet.until("hello")
            await tablet.send({"t": "resume", "seat": 0, "token": phone.token})
            await tablet.until("seat")
            assert (await phone.until("bye"))["why"] == "this seat was opened on another device"
            await phone.send({"t": "go"})
            assert (await phone.until("err"))["msg"] == "take a seat first"
            n = await tablet.send({"t": "go"})
            await tablet.answered(n)
            assert s.table.stations[0].joined

    with served(stations=2) as s:
        run(scenario(s))


def test_staff_free_a_seat_from_a_browser_and_the_next_phone_takes_it() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            lost = await _seated(session, s, "Alice")
            staff = await Phone.open(session, s.url)
            await staff.until("hello")
            await staff.send({"t": "free", "seat": 0})
            assert (await staff.until("err"))["msg"] == "staff only: the staff PIN first"
            await staff.send({"t": "pin", "pin": "1111" if PIN != "1111" else "2222"})
            assert (await staff.until("err"))["msg"] == "wrong PIN"
            await staff.send({"t": "pin", "pin": PIN})
            await staff.until("staff", unlocked=True)
            seats = await staff.until("seats")
            assert seats["seats"][0] == {"seat": 0, "holder": "Alice", "here": True,
                                         "playing": False}
            await staff.send({"t": "free", "seat": 0})
            await staff.until("freed")
            assert (await lost.until("bye"))["why"] == "staff freed this seat"
            new = await Phone.open(session, s.url)
            await new.until("hello")
            await new.send({"t": "resume", "seat": 0, "token": lost.token})
            assert "no longer holds" in (await new.until("err"))["msg"]
            assert (await new.join_as(s.code, "Alice", seat=0))["seat"] == 0

    with served(stations=2) as s:
        run(scenario(s))


def test_staff_free_a_seat_at_the_console_and_its_token_stops_working() -> None:
    async def scenario(s: Served, console: ConsoleProtocol) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await _seated(session, s, "Alice")
            await _in_race(phone)
            await phone.until_view(lambda v: v["kind"] == "planning")
            assert console.handle_line("seat 1 free")[0].startswith("ERR locked")
            console.handle_line(f"pin {PIN}")
            reply = await_thread(lambda: console.handle_line("seat 1 free"))
            assert reply[0] == f"OK S1 freed (Alice's phone is out); join code {s.code}"
            assert (await phone.until("bye"))["why"].startswith("this seat changed hands")
            again = await Phone.open(session, s.url)
            await again.until("hello")
            await again.send({"t": "resume", "seat": 0, "token": phone.token})
            assert "no longer holds" in (await again.until("err"))["msg"]
            await again.join_as(s.code, "Ann")  # her new phone, the car where it was
            await again.until_view(lambda v: v["kind"] == "planning")

    with served(stations=2, seats=(0,), cars=2) as s:
        run(scenario(s, ConsoleProtocol(s.table, staff_pin=PIN, link=QueueLink(s.table))))


def await_thread(fn: Any) -> Any:
    """Run a blocking call (a console command waiting for the game thread) on a thread."""
    box: queue.Queue[Any] = queue.Queue()
    threading.Thread(target=lambda: box.put(fn())).start()
    return box.get(timeout=20)


def test_the_races_settings_from_a_phone_need_the_staff_pin() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await _seated(session, s, "Alice")
            track = s.table.track
            await phone.send({"t": "tap", "slot": 0})  # TRK
            assert (await phone.until("err"))["msg"] == \
                "the race's settings need the staff PIN (Staff)"
            n = await phone.send({"t": "tap", "slot": 3})  # OPTS only turns the page
            await phone.answered(n)
            assert phone.view is not None and phone.view["title"] == "Alice GARAGE"
            await phone.send({"t": "tap", "slot": 0})  # TYPE
            assert (await phone.until("err"))["msg"].startswith("the race's settings")
            assert s.table.track == track and s.table.modules == {}
            await phone.send({"t": "pin", "pin": PIN})
            await phone.until("staff", unlocked=True)
            n = await phone.send({"t": "tap", "slot": 0})
            await phone.answered(n)
            assert s.table.modules.get("garage", {}).get("choose") == "random"
            await phone.send({"t": "lock"})
            await phone.until("staff", unlocked=False)
            await phone.send({"t": "tap", "slot": 0})
            assert (await phone.until("err"))["msg"].startswith("the race's settings")

    with served(stations=2) as s:
        run(scenario(s))


# ---- whole races ------------------------------------------------------------------------------

def test_a_phone_plays_a_whole_race_against_bots() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await _seated(session, s, "Alice")
            await _in_race(phone)
            await play(phone, until=lambda v: v["kind"] == "results")
            assert any("Alice" in line for line in phone.view["order"])  # type: ignore[index]
            n = await phone.send({"t": "go"})  # NEXT: back to the lobby
            await phone.answered(n)
            assert phone.view is not None and phone.view["kind"] == "lobby"

    with served(stations=2, seats=(0,), cars=3, brisk=True) as s:
        run(scenario(s))
        assert s.table.state == flow.LOBBY


def _hands(s: Served, station: int, done: threading.Event) -> None:
    """A player at a wired station: each press what a bot would choose, posted as the
    station's hardware posts it (the choice worked out on the game thread); with nothing to
    press, they watch the table until something changes."""
    changed = threading.Event()
    s.table.view_observers.append(lambda feed: changed.set())
    while not done.is_set():
        changed.clear()
        box: queue.Queue[StationEvent | None] = queue.Queue()
        s.table.post(Call(lambda: next_input(s.table, stations={station}), box.put))
        event = box.get(timeout=20)
        if event is not None:
            s.table.post(event)
        else:
            changed.wait(1.0)


def test_one_race_mixes_a_wired_station_a_phone_bots_and_a_legend() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await _seated(session, s, "Alice", seat=1)
            n = await phone.send({"t": "go"})
            await phone.answered(n)
            s.table.post(GoPressed(station=0))  # someone joins at the wired station
            await phone.until_view(lambda v: "2 players" in " ".join(v["lines"]))
            n = await phone.send({"t": "tap", "slot": 6})  # RACE
            await phone.answered(n)
            done = threading.Event()
            hands = threading.Thread(target=_hands, args=(s, 0, done), daemon=True)
            hands.start()
            try:
                await play(phone, until=lambda v: v["kind"] == "results", timeout=180)
            finally:
                done.set()
                hands.join(20)
            race = s.table.race
            assert race is not None and race.over
            assert set(race.setup.names) >= {"S1", "Alice", "Bot 1", "Black Legend"}

    with served(stations=2, seats=(1,), cars=3, modules={"legends": {"cars": 1}},
                brisk=True) as s:
        run(scenario(s))


def test_the_kiosk_offers_phone_seats() -> None:
    kiosk = KioskOptions(join_seconds=3, cars=2, laps=1, attract_step=0.05, modules={})

    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await Phone.open(session, s.url)
            assert (await phone.until("hello"))["kiosk"] is True
            await phone.join_as(s.code, "Visitor")
            await phone.until_view(lambda v: v["kind"] == "attract")
            n = await phone.send({"t": "go"})  # press GO to play
            await phone.answered(n)
            await phone.until_view(lambda v: v["kind"] == "lobby")
            view = await phone.until_view(lambda v: v["kind"] == "planning", timeout=30)
            assert view["title"] == "Visitor"

    with served(stations=2, seats=(1,), kiosk=kiosk) as s:
        run(scenario(s))


def test_frames_are_json_the_page_can_read() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await _seated(session, s, "Alice")
            await _in_race(phone)
            await phone.until_view(lambda v: v["kind"] == "planning")
            for frame in phone.frames:
                assert frame["t"] in ("hello", "seat", "view", "ack", "join")
                json.dumps(frame)

    with served(stations=2, seats=(0,)) as s:
        run(scenario(s))
