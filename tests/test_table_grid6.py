"""A whole six-station race on the grid6 profile, driven only through the station boards' pins
and checked on what the six OLEDs were actually sent.

Inputs are the MCP23017 register models behind ``build_station_inputs`` (INT lines on gpiozero's
MockFactory, our own debounce on a fake clock); the screens are StationDisplays whose transports
decode the SSD1306 bytes into panel RAM (see ``rig.py``). After every move each panel must hold
exactly the last frame the renderer drew, and the text facts are read off the panels' pixels.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pitboard.hw.events import LeverMoved
from pitboard.hw.mcp23017 import Mcp23017Model
from pitboard.hw.oled import FRAME_BYTES
from pitboard.table import flow
from rig import NAMES, Grid6, Players, find_text, shows


@pytest.fixture
def rig() -> Iterator[Grid6]:
    r = Grid6(seed=11)
    yield r
    r.close()


def join_all(rig: Grid6) -> None:
    for i in range(6):
        rig.go(i)


def test_boot_lights_every_panel_with_its_lobby(rig: Grid6) -> None:
    rig.check_glass()
    for i, (panel, name) in enumerate(zip(rig.panels, NAMES, strict=True)):
        assert shows(panel, f"{name} LOBBY", "press GO to join"), f"S{i + 1}"
        assert rig.displays[i].stats.full_frames == 1
    # the lever's first position (gear 1 on every board) was read through INT and posted
    assert rig.handled == [LeverMoved(station=i, gear=1) for i in range(6)]


def test_lobby_through_the_pins(rig: Grid6) -> None:
    join_all(rig)
    rig.check_glass()
    assert all(shows(p, "JOINED - GO to leave", "6 cars: 6 players") for p in rig.panels)
    rig.go(3)  # Dee leaves again
    assert shows(rig.panels[3], "press GO to join")
    assert shows(rig.panels[0], "5 cars: 5 players")
    rig.go(3)
    rig.slot(0, 1)  # LAPS on S1: 2 -> 3 for every station
    assert all(shows(p, "USA, 3 laps") for p in rig.panels)
    rig.check_glass()


def test_whole_race_through_the_pins_and_the_glass(rig: Grid6) -> None:
    table = rig.table
    join_all(rig)
    rig.slot(2, 1)  # LAPS: 2 -> 3
    rig.slot(2, 1)  # 3 -> 1: a one-lap race keeps the test quick
    assert all(shows(p, "USA, 1 lap", "6 cars: 6 players") for p in rig.panels)
    rig.slot(5, 6)  # RACE, from the last station
    assert table.state == flow.PLANNING
    race = table.race
    assert race is not None and race.setup.cars == 6 and not table.bots
    rig.check_glass()

    players = Players(rig, seed=5)
    locked_seen = 0
    while players.step():
        rig.check_glass()
        for i in range(6):  # spot-check the glass of a station that just locked its plan
            if rig.view(i).kind == "locked" and locked_seen < 12:
                assert shows(rig.panels[i], "LOCKED")
                locked_seen += 1
        assert players.actions < 3000
    assert locked_seen == 12

    race = table.race
    assert race is not None and race.over and sorted(race.hall_of_fame) == list(range(6))
    standings = [race.cars[c].name for c in race.standings()]
    for i, panel in enumerate(rig.panels):
        image = panel.image()
        assert find_text(image, "RESULTS") is not None, f"S{i + 1}"
        assert find_text(image, "NEXT") is not None
        rows = []
        for place, name in enumerate(standings, start=1):
            at = find_text(image, f"{place} {name}")
            assert at is not None, f"S{i + 1}: '{place} {name}' not on the glass"
            rows.append(at[1])
        assert rows == sorted(rows)  # in finishing order, top to bottom

    # every frame after the first was a window: ~1 KB only at boot and at the periodic
    # re-initialisation (every 30 s), never for a change on screen
    for display, panel in zip(rig.displays, rig.panels, strict=True):
        stats = display.stats
        assert stats.full_frames == 1 + stats.reinits and stats.errors == 0
        assert stats.bytes_sent == panel.command_bytes + panel.data_bytes
        assert stats.bytes_sent < stats.frames_sent * FRAME_BYTES / 2
    assert all(not getattr(inputs, "faulted", False) for inputs in rig.inputs)
    # GPA7/GPB7 (output-only) were never inputs while a board was read
    assert [chip.output_only_input_reads for chip in rig.chips] == [0] * 6

    rig.go(4)  # NEXT: back to the lobby on every panel
    assert table.state == flow.LOBBY
    rig.check_glass()
    assert all(shows(p, "press GO to join") for p in rig.panels)


def test_race_inputs_arrive_by_interrupt(rig: Grid6) -> None:
    """A press is read because INT fired, not by the 100 ms safety poll."""
    chip: Mcp23017Model = rig.chips[1]
    reads = chip.reads
    rig.pin(1, "GO", True)  # INT falls, the INT callback reads IOCON..GPIOB at once
    assert chip.reads == reads + 1
    assert rig.factory.pin(27).state  # the read cleared INT: the line is back high
    rig.settle()  # 62 ms later: confirmed by one follow-up read and handled; no safety read
    assert chip.reads == reads + 2
    assert shows(rig.panels[1], "JOINED - GO to leave")
    rig.pin(1, "GO", False)
    rig.settle()
