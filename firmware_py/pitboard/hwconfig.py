"""Hardware profiles: TOML files that say how a Pitboard table is wired.

A profile is parsed with :mod:`tomllib` into frozen dataclasses (:class:`HwConfig`) and
validated as a whole: every problem is collected and reported as one line
``<file>: <key path>: <what is wrong>`` (key paths index arrays from 0, like ``jq``:
``stations[0]`` is the first ``[[stations]]`` block, shown to people as "S1").

Schema (``*`` = required)::

    [table]*     name*, kiosk = false, idle_seconds = 300 (kiosk: back to the attract screen),
                 track = "usa", laps (absent = the track's own lap count)
    [console]*   port = "" (empty = off), baud = 115200, staff_pin* = "4 to 8 digits"
    [journal]*   dir*                       (relative paths: from the working directory)
    [gpio]       allow_id_eeprom_pins = false   (GPIO 0/1, only when no HAT is fitted)
    [i2c]        bus = 1, baudrate = 100000 | 400000 (documents config.txt i2c_arm_baudrate)
    [i2c.mux]    type* = "tca9548a", address = 0x70 (0x70-0x77), first_bus (see resolve_i2c_bus)
    [[stations]]* at most 6, each with
      input*     kind* = "gpio":     lever* = [4 pins, gear 1..4], slots* = [7 pins], go*,
                                     debounce_ms = 20
                 kind* = "mcp23017": address = 0x20 (0x20-0x27), mux_channel (0-7), int_pin,
                                     debounce_ms = 20
                 kind* = "emulated"
      display*   driver* = "ssd1306" | "sh1106", bus* = "i2c" | "spi" | "emulated", rotate = 0..3
                 bus "i2c": address = 0x3C | 0x3D, mux_channel (0-7)
                 bus "spi": port = 0, device = 0 | 1 (CE0/CE1), dc_pin = 24, reset_pin = 25

Pins are BCM GPIO numbers. Reserved, and so refused for station wiring: 2/3 (I2C1, always),
0/1 (HAT ID EEPROM, unless ``gpio.allow_id_eeprom_pins``), 7-11 (SPI0, when an SPI display is
configured), 14/15 (UART, when the console uses the Pi's own UART: see :func:`is_pi_uart`).

Example::

    >>> config = load_profile("grid6")
    >>> len(config.stations), config.i2c.mux.address if config.i2c.mux else None
    (6, 112)
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias

from pitboard.hw.mcp23017 import ADDRESS_MAX as MCP_ADDRESS_MAX
from pitboard.hw.mcp23017 import ADDRESS_MIN as MCP_ADDRESS_MIN
from pitboard.hw.mcp23017 import STATION_BITS

MAX_STATIONS: Final = 6
SHIPPED_PROFILES: Final = ("sim", "duo", "grid6")
#: console ports taken to claim the Pi's UART lines GPIO 14/15 (:func:`is_pi_uart`). A plain
#: string literal: systemd/install-pi.sh reads it from this file to decide enable_uart.
PI_UART_PATTERN: Final = r"/dev/(serial[0-9]+|ttyAMA[0-9]+|ttyS[0-9]+)"
BAUD_RATES: Final = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
I2C_BAUDRATES: Final = (100000, 400000)
OLED_ADDRESSES: Final = (0x3C, 0x3D)
MUX_TYPES: Final = ("tca9548a",)
INPUT_KINDS: Final = ("gpio", "mcp23017", "emulated")
DISPLAY_DRIVERS: Final = ("ssd1306", "sh1106")
DISPLAY_BUSES: Final = ("i2c", "spi", "emulated")

#: BCM GPIO number -> physical pin on the 40-pin header (every Pi with a 40-pin header)
BCM_TO_PHYSICAL: Final[dict[int, int]] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21,
    10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35,
    20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip

# GPIO lines claimed by kernel drivers for the shared buses.
_I2C1_PINS: Final = {2: "I2C1 SDA", 3: "I2C1 SCL"}
_SPI0_PINS: Final = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
_UART_PINS: Final = {14: "UART TXD", 15: "UART RXD"}
_ID_PINS: Final = {0: "ID_SD", 1: "ID_SC"}


def is_pi_uart(port: str) -> bool:
    """True when a console port is one of the Pi's own UARTs, and so claims GPIO 14/15.

    The one rule for the whole project (``systemd/install-pi.sh`` writes ``enable_uart=1`` by
    the same :data:`PI_UART_PATTERN`): every ``/dev/serialN`` alias, PL011 ``/dev/ttyAMAN`` and
    mini UART ``/dev/ttySN``. Which of them is actually wired to GPIO 14/15 depends on the
    model and on config.txt: ``serial0`` is the header UART on a Pi 4 but by default the debug
    connector's ``ttyAMA10`` on a Pi 5, ``ttyAMA0`` is GPIO 14/15 on a Pi 4 and a Pi 5, and
    ``ttyAMA1`` and up are further UARTs (overlays on other pins on a Pi 4). Rather than guess,
    every one of them keeps GPIO 14/15 away from station wiring. USB adapters
    (``/dev/ttyUSB0``, ``/dev/ttyACM0``, ``/dev/serial/by-id/...``) are not the Pi's UART.

    Example::

        >>> [is_pi_uart(p) for p in ("/dev/serial0", "/dev/ttyAMA1", "/dev/ttyUSB0")]
        [True, True, False]
    """
    return re.fullmatch(PI_UART_PATTERN, port) is not None


class ConfigError(Exception):
    """A hardware profile that cannot be used; ``problems`` holds one line per problem.

    Example::

        >>> try:
        ...     load_profile("nosuch")
        ... except ConfigError as exc:
        ...     print(exc.problems[0])
        nosuch: unknown profile (shipped profiles: sim, duo, grid6)
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


