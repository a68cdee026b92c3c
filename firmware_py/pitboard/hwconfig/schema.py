"""Hardware profiles: TOML files that say how a Pitboard table is wired.

A profile is parsed with :mod:`tomllib` into frozen dataclasses (:class:`HwConfig`) and
validated as a whole: every problem is collected and reported as one line
``<file>: <key path>: <what is wrong>`` (key paths index arrays from 0, like ``jq``:
``stations[0]`` is the first ``[[stations]]`` block, shown to people as "S1").

Schema (``*`` = required)::

    [table]*     name*, kiosk = false, track = "usa" (a track name, or a .toml track file in
                 the profile's folder), laps = 1..9 (absent = the track's own lap count)
                 kiosk only: seat_idle_seconds = 30 (a bot takes a seat whose turn it is),
                 table_idle_seconds = 120 (no press anywhere: back to the attract loop; the old
                 name idle_seconds is still read), join_seconds = 20 (lobby countdown),
                 results_seconds = 30, kiosk_cars = 4 (bots fill the seats nobody joined)
    [table.modules.NAME]  a rules module the lobby (and the kiosk's races) starts with, and its
                 options (see each module); names: the modules installed in pitboard.engine
    [table.kiosk_modules.NAME]  kiosk only: the demo's modules instead of [table.modules] (its
                 races and its attract loop; Legends give up seats to visitors who join)
    [console]*   port = "" (empty = off; a device, or a pyserial URL such as "socket://h:7000"),
                 baud = 115200, staff_pin* = "4 to 8 digits"
    [journal]*   dir*                       (relative: under $STATE_DIRECTORY with systemd, else
                                             $XDG_STATE_HOME/pitboard, ~/.local/state/pitboard)
    [gpio]       allow_id_eeprom_pins = false   (GPIO 0/1, only when no HAT is fitted)
    [i2c]        bus = 1, baudrate = 100000 | 400000 (documents config.txt i2c_arm_baudrate)
    [i2c.mux]    type* = "tca9548a", address = 0x70 (0x70-0x77), first_bus (see resolve_i2c_bus),
                 reset_pin (GPIO to the mux RESET), idle_disconnect = true (required with
                 reset_pin)
    [[i2c.extra]] more of the Pi's I2C controllers, named B, C in order ([i2c] is A), driven in
                 parallel: sda* = 22 | 12 (SCL is the next GPIO; see EXTRA_I2C), bus (the
                 /dev/i2c-N; absent = the board's own number), mux = {address, first_bus}
                 (its own TCA9548A; RESET and idle_disconnect as [i2c.mux])
    [[stations]]* at most 6, each with
      input*     kind* = "gpio":     lever* = [4 pins, gear 1..4], slots* = [7 pins], go*,
                                     debounce_ms = 20
                 kind* = "mcp23017": address = 0x20 (0x20-0x27), mux_channel (0-7), int_pin,
                                     debounce_ms = 20, controller = "A" (B, C: [[i2c.extra]])
                 kind* = "emulated"
      display*   driver* = "ssd1306" | "sh1106" | "ssd1309" (the module's controller chip),
                 bus* = "i2c" | "spi" | "emulated", rotate = 0..3,
                 column_offset = 2 (sh1106 only: first visible RAM column, 0-4)
                 bus "i2c": address = 0x3C | 0x3D, mux_channel (0-7), controller = "A"
                 bus "spi": port = 0, device = 0 | 1 (CE0/CE1), dc_pin = 24, reset_pin = 25
    [race_control] optional: one more 128x64 OLED beside the board (round, weather, race
                 order, where to move the Legend cars); without it the stations' status lines
                 say where the Legends go
      display*   as a station's display, bus "i2c" (on a spare mux channel) or "emulated"
    [web]        optional: phones as stations (pitboard.web). enabled = false, bind = "127.0.0.1"
                 (the one address to listen on: "0.0.0.0" every IPv4 address, "::" every
                 address), port = 8080, phone_seats = 0 (stations for phones after the wired
                 ones; with phone_seats, [[stations]] may be left out), url = "" (what the
                 lobby shows and its QR code holds; "" = http://<hostname>.local:<port>/),
                 open_table = false (the first phone at a table nobody holds needs no join
                 code: a table with no screen to show it, at home; never with kiosk = true)

Pins are BCM GPIO numbers. Reserved, and so refused for station wiring: 2/3 (I2C1, always),
0/1 (HAT ID EEPROM, unless ``gpio.allow_id_eeprom_pins``), 7-11 (SPI0, when an SPI display is
configured), 14/15 (UART, when the console uses the Pi's own UART: see :func:`is_pi_uart`).

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> config = load_profile("grid6")
    >>> len(config.stations), config.i2c.mux.address if config.i2c.mux else None
    (6, 112)
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias

from pitboard.userfile import escape

MAX_STATIONS: Final = 6
SHIPPED_PROFILES: Final = ("sim", "duo", "grid6", "phones")


def profiles_dir() -> Path:
    """The folder of the shipped profiles: ``pitboard/hw_config/`` inside the package, so an
    installed wheel holds them (the checkout's top-level ``hw_config`` links to it)."""
    return Path(str(resources.files("pitboard").joinpath("hw_config")))


def profile_label(path: Path) -> str:
    """How messages name a profile file: a shipped one as ``hw_config/NAME.toml`` (where an
    owner finds it in the source tree), any other by the path it was given as.

    Example::

        >>> profile_label(profiles_dir() / "duo.toml"), profile_label(Path("my.toml"))
        ('hw_config/duo.toml', 'my.toml')
    """
    try:
        shipped = path.resolve().parent == profiles_dir().resolve()
    except OSError:
        shipped = False
    return f"hw_config/{path.name}" if shipped else os.fspath(path)


#: console ports taken to claim the Pi's UART lines GPIO 14/15 (:func:`is_pi_uart`; also what
#: systemd/install-pi.sh decides enable_uart by: ``check-config --install-facts``)
PI_UART_PATTERN: Final = r"/dev/(serial[0-9]+|ttyAMA[0-9]+|ttyS[0-9]+)"
BAUD_RATES: Final = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
I2C_BAUDRATES: Final = (100000, 400000)
OLED_ADDRESSES: Final = (0x3C, 0x3D)
MUX_TYPES: Final = ("tca9548a",)
INPUT_KINDS: Final = ("gpio", "mcp23017", "emulated")
#: the display controllers luma drives: 0.96-inch modules are SSD1306, 1.3-inch ones almost always
#: SH1106 (132-column RAM), 2.42-inch ones SSD1309 (set to I2C and with RES held: see the BOM)
DISPLAY_DRIVERS: Final = ("ssd1306", "sh1106", "ssd1309")
#: SH1106 RAM is 132 columns wide; 128-pixel modules usually show columns 2..129 (SH1106 data
#: sheet V2.3, "Set Column Address"; luma's sh1106 default)
SH1106_DEFAULT_COLUMN_OFFSET: Final = 2
SH1106_MAX_COLUMN_OFFSET: Final = 132 - 128
DISPLAY_BUSES: Final = ("i2c", "spi", "emulated")
#: buses the race-control display may use: it needs no GPIO of its own on a spare mux channel
RACE_CONTROL_BUSES: Final = ("i2c", "emulated")
#: how the race-control display is named in docs, the I2C map and hw-test
RACE_CONTROL_LABEL: Final = "RC"

#: BCM GPIO number -> physical pin on the 40-pin header (every Pi with a 40-pin header)
BCM_TO_PHYSICAL: Final[dict[int, int]] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21,
    10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35,
    20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip

@dataclass(frozen=True, slots=True)
class I2cController:
    """One more of the Pi's I2C controllers on a pair of header pins, on each board.

    The same two header pins reach a different controller on a Pi 4 (BCM2711) and a Pi 5 (RP1),
    each with its own overlay and bus number (raspberrypi/linux, arch/arm/boot/dts/overlays:
    i2c5, i2c6 and i2c2-pi5, i2c3-pi5; the RP1 data sheet's GPIO function table).

    Example::

        >>> EXTRA_I2C[22].overlay("pi5"), EXTRA_I2C[22].bus("pi4")
        ('i2c3-pi5,pins_22_23', 6)
    """

    sda: int
    scl: int
    #: board -> (controller name as the i2c-mux overlay's parameter, overlay line, /dev/i2c-N,
    #: the controller's device-tree node: bcm2711.dtsi "i2c6: i2c@7e205c00", rp1.dtsi
    #: "rp1_i2c3: i2c@7c000")
    boards: tuple[tuple[str, str, str, int, str], ...]

    def _of(self, board: str) -> tuple[str, str, str, int, str]:
        for row in self.boards:
            if row[0] == board:
                return row
        raise LookupError(f"no I2C controller on GPIO {self.sda}/{self.scl} known for {board}")

    def controller(self, board: str) -> str:
        """The controller's name on ``board`` ("pi4" or "pi5"), e.g. "i2c6"."""
        return self._of(board)[1]

    def overlay(self, board: str) -> str:
        """The ``dtoverlay=`` value that puts the controller on these pins."""
        return self._of(board)[2]

    def bus(self, board: str) -> int:
        """Its /dev/i2c-N on ``board`` (fixed by the base tree's alias of the same name)."""
        return self._of(board)[3]

    def node(self, board: str) -> str:
        """The name of its device-tree node on ``board``, e.g. "i2c@7e205c00"."""
        return self._of(board)[4]


#: the controllers ``[[i2c.extra]]`` can add, by SDA pin: pins that carry an I2C controller on
#: both a Pi 4 and a Pi 5, on different controllers of each board (GPIO 4/5 and 6/7 would share
#: the Pi 5's i2c2/i2c3 with these; 8-11 are SPI0; 0/1 the HAT EEPROM)
EXTRA_I2C: Final[dict[int, I2cController]] = {
    22: I2cController(22, 23, (("pi4", "i2c6", "i2c6,pins_22_23", 6, "i2c@7e205c00"),
                                ("pi5", "i2c3", "i2c3-pi5,pins_22_23", 3, "i2c@7c000"))),
    12: I2cController(12, 13, (("pi4", "i2c5", "i2c5,pins_12_13", 5, "i2c@7e205a00"),
                                ("pi5", "i2c2", "i2c2-pi5,pins_12_13", 2, "i2c@78000"))),
}
#: the pull-ups an [[i2c.extra]] controller needs on the hub, Pi side of its mux: unlike GPIO 2/3
#: (1.8 kOhm on the Pi), these pins have none on the board
EXTRA_PULL_UP: Final = "4.7k on the hub"
#: names of the I2C controllers of a profile: [i2c] is A, [[i2c.extra]] B, C
CONTROLLER_NAMES: Final = ("A", "B", "C")

# GPIO lines claimed by kernel drivers for the shared buses.
_I2C1_PINS: Final = {2: "I2C1 SDA", 3: "I2C1 SCL"}
_SPI0_PINS: Final = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
_UART_PINS: Final = {14: "UART TXD", 15: "UART RXD"}
_ID_PINS: Final = {0: "ID_SD", 1: "ID_SC"}


def is_pi_uart(port: str) -> bool:
    """True when a console port is one of the Pi's own UARTs, and so claims GPIO 14/15.

    The one rule for the whole project (``systemd/install-pi.sh`` writes ``enable_uart=1`` by
    it, asking ``check-config --install-facts``): every ``/dev/serialN`` alias, PL011
    ``/dev/ttyAMAN`` and mini UART ``/dev/ttySN``. Which of them is actually wired to GPIO 14/15
    depends on the model and on config.txt: ``serial0`` is the header UART on a Pi 4 but by
    default the debug connector's ``ttyAMA10`` on a Pi 5, ``ttyAMA0`` is GPIO 14/15 on a Pi 4
    and a Pi 5, and ``ttyAMA1`` and up are further UARTs (overlays on other pins on a Pi 4).
    Rather than guess, every one of them keeps GPIO 14/15 away from station wiring. USB adapters
    (``/dev/ttyUSB0``, ``/dev/ttyACM0``, ``/dev/serial/by-id/...``) are not the Pi's UART.

    Example::

        >>> [is_pi_uart(p) for p in ("/dev/serial0", "/dev/ttyAMA1", "/dev/ttyUSB0")]
        [True, True, False]
    """
    return re.fullmatch(PI_UART_PATTERN, port) is not None


class ConfigError(Exception):
    """A hardware profile that cannot be used; ``problems`` holds one line per problem.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> try:
        ...     load_profile("nosuch")
        ... except ConfigError as exc:
        ...     print(exc.problems[0])
        nosuch: unknown profile (shipped profiles: sim, duo, grid6, phones)
    """

    def __init__(self, problems: Sequence[str]) -> None:
        # one line each, whatever a value or a path held (a newline, an ANSI escape)
        self.problems = [escape(problem) for problem in problems]
        super().__init__("\n".join(self.problems))


# ---- the configuration -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The table as a whole.

    Example::

        >>> TableConfig(name="Club table", kiosk=True, seat_idle_seconds=20).table_idle_seconds
        120
    """

    name: str
    kiosk: bool = False
    track: str = "usa"
    #: None = the track's own lap count
    laps: int | None = None
    #: kiosk: a seat untouched this long while the table waits for it goes to a bot
    seat_idle_seconds: int = 30
    #: kiosk: no press at any station this long (a race, or its results) -> the attract loop
    table_idle_seconds: int = 120
    #: kiosk: lobby countdown after the first player presses GO
    join_seconds: int = 20
    #: kiosk: how long the results stay up before the attract loop returns
    results_seconds: int = 30
    #: kiosk: cars in a race (at least one per player who joined); bots take the others
    kiosk_cars: int = 4
    #: rules modules the lobby starts with (RaceSetup.modules): name -> options
    modules: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: kiosk: the demo's rules modules (its races and its attract loop); None = ``modules``
    kiosk_modules: dict[str, dict[str, Any]] | None = None


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
class WebConfig:
    """The web server for phone stations (``[web]``; see :mod:`pitboard.web`).

    Example::

        >>> WebConfig(enabled=True, bind="0.0.0.0", phone_seats=4).port
        8080
    """

    enabled: bool = False
    #: the one address the server listens on ("0.0.0.0": every IPv4 address, "::": every one)
    bind: str = "127.0.0.1"
    port: int = 8080
    #: stations for phones after the wired ones (phones may also take emulated stations)
    phone_seats: int = 0
    #: the address the lobby shows and its QR code holds ("": http://<hostname>.local:<port>/)
    url: str = ""
    #: the first phone at a table nobody holds joins without the code (a table with no screen)
    open_table: bool = False

    @property
    def on_lan(self) -> bool:
        """True when the server is on and listens beyond this machine (not on a loopback).

        Example::

            >>> WebConfig(enabled=True, bind="0.0.0.0").on_lan, WebConfig(enabled=True).on_lan
            (True, False)
        """
        import ipaddress  # here, not at the top: wiring-docs --help reads this file's constants

        return self.enabled and not ipaddress.ip_address(self.bind).is_loopback


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
    #: Pi GPIO wired to the mux's active-low RESET: pulsed when the bus hangs, so one station
    #: board holding SDA low cannot stop the others (None: RESET pulled up on the board only)
    reset_pin: int | None = None
    #: deselect every channel after each transfer (the pca954x driver's ``idle_state`` -2), so
    #: a dead channel is cut off from the bus between transfers
    idle_disconnect: bool = True


@dataclass(frozen=True, slots=True)
class ExtraI2cConfig:
    """Another of the Pi's I2C controllers (``[[i2c.extra]]``), with its own TCA9548A.

    Example::

        >>> ExtraI2cConfig(sda=22).pins.scl
        23
    """

    #: the SDA pin; a key of :data:`EXTRA_I2C`
    sda: int
    #: /dev/i2c-N; None = the board's own number (:meth:`I2cController.bus`)
    bus: int | None = None
    mux: MuxConfig | None = None

    @property
    def pins(self) -> I2cController:
        """The controller on these pins, per board."""
        return EXTRA_I2C[self.sda]


@dataclass(frozen=True, slots=True)
class I2cConfig:
    """The I2C buses that station boards and OLEDs hang on: bus ``bus`` (controller "A") and
    any ``extra`` controllers ("B", "C"), all at ``baudrate``.

    Example::

        >>> I2cConfig(baudrate=400000).bus, I2cConfig().controllers
        (1, ('A',))
    """

    bus: int = 1
    baudrate: int = 100000
    mux: MuxConfig | None = None
    extra: tuple[ExtraI2cConfig, ...] = ()

    @property
    def controllers(self) -> tuple[str, ...]:
        """The controllers' names: "A" and one letter per extra controller."""
        return CONTROLLER_NAMES[: 1 + len(self.extra)]

    def mux_of(self, controller: str) -> MuxConfig | None:
        """The TCA9548A on ``controller`` (None: no mux there)."""
        if controller == "A":
            return self.mux
        return self.extra_of(controller).mux

    def extra_of(self, controller: str) -> ExtraI2cConfig:
        """The ``[[i2c.extra]]`` entry named ``controller`` ("B", "C")."""
        index = CONTROLLER_NAMES.index(controller) - 1
        if not 0 <= index < len(self.extra):
            raise LookupError(f"no I2C controller {controller} in this profile")
        return self.extra[index]


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
    #: the I2C controller its cable is on: "A" ([i2c]) or "B", "C" ([[i2c.extra]])
    controller: str = "A"

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
    #: sh1106 only: the RAM column shown as the panel's first pixel column (None: the default, 2)
    column_offset: int | None = None
    #: i2c only: the I2C controller: "A" ([i2c]) or "B", "C" ([[i2c.extra]])
    controller: str = "A"


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
class TvConfig:
    """A TV on this machine's HDMI (``[tv]``; README "The race on a TV").

    Example::

        >>> TvConfig().screen
        False
    """

    #: open the track view full-screen on this machine's screen at boot (``pitboard tv``,
    #: started by the desktop: install-pi.sh sets it up); the web server runs for it even with
    #: ``[web]`` off, on its address (by default this machine only). Default: the kiosk's
    #: setting (a store's kiosk shows the race on a TV)
    screen: bool = False


@dataclass(frozen=True, slots=True)
class HwConfig:
    """A whole validated hardware profile.

    Example::

        >>> from pitboard.hwconfig import load_profile
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
    #: the optional race-control display (``[race_control] display``); None: none fitted
    race_control: DisplayConfig | None = None
    #: the web server for phone stations (``[web]``; off by default)
    web: WebConfig = field(default_factory=WebConfig)
    #: a TV on this machine's screen (``[tv]``)
    tv: TvConfig = field(default_factory=TvConfig)

    @property
    def serves_web(self) -> bool:
        """The web server runs: for phones and TVs on the LAN, or for this machine's TV."""
        return self.web.enabled or self.tv.screen

    @property
    def seats(self) -> int:
        """Stations the table has: the wired ones, then the phone seats (when the web is on)."""
        return len(self.stations) + (self.web.phone_seats if self.web.enabled else 0)

    @property
    def name(self) -> str:
        """The profile name (file name without .toml)."""
        return self.source.stem

    @property
    def label(self) -> str:
        """The profile file as messages name it (:func:`profile_label`)."""
        return profile_label(self.source)
