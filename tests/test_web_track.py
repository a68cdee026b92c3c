"""The TV's track view over real WebSockets to the real server beside a running table: a TV
follows a whole race with Legends and weather event by event (every public event once, in
order, and the cars where the race has them), a plan stays secret until the reveal,
reconnects and undos redraw, and the socket is read-only and bounded (origin, connections per
address, messages). The page in a real browser: test_tv_browser.py."""

from __future__ import annotations

import asyncio
import json
from importlib import resources
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from phonekit import Served, run, served
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.feed import TableFeed
from pitboard.table.track_view import TrackViews
from pitboard.table.views import TableScene
from pitboard.web.limits import MAX_TRACK_REFUSED, MAX_TRACK_SOCKETS_PER_ADDRESS
from pitboard.web.track import MAX_STEP_EVENTS, TrackHub, Viewer
from tvkit import Tv, on_game_thread, public_kinds, race_places

MODULES = {"legends": {"cars": 1}, "weather": {"weather": "rain", "road": True},
           "garage": {"choose": "draft", "pool": "basic"}}


def _start(s: Served) -> None:
    """S1 and S2 join and S1 starts the race (the set-up checklist of a module race next)."""
    for event in (GoPressed(station=0), GoPressed(station=1), SlotPressed(station=0, slot=6)):
        s.table.post(event)
    on_game_thread(s, lambda: None)


async def _settled(tv: Tv, s: Served) -> dict[str, Any]:
    """Frames until the TV has what the table last published; the race as the table has it."""
    places = await asyncio.to_thread(race_places, s)
    await tv.until(lambda t: t.race == places.get("race", t.race)
                   and t.cursor == places["count"])
    return places


def test_a_tv_follows_a_whole_race_event_by_event() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            tv = await Tv.open(session, s.url)
            state = await tv.until(lambda t: t.drawing is not None)
            assert state["screen"] == "lobby" and state["cars"] == []
            assert tv.drawing is not None and tv.drawing["track"] == "usa"
            assert tv.drawing["svg"].startswith("<svg") and "<style>" not in tv.drawing["svg"]
            await asyncio.to_thread(_start, s)
            rounds_seen = set()
            panels: dict[str, dict[str, Any]] = {}
            while True:
                event = await asyncio.to_thread(on_game_thread, s, lambda: next_input(s.table))
                if event is None:
                    break
                s.table.post(event)
                places = await _settled(tv, s)
                assert tv.state is not None
                cars = {c["id"]: (c["on_track"], c["space"], c["spot"])
                        for c in tv.state["cars"]}
                assert cars == places["cars"]  # every car where the race has it
                rounds_seen.add(tv.state["round"])
                panels.setdefault(tv.state["panel"]["kind"], tv.state["panel"])
            places = await _settled(tv, s)
            assert tv.state is not None and tv.state["screen"] == "results"
            assert s.table.state == flow.RESULTS and len(rounds_seen) > 3
            # every public event of the race, once each, in order (one race: one full frame)
            assert tv.fulls == 2  # the lobby's first frame, then the race's
            assert [tv.events[i]["type"] for i in sorted(tv.events)] == \
                public_kinds(places["kinds"])[-len(tv.events):]
            kinds = {e["type"] for e in tv.events.values()}
            assert {"legend", "move", "corner", "weather", "round", "hall_of_fame",
                    "race_over"} <= kinds
            assert [c["name"] for c in tv.state["cars"] if c["legend"]] == ["Black Legend"]
            # the Garage draft: the market on the table and each car's picks, all public
            assert {"setup", "draft", "order", "results"} <= set(panels)
            draft = panels["draft"]
            assert draft["round"] == 1 and draft["market"] and draft["market"][0]["label"]
            assert {"draft_market", "draft_pick"} <= kinds
            assert tv.state["weather"]["name"] == "Rain" and tv.state["road"]
            await tv.close()

    with served(stations=2, seats=(), cars=3, modules=MODULES, seed=3) as s:
        run(scenario(s))


def test_a_plan_is_secret_until_the_reveal() -> None:
    """S1 plans gear 2 while S2 still plans: the TV shows S1's old gear and no shift."""
    with served(stations=2, seats=(), cars=2, seed=4) as s:
        _start(s)
        for event in (LeverMoved(station=0, gear=2), SlotPressed(station=0, slot=0),
                      SlotPressed(station=0, slot=1), GoPressed(station=0)):
            s.table.post(event)

        def seen() -> tuple[Any, ...]:
            s.table.refresh()
            feed = s.table._feed
            assert feed is not None and feed.track is not None and s.table.race is not None
            return (s.table.race.cars[0].gear, s.table.race.cars[0].planned,
                    [e.kind for e in feed.track.events][-1], feed.track.cars[0].gear,
                    feed.track.deciding)
        gear, planned, last, shown, deciding = on_game_thread(s, seen)
        assert (gear, planned) == (2, True)  # the race has the plan...
        assert last == "round" and shown == 1  # ...the TV does not, yet
        assert deciding == "planning: S2"


