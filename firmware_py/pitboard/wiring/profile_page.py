"""``<profile>.md``: boot settings, header pins, I2C map, stations, OLEDs, wire list, checks."""

from __future__ import annotations

from pitboard.hw.mcp23017 import STATION_BITS
from pitboard.hwconfig import (
    BCM_TO_PHYSICAL,
    GpioInput,
    HwConfig,
    Mcp23017Input,
    i2c_map,
    pin_map,
)
from pitboard.hwconfig.pins import controller_pins
from pitboard.hwconfig.schema import CONTROLLER_NAMES, EXTRA_PULL_UP, RACE_CONTROL_LABEL

from .facts_page import FACTS_PAGE
from .markdown import (
    _address_setting,
    _end_name,
    _generated_note,
    _linux_bus,
    _table,
    _wire_colour,
    config_txt_lines,
)
from .model import Harness
from .parts import (
    COMMAND,
    FUNCTION_COLOURS,
    HEADER_POWER,
    OLED_PINS,
    _dip_pin,
    _output_only,
    _signal,
    _unwired_pins,
)

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
            + (_behind_muxes(config) if mux else "")
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
        f"- Every line here was checked against the Raspberry Pi sources, per board: "
        f"[{FACTS_PAGE}]({FACTS_PAGE}).",
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
        out.append(
            "- `dtoverlay=` (no name): ends the overlay's parameter scope. A `dtparam` line after "
            "a `dtoverlay` line sets a parameter of that overlay until the next overlay line, so "
            "without it the `dtparam` lines below could be taken as i2c-mux parameters. The "
            "order of these lines matters: `dtparam=i2c_arm...` first, then the overlay, then "
            "`dtoverlay=` (Raspberry Pi documentation, \"Device Trees, overlays, and "
            "parameters\", part 3.2)."
        )
        idle = ("on: a udev rule from install-pi sets the pca954x driver's `idle_state` to -2, "
                "so every channel is cut off between transfers and a station board that holds "
                "SDA low only blocks its own transfers" if mux.idle_disconnect else
                "off: the last channel stays connected between transfers")
        out.append(f"- idle disconnect (`[i2c.mux] idle_disconnect`) is {idle} (kernel "
                   "Documentation/ABI/testing/sysfs-bus-i2c-devices-pca954x).")
        if mux.reset_pin is not None:
            out.append(
                f"- The mux's RESET is wired to GPIO{mux.reset_pin} (`[i2c.mux] reset_pin`): "
                "when a station fails and its mux no longer answers (SDA held low: a hung "
                "bus, not a mere NACK) Pitboard pulses it low, which deselects every channel, "
                "then lets the failing stations back on one at a time and keeps the one that "
                "hangs the bus off it (tried again after 30 s, then less often)."
            )
    if config.i2c.extra:
        out += _extra_controllers_bullets(config)
    if config.console.uses_pi_uart:
        out.append(
            f"- `enable_uart=1`: the staff console is `{config.console.port}`, the UART on "
            "GPIO 14/15 (header pins 8/10). The kernel's serial console must not share it: "
            "install-pi removes `console=serial0,...` from `cmdline.txt`; also say no to the "
            "serial login shell in `raspi-config` (Interface Options > Serial Port), yes to the "
            "serial hardware."
        )
        out.append(
            "- `[pi4]` `dtoverlay=disable-bt`, `[pi5]` `dtparam=uart0=on`, then `[all]`: which "
            "device is on which pins differs between the boards, and these lines make "
            "`/dev/ttyAMA0` the UART on GPIO 14/15 on both. The `[pi4]`/`[pi5]` filters apply "
            "to every line after them until the next filter, so the order matters: keep "
            "`[all]` after them, or later lines would apply to a Pi 5 only."
        )
        out += [
            "",
            "  | Board | GPIO 14/15 (pins 8/10) | `/dev/serial0` | Needs |",
            "  |---|---|---|---|",
            "  | Pi 4 | `/dev/ttyAMA0` (PL011) | `ttyAMA0` with disable-bt, else the mini UART "
            "`ttyS0` | `dtoverlay=disable-bt` (Bluetooth off) and `hciuart.service` "
            "disabled (install-pi does both) |",
            "  | Pi 5 | `/dev/ttyAMA0` (RP1 UART0) | `ttyAMA10`, the 3-pin debug connector, not "
            "GPIO 14/15 | `dtparam=uart0=on` |",
            "",
            "  Sources: Raspberry Pi documentation, config.txt \"Conditional filters\" and "
            "\"UARTs\" (configuration); the Pi 5 UART numbering per raspberrypi/documentation "
            "issue 3239 and raspberrypi/linux `rp1.dtsi` (`rp1_uart0` disabled until "
            "`uart0=on`), `bcm2712-rpi.dtsi` (`serial10 = &uart10`, the console). More: "
            f"[{FACTS_PAGE}]({FACTS_PAGE}).",
        ]
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


