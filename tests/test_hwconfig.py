"""Hardware profiles: the shipped profiles, pin map, bus numbers, files and check-config, the
staff PIN warning and display controllers (every validation rule: test_hwconfig_rules.py)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from pitboard.hwconfig import (
    BCM_TO_PHYSICAL,
    ConfigError,
    EmulatedInput,
    GpioInput,
    I2cConfig,
    Mcp23017Input,
    MuxConfig,
    check_config_main,
    default_config_path,
    format_pin_map,
    i2c_map,
    load_config,
    load_profile,
    parse_config,
    pi_board,
    pin_map,
    profiles_dir,
    resolve_i2c_bus,
)
from profilekit import SOURCE, base, mux_base, problems, station

# ---- shipped profiles ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sim", "duo", "grid6"])
def test_shipped_profiles_load(name: str) -> None:
    config = load_profile(name)
    assert config.name == name
    assert config.source == profiles_dir() / f"{name}.toml"
    assert load_config(config.source) == config


def test_sim_profile() -> None:
    config = load_profile("sim")
    assert len(config.stations) == 6
    assert all(isinstance(s.input, EmulatedInput) for s in config.stations)
    assert all(s.display.bus == "emulated" for s in config.stations)
    assert not config.console.enabled
    assert pin_map(config) == [] and i2c_map(config) == []


def test_duo_profile() -> None:
    config = load_profile("duo")
    assert [type(s.input) for s in config.stations] == [GpioInput, GpioInput]
    assert [s.display.address for s in config.stations] == [0x3C, 0x3D]
    assert config.console.enabled and not config.console.uses_pi_uart
    uses = pin_map(config)
    station_pins = [u.bcm for u in uses if u.station is not None]
    assert len(station_pins) == 24 == len(set(station_pins))
    assert not set(station_pins) & {0, 1, 2, 3}
    assert [u.bcm for u in uses if u.station is None] == [2, 3]
    # S1 on the odd header column, S2 on the even one
    assert {u.physical % 2 for u in uses if u.station == 0} == {1}
    assert {u.physical % 2 for u in uses if u.station == 1} == {0}


def test_grid6_profile() -> None:
    config = load_profile("grid6")
    assert config.i2c.mux == MuxConfig(type="tca9548a", address=0x70, first_bus=None,
                                      reset_pin=4, idle_disconnect=True)
    assert config.i2c.baudrate == 400000
    # three controllers (A: GPIO 2/3, B: 22/23, C: 12/13), two stations behind each one's mux
    assert [e.sda for e in config.i2c.extra] == [22, 12]
    assert all(e.mux == MuxConfig(address=0x70, reset_pin=4) for e in config.i2c.extra)
    for s in config.stations:
        controller = "ABC"[s.index // 2]
        assert s.input == Mcp23017Input(address=0x20, mux_channel=s.index % 2,
                                        int_pin=s.input.int_pin, controller=controller)
        assert s.display.mux_channel == s.index % 2 and s.display.address == 0x3C
        assert s.display.controller == controller
    int_pins = [s.input.int_pin for s in config.stations if isinstance(s.input, Mcp23017Input)]
    assert len(set(int_pins)) == 6
    assert config.console.uses_pi_uart


def _extra_profile(extra: str, station: str = "") -> dict[str, Any]:
    text = f"""