def test_a_reconnect_and_an_undo_redraw_from_the_state() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            await asyncio.to_thread(_start, s)
            for _ in range(40):  # into the race
                event = await asyncio.to_thread(on_game_thread, s, lambda: next_input(s.table))
                s.table.post(event)
            tv = await Tv.open(session, s.url)
            await _settled(tv, s)
            first = tv.frames[0]
            assert first["full"] and "drawing" in first and first["build"]
            assert len(first["events"]) <= 8  # the ticker's tail, nothing to animate
            race = tv.race
            await tv.close()

            again = await Tv.open(session, s.url)  # a reload, a power cut: all of it again
            await _settled(again, s)
            assert again.frames[0]["full"] and "drawing" in again.frames[0]
            assert again.race == race

            await asyncio.to_thread(on_game_thread, s, s.table.undo)
            await _settled(again, s)
            assert again.race != race and again.frames[-1]["full"]
            assert "drawing" not in again.frames[-1]  # the same track: drawn already
            await again.close()

    with served(stations=2, seats=(), cars=2, seed=6) as s:
        run(scenario(s))


def test_the_track_view_is_read_only_and_bounded() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await session.ws_connect(f"{s.url}/track/ws", origin="http://evil.example")
            assert err.value.status == 403
            tv = await Tv.open(session, s.url)
            await tv.next()
            for _ in range(MAX_TRACK_REFUSED):
                await tv.ws.send_str('{"t": "go"}')
                assert json.loads((await tv.ws.receive()).data)["msg"] == \
                    "the track view is read-only"
            await tv.ws.send_str("{}")
            closing = await tv.ws.receive()
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 1008

            big = await Tv.open(session, s.url)
            await big.ws.send_str("x" * 200)  # far over what a TV may send: closed
            message = await big.ws.receive()
            while message.type == aiohttp.WSMsgType.TEXT:  # its first frame came before
                message = await big.ws.receive()
            assert message.type == aiohttp.WSMsgType.CLOSE and message.data == 1009

            tvs = [await Tv.open(session, s.url) for _ in range(MAX_TRACK_SOCKETS_PER_ADDRESS)]
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await Tv.open(session, s.url)
            assert err.value.status == 503
            for tv in tvs:
                await tv.close()

    with served(stations=1, seats=()) as s:
        run(scenario(s))


def test_a_tv_far_behind_redraws_and_every_tv_shares_one_state() -> None:
    """Frames are made from the latest view: a TV more than MAX_STEP_EVENTS events behind is
    sent the state (full), and twenty TVs get the very same state text."""
    from pitboard.bots import HeuristicBot
    from pitboard.engine import Race, RaceSetup

    race = Race(RaceSetup(track="usa", cars=6, seed=2, laps=3))
    views = TrackViews()
    hub = TrackHub(build="b")

    def publish() -> None:
        view = views.build(TableScene(state="resolution", stations=[], lobby=("usa", 1, 4),
                                      race=race))
        hub.apply(TableFeed("resolution", (), track=view))

    publish()
    slow = Viewer(address="10.0.0.9")
    assert json.loads(hub.frame(slow) or "")["full"]
    bot = HeuristicBot(seed=1)
    while hub.view is not None and hub.view.event_count <= MAX_STEP_EVENTS + slow.cursor:
        race.apply(bot.choose(race, race.waiting_for()))
        publish()
    frame = json.loads(hub.frame(slow) or "")
    assert frame["full"] and len(frame["events"]) <= 8 and frame["cursor"] == slow.cursor
    many = [Viewer(address=f"10.0.1.{i}") for i in range(20)]
    states = {json.dumps(json.loads(hub.frame(v) or "")["state"]) for v in many}
    assert len(states) == 1


def _home_track(tmp_path: Path, *, name: str = "Home Ring") -> Path:
    """Italy as a hand-made track file without drawing coordinates ([spots])."""
    text = (resources.files("pitboard") / "tracks" / "italy.toml").read_text(encoding="utf-8")
    path = tmp_path / "home.toml"
    path.write_text(text.split("\n[spots]\n")[0].replace('name = "Italy"', f'name = "{name}"'))
    return path


def test_a_track_without_coordinates_shows_on_a_generated_outline(tmp_path: Path) -> None:
    """A track file without [spots]: the TV gets the generated outline (every space, both
    spots), and the cars where the race has them."""
    path = _home_track(tmp_path)

    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            tv = await Tv.open(session, s.url)
            await tv.until(lambda t: t.drawing is not None)
            assert tv.drawing is not None
            geometry = tv.drawing["geometry"]
            assert geometry["generated"] is True and tv.drawing["name"] == "Home Ring"
            assert len(geometry["spots"]) == 2 * geometry["spaces"] == 108
            assert "generated outline" in tv.drawing["svg"]
            await asyncio.to_thread(_start, s)
            for _ in range(12):
                event = await asyncio.to_thread(on_game_thread, s, lambda: next_input(s.table))
                s.table.post(event)
                places = await _settled(tv, s)
                assert tv.state is not None
                assert {c["id"]: (c["on_track"], c["space"], c["spot"])
                        for c in tv.state["cars"]} == places["cars"]
            assert tv.state is not None and tv.state["track"] == str(path)
            await tv.close()

    with served(stations=2, seats=(), cars=2, seed=5, track=str(path)) as s:
        run(scenario(s))