def _extra_controllers_bullets(config: HwConfig) -> list[str]:
    """What the ``[pi4]``/``[pi5]`` lines of the extra I2C controllers do, and why they are
    there: one writer thread per controller sends the stations' frames at the same time."""
    rows = []
    for i, extra in enumerate(config.i2c.extra):
        name = CONTROLLER_NAMES[i + 1]
        c = extra.pins
        stations = ", ".join(s.label for s in config.stations
                             if s.display.controller == name or
                             getattr(s.input, "controller", "A") == name) or "-"
        rows.append((name, f"GPIO {c.sda}/{c.scl}",
                     f"{BCM_TO_PHYSICAL[c.sda]}/{BCM_TO_PHYSICAL[c.scl]}",
                     f"`{c.controller('pi4')}`: `dtoverlay={c.overlay('pi4')}`, "
                     f"`/dev/i2c-{c.bus('pi4')}` (node `{c.node('pi4')}`)",
                     f"`{c.controller('pi5')}`: `dtoverlay={c.overlay('pi5')}`, "
                     f"`/dev/i2c-{c.bus('pi5')}` (node `{c.node('pi5')}`)", stations))
    a_stations = ", ".join(s.label for s in config.stations
                           if s.display.bus == "i2c" and s.display.controller == "A") or "-"
    return [
        f"- More I2C controllers (`[[i2c.extra]]`): one I2C bus carries one byte at a time, so "
        f"the stations are spread over {1 + len(config.i2c.extra)} of the Pi's I2C controllers "
        "and Pitboard drives them in parallel (one display writer thread per controller; the "
        "GO reveal redraws every screen at once: `benchmarks/display_bytes.py` prints its bus "
        "time). The same header pins reach a different controller on a Pi 4 and on a Pi 5, "
        "each with its own overlay, so these lines sit under `[pi4]` and `[pi5]`; each "
        "controller's overlay comes before the `i2c-mux` overlay that puts its TCA9548A on it "
        "(the last parameter, e.g. `i2c6`, names that controller), `dtoverlay=` ends the last "
        "overlay's parameters, and `[all]` closes the filters. Controller A is I2C1 on GPIO 2/3 "
        f"(pins 3/5) on both boards ({a_stations}).",
        "",
        *("  " + line for line in _table(
            ("Controller", "GPIO", "Pins", "Pi 4", "Pi 5", "Stations"), rows)),
        "",
        "  GPIO 2/3 have 1.8 kOhm pull-ups on the Pi; these pins have no board pull-ups (the "
        "overlays switch on the SoC's weak internal ones): fit "
        f"{EXTRA_PULL_UP.replace('k on the hub', ' kOhm')} from SDA and from SCL to 3V3 on the "
        "hub, on the Pi side of each extra mux (the channel pull-ups stay as for controller A). "
        "Each mux line names its parent bus by its device-tree alias, and the kernel numbers "
        "an aliased bus by its alias, so the controllers' `/dev/i2c-N` above are fixed; even "
        "so Pitboard finds each controller by its device-tree node (the adapter whose "
        "`/sys/bus/i2c/devices/i2c-N/of_node` is that node), the number above only when none "
        "is. The mux channels' numbers are not fixed (given out as each mux probes): Pitboard "
        "reads them from `/sys/bus/i2c/devices/<bus>-0070/channel-k`. The same `i2c-mux` "
        "overlay loads once per controller: its "
        "labels are private to each load and its node sits under a different bus each time, "
        "so all three muxes can keep address 0x70.",
        "",
        "  **Pi 5: the `i2c2` parameter needs overlays from 2025.** `i2c-mux` gained `i2c1`/"
        "`i2c2` with raspberrypi/linux PR 6636 (January 2025); an older card has no `i2c2`, "
        "and controller C's mux would not load. `make install-pi` reads the card's "
        "`overlays/i2c-mux.dtbo` and warns, `pitboard hw-test` names it as a problem; the fix "
        "is `sudo apt full-upgrade` and a reboot. Sources and the per-board check of these "
        f"lines: [{FACTS_PAGE}]({FACTS_PAGE}).",
    ]


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


def _behind_muxes(config: HwConfig) -> str:
    """" behind a TCA9548A I2C mux", or the muxes of a profile with more controllers."""
    n = 1 + sum(1 for e in config.i2c.extra if e.mux is not None)
    if n == 1:
        return " behind a TCA9548A I2C mux"
    return f" behind {n} TCA9548A I2C muxes, one per I2C controller"


