"""The mux guard on grid6: RESET pulsed only when a bus hangs, the faulty station held back.

The rig's controllers are modelled down to SDA: a :class:`Wire` per controller, stuck low once a
station that holds SDA is selected and until the mux RESET pin (GPIO 4 on gpiozero's
MockFactory) pulses; every transfer on the controller (either station's board or display, the
mux read) fails meanwhile. A station that is merely missing NACKs and leaves the wire free."""

from __future__ import annotations

import errno
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from pitboard.app import App
from pitboard.hw.display import StationDisplay
from pitboard.hw.events import InputFault, InputFaultCleared, SlotPressed
from pitboard.hw.mcp23017 import Mcp23017Model
from pitboard.hw.muxguard import REPROBE_SECONDS
from pitboard.hwconfig import HwConfig
from rig import EXTRA_BUSES, FakeClock, Panel, grid6_config, station_bus

RESET_PIN = 4
STEP_S = 1 / 32  # one pass of the game loop (a power of two keeps fake time exact)


class Wire:
    """One controller's SDA, as the Pi sees it through the mux."""

    def __init__(self, reset: Any) -> None:
        self.reset = reset
        self.stuck = False
        self._pulses = self.pulses()

    def pulses(self) -> int:
        """Times RESET was driven low (gpiozero's mock pin starts low, once)."""
        return sum(1 for s in self.reset.states if not s.state)

    def check(self) -> None:
        pulses = self.pulses()
        if pulses != self._pulses:  # the mux was reset: every channel cut off, SDA free
            self._pulses = pulses
            self.stuck = False
        if self.stuck:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")


class Channel:
    """A mux channel's /dev/i2c-N: the station's MCP23017 model behind its controller's wire.
    ``holds_sda``: something on the station cable holds SDA low once selected."""

    def __init__(self, wire: Wire, chip: Mcp23017Model) -> None:
        self.wire = wire
        self.chip = chip
        self.holds_sda = False

    def touch(self) -> None:
        self.wire.check()
        if self.holds_sda:
            self.wire.stuck = True
            raise OSError(errno.ETIMEDOUT, "Connection timed out")

    def write_byte_data(self, address: int, register: int, value: int) -> None:
        self.touch()
        self.chip.write_byte_data(address, register, value)

    def read_i2c_block_data(self, address: int, register: int, length: int) -> list[int]:
        self.touch()
        return self.chip.read_i2c_block_data(address, register, length)

    def read_byte_data(self, address: int, register: int) -> int:
        self.touch()
        return self.chip.read_byte_data(address, register)

    def close(self) -> None:
        pass


class Parent:
    """A controller's own bus: the guard reads the mux (0x70) on it."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.reads = 0

    def read_byte(self, address: int, force: bool | None = None) -> int:
        assert address == 0x70 and force
        self.reads += 1
        self.wire.check()
        return 0x00  # idle disconnect: no channel selected

    def close(self) -> None:
        pass


class WiredPanel(Panel):
    """An OLED on a station cable: its writes cross the channel first."""

    def __init__(self, channel: Channel | None, clock: FakeClock) -> None:
        super().__init__("ssd1306", clock=clock)
        self.channel = channel

    def command(self, *cmd: int) -> None:
        if self.channel is not None:
            self.channel.touch()
        super().command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        if self.channel is not None:
            self.channel.touch()
        super().data(data)


class Rig:
    """grid6 on the wire model, run by App.poll on a fake clock."""

    def __init__(self, tmp_path: Path) -> None:
        self.config: HwConfig = grid6_config()
        self.clock = FakeClock()
        self.factory = MockFactory()
        reset = self.factory.pin(RESET_PIN)
        self.wires = {c: Wire(reset) for c in "ABC"}
        self.chips = [Mcp23017Model() for _ in self.config.stations]
        self.channels: dict[int, Channel] = {}
        self.buses: dict[int, Any] = {
            1: Parent(self.wires["A"]),
            **{n: Parent(self.wires[c]) for c, n in EXTRA_BUSES.items()}}
        for st in self.config.stations:
            channel = Channel(self.wires[st.input.controller], self.chips[st.index])
            self.channels[st.index] = channel
            self.buses[station_bus(self.config, st.index)] = channel
        self.panels = [WiredPanel(self.channels[i], self.clock)
                       for i in range(len(self.config.stations))]
        displays = [StationDisplay(serial=p, driver="ssd1306", station=st.label,
                                   clock=self.clock)
                    for p, st in zip(self.panels, self.config.stations, strict=True)]
        #: the race-control OLED on A's channel 6: not fitted (it NACKs)
        self.rc_panel = WiredPanel(None, self.clock)
        self.rc_panel.fail = OSError(errno.EREMOTEIO, "Remote I/O error")
        rc = StationDisplay(serial=self.rc_panel, driver="ssd1306", station="RC",
                            clock=self.clock)
        self.app = App.build(self.config, journal=tmp_path / "j", seed=1,
                             pin_factory=self.factory, bus_factory=self.bus, clock=self.clock,
                             displays=displays, race_control_display=rc)
        self.app.boot()
        self.events: list[Any] = []

    def bus(self, number: int) -> Any:
        return self.buses[number]

    def run(self, seconds: float) -> None:
        """The game loop for ``seconds``: inputs, displays, the guard; events collected."""
        for _ in range(round(seconds / STEP_S)):
            self.clock.advance(STEP_S)
            self.app.poll()
            while not self.app.table.queue.empty():
                self.events.append(self.app.table.queue.get())

    def close(self) -> None:
        self.app.close()
        self.factory.reset()


@pytest.fixture
def rig(tmp_path: Path) -> Any:
    r = Rig(tmp_path)
    yield r
    r.close()


def test_missing_devices_that_only_nack_never_pulse_reset(rig: Rig) -> None:
    """An unplugged station board (a NACK on every retry, forever) and a race-control OLED not
    fitted: the review measured 12 RESET pulses a minute; the bus answers, so none."""
    rig.run(1.0)
    rig.chips[3].fail = True  # S4's cable pulled
    rig.run(60.0)
    board = rig.app.inputs[3]
    assert board.faulted and getattr(board, "errors", 0) > 30  # it kept retrying
    assert not rig.app.displays[6].healthy  # the race-control OLED too
    assert rig.app.mux_resets == 0
    assert rig.wires["A"].pulses() == 1 and rig.factory.pin(RESET_PIN).state  # never pulsed
    assert not any(b.faulted for i, b in enumerate(rig.app.inputs) if i != 3)


def test_a_station_holding_sda_low_is_held_back_and_its_neighbour_recovers(rig: Rig) -> None:
    """S4's cable holds SDA low whenever its channel is selected: controller B hangs. RESET
    frees it, S4 is found on trial and held back, S3 (same controller) works again; the other
    controllers' stations never notice. S4 is tried again later, with one pulse each time."""
    rig.run(1.0)
    rig.channels[3].holds_sda = True
    rig.run(5.0)
    assert rig.app.mux_guard is not None and rig.app.mux_guard.held == {3: "B"}
    resets = rig.app.mux_resets
    assert resets == 2  # the hang, then S4's trial
    s3 = rig.app.inputs[2]
    assert not s3.faulted and rig.app.displays[2].healthy
    assert not any(rig.app.inputs[i].faulted for i in (0, 1, 4, 5))
    assert not any(isinstance(e, InputFault) and e.station in (0, 1, 4, 5)
                   for e in rig.events)
    rig.events.clear()
    rig.chips[2].set_input("A", 4, False)  # S3's slot 1 pressed: it reaches the table
    rig.run(0.25)
    rig.chips[2].set_input("A", 4, None)
    rig.run(0.25)
    assert SlotPressed(station=2, slot=0) in rig.events
    # S4 stays off the bus until its re-probe, which hangs the bus once more
    rig.run(REPROBE_SECONDS)
    assert rig.app.mux_resets == resets + 1 and rig.app.mux_guard.held == {3: "B"}
    # the cable is fixed: at the next try S4 is back
    rig.channels[3].holds_sda = False
    rig.events.clear()
    rig.run(2 * REPROBE_SECONDS + 2)
    assert rig.app.mux_guard.held == {}
    assert not rig.app.inputs[3].faulted and rig.app.displays[3].healthy
    assert InputFaultCleared(station=3) in rig.events
    assert rig.app.mux_resets == resets + 1