# ---- the configuration -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The table as a whole.

    Example::

        >>> TableConfig(name="Club table", kiosk=True, idle_seconds=120).track
        'usa'
    """

    name: str
    kiosk: bool = False
    #: kiosk mode: seconds without input before returning to the attract screen
    idle_seconds: int = 300
    track: str = "usa"
    #: None = the track's own lap count
    laps: int | None = None


@dataclass(frozen=True, slots=True)
class ConsoleConfig:
    """The staff serial console.

    Example::

        >>> ConsoleConfig(staff_pin="2468", port="/dev/serial0").uses_pi_uart
        True
    """

    staff_pin: str
    #: serial device; "" = no console
    port: str = ""
    baud: int = 115200

    @property
    def enabled(self) -> bool:
        """True when a serial port is configured."""
        return bool(self.port)

    @property
    def uses_pi_uart(self) -> bool:
        """True when the console is on the Pi's own UART (GPIO 14/15; see :func:`is_pi_uart`)."""
        return is_pi_uart(self.port)


@dataclass(frozen=True, slots=True)
class JournalConfig:
    """Where race journals are written.

    Example::

        >>> JournalConfig(dir=Path("journal")).dir.name
        'journal'
    """

    dir: Path


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """Pi GPIO policy.

    Example::

        >>> GpioConfig(allow_id_eeprom_pins=True).allow_id_eeprom_pins
        True
    """

    #: GPIO 0/1 are the HAT ID EEPROM lines; usable for inputs only when no HAT is fitted
    allow_id_eeprom_pins: bool = False


@dataclass(frozen=True, slots=True)
class MuxConfig:
    """A TCA9548A I2C multiplexer on the main bus.

    Example::

        >>> MuxConfig(address=0x71).type
        'tca9548a'
    """

    type: str = "tca9548a"
    address: int = 0x70
    #: kernel bus number of channel 0 (channel k = first_bus + k); None = ask sysfs
    first_bus: int | None = None


@dataclass(frozen=True, slots=True)
class I2cConfig:
    """The I2C bus that station boards and OLEDs hang on.

    Example::

        >>> I2cConfig(baudrate=400000).bus
        1
    """

    bus: int = 1
    baudrate: int = 100000
    mux: MuxConfig | None = None


@dataclass(frozen=True, slots=True)
class GpioInput:
    """A station wired straight to Pi GPIOs (BCM numbers).

    Example::

        >>> GpioInput(lever=(4, 17, 27, 22), slots=(10, 9, 11, 5, 6, 13, 19), go=26).kind
        'gpio'
    """

    #: contacts for gears 1..4
    lever: tuple[int, ...]
    #: slot buttons 0..6
    slots: tuple[int, ...]
    go: int
    debounce_ms: int = 20

    @property
    def kind(self) -> Literal["gpio"]:
        """The ``kind`` key of this input."""
        return "gpio"


@dataclass(frozen=True, slots=True)
class Mcp23017Input:
    """A station board with an MCP23017 (bit map: :data:`pitboard.hw.mcp23017.STATION_BITS`).

    Example::

        >>> Mcp23017Input(mux_channel=2, int_pin=22).address
        32
    """

    address: int = 0x20
    mux_channel: int | None = None
    #: Pi GPIO wired to the chip's open-drain INTA; None = poll only
    int_pin: int | None = None
    debounce_ms: int = 20

    @property
    def kind(self) -> Literal["mcp23017"]:
        """The ``kind`` key of this input."""
        return "mcp23017"


@dataclass(frozen=True, slots=True)
class EmulatedInput:
    """A station whose inputs come from the desktop simulation.

    Example::

        >>> EmulatedInput().kind
        'emulated'
    """

    @property
    def kind(self) -> Literal["emulated"]:
        """The ``kind`` key of this input."""
        return "emulated"


InputConfig: TypeAlias = GpioInput | Mcp23017Input | EmulatedInput


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """A station's 128×64 OLED. Fields that do not apply to ``bus`` are None.

    Example::

        >>> DisplayConfig(driver="ssd1306", bus="i2c", address=0x3C, mux_channel=0).rotate
        0
    """

    driver: str
    #: "i2c", "spi" or "emulated"
    bus: str
    rotate: int = 0
    address: int | None = None
    mux_channel: int | None = None
    port: int | None = None
    device: int | None = None
    dc_pin: int | None = None
    reset_pin: int | None = None


