"""Typed events (pitboard/engine/events/) keep every saved and streamed format byte for byte.

The digests below were taken with the engine of commit 458428d, whose events were plain dicts:
the console's ``events json`` lines, a saved race with its events (``race_to_dict(race,
events=True)`` as ``pitboard scenario --json`` writes it) and the events of every scenario file
there was then. The same races must give the same bytes from the typed events; each event must
read back from its JSON as itself; and every kind must be listed, documented and narrated or
deliberately not.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path

import pytest

from consolekit import PIN, make, one
from pitboard.bots import Bot, HeuristicBot, RandomBot
from pitboard.engine import Race, RaceSetup
from pitboard.engine import events as ev
from pitboard.engine.snapshot import race_from_dict, race_to_dict
from pitboard.garage_bots import GarageBot
from pitboard.narrate import describe
from pitboard.scenario import load_scenario

SCENARIOS = Path(__file__).parent / "scenarios"

#: name -> (setup, bot, events, digest of the console's lines, digest of the saved race)
RACES = {
    "base": (dict(track="usa", cars=4, seed=7, laps=2), "heuristic", 780,
             "201855814d79cb603431cd4c44c01e4f56fe224df815ae99b6b6dd0490d29263",
             "7d2dd9f35c59ff80554aef02c36150625982c7d8cd37e60f170db319b318b6bd"),
    "garage": (dict(track="usa", cars=4, seed=8, laps=1, modules={
        "garage": {"choose": "draft", "pool": "all", "expansions": True}}), "random", 1007,
               "6d8862487b1cf103cc8bc0c3242decff53b6c1c0a034b70a2a506f5b66bd4f2c",
               "1563db194b5459df8f1454eef6cdda66b7bd4a1276c7c41249fdc9390cf1b598"),
    "legends": (dict(track="usa", cars=5, seed=10, laps=1, modules={
        "legends": {"cars": 3, "aggressive": True, "pro": 2}}), "random", 688,
                "163ba0328249bb1d09b904e5aedb8756b802bfeee5633586402c23ac7c981e3c",
                "c749923f76b16219022251db13c44e169261616df6357ab839ca6963994aef9b"),
    "weather": (dict(track="usa", cars=4, seed=11, laps=1, modules={
        "weather": {"weather": "random", "road": True}}), "random", 1068,
                "6637872d778aed5fa5c15478367d2d77151f356c664e8ea7ac7aebf88b8decda",
                "f6e89c656372c694925ee4ef639ac362ba051636a5764cb92f486d92c62b7df1"),
    "all": (dict(track="usa", cars=6, seed=12, laps=1, modules={
        "garage": {"choose": "snake"}, "legends": {"cars": 2},
        "weather": {"weather": "random", "road": True}}), "heuristic", 494,
            "5818f72a8a910aa0ce982fb679da686783bbf718888bab4ea1e58ece8e513a5d",
            "54fff9777c7219c670818bdd7eaae34a3909f1d925f68bdd3c6a9bf27a7dac0b"),
}
#: the events of the scenario files there were then, as console lines, in file order
SCENARIO_EVENTS = (1207, "75ddb00d0c0f9e28be90bd6475d66c355adb73f6ae266a9e30409a7e2ef69a5c")
PINNED_SCENARIOS = (
    "adrenaline_corner", "adrenaline_finished", "adrenaline_finished_four", "adrenaline_five",
    "adrenaline_four", "blocking", "boost", "boost_empty", "boost_gear4", "clogged", "cooldown",
    "corner_edges", "corner_rulebook", "corners_several", "discard", "discard_none",
    "finish_order", "finish_past", "flip_nothing", "forecast_discard", "forecast_stress",
    "garage_accelerate", "garage_adjust", "garage_adjust_plus", "garage_boost",
    "garage_cooldown", "garage_direct", "garage_direct_no_cooling", "garage_draft_market",
    "garage_draft_symbol", "garage_heat", "garage_heat_unpayable", "garage_onetime",
    "garage_reduce", "garage_refresh", "garage_salvage", "garage_salvage_empty", "garage_scrap",
    "garage_scrap_empty", "garage_slipstream", "garage_snake", "garage_speed_choice",
    "garage_speed_choices_shared", "garage_supercool", "laps", "legend_aggressive",
    "legend_blocking", "legend_brake", "legend_corner", "legend_corner_stop",
    "legend_final_lap", "legend_lap_brake", "legend_slipstream", "legend_straight", "passing",
    "plan_base", "race_order", "replenish_reshuffle", "reshuffle_flip", "road_free_boost",
    "road_limit_down", "road_limit_up", "road_overheat", "road_slipstream", "rulebook_reveal",
    "setup_default", "setup_grid", "shift", "shift_illegal", "slipstream_behind",
    "slipstream_beside", "slipstream_corner", "slipstream_finish", "slipstream_lap",
    "slipstream_to_line", "spin_out_blocked", "spin_out_gear2", "spin_out_later_corners",
    "stress_flip", "weather_cloud", "weather_fog", "weather_rain", "weather_snow",
    "weather_storm", "weather_sun", "worked_example", "zero_move",
)
#: the console's events json stream of one bot race with the Weather and Garage modules
CONSOLE_STREAM = (221, "048dcaf0e4874792d4932429e70dcc6e33039fb2b394e740c46b1d635fb8a97b")


def _line(event: ev.Event) -> str:
    """An event as the console streams it (console/protocol.py)."""
    return "EVT " + json.dumps(event.to_dict(), separators=(",", ":"), default=str)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _race(name: str) -> Race:
    options, bot_name, *_ = RACES[name]
    setup = RaceSetup(**options)
    race = Race(setup)
    bot: Bot = RandomBot(seed=setup.seed)
    if bot_name == "heuristic":
        bot = GarageBot(seed=setup.seed) if "garage" in setup.modules else \
            HeuristicBot(seed=setup.seed)
    while not race.over:
        race.apply(bot.choose(race, race.waiting_for()))
    return race


@pytest.mark.parametrize("name", RACES)
def test_a_race_streams_and_saves_the_bytes_it_always_did(name: str) -> None:
    race = _race(name)
    _, _, count, stream, saved = RACES[name]
    assert len(race.events) == count
    assert _sha("".join(_line(e) + "\n" for e in race.events)) == stream
    assert _sha(json.dumps(race_to_dict(race, events=True), indent=1)) == saved


@pytest.mark.parametrize("name", RACES)
def test_every_event_reads_back_from_its_json_as_itself(name: str) -> None:
    race = _race(name)
    for event in race.events:
        again = ev.event_from_dict(json.loads(json.dumps(event.to_dict())))
        assert again == event and type(again) is type(event)
    # a saved race brings its events back typed, and saves them again unchanged
    saved = race_to_dict(race, events=True)
    restored = race_from_dict(json.loads(json.dumps(saved)))
    assert restored.events == race.events
    assert race_to_dict(restored, events=True) == saved


def test_the_scenario_files_say_what_they_always_said() -> None:
    lines = [_line(e) + "\n" for name in sorted(PINNED_SCENARIOS)
             for e in load_scenario(SCENARIOS / f"{name}.txt").run().events]
    assert (len(lines), _sha("".join(lines))) == SCENARIO_EVENTS


def test_the_console_streams_the_json_it_always_did() -> None:
    table, proto, _ = make()
    one(proto, f"pin {PIN}")
    one(proto, "events json")
    one(proto, 'module weather {"weather": "rain", "road": true}')
    one(proto, 'module garage {"choose": "random"}')
    assert one(proto, "new-race cars=2 seed=9 laps=1").startswith("OK ")  # bots race it out
    lines = proto.take_events()
    assert (len(lines), _sha("\n".join(lines))) == CONSOLE_STREAM
    assert table.race is not None
    assert lines[1:] == [_line(e) for e in table.race.events]  # after {"type": "table"}


def test_every_kind_is_a_frozen_documented_class_with_its_json_keys() -> None:
    assert len(ev.EVENTS) == 47
    for kind, cls in ev.EVENTS.items():
        assert cls.kind == kind and dataclasses.is_dataclass(cls)
        params = cls.__dataclass_params__
        assert params.frozen and hasattr(cls, "__slots__"), kind
        assert ">>>" in (cls.__doc__ or "") and f"'type': '{kind}'" in (cls.__doc__ or ""), kind
        assert set(cls.keys) == {f.name for f in dataclasses.fields(cls)} | {"type"}, kind


def test_a_bad_event_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match="unknown event type 'warp'"):
        ev.event_from_dict({"type": "warp", "round": 1})
    with pytest.raises(ValueError, match="move event without 'why'"):
        ev.event_from_dict({"type": "move", "car": 0, "round": 1})
    with pytest.raises(ValueError, match="grid event: grid: "):
        ev.event_from_dict({"type": "grid", "grid": [3], "round": 0})
    with pytest.raises(ValueError, match="already registered"):
        ev.register_event(type("Again", (ev.Moved,), {"kind": "move"}))


def test_narration_says_a_line_for_every_kind_but_the_screens_own() -> None:
    silent = {"turn", "replenish", "reshuffle", "heat"}  # screens and the digests use them
    seen: dict[str, ev.Event] = {}
    for name in RACES:
        for event in _race(name).events:
            seen.setdefault(event.kind, event)
    for path in sorted(SCENARIOS.glob("*.txt")):
        for event in load_scenario(path).run().events:
            seen.setdefault(event.kind, event)
    assert set(seen) == set(ev.EVENTS)  # the races above say everything a race can say
    for kind, event in seen.items():
        line = describe(event, lambda car: f"Car {car + 1}")
        assert (line is None) == (kind in silent), kind


# ---------------------------------------------------------------------- docs/events.md
DOC = Path(__file__).parent.parent / "docs" / "events.md"


def events_page() -> str:
    """docs/events.md, built from the engine's list of event kinds."""
    rows = []
    for kind, cls in ev.EVENTS.items():
        doc = " ".join((cls.__doc__ or "").split("\n\n")[0].split())
        doc = re.sub(r":class:`~?(?:[\w.]+\.)?(\w+)`", r"`\1`", doc.replace("``", "`"))
        keys = ", ".join(f"`{k}`" for k in cls.keys)
        rows.append(f"| `{kind}` | `{cls.__name__}` | {keys} | {doc.replace('|', '/')} |")
    return "\n".join([
        "# What a race says: the engine's events",
        "",
        "<!-- generated from firmware_py/pitboard/engine/events/ by "
        "`python tests/test_events.py --write`: edit the docstrings there, not this page -->",
        "",
        "A race records what happens as a list of events (`race.events`), one frozen class per",
        "kind in `pitboard/engine/events/` (the base game's, then each module's). The console's",
        "`events json` stream ([console.md](console.md)) and a saved race",
        "(`pitboard scenario FILE --json`) carry each as one JSON object: the keys below in",
        "this order, `type` the kind and `round` the round it happened in (0 before the",
        "first). A car's place is `d` (spaces from the start line), `lap`, board `space`,",
        "`spot` (1 or 2) and `racing_line`.",
        "",
        "| `type` | Class | Keys, in order | What happened |",
        "|---|---|---|---|",
        *rows,
        "",
    ])


def test_the_events_page_lists_every_kind() -> None:
    assert DOC.read_text(encoding="utf-8") == events_page(), \
        "docs/events.md is stale: python tests/test_events.py --write"


if __name__ == "__main__":
    import sys
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_events.py --write")
    DOC.write_text(events_page(), encoding="utf-8")
    print(f"wrote {DOC}")
