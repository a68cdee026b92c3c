"""``pitboard sim``: the whole table on a laptop, every station's OLED drawn in the terminal.

Each station's real 128×64 frames (the table's :func:`~pitboard.table.screens.render` output,
kept by an :class:`~pitboard.hw.display.EmulatedDisplay`) are drawn with half-block characters;
the keyboard is every station's gear lever and card tray; bots fill the seats nobody joins.
The table runs exactly as on the Pi: keys become the same station events the GPIO and MCP23017
backends post (:mod:`pitboard.table.keys`).

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
  changed. When every station fits pixel for pixel (130 columns, 35 rows each) the real
  frames are drawn; otherwise, as in an 80-column terminal, each screen is shown as words
  (:mod:`pitboard.table.textview`: gear, hand, speed, corners, Heat, the move) with its tray
  keys under it, since shrunk pictures are not legible. ``--scale 2`` draws them half size.
* **Plain text** (no TTY, or ``--text``): the race narrated round by round, each station's
  screen changes as one line, the lobby and results screens as pictures, then the final order.
  Keys are read from stdin, one line at a time (``printf ' \\tj' | pitboard sim --text``).
* ``--autoplay``: every station is played by a bot that types on the keyboard like a person
  would; the race runs unattended and the program exits with the results.

Example::

    pitboard sim                          # two stations, bots fill the other seats
    pitboard sim --autoplay --stations 3  # watch a race
    pitboard sim --autoplay --text --save-gif s1.gif --station 1 --image-scale 4
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import os
import random
import select
import signal
import sys
import termios
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, NoReturn

from PIL import Image

from .engine.setup import MAX_CARS
from .hw.display import EmulatedDisplay
from .hwconfig import ConfigError, load_profile
from .narrate import narrate
from .table import flow
from .table.keys import (
    HELP,
    QUIT_KEYS,
    SLOT_KEYS,
    AutoPilot,
    AutoplayStuck,
    Keyboard,
    Quit,
    key_label,
)
from .table.keys import decode as decode_keys
from .table.screens import COLUMN_PITCH, COLUMNS, column_x, render
from .table.table import KioskOptions, Table
from .table.terminal import (
    CLEAR_SCREEN,
    HIDE_CURSOR,
    SHOW_CURSOR,
    frames_to_text,
    redraw,
)
from .table.textview import screen_line, screen_text
from .table.view import StationView
from .trackfile import load_track, track_names

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = [
    "EXIT_BAD_ARGS",
    "FrameTape",
    "Sim",
    "TerminalScreen",
    "build_parser",
    "main",
    "pick_layout",
    "screen_line",
    "terminal_mode",
]

EXIT_BAD_ARGS = 2
KEYS_HELP = """keys:
  Tab or →            next station in focus (Shift-Tab or ←: previous)
  1 2 3 4, ↑ ↓        the focused station's gear lever
  a s d f g h j       tray slot buttons 1..7, left to right
  Space or Enter      GO
  q or Ctrl-C         quit
  lobby: GO joins, a = track, s = laps, d = cars, j = RACE