@dataclass(frozen=True, slots=True)
class StationConfig:
    """One player station: its inputs and its display.

    Example::

        >>> StationConfig(index=0, input=EmulatedInput(),
        ...               display=DisplayConfig(driver="ssd1306", bus="emulated")).label
        'S1'
    """

    #: 0-based position in the profile (the ``station`` of input events)
    index: int
    input: InputConfig
    display: DisplayConfig

    @property
    def label(self) -> str:
        """The name people see: S1..S6."""
        return f"S{self.index + 1}"


@dataclass(frozen=True, slots=True)
class HwConfig:
    """A whole validated hardware profile.

    Example::

        >>> config = load_profile("sim")
        >>> config.name, [s.input.kind for s in config.stations][:2]
        ('sim', ['emulated', 'emulated'])
    """

    source: Path
    table: TableConfig
    console: ConsoleConfig
    journal: JournalConfig
    gpio: GpioConfig
    i2c: I2cConfig
    stations: tuple[StationConfig, ...]

    @property
    def name(self) -> str:
        """The profile name (file name without .toml)."""
        return self.source.stem


# ---- pin and bus usage ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PinUse:
    """One Pi GPIO line in use.

    Example::

        >>> use = pin_map(load_profile("duo"))[0]
        >>> use.bcm, use.physical, use.function
        (2, 3, 'I2C1 SDA')
    """

    bcm: int
    #: physical pin on the 40-pin header
    physical: int
    #: "S1 lever gear 3", "I2C1 SDA", ...
    function: str
    #: 0-based station index, None for shared lines
    station: int | None
    #: "input", "output", "i2c", "spi" or "uart"
    mode: str
    #: "up" = internal pull-up (contact to GND, active low)
    pull: str
    #: the profile key that claims it ("" for bus lines)
    key: str


@dataclass(frozen=True, slots=True)
class I2cDeviceUse:
    """One device on an I2C bus segment.

    Example::

        >>> [d.address for d in i2c_map(load_profile("duo"))]
        [60, 61]
    """

    bus: int
    #: mux channel, None = on the main bus
    mux_channel: int | None
    address: int
    #: "TCA9548A mux", "S1 MCP23017 inputs", "S1 SSD1306 display"
    device: str
    station: int | None
    key: str


@dataclass(frozen=True, slots=True)
class _Claim:
    pin: int
    key: str
    function: str
    station: int
    mode: str
    pull: str


def _input_claims(index: int, spec: InputConfig) -> list[_Claim]:
    base = f"stations[{index}].input"
    s = f"S{index + 1}"
    claims: list[_Claim] = []
    if isinstance(spec, GpioInput):
        for i, pin in enumerate(spec.lever):
            claims.append(
                _Claim(pin, f"{base}.lever[{i}]", f"{s} lever gear {i + 1}", index, "input", "up")
            )
        for i, pin in enumerate(spec.slots):
            claims.append(_Claim(pin, f"{base}.slots[{i}]", f"{s} slot {i}", index, "input", "up"))
        claims.append(_Claim(spec.go, f"{base}.go", f"{s} GO", index, "input", "up"))
    elif isinstance(spec, Mcp23017Input) and spec.int_pin is not None:
        claims.append(
            _Claim(
                spec.int_pin,
                f"{base}.int_pin",
                f"{s} MCP23017 INT (open-drain, active low)",
                index,
                "input",
                "up",
            )
        )
    return claims


def _display_claims(index: int, display: DisplayConfig) -> list[_Claim]:
    base = f"stations[{index}].display"
    s = f"S{index + 1}"
    claims: list[_Claim] = []
    if display.bus == "spi":
        if display.dc_pin is not None:
            claims.append(
                _Claim(display.dc_pin, f"{base}.dc_pin", f"{s} display D/C", index, "output", "-")
            )
        if display.reset_pin is not None:
            claims.append(
                _Claim(
                    display.reset_pin,
                    f"{base}.reset_pin",
                    f"{s} display RESET",
                    index,
                    "output",
                    "-",
                )
            )
    return claims


def _display_name(display: DisplayConfig) -> str:
    return display.driver.upper()


def _i2c_devices(
    i2c: I2cConfig, parts: Sequence[tuple[int, InputConfig | None, DisplayConfig | None]]
) -> list[I2cDeviceUse]:
    devices: list[I2cDeviceUse] = []
    if i2c.mux is not None:
        devices.append(
            I2cDeviceUse(i2c.bus, None, i2c.mux.address, "TCA9548A mux", None, "i2c.mux.address")
        )
    for index, spec, display in parts:
        s = f"S{index + 1}"
        if isinstance(spec, Mcp23017Input):
            devices.append(
                I2cDeviceUse(
                    i2c.bus,
                    spec.mux_channel,
                    spec.address,
                    f"{s} MCP23017 inputs",
                    index,
                    f"stations[{index}].input",
                )
            )
        if display is not None and display.bus == "i2c" and display.address is not None:
            devices.append(
                I2cDeviceUse(
                    i2c.bus,
                    display.mux_channel,
                    display.address,
                    f"{s} {_display_name(display)} display",
                    index,
                    f"stations[{index}].display",
                )
            )
    return devices


