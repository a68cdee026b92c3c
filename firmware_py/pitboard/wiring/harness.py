"""A profile's harness, and the station board's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from pitboard.hw.mcp23017 import STATION_BITS
from pitboard.hwconfig import (
    BCM_TO_PHYSICAL,
    CONTROLLER_NAMES,
    DisplayConfig,
    GpioInput,
    HwConfig,
    Mcp23017Input,
    StationConfig,
)

from .model import Cable, Connector, Harness
from .parts import (
    _RJ45_GND_LOOPS,
    FUNCTION_COLOURS,
    GPIO_CABLE_M,
    GPIO_STATION_PINS,
    HEADER_POWER,
    MCP_DIP,
    MUX_CABLE_M,
    MUX_PINS,
    OLED_PINS,
    POLYFUSE,
    RACE_CONTROL_CABLE_M,
    RJ45_PINS,
    T568B,
    WiringError,
    _dip_pin,
    _output_only,
    _signal,
    _unwired_pins,
    header_label,
)

# ---- a profile's harness -------------------------------------------------------------------------


def _check_supported(config: HwConfig) -> None:
    rc = config.race_control
    if rc is not None and (rc.bus != "i2c" or rc.address is None):
        raise WiringError(f"{config.name}: the race-control display is on {rc.bus}: the "
                          "wiring docs cover I2C displays only")
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
        if isinstance(s.input, Mcp23017Input) and (s.input.mux_channel, s.input.controller) != (
                d.mux_channel, d.controller):
            raise WiringError(
                f"{config.name}: {s.label}: the MCP23017 and the display must share one I2C "
                "segment (the same controller and mux_channel): one station cable carries both"
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
    h = Harness(f'Pitboard "{config.name}": {config.table.name}')
    _add_pi_header(h)
    has_mcp = any(isinstance(s.input, Mcp23017Input) for s in config.stations)
    hub = config.i2c.mux is not None or has_mcp
    if hub:
        _add_hub(h, config)
    taken_gnd: set[int] = set()
    for s in config.stations:
        if isinstance(s.input, GpioInput):
            _add_gpio_station(h, s, s.input, hub=hub, taken_gnd=taken_gnd)
        elif isinstance(s.input, Mcp23017Input):
            _add_mcp23017_station(h, s, s.input)
    if config.race_control is not None:
        _add_race_control(h, config.race_control, hub=hub)
    if config.console.uses_pi_uart:
        _add_console(h)
    return h


def _add_race_control(h: Harness, d: DisplayConfig, *, hub: bool) -> None:
    """The race-control OLED ``RC`` on a 4-wire cable ``WR``: power from the hub rails (or the
    Pi header without a hub), SDA/SCL from its mux channel (or the main bus)."""
    h.add_connector(Connector("RC", f"race-control OLED, {d.driver.upper()} "
                              f"0x{d.address or 0:02X}", "128x64 OLED module, I2C", OLED_PINS,
                              notes="beside the board, where every player can read it"))
    labels = ("GND", "3V3", "SCL", "SDA")
    h.add_cable(Cable("WR", "race-control display cable",
                      tuple(FUNCTION_COLOURS[x] for x in labels), labels,
                      length_m=RACE_CONTROL_CABLE_M))
    if hub:
        h.connect("WR", 1, "PWR", 2, "RC", 1)
        h.connect("WR", 2, "PWR", 1, "RC", 2)
    else:
        h.connect("WR", 1, "PI", 25, "RC", 1)
        h.connect("WR", 2, "PI", 17, "RC", 2)
    for wire, line in ((3, "SCL"), (4, "SDA")):
        src, pin = _i2c_source(d.mux_channel, line, d.controller)
        h.connect("WR", wire, src, pin, "RC", wire)


def _add_pi_header(h: Harness) -> None:
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


def _add_hub(h: Harness, config: HwConfig) -> None:
    """The hub board's power rails fed by ``W0``, and the TCA9548A when the profile has a mux."""
    mux = config.i2c.mux
    h.add_connector(Connector("PWR", "hub board power rails", "perfboard strips", ("3V3", "GND")))
    w0 = ["3V3", "GND"] + (["SDA", "SCL"] if mux is not None else [])
    if mux is not None and mux.reset_pin is not None:
        w0.append("RST")
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
    if mux is None:
        return
    a = mux.address - 0x70
    straps = " ".join(f"A{i}={'3V3' if a >> i & 1 else 'GND'}" for i in (2, 1, 0))
    h.add_connector(
        Connector(
            "MUX",
            f"TCA9548A I2C mux, 0x{mux.address:02X}",
            "breakout board",
            MUX_PINS,
            notes=f"{straps}; RST "
            + (f"to GPIO{mux.reset_pin} (and pulled up on the board)"
               if mux.reset_pin is not None else "pulled up on the board")
            + ". Pin order varies: go by the labels",
            hide_disconnected_pins=True,
        )
    )
    h.connect("W0", 3, "PI", 3, "MUX", MUX_PINS.index("SDA") + 1)
    h.connect("W0", 4, "PI", 5, "MUX", MUX_PINS.index("SCL") + 1)
    if mux.reset_pin is not None:
        h.connect("W0", 5, "PI", BCM_TO_PHYSICAL[mux.reset_pin], "MUX",
                  MUX_PINS.index("RST") + 1)
    h.add_cable(Cable("WM", "mux power", ("RD", "BK"), ("3V3", "GND"), bundle=True))
    h.connect("WM", 1, "PWR", 1, "MUX", 1)
    h.connect("WM", 2, "PWR", 2, "MUX", 2)
    for i, extra in enumerate(config.i2c.extra):
        if extra.mux is not None:
            _add_extra_mux(h, CONTROLLER_NAMES[i + 1], extra.sda, extra.mux.address,
                           mux.reset_pin)


