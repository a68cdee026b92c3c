"""Station inputs: debounce logic on a fake clock, the GPIO backend on gpiozero mock pins."""

from __future__ import annotations

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

import mcpkit
from pitboard.hw.events import (
    GoPressed,
    LeverFault,
    LeverFaultCleared,
    LeverMoved,
    SlotPressed,
    StationEvent,
)
from pitboard.hw.inputs import (
    DEFAULT_CONFIRM_S,
    DebouncedButton,
    GearLever,
    GpioStationInputs,
    Mcp23017StationInputs,
    NullStationInputs,
    StationLogic,
    build_station_inputs,
)
from pitboard.hw.mcp23017 import STATION_BITS, Mcp23017Model, SMBusLike
from pitboard.hwconfig import load_profile

LEVER_PINS = (4, 17, 27, 22)
SLOT_PINS = (10, 9, 11, 5, 6, 13, 19)
GO_PIN = 26
OPEN = (False, False, False, False)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


factory = mcpkit.factory  # a mock Pi 4B, shared with the MCP23017 tests


def gear(n: int) -> tuple[bool, ...]:
    return tuple(g == n for g in range(1, 5))


# ---- GearLever -----------------------------------------------------------------------------


def settle(lever: GearLever | StationLogic, clock: FakeClock) -> None:
    clock.advance(0.02)
    lever.poll()


def test_lever_reports_each_gear(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=2, post=events.append, clock=clock)
    for n in (1, 2, 3, 4, 3):
        lever.update(gear(n))
        settle(lever, clock)
    assert events == [LeverMoved(station=2, gear=n) for n in (1, 2, 3, 4, 3)]
    assert lever.gear == 3


def test_lever_needs_the_confirm_time(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=0, post=events.append, clock=clock, debounce_s=0.02)
    lever.update(gear(2))
    clock.advance(DEFAULT_CONFIRM_S - 0.0001)
    lever.update(gear(2))
    assert events == []
    clock.advance(0.0001)
    lever.update(gear(2))
    assert events == [LeverMoved(station=0, gear=2)]


def test_a_new_sample_also_confirms(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=0, post=events.append, clock=clock)
    lever.update(gear(1))
    clock.advance(0.03)
    lever.update(gear(1))  # no poll: the repeated sample is enough
    assert events == [LeverMoved(station=0, gear=1)]


def test_between_gears_keeps_the_gear(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=0, post=events.append, clock=clock)
    lever.update(gear(2))
    settle(lever, clock)
    lever.update(OPEN)
    clock.advance(1.0)
    lever.poll()
    assert events == [LeverMoved(station=0, gear=2)] and lever.gear == 2
    lever.update(gear(2))  # back into the same gear: nothing new
    settle(lever, clock)
    lever.update(OPEN)
    settle(lever, clock)
    lever.update(gear(3))
    settle(lever, clock)
    assert events == [LeverMoved(station=0, gear=2), LeverMoved(station=0, gear=3)]


def test_no_event_before_the_first_gear(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=0, post=events.append, clock=clock)
    lever.update(OPEN)
    settle(lever, clock)
    assert events == [] and lever.gear is None


def test_two_contacts_fault_once_and_clear(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=1, post=events.append, clock=clock)
    lever.update(gear(2))
    settle(lever, clock)
    lever.update((False, True, True, False))
    settle(lever, clock)
    lever.update((True, True, True, False))  # worse, but still the same fault episode
    settle(lever, clock)
    assert events[1:] == [LeverFault(station=1, contacts=(2, 3))]
    assert lever.faulted
    lever.update(gear(3))  # clears into another gear
    settle(lever, clock)
    assert events[2:] == [LeverFaultCleared(station=1), LeverMoved(station=1, gear=3)]
    lever.update((True, False, False, True))
    settle(lever, clock)
    lever.update(OPEN)  # clears between gears: the gear stands
    settle(lever, clock)
    assert events[4:] == [LeverFault(station=1, contacts=(1, 4)), LeverFaultCleared(station=1)]
    assert lever.gear == 3 and not lever.faulted


