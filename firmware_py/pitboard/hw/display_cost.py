"""What a display change costs on an I2C bus, sent as the display writer sends it: the figures
``benchmarks/display_bytes.py`` prints and ``wiring_docs/i2c-and-cables.md`` states come from
here, so the two cannot disagree.

A change is priced by sending it through a real :class:`~pitboard.hw.display.StationDisplay`
over a :class:`~pitboard.hw.oled.RecordingSerial` in the writer's parts
(:meth:`~pitboard.hw.display.StationDisplay.show_part`), each part one kernel transfer with the
TCA9548A's select and deselect around it (idle disconnect, the grid6 default). What a window
costs depends only on which RAM bytes change, so "every byte of rows a..b" is the same cost
whatever the picture.

Example::

    >>> whole = rewrite_cost(None)  # every byte of a screen in one transfer
    >>> whole.bus_bytes  # 1024 RAM + 6 command bytes, 2 messages' address and control, 2 mux
    1038
    >>> rewrite_cost(48).bus_bytes - whole.bus_bytes  # 21 more parts: a message and 2 mux each
    126
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from pitboard.hw.display import Driver, StationDisplay
from pitboard.hw.oled import (
    FRAME_BYTES,
    PANEL_HEIGHT,
    PANEL_WIDTH,
    BusCost,
    BusWrite,
    RecordingSerial,
    i2c_cost,
    through_mux,
)

__all__ = ["ANSWER_ROWS", "NEWS_ROWS", "busiest", "by_design", "median_and_worst", "priced",
           "rewrite_cost"]

#: the pixel rows a waiting station with a plan locked in is sent at the GO reveal (pages 3-4:
#: the locked screen's header and tray stay; tests/test_reveal_bytes.py holds the screens to it)
NEWS_ROWS = (24, 40)
#: the rows of the last GO's answer on its station (the message row, page 4)
ANSWER_ROWS = (32, 40)


def priced(writes: Sequence[BusWrite]) -> BusCost:
    """``writes`` on a TCA9548A channel with idle disconnect: each kernel transfer (a part)
    wrapped in a select and a deselect."""
    return through_mux(i2c_cost(writes), idle_disconnect=True)


def rewrite_cost(part: int | None, rows: tuple[int, int] = (0, PANEL_HEIGHT), *,
                 driver: Driver = "ssd1306") -> BusCost:
    """One screen changing in every RAM byte of pixel ``rows`` (all 1024 by default), sent in
    parts of ``part`` RAM bytes (None: the whole change in one transfer)."""
    old = Image.new("1", (PANEL_WIDTH, PANEL_HEIGHT))
    new = old.copy()
    new.paste(1, (0, rows[0], PANEL_WIDTH, rows[1]))
    bus = RecordingSerial()
    display = StationDisplay(serial=bus, driver=driver, station="cost", reinit_s=None)
    display.show(old)
    bus.writes.clear()
    while not display.show_part(new, part or FRAME_BYTES):
        pass
    return priced(bus.writes)


def by_design(part: int | None) -> list[BusCost]:
    """The bound of a grid6 reveal with today's screens, per station S1..S6: S1's turn screen
    changing every byte; S2 the last GO's answer and its waiting screen's news (pages 3-4);
    every other station the news only. S1 and S2 share controller A, so A is the busiest."""
    turn, news = rewrite_cost(part), rewrite_cost(part, NEWS_ROWS)
    answer = rewrite_cost(part, ANSWER_ROWS)
    last = BusCost(news.transactions + answer.transactions,
                   news.payload_bytes + answer.payload_bytes,
                   news.bus_bytes + answer.bus_bytes,
                   news.joined + answer.joined)
    return [turn, last, news, news, news, news]


def busiest(costs: Sequence[BusCost], layout: Sequence[str], hz: int
            ) -> tuple[float, int, str]:
    """(seconds, bus bytes, controller) of the controller that takes longest when station i
    (costing ``costs[i]``) is on controller ``layout[i]``: one controller sends its stations
    one after another, the controllers work in parallel.

    Example::

        >>> one = rewrite_cost(None)
        >>> busiest([one, one, one], ["A", "A", "B"], 400_000)[2]
        'A'
    """
    groups: dict[str, list[BusCost]] = {}
    for controller, cost in zip(layout, costs, strict=True):
        groups.setdefault(controller, []).append(cost)
    return max((sum(c.seconds(hz) for c in g), sum(c.bus_bytes for c in g), name)
               for name, g in groups.items())


def median_and_worst(reveals: Sequence[Sequence[BusCost]], layout: Sequence[str], hz: int
                     ) -> tuple[float, float]:
    """(median, worst) seconds of the busiest controller over ``reveals`` (each a cost per
    station), as ``benchmarks/display_bytes.py`` prints them: the median is the middle of the
    sorted times (the upper middle of an even count)."""
    timed = sorted(busiest(costs, layout, hz)[0] for costs in reveals)
    return timed[len(timed) // 2], timed[-1]