[table]
name = "T"
[console]
staff_pin = "2468"
[journal]
dir = "j"
[i2c.mux]
type = "tca9548a"
{extra}
[[stations]]
input = {{ kind = "mcp23017", mux_channel = 0{", " + station if station else ""} }}
display = {{ driver = "ssd1306", bus = "i2c", mux_channel = 0 }}
"""
    return tomllib.loads(text)


@pytest.mark.parametrize(("extra", "station", "problem"), [
    ("[[i2c.extra]]\nsda = 4", "", "i2c.extra[0].sda: GPIO 4 carries no I2C controller on both"),
    ("[[i2c.extra]]\nsda = 22\n[[i2c.extra]]\nsda = 22", "",
     "i2c.extra[1].sda: GPIO 22 is already i2c.extra's controller B"),
    ("", 'controller = "B"', "stations[0].input.controller: \"B\" is not one of this "
     "profile's I2C controllers (A:"),
    ("[[i2c.extra]]\nsda = 22", 'controller = "B"',
     "stations[0].input.mux_channel: set, but I2C controller B has no mux"),
    ("[[i2c.extra]]\nsda = 22\nmux = { address = 0x70, reset_pin = 5 }", "",
     "i2c.extra[0].mux.reset_pin: only used with i2c.mux"),
    ("[[i2c.extra]]\nsda = 12\nmux = { address = 0x70 }", "int_pin = 13",
     "stations[0].input.int_pin: GPIO 13 is the SCL of I2C controller B (i2c.extra[0])"),
])
def test_extra_i2c_controllers_are_checked(extra: str, station: str, problem: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(_extra_profile(extra, station), source=Path("t.toml"))
    assert any(p.startswith(f"t.toml: {problem}") for p in err.value.problems), \
        err.value.problems


def test_a_broken_i2c_section_is_one_error_not_one_per_station() -> None:
    """A typo in a controller's mux leaves the controllers unknown: the stations that name
    them are not flagged as well (the typo is the one thing to fix)."""
    raw = _extra_profile('[[i2c.extra]]\nsda = 22\nmux = { address = "x" }', 'controller = "B"')
    raw["stations"][0]["display"]["controller"] = "B"
    with pytest.raises(ConfigError) as err:
        parse_config(raw, source=Path("t.toml"))
    assert err.value.problems == [
        't.toml: i2c.extra[0].mux.address: expected an integer, got string "x"']


def test_stations_on_different_controllers_may_share_addresses() -> None:
    """Each controller is a bus of its own: the same mux address and channel on B is fine."""
    raw = _extra_profile("[[i2c.extra]]\nsda = 22\nmux = { address = 0x70 }")
    raw["stations"].append({"input": {"kind": "mcp23017", "mux_channel": 0, "controller": "B"},
                            "display": {"driver": "ssd1306", "bus": "i2c", "mux_channel": 0,
                                        "controller": "B"}})
    config = parse_config(raw, source=Path("t.toml"))
    assert [s.display.controller for s in config.stations] == ["A", "B"]
    raw["stations"][1]["display"]["controller"] = "A"
    with pytest.raises(ConfigError) as err:
        parse_config(raw, source=Path("t.toml"))
    assert "0x3C is already used by stations[0].display" in str(err.value)


def test_extra_controller_bus_numbers_follow_the_board(tmp_path: Path) -> None:
    """GPIO 22/23 is i2c6 on a Pi 4 and i2c3 on a Pi 5; the mux's channels are read under
    that bus in sysfs, as for controller A."""
    config = load_profile("grid6")
    for board, compatible, number in (("pi4", b"raspberrypi,4-model-b\0brcm,bcm2711\0", 6),
                                      ("pi5", b"raspberrypi,5-model-b\0brcm,bcm2712\0", 3)):
        proc = tmp_path / board / "proc"
        (proc / "device-tree").mkdir(parents=True)
        (proc / "device-tree" / "compatible").write_bytes(compatible)
        assert pi_board(proc) == board
        assert resolve_i2c_bus(config.i2c, None, controller="B", proc_root=proc) == number
        sysfs = tmp_path / board / "sys"
        link = sysfs / "bus" / "i2c" / "devices" / f"{number}-0070"
        link.mkdir(parents=True)
        (link / "channel-1").symlink_to(f"../i2c-{30 + number}")
        assert resolve_i2c_bus(config.i2c, 1, controller="B", proc_root=proc,
                               sys_root=sysfs) == 30 + number
    with pytest.raises(LookupError, match="not a Pi 4 or Pi 5"):
        resolve_i2c_bus(config.i2c, None, controller="C", proc_root=tmp_path / "nowhere")


def test_load_profile_by_path_and_unknown_name(tmp_path: Path) -> None:
    assert load_profile(str(profiles_dir() / "duo.toml")).name == "duo"
    with pytest.raises(ConfigError) as err:
        load_profile("quad")
    assert err.value.problems == [
        "quad: unknown profile (shipped profiles: sim, duo, grid6, phones)"]


def test_default_config_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PITBOARD_HW_CONFIG", raising=False)
    assert default_config_path() == profiles_dir() / "sim.toml"
    monkeypatch.setenv("PITBOARD_HW_CONFIG", "/etc/pitboard/table.toml")
    assert default_config_path() == Path("/etc/pitboard/table.toml")


def test_defaults() -> None:
    config = parse_config(base(), source=SOURCE)
    assert config.table.kiosk is False
    t = config.table
    assert (t.seat_idle_seconds, t.table_idle_seconds, t.join_seconds, t.results_seconds,
            t.kiosk_cars) == (30, 120, 20, 30, 4)
    assert config.table.track == "usa" and config.table.laps is None
    assert config.console.port == "" and config.console.baud == 115200
    assert config.i2c == I2cConfig(bus=1, baudrate=100000, mux=None)
    assert config.gpio.allow_id_eeprom_pins is False
    assert config.stations[0].label == "S1"


def test_kiosk_settings() -> None:
    raw = base()
    raw["table"].update(kiosk=True, seat_idle_seconds=25, table_idle_seconds=300,
                        join_seconds=10, results_seconds=45, kiosk_cars=6)
    t = parse_config(raw, source=SOURCE).table
    assert (t.kiosk, t.seat_idle_seconds, t.table_idle_seconds, t.join_seconds,
            t.results_seconds, t.kiosk_cars) == (True, 25, 300, 10, 45, 6)


def test_idle_seconds_is_read_as_the_old_name_of_table_idle_seconds() -> None:
    raw = base()
    raw["table"]["idle_seconds"] = 300  # a configuration installed before the split
    t = parse_config(raw, source=SOURCE).table
    assert (t.seat_idle_seconds, t.table_idle_seconds) == (30, 300)
    raw["table"]["table_idle_seconds"] = 200
    assert problems(raw) == ["t.toml: table.idle_seconds: is the old name of table_idle_seconds: "
                             "give only table_idle_seconds"]


@pytest.mark.parametrize(("key", "value", "message"), [
    ("seat_idle_seconds", 2, "2 is outside 5–3600"),
    ("join_seconds", 0, "0 is outside 3–600"),
    ("results_seconds", 100000, "100000 is outside 3–3600"),
    ("kiosk_cars", 7, "7 is outside 1–6"),
    ("kiosk_cars", "4", 'expected an integer, got string "4"'),
])
def test_kiosk_settings_are_checked(key: str, value: object, message: str) -> None:
    raw = base()
    raw["table"][key] = value
    assert problems(raw) == [f"t.toml: table.{key}: {message}"]


def test_the_table_gives_up_after_a_seat_goes_to_a_bot() -> None:
    raw = base()
    raw["table"].update(seat_idle_seconds=60, table_idle_seconds=60)
    assert problems(raw) == ["t.toml: table.table_idle_seconds: 60 must be more than "
                             "seat_idle_seconds (60), or no seat would ever go to a bot before "
                             "the table gives up"]


# ---- pin map ---------------------------------------------------------------------------------


def test_bcm_to_physical_matches_gpiozero_board_data() -> None:
    factory = MockFactory(revision="c03111")
    header = factory.board_info.headers["J8"]
    from_gpiozero = {
        int(info.name[4:]): number
        for number, info in header.pins.items()
        if info.name.startswith("GPIO")
    }
    factory.close()
    assert from_gpiozero == BCM_TO_PHYSICAL


def test_pin_map_is_complete_and_ordered() -> None:
    raw = base()
    raw["console"]["port"] = "/dev/serial0"
    station(raw)["display"] = {"driver": "sh1106", "bus": "spi", "device": 1}
    config = parse_config(raw, source=SOURCE)
    uses = pin_map(config)
    assert [u.physical for u in uses] == sorted(u.physical for u in uses)
    by_pin = {u.bcm: u for u in uses}
    assert by_pin[27].function == "S1 lever gear 3" and by_pin[27].physical == 13
    assert by_pin[27].pull == "up" and by_pin[27].key == "stations[0].input.lever[2]"
    assert by_pin[21].function == "S1 GO"
    assert by_pin[24].function == "S1 display D/C" and by_pin[24].mode == "output"
    assert by_pin[25].function == "S1 display RESET"
    assert by_pin[7].function == "SPI0 CE1 -> S1 display CS"
    assert by_pin[8].function == "SPI0 CE0 (reserved, unused)"
    assert by_pin[14].function == "UART TXD (staff console)"
    assert 2 not in by_pin  # no I2C device in this profile
    assert len(uses) == 12 + 2 + 5 + 2


def test_format_pin_map_duo() -> None:
    text = format_pin_map(load_profile("duo"))
    assert text == format_pin_map(load_profile("duo"))  # deterministic
    lines = text.splitlines()
    assert lines[0] == 'Hardware profile "duo" (duo.toml): 2 stations'
    assert "  GPIO21  40  S2 GO" + " " * 40 + "input  up" in lines
    assert "  I2C bus 1                  0x3D  S2 SSD1306 display" in lines
    assert "  S1: inputs direct GPIO; display ssd1306 0x3C on I2C bus 1" in lines


def test_format_pin_map_grid6_lists_the_station_board() -> None:
    text = format_pin_map(load_profile("grid6"))
    assert "  I2C C (GPIO 12/13) mux channel 1     0x20  S6 MCP23017 inputs" in text
    assert "  I2C A (bus 1) mux channel 0          0x3C  S1 SSD1306 display" in text
    assert "  GPIO22  15  I2C B SDA (i2c6 on a Pi 4, i2c3 on a Pi 5)" in text
    assert "  GPB3  GO\n" in text and "  GPA0  lever gear 1\n" in text


# ---- mux bus numbers -------------------------------------------------------------------------


def test_resolve_i2c_bus(tmp_path: Path) -> None:
    plain = I2cConfig(bus=1)
    assert resolve_i2c_bus(plain, None) == 1
    with pytest.raises(ValueError):
        resolve_i2c_bus(plain, 0)
    fixed = I2cConfig(bus=1, mux=MuxConfig(first_bus=22))
    assert resolve_i2c_bus(fixed, 5, sys_root=tmp_path) == 27
    devices = tmp_path / "bus" / "i2c" / "devices"
    (devices / "1-0071").mkdir(parents=True)
    (devices / "i2c-30").mkdir()
    os.symlink("../i2c-30", devices / "1-0071" / "channel-3")
    from_sysfs = I2cConfig(bus=1, mux=MuxConfig(address=0x71))
    assert resolve_i2c_bus(from_sysfs, 3, sys_root=tmp_path) == 30
    with pytest.raises(LookupError, match="channel-4 is missing"):
        resolve_i2c_bus(from_sysfs, 4, sys_root=tmp_path)


# ---- files and check-config --------------------------------------------------------------------


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[table]\nname = "T"\nkiosk = \n', encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.problems == [f"{path}: line 3: TOML syntax error: Invalid value (column 9)"]


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.problems == [f"{path}: cannot read (No such file or directory)"]


def test_check_config_reports_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.toml"
    path.write_text(
        '[table]\nname = "T"\n[console]\nstaff_pin = "1"\n[journal]\ndir = "j"\n'
        '[[stations]]\ninput = { kind = "emulated" }\n'
        'display = { driver = "ssd1306", bus = "emulated", rotate = 9 }\n',
        encoding="utf-8",
    )
    assert check_config_main(str(path)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f'{path}: console.staff_pin: must be 4–8 digits, got "1"',
        f"{path}: stations[0].display.rotate: 9 is outside 0–3",
    ]


def test_check_config_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_config_main(str(tmp_path / "nope.toml")) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err


def test_check_config_prints_the_pin_map(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(profiles_dir() / "grid6.toml")
    assert check_config_main(path) == 0
    out, err = capsys.readouterr()
    assert err.startswith("warning: ") and "staff_pin" in err  # only the default PIN
    assert out == format_pin_map(load_profile("grid6")) + (
        '\nTable "Pitboard grid": track usa, laps: the track\'s; kiosk off\n'
        "Console: /dev/ttyAMA0 at 115200 baud, staff PIN still the default\n")
    assert "  GPIO17  11  S1 MCP23017 INT (open-drain, active low)     input  up\n" in out


# ---- warnings: the staff PIN published with Pitboard ------------------------------------------


def test_the_shipped_pins_are_the_defaults() -> None:
    from pitboard.hwconfig import is_default_pin, shipped_pins

    assert shipped_pins() == {load_profile(name).console.staff_pin
                              for name in ("sim", "duo", "grid6", "phones")}
    assert is_default_pin("2468") and not is_default_pin("80417")


def test_check_config_warns_while_the_pin_is_a_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pitboard.hwconfig import check_config_main

    assert check_config_main("grid6") == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("warning: ") and err[0].endswith(
        "grid6.toml: console.staff_pin: still the default published with Pitboard; "
        "choose your own 4-8 digits")
    mine = tmp_path / "mine.toml"
    mine.write_text((profiles_dir() / "grid6.toml").read_text().replace('"2468"', '"80417"'))
    assert check_config_main(str(mine)) == 0
    assert capsys.readouterr().err == ""
    assert check_config_main("sim") == 0  # no console: its PIN unlocks nothing
    assert capsys.readouterr().err == ""


# -- display controllers ---------------------------------------------------------------------


def test_each_display_names_its_controller_and_sh1106_offset() -> None:
    raw = base()
    station(raw)["display"] = {"driver": "sh1106", "bus": "emulated"}
    assert parse_config(raw, source=SOURCE).stations[0].display.column_offset == 2
    station(raw)["display"]["column_offset"] = 0
    assert parse_config(raw, source=SOURCE).stations[0].display.column_offset == 0
    station(raw)["display"] = {"driver": "ssd1309", "bus": "emulated"}
    assert parse_config(raw, source=SOURCE).stations[0].display.driver == "ssd1309"


def test_column_offset_only_for_sh1106_and_in_range() -> None:
    raw = base()
    station(raw)["display"] = {"driver": "ssd1306", "bus": "emulated", "column_offset": 2}
    assert problems(raw) == [
        "t.toml: stations[0].display.column_offset: only an sh1106 has a column offset "
        "(driver is ssd1306)"
    ]
    station(raw)["display"] = {"driver": "sh1106", "bus": "emulated", "column_offset": 5}
    assert problems(raw) == ["t.toml: stations[0].display.column_offset: 5 is outside 0–4"]


def test_gpiozero_is_pinned_to_a_build_that_works_on_a_pi5() -> None:
    """2.0.1 and 2.0.1.post1/post2 misbehave with lgpio on a Pi 5: require post3 or later."""
    import tomllib
    from importlib.metadata import version

    from packaging.requirements import Requirement

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    deps = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    spec = next(Requirement(d) for d in deps if d.startswith("gpiozero"))
    assert "2.0.1.post3" in spec.specifier
    for bad in ("2.0", "2.0.1", "2.0.1.post1", "2.0.1.post2"):
        assert bad not in spec.specifier
    assert version("gpiozero") in spec.specifier


def test_check_config_shows_the_kiosk_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pitboard.hwconfig import check_config_main

    text = (profiles_dir() / "sim.toml").read_text().replace("kiosk = false", "kiosk = true")
    mine = tmp_path / "kiosk.toml"
    mine.write_text(text.replace("kiosk_cars = 2", "kiosk_cars = 5"))
    assert check_config_main(str(mine)) == 0
    out = capsys.readouterr().out
    assert ("kiosk on: 5 cars + 2 Legends, weather random, road conditions, join countdown "
            "20 s, a bot takes a seat idle 30 s, the table gives up after 120 s without a press, "
            "results 30 s") in out
    assert "Console: off (no port)" in out


def test_spi_needs_are_declared_for_pip_and_apt() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[1]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(d.startswith("spidev") for d in extras["spi"])
    assert any(d.startswith("rpi-lgpio") for d in extras["spi"])
    script = (root / "systemd" / "install-pi.sh").read_text()
    assert "SPI_APT_PACKAGES=(python3-spidev python3-rpi-lgpio)" in script


def test_mux_reset_pin_is_claimed_and_idle_disconnect_defaults_on() -> None:
    config = load_profile("grid6")
    assert config.i2c.mux is not None
    assert config.i2c.mux.idle_disconnect and config.i2c.mux.reset_pin == 4
    assert [u.function for u in pin_map(config) if u.bcm == 4] == ["TCA9548A RESET (active low)"]
    raw = mux_base()
    raw["i2c"]["mux"]["reset_pin"] = 2
    assert problems(raw) == ["t.toml: i2c.mux.reset_pin: GPIO 2 is reserved for I2C1 SDA"]


def test_a_mux_reset_pin_needs_idle_disconnect() -> None:
    """A RESET pulse deselects every channel; the pca954x driver, caching its last channel,
    would not select it again unless it deselects after every transfer itself."""
    raw = mux_base()
    raw["i2c"]["mux"].update(reset_pin=4, idle_disconnect=False)
    assert problems(raw) == ["t.toml: i2c.mux.idle_disconnect: must be true when reset_pin is "
                             "set (the kernel's pca954x driver would keep selecting a channel "
                             "the RESET pulse cut off): set idle_disconnect = true, or drop "
                             "reset_pin"]
    del raw["i2c"]["mux"]["reset_pin"]
    assert parse_config(raw, source=Path("t.toml")).i2c.mux is not None  # no RESET: fine


def test_a_race_control_display_alone_on_i2c_claims_the_bus_pins_and_is_named() -> None:
    """Emulated stations and one race-control OLED on I2C bus 1: the pin map has GPIO 2/3 and
    the set-up names RC, and only it, on /dev/i2c-1."""
    from pitboard.hwconfig import needs, parse_config

    raw = {"table": {"name": "T"}, "console": {"staff_pin": "1234"}, "journal": {"dir": "j"},
           "stations": [{"input": {"kind": "emulated"},
                         "display": {"driver": "ssd1306", "bus": "emulated"}}],
           "race_control": {"display": {"driver": "ssd1306", "bus": "i2c", "address": 0x3C}}}
    config = parse_config(raw, source=Path("rc.toml"))
    assert [u.bcm for u in pin_map(config)] == [2, 3]
    assert [n.who for n in needs(config) if n.what == "/dev/i2c-1"] == ["I2C bus 1 (RC)"]


def test_an_extra_controller_is_found_by_its_device_tree_node(tmp_path: Path) -> None:
    """Without the alias a bus would be numbered in probe order: the controller's adapter is
    the one whose of_node is the controller's node (i2c@7c000 is RP1's i2c3, GPIO 22/23 on a
    Pi 5), and its mux channels are read under that number."""
    config = load_profile("grid6")
    proc = tmp_path / "proc"
    (proc / "device-tree").mkdir(parents=True)
    (proc / "device-tree" / "compatible").write_bytes(b"raspberrypi,5-model-b\0brcm,bcm2712\0")
    sysfs = tmp_path / "sys"
    base = sysfs / "firmware" / "devicetree" / "base" / "axi" / "pcie@1000120000" / "rp1"
    devices = sysfs / "bus" / "i2c" / "devices"
    devices.mkdir(parents=True)
    for number, node in ((1, "i2c@74000"), (13, "i2c@7c000"), (14, "i2c@78000")):
        (base / node).mkdir(parents=True)
        (devices / f"i2c-{number}").mkdir()
        (devices / f"i2c-{number}" / "of_node").symlink_to(base / node)
    assert resolve_i2c_bus(config.i2c, None, controller="B", proc_root=proc,
                           sys_root=sysfs) == 13
    assert resolve_i2c_bus(config.i2c, None, controller="C", proc_root=proc,
                           sys_root=sysfs) == 14
    (devices / "13-0070").mkdir()
    (devices / "13-0070" / "channel-1").symlink_to("../i2c-40")
    assert resolve_i2c_bus(config.i2c, 1, controller="B", proc_root=proc, sys_root=sysfs) == 40
