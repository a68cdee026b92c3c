"""A pinned seeded race: which cards a seed deals and how a whole race resolves.

``golden/race_usa_4cars.json`` holds a setup, the heuristic bot's decisions and the final state
(plus a digest of the event log); ``golden/race_usa_4cars.events.txt`` is that event log, one
event a line (round, kind, then its JSON fields), so a change to how a race resolves shows in a
review as a readable diff of what happened, not only as a changed digest. Replaying the decisions
must give exactly that state and those events on every platform and Python version. When a
change is MEANT to change seeded races (the shuffle stream, a rule), re-pin it on purpose and say
so in the commit:

    .venv/bin/python tests/test_golden_race.py --pin
"""

from __future__ import annotations

import difflib
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from pitboard.bots import HeuristicBot
from pitboard.engine import Race, RaceSetup, parse_decision, race_to_dict, replay
from pitboard.engine.events import Event

GOLDEN = Path(__file__).resolve().parent / "golden" / "race_usa_4cars.json"
TRACE = GOLDEN.with_suffix(".events.txt")
SETUP = RaceSetup(track="usa", cars=4, seed=20261123, laps=1)


def events_digest(events: list[Event]) -> str:
    """SHA-256 of the event log as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps([e.to_dict() for e in events], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def trace(events: list[Event]) -> str:
    """The event log as text: one event a line, its round and kind, then its JSON fields in
    order (``key=value``; a string bare unless it holds a space, other values as JSON)."""
    lines = []
    for e in events:
        fields = " ".join(f"{k}={v if isinstance(v, str) and ' ' not in v else json.dumps(v)}"
                          for k, v in e.to_dict().items() if k not in ("type", "round"))
        lines.append(f"{e.round:>2} {e.kind:<12} {fields}")
    return "\n".join(lines) + "\n"


def final_state(race: Race) -> dict[str, Any]:
    """What the golden pins of the end: everything but the log (listed as decisions)."""
    state = race_to_dict(race)
    del state["log"]
    return state


def bot_race() -> Race:
    race = Race(SETUP)
    bot = HeuristicBot(seed=SETUP.seed)
    while not race.over:
        race.apply(bot.choose(race, race.waiting_for()))
    return race


def load() -> dict[str, Any]:
    golden: dict[str, Any] = json.loads(GOLDEN.read_text())
    return golden


def test_golden_setup_is_the_pinned_one() -> None:
    assert RaceSetup.from_dict(load()["setup"]) == SETUP


def test_golden_race_replays_to_the_pinned_state() -> None:
    golden = load()
    race = replay(SETUP, [parse_decision(line) for line in golden["decisions"]])
    assert race.over
    assert final_state(race) == golden["final"]
    assert events_digest(race.events) == golden["events_sha256"]


def test_golden_race_says_what_the_pinned_trace_says() -> None:
    golden = load()
    race = replay(SETUP, [parse_decision(line) for line in golden["decisions"]])
    pinned = TRACE.read_text(encoding="utf-8").splitlines()
    now = trace(race.events).splitlines()
    diff = list(difflib.unified_diff(pinned, now, "pinned", "now", lineterm="", n=2))
    assert not diff, "the golden race's events changed:\n" + "\n".join(diff[:60])


def test_golden_race_deals_the_pinned_first_hands() -> None:
    # the first hands follow from the seed alone (grid draw, then one shuffle per car)
    race = Race(SETUP)
    assert [c.hand for c in race.cars] == [
        ["2", "1", "2", "S", "S", "1", "2"],
        ["4", "2", "H", "1", "5", "3", "3"],
        ["1", "1", "2", "3", "1", "S", "S"],
        ["S", "0", "S", "1", "S", "3", "1"],
    ]
    assert race.order == [0, 3, 1, 2]


def test_heuristic_bot_plays_the_pinned_decisions() -> None:
    # the bot is deterministic too: a faster bot must still choose the same
    race = bot_race()
    assert [str(d) for d in race.log] == load()["decisions"]


def pin() -> None:
    race = bot_race()
    golden = {
        "about": "Pinned seeded race: replay the decisions from the setup and compare. "
                 "Re-pin only on purpose: python tests/test_golden_race.py --pin",
        "setup": SETUP.to_dict(),
        "decisions": [str(d) for d in race.log],
        "events_sha256": events_digest(race.events),
        "final": final_state(race),
    }
    GOLDEN.write_text(json.dumps(golden, indent=1) + "\n")
    TRACE.write_text(trace(race.events), encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(race.log)} decisions, {race.round} rounds)")


if __name__ == "__main__":
    if sys.argv[1:] != ["--pin"]:
        sys.exit("usage: python tests/test_golden_race.py --pin")
    pin()
