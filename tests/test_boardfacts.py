"""The config.txt blocks Pitboard writes, read the way the Pi firmware reads them
(pitboard.hwconfig.boardfacts): per board, every overlay and parameter is one its source
declares, every i2c-mux sits on an enabled, aliased bus, and no GPIO line a profile wires as an
input or output is given to a bus or UART."""

from __future__ import annotations

from pathlib import Path

import pytest

from fdtkit import fdt
from pitboard.hwconfig import load_profile, pin_map
from pitboard.hwconfig.boardfacts import (
    BOARDS,
    FACTS,
    MUX_BUS_PARAMS_BEFORE_2025,
    OVERLAYS,
    check_boot_lines,
)
from pitboard.hwconfig.dtbo import main as dtbo_main
from pitboard.hwconfig.dtbo import overlay_parameters
from pitboard.wiring import config_txt_lines


@pytest.mark.parametrize("profile", ["grid6", "duo"])
@pytest.mark.parametrize("board", BOARDS)
def test_the_shipped_blocks_read_clean_on_both_boards(profile: str, board: str) -> None:
    config = load_profile(profile)
    check = check_boot_lines(config_txt_lines(config), board)
    assert check.problems == []
    for use in pin_map(config):
        claimed = check.pins.get(use.bcm)
        if use.mode in ("input", "output"):
            assert claimed is None, f"{profile} {board}: GPIO {use.bcm} {use.function} is {claimed}"
        else:  # i2c, uart, spi: the block must hand the line to that interface
            assert claimed is not None, f"{profile} {board}: nothing drives {use.function}"


def test_grid6_has_a_mux_on_each_controller_of_each_board() -> None:
    lines = config_txt_lines(load_profile("grid6"))
    assert check_boot_lines(lines, "pi4").muxes == [("i2c1", 0x70), ("i2c6", 0x70),
                                                    ("i2c5", 0x70)]
    pi5 = check_boot_lines(lines, "pi5")
    assert pi5.muxes == [("i2c1", 0x70), ("i2c3", 0x70), ("i2c2", 0x70)]
    assert pi5.pins[22] == "i2c3" and pi5.pins[12] == "i2c2" and pi5.pins[14] == "uart0"
    # the Pi 5's controller C needs the 2025 i2c-mux (PR 6636): the docs say so
    assert "i2c2" not in MUX_BUS_PARAMS_BEFORE_2025


@pytest.mark.parametrize(
    ("lines", "board", "problem"),
    [
        (["[all]", "dtoverlay=i2c6,pins_22_23", "dtparam=baudrate=400000"], "pi4",
         "would set a parameter of the i2c6 overlay"),
        (["[all]", "dtparam=i2c_arm=on", "dtoverlay=i2c-mux,pca9548,bus=6", "dtoverlay="], "pi4",
         "i2c-mux has no parameter bus"),
        (["[all]", "dtoverlay=i2c5,pins_12_13", "dtoverlay=i2c-mux,pca9548,i2c5",
          "dtoverlay="], "pi5", "i2c5 is not for a pi5"),
        (["[all]", "dtoverlay=i2c-mux,pca9548,i2c6", "dtoverlay=i2c6,pins_22_23",
          "dtoverlay="], "pi4", "its bus i2c6 is not enabled by an earlier line"),
        (["[all]", "dtoverlay=i2c2-pi5,pins_12_13", "dtoverlay=i2c-mux,pca9548,i2c5",
          "dtoverlay="], "pi5", "a pi5 has no I2C alias i2c5"),
        (["[all]", "dtparam=i2c_arm=on", "dtoverlay=i2c-mux,pca9548", "dtoverlay=i2c-mux,pca9548",
          "dtoverlay="], "pi5", "a second mux at 0x70 on i2c1"),
        (["[all]", "dtoverlay=i2c3-pi5,pins_14_15", "dtoverlay=", "dtparam=uart0=on"], "pi5",
         "GPIO 14 is already i2c3"),
        (["[all]", "[pi5]", "dtparam=uart0"], "pi5", "uart0 without a value"),
        (["[all]", "[pi4]", "dtoverlay=disable-bt", "dtoverlay="], "pi4", "ends under [pi4]"),
        (["[all]", "dtoverlay=i2c3-pi5,pins_22_23,baudrate=400000," + "x" * 40], "pi5",
         "longer than 80"),
    ],
)
def test_what_the_firmware_would_get_wrong_is_named(lines: list[str], board: str,
                                                     problem: str) -> None:
    problems = check_boot_lines(lines, board).problems
    assert any(problem in p for p in problems), problems


