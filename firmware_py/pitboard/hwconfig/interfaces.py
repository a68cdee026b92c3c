"""What a profile needs from the Pi: Python modules, kernel interfaces, device nodes.

Checked at start-up (``pitboard run``) so a missing package or a disabled interface is one line
naming the fix, not a crash loop of the service. The I2C lines are also what the boot-time wait
looks for (the i2c-mux channels appear a moment after the service may start).

Example::

    >>> from pitboard.hwconfig import load_profile
    >>> [n.what for n in needs(load_profile("grid6"))][:2]
    ['/dev/i2c-1', 'mux channel 0']
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .pins import I2cDeviceUse, _mux_parent, controller_pins, i2c_map, resolve_i2c_bus
from .schema import HwConfig


@dataclass(frozen=True, slots=True)
class Need:
    """One thing the profile needs: a device node, a mux channel or a Python module.

    :func:`needs` lists them; :func:`missing` turns each one not met into its one line.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> need = needs(load_profile("grid6"))[1]
        >>> need.what, need.kind, need.key
        ('mux channel 0', 'channel', 'A:0')
        >>> need.who
        'S1 MCP23017 inputs, S1 SSD1306 display'
    """

    #: "/dev/spidev0.0", "mux channel 3" or "Python module spidev"
    what: str
    #: who needs it: "S1 display (SPI)"
    who: str
    #: how to get it, for the one-line error
    fix: str
    #: "device", "channel" or "module"
    kind: str
    #: the device path, the mux channel number or the module name
    key: str


_I2C_FIX = ("I2C is off: dtparam=i2c_arm=on in /boot/firmware/config.txt and the i2c-dev module "
            "(sudo make install-pi does both), then reboot")
_MUX_FIX = ("no bus for it: is dtoverlay=i2c-mux,pca9548,addr=0x{addr:02x}{parent} in config.txt, "
            "{overlay}and does the mux answer (pitboard hw-test)?")
#: the extra controllers' mux lines name a bus parameter the card's overlay may lack
_MUX_PARAM = ("does the card's i2c-mux overlay take that bus parameter (a Pi 5's i2c2 needs "
              "2025 overlays: sudo apt full-upgrade), ")
_EXTRA_FIX = ("that I2C controller is off: its dtoverlay line for GPIO {sda}/{scl} in "
              "/boot/firmware/config.txt (sudo make install-pi writes it for a Pi 4 and a Pi 5; "
              "wiring_docs names it), then reboot")
_SPI_FIX = ("SPI is off: dtparam=spi=on in /boot/firmware/config.txt (sudo make install-pi does "
            "it for a profile with an SPI display), then reboot")
_SPIDEV_FIX = "sudo apt install python3-spidev (in a venv without system packages: pip install " \
    "'pitboard[spi]')"
_RPI_GPIO_FIX = "sudo apt install python3-rpi-lgpio (luma drives the D/C and RESET lines " \
    "through the RPi.GPIO API; rpi-lgpio provides it on lgpio, the only GPIO library of a Pi 5)"


def _who(devices: Iterable[I2cDeviceUse]) -> str:
    """The stations (S1, ...) and the race-control display (RC) among ``devices``."""
    return ", ".join(sorted({d.device.split(" ")[0] for d in devices
                             if d.station is not None or d.key == "race_control.display"}))


def needs(config: HwConfig) -> list[Need]:
    """Everything ``config`` needs, in the order a builder should fix it."""
    out: list[Need] = []
    devices = i2c_map(config)
    if devices:
        who = _who(d for d in devices if d.controller == "A")
        out.append(Need(f"/dev/i2c-{config.i2c.bus}", f"I2C bus {config.i2c.bus} ({who})",
                        _I2C_FIX, "device", f"/dev/i2c-{config.i2c.bus}"))
        for controller in config.i2c.controllers:
            mine = [d for d in devices if d.controller == controller]
            name = "" if controller == "A" else f"I2C {controller} "
            if controller != "A" and mine:
                who = _who(mine)
                extra = config.i2c.extra_of(controller)
                out.append(Need(f"I2C {controller} ({controller_pins(config.i2c, controller)})",
                                who, _EXTRA_FIX.format(sda=extra.sda, scl=extra.sda + 1),
                                "controller", controller))
            mux = config.i2c.mux_of(controller)
            if mux is None:
                continue
            for channel in sorted({d.mux_channel for d in mine if d.mux_channel is not None}):
                users = ", ".join(d.device for d in mine if d.mux_channel == channel)
                parent = ("" if controller == "A" else
                          f",{_mux_parent(config.i2c, controller, None)}")
                out.append(Need(f"{name}mux channel {channel}", users,
                                _MUX_FIX.format(addr=mux.address, parent=parent,
                                                overlay=_MUX_PARAM if parent else ""), "channel",
                                f"{controller}:{channel}"))
    spi = [s for s in config.stations if s.display.bus == "spi"]
    if spi:
        who = ", ".join(f"{s.label} display (SPI)" for s in spi)
        out.append(Need("Python module spidev", who, _SPIDEV_FIX, "module", "spidev"))
        out.append(Need("Python module RPi.GPIO", who, _RPI_GPIO_FIX, "module", "RPi.GPIO"))
        for s in spi:
            path = f"/dev/spidev{s.display.port or 0}.{s.display.device or 0}"
            out.append(Need(path, f"{s.label} display (SPI)", _SPI_FIX, "device", path))
    return out


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def missing(
    config: HwConfig,
    *,
    root: Path = Path("/"),
    sys_root: Path = Path("/sys"),
    has_module: Callable[[str], bool] = _has_module,
) -> list[str]:
    """One line per need that is not met: ``<what> missing for <who>: <fix>``.

    Example::

        >>> from pitboard.hwconfig import load_profile
        >>> missing(load_profile("sim"))
        []
    """
    problems = []
    for need in needs(config):
        if need.kind == "device":
            ok = (root / need.key.lstrip("/")).exists()
        elif need.kind in ("channel", "controller"):
            controller, _, channel = need.key.partition(":")
            try:
                number = resolve_i2c_bus(config.i2c, int(channel) if channel else None,
                                         sys_root=sys_root, controller=controller,
                                         proc_root=root / "proc")
            except LookupError:
                ok = False
            else:
                ok = (root / "dev" / f"i2c-{number}").exists()
        else:
            ok = has_module(need.key)
        if not ok:
            problems.append(f"{need.what} missing for {need.who}: {need.fix}")
    return problems
