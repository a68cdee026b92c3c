"""The TV's track view in a real browser: headless Chromium (Debian's, driven by Playwright)
follows a whole race with a Legend car, weather and road tokens and a Garage draft move by
move, and after every move checks each car the page draws against the race -- its spot, and
where the page actually drew it (the element's transform against the track's geometry) --
taking screenshots of the screens the docs show; a track file without drawing coordinates
races on its generated outline; the kiosk's attract race plays on it; and a page whose
server went away (a power cut, a restart) reconnects and redraws.
``PITBOARD_UPDATE_GOLDEN=1`` writes those screenshots into ``docs/screens`` (``tv_*.png``).

The animations run at ``?pace=0.02`` (50 times as fast): the same code path, a few seconds per
race. The players' presses come from a bot's choices (``next_input``) at wired stations.
Skipped, saying why, without Playwright or without the browser (browserkit.py).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from browserkit import ARGS, CHROMIUM, WAIT_MS, playwright_or_skip, publish
from phonekit import Served, served
from pitboard.geometry import track_geometry
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.table.autoplay import next_input
from pitboard.table.table import KioskOptions
from pitboard.trackfile import load_track
from pitboard.web.server import WebServer
from tvkit import on_game_thread, race_places

playwright = playwright_or_skip()

PACE = 0.02
TV = {"width": 1920, "height": 1080}
MODULES = {"legends": {"cars": 1}, "weather": {"weather": "storm", "road": True},
           "garage": {"choose": "draft", "pool": "basic"}}
#: the round of the whole race (ten rounds) the docs show as "modules" (the middle of it)
MODULES_ROUND = 5
_TRANSFORM = re.compile(r"translate\(([-\d.]+) ([-\d.]+)\)")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One browser for the module's tests (each test its own page)."""
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


class TvPage:
    """The track view in a browser tab: its page, what it drew, the screenshots taken."""

    def __init__(self, chromium: Any, url: str, out: Path) -> None:
        self.page = chromium.new_page(viewport=TV)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda msg: self.errors.append(msg.text)
                     if msg.type == "error" else None)
        self.page.goto(f"{url}/track?pace={PACE}")
        self.out = out
        self.shots: dict[str, Path] = {}

    def wait(self, expression: str) -> None:
        self.page.wait_for_function(f"() => window.tv && ({expression})", timeout=WAIT_MS)

    def caught_up(self, places: dict[str, Any]) -> None:
        """Wait until the page has drawn everything of ``places`` (animations done)."""
        self.wait(f"tv.idle && tv.race === {places['race']!r} && "
                  f"tv.applied === {places['count']}")

    def js(self, expression: str) -> Any:
        return self.page.evaluate(f"() => ({expression})")

    def drawn_cars(self) -> dict[int, dict[str, Any]]:
        cars = self.js("[...document.querySelectorAll('#cars .car')].map(e => ({id: "
                       "+e.dataset.car, space: +e.dataset.space, spot: +e.dataset.spot, "
                       "on: e.dataset.onTrack === 'true', shown: e.getBoundingClientRect()"
                       ".width > 0, transform: e.getAttribute('transform')}))")
        return {c["id"]: c for c in cars}

    def shot(self, name: str) -> None:
        if name not in self.shots:
            path = self.out / f"tv_{name}.png"
            self.page.screenshot(path=str(path))
            self.shots[name] = path


def check_cars(tv: TvPage, places: dict[str, Any], track: str) -> None:
    """Every car the race has is drawn where the race has it: on its spot (the page's data)
    and at that spot's centre in the track's geometry (the transform it is drawn with); a car
    that left the track is not drawn."""
    geo = track_geometry(load_track(track))
    drawn = tv.drawn_cars()
    assert sorted(drawn) == sorted(places["cars"])
    for car, (on_track, space, spot) in places["cars"].items():
        mark = drawn[car]
        assert (mark["on"], mark["shown"]) == (on_track, on_track), (car, mark)
        if not on_track:
            continue
        assert (mark["space"], mark["spot"]) == (space, spot), (car, mark, places)
        found = _TRANSFORM.match(mark["transform"])
        assert found is not None, mark
        centre = geo.spot_centre(space, spot)
        assert abs(float(found.group(1)) - centre.x) < 0.1 and \
            abs(float(found.group(2)) - centre.y) < 0.1, (car, mark, centre)


