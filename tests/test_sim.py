"""The desktop simulation: keys in, real frames out, whole autoplayed races, saved frames.

Everything is deterministic: races are seeded, the terminal is a pty whose keys are written
before the loop starts (and end with ``q``), autoplay runs with ``--delay 0``.
"""

from __future__ import annotations

import io
import os
import re
import termios
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from PIL import Image, ImageSequence

from pitboard import sim as simmod
from pitboard.sim import Sim, TerminalScreen, main, pick_layout, run_terminal
from pitboard.table import flow
from pitboard.table.keys import AutoPilot, Keyboard, decode
from pitboard.table.terminal import CURSOR_HOME, SHOW_CURSOR, image_to_blocks
from simkit import open_sim

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Pty:
    """A pseudo-terminal: the sim reads ``slave``; the test types into ``master``."""

    def __init__(self, *, signals: bool = True) -> None:
        self.master, fd = os.openpty()
        # keys typed before the sim switches modes must not wait in a canonical line buffer;
        # everything else (echo, signals, CR->NL, flow control) stays like a fresh terminal
        attrs = termios.tcgetattr(fd)
        attrs[3] &= ~termios.ICANON
        if not signals:  # Ctrl-C typed ahead stays a character (as in the sim's own mode)
            attrs[3] &= ~termios.ISIG
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
        self.slave: IO[str] = os.fdopen(fd, "r")

    @property
    def fd(self) -> int:
        return self.slave.fileno()

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        self.slave.close()
        os.close(self.master)


@pytest.fixture
def pty() -> Iterator[Pty]:
    p = Pty()
    yield p
    p.close()


def frames_drawn(output: str) -> list[str]:
    """Every picture written to the terminal, escape sequences removed."""
    return [ANSI.sub("", chunk) for chunk in output.split(CURSOR_HOME)[1:]]


def boxed(sim: Sim, station: int, scale: int) -> str:
    """The station's current OLED image as the terminal shows it inside its box."""
    image = sim.displays[station].image
    assert image is not None
    return "\n".join(f"│{row}│" for row in image_to_blocks(image, scale=scale))


def final_line(output: str) -> str:
    return ANSI.sub("", output).rstrip("\n").rsplit("\n", 1)[-1]


# ------------------------------------------------------------------------------ autoplay
def test_autoplay_in_text_mode_plays_a_whole_race_and_prints_the_final_order() -> None:
    out = io.StringIO()
    assert main(["--autoplay", "--text", "--seed", "3"], stdin=io.StringIO(), stdout=out) == 0
    text = out.getvalue()
    last = final_line(text)
    assert last.startswith("Race over after ") and "Final order: 1. " in last
    names = re.findall(r"\d\. ([^,]+)", last.split("Final order: ")[1])
    assert sorted(names) == ["Bot 1", "Bot 2", "S1", "S2"]
    # the log shows keys, narration and screen changes, and the lobby and results pictures
    assert "S1 keys: Space" in text and "=== Round 1" in text
    assert "[screen] S1 locked in: " in text
    assert "┌ S1 · lobby" in text and "┌ S1 · results" in text
    again = io.StringIO()
    main(["--autoplay", "--text", "--seed", "3"], stdin=io.StringIO(), stdout=again)
    assert again.getvalue() == text  # same seed, same race, same log


def test_without_a_tty_the_sim_falls_back_to_plain_text() -> None:
    out = io.StringIO()
    assert main(["--autoplay", "--seed", "1", "--laps", "1", "--stations", "1"],
                stdin=io.StringIO(), stdout=out) == 0  # StringIO is no terminal
    assert "plain text mode" in out.getvalue()
    assert CURSOR_HOME not in out.getvalue()


def test_autoplay_presses_keys_for_every_seat_and_finishes() -> None:
    for stations in (1, 3, 6):
        s = open_sim(stations, seed=stations, laps=1)
        presses = 0
        while s.autoplay_step() is not None:
            presses += 1
        race = s.table.race
        assert race is not None and race.over and s.table.state == flow.RESULTS
        assert [st.car for st in s.table.stations] == list(range(stations))
        assert presses > 10 * stations  # lever, cards and GO for every player, every round


