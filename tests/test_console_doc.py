"""docs/console.md says what the console does: its command table lists every command with the
console's own grammar and PIN marking, and its example session is what a replay of the typed
lines answers (a line ``EVT …`` there stands for the further event lines it leaves out)."""

from __future__ import annotations

import re
from pathlib import Path

from pitboard.console import ConsoleProtocol
from pitboard.table.table import Table

DOC = Path(__file__).resolve().parents[1] / "docs" / "console.md"
TEXT = DOC.read_text(encoding="utf-8")
#: the staff PIN the example session types (the shipped profiles' default)
PIN = "2468"
SKIPPED = "EVT …"


def _protocol() -> tuple[Table, ConsoleProtocol]:
    table = Table(stations=2, seed=1)
    proto = ConsoleProtocol(table, staff_pin=PIN)
    proto.attach(table)
    return table, proto


def _section(title: str) -> str:
    start = TEXT.index(f"## {title}\n")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start:end if end >= 0 else None]


def test_the_command_table_is_the_consoles_command_table() -> None:
    rows: dict[str, list[tuple[str, bool]]] = {}
    table = _section("Commands").split("| Command | Answer |", 1)[1].split("\n\n", 1)[0]
    for usage, star in re.findall(r"^\| `([^`]+)`( \\\*)? \|", table, flags=re.M):
        usage = usage.replace("\\|", "|")
        rows.setdefault(usage.split()[0], []).append((usage, bool(star)))
    _, proto = _protocol()
    assert set(rows) == set(proto.commands)
    for name, command in proto.commands.items():
        usages = [u for u, _ in rows[name]]
        assert {star for _, star in rows[name]} == {command.changes}, name
        if len(usages) == 1:
            assert usages[0] == command.usage
        else:  # one row per alternative: `input STATION lever 1-4`, `input STATION go`
            words = [u.split() for u in usages]
            common = 0
            while all(len(w) > common and w[common] == words[0][common] for w in words):
                common += 1
            tails = "|".join(" ".join(w[common:]) for w in words)
            assert " ".join([*words[0][:common], tails]) == command.usage


def _replay(typed: list[str]) -> list[str]:
    """The session as the doc shows it: each typed line, its replies, the events after it."""
    _, proto = _protocol()
    shown = []
    for line in typed:
        shown += [f"> {line}", *proto.handle_line(line), *proto.take_events()]
    return shown


def _matches(doc: list[str], actual: list[str]) -> bool:
    if not doc:
        return not actual
    if doc[0] == SKIPPED:  # any number of event lines
        return any(_matches(doc[1:], actual[n:]) for n in range(len(actual) + 1)
                   if all(a.startswith("EVT ") for a in actual[:n]))
    return bool(actual) and doc[0] == actual[0] and _matches(doc[1:], actual[1:])


def test_the_example_session_is_what_the_console_answers() -> None:
    block = _section("Example session").split("```\n", 2)[1]
    doc = block.splitlines()
    typed = [line[2:] for line in doc if line.startswith("> ")]
    assert len(typed) >= 8 and typed[0] == "status"
    actual = _replay(typed)
    assert _matches(doc, actual), "docs/console.md's example session is now:\n" + "\n".join(
        actual)
