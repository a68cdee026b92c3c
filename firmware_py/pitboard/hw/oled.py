"""Pure helpers for 128×64 monochrome OLED controllers (SSD1306, SH1106). No I/O here.

* :func:`to_pages` turns a panel-oriented mode ``"1"`` image into controller RAM layout: 8 pages
  of 128 bytes, each byte 8 vertical pixels with the least significant bit at the top — byte for
  byte what ``luma.oled``'s ``display()`` sends for a full frame.
* :func:`changed_spans` and :func:`plan_windows` find what changed between two such frames and
  group it into rectangular RAM windows (SSD1306 horizontal addressing).
* :func:`split_gaps` cuts a window where a run of unchanged columns costs more to send than
  another window.
* :class:`RecordingSerial` is a luma-style serial interface that only records writes; it is used to
  capture luma's init sequence and, in tests and benchmarks, to count bytes.
* :func:`i2c_cost` prices a list of writes on an I2C bus the way luma's ``i2c`` interface frames
  them, and :func:`through_mux` adds the TCA9548A channel selects the kernel makes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from PIL import Image

PANEL_WIDTH = 128
PANEL_HEIGHT = 64
PAGES = PANEL_HEIGHT // 8
FRAME_BYTES = PANEL_WIDTH * PAGES

#: Bus overhead of one extra SSD1306 window: the 6 address-command bytes (0x21 s e 0x22 s e) plus
#: the I2C address and control byte of the command message and of the data message (the
#: display sends a part's windows as the messages of one kernel transfer: no mux writes of
#: their own, :meth:`RecordingSerial.transfer`)
WINDOW_OVERHEAD_BYTES = 6 + 2 + 2
#: the same for one SH1106 page run: its 3 position commands (page, column low and high nibble)
PAGE_RUN_OVERHEAD_BYTES = 3 + 2 + 2

#: luma's ``i2c(bus=...)`` (a bus object passed in, "unmanaged") writes data with SMBus
#: ``write_i2c_block_data``: at most 32 bytes per transaction.
SMBUS_BLOCK = 32
#: luma's ``i2c(port=N)`` opens smbus2 itself ("managed") and writes data with one ``i2c_rdwr``
#: message of up to 4096 bytes per transaction. This is what :func:`open_display` builds.
I2C_RDWR_BLOCK = 4096


def to_pages(image: Image.Image) -> bytes:
    """Convert a panel-oriented 128×64 mode ``"1"`` image to controller page format.

    Returns 1024 bytes, page-major: ``out[page * 128 + x]`` holds pixels ``(x, 8*page .. 8*page+7)``
    with the top pixel in bit 0.

    Example::

        >>> from PIL import Image
        >>> img = Image.new("1", (128, 64))
        >>> img.putpixel((3, 9), 1)          # page 1, bit 1
        >>> pages = to_pages(img)
        >>> pages[128 + 3]
        2
    """
    if image.mode != "1" or image.size != (PANEL_WIDTH, PANEL_HEIGHT):
        raise ValueError(f"expected a 128x64 mode '1' image, got {image.size} mode {image.mode!r}")
    # Rotating 270° makes each source column one 64-pixel row (8 packed bytes, MSB first, bottom
    # pixel first), so every byte is already one page column with the top pixel in bit 0; only
    # the page order needs reversing. Pillow does the bit work in C: ~40 µs per frame here,
    # against ~500 µs for luma's per-pixel loop.
    raw = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(raw[PAGES - 1 - page :: PAGES] for page in range(PAGES))


@dataclass(frozen=True, slots=True)
class PageSpan:
    """The changed columns ``first..last`` (inclusive) of one page.

    Example::

        PageSpan(page=7, first=40, last=55)
    """

    page: int
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Window:
    """A rectangle of controller RAM: pages ``page_first..page_last``, columns ``first..last``.

    Example::

        >>> w = Window(page_first=0, page_last=7, first=0, last=127)
        >>> w.data_bytes
        1024
    """

    page_first: int
    page_last: int
    first: int
    last: int

    @property
    def data_bytes(self) -> int:
        """Number of RAM bytes in the window."""
        return (self.page_last - self.page_first + 1) * (self.last - self.first + 1)

    def slice(self, frame: bytes) -> bytes:
        """The window's bytes of a 1024-byte ``frame`` in page-major order (SSD1306 fill order)."""
        return b"".join(
            frame[p * PANEL_WIDTH + self.first : p * PANEL_WIDTH + self.last + 1]
            for p in range(self.page_first, self.page_last + 1)
        )