without a terminal (or with --text) keys are read from stdin a line at a time:
  printf ' \\tj\\n' | pitboard sim --stations 1"""
PROG = "pitboard sim"
#: autoplay pacing on a terminal: seconds between two key presses (``--delay``)
TERMINAL_DELAY = 0.1
#: how long the results stay up after an autoplayed race on a terminal (any key ends it)
RESULTS_HOLD = 3.0
#: idle poll of the keyboard: picks up terminal resizes this fast
POLL = 0.25
#: with --kiosk: how often time moves the table on (the attract race steps every 0.5 s)
KIOSK_POLL = 0.1
#: key presses without progress before autoplay gives up (one decision takes ~15)
STALL_LIMIT = 200
ALT_SCREEN_ON, ALT_SCREEN_OFF = "\x1b[?1049h", "\x1b[?1049l"
_ASCII_FALLBACK = str.maketrans({"←": "<", "→": ">", "↑": "^", "↓": "v", "·": "-", "▶": ">",
                                 "…": "...", "▸": ">"})


# ---------------------------------------------------------------------------- the simulated table
class FrameTape:
    """A station screen that keeps every frame it showed (``--save-png``, ``--save-gif``).

    Wraps the station's :class:`EmulatedDisplay`; only frames that changed the picture are kept.

    Example::

        >>> from PIL import Image
        >>> tape = FrameTape(EmulatedDisplay(), clock=lambda: 0.0)
        >>> tape.show(Image.new("1", (128, 64))); tape.show(Image.new("1", (128, 64)))
        >>> len(tape.frames)
        1
    """

    def __init__(self, display: EmulatedDisplay, *, clock: Callable[[], float]) -> None:
        self.display = display
        self.clock = clock
        self.frames: list[Image.Image] = []
        self.times: list[float] = []

    def show(self, image: Image.Image) -> None:
        before = self.display.frames
        self.display.show(image)
        if self.display.frames != before:
            self.frames.append(image.copy())
            self.times.append(self.clock())

    def _scaled(self, scale: int) -> list[Image.Image]:
        if scale == 1:
            return list(self.frames)
        return [f.resize((f.width * scale, f.height * scale), Image.Resampling.NEAREST)
                for f in self.frames]

    def save_pngs(self, directory: Path, *, prefix: str, scale: int = 1) -> list[Path]:
        """One PNG per frame, ``<prefix>-0001.png`` upwards; returns the paths."""
        directory.mkdir(parents=True, exist_ok=True)
        digits = max(4, len(str(len(self.frames))))
        paths = []
        for i, image in enumerate(self._scaled(scale), start=1):
            path = directory / f"{prefix}-{i:0{digits}d}.png"
            image.save(path, format="PNG")
            paths.append(path)
        return paths

    def save_gif(self, path: Path, *, scale: int = 1) -> None:
        """All frames as one looping GIF, each shown as long as it was on screen (0.1-4 s)."""
        if not self.frames:
            raise ValueError("no frames to save")
        frames = self._scaled(scale)
        gaps = zip(self.times, self.times[1:], strict=False)
        ms = [min(max(b - a, 0.1), 4.0) * 1000 for a, b in gaps]
        ms.append(4000)  # the last frame (results) stays up before the loop restarts
        frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:],
                       duration=[round(d) for d in ms], loop=0)


class Sim:
    """The table with emulated stations, one keyboard for all of them, and the autopilot.

    Example::

        >>> sim = Sim(stations=2, seed=1)
        >>> sim.press("space"), sim.press("tab"), sim.press("space"), sim.press("j")
        (True, True, True, True)
        >>> sim.table.state, [st.car for st in sim.table.stations]
        ('planning', [0, 1])
        >>> sim.press("3"), sim.table.stations[1].lever
        (True, 3)
    """

    def __init__(
        self,
        stations: int = 2,
        *,
        track: str = "usa",
        laps: int | None = None,
        cars: int | None = None,
        seed: int | None = None,
        record: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        kiosk: KioskOptions | None = None,
    ) -> None:
        self.seed = random.randrange(1 << 31) if seed is None else seed
        self.displays = [EmulatedDisplay(station=f"S{i + 1}") for i in range(stations)]
        self.tape = None if record is None else FrameTape(self.displays[record], clock=clock)
        screens: list[EmulatedDisplay | FrameTape] = list(self.displays)
        if self.tape is not None and record is not None:
            screens[record] = self.tape
        # two players and two bots unless told otherwise: a race worth watching
        self.table = Table(stations=stations, screens=screens, render=render, clock=clock,
                           seed=self.seed, track=track, laps=laps, kiosk=kiosk,
                           cars=cars if cars is not None else min(max(4, stations), MAX_CARS))
        self.keyboard = Keyboard(stations)
        self.pilot = AutoPilot(seed=self.seed)
        self.narration: list[str] = []
        self._race: object = None
        self._events = 0
        self._mark: tuple[Any, ...] = ()
        self._stalled = 0
        for event in self.keyboard.start_events():
            self.table.handle(event)

    def press(self, key: str) -> bool:
        """Press one key (a :mod:`~pitboard.table.keys` name); False if it means quit."""
        result = self.keyboard.press(key)
        if isinstance(result, Quit):
            return False
        for event in result:
            self.table.handle(event)
        self._narrate()
        return True

    def autoplay_step(self) -> str | None:
        """Let the autopilot press its next key; returns it, or None when the race is over."""
        key = self.pilot.next_key(self.table, self.keyboard)
        if key is None:
            return None
        mark = self.progress()
        if mark == self._mark:
            self._stalled += 1
            if self._stalled > STALL_LIMIT:
                raise AutoplayStuck(f"{STALL_LIMIT} keys without progress in {mark[0]}")
        else:
            self._mark, self._stalled = mark, 0
        self.press(key)
        return key

    def progress(self) -> tuple[Any, ...]:
        """Changes whenever a decision is taken, someone joins, or the table state moves."""
        race = self.table.race
        return (self.table.state, id(race), len(race.log) if race is not None else 0,
                sum(st.joined for st in self.table.stations))

    def _narrate(self) -> None:
        race = self.table.race
        if race is None:
            return
        if race is not self._race:
            self._race, self._events = race, 0
        # the final order has its own line (results_line), with the rounds
        events = [e for e in race.events[self._events:] if e["type"] != "race_over"]
        self._events = len(race.events)
        for line in narrate(events, race.setup.name):
            self.narration.extend(part for part in line.split("\n") if part)

    def image(self, station: int) -> Image.Image:
        """What the station's OLED shows now."""
        image = self.displays[station].image
        assert image is not None  # the table draws every screen when it is built
        return image

    def header(self, extra: str = "") -> str:
        """Track, laps, cars and where the race is, in one line (the seed last)."""
        table = self.table
        race = table.race
        if race is not None and table.state != flow.LOBBY:
            name, laps, cars = load_track(race.setup.track).name, race.laps, race.setup.cars
        else:
            key, laps, cars = table.lobby_summary()
            name = load_track(key).name
        where = {flow.LOBBY: "lobby", flow.RESULTS: "results"}.get(
            table.state, f"round {race.round}" if race is not None else table.state)
        return (f"PITBOARD · {name} {laps} lap{'s' if laps != 1 else ''} · {cars} cars · "
                f"{where}{extra} · seed {self.seed}")

    def results_line(self) -> str:
        """The final order (or the standings of an unfinished race); "" before any race."""
        race = self.table.race
        if race is None:
            return ""
        order = ", ".join(f"{i + 1}. {race.cars[c].name}" for i, c in enumerate(
            race.hall_of_fame if race.over else race.standings()))
        if race.over:
            return f"Race over after {race.round} rounds. Final order: {order}"
        return f"Race stopped in round {race.round}. Standings: {order}"


