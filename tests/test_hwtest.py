"""``pitboard hw-test``: against the sim profile, and against a grid6 build made of the register
models, gpiozero's mock factory and decoding panels, with things wrong on purpose."""

from __future__ import annotations

import errno
import io
from collections.abc import Sequence
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from fdtkit import MUX_2024, MUX_2025, fdt
from pitboard.cli import main as cli_main
from pitboard.hw.display import StationDisplay
from pitboard.hw.mcp23017 import Mcp23017Model
from pitboard.hw.oled import to_pages
from pitboard.hwconfig import DisplayConfig, HwConfig, load_profile
from pitboard.hwtest import bring_up_pattern, run_hw_test
from rig import EXTRA_BUSES, FIRST_BUS, FakeClock, Panel, grid6_config, station_bus


class Segment:
    """One I2C bus segment: an MCP23017 model plus whatever else answers a probe."""

    def __init__(self, chip: Mcp23017Model | None, others: set[int],
                 busy: frozenset[int] = frozenset()) -> None:
        self.chip = chip
        self.others = others
        self.busy = busy
        #: held by a kernel driver but silent on the wire (a mux held in reset, unpowered)
        self.mute: set[int] = set()
        #: what a mux's control register reads (0: idle disconnect, no channel selected)
        self.mux_value = 0

    def read_byte(self, address: int, force: bool | None = None) -> int:
        if address in self.busy and not force:
            raise OSError(errno.EBUSY, "Device or resource busy")
        if address in self.busy and address not in self.mute:
            return self.mux_value
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_quick(self, address: int) -> None:
        if address in self.busy:
            raise OSError(errno.EBUSY, "Device or resource busy")
        if address in self.others:
            return
        if self.chip is not None and address == self.chip.address and not self.chip.fail:
            return
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def read_byte_data(self, address: int, register: int) -> int:
        assert self.chip is not None
        return self.chip.read_byte_data(address, register)

    def write_byte_data(self, address: int, register: int, value: int) -> None:
        assert self.chip is not None
        self.chip.write_byte_data(address, register, value)

    def read_i2c_block_data(self, address: int, register: int, length: int) -> list[int]:
        assert self.chip is not None
        return self.chip.read_i2c_block_data(address, register, length)

    def close(self) -> None:
        pass