FULL_WINDOW = Window(page_first=0, page_last=PAGES - 1, first=0, last=PANEL_WIDTH - 1)


def changed_spans(old: bytes, new: bytes) -> list[PageSpan]:
    """Per page, the leftmost and rightmost column whose byte differs between two frames.

    Example::

        >>> a = bytes(1024)
        >>> b = bytearray(a); b[2 * 128 + 5] = 1; b[2 * 128 + 9] = 4
        >>> changed_spans(a, bytes(b))
        [PageSpan(page=2, first=5, last=9)]
    """
    spans: list[PageSpan] = []
    for page in range(PAGES):
        lo = page * PANEL_WIDTH
        a = old[lo : lo + PANEL_WIDTH]
        b = new[lo : lo + PANEL_WIDTH]
        if a == b:
            continue
        # XOR the page as one big-endian integer: its highest set bit lies in the leftmost
        # differing column and its lowest set bit in the rightmost one.
        diff = int.from_bytes(a, "big") ^ int.from_bytes(b, "big")
        first = PANEL_WIDTH - 1 - (diff.bit_length() - 1) // 8
        last = PANEL_WIDTH - 1 - ((diff & -diff).bit_length() - 1) // 8
        spans.append(PageSpan(page, first, last))
    return spans


def _cover(spans: Sequence[PageSpan]) -> Window:
    return Window(
        page_first=spans[0].page,
        page_last=spans[-1].page,
        first=min(s.first for s in spans),
        last=max(s.last for s in spans),
    )


def split_gaps(old: bytes, new: bytes, window: Window,
               overhead: int = WINDOW_OVERHEAD_BYTES) -> list[Window]:
    """``window`` cut at every run of columns that is unchanged on all its pages and costs more
    to send (its columns times its pages) than another window's ``overhead``: "4-7" becoming
    "5-8" in big digits goes out as two digits, not as the three characters.

    Example::

        >>> a = bytes(1024)
        >>> b = bytearray(a); b[128 + 2] = 1; b[128 + 40] = 1
        >>> split_gaps(a, bytes(b), Window(page_first=1, page_last=1, first=2, last=40))
        [Window(page_first=1, page_last=1, first=2, last=2), \
Window(page_first=1, page_last=1, first=40, last=40)]
    """
    first, last = window.first, window.last
    width = last - first + 1
    pages = window.page_last - window.page_first + 1
    if width * pages <= overhead:
        return [window]
    changed = 0
    for page in range(window.page_first, window.page_last + 1):
        lo = page * PANEL_WIDTH
        changed |= int.from_bytes(old[lo + first : lo + last + 1], "big") ^ \
            int.from_bytes(new[lo + first : lo + last + 1], "big")
    columns = changed.to_bytes(width, "big")
    out: list[Window] = []
    start = 0  # the window being built starts at this column (relative)
    gap = 0  # unchanged columns just before ``i``
    for i, byte in enumerate(columns):
        if byte:
            if gap * pages > overhead and i - gap > start:
                out.append(Window(window.page_first, window.page_last, first + start,
                                  first + i - gap - 1))
                start = i
            gap = 0
        else:
            gap += 1
    out.append(Window(window.page_first, window.page_last, first + start, last - gap))
    return out


