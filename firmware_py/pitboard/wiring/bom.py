"""``<profile>-bom.md``: the bill of materials, quantities computed from the profile."""

from __future__ import annotations

from pitboard.hwconfig import (
    GpioInput,
    HwConfig,
    Mcp23017Input,
)

from .markdown import _generated_note, _table
from .parts import (
    COMMAND,
    GPIO_CABLE_M,
    MUX_CABLE_M,
    OLED_MODULES,
    POLYFUSE,
    PULLUP_OHMS,
    RACE_CONTROL_CABLE_M,
)

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
        drivers.setdefault(s.display.driver, []).append(s.display.address or 0)
    rc = config.race_control
    if rc is not None:
        drivers.setdefault(rc.driver, []).append(rc.address or 0)
    for driver, addresses in sorted(drivers.items()):
        alt = sum(a == 0x3D for a in addresses)
        note = "4-pin I2C module, 3.3 V; " + OLED_MODULES[driver][1]
        if rc is not None and rc.driver == driver:
            note += "; one is the race-control display"
        note += f"; {alt} set to 0x3D, the rest 0x3C" if alt else "; all at 0x3C (the default)"
        rows.append((str(len(addresses)), OLED_MODULES[driver][0], note))
    muxes = [m for m in (mux, *(e.mux for e in config.i2c.extra)) if m is not None]
    if muxes:
        where = (f"one per I2C controller ({', '.join(config.i2c.controllers)}); " if
                 len(muxes) > 1 else "")
        rows.append((str(len(muxes)), "TCA9548A I2C multiplexer breakout",
                     f"{where}address 0x{muxes[0].address:02X}; 3.3 V"
                     + ("; RESET lines joined to the one GPIO" if len(muxes) > 1 and
                        mux is not None and mux.reset_pin is not None else "")))
    if config.i2c.extra:
        rows.append((str(2 * len(config.i2c.extra)), "Resistor 4.7 kOhm, 1/4 W (I2C pull-ups)",
                     "SDA and SCL of each extra controller ("
                     + ", ".join(f"GPIO {e.sda}/{e.sda + 1}" for e in config.i2c.extra)
                     + ") to 3V3 on the hub: unlike GPIO 2/3 they have none on the Pi"))
    if mcp:
        rows.append((str(len(mcp)), POLYFUSE,
                     "one per hub jack, in series with its 3V3 (F1.. in the wiring)"))
    if mcp:
        rows += [
            (str(len(mcp)), "MCP23017-E/SP (DIP-28) + 28-pin IC socket",
             "one per station board; A2..A0 to GND = 0x20"),
            (str(len(mcp)), "100 nF ceramic capacitor", "decoupling, VDD-VSS at each MCP23017"),
            (str(2 * len(mcp)), "Resistor 4.7 kOhm, 1/4 W",
             "GPA7 and GPB7 of each MCP23017 to GND (output-only pins: never a bare wire)"),
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
            (str(2 * len(mcp)), f"Resistor {PULLUP_OHMS / 1000:g} kOhm, 1/4 W (I2C pull-ups)",
             "SDA and SCL of every station's segment to 3V3, on the station board (2.2-3.3 kOhm: "
             "see i2c-and-cables.md)"),
        ]
    if rc is not None:
        rows.append((f"{RACE_CONTROL_CABLE_M:g} m", "4-core cable, 0.14 mm2",
                     "race-control display cable WR (GND, 3V3, SCL, SDA)"))
        if rc.mux_channel is not None:
            rows.append(("2", f"Resistor {PULLUP_OHMS / 1000:g} kOhm, 1/4 W (I2C pull-ups)",
                         f"SDA and SCL of the race-control display's mux channel "
                         f"{rc.mux_channel} to 3V3, at the hub"))
    boards = n + (1 if mux is not None or mcp else 0)
    rows += [
        (str(boards), "Perfboard / stripboard, about 7x9 cm",
         "one per station" + (" + the hub board" if boards > n else "")),
        ("1 set", "Hookup wire 0.14-0.25 mm2 in the colours of the wire list, heat-shrink",
         "plus 2.54 mm pin headers and sockets for the OLED modules"
         + (" and the mux board" + "s" * (len(muxes) > 1) if muxes else "")),
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
