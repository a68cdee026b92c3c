"""Profile-independent sections written into the hand-written docs between markers."""

from __future__ import annotations

from typing import Final

from pitboard.hw.mcp23017 import STATION_BITS

from .markdown import _table, _wire_colour
from .parts import (
    DEFAULT_PROFILES,
    FUNCTION_COLOURS,
    GPIO_STATION_PINS,
    MCP_DIP,
    RJ45_PINS,
    T568B,
    _output_only,
    _signal,
)

# ---- profile-independent sections ----------------------------------------------------------------


def shared_sections() -> dict[str, dict[str, str]]:
    """file name -> {section key -> generated Markdown} for the hand-written files."""
    from .bus_page import bus_time_section  # the display transport: PIL, luma, smbus2

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
            mcp_rows.append((pin, name, "4.7 kOhm to GND (output-only pin: an input until "
                             "configured, then driven low)"))
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
        "i2c-and-cables.md": {"pull-up-limits": "\n".join(_pullup_table()),
                              "bus-time": bus_time_section()},
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
    return [*_table(("Profile", "Wiring", "Parts", "Harness"), rows), "",
            "Raspberry Pi facts these builds rely on (overlays, bus numbers, UARTs, config.txt "
            "order), each with its source: [raspberry-pi-facts.md](raspberry-pi-facts.md)."]