def test_a_bus_that_hangs_just_after_a_reset_is_found_all_the_same(rig: Rig) -> None:
    """C hangs a second after B's reset, too soon for another: its stations fail on and never
    fail anew, so the guard reads C's mux again while they fail, and frees it in turn."""
    rig.run(1.0)
    rig.channels[3].holds_sda = True  # S4, controller B
    rig.run(1.0)
    rig.channels[5].holds_sda = True  # S6, controller C
    rig.run(15.0)
    assert rig.app.mux_guard is not None and rig.app.mux_guard.held == {3: "B", 5: "C"}
    for healthy in (0, 1, 2, 4):
        assert not rig.app.inputs[healthy].faulted and rig.app.displays[healthy].healthy


def test_a_held_display_behind_its_writer_sends_nothing_until_released() -> None:
    """On the device the guard holds a display through its writer's proxy."""
    from PIL import Image

    from pitboard.hw.oled import RecordingSerial
    from pitboard.hw.writer import BusWriter

    clock = FakeClock()
    serial = RecordingSerial()
    writer = BusWriter(name="I2C B", threaded=False, clock=clock)
    screen = writer.add(StationDisplay(serial=serial, station="S4", clock=clock))
    screen.hold_back(True)
    screen.show(Image.new("1", screen.size, 1))
    writer.drain()
    clock.advance(60.0)
    writer.poll()
    writer.drain()
    assert serial.writes == [] and not screen.healthy
    screen.hold_back(False)
    writer.poll()
    writer.drain()
    assert screen.healthy and serial.data_bytes == 128 * 64 // 8
    writer.close(blank=False)


def test_a_hold_back_is_applied_on_the_writer_thread() -> None:
    """The guard runs on the game thread; a display is driven by its writer's thread alone
    (PanelLink is not thread-safe), so the hold goes through the writer."""
    import threading

    from pitboard.hw.writer import BusWriter

    seen: list[tuple[bool, str]] = []

    class Panel:
        station = "S3"
        size = (128, 64)
        healthy = True

        def hold_back(self, held: bool) -> None:
            seen.append((held, threading.current_thread().name))

        def poll(self) -> None:
            pass

        def close(self, blank: bool = True) -> None:
            pass

    writer = BusWriter(name="I2C B")
    screen = writer.add(Panel())  # type: ignore[arg-type]
    screen.hold_back(True)
    assert writer.flush(timeout=10)  # flush waits for the hold to be applied
    assert seen == [(True, "display writer I2C B")]
    screen.hold_back(False)
    assert writer.flush(timeout=10)
    writer.close()
    assert seen == [(True, "display writer I2C B"), (False, "display writer I2C B")]
