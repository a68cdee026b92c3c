"""The full-screen terminal simulation: every station's screen boxed, its tray keys below."""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import signal
import termios
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import IO, Any, NoReturn

from ..table import flow
from ..table.keys import QUIT_KEYS, SLOT_KEYS
from ..table.keys import decode as decode_keys
from ..table.screens import COLUMN_PITCH, COLUMNS, column_x
from ..table.terminal import CLEAR_SCREEN, HIDE_CURSOR, SHOW_CURSOR, frames_to_text, redraw
from ..table.textview import screen_text
from ..table.view import StationView
from .report import ASCII_FALLBACK, can_draw_blocks, screen_line
from .session import Sim

#: idle poll of the keyboard: picks up terminal resizes this fast
POLL = 0.25
#: with --kiosk: how often time moves the table on (the attract race steps every 0.5 s)
KIOSK_POLL = 0.1
ALT_SCREEN_ON, ALT_SCREEN_OFF = "\x1b[?1049h", "\x1b[?1049l"


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
    """What sits above each tray button: a card (``*`` when selected) or a soft key (in lower
    case when it is a toggle that is off, drawn outlined on the OLED).

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
            labels[i] = key.lower() if i in view.keys_off else key
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
            title = title.translate(ASCII_FALLBACK)
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

    def race_control_block(self, scale: int) -> list[str]:
        """The race-control display under the stations (none when the profile has none)."""
        display = self.sim.race_control
        view = self.sim.table.race_control_view
        if display is None or display.image is None or view is None:
            return []
        if scale == TEXT:
            inner = TEXT_WIDTH - 2
            words = [w[:inner] for w in view.words()][:TEXT_ROWS]
            return [f"┌ race control {'─' * (TEXT_WIDTH - 15)}┐",
                    *(f"│ {w.ljust(inner)} │" for w in words), f"└{'─' * TEXT_WIDTH}┘"]
        return frames_to_text([display.image], titles=["race control"], scale=scale,
                              ascii=self.ascii).split("\n")

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
        rc = self.race_control_block(scale)
        if len(grid) + len(rc) + _CHROME < rows:  # below the stations, when there is room
            grid += rc
        help_ = "AUTOPLAY: the bots type every key · q quit" if self.autoplay else TERMINAL_HELP
        view = self.sim.table.views[focus]
        caption = screen_line(view) if view is not None else ""
        room = max(1, rows - 1 - len(grid) - (_CHROME - 1))
        lines = [header, *grid, caption, *self._ticker(min(room, 10)), help_]
        lines = [line[:cols] for line in lines[: max(rows - 1, 1)]]
        text = "\n".join(lines)
        return text.translate(ASCII_FALLBACK) if self.ascii else text

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
    screen = TerminalScreen(sim, out, size=size, scale=scale, ascii=not can_draw_blocks(out),
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
    while True:
        screen.draw()  # also after a timeout: the terminal may have been resized
        sim.tick()  # time passes on the table as on the device (kiosk timers, idle seats)
        for key in reader.read(KIOSK_POLL if sim.table.kiosk is not None else POLL):
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
