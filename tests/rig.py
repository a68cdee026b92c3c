"""Test rig: the grid6 table on mock hardware, read back only through the displays' bytes.

* :class:`Panel` is an SSD1306/SH1106 seen from its bus: a luma-style serial interface that
  decodes command and data bytes into controller RAM the way the chip does (addressing modes,
  column/page windows, display on/off), so a test sees the picture the glass would show.
* :class:`Grid6` wires a :class:`~pitboard.table.table.Table` to the ``grid6`` profile: six
  MCP23017 register models as the I2C buses (their INT lines on gpiozero's MockFactory pins)
  and six :class:`~pitboard.hw.display.StationDisplay` whose transports are Panels, all on one
  fake clock. Hands act on chip pins only; events reach the table through its queue.
* :func:`find_text` looks for a string drawn in the screens' bitmap fonts in a panel image.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory
from PIL import Image

from pitboard.bots import HeuristicBot
from pitboard.engine.decisions import Plan
from pitboard.hw.display import SH1106_COLUMN_OFFSET, Driver, StationDisplay
from pitboard.hw.events import GoPressed, SlotPressed
from pitboard.hw.inputs import StationInputs, build_station_inputs
from pitboard.hw.mcp23017 import STATION_BITS, Bank, Mcp23017Model, SMBusLike
from pitboard.hw.oled import PAGES, PANEL_HEIGHT, PANEL_WIDTH, RecordingSerial, to_pages
from pitboard.hwconfig import HwConfig, Mcp23017Input, load_profile, resolve_i2c_bus
from pitboard.table import screens
from pitboard.table.autoplay import next_input
from pitboard.table.screens import MEDIUM, SMALL, TINY, BitmapFont
from pitboard.table.table import Table, TableEvent
from pitboard.table.view import StationView

#: longer than the 20 ms debounce and shorter than the MCP23017 safety poll (100 ms), so a
#: settle confirms what the INT-triggered read saw; a power of two keeps fake time exact
SETTLE_S = 1 / 16
#: the kernel's bus number for mux channel 0 (what sysfs would say on a Pi)
FIRST_BUS = 3
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


class FakeClock:
    """The one clock of the rig: debounce, display backoff and the table all read it."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# -- the panel, from its bus ---------------------------------------------------------------------

# Argument counts of multi-byte commands; everything else listed in _SINGLE is one byte.
# luma also sends 0x20 (addressing mode) and 0x8D (charge pump) to an SH1106, which takes them
# as harmless no-ops: they are parsed the same way for both chips.
_ARGS = {
    "ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
                0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
    "sh1106": {0x20: 1, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
               0xDB: 1},
}
_SINGLE = {
    "ssd1306": {*range(0x00, 0x20), *range(0x40, 0x80), *range(0xB0, 0xB8), 0x2E, 0x2F, 0xA0,
                0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3},
    "sh1106": {*range(0x00, 0x20), *range(0x30, 0x34), *range(0x40, 0x80), *range(0xB0, 0xB8),
               0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE0, 0xE3, 0xEE},
}
_RAM_WIDTH = 132  # SH1106 RAM; an SSD1306 uses the first 128 columns
_HORIZONTAL, _VERTICAL, _PAGE = 0, 1, 2


