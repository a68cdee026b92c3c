"""``pitboard sim``: the whole table on a laptop, every station's OLED drawn in the terminal.

Each station's real 128×64 frames (the table's :func:`~pitboard.table.screens.render` output,
kept by an :class:`~pitboard.hw.display.EmulatedDisplay`) are drawn with half-block characters;
the keyboard is every station's gear lever and card tray; bots fill the seats nobody joins.
The table runs exactly as on the Pi: the device's :class:`~pitboard.app.App` on the ``sim``
hardware profile, keys posted to its queue as the same station events the GPIO and MCP23017
backends post (:mod:`pitboard.table.keys`), every decision journalled before it is shown. The
journal lives in a temporary folder, or with ``--journal DIR`` in DIR, where a race left
unfinished resumes on the next start.

Keys (also on screen)::

    Tab or →            next station in focus (Shift-Tab or ←: previous)
    1 2 3 4             put the focused station's gear lever in that gear
    ↑ ↓                 lever one gear up / down
    a s d f g h j       tray slot buttons 1..7, left to right
    Space or Enter      GO
    q, Ctrl-C           quit (the terminal is restored)

In the lobby GO joins a station, slot ``a`` changes the track, ``s`` the laps, ``d`` the cars,
``f`` (OPTS) turns the station's lobby to the Garage, Legends and weather pages (``a s d`` step
their options) and ``j`` starts the race. ``--garage draft`` starts with a Garage draft on the
stations (``--upgrades``, ``--expansions``).

Modes:

* **Terminal** (stdin and stdout are a TTY): full-screen, redrawn in place only when a frame
  changed. When every station fits pixel for pixel (130 columns, 35 rows each) the real
  frames are drawn; otherwise, as in an 80-column terminal, each screen is shown as words
  (:mod:`pitboard.table.textview`: gear, hand, speed, corners, Heat, the move) with its tray
  keys under it, since shrunk pictures are not legible. ``--scale 2`` draws them half size.
* ``--kiosk``: the store kiosk by hand on a terminal, with the sim profile's kiosk settings:
  the attract loop, GO to join, the countdown, idle seats handed to bots, results.
* **Plain text** (no TTY, or ``--text``): the race narrated round by round, each station's
  screen changes as one line, the lobby and results screens as pictures, then the final order.
  Keys are read from stdin, one line at a time (``printf ' \\tj' | pitboard sim --text``).
* ``--autoplay``: every station is played by a bot that types on the keyboard like a person
  would; the race runs unattended and the program exits with the results.

Example::

    pitboard sim                          # two stations, bots fill the other seats
    pitboard sim --autoplay --stations 3  # watch a race
    pitboard sim --autoplay --text --save-gif s1.gif --station 1 --image-scale 4
    pitboard sim --autoplay --text --save-png rc/ --station rc  # the race-control display

The package, one concern per file (imports flow down this list)::

    cli.py       the command line: options, modes, saving frames
    terminal.py  the full-screen terminal: layout, key strip, key reader
    report.py    the plain-text report: one line per screen change, narration
    session.py   the simulated table: emulated stations, one keyboard, the autopilot
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cli import EXIT_BAD_ARGS, build_parser, main
    from .report import TextReport, run_text, screen_line
    from .session import FrameTape, Sim
    from .terminal import (
        ALT_SCREEN_OFF,
        ALT_SCREEN_ON,
        TEXT,
        TEXT_ROWS,
        TerminalScreen,
        pick_layout,
        run_terminal,
        terminal_mode,
        text_box,
    )

__all__ = [
    "ALT_SCREEN_OFF",
    "ALT_SCREEN_ON",
    "EXIT_BAD_ARGS",
    "TEXT",
    "TEXT_ROWS",
    "FrameTape",
    "Sim",
    "TerminalScreen",
    "TextReport",
    "build_parser",
    "main",
    "pick_layout",
    "run_terminal",
    "run_text",
    "screen_line",
    "terminal_mode",
    "text_box",
]

#: where each name lives; a name's file is imported the first time it is used, so ``pitboard
#: sim --help`` loads the command line alone, not the table, the screens and the engine
_HOMES = {
    "EXIT_BAD_ARGS": "cli", "build_parser": "cli", "main": "cli",
    "TextReport": "report", "run_text": "report", "screen_line": "report",
    "FrameTape": "session", "Sim": "session",
    "ALT_SCREEN_OFF": "terminal", "ALT_SCREEN_ON": "terminal", "TerminalScreen": "terminal",
    "pick_layout": "terminal", "run_terminal": "terminal", "terminal_mode": "terminal",
    "TEXT": "terminal", "TEXT_ROWS": "terminal", "text_box": "terminal",
}


def __getattr__(name: str) -> Any:
    from pitboard.lazy import export

    return export(__name__, _HOMES, name)