def test_lever_bounce_settles_to_the_final_gear(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=0, post=events.append, clock=clock)
    lever.update(gear(1))
    settle(lever, clock)
    # the lever travels from gear 1 to gear 3, chattering on the way (contacts touch and part
    # within a millisecond or two, faster than the 3 ms confirmation)
    for pattern in (OPEN, gear(1), OPEN, gear(2), OPEN, gear(3), OPEN, gear(3), gear(2), gear(3)):
        lever.update(pattern)
        clock.advance(0.002)
        lever.poll()
    settle(lever, clock)
    assert events == [LeverMoved(station=0, gear=1), LeverMoved(station=0, gear=3)]


def test_lever_wants_four_contacts(clock: FakeClock) -> None:
    lever = GearLever(station=0, post=lambda e: None, clock=clock)
    with pytest.raises(ValueError):
        lever.update((True, False, False))


def test_zero_debounce_is_immediate(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    lever = GearLever(station=0, post=events.append, clock=clock, debounce_s=0.0)
    lever.update(gear(4))
    assert events == [LeverMoved(station=0, gear=4)]


# ---- DebouncedButton and StationLogic --------------------------------------------------------


def test_button_bounce_gives_one_press(clock: FakeClock) -> None:
    presses: list[float] = []
    button = DebouncedButton(on_press=lambda: presses.append(clock.now), clock=clock)
    for state in (True, False, True, False, True):  # make-bounce faster than the confirm time
        button.update(state)
        clock.advance(0.001)
        button.poll()
    assert presses == []
    clock.advance(0.002)
    button.update(True)  # a second sample, 3 ms after the contact last changed
    assert len(presses) == 1 and button.pressed
    for state in (False, True, False, True):  # bounce after the press: ignored for 20 ms
        clock.advance(0.004)
        button.update(state)
    assert len(presses) == 1 and button.pressed
    for state in (False, True, False):  # release bounce: no press
        button.update(state)
        clock.advance(0.001)
        button.poll()
    clock.advance(0.02)
    button.update(False)
    assert len(presses) == 1 and not button.pressed


def test_a_tap_shorter_than_the_debounce_time_counts_once(clock: FakeClock) -> None:
    presses: list[float] = []
    button = DebouncedButton(on_press=lambda: presses.append(clock.now), clock=clock)
    button.update(True)
    clock.advance(0.003)
    button.update(True)
    clock.advance(0.005)
    button.update(False)  # released 8 ms after the press, inside the 20 ms bounce window
    clock.advance(0.02)
    button.update(False)
    assert presses == [0.003] and not button.pressed
    clock.advance(0.02)
    button.update(True)  # the next tap counts again
    clock.advance(0.003)
    button.poll()
    assert len(presses) == 2


def test_a_press_is_confirmed_within_5_ms_of_its_first_edge(clock: FakeClock) -> None:
    presses: list[float] = []
    button = DebouncedButton(on_press=lambda: presses.append(clock.now), clock=clock)
    button.update(True)
    for _ in range(5):  # the table loop samples every millisecond while a change is pending
        clock.advance(0.001)
        button.update(True)
    assert presses and presses[0] <= 0.005


def test_short_glitch_is_ignored(clock: FakeClock) -> None:
    presses: list[float] = []
    button = DebouncedButton(on_press=lambda: presses.append(clock.now), clock=clock)
    button.update(True)
    clock.advance(0.01)
    button.update(False)
    clock.advance(0.1)
    button.poll()
    assert presses == []


def test_button_held_at_start_is_not_a_press(clock: FakeClock) -> None:
    presses: list[float] = []
    button = DebouncedButton(on_press=lambda: presses.append(0), clock=clock, pressed=True)
    button.update(True)
    clock.advance(1)
    button.poll()
    assert presses == []
    button.update(False)
    settle_button(button, clock)
    button.update(True)
    settle_button(button, clock)
    assert presses == [0]


def settle_button(button: DebouncedButton, clock: FakeClock) -> None:
    clock.advance(0.02)
    button.poll()


def test_simultaneous_presses_each_count(clock: FakeClock) -> None:
    events: list[StationEvent] = []
    logic = StationLogic(station=3, post=events.append, clock=clock)
    logic.update_all(lever=OPEN, slots=(True, False, True, False, False, False, True), go=True)
    settle(logic, clock)
    assert events == [
        SlotPressed(station=3, slot=0),
        SlotPressed(station=3, slot=2),
        SlotPressed(station=3, slot=6),
        GoPressed(station=3),
    ]


# ---- GpioStationInputs on mock pins ----------------------------------------------------------


def make_gpio(
    factory: MockFactory, clock: FakeClock, events: list[StationEvent], station: int = 0
) -> GpioStationInputs:
    return GpioStationInputs(
        station=station,
        lever_pins=LEVER_PINS,
        slot_pins=SLOT_PINS,
        go_pin=GO_PIN,
        post=events.append,
        pin_factory=factory,
        clock=clock,
    )


def set_lever(factory: MockFactory, n: int | set[int]) -> None:
    closed = {n} if isinstance(n, int) else n
    for g, pin in enumerate(LEVER_PINS, start=1):
        if g in closed:
            factory.pin(pin).drive_low()  # contact to GND
        else:
            factory.pin(pin).drive_high()


def test_gpio_lever_one_hot_gears(factory: MockFactory, clock: FakeClock) -> None:
    events: list[StationEvent] = []
    with make_gpio(factory, clock, events, station=1) as inputs:
        for n in (1, 2, 3, 4):
            set_lever(factory, n)
            clock.advance(0.02)
            inputs.poll()
    assert events == [LeverMoved(station=1, gear=n) for n in (1, 2, 3, 4)]


def test_gpio_lever_between_gears_fault_and_clear(factory: MockFactory, clock: FakeClock) -> None:
    events: list[StationEvent] = []
    inputs = make_gpio(factory, clock, events)
    set_lever(factory, 2)
    clock.advance(0.02)
    inputs.poll()
    set_lever(factory, set())
    clock.advance(0.5)
    inputs.poll()
    set_lever(factory, {2, 3})
    clock.advance(0.02)
    inputs.poll()
    set_lever(factory, 3)
    clock.advance(0.02)
    inputs.poll()
    assert events == [
        LeverMoved(station=0, gear=2),
        LeverFault(station=0, contacts=(2, 3)),
        LeverFaultCleared(station=0),
        LeverMoved(station=0, gear=3),
    ]
    inputs.close()


def test_gpio_first_lever_position_is_reported(factory: MockFactory, clock: FakeClock) -> None:
    # MockFactory drives a pin to its pull-up when a device claims it, so a contact closed
    # before start-up cannot be staged; closing it at t=0 is the nearest equivalent.
    events: list[StationEvent] = []
    inputs = make_gpio(factory, clock, events)
    set_lever(factory, 4)
    clock.advance(0.02)
    inputs.poll()
    assert events == [LeverMoved(station=0, gear=4)]
    inputs.close()


def test_gpio_button_bounce_gives_one_press(factory: MockFactory, clock: FakeClock) -> None:
    events: list[StationEvent] = []
    inputs = make_gpio(factory, clock, events)
    pin = factory.pin(SLOT_PINS[4])
    for _ in range(4):
        pin.drive_low()
        clock.advance(0.001)
        inputs.poll()
        assert inputs.busy  # the table loop polls again within a millisecond
        pin.drive_high()
        clock.advance(0.001)
        inputs.poll()
    pin.drive_low()
    clock.advance(0.02)
    inputs.poll()
    for _ in range(3):  # release bounce
        pin.drive_high()
        clock.advance(0.001)
        pin.drive_low()
        clock.advance(0.001)
    clock.advance(0.5)
    inputs.poll()
    assert events == [SlotPressed(station=0, slot=4)] and not inputs.busy
    inputs.close()


def test_gpio_lever_bounce_settles(factory: MockFactory, clock: FakeClock) -> None:
    events: list[StationEvent] = []
    inputs = make_gpio(factory, clock, events)
    for n in (1, 2, 1, 2, 1, 2):  # bouncing faster than the confirm time
        set_lever(factory, n)
        clock.advance(DEFAULT_CONFIRM_S / 2)
        inputs.poll()
    clock.advance(0.02)
    inputs.poll()
    assert events == [LeverMoved(station=0, gear=2)]
    inputs.close()


def test_gpio_simultaneous_presses(factory: MockFactory, clock: FakeClock) -> None:
    events: list[StationEvent] = []
    inputs = make_gpio(factory, clock, events)
    for pin in (SLOT_PINS[1], SLOT_PINS[6], GO_PIN):
        factory.pin(pin).drive_low()
    clock.advance(0.02)
    inputs.poll()
    assert events == [
        SlotPressed(station=0, slot=1),
        SlotPressed(station=0, slot=6),
        GoPressed(station=0),
    ]
    inputs.close()


def test_gpio_close_releases_pins(factory: MockFactory, clock: FakeClock) -> None:
    events: list[StationEvent] = []
    inputs = make_gpio(factory, clock, events)
    with pytest.raises(GPIOPinInUse):
        DigitalInputDevice(GO_PIN, pin_factory=factory)
    inputs.close()
    inputs.close()
    inputs.poll()  # harmless after close
    make_gpio(factory, clock, events).close()


def test_gpio_pin_conflict_releases_what_it_took(factory: MockFactory, clock: FakeClock) -> None:
    blocker = DigitalInputDevice(GO_PIN, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        make_gpio(factory, clock, [])
    blocker.close()
    make_gpio(factory, clock, []).close()  # the lever and slot pins were released


# ---- build_station_inputs --------------------------------------------------------------------


def test_build_emulated() -> None:
    inputs = build_station_inputs(load_profile("sim"), 5, post=lambda e: None)
    assert isinstance(inputs, NullStationInputs) and inputs.station == 5
    inputs.poll()
    inputs.close()


def test_build_gpio_from_duo(factory: MockFactory, clock: FakeClock) -> None:
    events: list[StationEvent] = []
    config = load_profile("duo")
    stations = [
        build_station_inputs(config, i, events.append, pin_factory=factory, clock=clock)
        for i in range(2)
    ]
    factory.pin(21).drive_low()  # S2 GO
    clock.advance(0.02)
    for s in stations:
        s.poll()
        s.close()
    assert events == [GoPressed(station=1)]


def test_build_mcp23017_from_grid6(factory: MockFactory, clock: FakeClock) -> None:
    from rig import grid6_config, station_bus

    config = grid6_config()  # three controllers, each mux's channels on buses of their own
    chips: dict[int, Mcp23017Model] = {}

    def bus_factory(number: int) -> SMBusLike:
        chips[number] = Mcp23017Model(address=0x20)
        return chips[number]

    events: list[StationEvent] = []
    stations = [
        build_station_inputs(
            config, i, events.append, pin_factory=factory, bus_factory=bus_factory, clock=clock
        )
        for i in range(6)
    ]
    assert sorted(chips) == sorted(station_bus(config, i) for i in range(6))
    assert len(chips) == 6
    assert all(isinstance(s, Mcp23017StationInputs) for s in stations)
    go_bank, go_bit = next((bank, bit) for bank, bit, f in STATION_BITS if f == "GO")
    # S3 GO (controller B), found by the safety poll (no INT here)
    chips[station_bus(config, 2)].set_input(go_bank, go_bit, False)
    clock.advance(0.25)
    for s in stations:
        s.poll()
    clock.advance(0.25)
    for s in stations:
        s.poll()
        s.close()
    assert events == [GoPressed(station=2)]


def test_gpio_first_edge_tells_the_display_writer(factory: MockFactory,
                                                  clock: FakeClock) -> None:
    """The edge callback (BusWriter.hold in the app) runs when a contact first moves, before
    the press is confirmed by a second agreeing sample (a bounce may call it again: a hold
    only extends)."""
    events: list[StationEvent] = []
    edges: list[float] = []
    inputs = make_gpio(factory, clock, events)
    inputs.set_on_edge(lambda: edges.append(clock()))
    pin = factory.pin(SLOT_PINS[1])
    pin.drive_low()
    assert len(edges) == 1 and events == []
    pin.drive_high()  # bounce
    pin.drive_low()
    clock.advance(0.005)
    inputs.poll()
    assert events == [SlotPressed(station=0, slot=1)] and edges[0] == 0.0
    clock.advance(0.5)
    inputs.poll()
    assert events == [SlotPressed(station=0, slot=1)]
    inputs.close()