class Panel(RecordingSerial):
    """An OLED controller behind a luma-style serial interface: records and decodes every write.

    ``fail`` makes every write raise it (a dead or unplugged panel); nothing is recorded then.
    Unknown commands raise AssertionError: the display layer must only send what the chip knows.
    ``attempt_times`` has the ``clock`` time of every write attempt, failed or not.
    """

    def __init__(self, driver: Driver = "ssd1306", clock: Callable[[], float] | None = None
                 ) -> None:
        super().__init__()
        self.driver = driver
        self.fail: OSError | None = None
        #: RAM pages data bytes were written to (tests clear it to watch one change)
        self.pages_written: set[int] = set()
        self._clock = clock or (lambda: 0.0)
        self.attempt_times: list[float] = []
        self.power_on()

    def power_on(self) -> None:
        """The controller's state after power-up: RAM cleared, panel off, page addressing."""
        self.ram = bytearray(PAGES * _RAM_WIDTH)
        self.on = False
        self.inverted = False
        self.mode = _PAGE  # SSD1306 power-on addressing mode
        self.col_lo, self.col_hi, self.page_lo, self.page_hi = 0, PANEL_WIDTH - 1, 0, PAGES - 1
        self.col = self.page = 0

    def unplug(self, error: OSError) -> None:
        """The cable is pulled: every write fails with ``error`` and the panel loses power."""
        self.fail = error
        self.power_on()

    def plug(self) -> None:
        """The cable is back: a powered-up but uninitialised panel (dark until set up)."""
        self.fail = None

    @property
    def attempts(self) -> int:
        return len(self.attempt_times)

    def command(self, *cmd: int) -> None:
        self.attempt_times.append(self._clock())
        if self.fail is not None:
            raise self.fail
        super().command(*cmd)
        args, single = _ARGS[self.driver], _SINGLE[self.driver]
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = args.get(op, 0)
            assert n or op in single, f"{self.driver}: unknown command 0x{op:02X} in {cmd}"
            assert i + n < len(cmd), f"{self.driver}: command 0x{op:02X} lacks arguments"
            self._execute(op, cmd[i + 1 : i + 1 + n])
            i += 1 + n

    def _execute(self, op: int, arg: Sequence[int]) -> None:
        page_mode = self.driver == "sh1106" or self.mode == _PAGE
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op == 0x20 and self.driver == "ssd1306":
            self.mode = arg[0] & 0x03
        elif op == 0x21 and self.driver == "ssd1306":
            self.col_lo, self.col_hi = arg[0] & 0x7F, arg[1] & 0x7F
            self.col = self.col_lo
        elif op == 0x22 and self.driver == "ssd1306":
            self.page_lo, self.page_hi = arg[0] & 0x07, arg[1] & 0x07
            self.page = self.page_lo
        elif 0xB0 <= op <= 0xB7 and page_mode:
            self.page = op & 0x07
        elif op <= 0x0F and page_mode:
            self.col = (self.col & 0xF0) | op
        elif 0x10 <= op <= 0x1F and page_mode:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4

    def data(self, data: Sequence[int]) -> None:
        self.attempt_times.append(self._clock())
        if self.fail is not None:
            raise self.fail
        super().data(data)
        if self.driver == "ssd1306" and self.mode == _HORIZONTAL:
            self._horizontal(bytes(data))
            return
        width = _RAM_WIDTH if self.driver == "sh1106" else PANEL_WIDTH
        for byte in data:
            self.pages_written.add(self.page)
            self.ram[self.page * _RAM_WIDTH + self.col] = byte
            if self.driver == "sh1106" or self.mode == _PAGE:
                self.col = (self.col + 1) % width
            else:  # vertical (horizontal: _horizontal)
                self.page += 1
                if self.page > self.page_hi:
                    self.page = self.page_lo
                    self.col = self.col_lo if self.col >= self.col_hi else self.col + 1

    def _horizontal(self, data: bytes) -> None:
        """Horizontal addressing, a page row of the window at a time (what the byte loop
        does, without a Python step per byte: every frame of every table test comes here)."""
        i = 0
        while i < len(data):
            n = min(len(data) - i, max(1, self.col_hi - self.col + 1))
            at = self.page * _RAM_WIDTH + self.col
            self.ram[at : at + n] = data[i : i + n]
            self.pages_written.add(self.page)
            i += n
            self.col += n
            if self.col > self.col_hi:
                self.col = self.col_lo
                self.page = self.page_lo if self.page >= self.page_hi else self.page + 1

    def frame(self) -> bytes:
        """The 128 visible columns of RAM in page format (as :func:`to_pages` makes them)."""
        off = SH1106_COLUMN_OFFSET if self.driver == "sh1106" else 0
        return b"".join(bytes(self.ram[p * _RAM_WIDTH + off : p * _RAM_WIDTH + off + PANEL_WIDTH])
                        for p in range(PAGES))

    def image(self) -> Image.Image:
        """What the glass shows, as a 128x64 mode "1" image (the inverse of :func:`to_pages`)."""
        return frame_image(self.frame())


def frame_image(frame: bytes) -> Image.Image:
    """A page-format frame back to a panel-oriented image."""
    raw = bytearray(len(frame))
    for page in range(PAGES):
        raw[PAGES - 1 - page :: PAGES] = frame[page * PANEL_WIDTH : (page + 1) * PANEL_WIDTH]
    return Image.frombytes("1", (PANEL_HEIGHT, PANEL_WIDTH), bytes(raw)).transpose(
        Image.Transpose.ROTATE_90)


