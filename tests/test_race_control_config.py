"""The optional race-control display in a hardware profile: ``[race_control] display``, its
checks, the I2C map, the wiring docs and the bill of materials."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pitboard.hwconfig import ConfigError, i2c_map, load_profile, parse_config
from pitboard.wiring import bom_rows, build_harness, profile_doc
from test_hwconfig import base, mux_base

SOURCE = Path("t.toml")
DOCS = Path(__file__).resolve().parent.parent / "wiring_docs"


def problems(raw: dict[str, Any]) -> list[str]:
    with pytest.raises(ConfigError) as err:
        parse_config(raw, source=SOURCE)
    return err.value.problems


def with_rc(raw: dict[str, Any], **display: Any) -> dict[str, Any]:
    raw["race_control"] = {"display": {"driver": "ssd1306", "bus": "i2c", **display}}
    return raw


def test_no_race_control_display_by_default() -> None:
    assert parse_config(base(), source=SOURCE).race_control is None
    assert load_profile("duo").race_control is None
    sim = load_profile("sim").race_control  # the desktop sim shows one, emulated
    assert sim is not None and sim.bus == "emulated"


def test_a_race_control_display_on_a_spare_mux_channel() -> None:
    config = parse_config(with_rc(mux_base(), mux_channel=6, address=0x3C), source=SOURCE)
    rc = config.race_control
    assert rc is not None and (rc.driver, rc.bus, rc.mux_channel, rc.address) == \
        ("ssd1306", "i2c", 6, 0x3C)
    assert (6, 0x3C, "RC SSD1306 race-control display") in [
        (d.mux_channel, d.address, d.device) for d in i2c_map(config)]


def test_grid6_ships_one_on_channel_6() -> None:
    rc = load_profile("grid6").race_control
    assert rc is not None and rc.mux_channel == 6 and rc.address == 0x3C


def test_race_control_problems_are_one_line_each() -> None:
    assert problems(with_rc(mux_base(), mux_channel=1, address=0x3C)) == [
        "t.toml: race_control.display.address: 0x3C is already used by stations[1].display "
        "(S2 SSD1306 display) on I2C bus 1 mux channel 1"]
    assert problems(with_rc(base(), mux_channel=6, address=0x3D)) == [
        "t.toml: race_control.display.mux_channel: set, but the profile has no [i2c.mux]"]
    raw = with_rc(mux_base(), mux_channel=6)
    raw["race_control"]["display"].update(bus="spi")
    del raw["race_control"]["display"]["mux_channel"]
    assert problems(raw) == ['t.toml: race_control.display.bus: "spi" is not for the '
                             "race-control display: use i2c (a spare mux channel) or emulated"]
    raw = mux_base()
    raw["race_control"] = {"display": {"bus": "i2c"}, "buttons": 1}
    found = problems(raw)
    assert "t.toml: race_control.buttons: unknown key (valid keys: display)" in found
    assert any("race_control.display.driver" in p for p in found)


def test_an_emulated_race_control_display() -> None:
    raw = base()
    raw["stations"][0]["display"] = {"driver": "ssd1306", "bus": "emulated"}
    raw["stations"][0]["input"] = {"kind": "emulated"}
    raw["race_control"] = {"display": {"driver": "sh1106", "bus": "emulated"}}
    rc = parse_config(raw, source=SOURCE).race_control
    assert rc is not None and rc.bus == "emulated" and rc.driver == "sh1106"


def test_wiring_docs_cover_the_race_control_display() -> None:
    config = load_profile("grid6")
    harness = build_harness(config)
    assert "RC" in harness.connectors and "WR" in harness.cables
    wires = {(w.src, w.src_pin, w.dst, w.dst_pin) for w in harness.wires if w.cable == "WR"}
    assert len(wires) == 4 and ("PWR", 2, "RC", 1) in wires  # GND from the hub rail
    doc = profile_doc(config, harness)
    assert "| RC (race control) | SSD1306 0x3C | SDA | WR: mux SD6 | BU (blue) |" in doc
    assert "0x3C | RC SSD1306 race-control display |" in doc
    assert "### WR: race-control display cable" in doc
    rows = bom_rows(config)
    assert any(part.startswith("OLED") and qty == "7" and "race-control" in note
               for qty, part, note in rows)
    assert any("race-control display cable" in note for _, _, note in rows)
    # the committed docs are these (test_wiring_docs checks every file is fresh)
    assert "RC SSD1306 race-control display" in (DOCS / "grid6.md").read_text()
    assert "race-control display cable WR" in (DOCS / "grid6-bom.md").read_text()


def test_without_a_mux_the_race_control_display_hangs_on_the_header() -> None:
    raw = with_rc(base(), address=0x3D)
    config = parse_config(raw, source=SOURCE)
    harness = build_harness(config)
    wires = {(w.src, w.src_pin, w.dst, w.dst_pin) for w in harness.wires if w.cable == "WR"}
    assert wires == {("PI", 25, "RC", 1), ("PI", 17, "RC", 2), ("PI", 5, "RC", 3),
                     ("PI", 3, "RC", 4)}
