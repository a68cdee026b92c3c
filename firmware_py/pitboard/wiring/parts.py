"""Fixed facts the wiring docs draw on: the 40-pin header, connector pinouts, wire colours."""

from __future__ import annotations

from typing import Final

from pitboard.hw.mcp23017 import OUTPUT_ONLY_BIT, STATION_BITS
from pitboard.hwconfig import (
    BCM_TO_PHYSICAL,
)

from .command import COMMAND as COMMAND
from .command import DEFAULT_OUT as DEFAULT_OUT
from .command import DEFAULT_PROFILES as DEFAULT_PROFILES
from .command import EXIT_BAD_INPUT as EXIT_BAD_INPUT

#: longest suggested station cable at 400 kHz, metres (see i2c-and-cables.md): a direct-GPIO
#: station shares the main bus with every other display; a mux station has a segment of its own
GPIO_CABLE_M: Final = 1.0
MUX_CABLE_M: Final = 1.5
#: the race-control OLED's 4-wire cable from the hub: it stands beside the board, not at a seat
RACE_CONTROL_CABLE_M: Final = 0.5
SOURCE_KEY: Final = "pitboard-wiring-source-sha256"

# ---- fixed facts: the 40-pin header, connectors, colours ----------------------------------------

#: physical header pin -> power rail (every Pi with a 40-pin header)
HEADER_POWER: Final[dict[int, str]] = {
    1: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 17: "3V3", 20: "GND",
    25: "GND", 30: "GND", 34: "GND", 39: "GND",
}  # fmt: skip
_PHYSICAL_TO_BCM: Final = {phys: bcm for bcm, phys in BCM_TO_PHYSICAL.items()}
_BCM_ALT: Final = {0: "ID_SD", 1: "ID_SC", 2: "SDA1", 3: "SCL1", 14: "TXD", 15: "RXD"}

#: WireViz colour codes -> names shown in the tables
_COLOUR_NAMES: Final = {
    "BK": "black", "WH": "white", "GY": "grey", "PK": "pink", "RD": "red", "OG": "orange",
    "YE": "yellow", "GN": "green", "TQ": "turquoise", "BU": "blue", "VT": "violet",
    "BN": "brown",
}  # fmt: skip

#: the same function gets the same colour on every loose wire
FUNCTION_COLOURS: Final[dict[str, str]] = {
    "GND": "BK", "3V3": "RD", "SDA": "BU", "SCL": "YE", "INT": "OG", "RST": "VTWH",
    "GEAR1": "WH", "GEAR2": "BN", "GEAR3": "GN", "GEAR4": "GY",
    "SLOT1": "PK", "SLOT2": "VT", "SLOT3": "GYPK", "SLOT4": "RDBU", "SLOT5": "WHGN",
    "SLOT6": "BNGN", "SLOT7": "WHYE", "GO": "YEBN",
}  # fmt: skip

#: 16-pin station connector of a station wired straight to the Pi (duo). In a flat ribbon each
#: conductor couples most to its neighbours, so GND runs between SDA and SCL: clock edges would
#: otherwise couple straight into the data line (NXP UM10204 §7.5 and AN10216 advise a ground
#: or supply line between SDA and SCL in flat cables). 3V3 then shields SCL from the lever lines.
#: Tray slots count from 1 as on the station (the profile's slots = [...] list is that order).
GPIO_STATION_PINS: Final = (
    "SDA", "GND", "SCL", "3V3", "GEAR1", "GEAR2", "GEAR3", "GEAR4",
    "SLOT1", "SLOT2", "SLOT3", "SLOT4", "SLOT5", "SLOT6", "SLOT7", "GO",
)  # fmt: skip
#: RJ45 (8P8C) station jack of an MCP23017 station board: every signal twisted with a GND
RJ45_PINS: Final = ("SCL", "GND", "SDA", "3V3", "GND", "GND", "INT", "GND")
#: a resettable fuse (PPTC) in each hub port's 3V3 line, so one shorted station cable cannot
#: pull down the Pi's 3.3 V rail: Bourns MF-MSMF014, 0.14 A hold, 0.34 A trip, at most 6.5 Ohm
#: once it has tripped and cooled (Bourns MF-MSMF series data sheet): a station draws at most
#: ~25 mA, so it drops under 0.17 V.
#: what to buy for each display controller: (part, how to tell it)
OLED_MODULES: Final[dict[str, tuple[str, str]]] = {
    "ssd1306": ("OLED 128x64 0.96-inch, SSD1306 controller, I2C",
                "a 0.96-inch module; 1.3-inch ones almost always carry an SH1106 instead"),
    "sh1106": ("OLED 128x64 1.3-inch, SH1106 controller, I2C",
               "a 1.3-inch module; set column_offset if hw-test's frame is shifted"),
    "ssd1309": ("OLED 128x64 2.42-inch, SSD1309 controller, set to I2C",
                "2.42-inch modules usually ship set to SPI: move the interface resistors to "
                "I2C; their RES pin needs 10 kOhm to 3V3 and 1 uF to GND (a power-on reset)"),
}
#: pull-up on SDA and SCL of each station's bus segment (each mux channel): strong enough for
#: Fast-mode rise times on a Cat5e station cable (see i2c-and-cables.md)
PULLUP_OHMS: Final = 2200
POLYFUSE: Final = "PPTC resettable fuse, 0.14 A hold / 0.34 A trip (Bourns MF-MSMF014, 1812)"
T568B: Final = ("WHOG", "OG", "WHGN", "BU", "WHBU", "GN", "WHBN", "BN")
_RJ45_GND_LOOPS: Final = ((2, 5), (5, 6), (6, 8))