# -- text on a picture ---------------------------------------------------------------------------


def _rows(image: Image.Image, inverse: bool = False) -> list[str]:
    """Each pixel row as a string of "1" (lit) and "0"."""
    on, off = ("0", "1") if inverse else ("1", "0")
    px = image.load()
    assert px is not None
    return ["".join(on if px[x, y] else off for x in range(image.width))
            for y in range(image.height)]


def find_text(image: Image.Image, text: str,
              fonts: Sequence[BitmapFont] = (SMALL, TINY, MEDIUM)) -> tuple[int, int] | None:
    """Where ``text`` is drawn in one of ``fonts``, lit on dark or dark on a lit band.

    The whole box of the rendered string must match, ink and the gaps between letters, so a
    hit is these letters in this font; it may still be the start of a longer string ("1 An"
    is found in "1 Ann"). Returns the top-left corner, or None.
    """
    screens = (_rows(image), _rows(image, inverse=True))
    for font in fonts:
        tmpl = _rows(font.render(text))
        h = len(tmpl)
        if not tmpl or not tmpl[0] or h > image.height:
            continue
        anchor = max(range(h), key=lambda i: tmpl[i].count("1"))  # the most selective row
        for rows in screens:
            for y in range(image.height - h + 1):
                line = rows[y + anchor]
                x = line.find(tmpl[anchor])
                while x >= 0:
                    w = len(tmpl[anchor])
                    if all(rows[y + i][x : x + w] == tmpl[i] for i in range(h)):
                        return x, y
                    x = line.find(tmpl[anchor], x + 1)
    return None


def shows_message(panel: Panel, view: StationView) -> bool:
    """The view's status line is on the panel's glass (a waiting screen's band, half the
    width, breaks a long one in two lines: :func:`pitboard.table.screens.status_lines`)."""
    # (a waiting screen with a plan locked in has the locked screen's whole width for it)
    wrapped = view.kind == "waiting" and not view.cards
    parts = screens.status_lines(view.message) if wrapped else [view.message]
    image = panel.image()
    return all(find_text(image, part) is not None for part in parts)


def shows(panel: Panel, *texts: str) -> bool:
    """True when every one of ``texts`` is on the panel's glass."""
    image = panel.image()
    return all(find_text(image, t) is not None for t in texts)


# -- the table on mock hardware ------------------------------------------------------------------


class RenderSpy:
    """The table's ``render``: the real renderer, remembering the last image per station."""

    def __init__(self, render: Callable[[StationView], Image.Image] = screens.render) -> None:
        self._render = render
        self.last: dict[int, Image.Image] = {}
        self.views: dict[int, StationView] = {}
        self.count = 0

    def __call__(self, view: StationView) -> Image.Image:
        image = self._render(view)
        self.last[view.station] = image
        self.views[view.station] = view
        self.count += 1
        return image


#: the kernel's bus number for channel 0 of each controller's mux (A, B, C: 10 apart)
FIRST_BUSES = {"A": FIRST_BUS, "B": FIRST_BUS + 10, "C": FIRST_BUS + 20}
#: the extra controllers' own bus numbers (as on a Pi 4: i2c6 on GPIO 22/23, i2c5 on 12/13)
EXTRA_BUSES = {"B": 6, "C": 5}


def grid6_config() -> HwConfig:
    """The shipped grid6 profile, with channel k of controller X's mux on
    /dev/i2c-(FIRST_BUSES[X] + k)."""
    config = load_profile("grid6")
    assert config.i2c.mux is not None
    mux = dataclasses.replace(config.i2c.mux, first_bus=FIRST_BUS)
    extra = tuple(
        dataclasses.replace(e, bus=EXTRA_BUSES[name],
                            mux=dataclasses.replace(e.mux, first_bus=FIRST_BUSES[name]))
        if e.mux is not None else e
        for name, e in zip("BC", config.i2c.extra, strict=False))
    return dataclasses.replace(config, i2c=dataclasses.replace(config.i2c, mux=mux, extra=extra))


def station_bus(config: HwConfig, station: int) -> int:
    """The bus number a station's board and display are on in the rig."""
    spec = config.stations[station].input
    assert isinstance(spec, Mcp23017Input) and spec.mux_channel is not None
    return resolve_i2c_bus(config.i2c, spec.mux_channel, controller=spec.controller)


