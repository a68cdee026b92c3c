"""Pin and bus planning: which Pi GPIO lines and I2C addresses a profile uses, and the
/dev/i2c-N number of each mux channel.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pitboard.hw.mcp23017 import STATION_BITS

from .schema import (
    _I2C1_PINS,
    _SPI0_PINS,
    _UART_PINS,
    BCM_TO_PHYSICAL,
    CONTROLLER_NAMES,
    EXTRA_I2C,
    EXTRA_PULL_UP,
    RACE_CONTROL_LABEL,
    DisplayConfig,
    GpioInput,
    HwConfig,
    I2cConfig,
    InputConfig,
    Mcp23017Input,
)

# ---- pin and bus usage ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PinUse:
    """One Pi GPIO line in use.

    Example::

        >>> from pitboard.hwconfig import load_profile
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

        >>> from pitboard.hwconfig import load_profile
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
    #: the I2C controller: "A" ([i2c]), "B", "C" ([[i2c.extra]])
    controller: str = "A"


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
            claims.append(
                _Claim(pin, f"{base}.slots[{i}]", f"{s} slot {i + 1}", index, "input", "up"))
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


def _mux_reset_claim(pin: int) -> _Claim:
    return _Claim(pin, "i2c.mux.reset_pin", "TCA9548A RESET (active low)", -1, "output", "-")


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
    i2c: I2cConfig, parts: Sequence[tuple[int, InputConfig | None, DisplayConfig | None]],
    race_control: DisplayConfig | None = None,
) -> list[I2cDeviceUse]:
    devices: list[I2cDeviceUse] = []
    if i2c.mux is not None:
        devices.append(
            I2cDeviceUse(i2c.bus, None, i2c.mux.address, "TCA9548A mux", None, "i2c.mux.address")
        )
    for i, extra in enumerate(i2c.extra):
        if extra.mux is not None:
            devices.append(I2cDeviceUse(_number(i2c, CONTROLLER_NAMES[i + 1]), None,
                                        extra.mux.address, "TCA9548A mux", None,
                                        f"i2c.extra[{i}].mux.address", CONTROLLER_NAMES[i + 1]))
    for index, spec, display in parts:
        s = f"S{index + 1}"
        if isinstance(spec, Mcp23017Input):
            devices.append(
                I2cDeviceUse(
                    _number(i2c, spec.controller),
                    spec.mux_channel,
                    spec.address,
                    f"{s} MCP23017 inputs",
                    index,
                    f"stations[{index}].input",
                    spec.controller,
                )
            )
        if display is not None and display.bus == "i2c" and display.address is not None:
            devices.append(
                I2cDeviceUse(
                    _number(i2c, display.controller),
                    display.mux_channel,
                    display.address,
                    f"{s} {_display_name(display)} display",
                    index,
                    f"stations[{index}].display",
                    display.controller,
                )
            )
    rc = race_control
    if rc is not None and rc.bus == "i2c" and rc.address is not None:
        devices.append(I2cDeviceUse(_number(i2c, rc.controller), rc.mux_channel, rc.address,
                                    f"{RACE_CONTROL_LABEL} {_display_name(rc)} race-control "
                                    "display", None, "race_control.display", rc.controller))
    return devices


def _number(i2c: I2cConfig, controller: str) -> int:
    """The /dev/i2c-N of ``controller`` as far as the profile says (-1: it depends on the
    board, see :func:`resolve_i2c_bus`)."""
    if controller == "A":
        return i2c.bus
    try:
        number = i2c.extra_of(controller).bus
    except LookupError:
        return -1
    return -1 if number is None else number


