"""Plain-text output of the simulation: key presses, narration and screen changes as lines."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO

from ..table import flow
from ..table.keys import HELP, key_label
from ..table.keys import decode as decode_keys
from ..table.terminal import frames_to_text
from ..table.textview import screen_line as screen_line
from .session import Sim

#: what stands in for the arrows, dots and pointers on a terminal without UTF-8
ASCII_FALLBACK = str.maketrans({"←": "<", "→": ">", "↑": "^", "↓": "v", "·": "-", "▶": ">",
                                "…": "...", "▸": ">"})


def can_draw_blocks(out: IO[str]) -> bool:
    """Whether ``out`` can print the half blocks and box lines (else ASCII pictures)."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    try:
        "▀▄█┌─▶·←".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class TextReport:
    """Plain-text output: key presses, narration and the screen lines that changed.

    Example::

        >>> import io
        >>> sim, out = Sim(1, seed=1), io.StringIO()
        >>> report = TextReport(sim, out)
        >>> sim.press("space"); report.keys.append((0, "space")); report.flush()
        True
        >>> print(out.getvalue().strip())
        S1 keys: Space
          [screen] S1 lobby: USA, 2 laps · 4 cars: 1 player, 3 bots · JOINED - GO to leave
        >>> sim.close()
    """

    def __init__(self, sim: Sim, out: IO[str], *, scale: int = 1) -> None:
        self.sim = sim
        self.out = out
        self.scale = scale
        self.ascii = not can_draw_blocks(out)
        #: (station in focus after the key, key) since the last flush
        self.keys: list[tuple[int, str]] = []
        self._said = 0
        self._screens: list[str] = ["" for _ in sim.table.stations]
        self._race_control = ""
        self._note_screens()  # the opening screens are shown as pictures instead

    def write(self, line: str = "") -> None:
        self.out.write((line.translate(ASCII_FALLBACK) if self.ascii else line) + "\n")

    def picture(self, station: int, title: str) -> None:
        self.write(frames_to_text([self.sim.image(station)], titles=[title], scale=self.scale,
                                  ascii=self.ascii))

    def _note_screens(self) -> list[str]:
        changed = []
        for i, view in enumerate(self.sim.table.views):
            if view is None:
                continue
            line = screen_line(view)
            if line != self._screens[i]:
                self._screens[i] = line
                changed.append(line)
        rc = self.sim.table.race_control_view
        line = "race control: " + " · ".join(rc.words()) if rc is not None else ""
        if line != self._race_control:
            self._race_control = line
            changed.append(line)
        return changed

    def flush(self) -> None:
        """Print what happened since the last flush."""
        if any(key != "tab" for _, key in self.keys):  # a lone Tab goes with the next keys
            # one line per station, Tab counted with the station it moved to
            groups: list[tuple[int, list[str]]] = []
            for station, key in self.keys:
                if not groups or groups[-1][0] != station:
                    groups.append((station, []))
                groups[-1][1].append(key_label(key))
            for station, keys in groups:
                self.write(f"{self.sim.table.stations[station].name} keys: {' '.join(keys)}")
            self.keys.clear()
        for line in self.sim.narration[self._said:]:
            self.write(("" if line.startswith("===") else "  ") + line)
        self._said = len(self.sim.narration)
        for line in self._note_screens():
            self.write(f"  [screen] {line}")
        self.out.flush()

    def finish(self) -> None:
        self.flush()
        line = self.sim.results_line()
        if self.sim.table.state == flow.RESULTS:
            self.write()
            self.picture(0, f"{self.sim.table.stations[0].name} · results")
        if line:
            self.write(line)
        self.out.flush()


def run_text(sim: Sim, out: IO[str], stdin: IO[str], *, autoplay: bool, delay: float,
             prompt: bool, scale: int = 1, sleep: Callable[[float], None] = time.sleep) -> None:
    """The plain-text simulation: autoplay, or keys read from ``stdin`` line by line.

    The lobby and results screens are drawn as pictures ``scale`` times smaller than full
    size (128 characters wide: fine in logs, which do not wrap).
    """
    report = TextReport(sim, out, scale=scale)
    report.write(sim.header())
    report.write("plain text mode" + (": the bots type every key" if autoplay else
                                      ": type keys, then Enter (Space = GO, q = quit)"))
    if not autoplay:
        for line in HELP:
            report.write("  " + line)
    report.picture(0, f"{sim.table.stations[0].name} · lobby")
    if autoplay:
        while True:
            if sim.pilot.next_key(sim.table, sim.keyboard) in ("space", None):
                report.flush()  # the screen as it was when GO went in
            mark = sim.progress()
            key = sim.autoplay_step()
            if key is None:
                break
            report.keys.append((sim.keyboard.focus, key))
            if sim.progress() != mark:
                report.flush()
            if delay:
                sleep(delay)
    else:
        while True:
            if prompt:
                out.write("keys> ")
                out.flush()
            line = stdin.readline()
            if not line:
                break
            keys, _ = decode_keys(line.rstrip("\r\n"))
            go_on = True
            for key in keys:
                if not sim.press(key):
                    go_on = False
                    break
                report.keys.append((sim.keyboard.focus, key))
            report.flush()
            if not go_on:
                break
    report.finish()