# ---------------------------------------------------------------------------- the terminal
#: ``scale`` for a station drawn as words (:mod:`pitboard.table.textview`), not pixels
TEXT = 0
#: lines of words in a station's box, and its width (that of a half-size picture)
TEXT_ROWS, TEXT_WIDTH = 6, 64


def _block_size(scale: int, ascii: bool) -> tuple[int, int]:
    """(columns, rows) one station takes: the boxed screen plus its key strip."""
    if scale == TEXT:
        return TEXT_WIDTH + 2, TEXT_ROWS + 2 + 1
    return 128 // scale + 2, (64 // scale if ascii else 32 // scale) + 2 + 1


#: header line, caption (the focused screen as text), narration line, help line
_CHROME = 4
TERMINAL_HELP = "Tab/←→ station · 1-4 ↑↓ lever · a s d f g h j tray · Space GO · q quit"


def pick_layout(stations: int, focus: int, cols: int, rows: int, *, scale: int | None = None,
                ascii: bool = False) -> tuple[int, int, list[int]]:
    """(scale, screens per row, stations shown) for a ``cols``×``rows`` terminal.

    Pixel for pixel (scale 1) when every station fits; else each screen as words
    (:data:`TEXT`: shrunk pictures are not legible); if not even that fits, as many as fit,
    the page with the station in focus. ``scale`` 2 asks for half-size pictures.

    Example::

        >>> pick_layout(2, 0, 80, 24)
        (0, 1, [0, 1])
        >>> pick_layout(2, 1, 140, 45)
        (0, 2, [0, 1])
        >>> pick_layout(2, 1, 140, 45, scale=2)
        (2, 2, [0, 1])
        >>> pick_layout(3, 0, 400, 60)
        (1, 3, [0, 1, 2])
    """
    usable = rows - 1 - _CHROME  # the last row stays empty: writing it would scroll
    best: tuple[int, int, int] | None = None
    for s in [scale] if scale is not None else [1, TEXT]:
        width, height = _block_size(s, ascii)
        per_row = min(stations, (cols + 1) // (width + 1))
        capacity = per_row * (usable // height)
        if best is None or capacity > best[2]:  # a tie keeps the bigger picture
            best = (s, per_row, capacity)
        if capacity >= stations:
            break
    assert best is not None
    s, per_row, capacity = best
    if capacity == 0:  # not even one fits: one station, clipped (the header says so)
        s, per_row, capacity = TEXT if scale is None else scale, 1, 1
    first = focus // capacity * capacity
    return s, per_row, list(range(first, min(stations, first + capacity)))


def tray_labels(view: StationView | None) -> list[str]:
    """What sits above each tray button: a card (``*`` when selected) or a soft key.

    Example::

        >>> from pitboard.table.view import CardView
        >>> tray_labels(StationView("planning", 0, cards=(CardView("4", "4", selected=True),),
        ...                         soft_keys=("", "", "", "", "", "", "PG>")))
        ['4*', '', '', '', '', '', 'PG>']
    """
    labels = [""] * COLUMNS
    if view is None:
        return labels
    for i, card in enumerate(view.cards[:COLUMNS]):
        if card.code:
            labels[i] = card.label + ("*" if card.selected else "")
    for i, key in enumerate(view.soft_keys[:COLUMNS]):
        if key:
            labels[i] = key
    return labels


def key_strip(scale: int, width: int, labels: Sequence[str], *, keys: bool) -> str:
    """A line under a boxed screen ``width`` wide: per tray column its key and label.

    At half size the cards are hard to read, so the strip spells them out: ``a:4*`` is the
    selected 4 under key ``a``. Without ``keys`` (stations not in focus) only the labels.

    Example::

        >>> key_strip(2, 66, ["4*", "", "", "", "", "", "RACE"], keys=True).split()
        ['a:4*', '[s]', '[d]', '[f]', '[g]', '[h]', 'j:RACE']
    """
    line = [" "] * width
    cell = COLUMN_PITCH // scale
    for i in range(COLUMNS):
        label = labels[i] if i < len(labels) else ""
        key = SLOT_KEYS[i]
        text = (f"{key}:{label}" if label else f"[{key}]") if keys else label
        start = 1 + column_x(i) // scale  # +1: the box's left edge
        for dx, ch in enumerate(text[:cell - 1].center(cell - 1)):
            if start + dx < width:
                line[start + dx] = ch
    return "".join(line).rstrip().ljust(width)


def text_box(view: StationView | None, title: str, *, ascii: bool = False) -> list[str]:
    """A station's screen as words in a box as wide as a half-size picture, ``title`` on top
    (the legible default in an 80-column terminal).

    Example::

        >>> from pitboard.table.view import StationView
        >>> box = text_box(StationView("results", 0, order=("1 Ann", "2 Bot 1")), "S1")
        >>> box[0][:6], [line[2:].rstrip(" │") for line in box[1:3]], len(box), len(box[0])
        ('┌ S1 ─', ['S1 results', '1 Ann, 2 Bot 1'], 8, 66)
    """
    top_left, top_right, bottom_left, bottom_right, across, side = tuple(
        "++++-|" if ascii else "┌┐└┘─│")
    inner = TEXT_WIDTH - 2
    words = screen_text(view, width=inner, rows=TEXT_ROWS) if view is not None else []
    head = f"{top_left} {title} "
    lines = [head + across * (TEXT_WIDTH + 1 - len(head)) + top_right]
    lines += [f"{side} {line.ljust(inner)} {side}" for line in
              words + [""] * (TEXT_ROWS - len(words))]
    lines.append(bottom_left + across * TEXT_WIDTH + bottom_right)
    return lines


class TerminalScreen:
    """Draws the stations, header, narration and key help; writes only when something changed.

    Example::

        screen = TerminalScreen(sim, out=sys.stdout, size=lambda: (80, 24))
        screen.draw()   # writes a full frame
        screen.draw()   # nothing changed: writes nothing
    """

    def __init__(self, sim: Sim, out: IO[str], *, size: Callable[[], tuple[int, int]],
                 scale: int | None = None, ascii: bool = False, autoplay: bool = False) -> None:
        self.sim = sim
        self.out = out
        self.size = size
        self.scale = scale
        self.ascii = ascii
        self.autoplay = autoplay
        self.writes = 0
        self._last = ""
        self._blocks: dict[int, tuple[tuple[Any, ...], list[str]]] = {}

    def station_block(self, station: int, scale: int, focused: bool) -> list[str]:
        """One station: its screen in a box titled with name and lever, tray keys below."""
        st = self.sim.table.stations[station]
        lever = self.sim.keyboard.levers[station]
        title = f"{'▶ ' if focused else ''}{st.name} · lever {lever}"
        if self.ascii:
            title = title.translate(_ASCII_FALLBACK)
        key = (self.sim.displays[station].frames, title, scale, self.ascii, focused)
        cached = self._blocks.get(station)
        if cached is None or cached[0] != key:
            if scale == TEXT:
                lines = text_box(self.sim.table.views[station], title, ascii=self.ascii)
            else:
                lines = frames_to_text([self.sim.image(station)], titles=[title], scale=scale,
                                       ascii=self.ascii).split("\n")
            cached = (key, lines)
            self._blocks[station] = cached
        lines = cached[1]
        strip = key_strip(2 if scale == TEXT else scale, len(lines[0]),
                          tray_labels(self.sim.table.views[station]), keys=focused)
        return [*lines, strip]

    def compose(self) -> str:
        """The whole terminal picture for the current size."""
        cols, rows = self.size()
        n = len(self.sim.table.stations)
        focus = self.sim.keyboard.focus
        scale, per_row, shown = pick_layout(n, focus, cols, rows, scale=self.scale,
                                            ascii=self.ascii)
        shown_range = f"S{shown[0] + 1}" + (f"-S{shown[-1] + 1}" if len(shown) > 1 else "")
        header = self.sim.header(f" · {shown_range} of {n}" if len(shown) < n else "")
        width, height = _block_size(scale, self.ascii)
        if cols < width or rows - 1 < height + _CHROME:
            header = f"enlarge the terminal to {width}x{height + _CHROME + 1} · {header}"
        grid: list[str] = []
        for start in range(0, len(shown), per_row):
            blocks = [self.station_block(i, scale, i == focus) for i in
                      shown[start:start + per_row]]
            for y in range(len(blocks[0])):
                grid.append(" ".join(b[y] for b in blocks).rstrip())
        help_ = "AUTOPLAY: the bots type every key · q quit" if self.autoplay else TERMINAL_HELP
        view = self.sim.table.views[focus]
        caption = screen_line(view) if view is not None else ""
        room = max(1, rows - 1 - len(grid) - (_CHROME - 1))
        lines = [header, *grid, caption, *self._ticker(min(room, 10)), help_]
        lines = [line[:cols] for line in lines[: max(rows - 1, 1)]]
        text = "\n".join(lines)
        return text.translate(_ASCII_FALLBACK) if self.ascii else text

    def _ticker(self, count: int) -> list[str]:
        table = self.sim.table
        if table.state == flow.RESULTS:
            return [self.sim.results_line()]
        if table.state == flow.ATTRACT:
            return ["KIOSK: bots race until a visitor presses GO (Space) to join"]
        if table.kiosk is not None and table.state == flow.LOBBY:
            return ["KIOSK: Space = join · the race starts when the countdown ends"]
        if not self.sim.narration or table.state == flow.LOBBY:
            return ["Space = join · Tab = next station · j = RACE (bots take the empty seats)"]
        return self.sim.narration[-count:]

    def draw(self) -> bool:
        """Repaint if the picture changed; True if something was written."""
        text = self.compose()
        if text == self._last:
            return False
        self._last = text
        self.out.write(redraw(text))
        self.out.flush()
        self.writes += 1
        return True


@contextlib.contextmanager
def terminal_mode(fd: int) -> Iterator[None]:
    """Keys one by one, unechoed, Ctrl-C/Ctrl-Z/Ctrl-S as plain keys; restored on exit.

    Like ``tty.setraw`` but output processing stays on, so ``\\n`` still starts a new line.
    Set with TCSANOW so keys typed ahead are kept.
    """
    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    mode[0] &= ~(termios.IXON | termios.ICRNL | termios.INLCR | termios.IGNCR | termios.ISTRIP)
    mode[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
    mode[6][termios.VMIN] = 1
    mode[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, mode)
    try:
        yield
    finally:
        with contextlib.suppress(termios.error):  # EIO: the terminal is gone, nothing to restore
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """``kill`` leaves through the same ``finally`` blocks as Ctrl-C (terminal restored)."""
    def handler(signum: int, frame: FrameType | None) -> NoReturn:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class KeyReader:
    """Key names from a terminal file descriptor, waiting at most ``timeout`` seconds.

    Escape sequences split across two reads are put back together.

    Example::

        >>> r, w = os.pipe()
        >>> _ = os.write(w, b"a\x1b[")
        >>> reader = KeyReader(r)
        >>> reader.read(0)
        ['a']
        >>> _ = os.write(w, b"A")
        >>> reader.read(0)
        ['up']
        >>> os.close(r); os.close(w)
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        self._pending = ""

    def read(self, timeout: float) -> list[str]:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            self._pending = ""  # a lone Esc (or a cut sequence) that never completed
            return []
        try:
            data = os.read(self.fd, 1024)
        except OSError:  # EIO: the terminal window was closed
            data = b""
        if not data:
            return ["ctrl-d"]  # the terminal went away: quit like Ctrl-D
        keys, self._pending = decode_keys(self._pending + self._decoder.decode(data))
        return keys


def run_terminal(sim: Sim, fd: int, out: IO[str], *, size: Callable[[], tuple[int, int]],
                 scale: int | None, autoplay: bool, delay: float, hold: float) -> None:
    """The full-screen simulation on terminal ``fd`` until q (or the end of an autoplay)."""
    reader = KeyReader(fd)
    screen = TerminalScreen(sim, out, size=size, scale=scale, ascii=not _can_draw_blocks(out),
                            autoplay=autoplay)
    with terminal_mode(fd), _sigterm_as_interrupt():
        out.write(ALT_SCREEN_ON + HIDE_CURSOR + CLEAR_SCREEN)
        try:
            if autoplay:
                _autoplay_terminal(sim, screen, reader, delay=delay, hold=hold)
            else:
                _play_terminal(sim, screen, reader)
        except KeyboardInterrupt:
            pass  # SIGTERM, or Ctrl-C before the terminal mode took effect: quit as with q
        finally:
            out.write(SHOW_CURSOR + ALT_SCREEN_OFF)
            out.flush()


def _play_terminal(sim: Sim, screen: TerminalScreen, reader: KeyReader) -> None:
    kiosk = sim.table.kiosk is not None
    while True:
        if kiosk:  # the attract loop, countdowns and idle seats run on the clock
            sim.table.tick()
            sim._narrate()
        screen.draw()  # also after a timeout: the terminal may have been resized
        for key in reader.read(KIOSK_POLL if kiosk else POLL):
            if not sim.press(key):
                return
            screen.draw()  # every key shows its effect, even when keys come in a burst


def _autoplay_terminal(sim: Sim, screen: TerminalScreen, reader: KeyReader, *, delay: float,
                       hold: float) -> None:
    while True:
        screen.draw()
        # the pause between two keys is also when a q gets through
        if any(k in QUIT_KEYS for k in reader.read(delay)):
            return
        if sim.autoplay_step() is None:
            break
    screen.draw()
    if hold > 0:
        reader.read(hold)  # the results stay up a moment; any key ends it


# ---------------------------------------------------------------------------- plain text
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
          [screen] S1 lobby: USA, 2 laps · 4 cars (1 players) · JOINED - GO to leave
    """

    def __init__(self, sim: Sim, out: IO[str], *, scale: int = 1) -> None:
        self.sim = sim
        self.out = out
        self.scale = scale
        self.ascii = not _can_draw_blocks(out)
        #: (station in focus after the key, key) since the last flush
        self.keys: list[tuple[int, str]] = []
        self._said = 0
        self._screens: list[str] = ["" for _ in sim.table.stations]
        self._note_screens()  # the opening screens are shown as pictures instead

    def write(self, line: str = "") -> None:
        self.out.write((line.translate(_ASCII_FALLBACK) if self.ascii else line) + "\n")

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


# ---------------------------------------------------------------------------- command line
class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (raised, not printed) and help to a chosen stream."""

    out: IO[str] | None = None

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        super().print_help(file or self.out)


def _int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a number, got {text!r}") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{what} must be {low}..{high}, got {n}")
        return n

    parse.__name__ = what  # argparse names the type in its messages
    return parse


def _scale(text: str) -> int:
    if text == "text":
        return TEXT
    return _int_in(1, 2, "scale")(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"delay must be seconds, got {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"delay must be 0..10 seconds, got {text}")
    return value


def build_parser(*, stations: int = MAX_CARS, track: str = "usa",
                 laps: int | None = None) -> argparse.ArgumentParser:
    """The ``pitboard sim`` options; defaults from the ``sim`` hardware profile."""
    p = _Parser(prog=PROG, description="The Pitboard table in a terminal: every station's "
                "screen,\nthe keyboard as levers and trays, bots in the empty seats.",
                epilog=KEYS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stations", metavar="N", type=_int_in(1, stations, "stations"), default=2,
                   help=f"player stations, 1..{stations} (default 2)")
    p.add_argument("--track", metavar="NAME", default=track,
                   help=f"{', '.join(track_names())} (default {track})")
    p.add_argument("--laps", metavar="N", type=_int_in(1, 9, "laps"), default=laps,
                   help="laps (default: the track's)")
    p.add_argument("--cars", metavar="N", type=_int_in(1, MAX_CARS, "cars"),
                   help=f"cars in the race, 1..{MAX_CARS} (default: 4, or one per station)")
    p.add_argument("--seed", metavar="N", type=int,
                   help="race seed (default: random, shown in the header)")
    p.add_argument("--autoplay", action="store_true",
                   help="bots play every station through the keyboard; exit with the results")
    p.add_argument("--kiosk", action="store_true",
                   help="preview the store kiosk on a terminal: the attract loop, GO to join, "
                   "the countdown, idle seats and results times of the sim profile's [table] "
                   "settings (kiosk_cars, seat_idle_seconds, ...)")
    p.add_argument("--text", action="store_true",
                   help="plain text even on a terminal (the default without one)")
    p.add_argument("--scale", metavar="{1,2,text}", type=_scale,
                   help="how a screen is drawn on a terminal: 1 = every pixel (130x35 "
                   "characters a station), 2 = half size (small text is hard to read), text = "
                   "its content as words (default: 1 when every station fits, else text)")
    p.add_argument("--delay", metavar="SECONDS", type=_seconds,
                   help=f"autoplay: seconds between key presses (default {TERMINAL_DELAY} on "
                   "a terminal, 0 in text mode)")
    p.add_argument("--save-png", metavar="DIR", type=Path,
                   help="save every frame the station showed as DIR/sN-0001.png ...")
    p.add_argument("--save-gif", metavar="FILE", type=Path,
                   help="save every frame the station showed as one animated GIF")
    p.add_argument("--station", metavar="N", type=_int_in(1, stations, "station"), default=1,
                   help="the station --save-png/--save-gif record (default 1)")
    p.add_argument("--image-scale", metavar="N", type=_int_in(1, 8, "image scale"), default=1,
                   help="enlarge saved images N times, pixel for pixel (default 1: 128x64)")
    return p


def _can_draw_blocks(out: IO[str]) -> bool:
    encoding = getattr(out, "encoding", None) or "utf-8"
    try:
        "▀▄█┌─▶·←".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _isatty(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _terminal_size(out: IO[str], fd: int) -> Callable[[], tuple[int, int]]:
    def size() -> tuple[int, int]:
        for candidate in (out, fd):
            try:
                number = candidate if isinstance(candidate, int) else candidate.fileno()
                cols, rows = os.get_terminal_size(number)
            except (AttributeError, OSError, ValueError):
                continue
            if cols > 0 and rows > 0:
                return cols, rows
        return 80, 24

    return size


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    tty: bool | None = None,
    size: tuple[int, int] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """``pitboard sim [options]``; returns the exit status (0, 1 autoplay failure, 2 bad usage).

    ``tty`` decides terminal vs plain-text mode (default: stdin and stdout are terminals);
    ``size`` fixes the terminal size (columns, rows) instead of asking the terminal.

    Example::

        main(["--autoplay", "--text", "--seed", "3"])   # a whole race as text, exit 0
    """
    stdin = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr

    def fail(message: str) -> int:
        print(f"{PROG}: {message}", file=err)
        return EXIT_BAD_ARGS

    try:
        profile = load_profile("sim")
    except ConfigError as exc:
        return fail(f"the sim profile is broken: {exc}")
    parser = build_parser(stations=len(profile.stations), track=profile.table.track,
                          laps=profile.table.laps)
    if isinstance(parser, _Parser):
        parser.out = out
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        return fail(str(exc))
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    if args.track not in track_names():
        return fail(f"unknown track {args.track!r} (tracks: {', '.join(track_names())})")
    if args.station > args.stations:
        return fail(f"--station {args.station}: there are only {args.stations} stations")
    if args.save_png is not None and args.save_png.exists() and not args.save_png.is_dir():
        return fail(f"--save-png {args.save_png}: not a directory")
    if args.save_gif is not None and not args.save_gif.parent.is_dir():
        return fail(f"--save-gif {args.save_gif}: no such directory {args.save_gif.parent}")

    terminal = not args.text and (tty if tty is not None else _isatty(stdin) and _isatty(out))
    kiosk = None
    if args.kiosk:
        if args.autoplay or not terminal:
            return fail("--kiosk is a preview to try by hand on a terminal (not with --autoplay "
                        "or --text)")
        from .app import kiosk_options

        kiosk = kiosk_options(profile.table)
    recording = args.save_png is not None or args.save_gif is not None
    sim = Sim(args.stations, track=args.track, laps=args.laps, cars=args.cars, seed=args.seed,
              record=args.station - 1 if recording else None, clock=clock, kiosk=kiosk)
    status = 0
    try:
        if terminal:
            delay = TERMINAL_DELAY if args.delay is None else args.delay
            fd = stdin.fileno()
            run_terminal(sim, fd, out,
                         size=(lambda: size) if size is not None else _terminal_size(out, fd),
                         scale=args.scale, autoplay=args.autoplay, delay=delay,
                         hold=RESULTS_HOLD if delay > 0 else 0.0)
            line = sim.results_line()
            if line:
                print(line, file=out)
        else:
            # pictures full size in logs; on a terminal (--text) the size that fits
            scale = args.scale if args.scale in (1, 2) else (
                1 if not _isatty(out) or _terminal_size(out, -1)()[0] >= 130 else 2)
            run_text(sim, out, stdin, autoplay=args.autoplay, delay=args.delay or 0.0,
                     prompt=_isatty(stdin), scale=scale)
    except AutoplayStuck as exc:
        print(f"{PROG}: autoplay stuck: {exc}", file=err)
        status = 1
    except termios.error as exc:  # stdin said it was a terminal but will not act like one
        print(f"{PROG}: cannot use the terminal ({exc}); try --text", file=err)
        status = 1
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:  # `pitboard sim --autoplay | head`
        if out is sys.stdout:  # Python flushes stdout at exit: point it somewhere quiet
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
    finally:
        if sim.tape is not None and not _save(sim.tape, args, err):
            status = status or 1
    return status


def _save(tape: FrameTape, args: argparse.Namespace, err: IO[str]) -> bool:
    prefix = f"s{args.station}"
    try:
        if args.save_png is not None:
            paths = tape.save_pngs(args.save_png, prefix=prefix, scale=args.image_scale)
            print(f"{PROG}: saved {len(paths)} frames of S{args.station} to {args.save_png}/",
                  file=err)
        if args.save_gif is not None:
            tape.save_gif(args.save_gif, scale=args.image_scale)
            print(f"{PROG}: saved {len(tape.frames)} frames of S{args.station} to "
                  f"{args.save_gif}", file=err)
    except (OSError, ValueError) as exc:
        print(f"{PROG}: could not save frames: {exc}", file=err)
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
