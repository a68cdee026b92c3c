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

In the lobby GO joins a station, slot ``a`` changes the track, ``s`` the laps, ``d`` the cars
and ``j`` starts the race.

Modes:

* **Terminal** (stdin and stdout are a TTY): full-screen, redrawn in place only when a frame
  changed. At 80 columns one station is shown at half size (64×16 characters) with its tray
  keys under it; wider or taller terminals show stations side by side, full size when they fit.
* **Plain text** (no TTY, or ``--text``): the race narrated round by round, each station's
  screen changes as one line, the lobby and results screens as pictures, then the final order.
  Keys are read from stdin, one line at a time (``printf ' \\tj' | pitboard sim --text``).
* ``--autoplay``: every station is played by a bot that types on the keyboard like a person
  would; the race runs unattended and the program exits with the results.

Example::

    pitboard sim                          # two stations, bots fill the other seats
    pitboard sim --autoplay --stations 3  # watch a race
    pitboard sim --autoplay --text --save-gif s1.gif --station 1 --image-scale 4

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
        TerminalScreen,
        pick_layout,
        run_terminal,
        terminal_mode,
    )

__all__ = [
    "ALT_SCREEN_OFF",
    "ALT_SCREEN_ON",
    "EXIT_BAD_ARGS",
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
]

#: where each name lives; a name's file is imported the first time it is used, so ``pitboard
#: sim --help`` loads the command line alone, not the table, the screens and the engine
_HOMES = {
    "EXIT_BAD_ARGS": "cli", "build_parser": "cli", "main": "cli",
    "TextReport": "report", "run_text": "report", "screen_line": "report",
    "FrameTape": "session", "Sim": "session",
    "ALT_SCREEN_OFF": "terminal", "ALT_SCREEN_ON": "terminal", "TerminalScreen": "terminal",
    "pick_layout": "terminal", "run_terminal": "terminal", "terminal_mode": "terminal",
}


def __getattr__(name: str) -> Any:
    from pitboard.lazy import export

    return export(__name__, _HOMES, name)
