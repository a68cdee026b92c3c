"""wiring_docs/i2c-and-cables.md's bus-time figures stay the benchmarks' (pitboard.wiring.bus_page).

The figures that are a function of the code alone are computed when the page is generated, so
the drift test in test_wiring_docs.py catches them; the reveals of real races are measured by
``benchmarks/display_bytes.py`` and stated in the generator: here the same races are played
through the same model and must give the stated figures to the printed rounding.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pitboard.hw.display_cost import busiest, by_design, median_and_worst, rewrite_cost
from pitboard.hw.oled import FRAME_BYTES, MUX_WRITE
from pitboard.hw.writer import part_bytes
from pitboard.wiring.bus_page import (
    GRID6_LAYOUT,
    REVEAL_COUNT,
    REVEAL_MS,
    REVEAL_RACES,
    bus_time_section,
)

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "wiring_docs" / "i2c-and-cables.md"


def _display_bytes() -> ModuleType:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        return importlib.import_module("display_bytes")
    finally:
        sys.path.remove(str(REPO / "benchmarks"))


def test_grid6_layout_is_the_shipped_profile() -> None:
    assert list(GRID6_LAYOUT) == _display_bytes()._controllers()


@pytest.mark.parametrize("hz", sorted(REVEAL_MS))
def test_the_stated_reveal_figures_are_what_the_benchmark_model_gives(hz: int) -> None:
    reveals = _display_bytes().real_reveals(part_bytes(hz), races=REVEAL_RACES)
    assert len(reveals) == REVEAL_COUNT
    median, worst = median_and_worst([r.costs for r in reveals], GRID6_LAYOUT, hz)
    stated_median, stated_worst = REVEAL_MS[hz]
    # the page states them to 0.1 ms: the model may not drift by more than that rounding
    fix = ("the reveals changed: run benchmarks/display_bytes.py, put its figures and the "
           "commit in pitboard/wiring/bus_page.py (REVEAL_MS, MEASURED_AT), run "
           f"`pitboard wiring-docs`; at {hz} Hz now median {1000 * median:.1f} ms, worst "
           f"{1000 * worst:.1f} ms")
    assert abs(1000 * median - stated_median) <= 0.05 + 1e-9, fix
    assert abs(1000 * worst - stated_worst) <= 0.05 + 1e-9, fix
    # and no real reveal takes longer than the page's bound by design
    assert worst <= busiest(by_design(part_bytes(hz)), GRID6_LAYOUT, hz)[0]


def test_the_page_says_what_the_transport_does() -> None:
    text = PAGE.read_text()
    assert bus_time_section() in text  # (and test_wiring_docs: the page is regenerated)
    assert "a transfer of its own" not in text
    section = bus_time_section()
    assert f"at most {part_bytes(100_000)} RAM bytes at 100 kHz" in section
    assert f"{2 * MUX_WRITE.bus_bytes} per part" in section
    whole = rewrite_cost(part_bytes(100_000))
    # a whole screen in parts: its window command and 1024 RAM bytes, an address and control
    # byte per message, one mux select and deselect per part (not per message)
    parts = -(-FRAME_BYTES // part_bytes(100_000))
    assert whole.bus_bytes == FRAME_BYTES + 6 + 2 * (1 + parts) + 2 * MUX_WRITE.bus_bytes * parts
    assert f"{1000 * whole.seconds(100_000):.1f} ms" in section