def pin_map(config: HwConfig) -> list[PinUse]:
    """Every Pi GPIO the profile uses, ordered by physical header pin.

    Station lines come with their function ("S2 slot 4"), shared lines with the bus function
    (I2C1 when any I2C device is configured on bus 1, SPI0 with an SPI display, the UART when
    the console uses it).

    Example::

        >>> from pitboard.hwconfig import load_profile
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
    mux = config.i2c.mux
    if mux is not None and mux.reset_pin is not None:
        c = _mux_reset_claim(mux.reset_pin)
        uses.append(PinUse(c.pin, BCM_TO_PHYSICAL[c.pin], c.function, None, c.mode, c.pull, c.key))
    parts = [(s.index, s.input, s.display) for s in config.stations]
    devices = _i2c_devices(config.i2c, parts, config.race_control)
    if config.i2c.bus == 1 and any(d.controller == "A" for d in devices):
        for pin, name in _I2C1_PINS.items():
            uses.append(PinUse(pin, BCM_TO_PHYSICAL[pin], name, None, "i2c", "1.8k on board", ""))
    for i, extra in enumerate(config.i2c.extra):
        name = CONTROLLER_NAMES[i + 1]
        if extra.sda not in EXTRA_I2C:
            continue
        ctl = extra.pins
        which = f"{ctl.controller('pi4')} on a Pi 4, {ctl.controller('pi5')} on a Pi 5"
        for pin, line in ((ctl.sda, "SDA"), (ctl.scl, "SCL")):
            uses.append(PinUse(pin, BCM_TO_PHYSICAL[pin], f"I2C {name} {line} ({which})", None,
                               "i2c", EXTRA_PULL_UP, f"i2c.extra[{i}].sda"))
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

        >>> from pitboard.hwconfig import load_profile
        >>> [(d.mux_channel, d.device) for d in i2c_map(load_profile("grid6"))][:3]
        [(None, 'TCA9548A mux'), (0, 'S1 MCP23017 inputs'), (0, 'S1 SSD1306 display')]
    """
    parts = [(s.index, s.input, s.display) for s in config.stations]
    devices = _i2c_devices(config.i2c, parts, config.race_control)
    return sorted(
        devices,
        key=lambda d: (d.controller, -1 if d.mux_channel is None else d.mux_channel, d.address),
    )


def _segment(bus: int, channel: int | None, controller: str = "A",
             i2c: I2cConfig | None = None) -> str:
    if i2c is not None and i2c.extra and controller == "A":
        where = f"I2C A (bus {bus})"
    elif controller == "A" or i2c is None:
        where = f"I2C bus {bus}"
    else:
        where = f"I2C {controller} ({controller_pins(i2c, controller)})"
    return where + ("" if channel is None else f" mux channel {channel}")


def controller_pins(i2c: I2cConfig, controller: str) -> str:
    """How people find a controller: "GPIO 22/23" (and its bus number when the profile
    fixes it).

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> controller_pins(load_profile("grid6").i2c, "B")
        'GPIO 22/23'
    """
    if controller == "A":
        return "GPIO 2/3"
    extra = i2c.extra_of(controller)
    pins = f"GPIO {extra.sda}/{extra.sda + 1}"
    return pins if extra.bus is None else f"{pins}, /dev/i2c-{extra.bus}"