def test_lines_under_the_other_board_do_not_apply() -> None:
    lines = ["[all]", "[pi4]", "dtoverlay=i2c6,pins_22_23", "dtoverlay=", "[pi5]",
             "dtoverlay=i2c3-pi5,pins_22_23", "dtoverlay=", "[all]"]
    assert check_boot_lines(lines, "pi4").pins == {22: "i2c6", 23: "i2c6"}
    assert check_boot_lines(lines, "pi5").pins == {22: "i2c3", 23: "i2c3"}


def test_overlay_parameters_are_read_from_the_dtbo(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    old = sorted(MUX_BUS_PARAMS_BEFORE_2025 | {"pca9548", "addr"})
    assert overlay_parameters(fdt(old)) == set(old)
    new = sorted(OVERLAYS["i2c-mux"].params)
    (tmp_path / "i2c-mux.dtbo").write_bytes(fdt(new))
    (tmp_path / "broken.dtbo").write_bytes(b"\xd0\x0d\xfe\xed" + b"\0" * 36)
    assert dtbo_main([str(tmp_path / "i2c-mux.dtbo")]) == 0
    assert capsys.readouterr().out.split() == new
    assert dtbo_main([str(tmp_path / "broken.dtbo")]) == 1
    assert "broken.dtbo" in capsys.readouterr().err


def test_every_fact_names_its_source_and_verdict() -> None:
    assert len({f.topic for f in FACTS}) == len(FACTS)
    for fact in FACTS:
        assert fact.source and fact.fact
        assert fact.ours == "right" or fact.ours.startswith(("corrected: ", "unconfirmed: "))


@pytest.mark.parametrize("baudrate", [100000, 400000])
@pytest.mark.parametrize("board", BOARDS)
def test_the_profile_speed_reaches_every_controller(baudrate: int, board: str) -> None:
    """i2c.baudrate sets I2C1 (i2c_arm_baudrate) and each extra controller (its overlay's
    baudrate); a controller left without one would run at the 100 kHz default."""
    import dataclasses

    config = load_profile("grid6")
    config = dataclasses.replace(config, i2c=dataclasses.replace(config.i2c, baudrate=baudrate))
    speeds = check_boot_lines(config_txt_lines(config), board).speeds
    buses = {"pi4": {"i2c1", "i2c6", "i2c5"}, "pi5": {"i2c1", "i2c3", "i2c2"}}[board]
    assert speeds == dict.fromkeys(buses, baudrate)
    # and a line without its baudrate is seen to fall back to the default
    assert check_boot_lines(["[all]", "dtoverlay=i2c6,pins_22_23"], "pi4").speeds == {
        "i2c6": 100000}


@pytest.mark.parametrize("board", BOARDS)
def test_an_spi_display_profile_reads_clean_too(board: str) -> None:
    """SPI0 (GPIO 7-11) goes to spi=on, the console to the UART, and the display's D/C and
    RESET outputs and every input stay off the claimed lines."""
    from pitboard.hwconfig import parse_config
    from profilekit import SOURCE, base, station

    raw = base()
    raw["console"]["port"] = "/dev/ttyAMA0"
    station(raw)["display"] = {"driver": "sh1106", "bus": "spi", "device": 1}
    config = parse_config(raw, source=SOURCE)
    check = check_boot_lines(config_txt_lines(config), board)
    assert check.problems == []
    assert all(check.pins[pin] == "spi" for pin in (7, 8, 9, 10, 11))
    for use in pin_map(config):
        claimed = check.pins.get(use.bcm)
        assert (claimed is None) is (use.mode in ("input", "output")), (use, claimed)