def pin_map(config: HwConfig) -> list[PinUse]:
    """Every Pi GPIO the profile uses, ordered by physical header pin.

    Station lines come with their function ("S2 slot 4"), shared lines with the bus function
    (I2C1 when any I2C device is configured on bus 1, SPI0 with an SPI display, the UART when
    the console uses it).

    Example::

        >>> [u.function for u in pin_map(load_profile("grid6")) if u.bcm == 17]
        ['S1 MCP23017 INT (open-drain, active low)']
    """
    uses: list[PinUse] = []
    for station in config.stations:
        for c in (
            *_input_claims(station.index, station.input),
            *_display_claims(station.index, station.display),
        ):
            uses.append(
                PinUse(c.pin, BCM_TO_PHYSICAL[c.pin], c.function, c.station, c.mode, c.pull, c.key)
            )
    parts = [(s.index, s.input, s.display) for s in config.stations]
    if config.i2c.bus == 1 and _i2c_devices(config.i2c, parts):
        for pin, name in _I2C1_PINS.items():
            uses.append(PinUse(pin, BCM_TO_PHYSICAL[pin], name, None, "i2c", "1.8k on board", ""))
    spi_users = {s.display.device: s for s in config.stations if s.display.bus == "spi"}
    if spi_users:
        for pin, name in _SPI0_PINS.items():
            function = name
            ce = {8: 0, 7: 1}.get(pin)
            if ce is not None:
                user = spi_users.get(ce)
                function += f" -> {user.label} display CS" if user else " (reserved, unused)"
            elif pin == 9:
                function += " (reserved, unused by OLEDs)"
            uses.append(PinUse(pin, BCM_TO_PHYSICAL[pin], function, None, "spi", "-", ""))
    if config.console.uses_pi_uart:
        for pin, name in _UART_PINS.items():
            uses.append(
                PinUse(
                    pin,
                    BCM_TO_PHYSICAL[pin],
                    f"{name} (staff console)",
                    None,
                    "uart",
                    "-",
                    "console.port",
                )
            )
    return sorted(uses, key=lambda u: u.physical)


def i2c_map(config: HwConfig) -> list[I2cDeviceUse]:
    """Every I2C device, ordered by bus, segment (main bus first) and address.

    Example::

        >>> [(d.mux_channel, d.device) for d in i2c_map(load_profile("grid6"))][:3]
        [(None, 'TCA9548A mux'), (0, 'S1 MCP23017 inputs'), (0, 'S1 SSD1306 display')]
    """
    parts = [(s.index, s.input, s.display) for s in config.stations]
    devices = _i2c_devices(config.i2c, parts)
    return sorted(
        devices,
        key=lambda d: (d.bus, -1 if d.mux_channel is None else d.mux_channel, d.address),
    )


def _segment(bus: int, channel: int | None) -> str:
    return f"I2C bus {bus}" + ("" if channel is None else f" mux channel {channel}")


def format_pin_map(config: HwConfig) -> str:
    """The pin map as text: GPIO header table, I2C devices, station board bits, stations.

    Example::

        >>> print(format_pin_map(load_profile("duo")).splitlines()[0])
        Hardware profile "duo" (duo.toml): 2 stations
    """
    lines = [
        f'Hardware profile "{config.name}" ({config.source.name}): '
        f"{len(config.stations)} station{'s' if len(config.stations) != 1 else ''}",
        "",
        "Raspberry Pi GPIO (BCM numbers, physical pins of the 40-pin header):",
    ]
    uses = pin_map(config)
    if uses:
        lines.append(f"  {'GPIO':<6} {'Pin':>3}  {'Function':<42} {'Mode':<6} Pull")
        for u in uses:
            lines.append(
                f"  {'GPIO' + str(u.bcm):<6} {u.physical:>3}  {u.function:<42} {u.mode:<6} {u.pull}"
            )
    else:
        lines.append("  none")
    lines += ["", "I2C devices:"]
    devices = i2c_map(config)
    if devices:
        for d in devices:
            lines.append(f"  {_segment(d.bus, d.mux_channel):<26} 0x{d.address:02X}  {d.device}")
    else:
        lines.append("  none")
    if any(isinstance(s.input, Mcp23017Input) for s in config.stations):
        lines += ["", "MCP23017 station board (every station; contacts close to GND):"]
        for bank, bit, function in STATION_BITS:
            lines.append(f"  GP{bank}{bit}  {function}")
        lines.append("  INTA  open-drain interrupt (mirrored) -> int_pin")
    lines += ["", "Stations:"]
    for s in config.stations:
        spec = s.input
        if isinstance(spec, Mcp23017Input):
            where = _segment(config.i2c.bus, spec.mux_channel)
            irq = f", INT GPIO{spec.int_pin}" if spec.int_pin is not None else ", polled"
            inp = f"MCP23017 0x{spec.address:02X} on {where}{irq}"
        elif isinstance(spec, GpioInput):
            inp = "direct GPIO"
        else:
            inp = "emulated"
        shown = s.display
        if shown.bus == "i2c" and shown.address is not None:
            where = _segment(config.i2c.bus, shown.mux_channel)
            disp = f"{shown.driver} 0x{shown.address:02X} on {where}"
        elif shown.bus == "spi":
            disp = f"{shown.driver} on SPI{shown.port} CE{shown.device}"
        else:
            disp = f"{shown.driver} emulated"
        if shown.rotate:
            disp += f", rotate {shown.rotate}"
        lines.append(f"  {s.label}: inputs {inp}; display {disp}")
    return "\n".join(lines) + "\n"