def test_hw_test_on_the_sim_profile_with_the_mock_factory(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert cli_main(["hw-test", "sim", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "pin factory MockFactory" in out
    assert "S6 ssd1306 on emulated: pattern sent" in out and out.rstrip().endswith("all good")


def test_hw_test_on_the_sim_profile_needs_no_gpio_and_says_so(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A desktop has no GPIO factory at all: the sim profile claims no pin, so hw-test runs on
    gpiozero's MockFactory and says so instead of failing."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    assert cli_main(["hw-test", "sim", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "uses no GPIO line (emulated stations): gpiozero's MockFactory" in out
    assert "pin factory MockFactory" in out and out.rstrip().endswith("all good")


@pytest.mark.parametrize("profile", ["sim", "grid6"])
def test_hw_test_leaves_no_global_pin_factory_behind(
        profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """hw-test builds its factory without installing it as gpiozero's Device.pin_factory, so a
    later start-up (or test) still picks its own factory."""
    from gpiozero import Device

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert Device.pin_factory is None

    def no_bus(number: int) -> Any:
        raise OSError(errno.ENOENT, "No such file or directory")

    def no_display(*args: Any) -> Any:
        raise OSError(errno.ENOENT, "No such file or directory")

    config = grid6_config() if profile == "grid6" else load_profile("sim")
    run_hw_test(config, out=io.StringIO(), bus_factory=no_bus, open_display=no_display,
                seconds=0)
    assert Device.pin_factory is None


def test_a_bad_profile_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["hw-test", "nosuch"]) == 2
    assert "unknown profile" in capsys.readouterr().err


def test_the_pattern_shows_a_wrong_column_offset() -> None:
    """Drawn for offset 2 on a module wired for offset 0, the frame's left edge is lost."""
    pattern = bring_up_pattern((128, 64), ["S1"])
    panel = Panel("sh1106")
    StationDisplay(serial=panel, driver="sh1106", column_offset=4).show(pattern)
    assert panel.frame() != to_pages(pattern)


class Build:
    """grid6 on models: S3's OLED missing, a stray device on S5's channel, S6's board dead."""

    def __init__(self, *, int_cut: Sequence[int] = ()) -> None:
        self.config: HwConfig = grid6_config()
        self.clock = FakeClock()
        self.factory = MockFactory(revision="d04170")  # a Pi 5
        self.chips = [Mcp23017Model() for _ in range(6)]
        self.chips[5].fail = True
        for chip, st in zip(self.chips, self.config.stations, strict=True):
            if st.index not in int_cut:  # a cut wire: the Pi's pull-up holds the line high
                self.wire_int(chip, st.input.int_pin)
        # each controller's own bus shows its mux (held by the kernel's pca954x driver)
        self.buses: dict[int, Segment] = {
            n: Segment(None, set(), busy=frozenset({0x70})) for n in (1, *EXTRA_BUSES.values())}
        for k in range(6):
            others = {0x3C} if k != 2 else set()
            if k == 4:
                others.add(0x27)
            self.buses[station_bus(self.config, k)] = Segment(self.chips[k], others)
        self.buses[FIRST_BUS + 6] = Segment(None, {0x3C})  # the race-control display
        self.panels: list[Panel] = []

    def wire_int(self, chip: Mcp23017Model, pin_number: int | None) -> None:
        """The chip's INTA on its Pi GPIO, as the station cable wires it (open drain)."""
        assert pin_number is not None
        pin = self.factory.pin(pin_number)
        chip.connect_int(lambda high: pin.drive_high() if high else pin.drive_low())

    def bus(self, number: int) -> Segment:
        return self.buses[number]

    def display(self, config: HwConfig, spec: DisplayConfig, label: str) -> Any:
        panel = Panel("ssd1306", clock=self.clock)
        self.panels.append(panel)
        return StationDisplay(serial=panel, driver="ssd1306", station=label, clock=self.clock)


def test_hw_test_names_what_is_missing_and_shows_inputs_live() -> None:
    build = Build()
    out = io.StringIO()
    presses = {0.010: ("A", 1, False), 0.030: ("B", 3, False), 0.200: ("B", 3, None),
               0.250: ("A", 4, False), 0.350: ("A", 4, None)}  # then tray slot 1 (GPA4)

    def sleep(seconds: float) -> None:
        before = build.clock.now
        build.clock.advance(seconds)
        for at, (bank, bit, level) in list(presses.items()):
            if before < 100 + at <= build.clock.now:
                build.chips[0].set_input(bank, bit, level)  # S1: gear 2, then GO tapped
                del presses[at]

    status = run_hw_test(build.config, out=out, pin_factory=build.factory,
                         bus_factory=build.bus, open_display=build.display, seconds=0.5,
                         clock=build.clock, sleep=sleep)
    text = out.getvalue()
    assert status == 1
    assert "pin factory MockFactory on a Raspberry Pi 5B" in text
    # the kernel's pca954x driver holds 0x70; a forced read finds the chip on the wire
    assert "0x70 TCA9548A mux: ok (held by its kernel driver, answers a read)" in text
    # every controller is probed: its own bus (the mux) and each mux channel
    for controller in ("/dev/i2c-1:", "/dev/i2c-6 (I2C B, GPIO 22/23, /dev/i2c-6):",
                       "/dev/i2c-5 (I2C C, GPIO 12/13, /dev/i2c-5):"):
        assert controller in text
    assert text.count("0x70 TCA9548A mux: ok") == 3
    assert "0x20 S1 MCP23017 inputs: ok" in text and "0x3C S1 SSD1306 display: ok" in text
    assert "/dev/i2c-13 (I2C B mux channel 0): 0x3C S3 SSD1306 display MISSING" in text
    assert "/dev/i2c-23 (I2C C mux channel 0): unexpected device at 0x27" in text
    assert "/dev/i2c-24 (I2C C mux channel 1): 0x20 S6 MCP23017 inputs MISSING" in text
    assert "S1 debounced LeverMoved gear=2" in text
    assert "S1 debounced GoPressed" in text
    assert "S1 debounced SlotPressed slot=1" in text  # slots count from 1, as on the tray
    assert "slots 1-7" in text and "slot=0" not in text
    assert "S1 raw    lever .x.. slots ....... GO x" in text
    assert "S6 station board does not answer" in text
    # every display shows the pattern, as the builder will see it
    labels = [st.label for st in build.config.stations] + ["RC"]  # + the race-control display
    for panel, label in zip(build.panels, labels, strict=True):
        wanted = bring_up_pattern((128, 64), [label, "ssd1306", "i2c"])
        assert panel.on and panel.frame() == to_pages(wanted)
    assert "/dev/i2c-9 (mux channel 6):" in text and "RC ssd1306 on i2c: pattern sent" in text
    assert "  race control: display 0" in text
    build.factory.reset()


def test_hw_test_flags_serial0_on_a_pi5() -> None:
    import dataclasses

    build = Build()
    console = dataclasses.replace(build.config.console, port="/dev/serial0")
    config = dataclasses.replace(build.config, console=console)
    out = io.StringIO()
    run_hw_test(config, out=out, pin_factory=build.factory, bus_factory=build.bus,
                open_display=build.display, seconds=0, clock=build.clock)
    assert "on a Pi 5 that is the 3-pin debug connector" in out.getvalue()
    build.factory.reset()


def test_a_display_luma_cannot_open_is_a_problem_line_not_a_traceback() -> None:
    """luma reports a missing /dev/i2c-N as its own DeviceNotFoundError, not an OSError."""
    from luma.core.error import DeviceNotFoundError

    from pitboard.hwconfig import load_profile
    from pitboard.hwtest import Report, display_report

    def missing_bus(*_: Any) -> Any:
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")

    out = io.StringIO()
    report = Report(out)
    config = load_profile("sim")
    # every station's display and the race-control display
    assert display_report(report, config, missing_bus) == [None] * (len(config.stations) + 1)
    assert "S1 display: cannot open: I2C device not found: /dev/i2c-1" in out.getvalue()


@pytest.mark.parametrize(("board", "params", "verdict"), [
    (b"raspberrypi,5-model-b\0brcm,bcm2712\0", MUX_2025, "i2c-mux.dtbo takes i2c3, i2c2: ok"),
    (b"raspberrypi,5-model-b\0brcm,bcm2712\0", MUX_2024,
     "i2c-mux.dtbo has no parameter i2c2: the overlay predates it (raspberrypi/linux PR 6636, "
     "January 2025), so the mux of I2C C did not load"),
    (b"raspberrypi,4-model-b\0brcm,bcm2711\0", MUX_2024, "i2c-mux.dtbo takes i2c6, i2c5: ok"),
    (b"raspberrypi,5-model-b\0brcm,bcm2712\0", None, "no overlays/i2c-mux.dtbo in"),
])
def test_hw_test_checks_the_mux_overlay_on_the_card(tmp_path: Any, board: bytes,
                                                    params: list[str] | None,
                                                    verdict: str) -> None:
    """A Pi 5 grid6 needs an i2c-mux overlay with the i2c2 parameter; hw-test reads the one
    the firmware loads and names the fix."""
    build = Build()
    (tmp_path / "proc" / "device-tree").mkdir(parents=True)
    (tmp_path / "proc" / "device-tree" / "compatible").write_bytes(board)
    overlays = tmp_path / "boot" / "firmware" / "overlays"
    overlays.mkdir(parents=True)
    if params is not None:
        (overlays / "i2c-mux.dtbo").write_bytes(fdt(params))
    out = io.StringIO()
    run_hw_test(build.config, out=out, pin_factory=build.factory, bus_factory=build.bus,
                open_display=build.display, seconds=0, clock=build.clock,
                proc_root=tmp_path / "proc", boot_dirs=(tmp_path / "boot" / "firmware",))
    line = next(line for line in out.getvalue().splitlines() if verdict in line)
    assert line.startswith("  PROBLEM: ") is (": ok" not in verdict)
    build.factory.reset()


@pytest.mark.parametrize(("revision", "flagged"), [("c03111", True), ("d04170", False)])
def test_hw_test_flags_the_modem_service_on_a_pi4_console(tmp_path: Any, revision: str,
                                                           flagged: bool) -> None:
    """A Pi 4 console on ttyAMA0 (disable-bt) must not share it with hciuart.service."""
    build = Build()
    build.factory = MockFactory(revision=revision)
    wants = tmp_path / "etc" / "systemd" / "system" / "multi-user.target.wants"
    wants.mkdir(parents=True)
    (wants / "hciuart.service").symlink_to("/lib/systemd/system/hciuart.service")
    out = io.StringIO()
    run_hw_test(build.config, out=out, pin_factory=build.factory, bus_factory=build.bus,
                open_display=build.display, seconds=0, clock=build.clock, root=tmp_path)
    assert ("PROBLEM: hciuart.service is enabled" in out.getvalue()) is flagged
    build.factory.reset()


def test_hw_test_names_a_stuck_and_a_broken_int_line() -> None:
    """S1's INT wire is cut (presses come by the safety read alone), S2's is shorted to GND."""
    build = Build(int_cut=(0, 1))
    s1, s2 = (st.input.int_pin for st in build.config.stations[:2])
    taps = {0.05: False, 0.3: None, 0.55: False, 0.8: None}

    def sleep(seconds: float) -> None:
        build.factory.pin(s2).drive_low()  # the short (once the pull-up is on)
        before = build.clock.now
        build.clock.advance(seconds)
        for at, level in list(taps.items()):
            if before < 100 + at <= build.clock.now:
                build.chips[0].set_input("A", 4, level)
                del taps[at]

    out = io.StringIO()
    run_hw_test(build.config, out=out, pin_factory=build.factory, bus_factory=build.bus,
                open_display=build.display, seconds=1.0, clock=build.clock, sleep=sleep)
    text = out.getvalue()
    assert ("PROBLEM: S1: 4 input changes came with no interrupt: check the INT wire (RJ45 pin "
            f"7, MCP23017 INTA pin 20) to GPIO {s1}; presses are read only every 0.1 s") in text
    assert (f"PROBLEM: S2 INT line GPIO {s2} stays active (low) after reads: a short to GND on "
            "the INT wire (RJ45 pin 7) or at INTA (pin 20)") in text
    assert not any(f"PROBLEM: S{n}" in text for n in (3, 4, 5))  # their INT lines work
    build.factory.reset()


class LGPIOFactory(MockFactory):
    """gpiozero's lgpio factory as hw-test sees it: the chip number it opened and a handle
    (MockFactory has neither); the label comes from a fake lgpio module."""

    def __init__(self, chip: int) -> None:
        super().__init__(revision="d04170")  # a Pi 5
        self._chip = chip
        self._handle = 3


@pytest.mark.parametrize(("chip", "label", "problem"), [
    (4, "pinctrl-rp1", False),   # a kernel before 6.6.45, or the gpiochip4 -> gpiochip0 link
    (0, "pinctrl-rp1", False),   # current kernels
    (0, "gpio-brcmstb@107d508500", True),  # the SoC's own few GPIOs, not the header
])
def test_hw_test_checks_the_gpio_chip_by_its_label(monkeypatch: pytest.MonkeyPatch, chip: int,
                                                   label: str, problem: bool) -> None:
    """The review: a correct gpiochip4 was called a problem; the label tells, not the number."""
    import sys
    import types

    fake = types.ModuleType("lgpio")
    fake.gpio_get_chip_info = lambda handle: (0, 54, f"gpiochip{chip}", label)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    factory = LGPIOFactory(chip)
    out = io.StringIO()
    run_hw_test(load_profile("sim"), out=out, pin_factory=factory, seconds=0)
    text = out.getvalue()
    assert f"pin factory LGPIOFactory on a Raspberry Pi 5B (revision d04170), gpiochip{chip} " \
           f"({label})" in text
    assert ("PROBLEM: gpiochip0 is gpio-brcmstb@107d508500, not the header's pinctrl-rp1"
            in text) is problem
    assert ("PROBLEM" in text) is problem
    factory.reset()
    factory.close()


def test_hw_test_reads_the_mux_off_the_wire_and_names_it_when_all_behind_it_is_missing(
        ) -> None:
    """Controller B's mux held in reset: the kernel driver still holds 0x70 (EBUSY), which the
    review found reported as "ok"; a forced read finds it silent, and with every station
    behind it missing hw-test says to check the mux, not only each cable."""
    build = Build()
    build.buses[EXTRA_BUSES["B"]].mute.add(0x70)
    for k in (2, 3):  # S3, S4: their channels go nowhere
        build.chips[k].fail = True
        build.buses[station_bus(build.config, k)].others.clear()
    build.buses[1].mux_value = 0x04  # controller A's mux: channel 2 left selected
    out = io.StringIO()
    run_hw_test(build.config, out=out, pin_factory=build.factory, bus_factory=build.bus,
                open_display=build.display, seconds=0, clock=build.clock)
    text = out.getvalue()
    check = ("check the mux: RESET (GPIO 4) high, its 3V3 and GND, SDA/SCL to the Pi, the A0-A2 "
             "straps")
    assert ("PROBLEM: /dev/i2c-6 (I2C B, GPIO 22/23, /dev/i2c-6): 0x70 TCA9548A mux MISSING: it "
            f"does not answer (its kernel driver holds the address): {check}") in text
    assert ("PROBLEM: I2C B: nothing answers behind the mux at 0x70 (every device on its "
            f"channels MISSING): {check}") in text
    assert "I2C C: nothing answers" not in text
    assert text.count("0x70 TCA9548A mux: ok (held by its kernel driver, answers a read)") == 2
    assert ("PROBLEM: /dev/i2c-1: 0x70 TCA9548A mux keeps channel 2 selected between transfers: "
            "idle disconnect is off") in text
    build.factory.reset()


@pytest.mark.parametrize(("err", "adapter", "advice"), [
    (errno.EACCES, False, "permission denied: be in the i2c group (sudo usermod -aG i2c $USER, "
                          "then log in again) or use sudo"),
    (errno.ENOENT, True, "the bus is there but has no /dev node: the i2c-dev module is not "
                         "loaded (sudo modprobe i2c-dev"),
    (errno.ENOENT, False, "dtparam=i2c_arm=on in config.txt, then reboot"),
])
def test_a_bus_that_does_not_open_gets_advice_by_errno(tmp_path: Any, err: int, adapter: bool,
                                                       advice: str) -> None:
    import os

    build = Build()
    if adapter:
        (tmp_path / "bus" / "i2c" / "devices" / "i2c-1").mkdir(parents=True)

    def bus(number: int) -> Segment:
        if number == 1:
            raise OSError(err, os.strerror(err))
        return build.bus(number)

    out = io.StringIO()
    run_hw_test(build.config, out=out, pin_factory=build.factory, bus_factory=bus,
                open_display=build.display, seconds=0, clock=build.clock, sys_root=tmp_path)
    line = next(x for x in out.getvalue().splitlines() if "/dev/i2c-1: cannot open" in x)
    assert line.endswith(advice) or advice in line
    assert ("dtparam" in line) is (advice.startswith("dtparam"))
    build.factory.reset()


def test_input_failures_say_what_to_check() -> None:
    """A GPIO line held elsewhere names the service; a chip that answers but is no MCP23017
    says so, not "does not answer" alone."""
    from gpiozero import DigitalInputDevice

    build = Build()
    int_pin = build.config.stations[0].input.int_pin
    holder = DigitalInputDevice(int_pin, pin_factory=build.factory)  # pitboard.service, say

    class NotAnMcp(Mcp23017Model):
        def write_byte_data(self, address: int, register: int, value: int) -> None:
            pass  # takes every write, keeps none

    build.chips[1].__class__ = NotAnMcp
    out = io.StringIO()
    run_hw_test(build.config, out=out, pin_factory=build.factory, bus_factory=build.bus,
                open_display=build.display, seconds=0, clock=build.clock)
    text = out.getvalue()
    assert ("another program holds the line: is pitboard.service running? sudo systemctl stop "
            "pitboard") in text
    assert ("PROBLEM: S2 station board does not answer: MCP23017 0x20 on I2C bus 4 (mux channel "
            "1): configuration did not stick") in text and "is this an MCP23017?" in text
    holder.close()
    build.factory.reset()


def test_the_pin_factory_search_is_one_line_not_a_warning_per_factory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero warns once per factory it skips; hw-test says it in its report, once, and
    does not make gpiozero search again for each station's inputs."""
    import warnings

    from gpiozero import Device

    from pitboard.hwtest import Report, gpio_report

    tried: list[str] = []

    def no_factory() -> Any:  # as on a machine without lgpio, RPi.GPIO, pigpio or a Pi
        tried.append("search")
        from gpiozero.exc import BadPinFactory, PinFactoryFallback
        for name, why in (("lgpio", "No module named 'lgpio'"), ("native", "not a Pi")):
            warnings.warn(PinFactoryFallback(f"Falling back from {name}: {why}"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        report = Report(out)
        assert gpio_report(report, None, load_profile("duo")) is None
        status = run_hw_test(load_profile("duo"), out=out, seconds=0,
                             bus_factory=lambda n: (_ for _ in ()).throw(OSError(2, "no bus")),
                             open_display=lambda *a: (_ for _ in ()).throw(OSError(2, "no")))
    assert status == 1
    assert [w for w in escaped if "Falling back" in str(w.message)] == []
    text = out.getvalue()
    assert text.count("(tried lgpio: No module named 'lgpio'; native: not a Pi)") == 2
    assert "S1 inputs: not opened: no GPIO pin factory (step 1)" in text
    assert len(tried) == 2  # once per report: not again for the stations' inputs
