#!/usr/bin/env python3
"""Generate the shipped track files from the BGA circuit data (one-off tool).

Reads ``../shared/reference/track-cells/<Name>.json`` (facts parsed from the Board Game Arena
implementation) and writes ``firmware_py/pitboard/tracks/<key>.toml``. After the first run the TOML
files are the source of truth: owners correct them by hand, so re-running this script would undo
their corrections. Neither the runtime nor the tests use it.

Example::

    python3 tools/make_track_files.py                 # default source and output folders
    python3 tools/make_track_files.py --check          # only report files that would change
    python3 tools/make_track_files.py --only japan     # one track
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: ../shared from the main checkout, ../../shared from a worktree under /work/wt
DEFAULT_SOURCE = next(
    (
        up / "shared" / "reference" / "track-cells"
        for up in ROOT.parents
        if (up / "shared" / "reference" / "track-cells").is_dir()
    ),
    ROOT.parent / "shared" / "reference" / "track-cells",
)
DEFAULT_OUT = ROOT / "firmware_py" / "pitboard" / "tracks"


@dataclass(frozen=True)
class Spec:
    """What the JSON does not say: our key and name, and the cross-check notes for the header."""

    source: str  # JSON file stem
    key: str
    name: str
    box: str
    #: where the public datasets disagree, one comment line each
    disagreements: tuple[str, ...]
    #: end-of-line comment on a corner's `at`, by corner number (1-based)
    at_notes: tuple[tuple[int, str], ...] = ()
    #: end-of-line comment on `heat`
    heat_note: str = ""


SPECS = (
    Spec(
        "USA",
        "usa",
        "USA",
        "base game",
        (
            "One fan dataset counts corners 1 space later (13/34/50/58): same gaps, so it is an",
            "indexing difference, not a different board. Another gives 11 spaces from the finish",
            "line to corner 1 instead of 12 (exact finish-line spot); all other gaps agree.",
        ),
    ),
    Spec(
        "France",
        "france",
        "France",
        "base game",
        (
            "One fan dataset lists straights that add up to 55, not 60: its corner positions",
            "were not used. Spaces, laps, corner positions and limits otherwise agree.",
        ),
    ),
    Spec(
        "GB",
        "great_britain",
        "Great Britain",
        "base game",
        (
            "Corner 5: BGA puts the line after space 48, a separate fan dataset after 49.",
            "48 is kept; if your board shows the corner after 49, change its `at` to 49.",
        ),
        ((5, "BGA; another dataset has 49"),),
    ),
    Spec(
        "Italia",
        "italy",
        "Italy",
        "base game",
        ("None known: spaces, laps, corner positions and limits agree.",),
    ),
    Spec(
        "Japan",
        "japan",
        "Japan",
        "Heavy Rain expansion",
        (
            "Heat: BGA gives 7 Heat cards, a separate fan dataset 6. 7 is kept (BGA, the",
            "licensed implementation); if your board prints 6, change heat to 6.",
            "Another dataset gives 9 spaces from the finish line to corner 1 instead of 10",
            "(exact finish-line spot); all other gaps agree, the chicane included.",
            "Flooded spaces, legends lines, racing-line spots: BGA alone.",
        ),
        heat_note="BGA; a fan dataset has 6",
    ),
    Spec(
        "Mexico",
        "mexico",
        "Mexico",
        "Heavy Rain expansion",
        (
            "Chicanes: BGA makes corner lines 1-2 and 5-6 chicanes, a separate fan dataset only",
            "5-6. Both are kept; if your board prints lines 1 and 2 as two corners, delete",
            "chicane = true from corners[2].",
        ),
    ),
    Spec(
        "Nederland",
        "netherlands",
        "Netherlands",
        "Tunnel Vision expansion",
        (
            "None known: spaces, laps, corner positions, limits and the chicane agree.",
            "The double chevron (double_aggressive on corner 1): BGA alone.",
        ),
    ),
    Spec(
        "Espana",
        "spain",
        "Spain",
        "Tunnel Vision expansion",
        (
            "None known: spaces, the one lap, corner positions, limits, chicanes and tunnel",
            "spaces agree. Spain prints its own Press Corners (Championship), not kept here.",
        ),
    ),
)

HEADER = """\
# Pitboard track file: {name} ({box}).
#
# Fields (as printed on the board):
#   spaces       spaces per lap, numbered 1..spaces from the finish line; the line lies between
#                space {spaces} and space 1.
#   laps         laps printed on the board. heat = Heat cards in each engine, stress = Stress
#                cards in each deck.
#   grid         [space, spot] in grid order, pole first. A race with N cars uses the first N.
#   flooded      optional: flooded spaces, as numbers and "FROM-TO" ranges. A car that starts
#                a round on one pays 1 Heat more for any downshift.
#   tunnels      optional: tunnel spaces. A car on one discards no card from its hand.
#   [[corners]]  in board order. The corner line lies between space `at` and space `at + 1`.
#                limit = speed limit. racing_spot = racing-line spot (1 or 2) of the sector after
#                the corner; the stretch before corner 1 uses the last corner's. legends_line =
#                the Legends line lies after this space. Optional: chicane = true on the second
#                line of a chicane (its two lines share one road token, and the sector after it
#                starts after the second line); aggressive = spaces before the corner line the
#                Aggressive-Legends chevrons cover; double_aggressive = the same for a double
#                chevron; x / y = where the corner sign sits on the board picture.
#   [spots]      one line per space: "space" = [[x, y, angle] of spot 1, [x, y, angle] of spot 2],
#                in pixels and degrees (the heading) on the board picture. Optional: without
#                the table the track is drawn on a generated outline with the same spaces and
#                corners. `pitboard tracks --svg FILE` draws a file, to check an edit.
#
# Source: Board Game Arena circuit data (bga-devs/bga-heat). Spaces, laps, Heat, Stress, corner
# positions and limits match at least one other, separate public dataset unless noted below;
# legends lines, racing-line spots and board coordinates come from BGA alone.
# Generated once by tools/make_track_files.py. This file is now the source of truth: if your
# printed board differs, correct it here.
#
# Where sources disagree:
{disagreements}
"""


def _ordered(value: Any) -> list[Any]:
    """A JSON list, or an object keyed "0", "1"... (some circuits store lists so), in order."""
    if isinstance(value, dict):
        return [value[k] for k in sorted(value, key=int)]
    return list(value)


def _ranges(spaces: list[int]) -> str:
    """Space numbers as a TOML array of numbers and "FROM-TO" ranges."""
    out: list[str] = []
    numbers = sorted(set(spaces))
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f'"{start}-{prev}"')
        if n is not None:
            start = prev = n
    return f"[{', '.join(out)}]"


def _spaces_of(cells: dict[str, dict[str, Any]], ids: list[int], source: str) -> list[int]:
    """The spaces of cell ids that cover whole spaces (both spots), as the rules need them."""
    lanes: dict[int, set[int]] = {}
    for cell_id in ids:
        cell = cells[str(cell_id)]
        lanes.setdefault(int(cell["position"]), set()).add(int(cell["lane"]))
    half = [space for space, got in lanes.items() if got != {1, 2}]
    if half:
        raise ValueError(f"{source}: spaces {half} have only one spot marked")
    return sorted(lanes)


def _num(value: Any) -> str:
    """A JSON number as TOML: integers stay integers, floats keep their digits."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"not a number: {value!r}")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