# ---- bus numbers behind the mux --------------------------------------------------------------


def resolve_i2c_bus(
    i2c: I2cConfig, mux_channel: int | None, *, sys_root: Path = Path("/sys")
) -> int:
    """The /dev/i2c-N number to open for a device on ``mux_channel`` (None = main bus).

    With ``dtoverlay=i2c-mux,pca9548,addr=0x70`` the kernel gives every mux channel its own bus
    and links it as ``/sys/bus/i2c/devices/1-0070/channel-k -> i2c-N``; the kernel switches the
    channel for each transfer (and locks the parent bus), so stations on different channels can
    be read from different threads. ``i2c.mux.first_bus`` (channel k = first_bus + k) overrides
    the sysfs lookup; without either, LookupError.

    Example::

        >>> resolve_i2c_bus(I2cConfig(mux=MuxConfig(first_bus=22)), 3)
        25
    """
    if mux_channel is None:
        return i2c.bus
    if i2c.mux is None:
        raise ValueError("mux_channel given but the profile has no [i2c.mux]")
    if i2c.mux.first_bus is not None:
        return i2c.mux.first_bus + mux_channel
    link = sys_root / "bus" / "i2c" / "devices" / f"{i2c.bus}-{i2c.mux.address:04x}"
    link = link / f"channel-{mux_channel}"
    try:
        target = os.readlink(link)
    except OSError:
        target = ""
    match = re.fullmatch(r"i2c-(\d+)", Path(target).name)
    if match is None:
        raise LookupError(
            f"no I2C bus for mux channel {mux_channel}: {link} is missing (is "
            f"dtoverlay=i2c-mux,pca9548,addr=0x{i2c.mux.address:02x} in config.txt?); "
            "or set i2c.mux.first_bus"
        )
    return int(match.group(1))


# ---- loading -------------------------------------------------------------------------------


def profiles_dir() -> Path:
    """The folder with the shipped profiles: ``hw_config/`` at the top of the source tree.

    The package reaches it through the ``pitboard/hw_config`` symlink, which wheels turn into
    package data, so installed copies (the Pi's /opt/pitboard venv) find the profiles too.
    """
    return Path(__file__).resolve().parent / "hw_config"


def default_config_path() -> Path:
    """``$PITBOARD_HW_CONFIG`` when set, else the shipped ``sim`` profile (no hardware)."""
    override = os.environ.get("PITBOARD_HW_CONFIG")
    if override:
        return Path(override)
    return profiles_dir() / "sim.toml"


def load_profile(name: str | os.PathLike[str]) -> HwConfig:
    """Load a shipped profile by name ("sim", "duo", "grid6") or any profile by path.

    Example::

        >>> load_profile("duo").stations[1].display.address == 0x3D
        True
    """
    text = os.fspath(name)
    if "/" in text or text.endswith(".toml") or os.sep in text:
        return load_config(text)
    if text not in SHIPPED_PROFILES:
        raise ConfigError(
            [f"{text}: unknown profile (shipped profiles: {', '.join(SHIPPED_PROFILES)})"]
        )
    return load_config(profiles_dir() / f"{text}.toml")


def load_config(path: str | os.PathLike[str]) -> HwConfig:
    """Read and validate one profile; raise :class:`ConfigError` listing every problem.

    Example::

        >>> load_config(profiles_dir() / "grid6.toml").i2c.baudrate
        400000
    """
    label = os.fspath(path)
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([_syntax_problem(label, str(exc))]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})"]) from None
    except OSError as exc:
        raise ConfigError([f"{label}: cannot read: {exc.strerror or exc}"]) from None
    return parse_config(raw, source=Path(path))


def _syntax_problem(label: str, message: str) -> str:
    match = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message)
    if match is None:
        return f"{label}: TOML syntax error: {message}"
    what, line, column = match.groups()
    return f"{label}: line {line}: TOML syntax error: {what} (column {column})"


def parse_config(raw: dict[str, Any], *, source: Path) -> HwConfig:
    """Validate an already-parsed TOML document (``source`` names it in messages).

    Example::

        >>> parse_config({"table": {"name": "T"}, "console": {"staff_pin": "1234"},
        ...               "journal": {"dir": "j"},
        ...               "stations": [{"input": {"kind": "emulated"},
        ...                             "display": {"driver": "sh1106", "bus": "emulated"}}]},
        ...              source=Path("t.toml")).stations[0].display.driver
        'sh1106'
    """
    return _Parser(os.fspath(source), source).parse(raw)


# ---- validation ----------------------------------------------------------------------------


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"float {value}"
    if isinstance(value, str):
        return f'string "{value}"'
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _quoted(options: Sequence[str]) -> str:
    return ", ".join(f'"{o}"' for o in options)


def _used_elsewhere(selector: str, keys: dict[str, tuple[str, ...]], chosen: str) -> dict[str, str]:
    """Keys valid only for other variants -> 'kind = "gpio" or kind = "mcp23017"'."""
    owners: dict[str, list[str]] = {}
    for variant, variant_keys in keys.items():
        for key in variant_keys:
            owners.setdefault(key, []).append(f'{selector} = "{variant}"')
    return {k: " or ".join(v) for k, v in owners.items() if k not in keys[chosen]}


