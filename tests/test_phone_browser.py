"""The phone page in a real browser: headless Chromium (Debian's, driven by Playwright) takes a
seat with the join code, plays a whole race against a bot, a Legend car and a player at a
wired station -- the set-up checklist, the Garage draft, every round -- by tapping the page as
a player would, is reloaded in the middle of the race and carries on at its seat, and ends at
the results. A
screenshot of each kind of screen is taken on the way (``PITBOARD_UPDATE_GOLDEN=1`` writes
them into ``docs/screens`` as ``phone_<kind>.png``).

What to press comes from a bot's choice for the phone's car (``next_input``, worked out on the
game thread): the test's part is the browser's -- that each press is a tap on the page, that
the page sends it, and that what the page then shows is the table's screen.

Skipped, saying why, without Playwright or without the browser (``.ci/run`` installs Debian's
``chromium`` when it runs as root). ``PITBOARD_CHROMIUM`` names another Chromium binary.
"""

from __future__ import annotations

import os
import queue
import shutil
from pathlib import Path
from typing import Any

import pytest

from phonekit import Served, served
from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from pitboard.table.autoplay import next_input
from pitboard.table.table import Call, KioskOptions

CHROMIUM = os.environ.get("PITBOARD_CHROMIUM", "/usr/bin/chromium")
#: how the probe of this machine runs Chromium (no sandbox as root, no background networking
#: on a closed network, a fresh profile per launch)
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "screens"
WAIT_MS = 20_000

playwright = pytest.importorskip("playwright.sync_api",
                                 reason="Playwright is not installed (pip install -e '.[dev]')")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium "
                "(apt-get install chromium; .ci/run installs it when run as root)",
                allow_module_level=True)