def format_pin_map(config: HwConfig) -> str:
    """The pin map as text: GPIO header table, I2C devices, station board bits, stations.

    Example::

        >>> from pitboard.hwconfig import load_profile
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
        lines.append(f"  {'GPIO':<6} {'Pin':>3}  {'Function':<44} {'Mode':<6} Pull")
        for u in uses:
            lines.append(
                f"  {'GPIO' + str(u.bcm):<6} {u.physical:>3}  {u.function:<44} {u.mode:<6} {u.pull}"
            )
    else:
        lines.append("  none")
    lines += ["", "I2C devices:"]
    devices = i2c_map(config)
    if devices:
        for d in devices:
            where = _segment(d.bus, d.mux_channel, d.controller, config.i2c)
            lines.append(f"  {where:<{36 if config.i2c.extra else 26}} 0x{d.address:02X}  "
                         f"{d.device}")
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
            where = _segment(config.i2c.bus, spec.mux_channel, spec.controller, config.i2c)
            irq = f", INT GPIO{spec.int_pin}" if spec.int_pin is not None else ", polled"
            inp = f"MCP23017 0x{spec.address:02X} on {where}{irq}"
        elif isinstance(spec, GpioInput):
            inp = "direct GPIO"
        else:
            inp = "emulated"
        shown = s.display
        if shown.bus == "i2c" and shown.address is not None:
            where = _segment(config.i2c.bus, shown.mux_channel, shown.controller, config.i2c)
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


def pi_board(proc_root: Path = Path("/proc")) -> str | None:
    """"pi4" (BCM2711: Pi 4, CM4, Pi 400), "pi5" (BCM2712: Pi 5, CM5) or None, from the
    device tree's ``compatible`` list; the names of config.txt's conditional sections."""
    try:
        compatible = (proc_root / "device-tree" / "compatible").read_bytes()
    except OSError:
        return None
    names = compatible.decode("ascii", "replace").split("\0")
    if "brcm,bcm2712" in names:
        return "pi5"
    if "brcm,bcm2711" in names:
        return "pi4"
    return None


def resolve_i2c_bus(
    i2c: I2cConfig, mux_channel: int | None, *, sys_root: Path = Path("/sys"),
    controller: str = "A", board: str | None = None, proc_root: Path = Path("/proc"),
) -> int:
    """The /dev/i2c-N number to open for a device on ``mux_channel`` (None = main bus).

    With ``dtoverlay=i2c-mux,pca9548,addr=0x70`` the kernel gives every mux channel its own bus
    and links it as ``/sys/bus/i2c/devices/1-0070/channel-k -> i2c-N``; the kernel switches the
    channel for each transfer (and locks the parent bus), so stations on different channels can
    be read from different threads. ``i2c.mux.first_bus`` (channel k = first_bus + k) overrides
    the sysfs lookup; without either, LookupError.

    ``controller`` "B" or "C" (``[[i2c.extra]]``) is another controller of the Pi with its own
    mux: its bus number is the board's own for those pins (:data:`EXTRA_I2C`: Pi 4 or Pi 5,
    from ``board`` or :func:`pi_board`) unless the profile gives ``bus``, and its channels are
    found the same way under ``<bus>-0070``.

    Example::

        >>> from pitboard.hwconfig import MuxConfig
        >>> resolve_i2c_bus(I2cConfig(mux=MuxConfig(first_bus=22)), 3)
        25
    """
    if controller == "A":
        parent, mux = i2c.bus, i2c.mux
    else:
        extra = i2c.extra_of(controller)
        mux = extra.mux
        if extra.bus is not None:
            parent = extra.bus
        else:
            # the board's own number for the controller on these pins, unless every channel
            # of its mux is fixed by first_bus
            parent = -1
            if mux_channel is None or mux is None or mux.first_bus is None:
                found = board or pi_board(proc_root)
                if found is None:
                    raise LookupError(f"I2C controller {controller} (GPIO {extra.sda}/"
                                      f"{extra.sda + 1}): not a Pi 4 or Pi 5, so its bus number "
                                      f"is unknown: set i2c.extra's bus")
                parent = bus_of_node(extra.pins.node(found), sys_root=sys_root,
                                     fallback=extra.pins.bus(found))
    if mux_channel is None:
        return parent
    if mux is None:
        raise ValueError(f"mux_channel given but I2C controller {controller} has no mux")
    if mux.first_bus is not None:
        return mux.first_bus + mux_channel
    link = sys_root / "bus" / "i2c" / "devices" / f"{parent}-{mux.address:04x}"
    link = link / f"channel-{mux_channel}"
    try:
        target = os.readlink(link)
    except OSError:
        target = ""
    match = re.fullmatch(r"i2c-(\d+)", Path(target).name)
    if match is None:
        raise LookupError(
            f"no I2C bus for mux channel {mux_channel}: {link} is missing (is "
            f"dtoverlay=i2c-mux,pca9548,addr=0x{mux.address:02x}"
            f"{'' if controller == 'A' else ',' + _mux_parent(i2c, controller, board)} in "
            "config.txt?); or set the mux's first_bus"
        )
    return int(match.group(1))


def bus_of_node(node: str, *, sys_root: Path = Path("/sys"), fallback: int) -> int:
    """The /dev/i2c-N whose adapter is the device-tree node ``node`` ("i2c@7e205c00"), found
    by each adapter's ``of_node`` link in sysfs; ``fallback`` when no adapter has it yet.

    The kernel numbers an aliased bus by its alias (i2c-core-base.c, i2c_add_adapter), so on
    Raspberry Pi OS the two agree; finding the bus by its node keeps Pitboard right on a
    kernel whose tree lacks the alias, where the number would be given out in probe order.

    Example::

        >>> bus_of_node("i2c@7e205c00", sys_root=Path("/nonexistent"), fallback=6)
        6
    """
    devices = sys_root / "bus" / "i2c" / "devices"
    try:
        adapters = sorted(devices.glob("i2c-*"))
    except OSError:
        return fallback
    for adapter in adapters:
        target = os.path.realpath(adapter / "of_node")
        if Path(target).name == node and adapter.name[4:].isdigit():
            return int(adapter.name[4:])
    return fallback


def _mux_parent(i2c: I2cConfig, controller: str, board: str | None) -> str:
    """The i2c-mux overlay's parameter that puts a mux on ``controller`` ("i2c6")."""
    extra = i2c.extra_of(controller)
    if extra.sda not in EXTRA_I2C:
        return "?"
    boards = [board] if board else ["pi4", "pi5"]
    return "/".join(extra.pins.controller(b) for b in boards)
