"""``pitboard tv`` (the track view on this machine's screen) and the profile's ``[tv]``: the
browser's command line, waiting for the table's web server, the autostart entry's
``--at-login`` doing nothing when the screen is off, and one-line errors."""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest

from phonekit import served
from pitboard.cli import main
from pitboard.hwconfig import ConfigError, load_profile, parse_config
from pitboard.tvscreen import FLAGS, tv_main, wait_for_page

HEAD = '[table]\nname = "T"\n{kiosk}[journal]\ndir = "j"\n[console]\nport = ""\n' \
    'staff_pin = "2468"\n' \
    '[[stations]]\ninput = {{ kind = "emulated" }}\n' \
    'display = {{ driver = "ssd1306", bus = "emulated" }}\n'


def _profile(tmp_path: Path, extra: str = "", *, kiosk: bool = False) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(HEAD.format(kiosk="kiosk = true\n" if kiosk else "") + extra)
    return path


def test_a_kiosk_shows_the_race_on_its_screen_by_default(tmp_path: Path) -> None:
    assert load_profile(str(_profile(tmp_path, kiosk=True))).tv.screen
    home = load_profile(str(_profile(tmp_path)))
    assert not home.tv.screen and not home.serves_web
    assert not load_profile(str(_profile(tmp_path, "[tv]\nscreen = false\n", kiosk=True))).tv.screen
    on = load_profile(str(_profile(tmp_path, "[tv]\nscreen = true\n")))
    assert on.tv.screen and on.serves_web and not on.web.enabled


@pytest.mark.parametrize(("section", "problem"), [
    ("[tv]\nscreen = 1\n", "t.toml: tv.screen: expected a boolean, got integer 1"),
    ("[tv]\nscren = true\n", 't.toml: tv.scren: unknown key (did you mean "screen"?)'),
    ("tv = 3\n", "t.toml: tv: expected a table, got integer 3"),
])
def test_a_wrong_tv_section_is_one_line(section: str, problem: str) -> None:
    text = section + HEAD.format(kiosk="")
    with pytest.raises(ConfigError) as err:
        parse_config(tomllib.loads(text), source=Path("t.toml"))
    assert err.value.problems == [problem]


def test_the_browser_opens_the_page_in_kiosk_mode(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    profile = _profile(tmp_path, '[tv]\nscreen = true\n[web]\nport = 8123\n')
    assert main(["tv", "--config", str(profile), "--browser", "true", "--pace", "2",
                 "--print"]) == 0
    words = capsys.readouterr().out.split()
    assert words[0].endswith("/true") and words[-1] == "http://localhost:8123/track?pace=2"
    assert set(FLAGS) <= set(words) and "--kiosk" in words


def test_it_waits_for_the_server_then_runs_the_browser_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    ran: list[Sequence[str]] = []

    def browser(command: Sequence[str]) -> int:
        ran.append(command)
        profile = next(w for w in command if w.startswith("--user-data-dir="))
        assert Path(profile.split("=", 1)[1]).parent == tmp_path  # memory, not the SD card
        return 0

    with served(stations=1, seats=()) as s:
        port = s.server.address[1]
        profile = _profile(tmp_path, f'[tv]\nscreen = true\n[web]\nport = {port}\n')
        assert tv_main(str(profile), browser="true", once=True, wait=10, run=browser) == 0
    assert ran and ran[0][-1] == f"http://localhost:{port}/track"
    assert not list(tmp_path.glob("pitboard-tv-*"))  # the throwaway profile is gone


def test_no_server_no_browser_and_no_web_are_one_line_each(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    def never(command: Sequence[str]) -> int:
        raise AssertionError("the browser must not start")

    caplog.set_level(logging.INFO, logger="pitboard.tv")
    profile = _profile(tmp_path, '[tv]\nscreen = true\n[web]\nport = 1\n')
    assert tv_main(str(profile), browser="true", once=True, wait=0.1, run=never) == 1
    assert "did not answer at http://localhost:1/track in 0.1 s" in caplog.text
    caplog.clear()
    assert tv_main(str(profile), browser="no-such-browser", run=never) == 1
    assert "no browser no-such-browser on PATH" in caplog.text
    caplog.clear()
    assert tv_main(str(_profile(tmp_path)), run=never) == 2
    assert "serves no web pages" in caplog.text
    caplog.clear()
    assert tv_main(str(_profile(tmp_path)), at_login=True, run=never) == 0  # screen off
    assert "[tv] screen is off" in caplog.text


def test_waiting_asks_again_until_the_page_answers() -> None:
    now = [0.0]
    answers = iter([False, False, True])
    assert wait_for_page("http://x/track", seconds=None, poll=2.0,
                         answers=lambda url: next(answers),
                         sleep=lambda s: now.__setitem__(0, now[0] + s), clock=lambda: now[0])
    assert now[0] == 4.0
    assert not wait_for_page("http://x/track", seconds=5.0, poll=2.0, answers=lambda url: False,
                             sleep=lambda s: now.__setitem__(0, now[0] + s),
                             clock=lambda: now[0])


def test_the_service_serves_the_track_view_for_its_screen_with_the_web_off(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[tv] screen and no [web]: `pitboard run` serves the track view on this machine (no
    phone seats), says where in its start-up line, and check-config says so too."""
    import urllib.request

    from phonekit import TIMEOUT, free_port
    from pitboard.app import App, startup_line
    from pitboard.hwconfig.cli import check_config_main

    port = free_port()
    profile = _profile(tmp_path, f'[tv]\nscreen = true\n[web]\nport = {port}\n')
    assert check_config_main(str(profile)) == 0
    assert f"TV: the race at http://localhost:{port}/track and on this machine's screen" in \
        capsys.readouterr().out
    app = App.build(load_profile(str(profile)), journal=tmp_path / "journal", phones=True)
    try:
        app.boot()
        app.start_web()
        assert app.web is not None and app.web.wait(TIMEOUT) and app.table.phones is None
        with urllib.request.urlopen(f"http://localhost:{port}/track", timeout=TIMEOUT) as page:
            assert page.status == 200 and b"track.js" in page.read()
        _, line = startup_line(app)
        assert f"track view at http://localhost:{port}/track (this machine's screen)" in line
    finally:
        app.close()