class Browser:
    """A phone in Chromium: its page, and the screenshots taken of it."""

    def __init__(self, page: Any, out: Path) -> None:
        self.page = page
        self.out = out
        self.shots: dict[str, Path] = {}

    def shot(self, name: str) -> None:
        if name in self.shots:
            return
        path = self.out / f"phone_{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.shots[name] = path

    def js(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def wait(self, expression: str) -> None:
        # as a function: a bare expression would be eval()ed in the page, which its Content
        # Security Policy forbids (and should)
        self.page.wait_for_function(f"() => ({expression})", timeout=WAIT_MS)

    def tap(self, selector: str) -> None:
        """Tap ``selector`` and wait until the table has handled what it sent."""
        n = self.js("window.pitboard.n")
        self.page.click(selector, timeout=WAIT_MS)
        self.wait(f"window.pitboard.acked >= {n + 1}")

    def press(self, event: StationEvent) -> None:
        """The tap on the page that sends ``event`` (the tray button under a spot, the gear
        lever, GO)."""
        if isinstance(event, LeverMoved):
            self.tap(f"#lever [data-gear='{event.gear}']")
        elif isinstance(event, SlotPressed):
            view = self.js("window.pitboard.view")
            go_key = [k["slot"] for k in view["keys"] if k["label"] == "GO"]
            if go_key == [event.slot]:
                self.tap("#go")  # the GO soft key is the page's GO button
            else:
                self.tap(f"#hand [data-slot='{event.slot}'], #keys [data-slot='{event.slot}']")
        elif isinstance(event, GoPressed):
            self.tap("#go")


def _on_game_thread(s: Served, fn: Any) -> Any:
    box: queue.Queue[Any] = queue.Queue()
    s.table.post(Call(fn, box.put))
    return box.get(timeout=WAIT_MS / 1000)


@pytest.fixture
def chromium() -> Any:
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _phone(chromium: Any, s: Served, out: Path, path: str = "/") -> Browser:
    context = chromium.new_context(viewport={"width": 360, "height": 740},
                                   device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(s.url + path)
    phone = Browser(page, out)
    phone.errors = errors  # type: ignore[attr-defined]
    return phone


def _publish(shots: dict[str, Path]) -> None:
    if os.environ.get("PITBOARD_UPDATE_GOLDEN"):
        DOCS.mkdir(parents=True, exist_ok=True)
        for path in shots.values():
            shutil.copyfile(path, DOCS / path.name)


def test_a_phone_plays_a_whole_race_in_the_browser_with_a_reload(
        chromium: Any, tmp_path: Path) -> None:
    modules = {"legends": {"cars": 1}, "garage": {"choose": "draft", "pool": "basic"}}
    # a player at a wired station (S2) too: the phone waits for them, locked in or watching
    with served(stations=3, seats=(0,), cars=3, modules=modules, seed=5) as s:
        s.table.post(GoPressed(station=1))
        phone = _phone(chromium, s, tmp_path, f"/J/{s.code}")  # as the lobby's QR code opens
        page = phone.page
        page.wait_for_selector("#join:not([hidden])")
        assert page.input_value("#code") == s.code and page.url.endswith("/")
        page.fill("#name", "Alice")
        phone.shot("join")
        page.click("#join-button")
        phone.wait("window.pitboard.view && window.pitboard.view.title === 'Alice LOBBY'")
        phone.wait("window.pitboard.join !== null")
        phone.tap("#go")  # join the race
        phone.wait("/JOINED/.test(window.pitboard.view.lines.join(' '))")
        phone.shot("lobby")
        phone.tap("#keys [data-label='OPTS']")
        phone.shot("lobby_options")
        page.click("#menu-button")
        page.wait_for_selector("#menu:not([hidden]) .invite img")
        phone.shot("menu")
        page.click("#close-menu")
        phone.tap("#keys [data-label='RACE']")
        reloaded = False
        while True:
            phone.wait("window.pitboard.view !== null")
            kind = phone.js("window.pitboard.view.kind")
            phone.shot(kind)
            if kind == "results":
                break
            event = _on_game_thread(s, lambda: next_input(s.table, stations={0}))
            if event is None:  # the wired station's move (the bots' take no time)
                wired = _on_game_thread(s, lambda: next_input(s.table, stations={1}))
                if wired is not None:
                    s.table.post(wired)
                    _on_game_thread(s, lambda: None)  # handled (the queue keeps order)
                else:  # nobody's: the next frame shows what changed
                    frames = phone.js("window.pitboard.frames")
                    phone.wait(f"window.pitboard.frames > {frames}")
                continue
            race = s.table.race
            if not reloaded and race is not None and race.round >= 3 and kind == "planning":
                reloaded = True  # mid-race: the page reloads and comes back to its seat
                page.reload()
                phone.wait("window.pitboard.seat === 0 && window.pitboard.view !== null")
                assert phone.js("window.pitboard.view.kind") == "planning"
                continue
            phone.press(event)
        assert reloaded
        order = phone.js("window.pitboard.view.order")
        assert any("Alice" in line for line in order) and len(order) == 4  # + S2, Bot, Legend
        race = s.table.race
        assert race is not None and race.over and "Alice" in race.setup.names
        assert {"join", "lobby", "lobby_options", "menu", "setup", "draft", "planning",
                "locked", "resolution", "waiting", "results"} <= set(phone.shots)
        assert phone.errors == []  # type: ignore[attr-defined]
        _publish(phone.shots)


def test_the_kiosk_offers_a_phone_seat_in_the_attract_loop(chromium: Any,
                                                            tmp_path: Path) -> None:
    kiosk = KioskOptions(join_seconds=30, cars=2, laps=1, attract_step=0.2, modules={})
    with served(stations=2, seats=(1,), kiosk=kiosk) as s:
        phone = _phone(chromium, s, tmp_path)
        page = phone.page
        page.wait_for_selector("#join:not([hidden])")
        page.fill("#code", s.code)
        page.fill("#name", "Visitor")
        page.click("#join-button")
        phone.wait("window.pitboard.view && window.pitboard.view.kind === 'attract'")
        phone.wait("window.pitboard.join !== null")
        assert page.inner_text("#go") == "Play"
        phone.shot("attract")
        phone.tap("#go")
        phone.wait("window.pitboard.view.kind === 'lobby'")
        assert s.table.stations[1].joined
        assert phone.errors == []  # type: ignore[attr-defined]
        _publish(phone.shots)