def _start(s: Served, stations: int) -> None:
    for station in range(stations):
        s.table.post(GoPressed(station=station))
    s.table.post(SlotPressed(station=0, slot=6))  # RACE
    on_game_thread(s, lambda: None)


def _play(s: Served, tv: TvPage, track: str, *, until_round: int | None = None,
          shots: Collection[int] = ()) -> set[int]:
    """Press for the players until the race ends (or reaches ``until_round``), checking the
    page after every press that gave it something new: the rounds seen (a screenshot of each
    of ``shots``: a full-HD screenshot costs the browser some 0.15 s)."""
    rounds: set[int] = set()
    seen = ("", -1)
    while True:
        places = race_places(s)
        if (places["race"], places["count"]) != seen:
            seen = (places["race"], places["count"])
            tv.caught_up(places)
            check_cars(tv, places, track)
            if places["screen"] == "race" and places["round"] not in rounds:
                rounds.add(places["round"])
                if places["round"] in shots:
                    tv.shot(f"round_{places['round']}")
            if places["legend_moves"]:
                tv.shot("legend_move")
            if places["screen"] in ("setup", "draft"):
                tv.shot(places["screen"])
        if until_round is not None and places["round"] >= until_round:
            return rounds
        event = on_game_thread(s, lambda: next_input(s.table))
        if event is None:
            return rounds
        s.table.post(event)


def test_the_tv_follows_a_whole_race_with_legends_and_weather(chromium: Any,
                                                               tmp_path: Path) -> None:
    with served(stations=2, seats=(), cars=2, modules=MODULES, seed=7) as s:
        tv = TvPage(chromium, s.url, tmp_path)
        tv.wait("tv.idle && tv.geo && tv.state.screen === 'lobby'")
        assert tv.js("document.querySelector('#panel .lobby') !== null")
        tv.shot("lobby")
        _start(s, 2)
        rounds = _play(s, tv, "usa", shots=(1, MODULES_ROUND))
        assert s.table.race is not None and s.table.race.over
        tv.shot("results")
        assert len(rounds) == s.table.race.round and rounds == set(range(1, len(rounds) + 1))
        assert {"draft", "setup", "legend_move", "round_1", f"round_{MODULES_ROUND}"} <= \
            set(tv.shots)
        assert tv.js("document.querySelectorAll('#tokens .token').length") == 4  # USA: 4
        assert tv.js("document.getElementById('banner').textContent").endswith("wins!")
        assert tv.js("tv.stats.length") > 10  # the moves were animated
        assert tv.errors == []
        shots = tv.shots
        shots["modules"] = shots[f"round_{MODULES_ROUND}"].rename(
            tmp_path / "tv_modules.png")
        publish(shots[name] for name in ("lobby", "draft", "setup", "modules", "legend_move",
                                         "results"))


def test_the_kiosks_attract_race_plays_on_the_tv(chromium: Any, tmp_path: Path) -> None:
    kiosk = KioskOptions(attract_step=0.1, cars=2, laps=1, join_seconds=30,
                         modules={"legends": {"cars": 2}, "weather": {"weather": "random",
                                                                       "road": True}})
    with served(stations=2, seats=(1,), kiosk=kiosk, seed=2) as s:
        tv = TvPage(chromium, s.url, tmp_path)
        tv.wait("tv.state && tv.state.screen === 'attract' && tv.stats.length >= 4")
        assert tv.js("document.querySelectorAll('#cars .car').length") == 6
        assert tv.js("document.getElementById('banner').textContent").startswith("Demo race")
        assert tv.js("document.querySelector('#panel .lobby .code').textContent") == s.code
        tv.shot("attract")
        s.table.post(GoPressed(station=0))  # a visitor: the lobby, on the TV too
        tv.wait("tv.state.screen === 'lobby'")
        assert tv.errors == []
        publish([tv.shots["attract"]])