#: a TCA9548A breakout's pins, in the order the diagrams number them
MUX_PINS: Final = (
    "VIN", "GND", "SDA", "SCL", "RST", "A0", "A1", "A2",
    *(f"{line}{ch}" for ch in range(8) for line in ("SD", "SC")),
)  # fmt: skip
#: MCP23017 DIP-28 pins (SOIC-28 has the same numbering)
MCP_DIP: Final = (
    "GPB0", "GPB1", "GPB2", "GPB3", "GPB4", "GPB5", "GPB6", "GPB7", "VDD", "VSS", "NC",
    "SCL", "SDA", "NC", "A0", "A1", "A2", "RESET", "INTB", "INTA",
    "GPA0", "GPA1", "GPA2", "GPA3", "GPA4", "GPA5", "GPA6", "GPA7",
)  # fmt: skip
OLED_PINS: Final = ("GND", "VCC", "SCL", "SDA")


def _signal(function: str) -> str:
    """'lever gear 2' -> 'GEAR2', 'slot 5' -> 'SLOT5', 'GO' -> 'GO' (STATION_BITS wording)."""
    return function.replace("lever ", "").replace(" ", "").upper()


def _dip_pin(bank: str, bit: int) -> int:
    return (21 if bank == "A" else 1) + bit


def _unwired_pins() -> list[str]:
    """The MCP23017 GPIO pins STATION_BITS leaves free, in DIP order ('GPB5', ..., 'GPA7')."""
    wired = {f"GP{bank}{bit}" for bank, bit, _ in STATION_BITS}
    return [name for name in MCP_DIP if name.startswith("GP") and name not in wired]


def _output_only(name: str) -> bool:
    """GPA7 and GPB7 (output-only pins, see :data:`pitboard.hw.mcp23017.OUTPUT_ONLY_BIT`)."""
    return name.startswith("GP") and int(name[3]) == OUTPUT_ONLY_BIT


def colour_name(code: str) -> str:
    """'GYPK' -> 'grey/pink'.

    Example::

        >>> colour_name("WHOG")
        'white/orange'
    """
    parts = [code[i : i + 2] for i in range(0, len(code), 2)]
    return "/".join(_COLOUR_NAMES.get(p, p) for p in parts)


def header_label(physical: int) -> str:
    """What a header pin is: '3V3', 'GND', 'GPIO2 (SDA1)', 'GPIO17'.

    Example::

        >>> header_label(3), header_label(39), header_label(11)
        ('GPIO2 (SDA1)', 'GND', 'GPIO17')
    """
    if physical in HEADER_POWER:
        return HEADER_POWER[physical]
    bcm = _PHYSICAL_TO_BCM[physical]
    alt = _BCM_ALT.get(bcm)
    return f"GPIO{bcm}" + (f" ({alt})" if alt else "")


class WiringError(Exception):
    """A profile the wiring docs cannot draw (one line, for the user).

    Example::

        >>> str(WiringError("sim: S1 is emulated"))
        'sim: S1 is emulated'
    """
