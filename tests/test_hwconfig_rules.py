"""Hardware profiles: every validation rule, one failing case each, with its exact message."""

from __future__ import annotations

import copy

import pytest

from pitboard.hwconfig import (
    is_pi_uart,
    parse_config,
    pin_map,
)
from profilekit import SOURCE, base, mux_base, problems, station

# ---- validation: one failing case per rule, exact messages -----------------------------------


def test_unknown_key_with_suggestion() -> None:
    raw = base()
    raw["table"]["kioks"] = True
    assert problems(raw) == ['t.toml: table.kioks: unknown key (did you mean "kiosk"?)']


def test_unknown_key_without_suggestion() -> None:
    raw = base()
    raw["zzz"] = 1
    assert problems(raw) == [
        "t.toml: zzz: unknown key (valid keys: table, console, journal, gpio, i2c, stations, "
            "race_control, web)"
    ]


def test_key_of_another_kind() -> None:
    raw = base()
    station(raw)["input"]["int_pin"] = 5
    station(raw)["display"]["dc_pin"] = 24
    assert problems(raw) == [
        't.toml: stations[0].input.int_pin: only used with kind = "mcp23017"',
        't.toml: stations[0].display.dc_pin: only used with bus = "spi"',
    ]


def test_missing_required_key() -> None:
    raw = base()
    del raw["console"]["staff_pin"]
    assert problems(raw) == ["t.toml: console.staff_pin: missing required key"]


def test_missing_section() -> None:
    raw = base()
    del raw["journal"]
    assert problems(raw) == ["t.toml: journal: missing required key"]


def test_wrong_types() -> None:
    raw = base()
    raw["table"]["kiosk"] = "yes"
    raw["i2c"] = {"bus": True}
    station(raw)["input"]["lever"] = [4, "17", 27, 22]
    raw["console"] = "1234"
    assert problems(raw) == [
        't.toml: table.kiosk: expected a boolean, got string "yes"',
        't.toml: console: expected a table, got string "1234"',
        "t.toml: i2c.bus: expected an integer, got boolean true",
        "t.toml: stations[0].input.lever: expected an array of 4 integers, got array",
    ]


def test_pin_used_twice_names_both_users() -> None:
    raw = base()
    station(raw)["input"]["go"] = 17
    assert problems(raw) == [
        "t.toml: stations[0].input.go: GPIO 17 is already used by "
        "stations[0].input.lever[1] (S1 lever gear 2)"
    ]


def test_pin_used_by_two_stations() -> None:
    raw = mux_base()
    station(raw, 1)["input"]["int_pin"] = 17
    assert problems(raw) == [
        "t.toml: stations[1].input.int_pin: GPIO 17 is already used by "
        "stations[0].input.int_pin (S1 MCP23017 INT (open-drain, active low))"
    ]


def test_i2c_pins_are_reserved() -> None:
    raw = base()
    station(raw)["input"]["lever"][0] = 2
    assert problems(raw) == ["t.toml: stations[0].input.lever[0]: GPIO 2 is reserved for I2C1 SDA"]


def test_spi_pins_are_reserved_only_with_an_spi_display() -> None:
    raw = base()
    station(raw)["input"]["slots"][0] = 9
    parse_config(raw, source=SOURCE)  # fine while the display is on I2C
    station(raw)["display"] = {"driver": "ssd1306", "bus": "spi"}
    assert problems(raw) == [
        "t.toml: stations[0].input.slots[0]: GPIO 9 is reserved for SPI0 MISO "
        "(stations[0].display uses SPI)"
    ]


def test_spi_display_pins_count_as_used() -> None:
    raw = base()
    station(raw)["display"] = {"driver": "ssd1306", "bus": "spi", "dc_pin": 4, "reset_pin": 8}
    assert problems(raw) == [
        "t.toml: stations[0].display.dc_pin: GPIO 4 is already used by "
        "stations[0].input.lever[0] (S1 lever gear 1)",
        "t.toml: stations[0].display.reset_pin: GPIO 8 is reserved for SPI0 CE0 "
        "(stations[0].display uses SPI)",
    ]


@pytest.mark.parametrize(
    "port",
    ["/dev/serial0", "/dev/serial1", "/dev/ttyAMA0", "/dev/ttyAMA1", "/dev/ttyAMA10", "/dev/ttyS0"],
)
def test_uart_pins_are_reserved_only_for_a_pi_uart_console(port: str) -> None:
    raw = base()
    station(raw)["input"]["slots"][0] = 14
    raw["console"]["port"] = "/dev/ttyUSB0"
    parse_config(raw, source=SOURCE)
    raw["console"]["port"] = port
    assert problems(raw) == [
        "t.toml: stations[0].input.slots[0]: GPIO 14 is reserved for the UART TXD "
        f"(console.port is {port})"
    ]


