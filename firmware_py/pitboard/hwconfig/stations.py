"""Validating the stations of a profile and the cross-checks over all of them (pins claimed
twice or reserved, I2C addresses that clash on a bus segment, SPI chip selects): the half of
:class:`~.parse._Parser` that works on ``[[stations]]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pitboard.hw.mcp23017 import ADDRESS_MAX as MCP_ADDRESS_MAX
from pitboard.hw.mcp23017 import ADDRESS_MIN as MCP_ADDRESS_MIN
from pitboard.userfile import escape

from .pins import (
    I2cDeviceUse,
    _Claim,
    _display_claims,
    _i2c_devices,
    _input_claims,
    _mux_reset_claim,
    _segment,
)
from .reader import _describe, _join, _Reader, _used_elsewhere
from .schema import (
    _I2C1_PINS,
    _ID_PINS,
    _SPI0_PINS,
    _UART_PINS,
    CONTROLLER_NAMES,
    DISPLAY_BUSES,
    DISPLAY_DRIVERS,
    EXTRA_I2C,
    INPUT_KINDS,
    MAX_STATIONS,
    OLED_ADDRESSES,
    RACE_CONTROL_BUSES,
    SH1106_DEFAULT_COLUMN_OFFSET,
    SH1106_MAX_COLUMN_OFFSET,
    ConsoleConfig,
    DisplayConfig,
    EmulatedInput,
    GpioConfig,
    GpioInput,
    I2cConfig,
    InputConfig,
    Mcp23017Input,
)


class _StationParser(_Reader):
    """``[[stations]]``: each input and display, then the checks across stations and buses."""

    def parse_stations(
        self, raw: dict[str, Any], i2c: I2cConfig | None, *, phones: int = 0
    ) -> list[tuple[int, InputConfig | None, DisplayConfig | None]]:
        """``phones``: the phone seats ``[web]`` adds (with some, no station need be wired)."""
        if "stations" not in raw:
            if not phones:
                self._type_problem("stations", "missing required key ([[stations]], or "
                                   "[web] phone_seats)")
            return []
        stations = raw["stations"]
        if not isinstance(stations, list) or not all(isinstance(s, dict) for s in stations):
            self._type_problem(
                "stations", f"expected an array of tables ([[stations]]), got {_describe(stations)}"
            )
            return []
        if not stations and not phones:
            self.add("stations", "at least one station is required (or [web] phone_seats)")
        if len(stations) > MAX_STATIONS:
            self.add(
                "stations",
                f"{len(stations)} stations configured, at most {MAX_STATIONS} are supported",
            )
        has_mux = i2c is not None and i2c.mux is not None
        parts: list[tuple[int, InputConfig | None, DisplayConfig | None]] = []
        for index, station in enumerate(stations):
            path = f"stations[{index}]"
            self.unknown_keys(station, path, ("input", "display"))
            spec = self.parse_input(station, path, has_mux)
            display = self.parse_display(station, path, has_mux)
            parts.append((index, spec, display))
        return parts

    def parse_race_control(self, raw: dict[str, Any], has_mux: bool) -> DisplayConfig | None:
        """``[race_control] display``: the optional race-control OLED (I2C or emulated)."""
        t = self.table(raw, "", "race_control", False)
        if t is None:
            return None
        self.unknown_keys(t, "race_control", ("display",))
        display = self.parse_display(t, "race_control", has_mux)
        if display is not None and display.bus not in RACE_CONTROL_BUSES:
            self.add("race_control.display.bus", f'"{display.bus}" is not for the race-control '
                     "display: use i2c (a spare mux channel) or emulated")
            return None
        return display

    #: the profile's [i2c] section, once parsed (None: absent or broken)
    i2c_config: I2cConfig | None = None
    #: [i2c] is there but has errors of its own: its controllers and muxes are unknown, so the
    #: stations' references to them are not checked (one error, not one per station)
    i2c_broken = False

    def controller(self, t: dict[str, Any], path: str) -> str:
        """``controller``: "A" ([i2c]) or the letter of an ``[[i2c.extra]]`` controller."""
        name = self.str_(t, path, "controller", "A")
        known = self.i2c_config.controllers if self.i2c_config is not None else ("A",)
        if "controller" in t and isinstance(t["controller"], str) and name not in known \
                and not self.i2c_broken:
            self.add(_join(path, "controller"), f'"{escape(name)}" is not one of this '
                     f"profile's I2C controllers ({', '.join(known)}: [i2c], then "
                     "[[i2c.extra]] in order)")
            return "A"
        return name

    def mux_channel(self, t: dict[str, Any], path: str, has_mux: bool,
                    controller: str = "A") -> int | None:
        channel = self.opt_int(t, path, "mux_channel")
        if channel is not None:
            self.in_range(_join(path, "mux_channel"), channel, 0, 7)
            if self.i2c_broken:
                pass
            elif controller != "A":
                i2c = self.i2c_config
                if i2c is not None and i2c.mux_of(controller) is None:
                    self.add(_join(path, "mux_channel"), f"set, but I2C controller {controller} "
                             "has no mux (i2c.extra's mux)")
            elif not has_mux:
                self.add(_join(path, "mux_channel"), "set, but the profile has no [i2c.mux]")
        return channel

    def pin(self, path: str, value: int | None) -> None:
        if value is not None and not 0 <= value <= 27:
            self.add(path, f"GPIO {value} is outside 0–27")

    def parse_input(self, station: dict[str, Any], path: str, has_mux: bool) -> InputConfig | None:
        t = self.table(station, path, "input", True)
        if t is None:
            return None
        path = f"{path}.input"
        before = self.type_errors
        kind = self.choice(t, path, "kind", INPUT_KINDS, True)
        if kind is None:
            return None
        keys = {
            "gpio": ("lever", "slots", "go", "debounce_ms"),
            "mcp23017": ("address", "mux_channel", "int_pin", "debounce_ms", "controller"),
            "emulated": (),
        }
        elsewhere = _used_elsewhere("kind", keys, kind)
        self.unknown_keys(t, path, ("kind", *keys[kind]), elsewhere)
        spec: InputConfig
        if kind == "gpio":
            lever = self.int_list(t, path, "lever", 4, "gears 1–4")
            slots = self.int_list(t, path, "slots", 7, "tray slots 1–7")
            go = self.req_int(t, path, "go")
            for i, p in enumerate(lever):
                self.pin(f"{path}.lever[{i}]", p)
            for i, p in enumerate(slots):
                self.pin(f"{path}.slots[{i}]", p)
            self.pin(f"{path}.go", go if "go" in t else None)
            debounce = self.int_(t, path, "debounce_ms", 20)
            self.in_range(f"{path}.debounce_ms", debounce, 0, 200)
            spec = GpioInput(lever=lever, slots=slots, go=go, debounce_ms=debounce)
        elif kind == "mcp23017":
            address = self.int_(t, path, "address", 0x20)
            self.i2c_address(
                f"{path}.address", address, MCP_ADDRESS_MIN, MCP_ADDRESS_MAX, "MCP23017"
            )
            controller = self.controller(t, path)
            channel = self.mux_channel(t, path, has_mux, controller)
            int_pin = self.opt_int(t, path, "int_pin")
            self.pin(f"{path}.int_pin", int_pin)
            debounce = self.int_(t, path, "debounce_ms", 20)
            self.in_range(f"{path}.debounce_ms", debounce, 0, 200)
            spec = Mcp23017Input(
                address=address, mux_channel=channel, int_pin=int_pin, debounce_ms=debounce,
                controller=controller,
            )
        else:
            spec = EmulatedInput()
        return spec if self.type_errors == before else None

    def parse_display(
        self, station: dict[str, Any], path: str, has_mux: bool
    ) -> DisplayConfig | None:
        t = self.table(station, path, "display", True)
        if t is None:
            return None
        path = f"{path}.display"
        before = self.type_errors
        driver = self.choice(t, path, "driver", DISPLAY_DRIVERS, True)
        bus = self.choice(t, path, "bus", DISPLAY_BUSES, True)
        keys = {
            "i2c": ("address", "mux_channel", "controller"),
            "spi": ("port", "device", "dc_pin", "reset_pin"),
            "emulated": (),
        }
        if bus is None:
            allowed = ("driver", "bus", "rotate", "column_offset", *keys["i2c"], *keys["spi"])
            self.unknown_keys(t, path, allowed)
            return None
        elsewhere = _used_elsewhere("bus", keys, bus)
        self.unknown_keys(
            t, path, ("driver", "bus", "rotate", "column_offset", *keys[bus]), elsewhere
        )
        rotate = self.int_(t, path, "rotate", 0)
        self.in_range(f"{path}.rotate", rotate, 0, 3)
        offset = self.display_column_offset(t, path, driver)
        display = DisplayConfig(driver=driver or "", bus=bus, rotate=rotate, column_offset=offset)
        if bus == "i2c":
            address = self.int_(t, path, "address", 0x3C)
            if address not in OLED_ADDRESSES:
                self.add(
                    f"{path}.address",
                    f"0x{address:02X} is not an OLED address (0x3C or 0x3D)",
                )
            controller = self.controller(t, path)
            channel = self.mux_channel(t, path, has_mux, controller)
            display = replace(display, address=address, mux_channel=channel,
                              controller=controller)
        elif bus == "spi":
            port = self.int_(t, path, "port", 0)
            if port != 0:
                self.add(f"{path}.port", f"SPI{port} is not supported (only port 0, SPI0)")
            device = self.int_(t, path, "device", 0)
            self.in_range(f"{path}.device", device, 0, 1)
            dc_pin = self.int_(t, path, "dc_pin", 24)
            self.pin(f"{path}.dc_pin", dc_pin)
            reset_pin = self.int_(t, path, "reset_pin", 25)
            self.pin(f"{path}.reset_pin", reset_pin)
            display = replace(
                display, port=port, device=device, dc_pin=dc_pin, reset_pin=reset_pin
            )
        if self.type_errors != before or driver is None:
            return None
        return display

    def display_column_offset(
        self, t: dict[str, Any], path: str, driver: str | None
    ) -> int | None:
        """``column_offset``: SH1106 only (its RAM is 132 columns wide), default 2."""
        if driver != "sh1106":
            if "column_offset" in t:
                self.add(f"{path}.column_offset",
                         f"only an sh1106 has a column offset (driver is {driver})")
            return None
        offset = self.int_(t, path, "column_offset", SH1106_DEFAULT_COLUMN_OFFSET)
        self.in_range(f"{path}.column_offset", offset, 0, SH1106_MAX_COLUMN_OFFSET)
        return offset

    # -- cross-checks --

    def check_pins(
        self,
        parts: Sequence[tuple[int, InputConfig | None, DisplayConfig | None]],
        gpio: GpioConfig | None,
        console: ConsoleConfig | None,
        mux_reset: int | None = None,
    ) -> None:
        reserved: dict[int, str] = {p: f"reserved for {n}" for p, n in _I2C1_PINS.items()}
        if gpio is None or not gpio.allow_id_eeprom_pins:
            for p, n in _ID_PINS.items():
                reserved[p] = (
                    f"the HAT ID EEPROM line {n} (set gpio.allow_id_eeprom_pins = true "
                    "if no HAT is fitted)"
                )
        spi = [i for i, _, d in parts if d is not None and d.bus == "spi"]
        if spi:
            for p, n in _SPI0_PINS.items():
                reserved[p] = f"reserved for {n} (stations[{spi[0]}].display uses SPI)"
        if console is not None and console.uses_pi_uart:
            for p, n in _UART_PINS.items():
                reserved[p] = f"reserved for the {n} (console.port is {console.port})"
        i2c = self.i2c_config
        for i, extra in enumerate(i2c.extra if i2c is not None else ()):
            if extra.sda in EXTRA_I2C:
                name = f"I2C controller {CONTROLLER_NAMES[i + 1]} (i2c.extra[{i}])"
                reserved[extra.pins.sda] = f"the SDA of {name}"
                reserved[extra.pins.scl] = f"the SCL of {name}"
        claims: list[_Claim] = []
        if mux_reset is not None:
            claims.append(_mux_reset_claim(mux_reset))
        for index, spec, display in parts:
            if spec is not None:
                claims += _input_claims(index, spec)
            if display is not None:
                claims += _display_claims(index, display)
        first_user: dict[int, _Claim] = {}
        for c in claims:
            if not 0 <= c.pin <= 27:
                continue  # already reported by the parser
            if c.pin in reserved:
                self.add(c.key, f"GPIO {c.pin} is {reserved[c.pin]}")
            elif c.pin in first_user:
                other = first_user[c.pin]
                self.add(c.key, f"GPIO {c.pin} is already used by {other.key} ({other.function})")
            else:
                first_user[c.pin] = c

    def check_i2c(
        self,
        parts: Sequence[tuple[int, InputConfig | None, DisplayConfig | None]],
        i2c: I2cConfig,
        race_control: DisplayConfig | None = None,
    ) -> None:
        seen: list[I2cDeviceUse] = []
        for d in _i2c_devices(i2c, parts, race_control):
            has_mux = i2c.mux_of(d.controller) is not None
            for other in seen:
                if other.address != d.address or other.controller != d.controller:
                    continue  # each controller is a bus of its own
                path = d.key if d.key.endswith("mux.address") else f"{d.key}.address"
                if other.mux_channel == d.mux_channel or not has_mux:
                    self.add(
                        path,
                        f"0x{d.address:02X} is already used by {other.key} ({other.device}) "
                        f"on {_segment(i2c.bus, d.mux_channel, d.controller, i2c)}",
                    )
                    break
                if other.mux_channel is None or d.mux_channel is None:
                    self.add(
                        path,
                        f"0x{d.address:02X} clashes with {other.key} ({other.device}): a device "
                        f"on the main {_segment(i2c.bus, None, d.controller, i2c)} answers on "
                        "every mux channel",
                    )
                    break
            seen.append(d)

    def check_spi(
        self, parts: Sequence[tuple[int, InputConfig | None, DisplayConfig | None]]
    ) -> None:
        users: dict[tuple[int | None, int | None], int] = {}
        for index, _, display in parts:
            if display is None or display.bus != "spi":
                continue
            ce = (display.port, display.device)
            if ce in users:
                self.add(
                    f"stations[{index}].display.device",
                    f"SPI{display.port} CE{display.device} is already used by "
                    f"stations[{users[ce]}].display",
                )
            else:
                users[ce] = index
