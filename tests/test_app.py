"""The device as a whole: ``pitboard run`` with systemd's notify protocol, resume at start-up,
and App wiring of a real profile (duo on gpiozero's MockFactory)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from pitboard.app import App, journal_dir
from pitboard.engine.setup import RaceSetup
from pitboard.engine.stamp import race_stamp
from pitboard.hw.display import EmulatedDisplay
from pitboard.hw.events import GoPressed
from pitboard.hwconfig import GpioInput, load_profile, profiles_dir
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.recorder import JournalRecorder
from pitboard.table.storage_problem import DAMAGED_RECOVERED, StorageProblem
from pitboard.table.table import Table
from profilekit import sim_without_web

TIMEOUT = 60.0  # generous bound on a blocking read; never a sleep


def _messages(sock: socket.socket, until: str) -> list[str]:
    seen: list[str] = []
    while until not in seen:
        seen.extend(sock.recv(4096).decode().split("\n"))
    return seen


def _run(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    if "sim" in args:  # the sim profile, but without its phones' server (on port 8080)
        args = tuple(sim_without_web(tmp_path) if a == "sim" else a for a in args)
    env = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="300000")
    env.pop("WATCHDOG_PID", None)
    return subprocess.Popen([sys.executable, "-m", "pitboard.cli", "run", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_run_tells_systemd_ready_pings_the_watchdog_and_stops_on_sigterm(
        tmp_path: Path, notify_socket: socket.socket) -> None:
    proc = _run(tmp_path, "--config", "sim", "--journal", str(tmp_path / "journal"))
    try:
        assert "READY=1" in _messages(notify_socket, "READY=1")
        _messages(notify_socket, "WATCHDOG=1")
        _messages(notify_socket, "WATCHDOG=1")  # the game loop keeps turning
        proc.send_signal(signal.SIGTERM)
        _messages(notify_socket, "STOPPING=1")
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_run_resumes_the_journalled_race(tmp_path: Path, notify_socket: socket.socket) -> None:
    directory = tmp_path / "journal"
    table = Table(stations=6, recorder=JournalRecorder(Journal(directory)), seed=2)
    table.handle(GoPressed(station=0))
    table.start_race(track="italy", laps=1, cars=4)
    table.refresh()
    for _ in range(40):
        event = next_input(table)
        assert event is not None
        table.handle(event)
    assert table.race is not None
    proc = _run(tmp_path, "--config", "sim", "--journal", str(directory))
    try:
        _messages(notify_socket, "READY=1")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert f"resumed race: Italy, round {table.race.round}, {len(table.race.log)} decisions" \
        in err, err


def test_a_broken_config_exits_2_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\nname = 'x'\nkiosk = 'maybe'\n")
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "run", "--config", str(bad)],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert str(bad) in proc.stderr


def test_journal_dir_follows_systemd_state_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_profile("sim")
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/pitboard")
    assert journal_dir(config) == Path("/var/lib/pitboard/journal")
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", "/home/ann/.state")
    assert journal_dir(config) == Path("/home/ann/.state/pitboard/journal")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", "/home/ann")
    # never the working directory: a checkout would collect stray journals
    assert journal_dir(config) == Path("/home/ann/.local/state/pitboard/journal")
    assert journal_dir(config, Path("/x")) == Path("/x")


def test_duo_profile_wires_pins_to_the_table(tmp_path: Path) -> None:
    factory = MockFactory()
    now = [0.0]
    config = load_profile("duo")
    app = App.build(config, journal=tmp_path / "j", pin_factory=factory,
                    displays=[EmulatedDisplay(station="S1"), EmulatedDisplay(station="S2")],
                    clock=lambda: now[0], seed=1)
    try:
        app.boot()
        assert all(d.image is not None for d in app.displays)  # every station drawn at boot
        spec = config.stations[0].input
        assert isinstance(spec, GpioInput)
        for pin in (spec.go,):
            factory.pin(pin).drive_low()
            now[0] += 0.05
            app.poll()
            factory.pin(pin).drive_high()
            now[0] += 0.05
            app.poll()
        while app.table.step(timeout=0):
            pass
        assert app.table.stations[0].joined
        assert app.table.state == flow.LOBBY
    finally:
        app.close()
        factory.reset()


def test_app_run_loop_handles_posted_events_until_stopped(tmp_path: Path) -> None:
    app = App.build(load_profile("sim"), journal=tmp_path / "j", seed=1)
    app.boot()
    stop = threading.Event()
    done = threading.Event()

    def joined(table: Table) -> None:
        if table.stations[1].joined:
            done.set()

    app.table.observers.append(joined)
    thread = threading.Thread(target=app.run, args=(stop,))
    thread.start()
    app.table.post(GoPressed(station=1))
    assert done.wait(TIMEOUT)
    stop.set()
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    app.close()


def test_a_record_the_rules_refuse_is_cut_off_at_boot(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    directory = tmp_path / "journal"
    table = Table(stations=6, recorder=JournalRecorder(Journal(directory)), seed=2)
    table.handle(GoPressed(station=0))
    table.start_race(track="usa", laps=1, cars=3)
    table.refresh()
    assert table.race is not None
    before = list(table.race.log)
    with Journal(directory) as journal:  # well framed, but the rules refuse it
        assert journal.load() is not None
        journal.append({"d": {"kind": "plan", "car": 0, "gear": 4, "cards": []}})
    for boot in range(2):  # and the next boot does not trip over it again
        app = App.build(load_profile("sim"), journal=directory, seed=1)
        app.boot()
        assert app.table.state == flow.PLANNING and app.table.race is not None
        assert app.table.race.log == before
        assert app.recorder.problem == (StorageProblem(DAMAGED_RECOVERED, 2) if boot == 0
                                        else None)
        app.close()
        assert len(list(directory.glob("corrupt-*"))) == 1, boot
    assert any("a decision the race refuses" in r.getMessage() for r in caplog.records)


def test_a_journal_for_another_table_is_set_aside_at_boot(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    directory = tmp_path / "journal"
    journal = Journal(directory)
    setup = {"track": "usa", "cars": 2, "seed": 1}
    journal.start({"setup": setup, "seats": [0, 1] + [None] * 9,
                   "stamp": race_stamp(RaceSetup.from_dict(setup))})
    journal.close()
    for boot in range(2):
        app = App.build(load_profile("sim"), journal=directory, seed=1)
        app.boot()
        assert app.table.state == flow.LOBBY and app.table.race is None
        app.close()
        assert len(list(directory.glob("corrupt-*"))) == 1, boot
    assert any("does not replay" in r.getMessage() for r in caplog.records)


def test_a_table_that_cannot_keep_up_is_not_healthy() -> None:
    from pitboard.table.table import BACKLOG_LIMIT

    table = Table(stations=2)
    assert table.healthy()
    for _ in range(BACKLOG_LIMIT):
        table.post(GoPressed(station=0))
    assert not table.healthy()  # the watchdog goes unfed until the loop catches up
    while table.step(timeout=0):
        pass
    assert table.healthy()


def test_a_missing_display_bus_is_a_one_line_startup_error(tmp_path: Path) -> None:
    from pitboard.app import StartupError
    from pitboard.hwconfig import profiles_dir

    profile = tmp_path / "duo-missing-bus.toml"
    profile.write_text((profiles_dir() / "duo.toml").read_text().replace(
        "[i2c]\nbus = 1\n", "[i2c]\nbus = 97\n"))
    with pytest.raises(StartupError, match=r"cannot open a display: .*/dev/i2c-97"):
        App.build(load_profile(profile), journal=tmp_path / "j")
    proc = subprocess.run([sys.executable, "-m", "pitboard.cli", "run", "--config", str(profile),
                           "--journal", str(tmp_path / "j")],
                          capture_output=True, text=True, timeout=TIMEOUT,
                          env={**os.environ, "PITBOARD_HW_WAIT_SECONDS": "0"})
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "/dev/i2c-97 missing" in proc.stderr
    assert "dtparam=i2c_arm=on" in proc.stderr  # names the fix


def test_unusable_gpio_is_a_one_line_startup_error(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pitboard.app import StartupError

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.raises(StartupError, match="cannot open station inputs"):
        App.build(load_profile("duo"), journal=tmp_path / "j",
                  displays=[EmulatedDisplay(), EmulatedDisplay()])


def test_the_lobby_tells_staff_when_the_saved_race_was_lost(tmp_path: Path) -> None:
    directory = tmp_path / "journal"
    directory.mkdir()
    (directory / "journal.log").write_bytes(b"garbage\nmore garbage\n")
    app = App.build(load_profile("sim"), journal=directory, seed=1)
    app.boot()
    view = app.table.views[0]
    assert view is not None and view.kind == "lobby"
    assert view.lines[1] == "journal damaged; moved aside"
    app.close()


def test_the_profile_sets_the_kiosk(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[1] / "hw_config" / "sim.toml").read_text()
    text = text.replace("kiosk = false", "kiosk = true").replace(
        "seat_idle_seconds = 30", "seat_idle_seconds = 40").replace(
        "join_seconds = 20", "join_seconds = 12").replace("kiosk_cars = 2", "kiosk_cars = 5")
    profile = tmp_path / "kiosk.toml"
    profile.write_text(text)
    app = App.build(load_profile(str(profile)), journal=tmp_path / "journal", seed=1)
    try:
        kiosk = app.table.kiosk
        assert kiosk is not None and app.table.state == flow.ATTRACT
        assert (kiosk.seat_idle_seconds, kiosk.table_idle_seconds, kiosk.join_seconds,
                kiosk.results_seconds, kiosk.cars) == (40, 120, 12, 30, 5)
    finally:
        app.close()


# -- logs: one start-up line, no per-callback lines from the flow library ----------------------


def test_run_logs_one_startup_line_and_no_transitions_chatter(
        tmp_path: Path, notify_socket: socket.socket) -> None:
    proc = _run(tmp_path, "--config", "sim", "--journal",
                str(tmp_path / "journal"))
    try:
        _messages(notify_socket, "READY=1")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.startswith("INFO pitboard: pitboard ")
    assert 'running "Pitboard simulation" (profile ' in line
    for words in ("6 stations, 6 of 6 displays answering", "race-control display answering",
                  "console off", "kiosk off",
                  f"journal {tmp_path / 'journal'}", "staff PIN: console off"):
        assert words in line, words
    assert "transitions" not in err


def test_startup_line_warns_while_the_staff_pin_is_a_default(tmp_path: Path) -> None:
    import logging

    from pitboard.app import startup_line

    text = (profiles_dir() / "sim.toml").read_text().replace(
        'port = ""', 'port = "loop://"').replace("kiosk = false", "kiosk = true")
    profile = tmp_path / "console.toml"
    profile.write_text(text)
    app = App.build(load_profile(str(profile)), journal=tmp_path / "j", seed=1)
    try:
        level, line = startup_line(app)
        assert level == logging.WARNING
        assert "console loop:// at 115200 baud" in line and "kiosk on" in line
        assert f"staff PIN STILL THE DEFAULT published with Pitboard: set [console] staff_pin " \
               f"in {profile}" in line
    finally:
        app.close()
    profile.write_text(text.replace('staff_pin = "1234"', 'staff_pin = "80417"'))
    app = App.build(load_profile(str(profile)), journal=tmp_path / "j2", seed=1)
    try:
        level, line = startup_line(app)
        assert level == logging.INFO and line.endswith("staff PIN: set")
    finally:
        app.close()


@pytest.mark.parametrize("verbose", [False, True])
def test_transitions_lines_only_when_verbose(verbose: bool,
                                             caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from pitboard.hw.events import SlotPressed
    from pitboard.runstart import configure_logging

    before = logging.getLogger("transitions").level
    try:
        configure_logging(verbose=verbose)
        with caplog.at_level(logging.INFO, logger="pitboard"):
            table = Table(stations=2, seed=1)
            table.handle(GoPressed(station=0))
            table.handle(SlotPressed(station=0, slot=6))  # RACE: lobby -> planning
        assert table.state == flow.PLANNING
        from_transitions = [r for r in caplog.records if r.name.startswith("transitions")]
        assert bool(from_transitions) == verbose
    finally:
        logging.getLogger("transitions").setLevel(before)


def test_default_logging_keeps_pitboard_info_and_only_other_libraries_warnings(
        capsys: pytest.CaptureFixture[str]) -> None:
    """What ``pitboard run --verbose``'s help promises without the flag: Pitboard's own INFO
    lines (not only the start-up line), and only warnings from other libraries."""
    import logging

    from pitboard.cli import build_parser
    from pitboard.runstart import configure_logging

    root = logging.getLogger()
    saved = (root.level, root.handlers[:], logging.getLogger("pitboard").level,
             logging.getLogger("transitions").level)
    for handler in root.handlers[:]:
        root.removeHandler(handler)
    try:
        configure_logging(verbose=False)
        logging.getLogger("pitboard.app").info("hardware ready after 1.0 s")
        logging.getLogger("luma.core").info("a library's chatter")
        logging.getLogger("luma.core").warning("a library's warning")
        logging.getLogger("transitions.core").info("Entered state planning")
        err = capsys.readouterr().err
    finally:
        for handler in root.handlers[:]:
            root.removeHandler(handler)
        root.setLevel(saved[0])
        for handler in saved[1]:
            root.addHandler(handler)
        logging.getLogger("pitboard").setLevel(saved[2])
        logging.getLogger("transitions").setLevel(saved[3])
    assert err.splitlines() == ["INFO pitboard.app: hardware ready after 1.0 s",
                                "WARNING luma.core: a library's warning"]
    run = build_parser()._subparsers._group_actions[0].choices["run"]  # type: ignore[union-attr]
    help_text = " ".join(run.format_help().split())
    assert "Pitboard's own INFO lines" in help_text and "one start-up line" not in help_text


# -- the sim profile at a terminal: the stations drawn there ----------------------------------


def test_run_on_the_sim_profile_at_a_terminal_draws_the_stations(tmp_path: Path) -> None:
    """... and opens no serial console there, so its start-up line names none, even when the
    profile gives a port."""
    profile = tmp_path / "sim-console.toml"
    profile.write_text((profiles_dir() / "sim.toml").read_text().replace(
        'port = ""', 'port = "loop://"'))
    master, slave = os.openpty()
    journal = tmp_path / "journal"
    env = dict(os.environ, TERM="xterm")
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-m", "pitboard.cli", "run", "--config",
                             str(profile), "--journal", str(journal)], stdin=slave, stdout=slave,
                            stderr=subprocess.PIPE, env=env, text=True)
    os.close(slave)
    out = b""
    try:
        while b"q quit" not in out:  # the first picture is on the screen
            out += os.read(master, 65536)
        os.write(master, b" q")  # S1 joins, then quit
        while proc.poll() is None or True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        assert proc.wait(timeout=TIMEOUT) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
        os.close(master)
    text = out.decode("utf-8", "replace")
    assert "PITBOARD" in text and "S1 lobby" in text and "JOINED" in text
    assert 'running "Pitboard simulation"' in text  # the start-up line, printed at the end
    log = (journal / "pitboard.log").read_text()  # --journal DIR: its log inside DIR
    assert 'running "Pitboard simulation"' in log and "transitions" not in log
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal", "sim-console.toml"]
    assert "console off (terminal mode: the profile's port is not opened)" in log
    assert "loop://" not in log and "staff PIN: console off" in log


def test_startup_line_names_the_displays_that_do_not_answer(tmp_path: Path) -> None:
    from pitboard.app import startup_line

    class Silent(EmulatedDisplay):
        @property
        def healthy(self) -> bool:
            return False

    config = load_profile("sim")
    displays = [Silent() if i in (1, 4) else EmulatedDisplay() for i in range(6)]
    app = App.build(config, journal=tmp_path / "j", displays=displays, seed=1)
    try:
        assert "6 stations, 4 of 6 displays answering (not S2, S5: retrying)" in startup_line(
            app)[1]
    finally:
        app.close()


def test_a_station_board_reset_reinitialises_its_display(tmp_path: Path) -> None:
    """The MCP23017 and the OLED share a cable: when the board is found reset (or answers
    again after a fault), the app re-initialises that station's display."""
    from pitboard.hw.inputs import NullStationInputs

    class Board(NullStationInputs):
        resets = 0

        @property
        def board_resets(self) -> int:
            return self.resets

    class Screen(EmulatedDisplay):
        reinits = 0

        def reinit(self) -> None:
            self.reinits += 1

    config = load_profile("sim")
    screens = [Screen(station=s.label) for s in config.stations]
    app = App.build(config, journal=tmp_path / "j", seed=1, displays=screens)
    app.inputs = [Board(station=i) for i in range(len(config.stations))]
    app.poll()
    assert [s.reinits for s in screens] == [0] * 6
    board = app.inputs[2]
    assert isinstance(board, Board)
    board.resets = 1
    app.poll()
    app.poll()
    assert [s.reinits for s in screens] == [0, 0, 1, 0, 0, 0]
    app.close()