def _wire(pin: Any) -> Callable[[bool], None]:
    """The chip's INT output driving a mock Pi pin (open drain: low = active)."""

    def drive(high: bool) -> None:
        if high:
            pin.drive_high()
        else:
            pin.drive_low()

    return drive


def close_lever(factory: MockFactory, pins: Sequence[int], gear: int) -> None:
    """A one-hot gear lever on direct GPIO (duo): ``gear``'s contact closed to GND (active
    low), the other three open (held high by the pull-ups)."""
    for g, pin in enumerate(pins, start=1):
        if g == gear:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()


_BITS: dict[str, tuple[Bank, int]] = {name: (bank, bit) for bank, bit, name in STATION_BITS}


class Grid6:
    """Six grid6 stations: MCP23017 models + INT on mock pins, Panels behind StationDisplays."""

    def __init__(self, *, seed: int = 11, names: Sequence[str] = NAMES) -> None:
        self.clock = FakeClock()
        self.factory = MockFactory()
        self.config = grid6_config()
        n = len(self.config.stations)
        self.chips: list[Mcp23017Model] = []
        self._buses: dict[int, Mcp23017Model] = {}
        for st in self.config.stations:
            spec = st.input
            assert isinstance(spec, Mcp23017Input) and spec.mux_channel is not None
            chip = Mcp23017Model(address=spec.address)
            if spec.int_pin is not None:
                chip.connect_int(_wire(self.factory.pin(spec.int_pin)))
            self.chips.append(chip)
            self._buses[station_bus(self.config, st.index)] = chip
        self.panels = [Panel("sh1106" if st.display.driver == "sh1106" else "ssd1306",
                             clock=self.clock) for st in self.config.stations]
        self.displays = [
            StationDisplay(serial=panel, driver=panel.driver, rotate=st.display.rotate,
                           station=st.label, clock=self.clock)
            for panel, st in zip(self.panels, self.config.stations, strict=True)
        ]
        self.renders = RenderSpy()
        #: every event the game thread handled, in order
        self.handled: list[TableEvent] = []
        self.table = Table(stations=n, screens=self.displays, render=self.renders,
                           clock=self.clock, seed=seed, names=names)
        self.inputs: list[StationInputs] = [
            build_station_inputs(self.config, i, self.table.post, pin_factory=self.factory,
                                 bus_factory=self._bus, clock=self.clock)
            for i in range(n)
        ]
        for i in range(n):
            self.lever(i, 1)

    def _bus(self, number: int) -> SMBusLike:
        return self._buses[number]

    # ---- hands on the pins ------------------------------------------------------------------

    def pin(self, station: int, name: str, closed: bool) -> None:
        """Close (to GND) or open one contact of a station board, without settling."""
        bank, bit = _BITS[name]
        self.chips[station].set_input(bank, bit, False if closed else None)

    def contacts(self, station: int, *gears: int) -> None:
        """Exactly these lever contacts closed (none: between gears), without settling."""
        for gear in range(1, 5):
            self.pin(station, f"lever gear {gear}", gear in gears)

    def settle(self) -> None:
        """Let time pass beyond the debounce, then one pass of the game loop."""
        self.poll(SETTLE_S)

    def drain(self) -> int:
        """Hand every queued event to ``Table.handle``; how many there were."""
        handled = 0
        while not self.table.queue.empty():
            event = self.table.queue.get()
            self.handled.append(event)
            self.table.handle(event)
            handled += 1
        return handled

    def poll(self, seconds: float) -> None:
        """One pass of the game loop after ``seconds``, as the app runs it: poll every board
        (debounce, safety reads), poll every display (retry a failed one), handle the queue."""
        self.clock.advance(seconds)
        for inputs in self.inputs:
            inputs.poll()
        for display in self.displays:
            display.poll()
        self.drain()

    def press(self, station: int, name: str) -> None:
        self.pin(station, name, True)
        self.settle()
        self.pin(station, name, False)
        self.settle()

    def slot(self, station: int, slot: int) -> None:
        self.press(station, f"slot {slot + 1}")  # the wiring counts tray slots from 1

    def go(self, station: int) -> None:
        self.press(station, "GO")

    def lever(self, station: int, gear: int) -> None:
        self.contacts(station, gear)
        self.settle()

    # ---- eyes on the glass ------------------------------------------------------------------

    def view(self, station: int) -> StationView:
        """The last view rendered for a station (what its player is looking at)."""
        return self.renders.views[station]

    def check_glass(self, stations: Sequence[int] | None = None) -> None:
        """Every (healthy) panel is lit and shows exactly the last frame the renderer drew."""
        for i in range(len(self.panels)) if stations is None else stations:
            panel = self.panels[i]
            assert panel.on and not panel.inverted, f"S{i + 1} panel is dark or inverted"
            rotated = self.displays[i].device.preprocess(self.renders.last[i])  # as luma would
            assert panel.frame() == to_pages(rotated), f"S{i + 1} glass != rendered frame"

    def close(self) -> None:
        for inputs in self.inputs:
            inputs.close()
        self.factory.reset()