def test_autoplay_that_makes_no_progress_stops_with_exit_1(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AutoPilot, "next_key", lambda self, table, kb: "tab")
    err = io.StringIO()
    code = main(["--autoplay", "--text", "--stations", "1"], stdin=io.StringIO(),
                stdout=io.StringIO(), stderr=err)
    assert code == 1
    assert err.getvalue().startswith("pitboard sim: autoplay stuck")


# ------------------------------------------------------------------------------ the terminal
def test_keys_move_the_lever_and_tray_and_every_frame_reaches_the_terminal(pty: Pty) -> None:
    s = open_sim(2, seed=2, record=0)  # S1's first two tray cards are playable
    out = io.StringIO()
    # S1 joins and starts (S2 stays empty, bots fill the seats), lever to 3, first two cards
    pty.type(" j3asq")
    run_terminal(s, pty.fd, out, size=lambda: (80, 24), scale=2, autoplay=False, delay=0,
                 hold=0)
    st = s.table.stations[0]
    assert s.table.state == flow.PLANNING and st.car == 0
    assert st.lever == 3 and st.selected == {0, 1}
    view = s.table.views[0]
    assert view is not None and view.target_gear == 3
    drawn = frames_drawn(out.getvalue())
    # the last picture holds S1's real frame, half size, and says which keys are which
    assert boxed(s, 0, 2) in drawn[-1]
    assert "▶ S1 · lever 3" in drawn[-1]
    labels = [c.label for c in view.cards]
    assert f"a:{labels[0]}*" in drawn[-1] and f"d:{labels[2]} " in drawn[-1] + " "
    # every frame S1's OLED showed was drawn: one key, at most one new frame, one redraw
    assert s.tape is not None and len(s.tape.frames) >= 4
    for image in s.tape.frames:
        rows = "\n".join(f"│{r}│" for r in image_to_blocks(image, scale=2))
        assert any(rows in frame for frame in drawn)
    assert all(len(line) <= 80 for frame in drawn for line in frame.split("\n"))
    assert all(frame.count("\n") <= 23 for frame in drawn)


def test_at_80_columns_every_screen_is_shown_in_legible_words(pty: Pty) -> None:
    s = open_sim(2, seed=2)
    out = io.StringIO()
    pty.type(" j3asq")
    run_terminal(s, pty.fd, out, size=lambda: (80, 24), scale=None, autoplay=False, delay=0,
                 hold=0)
    view = s.table.views[0]
    assert view is not None
    last = frames_drawn(out.getvalue())[-1]
    lines = last.split("\n")
    assert all(len(line) <= 80 for line in lines) and last.count("\n") <= 23
    assert "▶ S1 · lever 3" in last and "S2 · lever 1" in last  # both stations fit
    cards = " ".join(f"[{c.label}]" if c.selected else c.label for c in view.cards if c.code)
    assert "│ S1 planning" in last
    assert f"gear 1->3 · hand {cards}" in last
    assert f"a:{view.cards[0].label}*" in last  # the key strip under the box
    assert "▀" not in last and "▄" not in last  # no shrunk pixels


def test_text_box_says_what_the_screen_says() -> None:
    from pitboard.table.view import CardView, CornerView, StationView

    view = StationView("planning", 0, title="S1 Ann", gear=2, target_gear=4, speed="7-9",
                       cards=(CardView("4", "4", selected=True), CardView("S", "S")),
                       corners=(CornerView(2, 3, 4),), heat_owed=4, spin_out=True,
                       spin_odds=40, message="pick 2 cards: 1/2")
    box = simmod.text_box(view, "S1 · lever 4")
    text = "\n".join(box)
    for words in ("S1 Ann planning", "gear 2->4", "hand [4] S", "speed 7-9",
                  "corner 2 (limit 3): 4 Heat", "4 Heat owed", "SPIN-OUT risk 40%",
                  "pick 2 cards: 1/2"):
        assert words in text, words
    assert len(box) == simmod.TEXT_ROWS + 2 and {len(line) for line in box} == {66}