def plan_windows(spans: Sequence[PageSpan]) -> list[Window]:
    """Group changed page spans into the SSD1306 windows that are cheapest to send.

    Each window costs :data:`WINDOW_OVERHEAD_BYTES` plus its area; runs of consecutive spans are
    either merged into one bounding window or split, whichever is cheaper (exact over all
    splits into runs, by dynamic programming over at most 8 spans). So a 3-page-tall digit is one
    window, while a change at the top and another at the bottom are two small windows rather than
    one nearly full frame.

    Example::

        >>> plan_windows([PageSpan(0, 0, 3), PageSpan(7, 120, 127)])
        [Window(page_first=0, page_last=0, first=0, last=3), \
Window(page_first=7, page_last=7, first=120, last=127)]
    """
    n = len(spans)
    if n == 0:
        return []
    best: list[int] = [0] + [0] * n
    choice: list[int] = [0] * (n + 1)
    for end in range(1, n + 1):
        best[end] = -1
        for start in range(end):
            cost = best[start] + WINDOW_OVERHEAD_BYTES + _cover(spans[start:end]).data_bytes
            # "<" keeps the earliest start, i.e. the fewest windows, when costs tie.
            if best[end] < 0 or cost < best[end]:
                best[end] = cost
                choice[end] = start
    windows: list[Window] = []
    end = n
    while end > 0:
        start = choice[end]
        windows.append(_cover(spans[start:end]))
        end = start
    windows.reverse()
    return windows


@dataclass(frozen=True, slots=True)
class BusWrite:
    """One call on a luma-style serial interface: ``command(*payload)`` or ``data(payload)``;
    ``joined``: a message of the same kernel transfer as the write before it (one ``i2c_rdwr``:
    a repeated START, and no TCA9548A select or deselect of its own). Writes compare by kind
    and payload only.

    Example::

        BusWrite("command", bytes([0xB0, 0x02, 0x10]))
    """

    kind: Literal["command", "data"]
    payload: bytes
    joined: bool = field(default=False, compare=False)


class RecordingSerial:
    """A luma-style serial interface that records every write and touches no hardware.

    Example::

        >>> rec = RecordingSerial()
        >>> rec.command(0xAE); rec.data([1, 2, 3])
        >>> [(w.kind, list(w.payload)) for w in rec.writes]
        [('command', [174]), ('data', [1, 2, 3])]
        >>> rec.command_bytes, rec.data_bytes
        (1, 3)
    """

    def __init__(self) -> None:
        self.writes: list[BusWrite] = []

    def command(self, *cmd: int) -> None:
        """Record a command write."""
        self.writes.append(BusWrite("command", bytes(cmd)))

    def data(self, data: Sequence[int]) -> None:
        """Record a data write."""
        self.writes.append(BusWrite("data", bytes(data)))

    def transfer(self, writes: Sequence[BusWrite]) -> None:
        """Send ``writes`` as the messages of one kernel transfer (see
        :class:`~pitboard.hw.oled_i2c.I2cLink`): each goes through :meth:`command` or
        :meth:`data` (a subclass decodes them there) and is recorded ``joined`` to the one
        before it, except the first."""
        start = len(self.writes)
        for w in writes:
            if w.kind == "command":
                self.command(*w.payload)
            elif w.payload:
                self.data(w.payload)
        self.writes[start + 1 :] = [replace(w, joined=True) for w in self.writes[start + 1 :]]

    def cleanup(self) -> None:
        """Nothing to release (luma calls this at exit)."""

    @property
    def command_bytes(self) -> int:
        """Total command bytes recorded."""
        return sum(len(w.payload) for w in self.writes if w.kind == "command")

    @property
    def data_bytes(self) -> int:
        """Total data bytes recorded."""
        return sum(len(w.payload) for w in self.writes if w.kind == "data")


