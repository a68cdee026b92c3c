"""A Garage race in the desktop simulation: the device's own table path (App, journal, the
stations' screens), the draft included, played by the autopilot's key presses; `pitboard sim
--garage ...` starts one from the command line."""

from __future__ import annotations

import io
from pathlib import Path

from pitboard.engine import decisions as dec
from pitboard.engine.decisions import React
from pitboard.engine.garage.draft import DraftPick
from pitboard.journal import Journal
from pitboard.sim import main
from pitboard.table import flow
from pitboard.table.recorder import JournalRecorder
from simkit import open_sim

GARAGE = {"garage": {"choose": "draft", "pool": "all", "expansions": False}}


def test_an_autoplayed_garage_race_drafts_and_finishes_with_its_journal(tmp_path: Path) -> None:
    sim = open_sim(2, seed=5, laps=1, cars=3, modules=GARAGE, journal=tmp_path)
    drafts = 0
    while sim.autoplay_step() is not None:
        drafts += sim.table.state == flow.DRAFT
    race = sim.table.race
    assert race is not None and race.over and sim.table.state == flow.RESULTS
    assert drafts > 0  # the players drafted on their stations
    picks = [d for d in race.log if isinstance(d, DraftPick)]
    assert len(picks) == 3 * 3
    # the players used their upgrades' symbols on the turn screen (reduce Stress, a speed
    # choice...), not only the base game's React steps
    people = {st.car for st in sim.table.stations}
    base = {dec.DONE, dec.COOLDOWN, dec.ADRENALINE, dec.BOOST}
    assert any(isinstance(d, React) and d.car in people and d.action not in base
               for d in race.log)
    # everything the screens showed is in the journal: it replays to the same finish
    saved = JournalRecorder(Journal(tmp_path)).recover()
    assert saved is not None and saved.setup.modules["garage"]["choose"] == "draft"
    assert list(saved.log) == list(race.log)


def test_a_garage_race_resumes_mid_draft_in_a_new_simulation(tmp_path: Path) -> None:
    first = open_sim(2, seed=7, laps=1, cars=2, modules=GARAGE, journal=tmp_path)
    while not any(isinstance(d, DraftPick) for d in (first.table.race.log if
                                                     first.table.race else [])):
        assert first.autoplay_step() is not None
    race = first.table.race
    assert race is not None and first.table.state == flow.DRAFT
    log = list(race.log)
    first.close()  # the window closes mid-draft
    again = open_sim(2, seed=99, journal=tmp_path)
    assert again.table.state == flow.DRAFT and again.table.race is not None
    assert list(again.table.race.log) == log
    while again.autoplay_step() is not None:
        pass
    assert again.table.race.over


def test_pitboard_sim_garage_starts_a_garage_race_from_the_command_line() -> None:
    out = io.StringIO()
    assert main(["--autoplay", "--text", "--seed", "5", "--laps", "1", "--cars", "3",
                 "--garage", "snake", "--upgrades", "basic"],
                stdin=io.StringIO(), stdout=out) == 0
    text = out.getvalue()
    assert "Draft round 1: market" in text and " drafts U" in text and " drops U" in text
    assert "S1 DROP 1 OF 4: YOUR DROP" in text
    assert "+ Garage snake basic" in text
    assert "Race over after " in text


def test_a_module_race_resumes_mid_race_with_its_upgrades_legends_and_weather(
        tmp_path: Path) -> None:
    """Power cut in round 3 of a Garage race with Legends, weather and road tokens: the new
    simulation resumes the same race (upgrades in the decks, Legend cars, tokens), then plays
    it to the end."""
    modules = {**GARAGE, "legends": {"cars": 2}, "weather": {"weather": "random", "road": True}}
    first = open_sim(2, seed=11, laps=1, cars=2, modules=modules, journal=tmp_path)
    while (race := first.table.race) is None or race.round < 3:
        assert first.autoplay_step() is not None
    state, log = first.table.state, list(race.log)
    decks = [sorted(c.hand + c.draw + c.discard + c.play) for c in race.cars]
    first.close()
    again = open_sim(2, seed=99, journal=tmp_path)
    resumed = again.table.race
    assert resumed is not None and list(resumed.log) == log and again.table.state == state
    assert resumed.setup.modules == modules
    assert [sorted(c.hand + c.draw + c.discard + c.play) for c in resumed.cars] == decks
    assert any(code.startswith("U") for code in decks[0])  # the drafted upgrades
    while again.autoplay_step() is not None:
        pass
    assert resumed.over and again.table.state == flow.RESULTS