def test_arrows_tab_and_shift_tab_reach_the_station_in_focus(pty: Pty) -> None:
    s = open_sim(3, seed=2)
    out = io.StringIO()
    pty.type("\t\x1b[A\x1b[A\x1b[A\x1b[A\x1b[B\t\x1b[Z\x1b[Z2\x1b[Dq")
    run_terminal(s, pty.fd, out, size=lambda: (300, 120), scale=None, autoplay=False,
                 delay=0, hold=0)
    assert s.keyboard.levers == [2, 3, 1]  # S2: up x4 (stops at 4), down; S1: 2
    assert [st.lever for st in s.table.stations] == [2, 3, 1]
    assert s.keyboard.focus == 2  # ← from S1 wraps round to S3
    last = frames_drawn(out.getvalue())[-1]
    assert pick_layout(3, 2, 300, 120) == (1, 2, [0, 1, 2])
    for station in range(3):  # full size: every station's real frame
        for row in boxed(s, station, 1).split("\n"):
            assert row in last


@pytest.mark.parametrize(("keys", "signals"), [(" jq", True), (" j\x03", False)])
def test_q_and_ctrl_c_quit_and_restore_the_terminal(keys: str, signals: bool) -> None:
    pty = Pty(signals=signals)
    try:
        before = termios.tcgetattr(pty.fd)
        pty.type(keys)
        out = io.StringIO()
        assert main(["--seed", "1"], stdin=pty.slave, stdout=out, tty=True,
                    size=(80, 24)) == 0
        assert termios.tcgetattr(pty.fd) == before
    finally:
        pty.close()
    text = out.getvalue()
    assert text.startswith(simmod.ALT_SCREEN_ON)
    assert text.index(SHOW_CURSOR + simmod.ALT_SCREEN_OFF) > text.rindex(CURSOR_HOME)
    assert final_line(text).startswith("Race stopped in round 1. Standings: 1. ")


def test_autoplay_on_the_terminal_plays_to_the_results(pty: Pty) -> None:
    before = termios.tcgetattr(pty.fd)
    out = io.StringIO()
    assert main(["--autoplay", "--seed", "4", "--laps", "1", "--delay", "0"], stdin=pty.slave,
                stdout=out, tty=True, size=(80, 24)) == 0
    assert termios.tcgetattr(pty.fd) == before
    text = out.getvalue()
    assert final_line(text).startswith("Race over after ")
    last = frames_drawn(text)[-1]
    assert "results" in last.split("\n")[0] and "AUTOPLAY" in last


def test_q_stops_an_autoplay(pty: Pty) -> None:
    pty.type("q")
    out = io.StringIO()
    assert main(["--autoplay", "--seed", "4", "--delay", "0"], stdin=pty.slave, stdout=out,
                tty=True, size=(80, 24)) == 0
    assert "Race over" not in out.getvalue()


@pytest.mark.parametrize("stations", range(1, 7))
@pytest.mark.parametrize("size", [(80, 24), (100, 40), (140, 45), (200, 60), (270, 80)])
def test_the_picture_fits_the_terminal(stations: int, size: tuple[int, int]) -> None:
    s = open_sim(stations, seed=1)
    for key in " j3a":  # into a race, so views carry cards and messages
        s.press(key)
    cols, rows = size
    screen = TerminalScreen(s, io.StringIO(), size=lambda: size)
    lines = screen.compose().split("\n")
    assert len(lines) <= rows - 1 and all(len(line) <= cols for line in lines)
    assert lines[-1].startswith("Tab/←→ station")
    assert lines[-2] == s.narration[-1][:cols]  # the latest narration above the help
    assert any(line.startswith("S1 planning: gear 1->3") for line in lines)  # the caption
    scale, per_row, shown = pick_layout(stations, 0, cols, rows)
    assert 0 in shown and (scale == simmod.TEXT or shown == list(range(stations)))  # 1: all
    if scale == simmod.TEXT:
        width, height = 66, simmod.TEXT_ROWS + 3
    else:
        width, height = 128 // scale + 2, 32 // scale + 3  # box, and the key strip under it
    for place, station in enumerate(shown):  # each screen at its place in the grid
        row, column = divmod(place, per_row)
        top, left = 1 + row * height + 1, column * (width + 1)
        drawn = [line[left:left + width] for line in lines[top:top + height - 3]]
        if scale == simmod.TEXT:
            view = s.table.views[station]
            assert view is not None
            box = simmod.text_box(view, "")
            assert [line.rstrip() for line in drawn] == [
                line.rstrip() for line in box[1:-1]]
        else:
            assert "\n".join(drawn) == boxed(s, station, scale)