@dataclass(frozen=True, slots=True)
class BusCost:
    """What a sequence of writes costs on an I2C bus.

    ``bus_bytes`` counts every byte clocked on SDA: payload plus, per transaction (an I2C
    message), the address byte and luma's control byte (0x00 command / 0x40 data). Each byte
    takes 9 clocks (8 bits + ACK) and each transaction adds a START and a STOP (counted as one
    clock each); ``joined`` of them are further messages of one kernel transfer (a repeated
    START, no STOP before it, and no mux select of their own: :func:`through_mux`). Bus-free
    time between transactions, clock stretching and kernel/driver latency are not included, so
    real transfers are somewhat slower.

    Example::

        >>> cost = i2c_cost([BusWrite("command", bytes(6)), BusWrite("data", bytes(1024))])
        >>> cost.transactions, cost.bus_bytes, round(cost.seconds(400_000) * 1000, 2)
        (2, 1034, 23.28)
    """

    transactions: int
    payload_bytes: int
    bus_bytes: int
    joined: int = 0

    @property
    def transfers(self) -> int:
        """Kernel transfers (``i2c_transfer`` calls): a STOP and a mux select/deselect each."""
        return self.transactions - self.joined

    @property
    def clocks(self) -> int:
        """SCL periods needed: 9 per byte plus a START per message and a STOP per transfer."""
        return 9 * self.bus_bytes + self.transactions + self.transfers

    def seconds(self, clock_hz: float) -> float:
        """Transfer time at the given SCL frequency (e.g. 100_000 or 400_000)."""
        return self.clocks / clock_hz


def i2c_cost(writes: Iterable[BusWrite], *, block_size: int = I2C_RDWR_BLOCK) -> BusCost:
    """Price writes as luma's ``i2c`` interface puts them on the bus.

    A ``command()`` is always one transaction (luma allows at most 32 command bytes). A ``data()``
    is split into transactions of ``block_size`` payload bytes: :data:`I2C_RDWR_BLOCK` when luma
    opened the bus itself (``i2c(port=N)``, as :func:`~pitboard.hw.display.open_display` does),
    :data:`SMBUS_BLOCK` when an SMBus object was passed in (``i2c(bus=...)``).

    Example::

        >>> w = [BusWrite("command", bytes(6)), BusWrite("data", bytes(1024))]
        >>> i2c_cost(w, block_size=SMBUS_BLOCK)
        BusCost(transactions=33, payload_bytes=1030, bus_bytes=1096, joined=0)
    """
    if block_size < 1:
        raise ValueError("block_size must be positive")
    transactions = 0
    joined = 0
    payload = 0
    for write in writes:
        n = len(write.payload)
        payload += n
        messages = 1 if write.kind == "command" else -(-n // block_size)  # ceil; none if empty
        transactions += messages
        if write.joined and messages:
            joined += 1
    # each transaction adds its address byte and luma's control byte
    return BusCost(transactions=transactions, payload_bytes=payload,
                   bus_bytes=payload + 2 * transactions, joined=joined)


#: a TCA9548A channel select is one write of its control register: address byte + 1 data byte
#: (TI TCA9548A data sheet SCPS207, 8.5 "Control register"). The kernel's pca954x driver writes
#: it before a transfer on another channel than the last one; with idle disconnect
#: (``idle_state`` -2) it also deselects after every transfer, so each transfer costs two.
#: A transfer is one ``i2c_transfer`` call with all its messages (Linux i2c-mux.c,
#: ``__i2c_mux_master_xfer``: select, ``__i2c_transfer(parent, msgs, num)``, deselect).
MUX_WRITE = BusCost(transactions=1, payload_bytes=1, bus_bytes=2)


def through_mux(cost: BusCost, *, idle_disconnect: bool, selects: int = 1) -> BusCost:
    """``cost`` on a TCA9548A channel: plus the mux writes the kernel adds.

    ``selects`` is how many times the channel is selected (once per burst of transfers to one
    station when the mux is left connected); with ``idle_disconnect`` every kernel transfer
    (:attr:`BusCost.transfers`) is wrapped in a select and a deselect instead.

    Example::

        >>> frame = i2c_cost([BusWrite("command", bytes(6)), BusWrite("data", bytes(1024))])
        >>> through_mux(frame, idle_disconnect=True).bus_bytes - frame.bus_bytes
        8
    """
    writes = 2 * cost.transfers if idle_disconnect else selects
    return BusCost(
        transactions=cost.transactions + writes * MUX_WRITE.transactions,
        payload_bytes=cost.payload_bytes + writes * MUX_WRITE.payload_bytes,
        bus_bytes=cost.bus_bytes + writes * MUX_WRITE.bus_bytes,
        joined=cost.joined,
    )
