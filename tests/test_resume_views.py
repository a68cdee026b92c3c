"""A resumed table shows what it showed (issue 23): a module race (Garage draft, Legends, weather
and road tokens) is cut at every decision (a copy of its journal at that moment), the copy
restored on a fresh table, and every station's view compared with the table that was not cut;
then both get the same presses until the next decision, compared after each. So every screen
is a function of the journalled state alone: the same presses pick the same card. A season's
second race too (its draft round and swap), restored from the season's one journal.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from pitboard.engine.garage.draft import DraftSwap
from pitboard.hw.events import GoPressed, LeverMoved
from pitboard.journal import Journal
from pitboard.table import flow
from pitboard.table.autoplay import next_input
from pitboard.table.recorder import JournalRecorder
from pitboard.table.screens import render
from pitboard.table.table import Table
from pitboard.table.view import StationView

STATIONS = 3
RACES: dict[str, dict[str, Any]] = {
    "draft, Legends, weather": {"garage": {"choose": "draft"}, "legends": {"cars": 1},
                                "weather": {"weather": "random", "road": True}},
    "snake draft, 2 Legends": {"garage": {"choose": "snake", "pool": "advanced"},
                               "legends": {"cars": 2}},
}


def make(directory: Path, modules: dict[str, Any], seed: int) -> tuple[Table, JournalRecorder]:
    recorder = JournalRecorder(Journal(directory), snapshot_every=16)
    table = Table(stations=STATIONS, render=render, seed=seed, recorder=recorder,
                  clock=lambda: 0.0, modules=modules)
    return table, recorder


def restored(journal: Path, copy: Path, uncut: Table, modules: dict[str, Any], seed: int
             ) -> tuple[Table, JournalRecorder]:
    """A fresh table on a copy of ``journal``, its levers where the uncut table's are (the
    hardware reports them when it starts)."""
    shutil.copytree(journal, copy)
    table, recorder = make(copy, modules, seed)
    for st in uncut.stations:
        if st.lever is not None:
            table.handle(LeverMoved(station=st.index, gear=st.lever))
    saved = recorder.recover()
    assert saved is not None and not saved.ended
    table.restore(saved)
    return table, recorder


def differences(a: StationView | None, b: StationView | None) -> list[str]:
    if a is None or b is None:
        return [] if a is b else ["view"]
    return [f.name for f in fields(a) if getattr(a, f.name) != getattr(b, f.name)]


@pytest.mark.parametrize(("name", "seed"), [("draft, Legends, weather", 4),
                                            ("snake draft, 2 Legends", 7)])
def test_a_table_restored_at_any_decision_shows_what_it_showed(tmp_path: Path, name: str,
                                                               seed: int) -> None:
    modules = RACES[name]
    uncut, _ = make(tmp_path / "uncut", modules, seed)
    for station in range(2):
        uncut.handle(GoPressed(station=station))
    uncut.start_race(track="usa", laps=1, cars=3)
    uncut.refresh()
    assert uncut.state == flow.SETUP  # the set-up checklist first, the draft behind it
    cuts, states = cut_at_every_decision(tmp_path, uncut, modules, seed,
                                         until=lambda: False)
    assert cuts > 40
    assert {flow.SETUP, flow.DRAFT, flow.PLANNING, flow.RESOLUTION} <= states


def test_a_season_restored_in_its_second_race_shows_what_it_showed(tmp_path: Path) -> None:
    """Race 2 of a season: its Event's set-up checklist, the Garage's draft round (the last
    placed first) and the swap (the upgrade to give, then the card to take: a tray for each
    step), then its first rounds; cut at every decision, restored from the season's journal."""
    modules = {"garage": {"choose": "draft"}}
    uncut, _ = make(tmp_path / "uncut", modules, 18)
    for station in range(2):
        uncut.handle(GoPressed(station=station))
    uncut.set_championship("1961")
    uncut.start_race(cars=3)
    uncut.refresh()
    season = uncut.season
    assert season is not None
    while season.index == 0:  # race 1 straight through, and GO on the standings
        event = next_input(uncut)
        assert event is not None, uncut.state
        uncut.handle(event)
    assert uncut.state == flow.SETUP
    cuts, states = cut_at_every_decision(
        tmp_path, uncut, modules, 18, until=lambda: len(season.race.log) > 60)
    assert cuts > 20 and {flow.SETUP, flow.DRAFT, flow.PLANNING} <= states
    swaps = [d for d in season.race.log if isinstance(d, DraftSwap)]
    assert any(d.give for d in swaps if d.car in (0, 1))  # a player gave a card for another


def cut_at_every_decision(tmp_path: Path, uncut: Table, modules: dict[str, Any], seed: int,
                          until: Callable[[], bool]) -> tuple[int, set[str]]:
    """Cut ``uncut``'s journal at every decision of its race (until the race is over or
    ``until()``), restore each copy on a fresh table and compare every station's view, then
    press the same on both up to the next decision, comparing after each press. The cuts made
    and the flow states seen."""
    cuts = presses = 0
    states: set[str] = set()
    while uncut.race is not None and not uncut.race.over and not until():
        copy = tmp_path / f"cut-{cuts}"
        again, recorder = restored(tmp_path / "uncut", copy, uncut, modules, seed)
        cuts += 1
        states.add(uncut.state)
        for i in range(STATIONS):
            assert not differences(uncut.views[i], again.views[i]), (
                f"cut {cuts} ({uncut.state}, {len(uncut.race.log)} decisions): station "
                f"{i + 1} shows {differences(uncut.views[i], again.views[i])} differently")
        # the same presses on both, up to the next decision
        logged = len(uncut.race.log)
        while uncut.race is not None and not uncut.race.over and \
                len(uncut.race.log) == logged:
            event = next_input(uncut)
            assert event is not None, uncut.state
            uncut.handle(event)
            again.handle(event)
            presses += 1
            for i in range(STATIONS):
                assert not differences(uncut.views[i], again.views[i]), (
                    f"after {event} (cut {cuts}): station {i + 1} shows "
                    f"{differences(uncut.views[i], again.views[i])} differently")
            assert presses < 20000
        recorder.journal.close()
        shutil.rmtree(copy)
    return cuts, states
