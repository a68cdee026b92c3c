"""Helpers for the hardware-profile tests: small valid profiles as parsed TOML, their problems."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pitboard.hwconfig import (
    ConfigError,
    parse_config,
)

SOURCE = Path("t.toml")


def base() -> dict[str, Any]:
    """A valid one-station profile on direct GPIO (no SPI/UART pins), as parsed TOML."""
    return {
        "table": {"name": "T"},
        "console": {"staff_pin": "1234"},
        "journal": {"dir": "j"},
        "stations": [
            {
                "input": {
                    "kind": "gpio",
                    "lever": [4, 17, 27, 22],
                    "slots": [5, 6, 13, 19, 12, 16, 20],
                    "go": 21,
                },
                "display": {"driver": "ssd1306", "bus": "i2c", "address": 0x3C},
            }
        ],
    }


def mux_base() -> dict[str, Any]:
    """A valid two-station profile behind a TCA9548A."""
    raw = base()
    raw["i2c"] = {"bus": 1, "mux": {"type": "tca9548a", "address": 0x70}}
    raw["stations"] = [
        {
            "input": {"kind": "mcp23017", "mux_channel": k, "address": 0x20, "int_pin": 17 + k},
            "display": {"driver": "ssd1306", "bus": "i2c", "mux_channel": k, "address": 0x3C},
        }
        for k in range(2)
    ]
    return raw


def problems(raw: dict[str, Any]) -> list[str]:
    with pytest.raises(ConfigError) as err:
        parse_config(raw, source=SOURCE)
    return err.value.problems


def station(raw: dict[str, Any], index: int = 0) -> dict[str, Any]:
    stations: list[dict[str, Any]] = raw["stations"]
    return stations[index]


def sim_without_web(tmp_path: Path) -> str:
    """The sim profile with its phones' web server off, as a file in ``tmp_path``: for tests
    of ``pitboard run`` that are about something else (the server would take port 8080,
    which another test or a running Pitboard may hold)."""
    from pitboard.hwconfig import profiles_dir

    text = (profiles_dir() / "sim.toml").read_text(encoding="utf-8")
    path = tmp_path / "sim.toml"
    assert "\nenabled = true\n" in text  # [web]'s, the only one
    path.write_text(text.replace("\nenabled = true\n", "\nenabled = false\n", 1),
                    encoding="utf-8")
    return str(path)
