"""The "bus-time" section of ``i2c-and-cables.md``: what the display transport puts on an I2C bus.

Every constant the text states is read from the code that sends (part sizes:
:func:`pitboard.hw.writer.part_bytes`; mux bytes: :data:`pitboard.hw.oled.MUX_WRITE`; the
messages per ``i2c_rdwr``: :data:`pitboard.hw.oled_i2c.RDWR_MAX_MESSAGES`), and every figure
that is a function of the code alone is computed here (:mod:`pitboard.hw.display_cost`, the
functions ``benchmarks/display_bytes.py`` prints with), so a change to the transport makes the
committed page stale and ``pitboard wiring-docs --check`` (and its test) fail until it is
regenerated.

The figures of real races come from the benchmarks and are stated with the commit they were
measured at (:data:`MEASURED_AT`): the reveals (:data:`REVEAL_MS`) are held to the benchmark's
model by ``tests/test_wiring_bus_time.py``, which plays the same races and fails when its
output drifts by more than the printed rounding; the press figures (:data:`PRESS`) include the
table's measured CPU time, which no test can hold, and are stated as measured.
"""

from __future__ import annotations

from typing import Final

from pitboard.hw.display_cost import NEWS_ROWS, busiest, by_design, rewrite_cost
from pitboard.hw.oled import FRAME_BYTES, MUX_WRITE
from pitboard.hw.oled_i2c import RDWR_MAX_MESSAGES
from pitboard.hw.writer import URGENT_CHUNK_BYTES, part_bytes

from .markdown import _table

#: the bus speeds the page compares
SPEEDS: Final = (400_000, 100_000)
#: station -> controller in the shipped grid6 profile (S1, S2 on A; S3, S4 on B; S5, S6 on C)
GRID6_LAYOUT: Final = ("A", "A", "B", "B", "C", "C")

#: the commit the measured figures below were taken at
MEASURED_AT: Final = "c29697a"
#: ``benchmarks/display_bytes.py``: the real GO reveals of REVEAL_RACES one-lap grid6 races
#: (REVEAL_COUNT reveals), in the writer's parts, busiest controller: (median, worst) ms
REVEAL_RACES: Final = 2
REVEAL_COUNT: Final = 18
REVEAL_MS: Final = {100_000: (107.5, 119.9), 400_000: (24.7, 27.4)}
#: ``benchmarks/press_to_glass.py 3``, grid6 (three controllers), per input: its answer's bus
#: bytes p50/p99 (RAM data, window commands, address and control bytes, mux selects), and the
#: p99 ms from the first edge to the answer's last byte at 100 kHz with the table's CPU time as
#: measured on the development machine (x1) and four times it (x4, a Pi), and at 400 kHz (x1)
PRESS: Final = {
    "GO (locks a plan)": ((103, 103), (14.7, 17.4, 7.3)),
    "card toggle on the planning screen": ((92, 390), (11.1, 12.6, 4.5)),
    "gear lever": ((72, 122), (17.5, 20.2, 6.5)),
    "turn screen: BOOST": ((60, 103), (18.3, 41.6, 6.8)),
    "turn screen: COOL": ((63, 104), (15.2, 19.2, 6.6)),
    "turn screen: ADR": ((48, 98), (15.9, 20.2, 6.4)),
}
#: ``benchmarks/press_to_glass.py``'s target: p99 at the safe speed (100 kHz)
PRESS_TARGET_MS: Final = 20


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.1f} ms"


