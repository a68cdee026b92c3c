"""Wiring docs generated from hardware profiles: pin tables, WireViz harnesses, BOM, config.txt.

``pitboard wiring-docs`` (:func:`main`) writes, for each profile (``duo`` and ``grid6`` by
default), into ``wiring_docs/``:

* ``<profile>.md``: config.txt lines, the Pi header pin table, I2C addresses per bus and mux
  channel, stations, OLED connections and the full wire list;
* ``<profile>-bom.md``: the bill of materials, quantities computed from the profile;
* ``<profile>-harness.yaml``: the WireViz harness, rendered to ``.svg`` and ``.png``.

Profile-independent parts (the station board pinouts, the MCP23017 pin table, the pull-up table
and the file index) are written between ``BEGIN GENERATED``/``END GENERATED`` markers into the
hand-written ``station-board.md``, ``i2c-and-cables.md`` and ``README.md``; text outside the
markers is left alone. ``station-board-harness.yaml`` draws one MCP23017 station board.

Rendering needs WireViz (``pip install -e '.[docs]'``) and Graphviz ``dot``; a rendered file
carries the SHA-256 of the YAML it was drawn from (an SVG comment, a PNG text chunk), so
``--check`` can tell a stale drawing without ``dot``, and unchanged YAML is not redrawn.

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> docs = generate(load_profile("grid6"))
    >>> sorted(docs)[:2]
    ['grid6-bom.md', 'grid6-harness.yaml']
    >>> config_txt_lines(load_profile("grid6"))[2]
    'dtoverlay=i2c-mux,pca9548,addr=0x70'
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import io
import json
import re
import shutil
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pitboard.hw.mcp23017 import OUTPUT_ONLY_BIT, STATION_BITS
from pitboard.hwconfig import (
    BCM_TO_PHYSICAL,
    ConfigError,
    GpioInput,
    HwConfig,
    Mcp23017Input,
    i2c_map,
    load_profile,
    pin_map,
    resolve_i2c_bus,
)

DEFAULT_PROFILES: Final = ("duo", "grid6")
DEFAULT_OUT: Final = Path("wiring_docs")
COMMAND: Final = "pitboard wiring-docs"
#: exit status for bad input (unknown or unsupported profile)
EXIT_BAD_INPUT: Final = 2
#: longest suggested station cable at 400 kHz, metres (see i2c-and-cables.md): a direct-GPIO
#: station shares the main bus with every other display; a mux station has a segment of its own
GPIO_CABLE_M: Final = 1.0
MUX_CABLE_M: Final = 1.5
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
    "GND": "BK", "3V3": "RD", "SDA": "BU", "SCL": "YE", "INT": "OG",
    "GEAR1": "WH", "GEAR2": "BN", "GEAR3": "GN", "GEAR4": "GY",
    "SLOT0": "PK", "SLOT1": "VT", "SLOT2": "GYPK", "SLOT3": "RDBU", "SLOT4": "WHGN",
    "SLOT5": "BNGN", "SLOT6": "WHYE", "GO": "YEBN",
}  # fmt: skip

#: 16-pin station connector of a station wired straight to the Pi (duo)
GPIO_STATION_PINS: Final = (
    "GND", "3V3", "SDA", "SCL", "GEAR1", "GEAR2", "GEAR3", "GEAR4",
    "SLOT0", "SLOT1", "SLOT2", "SLOT3", "SLOT4", "SLOT5", "SLOT6", "GO",
)  # fmt: skip
#: RJ45 (8P8C) station jack of an MCP23017 station board: every signal twisted with a GND
RJ45_PINS: Final = ("SCL", "GND", "SDA", "3V3", "GND", "GND", "INT", "GND")
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


# ---- the harness model ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connector:
    """A connector, module or board in a harness (a WireViz connector).

    Example::

        >>> Connector("X1", "S1 station connector", "16 pins", ("GND", "3V3")).pincount
        2
    """

    name: str
    type: str
    subtype: str
    pinlabels: tuple[str, ...]
    notes: str = ""
    hide_disconnected_pins: bool = False
    loops: tuple[tuple[int, int], ...] = ()

    @property
    def pincount(self) -> int:
        """Number of pins (pins are numbered 1..pincount)."""
        return len(self.pinlabels)


@dataclass(frozen=True, slots=True)
class Cable:
    """A cable, or a bundle of loose wires; wires are numbered 1..len(colours).

    Example::

        >>> Cable("C1", "Cat5e patch cable", T568B, RJ45_PINS, length_m=1.5).wirecount
        8
    """

    name: str
    type: str
    colours: tuple[str, ...]
    labels: tuple[str, ...]
    length_m: float | None = None
    gauge_mm2: float | None = None
    bundle: bool = False
    notes: str = ""

    @property
    def wirecount(self) -> int:
        """Number of wires."""
        return len(self.colours)


@dataclass(frozen=True, slots=True)
class Wire:
    """One wire: from a connector pin, through wire ``number`` of ``cable``, to a connector pin.

    Example::

        >>> Wire("W1", 1, "PI", 39, "X1", 1).cable
        'W1'
    """

    cable: str
    number: int
    src: str
    src_pin: int
    dst: str
    dst_pin: int


@dataclass(slots=True)
class Harness:
    """Connectors, cables and wires; the source of the pin tables, wire lists and WireViz YAML.

    Example::

        >>> h = Harness("demo")
        >>> h.add_connector(Connector("A", "a", "", ("GND",)))
        >>> h.add_connector(Connector("B", "b", "", ("GND",)))
        >>> h.add_cable(Cable("W1", "wire", ("BK",), ("GND",)))
        >>> h.connect("W1", 1, "A", 1, "B", 1)
        >>> h.wireviz()["connections"]
        [[{'A': [1]}, {'W1': [1]}, {'B': [1]}]]
    """

    title: str
    connectors: dict[str, Connector] = field(default_factory=dict)
    cables: dict[str, Cable] = field(default_factory=dict)
    wires: list[Wire] = field(default_factory=list)

    def add_connector(self, connector: Connector) -> None:
        """Add a connector (names are unique)."""
        assert connector.name not in self.connectors, connector.name
        self.connectors[connector.name] = connector

    def add_cable(self, cable: Cable) -> None:
        """Add a cable (names are unique)."""
        assert cable.name not in self.cables, cable.name
        self.cables[cable.name] = cable

    def connect(
        self, cable: str, number: int, src: str, src_pin: int, dst: str, dst_pin: int
    ) -> None:
        """Run wire ``number`` of ``cable`` from ``src:src_pin`` to ``dst:dst_pin``."""
        assert 1 <= number <= self.cables[cable].wirecount, (cable, number)
        assert 1 <= src_pin <= self.connectors[src].pincount, (src, src_pin)
        assert 1 <= dst_pin <= self.connectors[dst].pincount, (dst, dst_pin)
        self.wires.append(Wire(cable, number, src, src_pin, dst, dst_pin))

    def label(self, connector: str, pin: int) -> str:
        """The label of a connector pin."""
        return self.connectors[connector].pinlabels[pin - 1]

    def wireviz(self) -> dict[str, Any]:
        """The harness as a WireViz 0.4 document (a dict ready for YAML)."""
        connectors: dict[str, Any] = {}
        for c in self.connectors.values():
            entry: dict[str, Any] = {"type": c.type}
            if c.subtype:
                entry["subtype"] = c.subtype
            entry["pinlabels"] = list(c.pinlabels)
            if c.hide_disconnected_pins:
                entry["hide_disconnected_pins"] = True
            if c.loops:
                entry["loops"] = [list(loop) for loop in c.loops]
            if c.notes:
                entry["notes"] = c.notes
            connectors[c.name] = entry
        cables: dict[str, Any] = {}
        for w in self.cables.values():
            entry = {"type": w.type}
            if w.bundle:
                entry["category"] = "bundle"
            if w.gauge_mm2 is not None:
                entry["gauge"] = w.gauge_mm2  # WireViz's default unit is mm2
            if w.length_m is not None:
                entry["length"] = w.length_m
            entry["colors"] = list(w.colours)
            entry["wirelabels"] = list(w.labels)
            if w.notes:
                entry["notes"] = w.notes
            cables[w.name] = entry
        # one connection set per (cable, from, to), in the order the wires were added
        groups: dict[tuple[str, str, str], list[Wire]] = {}
        for wire in self.wires:
            groups.setdefault((wire.cable, wire.src, wire.dst), []).append(wire)
        connections = [
            [
                {src: [w.src_pin for w in group]},
                {cable: [w.number for w in group]},
                {dst: [w.dst_pin for w in group]},
            ]
            for (cable, src, dst), group in groups.items()
        ]
        return {
            "metadata": {"title": self.title},
            "connectors": connectors,
            "cables": cables,
            "connections": connections,
        }


# ---- a profile's harness -------------------------------------------------------------------------


def _check_supported(config: HwConfig) -> None:
    if config.i2c.bus != 1:
        raise WiringError(
            f"{config.name}: i2c.bus = {config.i2c.bus}: the wiring docs cover I2C bus 1 "
            "(i2c_arm, header pins 3/5) only"
        )
    for s in config.stations:
        d = s.display
        if not isinstance(s.input, GpioInput | Mcp23017Input):
            raise WiringError(
                f"{config.name}: {s.label} input is {s.input.kind}: nothing to wire "
                "(the wiring docs cover gpio and mcp23017 stations)"
            )
        if d.bus != "i2c" or d.address is None:
            raise WiringError(
                f"{config.name}: {s.label} display is on {d.bus}: the wiring docs cover "
                "I2C displays only"
            )
        if isinstance(s.input, Mcp23017Input) and s.input.mux_channel != d.mux_channel:
            raise WiringError(
                f"{config.name}: {s.label}: the MCP23017 and the display must share one I2C "
                "segment (the same mux_channel): one station cable carries both"
            )


def _gnd_pin(pins: Iterable[int], taken: set[int]) -> int:
    """A header GND pin in the column most of ``pins`` use, highest first, unused if possible."""
    pins = list(pins)
    odd = sum(p % 2 for p in pins) * 2 >= len(pins)
    gnds = [p for p in sorted(HEADER_POWER, reverse=True) if HEADER_POWER[p] == "GND"]
    column = [p for p in gnds if (p % 2 == 1) == odd]
    for candidates in (column, gnds):
        for p in candidates:
            if p not in taken:
                return p
    return column[0]


def build_harness(config: HwConfig) -> Harness:
    """The wiring of a profile: the Pi header, hub (mux profiles), cables and station connectors.

    A ``gpio`` station gets a 16-core cable ``W<n>`` from the Pi header to its 16-pin station
    connector ``X<n>`` (:data:`GPIO_STATION_PINS`). An ``mcp23017`` station gets hub wiring
    ``H<n>`` to hub jack ``J<n>`` and a Cat5e patch cable ``C<n>`` to its station board jack
    ``P<n>`` (:data:`RJ45_PINS`). With a mux, ``W0`` feeds the hub's 3V3/GND rails and the
    TCA9548A; a console on the Pi UART gets ``WC`` to the staff console adapter.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> h = build_harness(load_profile("duo"))
        >>> sorted(h.cables), h.label("X1", 5)
        (['W1', 'W2'], 'GEAR1')
    """
    _check_supported(config)
    mux = config.i2c.mux
    h = Harness(f'Pitboard "{config.name}": {config.table.name}')
    h.add_connector(
        Connector(
            "PI",
            "Raspberry Pi 40-pin header",
            "screw-terminal breakout (or female jumpers)",
            tuple(header_label(p) for p in range(1, 41)),
            notes="BCM numbers; only the pins in use are shown",
            hide_disconnected_pins=True,
        )
    )
    has_mcp = any(isinstance(s.input, Mcp23017Input) for s in config.stations)
    hub = mux is not None or has_mcp
    if hub:
        h.add_connector(
            Connector("PWR", "hub board power rails", "perfboard strips", ("3V3", "GND"))
        )
        w0 = ["3V3", "GND"] + (["SDA", "SCL"] if mux is not None else [])
        h.add_cable(
            Cable(
                "W0",
                "Pi to hub board",
                tuple(FUNCTION_COLOURS[s] for s in w0),
                tuple(w0),
                length_m=0.15,
                bundle=True,
                notes="short jumper wires",
            )
        )
        h.connect("W0", 1, "PI", 1, "PWR", 1)
        h.connect("W0", 2, "PI", 9, "PWR", 2)
    if mux is not None:
        a = mux.address - 0x70
        straps = " ".join(f"A{i}={'3V3' if a >> i & 1 else 'GND'}" for i in (2, 1, 0))
        h.add_connector(
            Connector(
                "MUX",
                f"TCA9548A I2C mux, 0x{mux.address:02X}",
                "breakout board",
                MUX_PINS,
                notes=f"{straps}; RST pulled up on the board. Pin order varies: go by the labels",
                hide_disconnected_pins=True,
            )
        )
        h.connect("W0", 3, "PI", 3, "MUX", MUX_PINS.index("SDA") + 1)
        h.connect("W0", 4, "PI", 5, "MUX", MUX_PINS.index("SCL") + 1)
        h.add_cable(Cable("WM", "mux power", ("RD", "BK"), ("3V3", "GND"), bundle=True))
        h.connect("WM", 1, "PWR", 1, "MUX", 1)
        h.connect("WM", 2, "PWR", 2, "MUX", 2)

    def i2c_source(channel: int | None, line: str) -> tuple[str, int]:
        if channel is None:
            return "PI", 3 if line == "SDA" else 5
        return "MUX", MUX_PINS.index(f"{line[:2]}{channel}") + 1

    taken_gnd: set[int] = set()
    power_pins = [1, 17]
    for s in config.stations:
        n = s.index + 1
        spec = s.input
        channel = s.display.mux_channel
        if isinstance(spec, GpioInput):
            inputs = [*spec.lever, *spec.slots, spec.go]
            phys = [BCM_TO_PHYSICAL[p] for p in inputs]
            gnd = _gnd_pin(phys, taken_gnd)
            taken_gnd.add(gnd)
            conn, cable = f"X{n}", f"W{n}"
            h.add_connector(
                Connector(
                    conn,
                    f"{s.label} station connector",
                    "16 pins: 2x8 box header or screw terminals",
                    GPIO_STATION_PINS,
                    notes="lever contacts and buttons close to GND; 1 kOhm in series on the board",
                )
            )
            h.add_cable(
                Cable(
                    cable,
                    f"{s.label} station cable, 16 cores",
                    tuple(FUNCTION_COLOURS[p] for p in GPIO_STATION_PINS),
                    GPIO_STATION_PINS,
                    length_m=GPIO_CABLE_M,
                    gauge_mm2=0.14,
                )
            )
            h.connect(cable, 1, "PI", gnd, conn, 1)
            if hub:
                h.connect(cable, 2, "PWR", 1, conn, 2)
            else:
                h.connect(cable, 2, "PI", power_pins[s.index % 2], conn, 2)
            for i, line in enumerate(("SDA", "SCL")):
                src, pin = i2c_source(channel, line)
                h.connect(cable, 3 + i, src, pin, conn, 3 + i)
            for i, p in enumerate(phys):
                h.connect(cable, 5 + i, "PI", p, conn, 5 + i)
        elif isinstance(spec, Mcp23017Input):
            jack, board, hub_wires, cable = f"J{n}", f"P{n}", f"H{n}", f"C{n}"
            h.add_connector(
                Connector(
                    jack,
                    f"hub jack {s.label}",
                    "RJ45 (8P8C), T568B",
                    RJ45_PINS,
                    notes="never plug an Ethernet device in here",
                    loops=_RJ45_GND_LOOPS,
                )
            )
            h.add_connector(
                Connector(
                    board,
                    f"{s.label} station board jack",
                    "RJ45 (8P8C), T568B",
                    RJ45_PINS,
                    notes="station-board.md",
                    loops=_RJ45_GND_LOOPS,
                )
            )
            labels = ["SCL", "GND", "SDA", "3V3"] + (["INT"] if spec.int_pin is not None else [])
            h.add_cable(
                Cable(
                    hub_wires,
                    f"hub wiring {s.label}",
                    tuple(FUNCTION_COLOURS[x] for x in labels),
                    tuple(labels),
                    bundle=True,
                )
            )
            for i, line in ((1, "SCL"), (3, "SDA")):
                src, pin = i2c_source(channel, line)
                h.connect(hub_wires, labels.index(line) + 1, src, pin, jack, i)
            h.connect(hub_wires, 2, "PWR", 2, jack, 2)
            h.connect(hub_wires, 4, "PWR", 1, jack, 4)
            if spec.int_pin is not None:
                h.connect(hub_wires, 5, "PI", BCM_TO_PHYSICAL[spec.int_pin], jack, 7)
            h.add_cable(
                Cable(
                    cable,
                    f"{s.label} station cable: Cat5e patch, straight",
                    T568B,
                    RJ45_PINS,
                    length_m=MUX_CABLE_M,
                )
            )
            for pin in range(1, 9):
                h.connect(cable, pin, jack, pin, board, pin)
    if config.console.uses_pi_uart:
        h.add_connector(
            Connector(
                "CON",
                "staff console",
                "3.3 V USB-serial adapter (TTL, not RS-232)",
                ("GND", "RXD", "TXD"),
            )
        )
        h.add_cable(Cable("WC", "console jumpers", ("BK", "WH", "GN"), ("GND", "Pi TXD", "Pi RXD"),
                          bundle=True))
        h.connect("WC", 1, "PI", 6, "CON", 1)
        h.connect("WC", 2, "PI", 8, "CON", 2)
        h.connect("WC", 3, "PI", 10, "CON", 3)
    return h


def station_board_harness() -> Harness:
    """One MCP23017 station board (the same for every station of a mux profile).

    Example::

        >>> station_board_harness().label("U1", 21)
        'GPA0'
    """
    h = Harness("Pitboard MCP23017 station board (every station)")
    h.add_connector(Connector("P", "station board jack", "RJ45 (8P8C), T568B", RJ45_PINS,
                              loops=_RJ45_GND_LOOPS))
    h.add_connector(Connector("RAIL", "board rails", "perfboard strips", ("3V3", "GND")))
    h.add_connector(
        Connector(
            "U1",
            "MCP23017",
            "DIP-28 in a socket",
            MCP_DIP,
            notes="100 nF from VDD (9) to VSS (10), close to the chip; "
            f"{', '.join(_unwired_pins())} unconnected (GPA7/GPB7: output-only)",
            hide_disconnected_pins=True,
        )
    )
    h.add_connector(Connector("OLED", "128x64 OLED, I2C", "SSD1306 or SH1106 module", OLED_PINS,
                              notes="pin order varies between modules: go by the labels"))
    h.add_connector(Connector("LEVER", "gear lever", "4 contacts + common",
                              ("COM", "GEAR1", "GEAR2", "GEAR3", "GEAR4")))
    buttons = [(_signal(f), bank, bit) for bank, bit, f in STATION_BITS if "lever" not in f]
    for name, _, _ in buttons:
        h.add_connector(Connector(f"SW_{name}", f"{name} button", "momentary, normally open",
                                  ("A", "B")))

    def bundle(name: str, labels: Sequence[str], what: str) -> None:
        h.add_cable(Cable(name, what, tuple(FUNCTION_COLOURS[x] for x in labels), tuple(labels),
                          bundle=True))

    bundle("B1", ("3V3", "GND"), "jack to rails")
    h.connect("B1", 1, "P", 4, "RAIL", 1)
    h.connect("B1", 2, "P", 2, "RAIL", 2)
    bundle("B2", ("SCL", "SDA", "INT"), "bus to the MCP23017")
    h.connect("B2", 1, "P", 1, "U1", 12)
    h.connect("B2", 2, "P", 3, "U1", 13)
    h.connect("B2", 3, "U1", 20, "P", 7)
    bundle("B3", ("3V3", "3V3", "GND", "GND", "GND", "GND"), "MCP23017 power, reset, address")
    for i, (rail, pin) in enumerate(((1, 9), (1, 18), (2, 10), (2, 15), (2, 16), (2, 17)), 1):
        h.connect("B3", i, "RAIL", rail, "U1", pin)
    bundle("B4", ("SCL", "SDA"), "bus to the OLED")
    h.connect("B4", 1, "P", 1, "OLED", 3)
    h.connect("B4", 2, "P", 3, "OLED", 4)
    bundle("B5", ("GND", "3V3"), "OLED power")
    h.connect("B5", 1, "RAIL", 2, "OLED", 1)
    h.connect("B5", 2, "RAIL", 1, "OLED", 2)
    gears = [(_signal(f), bank, bit) for bank, bit, f in STATION_BITS if "lever" in f]
    bundle("B6", [g for g, _, _ in gears], "lever contacts")
    for i, (_, bank, bit) in enumerate(gears, 1):
        h.connect("B6", i, "U1", _dip_pin(bank, bit), "LEVER", i + 1)
    bundle("B7", [b for b, _, _ in buttons], "buttons")
    for i, (name, bank, bit) in enumerate(buttons, 1):
        h.connect("B7", i, "U1", _dip_pin(bank, bit), f"SW_{name}", 1)
    bundle("B8", ["GND"] * (len(buttons) + 1), "common GND")
    h.connect("B8", 1, "RAIL", 2, "LEVER", 1)
    for i, (name, _, _) in enumerate(buttons, 2):
        h.connect("B8", i, "RAIL", 2, f"SW_{name}", 2)
    return h


# ---- YAML -------------------------------------------------------------------------------------


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", value) and value.lower() not in (
            "true", "false", "yes", "no", "on", "off", "null", "y", "n",
        ):  # fmt: skip
            return value
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"cannot write {type(value).__name__} as YAML")


def _inline(value: Any) -> str | None:
    if isinstance(value, list) and all(not isinstance(v, list | dict) for v in value):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    if isinstance(value, list | dict):
        return None
    return _scalar(value)


def to_yaml(value: Any, indent: int = 0) -> list[str]:
    """Block-style YAML lines for dicts, lists and scalars (lists of scalars inline).

    Example::

        >>> print("\\n".join(to_yaml({"a": [1, 2], "b": [{"c": "x y"}]})))
        a: [1, 2]
        b:
          - c: "x y"
    """
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            text = _inline(item)
            if text is not None:
                lines.append(f"{pad}{_scalar(key)}: {text}")
            else:
                lines.append(f"{pad}{_scalar(key)}:")
                lines += to_yaml(item, indent + 2)
    elif isinstance(value, list):
        for item in value:
            text = _inline(item)
            if text is not None:
                lines.append(f"{pad}- {text}")
            elif isinstance(item, dict):
                inner = to_yaml(item, indent + 2)
                lines.append(f"{pad}- {inner[0].lstrip()}")
                lines += inner[1:]
            else:
                inner = to_yaml(item, indent + 2)
                lines.append(f"{pad}- {inner[0].lstrip()}")
                lines += inner[1:]
    else:
        lines.append(pad + _scalar(value))
    return lines


def harness_yaml(harness: Harness, source: str) -> str:
    """The WireViz YAML of a harness, with a 'generated' header naming ``source``."""
    head = [
        f"# GENERATED by `{COMMAND}` from {source}: do not edit; run `{COMMAND}`.",
        "# WireViz 0.4 harness (pip install -e '.[docs]'; needs Graphviz `dot` to render).",
    ]
    return "\n".join(head + to_yaml(harness.wireviz())) + "\n"


# ---- Markdown helpers -------------------------------------------------------------------------


def _table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    def cell(v: object) -> str:
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


def _wire_colour(code: str) -> str:
    return f"{code} ({colour_name(code)})"


def _generated_note(source: str) -> list[str]:
    return [
        f"<!-- GENERATED by `{COMMAND}` from {source}: do not edit; run `{COMMAND}` -->",
        "",
    ]


def _begin(key: str) -> str:
    return f"<!-- BEGIN GENERATED {key}: do not edit; run `{COMMAND}` -->"


def _end(key: str) -> str:
    return f"<!-- END GENERATED {key} -->"


def _end_name(h: Harness, connector: str, pin: int) -> str:
    c = h.connectors[connector]
    if connector == "PI":
        return f"Pi pin {pin} ({c.pinlabels[pin - 1]})"
    return f"{connector} {c.pinlabels[pin - 1]}" + (f" (pin {pin})" if c.pincount > 2 else "")


# ---- config.txt ---------------------------------------------------------------------------------


def config_txt_lines(config: HwConfig) -> list[str]:
    """The config.txt lines for a profile: the block ``systemd/install-pi.sh`` writes.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> config_txt_lines(load_profile("duo"))
        ['[all]', 'dtparam=i2c_arm=on,i2c_arm_baudrate=400000', 'enable_uart=0', 'dtparam=spi=off']
    """
    lines = ["[all]", f"dtparam=i2c_arm=on,i2c_arm_baudrate={config.i2c.baudrate}"]
    if config.i2c.mux is not None:
        lines.append(f"dtoverlay=i2c-mux,pca9548,addr=0x{config.i2c.mux.address:02x}")
    lines.append("enable_uart=1" if config.console.uses_pi_uart else "enable_uart=0")
    spi = any(s.display.bus == "spi" for s in config.stations)
    lines.append("dtparam=spi=on" if spi else "dtparam=spi=off")
    return lines


def _linux_bus(config: HwConfig, channel: int | None) -> str:
    mux = config.i2c.mux
    if channel is None or mux is None:
        return f"`/dev/i2c-{config.i2c.bus}`"
    if mux.first_bus is not None:
        return f"`/dev/i2c-{resolve_i2c_bus(config.i2c, channel)}` (first_bus)"
    return f"`/dev/i2c-N`, N from `{config.i2c.bus}-00{mux.address:02x}/channel-{channel}`"


def _address_setting(device: str, address: int) -> str:
    if "TCA9548A" in device:
        a = address - 0x70
    elif "MCP23017" in device:
        a = address - 0x20
    else:
        marked = "0x78" if address == 0x3C else "0x7A"
        return f"module address select at 0x{address:02X} (often marked {marked})"
    return " ".join(f"A{i}={'3V3' if a >> i & 1 else 'GND'}" for i in (2, 1, 0))


# ---- the profile document ---------------------------------------------------------------------


def profile_doc(config: HwConfig, harness: Harness) -> str:
    """``<profile>.md``: everything needed to wire the profile."""
    name = config.name
    source = f"hw_config/{config.source.name}"
    mux = config.i2c.mux
    n = len(config.stations)
    gpio_st = [s for s in config.stations if isinstance(s.input, GpioInput)]
    mcp_st = [s for s in config.stations if isinstance(s.input, Mcp23017Input)]
    out = _generated_note(source)
    out += [
        f'# Wiring: {name} ("{config.table.name}")',
        "",
        f"_Generated from `{source}` by `{COMMAND}`: do not edit; change the profile and "
        "run it again._",
        "",
    ]
    kinds = []
    if gpio_st:
        kinds.append(f"{len(gpio_st)} wired straight to the Pi's GPIO header (16-core cable each)")
    if mcp_st:
        kinds.append(
            f"{len(mcp_st)} on MCP23017 station boards"
            + (" behind a TCA9548A I2C mux" if mux else "")
            + " (Cat5e patch cable each)"
        )
    out += [
        f"{n} station{'s' if n != 1 else ''}: {'; '.join(kinds)}. Every station has a 4-position "
        "gear lever (one contact per gear), 7 card-slot buttons, a GO button and a 128x64 OLED.",
        "",
        f"- Harness diagram: [{name}-harness.svg]({name}-harness.svg) "
        f"([PNG]({name}-harness.png), source [{name}-harness.yaml]({name}-harness.yaml))",
        f"- Parts: [{name}-bom.md]({name}-bom.md)",
        "- Station board: [station-board.md](station-board.md)",
        "- Cable length, pull-ups, I2C speed: [i2c-and-cables.md](i2c-and-cables.md)",
        "",
        f"![{name} wiring harness]({name}-harness.svg)",
        "",
    ]
    out += _boot_section(config)
    out += _header_section(config, harness)
    out += _i2c_section(config)
    out += _stations_section(config, harness)
    out += _oled_section(config, harness)
    out += _wire_list(harness)
    out += _checks_section(config)
    return "\n".join(out).rstrip("\n") + "\n"


def _boot_section(config: HwConfig) -> list[str]:
    out = [
        "## 1. Boot configuration",
        "",
        "In `/boot/firmware/config.txt` (`/boot/config.txt` before Bookworm). "
        f"`sudo make install-pi PROFILE={config.name}` writes exactly these lines between its "
        "`# >>> pitboard` markers; reboot afterwards.",
        "",
        "```ini",
        *config_txt_lines(config),
        "```",
        "",
        f"- `dtparam=i2c_arm=on` turns on I2C1 on header pins 3 (SDA) and 5 (SCL); the baud rate "
        f"is the profile's `i2c.baudrate` ({config.i2c.baudrate // 1000} kHz). Written as two "
        "lines (`dtparam=i2c_arm=on` and `dtparam=i2c_arm_baudrate=...`) it means the same. "
        "When to drop to 100 kHz: [i2c-and-cables.md](i2c-and-cables.md).",
    ]
    mux = config.i2c.mux
    if mux is not None:
        out.append(
            f"- `dtoverlay=i2c-mux,pca9548,addr=0x{mux.address:02x}`: the TCA9548A is "
            "register-compatible with the PCA9548, so the kernel's pca954x driver owns it and "
            "turns each of its 8 channels into a bus of its own, `/dev/i2c-N`. N is given out "
            "by the kernel (it differs between models and kernels), so never hard-code it: "
            f"`ls -l /sys/bus/i2c/devices/1-00{mux.address:02x}/` lists `channel-0` ... "
            "`channel-7` -> `i2c-N`, and Pitboard reads those links at start-up "
            "(`i2c.mux.first_bus` in the profile overrides this: channel k = first_bus + k)."
        )
    if config.console.uses_pi_uart:
        out.append(
            f"- `enable_uart=1`: the staff console is `{config.console.port}`, the UART on "
            "GPIO 14/15 (header pins 8/10). The kernel's serial console must not share it: "
            "install-pi removes `console=serial0,...` from `cmdline.txt`; also say no to the "
            "serial login shell in `raspi-config` (Interface Options > Serial Port), yes to the "
            "serial hardware. On a Pi 5, check with `ls -l /dev/serial0` that it is the UART on "
            "GPIO 14/15 and not the separate debug-UART connector."
        )
    else:
        port = config.console.port or "off"
        uart_used = [u for u in pin_map(config) if u.bcm in (14, 15)]
        why = (
            "GPIO 14/15 carry station inputs here, so no UART driver may claim them"
            if uart_used
            else "the Pi UART is not used"
        )
        out.append(
            f"- `enable_uart=0`: the staff console is `{port}` (a USB serial adapter: no header "
            f"wiring); {why}. install-pi also removes `console=serial0,...` from `cmdline.txt`."
        )
    spi_pins = [u for u in pin_map(config) if 7 <= u.bcm <= 11 and u.station is not None]
    if spi_pins:
        out.append(
            "- `dtparam=spi=off`: GPIO 7-11 carry station buttons here; SPI0 would claim them."
        )
    else:
        out.append("- `dtparam=spi=off`: no SPI display.")
    out += [
        "- `/dev/i2c-*` needs the `i2c-dev` module: install-pi lists it in "
        "`/etc/modules-load.d/pitboard.conf` (`raspi-config` does the same when I2C is "
        "switched on there).",
        "",
    ]
    return out


def _header_section(config: HwConfig, h: Harness) -> list[str]:
    uses = {u.physical: u for u in pin_map(config)}
    targets: dict[int, list[str]] = {}
    colours: dict[int, list[str]] = {}
    for w in h.wires:
        for conn, pin, other, other_pin in (
            (w.src, w.src_pin, w.dst, w.dst_pin),
            (w.dst, w.dst_pin, w.src, w.src_pin),
        ):
            if conn != "PI":
                continue
            where = _end_name(h, other, other_pin)
            text = f"{w.cable} -> {where}"
            if text not in targets.setdefault(pin, []):
                targets[pin].append(text)
            colour = h.cables[w.cable].colours[w.number - 1]
            if colour not in colours.setdefault(pin, []):
                colours[pin].append(colour)
    rows = []
    for pin in sorted(set(targets) | set(uses)):
        use = uses.get(pin)
        bcm = f"GPIO{use.bcm}" if use else "-"
        function = use.function if use else f"{HEADER_POWER[pin]} (power)"
        station = f"S{use.station + 1}" if use and use.station is not None else "-"
        pull = use.pull if use else "-"
        rows.append(
            (
                pin,
                bcm,
                function,
                station,
                pull,
                "; ".join(targets.get(pin, ["-"])),
                ", ".join(_wire_colour(c) for c in colours.get(pin, [])) or "-",
            )
        )
    used = {u.bcm for u in uses.values()}
    free = [b for b in sorted(BCM_TO_PHYSICAL) if b not in used and b > 1]
    out = [
        "## 2. Raspberry Pi header",
        "",
        "Physical pins of the 40-pin header (pin 1 is the square pad, next to the SD card end; "
        "odd pins on the inner row), BCM GPIO numbers as in the profile. Pull `up` = the Pi's "
        "internal pull-up: the line idles high and a closed contact pulls it to GND "
        "(active low).",
        "",
        *_table(("Pin", "BCM", "Function", "Station", "Pull", "Wired to", "Wire"), rows),
        "",
        "Free GPIOs (BCM): " + (", ".join(str(b) for b in free) if free else "none") + ". "
        "GPIO 0/1 (pins 27/28) stay free: the firmware probes them for a HAT ID EEPROM.",
        "",
    ]
    return out


def _i2c_section(config: HwConfig) -> list[str]:
    mux = config.i2c.mux
    rows = []
    for d in i2c_map(config):
        segment = "main" if d.mux_channel is None else f"mux channel {d.mux_channel}"
        rows.append(
            (
                f"I2C{d.bus}",
                segment,
                _linux_bus(config, d.mux_channel),
                f"0x{d.address:02X}",
                d.device,
                _address_setting(d.device, d.address),
            )
        )
    out = [
        "## 3. I2C devices",
        "",
        f"I2C bus {config.i2c.bus} (header pins 3/5) at {config.i2c.baudrate // 1000} kHz.",
    ]
    if mux is not None:
        out[-1] += (
            " Each station is alone on its own mux channel, so every station board is the "
            "same (same addresses, no jumpers) and each station cable is a bus segment of its "
            "own: its capacitance is not added to the others'."
        )
    out += ["", *_table(("Bus", "Segment", "Linux bus", "Address", "Device", "Setting"), rows), ""]
    return out


def _stations_section(config: HwConfig, h: Harness) -> list[str]:
    out = ["## 4. Stations", ""]
    rows = []
    for s in config.stations:
        n = s.index + 1
        d = s.display
        disp = f"{d.driver.upper()} 0x{d.address or 0:02X}" + (
            "" if d.mux_channel is None else f", mux channel {d.mux_channel}"
        )
        if isinstance(s.input, GpioInput):
            inputs = "12 Pi GPIOs (table in section 2)"
            cabling = f"cable W{n} -> station connector X{n}"
        else:
            spec = s.input
            assert isinstance(spec, Mcp23017Input)
            where = "main bus" if spec.mux_channel is None else f"mux channel {spec.mux_channel}"
            irq = (
                f"INT -> GPIO{spec.int_pin} (pin {BCM_TO_PHYSICAL[spec.int_pin]})"
                if spec.int_pin is not None
                else "no INT line (polled)"
            )
            inputs = f"MCP23017 0x{spec.address:02X} on {where}, {irq}"
            cabling = f"hub jack J{n} -> cable C{n} -> station board jack P{n}"
        rows.append((s.label, inputs, disp, cabling))
    out += [*_table(("Station", "Inputs", "Display", "Cabling"), rows), ""]
    if any(isinstance(s.input, GpioInput) for s in config.stations):
        out += [
            "Direct-GPIO stations: one contact of each button and the lever's common go to GND "
            "(station connector pin 1); the other to its line. The Pi's internal pull-ups hold "
            "the lines high; a pressed button or the engaged gear reads low. Fit a 1 kOhm "
            "resistor in series with every input line on the station board: it limits the "
            "current should a line ever be driven as an output, e.g. GPIO 7-11 or 14 if SPI or "
            "the UART were switched on by mistake. The 16-pin station connector: "
            "[station-board.md](station-board.md).",
            "",
        ]
    if any(isinstance(s.input, Mcp23017Input) for s in config.stations):
        out += [
            "MCP23017 station boards are all the same; S1..S6 differ only in the hub jack they "
            "plug into. Pin assignment (from `pitboard.hw.mcp23017.STATION_BITS`; contacts "
            "close to GND, the chip's own pull-ups are switched on by the firmware, and the "
            "inputs are inverted so a closed contact reads 1):",
            "",
        ]
        rows2: list[tuple[str, object, str, str]] = [
            (f"GP{bank}{bit}", _dip_pin(bank, bit), _signal(f), f)
            for bank, bit, f in STATION_BITS
        ]
        for name in _unwired_pins():
            pin = _dip_pin(name[2], int(name[3]))
            if _output_only(name):
                rows2.append((name, pin, "-", "not connected: output-only, driven low"))
            else:
                rows2.append((name, pin, "-", "unused: leave open (pull-up on)"))
        rows2.append(("INTA", 20, "INT", "open-drain, mirrored; RJ45 pin 7 -> the station's "
                      "INT GPIO"))
        out += [*_table(("MCP23017 pin", "DIP pin", "Signal", "Function"), rows2), ""]
        out += [
            "GPA7 and GPB7 stay unconnected: Microchip's current MCP23017 data sheet makes "
            "them output-only (an input changing during a read can corrupt SDA), so the "
            "firmware drives both low and reads slot 3 on GPB4.",
            "",
        ]
    return out


def _oled_section(config: HwConfig, h: Harness) -> list[str]:
    rows = []
    for s in config.stations:
        n = s.index + 1
        d = s.display
        if isinstance(s.input, GpioInput):
            via = {
                "GND": f"X{n} pin 1 (GND)",
                "VCC": f"X{n} pin 2 (3V3)",
                "SCL": f"X{n} pin 4 (SCL)",
                "SDA": f"X{n} pin 3 (SDA)",
            }
        else:
            via = {
                "GND": "board GND rail",
                "VCC": "board 3V3 rail",
                "SCL": f"P{n} pin 1 (SCL)",
                "SDA": f"P{n} pin 3 (SDA)",
            }
        for pin in OLED_PINS:
            rows.append(
                (
                    s.label,
                    f"{d.driver.upper()} 0x{d.address or 0:02X}",
                    pin,
                    via[pin],
                    _wire_colour(FUNCTION_COLOURS["3V3" if pin == "VCC" else pin]),
                )
            )
    return [
        "## 5. OLED connection",
        "",
        "4-pin I2C modules (128x64, SSD1306 or SH1106). Power them from 3.3 V: the Pi's I2C "
        "pins are 3.3 V only, and a module's pull-ups go to its VCC. The order of the four "
        "pins differs between modules (GND-VCC-SCL-SDA or VCC-GND-SCL-SDA): go by the printed "
        "labels. The address is set on the module, usually with a resistor or solder jumper "
        "marked 0x78/0x7A (the 8-bit form of 0x3C/0x3D).",
        "",
        *_table(("Station", "Display", "OLED pin", "Goes to", "Wire"), rows),
        "",
    ]


def _wire_list(h: Harness) -> list[str]:
    out = [
        "## 6. Wire list",
        "",
        "Every wire in the harness diagram, cable by cable. Colours are suggestions: the same "
        "function has the same colour everywhere, and Cat5e keeps its T568B colours.",
        "",
    ]
    for cable in h.cables.values():
        wires = sorted((w for w in h.wires if w.cable == cable.name), key=lambda w: w.number)
        length = f", {cable.length_m:g} m" if cable.length_m else ""
        out += [f"### {cable.name}: {cable.type}{length}", ""]
        if len(wires) == cable.wirecount and all(
            w.src_pin == w.dst_pin == w.number for w in wires
        ):
            ends = f"{wires[0].src} to {wires[0].dst}"
            out += [f"Pin n to pin n, {ends}, all {cable.wirecount} wires (colours as the "
                    "jack pinout).", ""]
            continue
        rows = [
            (
                w.number,
                cable.labels[w.number - 1],
                _wire_colour(cable.colours[w.number - 1]),
                _end_name(h, w.src, w.src_pin),
                _end_name(h, w.dst, w.dst_pin),
            )
            for w in wires
        ]
        out += [*_table(("Wire", "Signal", "Colour", "From", "To"), rows), ""]
        loops = {w.dst for w in wires if h.connectors[w.dst].loops}
        for name in sorted(loops):
            c = h.connectors[name]
            pins = sorted({p for loop in c.loops for p in loop})
            out += [f"{name}: bridge the GND pins {', '.join(map(str, pins))} on the jack.", ""]
    return out


def _checks_section(config: HwConfig) -> list[str]:
    mux = config.i2c.mux
    main = [d for d in i2c_map(config) if d.mux_channel is None]
    addresses = " ".join(f"{d.address:02x}" for d in main)
    out = [
        "## 7. Checks after wiring",
        "",
        f"1. `pitboard check-config hw_config/{config.source.name}`: the pin map as the "
        "firmware sees it.",
        f"2. `i2cdetect -y {config.i2c.bus}` (package `i2c-tools`) shows "
        + (
            f"`UU` at {mux.address:02x}: the kernel driver owns the mux (the devices of the "
            "channel used last may show up too: the mux leaves it connected)."
            if mux is not None
            else f"{addresses} and nothing else."
        ),
    ]
    if mux is not None:
        chans = sorted({d.mux_channel for d in i2c_map(config) if d.mux_channel is not None})
        out.append(
            f"3. For each channel k in {', '.join(map(str, chans))}: `ls -l "
            f"/sys/bus/i2c/devices/{config.i2c.bus}-00{mux.address:02x}/channel-k` gives "
            "`i2c-N`; `i2cdetect -y N` shows that station's devices only (e.g. 20 and 3c). "
            "A station missing here: its cable, jack or board."
        )
    out.append(
        f"{4 if mux is not None else 3}. With a multimeter, unpowered: every input line reads "
        "open to GND, and closes when its button is pressed; exactly one lever contact is "
        "closed in each gear, none between gears."
    )
    out.append("")
    return out


# ---- bill of materials ---------------------------------------------------------------------------


def bom_rows(config: HwConfig) -> list[tuple[str, str, str]]:
    """(quantity, part, notes) for a profile.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> [q for q, part, _ in bom_rows(load_profile("grid6")) if part.startswith("MCP23017")]
        ['6']
    """
    n = len(config.stations)
    gpio_n = sum(isinstance(s.input, GpioInput) for s in config.stations)
    mcp = [s for s in config.stations if isinstance(s.input, Mcp23017Input)]
    mux = config.i2c.mux
    rows: list[tuple[str, str, str]] = [
        ("1", "Raspberry Pi 4 Model B (2 GB or more) or Raspberry Pi 5",
         "any Pi with the 40-pin header works; these two were planned for"),
        ("1", "Power supply, official USB-C (Pi 4: 5.1 V 3 A; Pi 5: 5.1 V 5 A)",
         "the stations draw their 3.3 V from the Pi"),
        ("1", "microSD card, 16 GB or more", "Raspberry Pi OS Lite (Bookworm)"),
        ("1", "GPIO screw-terminal breakout for the 40-pin header",
         "or a 40-way ribbon + breakout; female jumper wires also do"),
    ]
    drivers: dict[str, list[int]] = {}
    for s in config.stations:
        drivers.setdefault(s.display.driver.upper(), []).append(s.display.address or 0)
    for driver, addresses in sorted(drivers.items()):
        alt = sum(a == 0x3D for a in addresses)
        note = "4-pin I2C module, 3.3 V"
        note += f"; {alt} set to 0x3D, the rest 0x3C" if alt else "; all at 0x3C (the default)"
        rows.append((str(len(addresses)), f"OLED 128x64, {driver}, I2C (0.96\" or 1.3\")", note))
    if mux is not None:
        rows.append(("1", "TCA9548A I2C multiplexer breakout",
                     f"address 0x{mux.address:02X}; 3.3 V"))
    if mcp:
        rows += [
            (str(len(mcp)), "MCP23017-E/SP (DIP-28) + 28-pin IC socket",
             "one per station board; A2..A0 to GND = 0x20"),
            (str(len(mcp)), "100 nF ceramic capacitor", "decoupling, VDD-VSS at each MCP23017"),
        ]
    rows += [
        (str(n), "Gear lever: 1-pole 4-position rotary switch (break-before-make), or a "
         "shifter gate with 4 microswitches", "one contact per gear, common to GND"),
        (str(7 * n), "Push button, momentary, normally open (12-16 mm panel mount)",
         "7 card slots per station"),
        (str(n), "GO button, momentary, normally open (24-30 mm arcade button)", "one per station"),
    ]
    if gpio_n:
        rows += [
            (str(12 * gpio_n), "Resistor 1 kOhm, 1/4 W",
             "in series with each input line, on the station board (no pull-ups needed: the "
             "Pi's internal ones are used)"),
            (str(gpio_n), "16-pin station connector: 2x8 box header + IDC socket, or a 16-way "
             "pluggable screw terminal", "one per direct-GPIO station"),
            (f"{gpio_n * GPIO_CABLE_M:g} m", "16-core cable, 0.14 mm2 (e.g. LiYY 16x0.14)",
             f"at most {GPIO_CABLE_M:g} m per station at 400 kHz; colours as in the wire list"),
        ]
    if mcp:
        rows += [
            (str(2 * len(mcp)), "RJ45 (8P8C) jack, PCB or keystone",
             "one on the hub board, one on each station board"),
            (str(len(mcp)), f"Cat5e patch cable, straight (T568B), {MUX_CABLE_M:g} m or shorter",
             "one per station; never plug an Ethernet device into these jacks"),
            ("0-2 per station", "Resistor 4.7 kOhm (I2C pull-ups)",
             "only if no module on a station's segment has SDA/SCL pull-ups: see "
             "i2c-and-cables.md"),
        ]
    boards = n + (1 if mux is not None or mcp else 0)
    rows += [
        (str(boards), "Perfboard / stripboard, about 7x9 cm",
         "one per station" + (" + the hub board" if boards > n else "")),
        ("1 set", "Hookup wire 0.14-0.25 mm2 in the colours of the wire list, heat-shrink",
         "plus 2.54 mm pin headers and sockets for the OLED modules"
         + (" and the mux board" if mux is not None else "")),
    ]
    if config.console.uses_pi_uart:
        rows.append(("1", "3.3 V USB-serial adapter (TTL levels, e.g. CP2102 or FT232R)",
                     f"staff console on {config.console.port}: pins 6/8/10"))
    elif config.console.enabled:
        rows.append(("1", "USB serial adapter", f"staff console on {config.console.port}"))
    return rows


def bom_doc(config: HwConfig) -> str:
    """``<profile>-bom.md``: the bill of materials."""
    source = f"hw_config/{config.source.name}"
    rows = [(i, q, part, notes) for i, (q, part, notes) in enumerate(bom_rows(config), 1)]
    out = [
        *_generated_note(source),
        f"# Bill of materials: {config.name}",
        "",
        f"_Generated from `{source}` by `{COMMAND}`: quantities follow the profile "
        f"({len(config.stations)} stations)._ Wiring: [{config.name}.md]({config.name}.md).",
        "",
        *_table(("#", "Qty", "Part", "Notes"), rows),
        "",
        "Power budget: each station draws about 10-25 mA at 3.3 V (the OLED, depending on how "
        "many pixels are lit; an MCP23017 about 1 mA), all from the Pi's 3.3 V pins.",
    ]
    return "\n".join(out) + "\n"


# ---- profile-independent sections ----------------------------------------------------------------


def shared_sections() -> dict[str, dict[str, str]]:
    """file name -> {section key -> generated Markdown} for the hand-written files."""
    x_rows = [
        (i, label, _wire_colour(FUNCTION_COLOURS[label]), _station_side(label))
        for i, label in enumerate(GPIO_STATION_PINS, 1)
    ]
    rj_rows = [
        (i, label, _wire_colour(T568B[i - 1]), _rj45_side(i, label))
        for i, label in enumerate(RJ45_PINS, 1)
    ]
    funcs = {f"GP{bank}{bit}": _signal(f) for bank, bit, f in STATION_BITS}
    mcp_rows = []
    for pin, name in enumerate(MCP_DIP, 1):
        if name in funcs:
            signal = funcs[name]
            if signal.startswith("GEAR"):
                text = f"{signal} lever contact (lever common to GND)"
            else:
                text = f"{signal} button (other side to GND)"
            mcp_rows.append((pin, name, text))
        elif _output_only(name):
            mcp_rows.append((pin, name, "not connected (output-only pin, driven low)"))
        else:
            mcp_rows.append((pin, name, _MCP_OTHER.get(name, "unused: leave open")))
    files: dict[str, dict[str, str]] = {
        "station-board.md": {
            "gpio-station-connector": "\n".join(
                _table(("Pin", "Signal", "Wire", "On the station board"), x_rows)
            ),
            "rj45-station-jack": "\n".join(
                _table(("Pin", "Signal", "T568B colour", "On the station board"), rj_rows)
            ),
            "mcp23017-pins": "\n".join(_table(("DIP pin", "Name", "Connect to"), mcp_rows)),
        },
        "i2c-and-cables.md": {"pull-up-limits": "\n".join(_pullup_table())},
        "README.md": {"files": "\n".join(_index())},
    }
    return files


_MCP_OTHER: Final = {
    "VDD": "3V3 rail, with 100 nF to VSS right at the chip",
    "VSS": "GND rail",
    "NC": "not connected",
    "SCL": "RJ45 pin 1 (SCL) and the OLED's SCL",
    "SDA": "RJ45 pin 3 (SDA) and the OLED's SDA",
    "A0": "GND (address 0x20; to 3V3 adds 1)",
    "A1": "GND (to 3V3 adds 2)",
    "A2": "GND (to 3V3 adds 4)",
    "RESET": "3V3 rail (it must not float; 10 kOhm or a direct link)",
    "INTB": "unused (INTA mirrors both ports)",
    "INTA": "RJ45 pin 7 (INT): open-drain, the Pi pulls it up",
}


def _station_side(label: str) -> str:
    if label == "GND":
        return "lever common, the other side of every button, OLED GND"
    if label == "3V3":
        return "OLED VCC"
    if label in ("SDA", "SCL"):
        return f"OLED {label}"
    what = "lever contact" if label.startswith("GEAR") else "button"
    return f"1 kOhm in series, then the {label} {what}"


def _rj45_side(pin: int, label: str) -> str:
    if label == "GND":
        return "GND rail (bridge 2, 5, 6, 8)"
    return {
        "SCL": "MCP23017 pin 12 and OLED SCL (twisted with pin 2)",
        "SDA": "MCP23017 pin 13 and OLED SDA (twisted with pin 6)",
        "3V3": "3V3 rail: MCP23017 VDD and RESET, OLED VCC (twisted with pin 5)",
        "INT": "MCP23017 pin 20 INTA (twisted with pin 8)",
    }[label]


def _pullup_table() -> list[str]:
    """Largest pull-up that meets the rise time (t_r = 0.8473 R C) for a bus capacitance."""
    rows = []
    r_min = (3.3 - 0.4) / 0.003
    for pf in (50, 100, 150, 200, 300, 400):
        c = pf * 1e-12
        std = 1000e-9 / (0.8473 * c)
        fast = 300e-9 / (0.8473 * c)
        fast_text = f"{fast / 1000:.1f} kOhm" if fast >= r_min else "not reachable"
        rows.append((f"{pf} pF", f"{std / 1000:.1f} kOhm", fast_text))
    return [
        *_table(("Bus capacitance", "100 kHz (t_r 1000 ns)", "400 kHz (t_r 300 ns)"), rows),
        "",
        f"Smallest pull-up at 3.3 V (3 mA sink, 0.4 V low level): {r_min / 1000:.2f} kOhm, "
        "counting every pull-up on the segment in parallel.",
    ]


def _index() -> list[str]:
    rows = []
    for name in DEFAULT_PROFILES:
        rows.append(
            (
                f"`{name}`",
                f"[{name}.md]({name}.md)",
                f"[{name}-bom.md]({name}-bom.md)",
                f"[SVG]({name}-harness.svg) / [PNG]({name}-harness.png) / "
                f"[YAML]({name}-harness.yaml)",
            )
        )
    return _table(("Profile", "Wiring", "Parts", "Harness"), rows)


# ---- files ------------------------------------------------------------------------------------


def generate(config: HwConfig) -> dict[str, str]:
    """file name -> text of every file generated as a whole for one profile."""
    harness = build_harness(config)
    name = config.name
    return {
        f"{name}.md": profile_doc(config, harness),
        f"{name}-bom.md": bom_doc(config),
        f"{name}-harness.yaml": harness_yaml(harness, f"hw_config/{config.source.name}"),
    }


def station_board_yaml() -> str:
    """``station-board-harness.yaml`` (from :data:`STATION_BITS`)."""
    return harness_yaml(station_board_harness(), "pitboard.hw.mcp23017.STATION_BITS")


def replace_sections(text: str, sections: dict[str, str]) -> str:
    """Put each generated section between its markers (appended if the markers are missing).

    Example::

        >>> doc = "# T\\n" + _begin("x") + "\\nold\\n" + _end("x") + "\\nkept\\n"
        >>> replace_sections(doc, {"x": "new"}).splitlines()[2]
        'new'
    """
    for key, body in sections.items():
        begin, end = _begin(key), _end(key)
        block = f"{begin}\n{body}\n{end}"
        match = re.search(re.escape(begin) + r".*?" + re.escape(end), text, re.S)
        if match:
            text = text[: match.start()] + block + text[match.end() :]
        else:
            text = text.rstrip("\n") + ("\n\n" if text.strip() else "") + block + "\n"
    return text


def source_digest(yaml_text: str) -> str:
    """SHA-256 of a harness YAML: the stamp in its rendered SVG and PNG."""
    return hashlib.sha256(yaml_text.encode()).hexdigest()


def stamp_of(path: Path) -> str | None:
    """The source digest a rendered SVG or PNG carries (None: missing or unstamped)."""
    try:
        if path.suffix == ".svg":
            match = re.search(SOURCE_KEY + r": ([0-9a-f]{64})", path.read_text(errors="replace"))
            return match.group(1) if match else None
        from PIL import Image

        with Image.open(path) as image:
            value = image.info.get(SOURCE_KEY)
        return value if isinstance(value, str) else None
    except OSError:
        return None


class RenderUnavailable(Exception):
    """WireViz or Graphviz ``dot`` is missing.

    Example::

        >>> str(RenderUnavailable("no dot"))
        'no dot'
    """


def render(yaml_text: str) -> tuple[str, bytes]:
    """Draw a harness with WireViz: (SVG text, PNG bytes), both stamped with the YAML digest."""
    try:
        wireviz = importlib.import_module("wireviz.wireviz")
    except ImportError:
        raise RenderUnavailable("WireViz is not installed (pip install -e '.[docs]')") from None
    if shutil.which("dot") is None:
        raise RenderUnavailable("Graphviz `dot` is not installed (apt-get install graphviz)")
    try:
        harness = wireviz.parse(yaml_text, return_types="harness")
        svg, png = str(harness.svg), bytes(harness.png)
    except Exception as exc:  # WireViz and Graphviz raise all sorts: report them in one line
        detail = " ".join(str(exc).split())
        raise RenderUnavailable(f"WireViz failed: {type(exc).__name__}: {detail}") from None
    digest = source_digest(yaml_text)
    note = f"<!-- {SOURCE_KEY}: {digest} -->\n"
    if svg.startswith("<?xml"):
        first, _, rest = svg.partition("\n")
        svg = f"{first}\n{note}{rest}"
    else:
        svg = note + svg
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text(SOURCE_KEY, digest)
    buffer = io.BytesIO()
    with Image.open(io.BytesIO(png)) as image:
        # a diagram has few colours: a 256-colour palette keeps the file small
        small = image.convert("RGB").quantize(256, dither=Image.Dither.NONE)
        small.save(buffer, format="PNG", pnginfo=info, optimize=True)
    return svg, buffer.getvalue()


@dataclass(slots=True)
class Plan:
    """What the docs directory should contain, and how it differs from what it does.

    Example::

        >>> plan = Plan.build([], Path("/nonexistent"))
        >>> "station-board-harness.yaml" in plan.texts
        True
    """

    out: Path
    #: file name -> full text of files generated as a whole
    texts: dict[str, str]
    #: file name -> sections generated inside hand-written files
    sections: dict[str, dict[str, str]]
    #: harness YAML file name -> its text (drawn to .svg and .png)
    drawings: dict[str, str]

    @classmethod
    def build(cls, configs: Sequence[HwConfig], out: Path) -> Plan:
        """Everything generated for ``configs`` (plus the shared files) into ``out``."""
        texts: dict[str, str] = {}
        for config in configs:
            texts.update(generate(config))
        texts["station-board-harness.yaml"] = station_board_yaml()
        drawings = {k: v for k, v in texts.items() if k.endswith("-harness.yaml")}
        return cls(out, texts, shared_sections(), drawings)

    def _read(self, name: str) -> str | None:
        try:
            return (self.out / name).read_text()
        except OSError:
            return None

    def stale_texts(self) -> dict[str, str]:
        """file name -> wanted text, for every text file that differs."""
        stale = {k: v for k, v in self.texts.items() if self._read(k) != v}
        for name, sections in self.sections.items():
            current = self._read(name)
            if current is None:
                wanted = f"# {name.removesuffix('.md')}\n"
                stale[name] = replace_sections(wanted, sections)
                continue
            wanted = replace_sections(current, sections)
            if wanted != current:
                stale[name] = wanted
        return stale

    def stale_drawings(self) -> list[str]:
        """Harness YAML names whose .svg or .png is missing or drawn from other YAML."""
        stale = []
        for name, text in self.drawings.items():
            digest = source_digest(text)
            stem = name.removesuffix(".yaml")
            if any(stamp_of(self.out / f"{stem}{ext}") != digest for ext in (".svg", ".png")):
                stale.append(name)
        return stale


def _stale_paths(plan: Plan) -> list[str]:
    paths = [str(plan.out / name) for name in plan.stale_texts()]
    for name in plan.stale_drawings():
        stem = name.removesuffix(".yaml")
        paths += [str(plan.out / f"{stem}{ext}") for ext in (".svg", ".png")]
    return sorted(paths)


def _load(names: Sequence[str]) -> list[HwConfig]:
    configs = []
    for name in names:
        try:
            configs.append(load_profile(name))
        except ConfigError as exc:
            raise WiringError(exc.problems[0] if len(exc.problems) == 1 else
                              f"{exc.problems[0]} (and {len(exc.problems) - 1} more problems; "
                              f"run pitboard check-config {name})") from None
    return configs


def build_parser() -> argparse.ArgumentParser:
    """The ``pitboard wiring-docs`` options."""
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Write the wiring docs (pin tables, harness diagrams, BOM, config.txt "
        "lines) generated from hw_config profiles.",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"docs directory (default {DEFAULT_OUT}/)")
    parser.add_argument("--profile", action="append", dest="profiles", metavar="NAME",
                        help="shipped profile name or .toml path; repeat for more "
                        f"(default: {', '.join(DEFAULT_PROFILES)})")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming every stale file")
    parser.add_argument("--no-render", action="store_true",
                        help="do not draw SVG/PNG (they are drawn only when their YAML changed)")
    parser.add_argument("--force-render", action="store_true",
                        help="draw every SVG/PNG again")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``pitboard wiring-docs``: 0 = up to date or written, 1 = stale (--check) or not drawn,
    2 = bad input (one line on stderr, never a traceback).

    Example::

        >>> main(["--check", "--profile", "nosuch"])
        2
    """
    args = build_parser().parse_args(argv)
    try:
        configs = _load(args.profiles or DEFAULT_PROFILES)
        plan = Plan.build(configs, args.out)
    except WiringError as exc:
        print(f"{COMMAND}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.check:
        stale = _stale_paths(plan)
        for path in stale:
            print(f"{path}: stale (run {COMMAND})", file=sys.stderr)
        if not stale:
            print(f"{args.out}: up to date")
        return 1 if stale else 0
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, text in plan.stale_texts().items():
            (args.out / name).write_text(text)
            print(f"wrote {args.out / name}")
        to_draw = list(plan.drawings) if args.force_render else plan.stale_drawings()
        if args.no_render:
            for name in to_draw:
                print(f"{args.out / name}: not drawn (--no-render): its SVG/PNG are stale")
            return 0
        for name in to_draw:
            stem = name.removesuffix(".yaml")
            svg, png = render(plan.drawings[name])
            (args.out / f"{stem}.svg").write_text(svg)
            (args.out / f"{stem}.png").write_bytes(png)
            print(f"drew {args.out / stem}.svg and .png")
    except RenderUnavailable as exc:
        print(f"{COMMAND}: cannot draw the harness diagrams: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{COMMAND}: {exc.filename or args.out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