@pytest.mark.parametrize(
    ("port", "pi_uart"),
    [
        ("/dev/serial0", True),
        ("/dev/serial1", True),
        ("/dev/ttyAMA0", True),
        ("/dev/ttyAMA1", True),  # a Pi 4's UART2 overlay, or a Pi 5 PL011: still kept safe
        ("/dev/ttyAMA10", True),  # the Pi 5 debug connector
        ("/dev/ttyS0", True),
        ("/dev/ttyUSB0", False),
        ("/dev/ttyACM0", False),
        ("/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K1234-if00-port0", False),
        ("/dev/serial", False),
        ("/dev/ttyAMA", False),
        ("/dev/ttyS0x", False),
        ("serial0", False),
        ("", False),
    ],
)
def test_is_pi_uart(port: str, pi_uart: bool) -> None:
    assert is_pi_uart(port) is pi_uart
    raw = base()
    raw["console"]["port"] = port
    config = parse_config(raw, source=SOURCE)
    assert config.console.uses_pi_uart is pi_uart
    uart_pins = {u.bcm for u in pin_map(config) if u.mode == "uart"}
    assert uart_pins == ({14, 15} if pi_uart else set())


def test_id_eeprom_pins_need_the_opt_in() -> None:
    raw = base()
    station(raw)["input"]["slots"][0] = 0
    assert problems(raw) == [
        "t.toml: stations[0].input.slots[0]: GPIO 0 is the HAT ID EEPROM line ID_SD "
        "(set gpio.allow_id_eeprom_pins = true if no HAT is fitted)"
    ]
    raw["gpio"] = {"allow_id_eeprom_pins": True}
    assert parse_config(raw, source=SOURCE).gpio.allow_id_eeprom_pins


def test_pins_outside_the_header() -> None:
    raw = base()
    station(raw)["input"]["go"] = 28
    station(raw)["input"]["lever"][3] = -1
    assert problems(raw) == [
        "t.toml: stations[0].input.lever[3]: GPIO -1 is outside 0–27",
        "t.toml: stations[0].input.go: GPIO 28 is outside 0–27",
    ]


def test_i2c_address_ranges() -> None:
    raw = mux_base()
    raw["i2c"]["mux"]["address"] = 0x69
    station(raw, 0)["input"]["address"] = 0x28
    station(raw, 1)["input"]["address"] = 0x80
    station(raw, 1)["display"]["address"] = 0x3E
    assert problems(raw) == [
        "t.toml: i2c.mux.address: 0x69 is outside the TCA9548A range 0x70–0x77",
        "t.toml: stations[0].input.address: 0x28 is outside the MCP23017 range 0x20–0x27",
        "t.toml: stations[1].input.address: 0x80 is not a 7-bit I2C device address (0x08–0x77)",
        "t.toml: stations[1].display.address: 0x3E is not an OLED address (0x3C or 0x3D)",
    ]


def test_same_address_on_one_bus() -> None:
    raw = base()
    raw["stations"].append(copy.deepcopy(station(raw)))
    station(raw, 1)["input"] = {"kind": "emulated"}
    assert problems(raw) == [
        "t.toml: stations[1].display.address: 0x3C is already used by stations[0].display "
        "(S1 SSD1306 display) on I2C bus 1"
    ]


def test_same_address_on_one_mux_channel() -> None:
    raw = mux_base()
    station(raw, 1)["input"]["mux_channel"] = 0
    assert problems(raw) == [
        "t.toml: stations[1].input.address: 0x20 is already used by stations[0].input "
        "(S1 MCP23017 inputs) on I2C bus 1 mux channel 0"
    ]


def test_main_bus_device_clashes_with_every_channel() -> None:
    raw = mux_base()
    del station(raw, 0)["display"]["mux_channel"]
    assert problems(raw) == [
        "t.toml: stations[1].display.address: 0x3C clashes with stations[0].display "
        "(S1 SSD1306 display): a device on the main I2C bus 1 answers on every mux channel"
    ]


def test_mux_channel_without_a_mux() -> None:
    raw = base()
    station(raw)["display"]["mux_channel"] = 2
    assert problems(raw) == [
        "t.toml: stations[0].display.mux_channel: set, but the profile has no [i2c.mux]"
    ]