def _computed_rows() -> list[tuple[str, ...]]:
    """The rows that are a function of the code: (change, bus bytes, 400 kHz, 100 kHz)."""
    out: list[tuple[str, ...]] = []
    whole = {hz: rewrite_cost(part_bytes(hz)) for hz in SPEEDS}
    cases = {
        "a whole new screen (every byte)":
            {hz: busiest([whole[hz]], ["A"], hz) for hz in SPEEDS},
        "the reveal on one waiting screen (after a locked plan: 2 of 8 pages)":
            {hz: busiest([rewrite_cost(part_bytes(hz), NEWS_ROWS)], ["A"], hz)
             for hz in SPEEDS},
        "the reveal on six screens, every byte changed, all on one bus":
            {hz: busiest([whole[hz]] * 6, ["A"] * 6, hz) for hz in SPEEDS},
        "the reveal on grid6 at most, by design (its busiest controller: one turn screen "
        "changing every byte, the last GO's answer and a waiting screen)":
            {hz: busiest(by_design(part_bytes(hz)), GRID6_LAYOUT, hz) for hz in SPEEDS},
    }
    for label, by_hz in cases.items():
        out.append((label, " / ".join(str(by_hz[hz][1]) for hz in SPEEDS),
                    *(_ms(by_hz[hz][0]) for hz in SPEEDS)))
    return out


def bus_time_section() -> str:
    """The generated Markdown of the section."""
    p100, p400 = part_bytes(100_000), part_bytes(400_000)
    mux = MUX_WRITE.bus_bytes
    lo, hi = PRESS["card toggle on the planning screen"][0]
    rows = [("a card toggle's answer (*measured*: p50-p99)", f"{lo}-{hi}",
             *(f"about {9000 * lo / hz:.1f}-{9000 * hi / hz:.1f} ms" for hz in SPEEDS)),
            *_computed_rows(),
            (f"the reveal on grid6, {REVEAL_COUNT} reveals of real races (*measured*: its "
             "busiest controller, median / worst)", "-",
             *(f"{REVEAL_MS[hz][0]} / {REVEAL_MS[hz][1]} ms" for hz in SPEEDS))]
    lines = [
        "What the speed costs. Pitboard sends only the part of a screen that changed (windows of "
        f"controller RAM: `pitboard.hw.display`), not the whole {FRAME_BYTES}-byte frame luma "
        "would send, and it sends a frame in **parts**: the display writer "
        f"(`pitboard.hw.writer`) cuts it into parts of at most {p100} RAM bytes at 100 kHz "
        f"({p400} at 400 kHz: as long on the wire at either speed; a press's answer in parts of "
        f"{URGENT_CHUNK_BYTES}) and takes the most urgent work between parts, so a press waits "
        "behind at most one part of another station's frame. **A part is one kernel "
        "transfer**: the address command of each of its windows and the window's RAM data go as "
        "the messages of one `i2c_rdwr` (`pitboard.hw.oled_i2c`; each message has its address "
        f"and control byte; at most {RDWR_MAX_MESSAGES} messages per call). On grid6 the "
        "kernel's i2c-mux driver selects the station's TCA9548A channel before a transfer and, "
        f"with idle disconnect, deselects it after: {mux} bus bytes each, {2 * mux} per part, "
        "however many windows the part holds.",
        "",
        "Bus time per controller, every address, control and mux byte counted (the bus bytes "
        "differ between 400 kHz and 100 kHz because the parts do; not counted: the gaps "
        "between transfers). Computed from the code (`pitboard.hw.display_cost`, which "
        "`benchmarks/display_bytes.py` prints with) unless marked *measured* (by "
        f"`benchmarks/display_bytes.py` and `benchmarks/press_to_glass.py` at commit "
        f"{MEASURED_AT}):",
        "",
        *_table(("Change", "Bus bytes (400 / 100 kHz)", "400 kHz", "100 kHz"), rows),
        "",
        "A press, from its contact's first edge to the last byte of its answer on the bus "
        "(*measured*: `benchmarks/press_to_glass.py 3`, three one-lap races on grid6: the "
        "confirming reads, the table's CPU time and the bus; CPU x1 is the development machine, "
        f"x4 stands for a Pi); target: p99 {PRESS_TARGET_MS} ms or less at 100 kHz:",
        "",
        *_table(("Input", "answer, bus bytes p50/p99", "p99 100 kHz (CPU x1 / x4)",
                 "p99 400 kHz"),
                [(name, f"{b50}/{b99}", f"{x1} / {x4} ms", f"{fast} ms")
                 for name, ((b50, b99), (x1, x4, fast)) in PRESS.items()]),
    ]
    return "\n".join(lines)