class _Parser:
    """Collects every problem; builds each dataclass only when its keys have the right types."""

    def __init__(self, label: str, source: Path) -> None:
        self.label = label
        self.source = source
        self.problems: list[str] = []
        #: missing keys and wrong types: a section with any of these is not built
        self.type_errors = 0

    # -- reporting and typed getters --

    def add(self, path: str, message: str) -> None:
        self.problems.append(f"{self.label}: {path}: {message}")

    def _type_problem(self, path: str, message: str) -> None:
        self.type_errors += 1
        self.add(path, message)

    def unknown_keys(
        self,
        table: dict[str, Any],
        path: str,
        allowed: Sequence[str],
        elsewhere: dict[str, str] | None = None,
    ) -> None:
        """``elsewhere`` maps keys valid in another variant to a hint (e.g. 'kind = "gpio"')."""
        for key in table:
            if key in allowed:
                continue
            if elsewhere and key in elsewhere:
                self.add(_join(path, key), f"only used with {elsewhere[key]}")
                continue
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            if close:
                hint = f'did you mean "{close[0]}"?'
            elif allowed:
                hint = f"valid keys: {', '.join(allowed)}"
            else:
                hint = "no keys are valid here"
            self.add(_join(path, key), f"unknown key ({hint})")

    def _get(
        self,
        table: dict[str, Any],
        path: str,
        key: str,
        expected: str,
        check: Callable[[Any], bool],
        required: bool,
    ) -> Any:
        full = _join(path, key)
        if key not in table:
            if required:
                self._type_problem(full, "missing required key")
            return None
        value = table[key]
        if not check(value):
            self._type_problem(full, f"expected {expected}, got {_describe(value)}")
            return None
        return value

    def table(
        self, parent: dict[str, Any], path: str, key: str, required: bool
    ) -> dict[str, Any] | None:
        value = self._get(parent, path, key, "a table", lambda v: isinstance(v, dict), required)
        return value if isinstance(value, dict) else None

    def int_(self, t: dict[str, Any], path: str, key: str, default: int) -> int:
        value = self._get(t, path, key, "an integer", _is_int, False)
        return default if value is None else int(value)

    def req_int(self, t: dict[str, Any], path: str, key: str) -> int:
        value = self._get(t, path, key, "an integer", _is_int, True)
        return 0 if value is None else int(value)

    def opt_int(self, t: dict[str, Any], path: str, key: str) -> int | None:
        value = self._get(t, path, key, "an integer", _is_int, False)
        return None if value is None else int(value)

    def str_(
        self, t: dict[str, Any], path: str, key: str, default: str, required: bool = False
    ) -> str:
        value = self._get(t, path, key, "a string", lambda v: isinstance(v, str), required)
        return default if value is None else str(value)

    def bool_(self, t: dict[str, Any], path: str, key: str, default: bool) -> bool:
        value = self._get(t, path, key, "a boolean", lambda v: isinstance(v, bool), False)
        return default if value is None else bool(value)

    def int_list(
        self, t: dict[str, Any], path: str, key: str, count: int, what: str
    ) -> tuple[int, ...]:
        value = self._get(
            t,
            path,
            key,
            f"an array of {count} integers",
            lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
            True,
        )
        if value is None:
            return ()
        if len(value) != count:
            self.add(_join(path, key), f"expected {count} pins ({what}), got {len(value)}")
        return tuple(int(x) for x in value)

    def in_range(
        self, path: str, value: int | None, lo: int, hi: int, *, hexa: bool = False
    ) -> None:
        if value is None or lo <= value <= hi:
            return
        if hexa:
            self.add(path, f"0x{value:02X} is outside 0x{lo:02X}–0x{hi:02X}")
        else:
            self.add(path, f"{value} is outside {lo}–{hi}")

    def choice(
        self,
        t: dict[str, Any],
        path: str,
        key: str,
        options: Sequence[str],
        required: bool,
        default: str = "",
    ) -> str | None:
        value = self._get(t, path, key, "a string", lambda v: isinstance(v, str), required)
        if value is None:
            return default or None
        if value not in options:
            close = difflib.get_close_matches(value, options, n=1, cutoff=0.6)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            self.add(_join(path, key), f'"{value}" is not one of {_quoted(options)}{hint}')
            return None
        return str(value)

    def i2c_address(self, path: str, value: int, lo: int, hi: int, device: str) -> None:
        if not 0x08 <= value <= 0x77:
            self.add(path, f"0x{value:02X} is not a 7-bit I2C device address (0x08–0x77)")
        elif not lo <= value <= hi:
            self.add(path, f"0x{value:02X} is outside the {device} range 0x{lo:02X}–0x{hi:02X}")

    # -- sections --

    def parse(self, raw: dict[str, Any]) -> HwConfig:
        self.unknown_keys(raw, "", ("table", "console", "journal", "gpio", "i2c", "stations"))
        table = self.parse_table(raw)
        console = self.parse_console(raw)
        journal = self.parse_journal(raw)
        gpio = self.parse_gpio(raw)
        i2c = self.parse_i2c(raw)
        parts = self.parse_stations(raw, i2c)
        self.check_pins(parts, gpio, console)
        if i2c is not None:
            self.check_i2c(parts, i2c)
        self.check_spi(parts)
        if self.problems:
            raise ConfigError(self.problems)
        assert table and console and journal and gpio and i2c
        stations = tuple(
            StationConfig(index=i, input=spec, display=display)
            for i, spec, display in parts
            if spec is not None and display is not None
        )
        return HwConfig(self.source, table, console, journal, gpio, i2c, stations)

    def parse_table(self, raw: dict[str, Any]) -> TableConfig | None:
        t = self.table(raw, "", "table", True)
        if t is None:
            return None
        before = self.type_errors
        self.unknown_keys(t, "table", ("name", "kiosk", "idle_seconds", "track", "laps"))
        name = self.str_(t, "table", "name", "", required=True)
        if "name" in t and isinstance(t["name"], str) and not name.strip():
            self.add("table.name", "must not be empty")
        kiosk = self.bool_(t, "table", "kiosk", False)
        idle = self.int_(t, "table", "idle_seconds", 300)
        self.in_range("table.idle_seconds", idle, 10, 86400)
        track = self.str_(t, "table", "track", "usa")
        if not track.strip():
            self.add("table.track", "must not be empty")
        laps = self.opt_int(t, "table", "laps")
        self.in_range("table.laps", laps, 1, 10)
        if self.type_errors != before:
            return None
        return TableConfig(name=name, kiosk=kiosk, idle_seconds=idle, track=track, laps=laps)

    def parse_console(self, raw: dict[str, Any]) -> ConsoleConfig | None:
        t = self.table(raw, "", "console", True)
        if t is None:
            return None
        before = self.type_errors
        self.unknown_keys(t, "console", ("port", "baud", "staff_pin"))
        port = self.str_(t, "console", "port", "")
        baud = self.int_(t, "console", "baud", 115200)
        if baud not in BAUD_RATES:
            self.add("console.baud", f"{baud} is not one of {', '.join(map(str, BAUD_RATES))}")
        pin = ""
        if "staff_pin" not in t:
            self._type_problem("console.staff_pin", "missing required key")
        elif not isinstance(t["staff_pin"], str):
            self._type_problem(
                "console.staff_pin",
                f"expected a string of 4–8 digits in quotes, got {_describe(t['staff_pin'])}",
            )
        else:
            pin = t["staff_pin"]
            if not re.fullmatch(r"[0-9]{4,8}", pin):
                self.add("console.staff_pin", f'must be 4–8 digits, got "{pin}"')
        if self.type_errors != before:
            return None
        return ConsoleConfig(staff_pin=pin, port=port, baud=baud)

    def parse_journal(self, raw: dict[str, Any]) -> JournalConfig | None:
        t = self.table(raw, "", "journal", True)
        if t is None:
            return None
        before = self.type_errors
        self.unknown_keys(t, "journal", ("dir",))
        directory = self.str_(t, "journal", "dir", "", required=True)
        if "dir" in t and isinstance(t["dir"], str) and not directory.strip():
            self.add("journal.dir", "must not be empty")
        if self.type_errors != before:
            return None
        return JournalConfig(dir=Path(directory).expanduser())

    def parse_gpio(self, raw: dict[str, Any]) -> GpioConfig | None:
        t = self.table(raw, "", "gpio", False)
        if t is None:
            return None if "gpio" in raw else GpioConfig()
        before = self.type_errors
        self.unknown_keys(t, "gpio", ("allow_id_eeprom_pins",))
        allow = self.bool_(t, "gpio", "allow_id_eeprom_pins", False)
        if self.type_errors != before:
            return None
        return GpioConfig(allow_id_eeprom_pins=allow)

    def parse_i2c(self, raw: dict[str, Any]) -> I2cConfig | None:
        t = self.table(raw, "", "i2c", False)
        if t is None:
            return None if "i2c" in raw else I2cConfig()
        before = self.type_errors
        self.unknown_keys(t, "i2c", ("bus", "baudrate", "mux"))
        bus = self.int_(t, "i2c", "bus", 1)
        self.in_range("i2c.bus", bus, 0, 255)
        baudrate = self.int_(t, "i2c", "baudrate", 100000)
        if baudrate not in I2C_BAUDRATES:
            self.add("i2c.baudrate", f"must be 100000 or 400000, got {baudrate}")
        mux: MuxConfig | None = None
        m = self.table(t, "i2c", "mux", False)
        if m is not None:
            self.unknown_keys(m, "i2c.mux", ("type", "address", "first_bus"))
            mux_type = self.choice(m, "i2c.mux", "type", MUX_TYPES, True)
            address = self.int_(m, "i2c.mux", "address", 0x70)
            self.i2c_address("i2c.mux.address", address, 0x70, 0x77, "TCA9548A")
            first_bus = self.opt_int(m, "i2c.mux", "first_bus")
            self.in_range("i2c.mux.first_bus", first_bus, 0, 248)
            mux = MuxConfig(type=mux_type or "tca9548a", address=address, first_bus=first_bus)
        if self.type_errors != before:
            return None
        return I2cConfig(bus=bus, baudrate=baudrate, mux=mux)

    def parse_stations(
        self, raw: dict[str, Any], i2c: I2cConfig | None
    ) -> list[tuple[int, InputConfig | None, DisplayConfig | None]]:
        if "stations" not in raw:
            self._type_problem("stations", "missing required key ([[stations]])")
            return []
        stations = raw["stations"]
        if not isinstance(stations, list) or not all(isinstance(s, dict) for s in stations):
            self._type_problem(
                "stations", f"expected an array of tables ([[stations]]), got {_describe(stations)}"
            )
            return []
        if not stations:
            self.add("stations", "at least one station is required")
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

    def mux_channel(self, t: dict[str, Any], path: str, has_mux: bool) -> int | None:
        channel = self.opt_int(t, path, "mux_channel")
        if channel is not None:
            self.in_range(_join(path, "mux_channel"), channel, 0, 7)
            if not has_mux:
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
            "mcp23017": ("address", "mux_channel", "int_pin", "debounce_ms"),
            "emulated": (),
        }
        elsewhere = _used_elsewhere("kind", keys, kind)
        self.unknown_keys(t, path, ("kind", *keys[kind]), elsewhere)
        spec: InputConfig
        if kind == "gpio":
            lever = self.int_list(t, path, "lever", 4, "gears 1–4")
            slots = self.int_list(t, path, "slots", 7, "slots 0–6")
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
            channel = self.mux_channel(t, path, has_mux)
            int_pin = self.opt_int(t, path, "int_pin")
            self.pin(f"{path}.int_pin", int_pin)
            debounce = self.int_(t, path, "debounce_ms", 20)
            self.in_range(f"{path}.debounce_ms", debounce, 0, 200)
            spec = Mcp23017Input(
                address=address, mux_channel=channel, int_pin=int_pin, debounce_ms=debounce
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
            "i2c": ("address", "mux_channel"),
            "spi": ("port", "device", "dc_pin", "reset_pin"),
            "emulated": (),
        }
        if bus is None:
            allowed = ("driver", "bus", "rotate", *keys["i2c"], *keys["spi"])
            self.unknown_keys(t, path, allowed)
            return None
        elsewhere = _used_elsewhere("bus", keys, bus)
        self.unknown_keys(t, path, ("driver", "bus", "rotate", *keys[bus]), elsewhere)
        rotate = self.int_(t, path, "rotate", 0)
        self.in_range(f"{path}.rotate", rotate, 0, 3)
        display = DisplayConfig(driver=driver or "", bus=bus, rotate=rotate)
        if bus == "i2c":
            address = self.int_(t, path, "address", 0x3C)
            if address not in OLED_ADDRESSES:
                self.add(
                    f"{path}.address",
                    f"0x{address:02X} is not an SSD1306/SH1106 address (0x3C or 0x3D)",
                )
            channel = self.mux_channel(t, path, has_mux)
            display = DisplayConfig(
                driver=display.driver, bus=bus, rotate=rotate, address=address, mux_channel=channel
            )
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
            display = DisplayConfig(
                driver=display.driver,
                bus=bus,
                rotate=rotate,
                port=port,
                device=device,
                dc_pin=dc_pin,
                reset_pin=reset_pin,
            )
        if self.type_errors != before or driver is None:
            return None
        return display

    # -- cross-checks --

    def check_pins(
        self,
        parts: Sequence[tuple[int, InputConfig | None, DisplayConfig | None]],
        gpio: GpioConfig | None,
        console: ConsoleConfig | None,
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
        claims: list[_Claim] = []
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
    ) -> None:
        seen: list[I2cDeviceUse] = []
        has_mux = i2c.mux is not None
        for d in _i2c_devices(i2c, parts):
            for other in seen:
                if other.address != d.address:
                    continue
                path = d.key if d.key == "i2c.mux.address" else f"{d.key}.address"
                if other.mux_channel == d.mux_channel or not has_mux:
                    self.add(
                        path,
                        f"0x{d.address:02X} is already used by {other.key} ({other.device}) "
                        f"on {_segment(i2c.bus, d.mux_channel)}",
                    )
                    break
                if other.mux_channel is None or d.mux_channel is None:
                    self.add(
                        path,
                        f"0x{d.address:02X} clashes with {other.key} ({other.device}): a device "
                        f"on the main I2C bus {i2c.bus} answers on every mux channel",
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


# ---- command line ------------------------------------------------------------------------


def check_config_main(path: str) -> int:
    """``pitboard check-config FILE``: validate, print the pin map; 0 if valid, 2 if not.

    Problems go to stderr one per line; never a traceback. ``path`` may also be a shipped
    profile name.

    Example::

        >>> check_config_main("sim")  # doctest: +ELLIPSIS
        Hardware profile "sim" (sim.toml): 6 stations
        ...
        0
    """
    try:
        config = load_profile(path)
        text = format_pin_map(config)
    except ConfigError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return 2
    except Exception as exc:  # a bug here must still not print a traceback at a user
        print(f"{path}: internal error while checking: {exc!r}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0