# -- players -------------------------------------------------------------------------------------

class Players:
    """Six people at the table, all human seats: each one's mind is a heuristic bot, but
    every choice is made with the lever and the buttons, by what the station's screen offers.

    Who is to act is read from the screens (a planning screen, or the one resolution screen);
    a seat's car is its join order, so station i drives car i when all six joined in order.
    """

    def __init__(self, rig: Grid6, *, seed: int = 5, tries: Sequence[str] = ()) -> None:
        self.rig = rig
        self.mind = HeuristicBot(seed=seed)
        self.actions = 0
        #: turn-screen toggles (soft key labels, e.g. "BST") each person presses twice, once a
        #: turn, before their move: to see what it does and to take it back, as people do (the
        #: move is the same; the presses are on the bus)
        self.tries = tuple(tries)
        self._tried: set[tuple[int, int]] = set()

    def _try_toggles(self, station: int) -> None:
        race = self.rig.table.race
        assert race is not None
        if not self.tries or (race.round, station) in self._tried:
            return
        self._tried.add((race.round, station))
        for label in self.tries:
            for _ in range(2):
                keys = self.rig.view(station).soft_keys
                if label not in keys:
                    break
                self.rig.slot(station, keys.index(label))

    def cards(self, station: int, codes: Sequence[str]) -> None:
        """Select these cards by their buttons, paging the tray (PG> on button 6) as needed."""
        wanted = list(codes)
        pages = 0
        while wanted:
            view = self.rig.view(station)
            for button, card in enumerate(view.cards):
                if card.code in wanted and not card.selected:
                    self.rig.slot(station, button)
                    wanted.remove(card.code)
                    break
            else:
                assert view.soft_keys[6:] == ("PG>",), f"{wanted} not on S{station + 1}'s tray"
                assert pages < 4, f"{wanted} on no page of S{station + 1}'s tray"
                self.rig.slot(station, 6)
                pages += 1

    def step(self) -> bool:
        """Make one person's move; False once every station shows the results."""
        rig = self.rig
        kinds = [rig.view(i).kind for i in range(len(rig.panels))]
        if all(k == "results" for k in kinds):
            return False
        race = rig.table.race
        assert race is not None
        planning = [i for i, k in enumerate(kinds) if k == "planning"]
        resolving = [i for i, k in enumerate(kinds) if k == "resolution"]
        assert planning or len(resolving) == 1, kinds
        station = planning[0] if planning else resolving[0]
        assert station in race.pending().cars, (station, race.pending())
        decision = self.mind.choose(race, station)
        if isinstance(decision, Plan):
            rig.lever(station, decision.gear)
            assert rig.view(station).target_gear == decision.gear
            if decision.gear not in race.plan_rule(station).clogged:
                self.cards(station, decision.cards)
            rig.go(station)
            assert rig.view(station).kind != "planning", rig.view(station).message
        else:
            self._try_toggles(station)
            # the turn screen: the press the autopilot's hands make for this mind's choices
            event = next_input(rig.table, brain=self.mind, stations={station})
            assert event is not None and event.station == station, event
            view = rig.view(station)
            if isinstance(event, GoPressed):
                rig.go(station)
            else:
                assert isinstance(event, SlotPressed), event
                label = view.soft_keys[event.slot] if event.slot < len(view.soft_keys) else ""
                assert label or view.cards[event.slot].code, (event, view)
                rig.slot(station, event.slot)
        self.actions += 1
        return True