def render(spec: Spec, data: dict[str, Any]) -> str:
    """The TOML text of one track."""
    cells: dict[str, dict[str, Any]] = data["cells"]
    spaces = max(int(c["position"]) for c in cells.values())
    places: dict[tuple[int, int], dict[str, Any]] = {}
    for cell in cells.values():
        places[(int(cell["position"]), int(cell["lane"]))] = cell
    if len(places) != 2 * spaces or len(cells) != 2 * spaces:
        raise ValueError(f"{spec.source}: expected 2 spots per space for {spaces} spaces")

    out = [
        HEADER.format(
            name=spec.name,
            box=spec.box,
            spaces=spaces,
            disagreements="\n".join(f"#   {line}" for line in spec.disagreements),
        ),
        f'key = "{spec.key}"',
        f'name = "{spec.name}"',
        f"spaces = {spaces}",
        f"laps = {int(data['nbrLaps'])}",
        f"heat = {int(data['heatCards'])}" + (f"  # {spec.heat_note}" if spec.heat_note else ""),
        f"stress = {int(data['stressCards'])}",
        "",
    ]
    grid = []
    for cell_id in _ordered(data["startingCells"]):
        cell = cells[str(cell_id)]
        grid.append(f"[{int(cell['position'])}, {int(cell['lane'])}]")
    out += ["# pole first", f"grid = [{', '.join(grid)}]", ""]
    for key, field in (("floodedSpaces", "flooded"), ("tunnelsSpaces", "tunnels")):
        if data.get(key):
            out.append(f"{field} = {_ranges(_spaces_of(cells, data[key], spec.source))}")
    if out[-1] != "":
        out.append("")

    notes = dict(spec.at_notes)
    for number, corner in enumerate(_ordered(data["corners"]), start=1):
        note = f"  # {notes[number]}" if number in notes else ""
        out += [
            "[[corners]]",
            f"at = {int(corner['position'])}{note}",
            f"limit = {int(corner['speed'])}",
            f"racing_spot = {int(corner['lane'])}",
            f"legends_line = {int(corner['legend'])}",
        ]
        # BGA marks the second line of a chicane with a "chicane" field (any value).
        if "chicane" in corner:
            out.append("chicane = true")
        if corner.get("aggressiveLegends"):
            out.append(f"aggressive = {int(corner['aggressiveLegends'])}")
        if corner.get("doubleAggressiveLegends"):
            out.append(f"double_aggressive = {int(corner['doubleAggressiveLegends'])}")
        out += [f"x = {_num(corner['x'])}", f"y = {_num(corner['y'])}", ""]

    out += ["[spots]", "# space = [[x, y, angle] of spot 1, [x, y, angle] of spot 2]"]
    width = len(str(spaces)) + 2
    for space in range(1, spaces + 1):
        pair = []
        for spot in (1, 2):
            c = places[(space, spot)]
            pair.append(f"[{_num(c['x'])}, {_num(c['y'])}, {_num(c['a'])}]")
        label = f'"{space}"'.ljust(width)
        out.append(f"{label} = [{pair[0]}, {pair[1]}]")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="track-cells folder")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    parser.add_argument("--check", action="store_true", help="write nothing, list changes")
    parser.add_argument("--only", default="", metavar="KEY,...",
                        help="only these tracks (keep owners' corrections to the others)")
    args = parser.parse_args(argv)

    only = {k for k in args.only.split(",") if k}
    unknown = only - {spec.key for spec in SPECS}
    if unknown:
        parser.error(f"unknown track {', '.join(sorted(unknown))}")
    changed = 0
    for spec in SPECS:
        if only and spec.key not in only:
            continue
        data = json.loads((args.source / f"{spec.source}.json").read_text(encoding="utf-8"))
        text = render(spec, data)
        target: Path = args.out / f"{spec.key}.toml"
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old == text:
            continue
        changed += 1
        if args.check:
            print(f"would change {target}")
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