# -- start-up: waiting for the buses, one-line errors naming the fix -----------------------------


class Ticking:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_start_up_waits_for_the_mux_channels_with_a_status_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Boot race: the service starts before the i2c-mux channels exist; it waits (saying so)
    and goes on when they appear, here after 5 s."""
    from pitboard.app import wait_for_hardware
    from pitboard.hwconfig import missing

    config = load_profile("grid6")
    root, sys_root = tmp_path / "root", tmp_path / "sys"
    (root / "dev").mkdir(parents=True)
    (root / "proc" / "device-tree").mkdir(parents=True)  # a Pi 4: B is i2c6, C is i2c5
    (root / "proc" / "device-tree" / "compatible").write_bytes(b"raspberrypi,4-model-b\0"
                                                               b"brcm,bcm2711\0")
    for parent in (1, 6, 5):
        (root / "dev" / f"i2c-{parent}").touch()
    clock = Ticking()

    def sleep(seconds: float) -> None:
        clock.sleep(seconds)
        if clock.now >= 5:  # the kernel adds the channels of the three muxes
            for parent in (1, 6, 5):
                links = sys_root / "bus" / "i2c" / "devices" / f"{parent}-0070"
                links.mkdir(parents=True, exist_ok=True)
                for k in range(8):
                    if not (links / f"channel-{k}").exists():
                        number = 10 * parent + k + 10
                        (links / f"channel-{k}").symlink_to(f"../i2c-{number}")
                        (root / "dev" / f"i2c-{number}").touch()

    statuses: list[str] = []
    import pitboard.sdnotify as sd

    original = sd.status
    sd.status = statuses.append  # type: ignore[assignment]
    try:
        with caplog.at_level("INFO", logger="pitboard"):
            wait_for_hardware(config, clock=clock, sleep=sleep,
                              check=lambda c: missing(c, root=root, sys_root=sys_root))
    finally:
        sd.status = original  # type: ignore[assignment]
    assert 5 <= clock.now < 6
    assert statuses[0] == "waiting for mux channel 0 (0 s of 20)"
    assert "hardware ready after 5.0 s" in caplog.text


def test_start_up_gives_up_after_20_s_naming_the_fix(tmp_path: Path) -> None:
    from pitboard.app import StartupError, wait_for_hardware
    from pitboard.hwconfig import missing

    clock = Ticking()
    with pytest.raises(StartupError, match=r"^/dev/i2c-1 missing .*dtparam=i2c_arm=on.*\(and 9 "):
        wait_for_hardware(load_profile("grid6"), clock=clock, sleep=clock.sleep,
                          check=lambda c: missing(c, root=tmp_path, sys_root=tmp_path))
    assert clock.now == 20


def test_an_spi_profile_without_spidev_fails_at_once_naming_the_package(tmp_path: Path) -> None:
    from pitboard.app import StartupError, wait_for_hardware
    from pitboard.hwconfig import missing, needs, parse_config

    raw = {"table": {"name": "T"}, "console": {"staff_pin": "1234"}, "journal": {"dir": "j"},
           "stations": [{"input": {"kind": "emulated"},
                         "display": {"driver": "ssd1306", "bus": "spi", "device": 1}}]}
    config = parse_config(raw, source=Path("spi.toml"))
    assert [n.what for n in needs(config)] == [
        "Python module spidev", "Python module RPi.GPIO", "/dev/spidev0.1"]
    clock = Ticking()
    with pytest.raises(StartupError, match=r"^Python module spidev missing for S1 display "
                                           r"\(SPI\): sudo apt install python3-spidev"):
        wait_for_hardware(config, clock=clock, sleep=clock.sleep,
                          check=lambda c: missing(c, root=tmp_path, has_module=lambda m: False))
    assert clock.now == 0  # no waiting for a package
    problems = missing(config, root=tmp_path, has_module=lambda m: True)
    assert problems == ["/dev/spidev0.1 missing for S1 display (SPI): SPI is off: dtparam=spi=on "
                        "in /boot/firmware/config.txt (sudo make install-pi does it for a "
                        "profile with an SPI display), then reboot"]


def test_gpiozero_errors_are_startup_errors_once_gpiozero_is_in_use() -> None:
    """`pitboard run` does not import gpiozero for a profile with nothing wired; its errors
    still become one-line start-up errors once a wired profile has imported it."""
    import subprocess
    import sys

    import gpiozero

    from pitboard.app import with_gpiozero

    assert with_gpiozero(OSError) == (OSError, gpiozero.GPIOZeroError)
    code = ("import sys, pitboard.app as a; "
            "print('gpiozero' in sys.modules, a.with_gpiozero(OSError) == (OSError,))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "True"]