def test_a_track_file_edited_between_races_is_drawn_anew(tmp_path: Path) -> None:
    """The drawing goes to a TV once per drawing: the same track again (a new race loads its
    file anew) is not sent again; the file edited since is."""
    from pitboard.engine import Race, RaceSetup

    path = _home_track(tmp_path)
    hub = TrackHub(build="b")
    viewer = Viewer(address="10.0.0.8")

    def race_frame() -> dict[str, Any]:
        race = Race(RaceSetup(track=str(path), cars=2, seed=1, laps=1))
        view = TrackViews().build(TableScene(state="planning", stations=[],
                                             lobby=(str(path), 1, 2), race=race))
        hub.apply(TableFeed("planning", (), track=view))
        return json.loads(hub.frame(viewer) or "")

    assert race_frame()["drawing"]["name"] == "Home Ring"
    assert "drawing" not in race_frame()  # the same file, a new race: drawn already
    _home_track(tmp_path, name="Home Ring II")
    assert race_frame()["drawing"]["name"] == "Home Ring II"


def test_a_move_goes_to_the_tvs_before_the_stations_screens() -> None:
    """The table hands its observers a move first, in a feed of its own (the stations' views
    as they were), then the stations' new screens; and a move while a TV watches is one the
    server's observer waits for, until every TV has been sent it."""
    from pitboard.table.table import Table

    table = Table(stations=2, seed=8, laps=1)
    feeds: list[TableFeed] = []
    table.view_observers.append(feeds.append)
    table.refresh()
    for event in (GoPressed(station=0), GoPressed(station=1), SlotPressed(station=0, slot=6)):
        table.handle(event)
    while table.race is None or not any(e.kind == "move" for e in table.race.events):
        event = next_input(table)
        assert event is not None
        table.handle(event)
    first = next(i for i, f in enumerate(feeds)
                 if f.track is not None and "move" in [e.kind for e in f.track.events])
    assert feeds[first].views == feeds[first - 1].views  # the TVs first...
    assert feeds[first + 1].track is feeds[first].track  # ...then the stations' screens
    assert feeds[first + 1].views != feeds[first].views

    hub = TrackHub(build="b")
    before = feeds[first - 1]
    assert not hub.expects(before) and hub.flushed.is_set()  # no TV watching
    hub.apply(before)
    viewer = Viewer(address="10.0.0.5")
    hub.viewers.add(viewer)
    hub.frame(viewer)
    assert hub.expects(feeds[first]) and not hub.flushed.is_set()  # a move, a TV watching
    hub.apply(feeds[first])
    assert not hub.flushed.is_set()
    assert hub.frame(viewer) is not None
    hub.note_sent()
    assert hub.flushed.is_set()
    assert not hub.expects(feeds[first + 1])  # the same move again: nothing to wait for


def test_a_championship_shows_its_standings_between_races() -> None:
    """A season's race says which race of the season it is; its results show the standings
    (as the stations' standings screen), and the next race."""
    from pitboard.engine.championship.season import Season
    from pitboard.table.table import Table
    from pitboard.table.track_json import track_state_dict

    table = Table(stations=2, seed=3, cars=3)
    feeds: list[TableFeed] = []
    table.view_observers.append(feeds.append)
    table.set_championship("1961")
    for event in (GoPressed(station=0), GoPressed(station=1), SlotPressed(station=0, slot=6)):
        table.handle(event)
    while table.state != flow.RESULTS:
        event = next_input(table)
        assert event is not None
        table.handle(event)
    view = feeds[-1].track
    season = table.season
    assert view is not None and isinstance(season, Season) and view.season is not None
    assert view.season.title == "1961 RACE 1/3" and view.season.next == "race 2: USA"
    state = track_state_dict(view)
    panel = state["panel"]
    assert panel["kind"] == "standings" and state["season"] == {"title": "1961 RACE 1/3"}
    assert [row["car"] for row in panel["rows"]] == season.standings()
    assert [row["points"] for row in panel["rows"]] == \
        [season.totals()[car] for car in season.standings()]
    race = view.race
    table.handle(GoPressed(station=0))  # on to race 2
    view = feeds[-1].track
    assert view is not None and view.race != race and view.season is not None
    assert view.season.title == "1961 RACE 2/3" and view.season.standings == ()
    assert track_state_dict(view)["panel"]["kind"] != "standings"