def test_a_tv_whose_server_went_away_reconnects_and_redraws(chromium: Any,
                                                            tmp_path: Path) -> None:
    """A base race; the web server stops (a restart, a power cut) and comes back on the same
    port: the page reconnects by itself and redraws the race as it stands."""
    with served(stations=3, seats=(), cars=3, seed=11, track="italy") as s:
        tv = TvPage(chromium, s.url, tmp_path)
        _start(s, 3)
        _play(s, tv, "italy", until_round=3)
        tv.shot("base")
        fulls = tv.js("tv.fulls")
        host, port = s.server.address
        s.table.view_observers.remove(s.server.publish)
        s.server.stop()
        tv.wait("document.body.dataset.online === 'no'")
        for _ in range(3):  # rounds go on while it is away
            s.table.post(on_game_thread(s, lambda: next_input(s.table)))
        tv.wait("tv.retry >= 2")  # its retries find nobody (its back-off: 0.5 s, 1 s...)
        s.server = WebServer(post=s.table.post, staff_pin="2468", bind=host, port=port)
        s.server.start()
        s.table.view_observers.append(s.server.publish)
        on_game_thread(s, s.table.refresh)
        tv.wait(f"tv.fulls > {fulls}")  # reconnected: one full redraw
        places = race_places(s)
        tv.caught_up(places)
        assert tv.js("tv.fulls") == fulls + 1 and tv.js("document.body.dataset.online") == "yes"
        check_cars(tv, places, "italy")
        _play(s, tv, "italy", until_round=places["round"] + 1)
        assert [e for e in tv.errors if "WebSocket" not in e] == []  # (the refused retries)
        publish([tv.shots["base"]])


def test_a_track_without_coordinates_races_on_a_generated_outline(chromium: Any,
                                                                  tmp_path: Path) -> None:
    """A hand-made track file without [spots]: the page draws the generated outline and every
    car where the race has it, move by move."""
    text = (resources.files("pitboard") / "tracks" / "japan.toml").read_text(encoding="utf-8")
    path = tmp_path / "home.toml"
    path.write_text(text.split("\n[spots]\n")[0].replace('name = "Japan"', 'name = "Home Ring"'))
    with served(stations=2, seats=(), cars=2, seed=3, track=str(path)) as s:
        tv = TvPage(chromium, s.url, tmp_path)
        tv.wait("tv.idle && tv.geo && tv.geo.generated")
        _start(s, 2)
        _play(s, tv, str(path), until_round=3)
        assert tv.js("document.getElementById('track-name').textContent") == "Home Ring"
        tv.shot("generated")
        assert tv.errors == []
        publish([tv.shots["generated"]])


def test_a_championship_race_ends_on_the_seasons_standings(chromium: Any,
                                                           tmp_path: Path) -> None:
    """The first race of a 1961 season on the TV: its header says which race of the season,
    its results the standings, points and all, and the next race."""
    with served(stations=2, seats=(), cars=2, seed=4) as s:
        on_game_thread(s, lambda: s.table.set_championship("1961"))
        tv = TvPage(chromium, s.url, tmp_path)
        _start(s, 2)
        tv.wait("tv.state && tv.state.screen === 'setup'")
        assert tv.js("document.getElementById('round').textContent").startswith("1961 race 1/3")
        while (event := on_game_thread(s, lambda: next_input(s.table))) is not None and \
                race_places(s)["screen"] != "results":
            s.table.post(event)
        places = race_places(s)
        tv.caught_up(places)
        check_cars(tv, places, "great_britain")
        rows = tv.js("[...document.querySelectorAll('#panel table.standings tr')]"
                     ".map(r => [+r.dataset.car, r.querySelector('.at').textContent])")
        season = s.table.season
        assert season is not None
        assert rows == [[car, f"{season.totals()[car]} pts +{season.totals()[car]}"]
                        for car in season.standings()]
        assert tv.js("document.querySelector('#panel .next').textContent") == \
            "Next: race 2: USA"
        assert tv.js("document.getElementById('banner').textContent").endswith("wins!")
        tv.shot("standings")
        assert tv.errors == []
        publish([tv.shots["standings"]])