def _i2c_section(config: HwConfig) -> list[str]:
    mux = config.i2c.mux
    rows = []
    for d in i2c_map(config):
        segment = "main" if d.mux_channel is None else f"mux channel {d.mux_channel}"
        bus = f"I2C{d.bus}" if d.controller == "A" else \
            f"{d.controller} ({controller_pins(config.i2c, d.controller)})"
        if config.i2c.extra and d.controller == "A":
            bus = f"A (I2C{d.bus})"
        rows.append(
            (
                bus,
                segment,
                _linux_bus(config, d.mux_channel, d.controller),
                f"0x{d.address:02X}",
                d.device,
                _address_setting(d.device, d.address),
            )
        )
    out = [
        "## 3. I2C devices",
        "",
        f"I2C bus {config.i2c.bus} (header pins 3/5)"
        + (f" and {len(config.i2c.extra)} more controller{'s' * (len(config.i2c.extra) > 1)}"
           " (section 1)" if config.i2c.extra else "")
        + f" at {config.i2c.baudrate // 1000} kHz.",
    ]
    if mux is not None:
        out[-1] += (
            " Each station is alone on its own channel of its controller's mux, so every "
            "station board is the "
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
            if config.i2c.extra:
                where = f"I2C {spec.controller} {where}"
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
                rows2.append((name, pin, "GND", "4.7 kOhm to GND: output-only, driven low"))
            else:
                rows2.append((name, pin, "-", "unused: leave open (pull-up on)"))
        rows2.append(("INTA", 20, "INT", "open-drain, mirrored; RJ45 pin 7 -> the station's "
                      "INT GPIO"))
        out += [*_table(("MCP23017 pin", "DIP pin", "Signal", "Function"), rows2), ""]
        out += [
            "GPA7 and GPB7 go to GND through 4.7 kOhm each: Microchip's current MCP23017 data "
            "sheet makes them output-only (an input changing during a read can corrupt SDA), "
            "so the firmware drives both low and reads tray slot 4 on GPB4. From power-on "
            "until the firmware configures the chip they are inputs, and the resistor keeps "
            "them from floating; once they drive low it carries no current, and a stray write "
            "that drove one high would meet 4.7 kOhm, not a short.",
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
    rc = config.race_control
    if rc is not None:
        via = {"GND": "hub GND rail", "VCC": "hub 3V3 rail"} if "PWR" in h.connectors \
            else {"GND": "Pi pin 25 (GND)", "VCC": "Pi pin 17 (3V3)"}
        for line in ("SCL", "SDA"):
            via[line] = (f"mux {line[:2]}{rc.mux_channel}" if rc.mux_channel is not None
                         else f"Pi pin {3 if line == 'SDA' else 5} ({line})")
        for pin in OLED_PINS:
            rows.append((f"{RACE_CONTROL_LABEL} (race control)",
                         f"{rc.driver.upper()} 0x{rc.address or 0:02X}", pin, f"WR: {via[pin]}",
                         _wire_colour(FUNCTION_COLOURS["3V3" if pin == "VCC" else pin])))
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
        *([] if rc is None else [
            "The race-control display (`[race_control]` in the profile) stands beside the "
            "board where every player can read it: the round, the weather, the race order and "
            "where to move each Legend car. It is one more OLED on its own I2C segment; without "
            "it the stations' status lines carry the Legend moves.",
            ""]),
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
    step = 4 if mux is not None else 3
    for extra, name in zip(config.i2c.extra, CONTROLLER_NAMES[1:], strict=False):
        if extra.mux is None or mux is None:
            continue
        pins = extra.pins
        buses = [str(extra.bus)] if extra.bus is not None else \
            [str(pins.bus("pi4")), str(pins.bus("pi5"))]
        sysfs = [f"{b}-00{extra.mux.address:02x}" for b in buses]
        where = "" if len(buses) == 1 else \
            f" (on a Pi 5: `i2cdetect -y {buses[1]}`, `{sysfs[1]}`)"
        chans = sorted({d.mux_channel for d in i2c_map(config)
                        if d.controller == name and d.mux_channel is not None})
        out.append(
            f"{step}. Controller {name} ({controller_pins(config.i2c, name)}) has a mux of its "
            f"own: `i2cdetect -y {buses[0]}`{' (Pi 4)' if len(buses) > 1 else ''} shows `UU` "
            f"at {extra.mux.address:02x}, and for "
            f"each channel k in {', '.join(map(str, chans))} `ls -l /sys/bus/i2c/devices/"
            f"{sysfs[0]}/channel-k` gives `i2c-N`, whose `i2cdetect -y N` shows that station's "
            f"devices only{where}."
        )
        step += 1
    out.append(
        f"{step}. With a multimeter, unpowered: every input line reads "
        "open to GND, and closes when its button is pressed; exactly one lever contact is "
        "closed in each gear, none between gears."
    )
    out.append("")
    return out