def test_mux_channel_range() -> None:
    raw = mux_base()
    station(raw, 1)["input"]["mux_channel"] = 8
    assert problems(raw) == ["t.toml: stations[1].input.mux_channel: 8 is outside 0–7"]


def test_station_without_input_or_display() -> None:
    raw = base()
    del station(raw)["input"]
    raw["stations"].append({"input": {"kind": "emulated"}})
    assert problems(raw) == [
        "t.toml: stations[0].input: missing required key",
        "t.toml: stations[1].display: missing required key",
    ]


def test_more_than_six_stations() -> None:
    raw = base()
    emulated = {"input": {"kind": "emulated"}, "display": {"driver": "ssd1306", "bus": "emulated"}}
    raw["stations"] = [copy.deepcopy(emulated) for _ in range(7)]
    assert problems(raw) == ["t.toml: stations: 7 stations configured, at most 6 are supported"]


def test_no_stations() -> None:
    raw = base()
    raw["stations"] = []
    assert problems(raw) == [
        "t.toml: stations: at least one station is required (or [web] phone_seats)"]
    raw["stations"] = {"input": {}}
    assert problems(raw) == [
        "t.toml: stations: expected an array of tables ([[stations]]), got table"
    ]


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", ""])
def test_staff_pin_digits(pin: str) -> None:
    raw = base()
    raw["console"]["staff_pin"] = pin
    assert problems(raw) == [f't.toml: console.staff_pin: must be 4–8 digits, got "{pin}"']


def test_staff_pin_must_be_a_string() -> None:
    raw = base()
    raw["console"]["staff_pin"] = 1234
    assert problems(raw) == [
        "t.toml: console.staff_pin: expected a string of 4–8 digits in quotes, got integer 1234"
    ]


def test_value_choices_and_ranges() -> None:
    raw = base()
    station(raw)["input"]["kind"] = "gpi"
    station(raw)["display"]["rotate"] = 4
    raw["i2c"] = {"baudrate": 1000000}
    raw["console"]["baud"] = 12345
    raw["table"]["laps"] = 0
    assert problems(raw) == [
        "t.toml: table.laps: 0 is outside 1–9",
        "t.toml: console.baud: 12345 is not one of 9600, 19200, 38400, 57600, 115200, 230400, "
        "460800, 921600",
        "t.toml: i2c.baudrate: must be 100000 or 400000, got 1000000",
        't.toml: stations[0].input.kind: "gpi" is not one of "gpio", "mcp23017", "emulated" '
        '(did you mean "gpio"?)',
        "t.toml: stations[0].display.rotate: 4 is outside 0–3",
    ]


def test_lever_and_slot_counts() -> None:
    raw = base()
    station(raw)["input"]["lever"] = [4, 17, 27]
    station(raw)["input"]["slots"] = [5, 6, 13, 19, 12, 16, 20, 22]
    assert problems(raw) == [
        "t.toml: stations[0].input.lever: expected 4 pins (gears 1–4), got 3",
        "t.toml: stations[0].input.slots: expected 7 pins (tray slots 1–7), got 8",
    ]


def test_spi_display_limits() -> None:
    raw = base()
    emulated = {"kind": "emulated"}
    station(raw)["display"] = {"driver": "ssd1306", "bus": "spi"}
    raw["stations"] += [
        {
            "input": emulated,
            "display": {"driver": "ssd1306", "bus": "spi", "dc_pin": 23, "reset_pin": 26},
        },
        {
            "input": emulated,
            "display": {
                "driver": "ssd1306",
                "bus": "spi",
                "port": 1,
                "device": 1,
                "dc_pin": 18,
                "reset_pin": 15,
            },
        },
    ]
    assert problems(raw) == [
        "t.toml: stations[2].display.port: SPI1 is not supported (only port 0, SPI0)",
        "t.toml: stations[1].display.device: SPI0 CE0 is already used by stations[0].display",
    ]


def test_all_problems_are_collected() -> None:
    raw = mux_base()
    raw["table"]["nmae"] = "x"
    del raw["table"]["name"]
    raw["console"]["staff_pin"] = "12"
    station(raw, 1)["display"]["address"] = 0x3D
    station(raw, 1)["display"]["mux_channel"] = 0
    station(raw, 1)["input"]["int_pin"] = 3
    assert problems(raw) == [
        't.toml: table.nmae: unknown key (did you mean "name"?)',
        "t.toml: table.name: missing required key",
        't.toml: console.staff_pin: must be 4–8 digits, got "12"',
        "t.toml: stations[1].input.int_pin: GPIO 3 is reserved for I2C1 SCL",
    ]