def test_layouts() -> None:
    text = simmod.TEXT
    assert pick_layout(2, 0, 80, 24) == (text, 1, [0, 1])
    assert pick_layout(3, 2, 80, 24) == (text, 1, [2])  # the page with the focus
    assert pick_layout(2, 0, 140, 45) == (text, 2, [0, 1])
    assert pick_layout(2, 0, 270, 40) == (1, 2, [0, 1])
    assert pick_layout(6, 4, 140, 45, scale=2) == (2, 2, [4, 5])
    assert pick_layout(6, 0, 200, 60, scale=2) == (2, 3, [0, 1, 2, 3, 4, 5])
    assert pick_layout(6, 0, 200, 60) == (text, 3, [0, 1, 2, 3, 4, 5])
    assert pick_layout(1, 0, 80, 24, scale=1) == (1, 1, [0])


def test_redraw_only_when_something_changed() -> None:
    s = open_sim(2, seed=1)
    out = io.StringIO()
    screen = TerminalScreen(s, out, size=lambda: (80, 24))
    assert screen.draw() and not screen.draw()
    s.press("g")  # an empty lobby slot: no frame changes
    assert not screen.draw()
    s.press("space")
    assert screen.draw() and screen.writes == 2


# ------------------------------------------------------------------------------ keys
def test_decode_keys() -> None:
    assert decode("\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1b[Z") == (
        ["up", "down", "right", "left", "up", "backtab"], "")
    assert decode("a\t \r\n\x03\x04") == (
        ["a", "tab", "space", "enter", "enter", "ctrl-c", "ctrl-d"], "")
    assert decode("x\x1b") == (["x"], "\x1b")
    assert decode("\x1b[1;5") == ([], "\x1b[1;5")
    assert decode("\x1b[15~k\x1bx") == (["k", "esc", "x"], "")  # F5 dropped, Alt-x


def test_keyboard_lever_and_focus() -> None:
    kb = Keyboard(2)
    assert kb.press("down") == []  # already in 1st
    assert kb.press("4") != [] and kb.press("up") == []  # 4th is the top of the gate
    assert kb.press("left") == [] and kb.focus == 1
    assert kb.press("J") != []  # caps lock does not matter


# ------------------------------------------------------------------------------ plain text
def test_text_mode_reads_keys_from_stdin() -> None:
    out = io.StringIO()
    assert main(["--seed", "2", "--stations", "1"], stdin=io.StringIO(" j\n3a\n"),
                stdout=out) == 0
    text = out.getvalue()
    assert "S1 keys: Space j" in text and "S1 keys: 3 a" in text
    assert re.search(r"\[screen\] S1 planning: gear 1->3 · hand \[\w\]", text)
    assert final_line(text).startswith("Race stopped in round 1. Standings: 1. ")