def _add_extra_mux(h: Harness, name: str, sda: int, address: int, reset_pin: int | None) -> None:
    """The TCA9548A ``MUX<name>`` of an extra I2C controller: its SDA/SCL from the controller's
    header pins on ``W0<name>`` (4.7 kOhm pull-ups to 3V3 at the mux: the Pi has none on
    these pins), RESET joined to the first mux's GPIO, power from the hub rails."""
    a = address - 0x70
    straps = " ".join(f"A{i}={'3V3' if a >> i & 1 else 'GND'}" for i in (2, 1, 0))
    conn, wires = f"MUX{name}", f"W0{name}"
    h.add_connector(
        Connector(
            conn,
            f"TCA9548A I2C mux of controller {name} (GPIO {sda}/{sda + 1}), 0x{address:02X}",
            "breakout board",
            MUX_PINS,
            notes=f"{straps}; 4.7 kOhm from SDA and from SCL to 3V3; RST "
            + (f"to GPIO{reset_pin} with the other muxes" if reset_pin is not None
               else "pulled up on the board")
            + ". Pin order varies: go by the labels",
            hide_disconnected_pins=True,
        )
    )
    labels = ["SDA", "SCL"] + (["RST"] if reset_pin is not None else [])
    h.add_cable(Cable(wires, f"Pi to the mux of controller {name}",
                      tuple(FUNCTION_COLOURS[x] for x in labels), tuple(labels), length_m=0.15,
                      bundle=True, notes="short jumper wires"))
    h.connect(wires, 1, "PI", BCM_TO_PHYSICAL[sda], conn, MUX_PINS.index("SDA") + 1)
    h.connect(wires, 2, "PI", BCM_TO_PHYSICAL[sda + 1], conn, MUX_PINS.index("SCL") + 1)
    if reset_pin is not None:
        h.connect(wires, 3, "PI", BCM_TO_PHYSICAL[reset_pin], conn, MUX_PINS.index("RST") + 1)
    power = f"WM{name}"
    h.add_cable(Cable(power, f"mux {name} power", ("RD", "BK"), ("3V3", "GND"), bundle=True))
    h.connect(power, 1, "PWR", 1, conn, 1)
    h.connect(power, 2, "PWR", 2, conn, 2)


def _i2c_source(channel: int | None, line: str, controller: str = "A") -> tuple[str, int]:
    """Where a station's SDA or SCL comes from: the Pi header, or its mux channel (on its
    controller's mux: ``MUX``, ``MUXB``, ``MUXC``)."""
    if channel is None:
        return "PI", 3 if line == "SDA" else 5
    mux = "MUX" if controller == "A" else f"MUX{controller}"
    return mux, MUX_PINS.index(f"{line[:2]}{channel}") + 1


_POWER_PINS: Final = (1, 17)


def _add_gpio_station(
    h: Harness,
    s: StationConfig,
    spec: GpioInput,
    *,
    hub: bool,
    taken_gnd: set[int],
) -> None:
    """A direct-GPIO station: 16-core cable ``W<n>`` to its station connector ``X<n>``."""
    n = s.index + 1
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
    where = {label: i for i, label in enumerate(GPIO_STATION_PINS, 1)}

    def run(label: str, src: str, src_pin: int) -> None:
        h.connect(cable, where[label], src, src_pin, conn, where[label])

    run("GND", "PI", gnd)
    if hub:
        run("3V3", "PWR", 1)
    else:
        run("3V3", "PI", _POWER_PINS[s.index % 2])
    for line in ("SDA", "SCL"):
        run(line, *_i2c_source(s.display.mux_channel, line, s.display.controller))
    signals = [f"GEAR{g}" for g in range(1, 5)] + [f"SLOT{k}" for k in range(1, 8)] + ["GO"]
    for label, p in zip(signals, phys, strict=True):
        run(label, "PI", p)


def _add_mcp23017_station(h: Harness, s: StationConfig, spec: Mcp23017Input) -> None:
    """An MCP23017 station: hub wiring ``H<n>`` to ``J<n>``, patch cable ``C<n>`` to ``P<n>``."""
    n = s.index + 1
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
        src, pin = _i2c_source(s.display.mux_channel, line, s.display.controller)
        h.connect(hub_wires, labels.index(line) + 1, src, pin, jack, i)
    h.connect(hub_wires, 2, "PWR", 2, jack, 2)
    fuse, link = f"F{n}", f"HF{n}"
    h.add_connector(Connector(fuse, f"polyfuse {s.label}", POLYFUSE, ("IN", "OUT"),
                              notes="in series with the port's 3V3; resets once the short is gone"))
    h.connect(hub_wires, 4, "PWR", 1, fuse, 1)
    h.add_cable(Cable(link, f"fused 3V3 {s.label}", ("RD",), ("3V3",), bundle=True))
    h.connect(link, 1, fuse, 2, jack, 4)
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


def _add_console(h: Harness) -> None:
    """The staff console's USB-serial adapter on the Pi UART (header pins 6, 8, 10)."""
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
            f"{', '.join(n for n in _unwired_pins() if not _output_only(n))} unconnected; "
            "GPA7/GPB7 (output-only) to GND through 4.7 kOhm each: inputs at power-on, then "
            "driven low",
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
    # GPA7/GPB7: inputs (floating) from power-on until configured, then outputs driven low;
    # tied to GND they are never floating and the later low output agrees with the wire
    tied = [n for n in _unwired_pins() if _output_only(n)]
    bundle("B9", ["GND"] * len(tied), "GPA7/GPB7 to GND")
    for i, name in enumerate(tied, 1):
        h.connect("B9", i, "RAIL", 2, "U1", _dip_pin(name[2], int(name[3])))
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
