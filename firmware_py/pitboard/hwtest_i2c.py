"""hw-test's step 2, **I2C**: every address on every controller and mux channel the profile
uses, each expected device named ``ok`` or ``MISSING`` (see :mod:`pitboard.hwtest`)."""

from __future__ import annotations

import errno
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .hw.mcp23017 import SMBusLike
    from .hwconfig import HwConfig
    from .hwtest import Report

#: the addresses i2cdetect scans: 0x00-0x07 and 0x78-0x7F are reserved by the I2C spec
PROBE_RANGE = range(0x08, 0x78)
#: where Raspberry Pi OS keeps the overlays the firmware loads (Bookworm, then earlier)
BOOT_DIRS = (Path("/boot/firmware"), Path("/boot"))


def open_smbus(number: int) -> SMBusLike:
    from smbus2 import SMBus

    bus: SMBusLike = SMBus(number)
    return bus


def probe(bus: Any, address: int) -> str:
    """``"yes"``, ``"no"`` or ``"busy"`` (a kernel driver owns it, i2cdetect's ``UU``)."""
    try:
        if hasattr(bus, "write_quick"):
            bus.write_quick(address)
        else:
            bus.read_byte_data(address, 0)
    except OSError as exc:
        return "busy" if exc.errno == errno.EBUSY else "no"
    return "yes"


def read_mux(bus: Any, address: int) -> int | None:
    """A TCA9548A's control register read off the wire (``force``: the kernel's pca954x driver
    holds the address, so a plain probe only says EBUSY); None when the chip does not answer."""
    try:
        return int(bus.read_byte(address, force=True))
    except (OSError, AttributeError):
        return None


def overlay_report(report: Report, config: HwConfig, *, proc_root: Path = Path("/proc"),
                   boot_dirs: Sequence[Path] = BOOT_DIRS) -> None:
    """On a Pi, check that the installed i2c-mux overlay takes the bus parameter of each extra
    controller's mux (``i2c2`` came only with raspberrypi/linux PR 6636, January 2025): a line
    naming a parameter the overlay lacks leaves that mux, and its stations, without a bus."""
    from .hwconfig import EXTRA_I2C, pi_board
    from .hwconfig.dtbo import overlay_parameters

    board = pi_board(proc_root)
    needed = {extra.pins.controller(board): name
              for name, extra in zip(config.i2c.controllers[1:], config.i2c.extra, strict=True)
              if board is not None and extra.mux is not None and extra.sda in EXTRA_I2C}
    if not needed:
        return
    dtbo = next((d / "overlays" / "i2c-mux.dtbo" for d in boot_dirs
                 if (d / "overlays" / "i2c-mux.dtbo").is_file()), None)
    if dtbo is None:
        report.problem("no overlays/i2c-mux.dtbo in " + " or ".join(map(str, boot_dirs))
                       + ": the muxes of I2C " + ", ".join(needed.values()) + " cannot load")
        return
    try:
        params = overlay_parameters(dtbo.read_bytes())
    except (OSError, ValueError) as exc:
        report.problem(f"{dtbo}: {exc}")
        return
    for param, controller in needed.items():
        if param not in params:
            report.problem(f"{dtbo} has no parameter {param}: the overlay predates it "
                           "(raspberrypi/linux PR 6636, January 2025), so the mux of I2C "
                           f"{controller} did not load: sudo apt full-upgrade, then reboot")
    if all(p in params for p in needed):
        report.line(f"  {dtbo} takes " + ", ".join(needed) + ": ok")