# ------------------------------------------------------------------------------ saving frames
def test_save_png_and_gif_of_a_station(tmp_path: Path) -> None:
    err = io.StringIO()
    pngs, gif = tmp_path / "frames", tmp_path / "s2.gif"
    assert main(["--autoplay", "--text", "--seed", "5", "--laps", "1", "--save-png",
                 str(pngs), "--save-gif", str(gif), "--station", "2", "--image-scale", "2"],
                stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 0
    files = sorted(pngs.iterdir())
    assert files[0].name == "s2-0001.png" and len(files) > 20
    for path in (files[0], files[-1]):
        with Image.open(path) as image:
            assert image.size == (256, 128)
    with Image.open(gif) as anim:
        assert anim.size == (256, 128) and anim.n_frames == len(files)
    assert f"saved {len(files)} frames of S2" in err.getvalue()


def test_saved_frames_are_the_station_screens(tmp_path: Path) -> None:
    s = open_sim(2, seed=9, laps=1, record=1)
    while s.autoplay_step() is not None:
        pass
    tape = s.tape
    assert tape is not None and len(tape.frames) == s.displays[1].frames
    tape.save_gif(tmp_path / "s2.gif")
    paths = tape.save_pngs(tmp_path, prefix="s2")
    with Image.open(tmp_path / "s2.gif") as anim:
        frames = [f.convert("1") for f in ImageSequence.Iterator(anim)]
    final = s.displays[1].image
    assert final is not None and len(frames) == len(paths) == len(tape.frames)
    assert frames[-1].tobytes() == final.tobytes()
    with Image.open(paths[-1]) as last:
        assert last.size == (128, 64) and last.convert("1").tobytes() == final.tobytes()


def test_race_control_is_saved_like_a_station(tmp_path: Path) -> None:
    """``--station rc``: the race-control display's frames (lobby, Legend moves, the order,
    results), as a station's."""
    err = io.StringIO()
    pngs = tmp_path / "rc"
    assert main(["--autoplay", "--text", "--seed", "3", "--laps", "1", "--cars", "2",
                 "--legends", "1", "--save-png", str(pngs), "--station", "rc"],
                stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 0
    files = sorted(pngs.iterdir())
    assert files[0].name == "rc-0001.png" and len(files) > 10
    assert f"saved {len(files)} frames of race control" in err.getvalue()
    s = open_sim(1, seed=3, laps=1, record="rc")
    while s.autoplay_step() is not None:
        pass
    assert s.tape is not None and s.race_control is not None
    final = s.race_control.image
    assert final is not None and s.tape.frames[-1].tobytes() == final.tobytes()
    assert len(s.tape.frames) == s.race_control.frames


# ------------------------------------------------------------------------------ arguments
@pytest.mark.parametrize("argv", [
    ["--stations", "7"], ["--stations", "two"], ["--track", "moon"], ["--laps", "0"],
    ["--station", "3"], ["--station", "tv"], ["--delay", "-1"], ["--scale", "4"], ["--bogus"],
    ["--save-gif", "/no/such/dir/x.gif"],
])
def test_bad_arguments_give_one_line_and_exit_2(argv: list[str]) -> None:
    err = io.StringIO()
    assert main(argv, stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().startswith("pitboard sim: ") and err.getvalue().count("\n") == 1


@pytest.mark.parametrize("option", ["--save-png", "--save-gif"])
def test_frames_that_cannot_be_saved_are_refused_before_the_race(tmp_path: Path,
                                                                  option: str) -> None:
    """A folder that cannot be created (a file stands where a folder should be) is a bad
    argument found up front, not a failure after the race."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    target = blocker / "frames" if option == "--save-png" else blocker / "s1.gif"
    out, err = io.StringIO(), io.StringIO()
    assert main(["--autoplay", "--text", "--seed", "5", option, str(target)],
                stdin=io.StringIO(), stdout=out, stderr=err) == 2
    assert err.getvalue().startswith(f"pitboard sim: {option} {target}: ")
    assert err.getvalue().count("\n") == 1 and out.getvalue() == ""  # no race was run


def test_more_stations_and_legends_than_seats_are_refused_with_autoplay() -> None:
    """Autoplay seats every station: 5 stations + 2 Legends is 7 cars, one too many."""
    out, err = io.StringIO(), io.StringIO()
    assert main(["--stations", "5", "--legends", "2", "--autoplay", "--text"],
                stdin=io.StringIO(), stdout=out, stderr=err) == 2
    assert err.getvalue() == ("pitboard sim: --stations 5 + --legends 2 = 7 cars with "
                              "--autoplay (every station plays), but a race has at most 6\n")
    assert out.getvalue() == ""


def test_autoplay_fills_every_seat_the_stations_and_legends_make() -> None:
    """--stations 4 --legends 2 with autoplay: the 6 cars the table will seat race."""
    out = io.StringIO()
    assert main(["--stations", "4", "--legends", "2", "--autoplay", "--text", "--seed", "2",
                 "--laps", "1"], stdin=io.StringIO(), stdout=out, stderr=io.StringIO()) == 0
    final = out.getvalue().splitlines()[-1]
    assert final.startswith("Race over") and "6. " in final and "Legend" in final


def test_help_goes_to_stdout_and_lists_the_keys() -> None:
    out = io.StringIO()
    assert main(["--help"], stdout=out) == 0
    assert "a s d f g h j" in out.getvalue() and "--autoplay" in out.getvalue()


# ------------------------------------------------------------------------------ kiosk preview
def test_kiosk_preview_shows_the_attract_loop_and_quits(pty: Pty) -> None:
    pty.type("q")
    out = io.StringIO()
    assert main(["--kiosk", "--seed", "1"], stdin=pty.slave, stdout=out, tty=True,
                size=(80, 24)) == 0
    last = frames_drawn(out.getvalue())[-1]
    assert "attract" in last.split("\n")[0]
    assert "KIOSK: bots race until a visitor presses GO" in last
    assert "S1 attract loop" in last


@pytest.mark.parametrize(("extra", "demo"), [
    ([], "vs 2 Legends, "),  # the sim profile's [table.kiosk_modules]
    (["--legends", "1", "--weather", "fog"], "vs 1 Legend, fog"),  # the command line's instead
])
def test_kiosk_preview_races_the_demo_preset_or_the_given_modules(
        pty: Pty, extra: list[str], demo: str) -> None:
    pty.type("q")
    out = io.StringIO()
    assert main(["--kiosk", "--seed", "1", *extra], stdin=pty.slave, stdout=out, tty=True,
                size=(80, 24)) == 0
    assert demo in frames_drawn(out.getvalue())[-1]


def test_kiosk_preview_runs_the_profiles_kiosk_on_the_clock() -> None:
    from dataclasses import replace

    from pitboard.app import kiosk_options
    from pitboard.hwconfig import load_profile

    now = [100.0]
    profile = load_profile("sim")
    profile = replace(profile, table=replace(profile.table, kiosk=True))
    options = kiosk_options(profile.table)
    s = open_sim(2, seed=1, clock=lambda: now[0], profile=profile)
    assert s.table.state == flow.ATTRACT
    s.press("space")  # a visitor joins at S1
    screen = TerminalScreen(s, io.StringIO(), size=lambda: (80, 24))
    assert "KIOSK: Space = join" in screen.compose()
    now[0] += options.join_seconds + 1
    s.tick()
    assert s.table.state == flow.SETUP  # the module race's set-up checklist first
    race = s.table.race
    # the shipped demo: the visitor, a bot in the seat nobody took, and 2 Legends, with weather
    assert race is not None and options.cars == 2 and race.setup.cars == 4
    assert race.setup.names == ("S1", "Bot 1", "Black Legend", "Blue Legend")
    assert race.setup.modules == {"legends": {"cars": 2},
                                  "weather": {"weather": "random", "road": True}}
    s.close()


@pytest.mark.parametrize("extra", [["--autoplay"], ["--text"]])
def test_kiosk_preview_is_by_hand_on_a_terminal(extra: list[str]) -> None:
    err = io.StringIO()
    assert main(["--kiosk", *extra], stdout=io.StringIO(), stderr=err, tty=True) == 2
    assert err.getvalue().count("\n") == 1 and "--kiosk" in err.getvalue()


# ------------------------------------------------------------------------------ the journal
def _play_until(sim: Sim, rounds: int) -> None:
    while (race := sim.table.race) is None or race.round < rounds:
        assert sim.autoplay_step() is not None


def test_the_simulation_journals_and_a_new_one_resumes_where_it_stopped(tmp_path: Path) -> None:
    first = open_sim(2, seed=5, journal=tmp_path)
    _play_until(first, 3)
    race = first.table.race
    assert race is not None
    log, state, hands = list(race.log), first.table.state, [c.hand for c in race.cars]
    first.close()  # as if the window was closed mid-race
    assert any(tmp_path.iterdir())

    again = open_sim(2, seed=99, journal=tmp_path)  # another seed: the journal decides
    resumed = again.table.race
    assert resumed is not None and list(resumed.log) == log
    assert again.table.state == state and [c.hand for c in resumed.cars] == hands
    assert [st.car for st in again.table.stations] == [0, 1]
    assert again.resumed_round == 3 and again.narration[0].startswith("Resumed the race")
    while again.autoplay_step() is not None:  # and the race plays on to the end
        pass
    assert resumed.over and again.table.state == flow.RESULTS
    again.press("space")  # results dismissed: the journal says the race is over
    again.close()
    fresh = open_sim(2, seed=5, journal=tmp_path)
    assert fresh.table.race is None and fresh.table.state == flow.LOBBY
    fresh.close()


def test_without_a_journal_folder_the_simulation_journals_in_a_temporary_one() -> None:
    sim = open_sim(1, seed=2)
    folder = sim.journal_dir
    for key in ("space", "j"):
        sim.press(key)
    assert sim.table.state == flow.PLANNING and any(folder.iterdir())
    sim.close()
    assert not folder.exists()


def test_sim_journal_option_resumes_a_race_from_the_command_line(tmp_path: Path) -> None:
    out = io.StringIO()
    # S1 joins and starts the race, then stdin ends (the player walks away)
    assert main(["--text", "--stations", "1", "--seed", "4", "--journal", str(tmp_path)],
                stdin=io.StringIO(" j\n"), stdout=out) == 0
    assert "Race stopped in round 1" in out.getvalue()
    again = io.StringIO()
    assert main(["--autoplay", "--text", "--stations", "1", "--journal", str(tmp_path)],
                stdin=io.StringIO(), stdout=again) == 0
    assert f"Resumed the race journalled in {tmp_path}, round 1" in again.getvalue()
    assert final_line(again.getvalue()).startswith("Race over after ")


def test_sim_journal_option_that_is_a_file_is_a_one_line_error(tmp_path: Path) -> None:
    err = io.StringIO()
    (tmp_path / "f").write_text("x")
    assert main(["--text", "--journal", str(tmp_path / "f")], stdin=io.StringIO(),
                stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == f"pitboard sim: --journal {tmp_path / 'f'}: not a directory\n"


def test_a_toggle_that_is_off_reads_in_lower_case_in_the_terminal_and_the_text() -> None:
    from pitboard.sim.terminal import tray_labels
    from pitboard.table.textview import screen_line
    from pitboard.table.view import RESOLUTION, StationView

    view = StationView(RESOLUTION, 0, title="S1", speed="7",
                       soft_keys=("ADR", "BST", "COOL", "", "DISC", "", "GO"), keys_off=(1,),
                       message="GO: cool 2, +1, keep hand")
    assert tray_labels(view) == ["ADR", "bst", "COOL", "", "DISC", "", "GO"]
    assert "keys ADR bst COOL DISC GO" in screen_line(view)


def test_kiosk_preview_of_an_owners_own_configuration(pty: Pty, tmp_path: Path) -> None:
    """--config FILE: the owner's [table] (its track, its demo race) on emulated stations,
    however the profile's own stations are wired."""
    from pitboard.hwconfig import profiles_dir

    mine = tmp_path / "store.toml"
    mine.write_text((profiles_dir() / "grid6.toml").read_text()
                    .replace('track = "usa"', 'track = "italy"', 1)
                    .replace("kiosk = false", "kiosk = true", 1)
                    .replace("[table.kiosk_modules.legends]\ncars = 2",
                             "[table.kiosk_modules.legends]\ncars = 1", 1))
    pty.type("q")
    out = io.StringIO()
    assert main(["--kiosk", "--seed", "1", "--config", str(mine)], stdin=pty.slave, stdout=out,
                tty=True, size=(80, 24)) == 0
    last = frames_drawn(out.getvalue())[-1]
    assert "vs 1 Legend" in last and "Italy" in last
    assert "of 6" in last.split("\n")[0]  # grid6's six stations
    err = io.StringIO()
    mine.write_text("[table]\nname = 1\n")
    assert main(["--kiosk", "--config", str(mine)], stdin=pty.slave, stdout=io.StringIO(),
                stderr=err, tty=True, size=(80, 24)) == 2
    assert err.getvalue().count("\n") == 1 and f"{mine}: table.name" in err.getvalue()
