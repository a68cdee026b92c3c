"""What the Raspberry Pi firmware and kernel accept, as checked against their sources.

Two uses: :func:`check_boot_lines` reads a config.txt block the way the firmware does (the
``[pi4]``/``[pi5]``/``[all]`` filters, each overlay's parameters and its scope, the device-tree
aliases that name the I2C buses) and says what is wrong with it and which GPIO lines it gives
to which interface, so a test can hold every generated block against the profile's pin plan;
and :data:`FACTS` lists each fact with its source, rendered into
``wiring_docs/raspberry-pi-facts.md`` by ``pitboard wiring-docs``.

Sources (raspberrypi/linux unless named): ``arch/arm/boot/dts/overlays/README`` and the
overlay sources ``i2c5-overlay.dts``, ``i2c6-overlay.dts``, ``i2c2-pi5-overlay.dts``,
``i2c3-pi5-overlay.dts``, ``i2c-mux-overlay.dts`` with ``i2c-buses.dtsi``; the base trees
``arch/arm/boot/dts/broadcom/bcm2711-rpi-ds.dtsi`` (Pi 4) and
``arch/arm64/boot/dts/broadcom/bcm2712-rpi.dtsi``, ``rp1.dtsi`` (Pi 5); raspberrypi/documentation
``configuration/device-tree.adoc``, ``configuration/uart.adoc``, ``config_txt/conditional.adoc``.

Example::

    >>> check = check_boot_lines(["[all]", "dtparam=i2c_arm=on", "dtoverlay=i2c-mux,pca9548",
    ...                           "dtparam=spi=off"], "pi5")
    >>> check.problems
    ['line 4 dtparam=spi=off: the i2c-mux overlay is still in scope; end it with "dtoverlay=" \
first (device-tree.adoc part 3.2)']
    >>> check.pins[2]
    'I2C1 (i2c_arm)'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

BOARDS: Final = ("pi4", "pi5")

#: config.txt's documented line limit (device-tree.adoc part 3.2: "ensure you don't exceed the
#: 80-character limit")
MAX_LINE: Final = 80


@dataclass(frozen=True, slots=True)
class Overlay:
    """One overlay as its source declares it: where it loads, its parameters, the GPIO lines
    each pin choice claims.

    Example (an entry of :data:`OVERLAYS`, as :func:`check_boot_lines` reads it)::

        >>> i2c6 = OVERLAYS["i2c6"]
        >>> i2c6.boards, i2c6.default_pins, i2c6.pins[i2c6.default_pins], i2c6.enables
        (('pi4',), 'pins_22_23', (22, 23), 'i2c6')
        >>> "baudrate" in i2c6.params
        True
    """

    boards: tuple[str, ...]
    params: frozenset[str]
    #: pin-choice parameter -> the GPIO lines it gives the interface
    pins: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: the pin choice when no pins_* parameter is given
    default_pins: str = ""
    #: the I2C bus (device-tree alias) the overlay enables, for the i2c-mux check
    enables: str = ""
    source: str = ""
    #: what the claimed lines become, when not the bus it enables
    interface: str = ""


#: every overlay a Pitboard profile writes, with its documented parameters
OVERLAYS: Final[dict[str, Overlay]] = {
    "i2c5": Overlay(("pi4",), frozenset({"pins_10_11", "pins_12_13", "baudrate"}),
                    {"pins_10_11": (10, 11), "pins_12_13": (12, 13)}, "pins_12_13", "i2c5",
                    "overlays/i2c5-overlay.dts __overrides__; README \"Name: i2c5\""),
    "i2c6": Overlay(("pi4",), frozenset({"pins_0_1", "pins_22_23", "baudrate"}),
                    {"pins_0_1": (0, 1), "pins_22_23": (22, 23)}, "pins_22_23", "i2c6",
                    "overlays/i2c6-overlay.dts __overrides__; README \"Name: i2c6\""),
    "i2c2-pi5": Overlay(("pi5",), frozenset({"pins_4_5", "pins_12_13", "baudrate"}),
                        {"pins_4_5": (4, 5), "pins_12_13": (12, 13)}, "pins_4_5", "i2c2",
                        "overlays/i2c2-pi5-overlay.dts __overrides__; README \"Name: i2c2-pi5\""),
    "i2c3-pi5": Overlay(("pi5",), frozenset({"pins_6_7", "pins_14_15", "pins_22_23", "baudrate"}),
                        {"pins_6_7": (6, 7), "pins_14_15": (14, 15), "pins_22_23": (22, 23)},
                        "pins_6_7", "i2c3",
                        "overlays/i2c3-pi5-overlay.dts __overrides__; README \"Name: i2c3-pi5\""),
    "i2c-mux": Overlay(BOARDS, frozenset({
        "pca9542", "pca9545", "pca9548", "addr", "disconnect_on_idle",
        # the bus choice, from i2c-buses.dtsi (i2c1, i2c2, i2c_csi_dsi0, i2c-path since PR 6636)
        "i2c0", "i2c_csi_dsi", "i2c_csi_dsi0", "i2c1", "i2c2", "i2c3", "i2c4", "i2c5", "i2c6",
        "i2c-path"}),
        source="overlays/i2c-mux-overlay.dts and i2c-buses.dtsi __overrides__"),
    "disable-bt": Overlay(("pi4",), frozenset(), {"": (14, 15)}, "",
                          source="configuration/uart.adoc \"UARTs and Device Tree\": disable-bt "
                                 "makes the first PL011 (UART0) the primary UART, on GPIO 14/15",
                          interface="primary UART"),
}

#: the bus parameters of i2c-mux before the i2c-buses.dtsi rewrite (raspberrypi/linux
#: PR 6636, January 2025): no ``i2c1`` (the default bus is i2c_arm anyway) and no ``i2c2``
MUX_BUS_PARAMS_BEFORE_2025: Final = frozenset(
    {"i2c0", "i2c_csi_dsi", "i2c3", "i2c4", "i2c5", "i2c6"})
#: i2c-mux's bus parameters: each sets the mux's parent to the bus with that device-tree alias
MUX_BUS_PARAMS: Final = frozenset(
    {"i2c0", "i2c_csi_dsi", "i2c_csi_dsi0", "i2c1", "i2c2", "i2c3", "i2c4", "i2c5", "i2c6",
     "i2c-path"})

#: I2C aliases of each board's base device tree that reach the 40-pin header; the kernel
#: numbers a bus by its alias (i2c_add_adapter: of_alias_get_id(node, "i2c")), so aliased
#: buses keep their /dev/i2c-N whatever probes first. Pi 4: i2c1 (i2c_arm) and
#: bcm2711-rpi-ds.dtsi "i2c3 = &i2c3; ... i2c6 = &i2c6;"; Pi 5: bcm2712-rpi.dtsi
#: "i2c0 = &i2c0; ... i2c3 = &i2c3;" (i2c0..i2c3 are RP1's, PR 6421: "Only the I2C buses that
#: appear on the 40-pin header, i.e. I2C0 to I2C3, get a low bus number").
I2C_ALIASES: Final[dict[str, frozenset[str]]] = {
    "pi4": frozenset({"i2c1", "i2c3", "i2c4", "i2c5", "i2c6"}),
    "pi5": frozenset({"i2c0", "i2c1", "i2c2", "i2c3"}),
}

#: base-tree parameters a Pitboard block sets: name -> GPIO lines claimed when "on" per board
BASE_PARAMS: Final[dict[str, dict[str, tuple[int, ...]]]] = {
    "i2c_arm": {"pi4": (2, 3), "pi5": (2, 3)},
    "i2c_arm_baudrate": {},
    "spi": {"pi4": (7, 8, 9, 10, 11), "pi5": (7, 8, 9, 10, 11)},
    # Pi 5: uart0 is RP1's UART0 with pinctrl rp1_uart0_14_15, "disabled" in rp1.dtsi until
    # dtparam=uart0=on (bcm2712-rpi.dtsi: uart0 = <&uart0>, "status")
    "uart0": {"pi5": (14, 15)},
}

#: every I2C controller's clock unless its parameter says otherwise (overlays/README: base DTB
#: "i2c_arm_baudrate ... (default "100000")", and each i2cN overlay's "baudrate ... (default
#: "100000")")
DEFAULT_BAUDRATE: Final = 100000

#: config.txt settings (not device-tree parameters) a block may carry
SETTINGS: Final = frozenset({"enable_uart"})

_TRUE: Final = {"on", "1", "true", "yes", "okay"}
#: the base parameters that switch an interface on or off: written with their value
_SWITCHES: Final = frozenset({"i2c_arm", "spi", "uart0"})


@dataclass
class BootCheck:
    """What :func:`check_boot_lines` found for one board.

    Example (a Pi 4 block with controller B on GPIO 22/23 at 400 kHz)::

        >>> lines = ["[all]", "dtparam=i2c_arm=on", "[pi4]",
        ...          "dtoverlay=i2c6,pins_22_23,baudrate=400000", "[all]"]
        >>> check = check_boot_lines(lines, "pi4")
        >>> check.problems, check.speeds, check.pins[22]
        ([], {'i2c1': 100000, 'i2c6': 400000}, 'i2c6')
        >>> check_boot_lines(lines, "pi5").applied  # [pi4] lines do not apply on a Pi 5
        ['dtparam=i2c_arm=on']
    """

    board: str
    problems: list[str] = field(default_factory=list)
    #: GPIO line -> the interface the block gives it to on this board
    pins: dict[int, str] = field(default_factory=dict)
    #: (parent bus alias, address) of each i2c-mux the block loads
    muxes: list[tuple[str, int]] = field(default_factory=list)
    #: the lines that apply on this board, in order
    applied: list[str] = field(default_factory=list)
    #: I2C bus alias -> its clock in Hz (100000, the documented default, unless set)
    speeds: dict[str, int] = field(default_factory=dict)

    def claim(self, pins: tuple[int, ...], what: str, where: str) -> None:
        for pin in pins:
            other = self.pins.get(pin)
            if other is not None and other != what:
                self.problems.append(f"{where}: GPIO {pin} is already {other}")
            self.pins[pin] = what


def _params(text: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for part in text.split(","):
        key, eq, value = part.partition("=")
        out.append((key.strip(), value.strip() if eq else None))
    return out


def _applies(section: str, board: str) -> bool:
    return section in ("all", board)


def check_boot_lines(lines: list[str], board: str) -> BootCheck:
    """Read a config.txt block as the firmware would on ``board`` ("pi4" or "pi5").

    Checks: conditional filters (a line under ``[pi4]`` applies only there; the block must end
    in ``[all]`` so lines after it apply everywhere: conditional.adoc "The [all] filter"); the
    line length limit; each overlay exists for the board and takes the parameters given; a
    ``dtparam`` while an overlay's scope is open (device-tree.adoc part 3.2); an i2c-mux's bus
    parameter names an I2C alias of the board whose controller an earlier line enabled; no two
    muxes share a bus and address (the PR 5443 rule: "unique address and bus properties");
    and no GPIO line is given to two interfaces."""
    check = BootCheck(board)
    section = "all"
    scope: str | None = None
    enabled: set[str] = set()
    for number, line in enumerate(lines, 1):
        where = f"line {number} {line}"
        if len(line) > MAX_LINE:
            check.problems.append(f"{where}: longer than {MAX_LINE} characters")
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        if not _applies(section, board):
            continue
        check.applied.append(line)
        key, _, rest = line.partition("=")
        if key == "dtoverlay":
            name, _, args = rest.partition(",")
            scope = name or None
            if not name:
                continue
            overlay = OVERLAYS.get(name)
            if overlay is None:
                check.problems.append(f"{where}: overlay {name} is not one Pitboard checked")
                continue
            if board not in overlay.boards:
                check.problems.append(f"{where}: {name} is not for a {board}")
            params = _params(args) if args else []
            unknown = [k for k, _ in params if k not in overlay.params]
            if unknown:
                check.problems.append(f"{where}: {name} has no parameter {', '.join(unknown)} "
                                      f"({overlay.source})")
            if name == "i2c-mux":
                _check_mux(check, where, params, enabled)
            else:
                chosen = [k for k, _ in params if k in overlay.pins] or [overlay.default_pins]
                check.claim(overlay.pins[chosen[-1]], overlay.interface or overlay.enables or name,
                            where)
                if overlay.enables:
                    enabled.add(overlay.enables)
                    rate = dict(params).get("baudrate")
                    check.speeds[overlay.enables] = int(rate) if rate else DEFAULT_BAUDRATE
        elif key == "dtparam":
            for name, value in _params(rest):
                if scope is not None and name in OVERLAYS[scope].params:
                    check.problems.append(f"{where}: {name} would set a parameter of the {scope} "
                                          "overlay; end its scope with \"dtoverlay=\" first")
                elif scope is not None:
                    check.problems.append(f"{where}: the {scope} overlay is still in scope; end "
                                          "it with \"dtoverlay=\" first (device-tree.adoc part "
                                          "3.2)")
                if name not in BASE_PARAMS:
                    check.problems.append(f"{where}: {name} is not a base-tree parameter "
                                          "Pitboard checked")
                    continue
                if value is None and name in _SWITCHES:
                    check.problems.append(f"{where}: {name} without a value: write {name}=on "
                                          "(or off)")
                    continue
                if (value or "").lower() in _TRUE and board in BASE_PARAMS[name]:
                    what = "I2C1 (i2c_arm)" if name == "i2c_arm" else name
                    check.claim(BASE_PARAMS[name][board], what, where)
                    if name == "i2c_arm":
                        enabled.add("i2c1")
                        check.speeds.setdefault("i2c1", DEFAULT_BAUDRATE)
                if name == "i2c_arm_baudrate" and value:
                    check.speeds["i2c1"] = int(value)
        elif key in SETTINGS:
            if key == "enable_uart" and rest == "1" and board == "pi4":
                # the primary UART (mini UART, or UART0 with disable-bt) is on GPIO 14/15
                check.claim((14, 15), "primary UART", where)
        else:
            check.problems.append(f"{where}: not a line Pitboard checked")
    if section != "all":
        check.problems.append(f"the block ends under [{section}]: close it with [all]")
    return check


def _check_mux(check: BootCheck, where: str, params: list[tuple[str, str | None]],
               enabled: set[str]) -> None:
    buses = [k for k, _ in params if k in MUX_BUS_PARAMS]
    if len(buses) > 1:
        check.problems.append(f"{where}: more than one bus ({', '.join(buses)})")
    bus = buses[-1] if buses else "i2c1"  # the default target is i2c_arm, i.e. i2c1
    if bus not in I2C_ALIASES[check.board]:
        check.problems.append(f"{where}: a {check.board} has no I2C alias {bus} for the mux to "
                              "sit on")
    elif bus not in enabled:
        check.problems.append(f"{where}: its bus {bus} is not enabled by an earlier line")
    address = 0x70
    for key, value in params:
        if key == "addr" and value is not None:
            address = int(value, 0)
    if (bus, address) in check.muxes:
        check.problems.append(f"{where}: a second mux at 0x{address:02x} on {bus}")
    check.muxes.append((bus, address))


# ---- the facts, for the generated page ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fact:
    """One checked fact: what it says, where it comes from, and whether Pitboard had it right.

    Each is an entry of :data:`FACTS`, a row of ``raspberry-pi-facts.md``
    (:func:`pitboard.wiring.facts_page.facts_doc`).

    Example::

        >>> fact = next(f for f in FACTS if f.topic == "bus speed")
        >>> fact.ours, fact.source.split(";")[0]
        ('right', 'overlays/README base DTB "i2c_arm_baudrate"')
    """

    topic: str
    fact: str
    source: str
    #: "right", "corrected: ...", or "unconfirmed: ..."
    ours: str


FACTS: Final[tuple[Fact, ...]] = (
    Fact("i2c-mux on three controllers",
         "One `i2c-mux` line per controller works: overlay labels are private to each "
         "application and the mux node is created under a different bus node each time, so the "
         "same overlay loads three times as long as each (bus, address) pair is unique; all "
         "three muxes can stay at 0x70.",
         "raspberrypi/documentation device-tree.adoc part 2.3 (\"allows the same overlay to be "
         "used multiple times\") and 2.2.9 (`reg`); raspberrypi/linux PR 5443 (6by9: \"as many "
         "instances as you fancy as long as they have unique address and bus properties\")",
         "right"),
    Fact("i2c-mux bus parameters",
         "`i2c-mux` takes the parent bus as a bare parameter: `i2c0`, `i2c_csi_dsi`, "
         "`i2c_csi_dsi0`, `i2c1`, `i2c2` ... `i2c6`, `i2c-path`; without one it sits on i2c_arm "
         "(I2C1). Each `i2cN` sets the fragment's `target-path` to the device-tree alias `i2cN`.",
         "raspberrypi/linux arch/arm/boot/dts/overlays/i2c-buses.dtsi `__overrides__`, included "
         "by i2c-mux-overlay.dts", "right"),
    Fact("i2c-mux `i2c2` needs 2025 overlays",
         "`i2c1` and `i2c2` (and `i2c-path`) came with the shared `i2c-buses.dtsi` in January "
         "2025; before that `i2c-mux` offered only `i2c0`, `i2c_csi_dsi`, `i2c3`-`i2c6`. A Pi 5 "
         "grid6 puts controller C's mux on `i2c2`, so it needs overlays from 2025 or later: "
         "install-pi and `pitboard hw-test` read the installed `i2c-mux.dtbo` and say so.",
         "raspberrypi/linux PR 6636 \"overlays: Factor out the common i2c bus selection\"; "
         "overlays/README \"Name: i2c-mux\" before it lists i2c0, i2c_csi_dsi, i2c3-i2c6",
         "corrected: the docs assumed every overlay set had `i2c2`; now checked on the Pi"),
    Fact("Pi 4 bus aliases",
         "On a Pi 4 the header controllers have aliases i2c1, i2c3, i2c4, i2c5, i2c6, so "
         "`/dev/i2c-5` (GPIO 12/13) and `/dev/i2c-6` (GPIO 22/23) keep their numbers.",
         "raspberrypi/linux arch/arm/boot/dts/broadcom/bcm2711-rpi-ds.dtsi `aliases` (i2c3 = "
         "&i2c3; ... i2c6 = &i2c6;); drivers/i2c/i2c-core-base.c i2c_add_adapter() numbers a "
         "bus by its alias", "right"),
    Fact("Pi 5 bus aliases",
         "On a Pi 5 the header controllers are RP1's i2c0-i2c3 with aliases i2c0-i2c3, so "
         "`/dev/i2c-1`, `/dev/i2c-2` (GPIO 12/13 with i2c2-pi5) and `/dev/i2c-3` (GPIO 22/23 "
         "with i2c3-pi5) keep their numbers; the camera/display buses are i2c-10, i2c-11.",
         "raspberrypi/linux arch/arm64/boot/dts/broadcom/bcm2712-rpi.dtsi `aliases`; PR 6421",
         "right"),
    Fact("mux channel numbers",
         "A mux channel's bus has no alias, so it gets the next free number when the mux "
         "probes (22 and up on a Pi 4, after the i2c20/i2c21 HDMI aliases); with three muxes "
         "the order is not fixed. The kernel links each channel as "
         "`/sys/bus/i2c/devices/<parent>-0070/channel-k`, and Pitboard reads those links. The "
         "parent's number is fixed by its alias; Pitboard still finds controllers B and C by "
         "their device-tree node (`of_node` in sysfs: bcm2711.dtsi `i2c5: i2c@7e205a00`, "
         "`i2c6: i2c@7e205c00`; rp1.dtsi `rp1_i2c2: i2c@78000`, `rp1_i2c3: i2c@7c000`).",
         "drivers/i2c/i2c-core-base.c i2c_add_adapter() (idr from __i2c_first_dynamic_bus_num); "
         "drivers/i2c/i2c-mux.c i2c_mux_add_adapter() (\"channel-%u\" link); PR 5443 log "
         "(\"Added multiplexed i2c bus 22\" on a Pi 4)", "right"),
    Fact("extra controllers' overlays",
         "Pi 4: `dtoverlay=i2c5,pins_12_13` (GPIO 12/13) and `dtoverlay=i2c6,pins_22_23` (GPIO "
         "22/23); Pi 5: `dtoverlay=i2c2-pi5,pins_12_13` and `dtoverlay=i2c3-pi5,pins_22_23`. "
         "The i2c5/i2c6 overlays are BCM2711 only, the -pi5 ones BCM2712 only, hence the "
         "`[pi4]`/`[pi5]` sections.",
         "raspberrypi/linux overlays i2c5-, i2c6-, i2c2-pi5-, i2c3-pi5-overlay.dts; README "
         "\"Name: i2c5\" (\"BCM2711 only\"), \"Name: i2c2-pi5\" (\"Pi 5 only\")", "right"),
    Fact("bus speed",
         "I2C1's speed is the base parameter `i2c_arm_baudrate` (default 100000); each of the "
         "extra controllers' overlays takes `baudrate` (default 100000), on the overlay line. "
         "Pitboard writes the profile's `i2c.baudrate` for every controller.",
         "overlays/README base DTB \"i2c_arm_baudrate\"; bcm2712-rpi.dtsi `i2c_arm_baudrate = "
         "<&i2c_arm>, \"clock-frequency:0\"`; the four overlays' `baudrate = <&frag0>, "
         "\"clock-frequency:0\"`", "right"),
    Fact("parameter scope",
         "A `dtparam` after a `dtoverlay` line goes to that overlay first; `dtoverlay=` (no "
         "name) ends the scope. Lines may carry several parameters; keep them under 80 "
         "characters.",
         "raspberrypi/documentation device-tree.adoc part 3.2 \"DT parameters\"", "right"),
    Fact("conditional sections",
         "`[pi4]` covers Pi 4B, Pi 400, CM4, CM4S; `[pi5]` covers Pi 5, Pi 500, CM5; a filter "
         "holds until the next one, and `[all]` resets them all, so Pitboard's block starts and "
         "ends with `[all]`.",
         "raspberrypi/documentation config_txt/conditional.adoc \"The [all] filter\", \"Model "
         "Filters\"", "right"),
    Fact("UART on GPIO 14/15, Pi 4",
         "The mini UART (`ttyS0`) is the primary UART on GPIO 14/15 and the PL011 (`ttyAMA0`) "
         "drives Bluetooth; `dtoverlay=disable-bt` makes the PL011 the primary UART on GPIO "
         "14/15, and the documentation adds: \"You must also disable the system service that "
         "initialises the modem ... `sudo systemctl disable hciuart`\".",
         "raspberrypi/documentation configuration/uart.adoc \"Primary and Secondary UART\", "
         "\"UARTs and Device Tree\"",
         "corrected: install-pi now disables hciuart.service on a Pi 4 that uses the console"),
    Fact("UART on GPIO 14/15, Pi 5",
         "RP1's UART0 (`ttyAMA0`, pins rp1_uart0_14_15) is `disabled` in the base tree; "
         "`dtparam=uart0=on` enables it. The Pi 5's own debug UART is uart10 (`ttyAMA10`, the "
         "kernel console).",
         "raspberrypi/linux arch/arm64/boot/dts/broadcom/rp1.dtsi (`rp1_uart0` status "
         "\"disabled\"), bcm2712-rpi.dtsi (`uart0 = <&uart0>, \"status\"`, `serial10 = &uart10`, "
         "`stdout-path = \"serial10:115200n8\"`)",
         "corrected: written as `dtparam=uart0=on` (was `dtparam=uart0`, which relies on an "
         "empty value meaning on)"),
    Fact("GPIO chip for lgpio",
         "Pi 4: the header is gpiochip0 (pinctrl-bcm2711). Pi 5: the header is RP1's "
         "pinctrl-rp1, gpiochip4 on kernels before 6.6.45 and gpiochip0 since (a `gpiochip0` "
         "alias; the SoC's own chips moved to 10 and up).",
         "raspberrypi/linux PR 6144 \"Use gpiochip0 for the user-facing GPIOs on Pi 5\"; "
         "bcm2712-rpi.dtsi `gpiochip0 = &gpio`; gpiozero issue 1166", "right"),
    Fact("fixed pins",
         "GPIO 0/1 are the HAT ID EEPROM lines; GPIO 2/3 carry 1.8 kOhm pull-ups on the board "
         "(I2C1); the i2c5/i2c6 overlays switch on the SoC's pull-ups on GPIO 12/13 and 22/23 "
         "(too weak for a bus: the hub fits 4.7 kOhm).",
         "bcm2711-rpi-4-b.dts / bcm2712-rpi-5-b.dts gpio-line-names (\"ID_SDA\", \"ID_SCL\"); "
         "bcm2711-rpi-ds.dtsi i2c5_pins/i2c6_pins `brcm,pull = <BCM2835_PUD_UP>`", "right"),
    Fact("pin collisions",
         "Every block Pitboard writes is read per board by `check_boot_lines`: no GPIO line is "
         "given to two interfaces, and no station input, INT line or mux RESET sits on a line "
         "a bus or UART claims (tests/test_boardfacts.py, for every shipped profile).",
         "pitboard.hwconfig.boardfacts (OVERLAYS, BASE_PARAMS), each entry from the overlay "
         "and base-tree sources above", "right"),
    Fact("duo's inputs on GPIO 14/15 and 7-11",
         "With `enable_uart=0` a Pi 4's mini UART stays off (it is off unless enable_uart=1) and "
         "its PL011 is on GPIO 32/33 for Bluetooth; a Pi 5's UART0 is disabled unless "
         "`dtparam=uart0=on`; SPI0 (GPIO 7-11) is off unless `dtparam=spi=on`. So the duo "
         "buttons on those lines are plain GPIO inputs on both boards.",
         "raspberrypi/documentation configuration/uart.adoc (\"The mini UART is disabled by "
         "default\", enable_uart table); bcm2711-rpi-4-b.dts (`uart0_pins` on 32/33); rp1.dtsi "
         "(`rp1_uart0` disabled); overlays/README base DTB \"spi ... (default off)\"", "right"),
    Fact("mux idle disconnect",
         "The pca954x driver leaves the last channel connected unless its `idle_state` is -2 "
         "(\"disconnect on idle\"), writable in sysfs since kernel 5.2. `i2c-mux` has a "
         "`disconnect_on_idle` parameter since March 2024, but a report of the firmware "
         "passing a wrong idle-state through it is open; Pitboard sets the sysfs value from a "
         "udev rule when the driver binds, which does not depend on the overlay version.",
         "kernel Documentation/ABI/testing/sysfs-bus-i2c-devices-pca954x; raspberrypi/linux "
         "PR 6040 (disconnect_on_idle), issue 6039", "right"),
    Fact("firmware and an unknown overlay parameter",
         "What the firmware does with a `dtoverlay=` line naming a parameter the overlay lacks "
         "(skip the line, or the whole overlay) is not documented; the firmware is closed.",
         "none found", "unconfirmed: Pitboard checks the overlay file instead, before reboot"),
)