def _open_advice(exc: OSError, controller: str, channel: int | None, number: int,
                 sys_root: Path) -> str:
    """What to check when /dev/i2c-N does not open, by errno."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ("permission denied: be in the i2c group (sudo usermod -aG i2c $USER, then log "
                "in again) or use sudo")
    if exc.errno == errno.ENOENT and (sys_root / "bus" / "i2c" / "devices" /
                                      f"i2c-{number}").exists():
        return ("the bus is there but has no /dev node: the i2c-dev module is not loaded "
                "(sudo modprobe i2c-dev; make install-pi lists it in "
                "/etc/modules-load.d/pitboard.conf)")
    if channel is not None:
        return "is the i2c-mux overlay in config.txt, and did the mux answer at boot?"
    if controller == "A":
        return "dtparam=i2c_arm=on in config.txt, then reboot"
    return f"is I2C {controller}'s dtoverlay line in config.txt (see the profile's wiring page)?"


def i2c_report(report: Report, config: HwConfig,
               bus_factory: Callable[[int], SMBusLike], *, proc_root: Path = Path("/proc"),
               boot_dirs: Sequence[Path] = BOOT_DIRS, sys_root: Path = Path("/sys")
               ) -> dict[tuple[str, int | None], int]:
    """Probe every segment of every I2C controller; return (controller, mux channel) -> bus
    number for the segments that exist."""
    from .hwconfig import i2c_map, resolve_i2c_bus
    from .hwconfig.pins import controller_pins

    report.line("2. I2C")
    overlay_report(report, config, proc_root=proc_root, boot_dirs=boot_dirs)
    devices = i2c_map(config)
    if not devices:
        report.line("  no I2C devices in this profile")
        return {}
    segments: dict[tuple[str, int | None], list[Any]] = {}
    for d in devices:
        segments.setdefault((d.controller, d.mux_channel), []).append(d)
    numbers: dict[tuple[str, int | None], int] = {}
    # per controller: devices expected on its mux channels, and how many of them answered
    behind: dict[str, list[int]] = {}
    for controller, channel in sorted(segments, key=lambda s: (s[0], -1 if s[1] is None
                                                               else s[1])):
        name = "" if controller == "A" else f"I2C {controller} "
        try:
            number = resolve_i2c_bus(config.i2c, channel, controller=controller,
                                     proc_root=proc_root)
        except LookupError as exc:
            report.problem(f"{name}mux channel {channel}: {exc}" if channel is not None
                           else f"I2C {controller}: {exc}")
            continue
        if channel is None:
            where = f"/dev/i2c-{number}" + ("" if controller == "A" else f" (I2C {controller}, "
                                             f"{controller_pins(config.i2c, controller)})")
        else:
            where = f"/dev/i2c-{number} ({name}mux channel {channel})"
        try:
            bus = bus_factory(number)
        except OSError as exc:
            advice = _open_advice(exc, controller, channel, number, sys_root)
            report.problem(f"{where}: cannot open ({exc.strerror or exc}): {advice}")
            continue
        numbers[(controller, channel)] = number
        expected = {d.address: d for d in segments[(controller, channel)]}
        found = {a: probe(bus, a) for a in PROBE_RANGE}
        report.line(f"  {where}:")
        for address, d in sorted(expected.items()):
            state = found.get(address, "no")
            if "mux" in d.device:
                _mux_line(report, config, controller, where, address, d.device, state, bus)
                continue
            if channel is not None:
                count = behind.setdefault(controller, [0, 0])
                count[0] += 1
                count[1] += state != "no"
            if state == "no":
                report.problem(f"{where}: 0x{address:02X} {d.device} MISSING: "
                               f"{_missing_hint(d.device, channel)}")
            else:
                report.line(f"    0x{address:02X} {d.device}: ok"
                            + (" (held by its kernel driver)" if state == "busy" else ""))
        others = [a for a, s in found.items() if s != "no" and a not in expected]
        # a mux channel also shows the devices of its controller's own bus (the mux passes
        # them through)
        if channel is not None:
            main = {d.address for d in segments.get((controller, None), [])}
            others = [a for a in others if a not in main]
        for address in others:
            report.problem(f"{where}: unexpected device at 0x{address:02X} (a wrong address "
                           "jumper, or a module on the wrong cable)")
        close = getattr(bus, "close", None)
        if callable(close):
            close()
    for controller, (wanted, answered) in sorted(behind.items()):
        mux = config.i2c.mux_of(controller)
        if mux is not None and wanted > 1 and answered == 0:
            report.problem(f"I2C {controller}: nothing answers behind the mux at "
                           f"0x{mux.address:02X} (every device on its channels MISSING): "
                           f"{_check_the_mux(mux.reset_pin)}")
    return numbers


def _check_the_mux(reset_pin: int | None) -> str:
    reset = (f"RESET (GPIO {reset_pin}) high" if reset_pin is not None
             else "RESET pulled up to 3V3")
    return f"check the mux: {reset}, its 3V3 and GND, SDA/SCL to the Pi, the A0-A2 straps"


def _mux_line(report: Report, config: HwConfig, controller: str, where: str, address: int,
              device: str, state: str, bus: Any) -> None:
    """A mux on its controller's own bus: read off the wire, whatever the kernel holds."""
    mux = config.i2c.mux_of(controller)
    reset_pin = mux.reset_pin if mux is not None else None
    value = read_mux(bus, address) if state == "busy" else (0 if state == "yes" else None)
    if value is None:
        held = " (its kernel driver holds the address)" if state == "busy" else ""
        report.problem(f"{where}: 0x{address:02X} {device} MISSING: it does not answer{held}: "
                       f"{_check_the_mux(reset_pin)}")
        return
    report.line(f"    0x{address:02X} {device}: ok"
                + (" (held by its kernel driver, answers a read)" if state == "busy" else ""))
    if value and mux is not None and mux.idle_disconnect:
        channels = ", ".join(str(k) for k in range(8) if value >> k & 1)
        report.problem(f"{where}: 0x{address:02X} {device} keeps channel {channels} selected "
                       "between transfers: idle disconnect is off (sudo make install-pi sets "
                       "the pca954x idle_state; or reboot)")


def _missing_hint(device: str, channel: int | None) -> str:
    cable = "its station cable and jack" if channel is not None else "its wires to the Pi"
    if "MCP23017" in device:
        return (f"check {cable}, the chip's 3V3 and GND, RESET tied to 3V3 and A0-A2 to GND; "
                "the SDA/SCL pull-ups")
    return (f"check {cable} and the module's VCC/GND/SCL/SDA order (it varies between "
            "modules); 0x3D: the address jumper")
