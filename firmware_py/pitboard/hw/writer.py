"""Display writers: one thread per I2C controller, so stations on different controllers are
drawn at the same time and the game thread never waits for a bus.

The table's :meth:`QueuedDisplay.show` only posts the finished image; the controller's
:class:`BusWriter` thread sends it through the station's
:class:`~pitboard.hw.display.StationDisplay`, which is confined to that thread (its ``show``,
``show_part``, ``poll``, ``reinit`` and ``close`` all run there). The rules that keep a press
quick on a busy bus (issue 15.13 aims at first edge to the answer's last byte within 20 ms at
100 kHz; benchmarks/press_to_glass.py prints how close each input comes):

* **frames go out in parts**: a frame holds its controller for at most :data:`CHUNK_BYTES` RAM
  bytes at a time (:meth:`~pitboard.hw.display.StationDisplay.show_part`); between parts the
  writer takes the most urgent work, so a press waits behind at most one part of another
  station's reveal (~5 ms at 100 kHz), not a whole 1 KB frame (~95 ms);
* **the acting station first**: the table posts the frame of the station whose input it just
  handled with :meth:`QueuedDisplay.show_first`; it goes out before every other frame waiting
  on that controller (after the part already on the wire), top page first;
* **a press clears the bus**: :meth:`BusWriter.hold` (the station's input board calls it on a
  contact's first edge, through :meth:`QueuedDisplay.hold`) keeps background frames, re-inits
  and display polls off the controller for up to :data:`HOLD_S` or until that station's answer
  is out (one hold per station: another station's answer does not end it), so the press's
  confirming reads and its answer find the bus free;
* **re-inits go in the gaps**: the periodic re-init (~1 KB, sent in parts) goes out only when
  no station frame waits, and each display's first one is put off by its slot
  (:data:`REINIT_STAGGER_S`), so the displays of one controller do not fall due together;
* **only the newest frame**: a frame that has not gone out yet is replaced by a newer one for
  the same display (keeping its place), so a bus can never fall behind the table by more than
  one frame per display; except the answer to a press (``show_first``): a newer ordinary frame
  goes out after it, so the table can answer GO with a small change of the screen the player
  looks at and draw the whole new screen right behind it.

Stations on one controller share it in turn (the kernel serialises transfers per controller,
mux channels included); stations on different controllers (``[[i2c.extra]]`` in a profile)
are written in parallel, one thread each.

Example (``threaded=False``: nothing runs until :meth:`BusWriter.drain`, as in tests)::

    >>> from PIL import Image
    >>> from pitboard.hw.display import StationDisplay
    >>> from pitboard.hw.oled import RecordingSerial
    >>> writer = BusWriter(name="I2C A", threaded=False)
    >>> a = writer.add(StationDisplay(serial=RecordingSerial(), station="S1"))
    >>> b = writer.add(StationDisplay(serial=RecordingSerial(), station="S2"))
    >>> b.show(Image.new("1", b.size)); a.show_first(Image.new("1", a.size, 1))
    >>> writer.order()
    ['S1', 'S2']
    >>> writer.drain(); writer.order(), a.stats.frames_sent, b.stats.frames_sent
    ([], 1, 1)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

    from pitboard.hw.display import Display, DisplayStats

log = logging.getLogger(__name__)

#: how often a writer polls its displays (retry a faulty one, periodic re-init) when idle (s)
POLL_S = 0.1
#: how long close() waits for the writer thread to finish its transfer (s)
JOIN_S = 5.0
#: the most RAM bytes of one frame in one transfer at 100 kHz: ~5 ms of bus with its address,
#: control and mux bytes. Smaller parts cost more transfer overhead per frame (~6 bus bytes
#: each with the mux cut off between transfers: 12% here), larger ones make a press wait longer
#: (the INT read at its first edge waits for the part on the wire: with 64 the lever's p99 at
#: 100 kHz in benchmarks/press_to_glass.py came out ~1 ms later than with 48)
CHUNK_BYTES = 48


def part_bytes(baudrate: int) -> int:
    """The RAM bytes of a part at the I2C clock ``baudrate``: as long on the wire at any speed
    (:data:`CHUNK_BYTES` at 100 kHz, four times that at 400 kHz, where the per-part overhead
    weighs less). Example::

        >>> part_bytes(100_000), part_bytes(400_000)
        (48, 192)
    """
    return max(8, CHUNK_BYTES * baudrate // 100_000)


#: the acting station's frame goes in larger parts: nothing waits behind it but another
#: press's reads, and each part costs its transfer overhead on the answer's own time (a
#: toggle's answer, up to ~150 RAM bytes in a few windows, goes in one transfer)
URGENT_CHUNK_BYTES = 192
#: the longest a first edge keeps background frames off its controller (s): the confirming
#: read comes within a few ms, and the answer right after (benchmarks/press_to_glass.py)
HOLD_S = 0.02
#: how far apart (s) the periodic re-inits of a controller's displays fall: display ``slot``
#: has its first one ``slot`` times this later (so 3 due at once never put 3 KB ahead of a reveal)
REINIT_STAGGER_S = 2.5


@dataclass(slots=True)
class _Frame:
    image: Image.Image
    urgent: bool
    seq: int
    #: an urgent frame (a press's answer) is never replaced before it is on the glass: a
    #: newer ordinary frame for the same display waits here and goes out after it
    then: Image.Image | None = None


class BusWriter:
    """The thread that draws the displays of one I2C controller (or SPI bus).

    ``threaded=False`` starts no thread: :meth:`drain` sends what is posted, in the same order
    the thread would (tests, benchmarks); :meth:`step` sends one part. See the module docstring
    for the rules.

    Example (as :func:`pitboard.app.with_writers` makes one per controller)::

        >>> from PIL import Image
        >>> from pitboard.hw.display import StationDisplay
        >>> from pitboard.hw.oled import RecordingSerial
        >>> writer = BusWriter(name="I2C A", chunk_bytes=part_bytes(100_000))  # its thread starts
        >>> screen = writer.add(StationDisplay(serial=RecordingSerial(), station="S1"))
        >>> screen.show(Image.new("1", screen.size))  # returns at once
        >>> writer.flush(timeout=10), screen.stats.frames_sent
        (True, 1)
        >>> writer.close()  # stops the thread, closes (blanks) the displays
    """

    def __init__(self, *, name: str, threaded: bool = True, poll_s: float = POLL_S,
                 chunk_bytes: int = CHUNK_BYTES, clock: Callable[[], float] = time.monotonic,
                 ) -> None:
        if chunk_bytes < 1:
            raise ValueError("chunk_bytes must be positive")
        self.name = name
        self._poll_s = poll_s
        self._chunk = chunk_bytes
        self._clock = clock
        self._next_poll = clock() + poll_s
        self._cond = threading.Condition()
        self._displays: list[Display] = []
        #: slots whose frames always go after the stations' (the race-control display)
        self._background: set[int] = set()
        self._pending: dict[int, _Frame] = {}
        #: the frame whose part is on the wire now (slot, frame): a newer post keeps its place
        self._sending: tuple[int, _Frame] | None = None
        self._reinit: set[int] = set()
        #: re-inits asked for explicitly (request_reinit): they start the refresh over, init
        #: commands included, even one under way (the panel may have browned out meanwhile)
        self._restart: set[int] = set()
        #: when a re-init part goes out even though station frames wait (one part per poll_s:
        #: a stream of frames must not starve a refresh or a faulty display's recovery)
        self._reinit_due = float("inf")
        #: re-inits to finish at an answer's priority: the display answered a press half-way
        #: through its refresh, and the rest of its RAM is the refresh's to write
        self._reinit_urgent: set[int] = set()
        #: per held slot, when the hold runs out
        self._holds: dict[int, float] = {}
        #: displays to keep off the bus (True) or let back (False), as the app's mux guard asks
        #: from the game thread: applied on the writer's thread, which alone drives a display
        self._hold_backs: dict[int, bool] = {}
        self._seq = 0
        self._busy = False
        self._stopped = False
        #: frames sent, frames replaced by a newer one before they went out, and parts sent
        self.sent = 0
        self.coalesced = 0
        self.parts = 0
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name=f"display writer {name}",
                                            daemon=True)
            self._thread.start()

    def add(self, display: Display, *, background: bool = False) -> QueuedDisplay:
        """Hand ``display`` to this writer; the table uses the returned proxy. A
        ``background`` display's frames go after every station's frame waiting (the race-control
        display: nobody waits for it the way a player waits for their station)."""
        with self._cond:
            self._displays.append(display)
            slot = len(self._displays) - 1
            if background:
                self._background.add(slot)
            stagger = getattr(display, "stagger_refresh", None)
            if callable(stagger):
                stagger(slot * REINIT_STAGGER_S)
            return QueuedDisplay(self, slot, display)

    # -- the game thread's side (and the input boards') ---------------------------------------

    def post(self, slot: int, image: Image.Image, *, urgent: bool = False) -> None:
        """Queue ``image`` for display ``slot`` (replacing one not sent yet); nothing after
        :meth:`close`."""
        with self._cond:
            if self._stopped:
                log.debug("display writer %s: a frame after close is dropped", self.name)
                return
            old = self._pending.get(slot)
            sending = self._sending[1] if self._sending is not None and \
                self._sending[0] == slot else None
            if not urgent and (answer := old if old is not None else sending) is not None \
                    and answer.urgent:
                answer.then = image  # after the answer, not instead of it
                self._cond.notify_all()
                return
            if old is not None:
                self.coalesced += 1
            elif sending is not None:
                old = sending  # part-sent: the newer frame takes over its place
            self._seq += 1
            # a replaced frame keeps its place in the queue unless the new one is urgent
            seq = old.seq if old is not None and not urgent else self._seq
            self._pending[slot] = _Frame(image, urgent or (old is not None and old.urgent), seq)
            self._cond.notify_all()  # the writer, and any flush() waiting beside it

    def hold(self, slot: int, *, seconds: float = HOLD_S) -> None:
        """A contact moved on station ``slot`` of this controller: send only urgent frames for
        ``seconds`` or until that station's answer is out (its reads and its answer must not
        wait behind other stations' frames); another station's answer leaves this hold on.
        Safe from any thread (an INT callback)."""
        with self._cond:
            until = self._clock() + seconds
            self._holds[slot] = max(self._holds.get(slot, until), until)
            self._cond.notify_all()

    def request_reinit(self, slot: int) -> None:
        """Initialise display ``slot`` again (on the writer's thread): the init commands and the
        whole picture, starting over a refresh under way."""
        with self._cond:
            self._queue_reinit(slot)
            self._restart.add(slot)
            self._cond.notify_all()

    def request_hold_back(self, slot: int, held: bool) -> None:
        """Keep display ``slot`` off its bus, or let it retry at once (on the writer's thread,
        before its next part: the display itself is not thread-safe)."""
        with self._cond:
            self._hold_backs[slot] = held
            self._cond.notify_all()

    def order(self) -> list[str]:
        """The stations whose frames wait, in the order they will go out."""
        with self._cond:
            return [getattr(self._displays[slot], "station", str(slot))
                    for slot in self._queue()]

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every posted frame is on the glass (or ``timeout``); True when idle."""
        if self._thread is None:
            self.drain()
            return True
        with self._cond:
            return self._cond.wait_for(
                lambda: (not self._pending and not self._reinit and not self._busy
                         and not self._hold_backs) or self._stopped, timeout)

    def close(self, *, blank: bool = True) -> None:
        """Send what is still queued, stop the thread, then close every display."""
        with self._cond:
            if self._stopped:
                return
            self._stopped = True
            self._cond.notify_all()
        if self._thread is not None:
            # a transfer stuck in the kernel must not hold up shutdown forever
            self._thread.join(timeout=JOIN_S)
            if self._thread.is_alive():
                log.warning("display writer %s did not stop within %.0f s: its displays are "
                            "left as they are", self.name, JOIN_S)
                return
        self._send_all()
        for display in self._displays:
            try:
                display.close(blank=blank)
            except Exception as exc:  # a dead panel must not block shutdown
                log.warning("closing display %s failed: %s",
                            getattr(display, "station", "?"), exc)

    # -- the writer's side ----------------------------------------------------------------

    def _queue(self) -> list[int]:
        """Pending slots in sending order: urgent first, background last, else by age."""
        return sorted(self._pending, key=lambda s: (not self._pending[s].urgent,
                                                    s in self._background,
                                                    self._pending[s].seq))

    def _queue_reinit(self, slot: int) -> None:
        """Queue a re-init part of display ``slot`` (call with the lock held)."""
        if not self._reinit:
            self._reinit_due = self._clock() + self._poll_s
        self._reinit.add(slot)

    def _held(self) -> bool:
        now = self._clock()
        for slot in [s for s, until in self._holds.items() if until <= now]:
            del self._holds[slot]
        return bool(self._holds)

    def _held_until(self) -> float:
        return max(self._holds.values(), default=float("-inf"))

    def _take(self, *, hold: bool = True) -> tuple[int, Image.Image | None, bool, bool] | None:
        """The next job (call with the lock held): (slot, image or None for a re-init part,
        urgent, restart the re-init). In order: the acting station's frame; the rest of a
        refresh a press's answer cut into; the next station frame; a re-init part, only when
        no station frame waits (a refresh is ~1 KB: it goes in the gaps, like a background
        frame, not ahead of another station's reveal) or none went out for ``poll_s`` (a
        stream of frames must not starve it); a background frame. While the bus is
        held (``hold``) only the first two."""
        queue = self._queue()
        urgent = bool(queue) and self._pending[queue[0]].urgent
        if not urgent and self._reinit_urgent:
            # (it leaves the set when the refresh is done)
            return self._reinit_job(next(iter(self._reinit_urgent)))
        if not urgent and hold and self._held():
            return None
        now = self._clock()
        if self._reinit and not urgent and (not queue or queue[0] in self._background
                                            or now >= self._reinit_due):
            self._reinit_due = now + self._poll_s
            return self._reinit_job(next(iter(self._reinit)))
        if not queue:
            return None
        slot = queue[0]
        frame = self._pending.pop(slot)
        self._sending = slot, frame
        return slot, frame.image, frame.urgent, False

    def _reinit_job(self, slot: int) -> tuple[int, None, bool, bool]:
        """The job of a re-init part of display ``slot`` (call with the lock held): it leaves
        the queue, and says whether it starts the refresh over."""
        self._reinit.discard(slot)
        restart = slot in self._restart
        self._restart.discard(slot)
        return slot, None, False, restart

    def _send(self, slot: int, image: Image.Image | None, urgent: bool = False,
              restart: bool = False) -> None:
        display = self._displays[slot]
        done = True
        try:
            if image is None:
                # a re-init resends the whole picture: in parts too where the display can
                refresh = getattr(display, "refresh_part", None)
                if callable(refresh):
                    done = bool(refresh(self._chunk, restart=restart))
                    self.parts += 1
                else:
                    display.reinit()
            elif callable(part := getattr(display, "show_part", None)):
                done = bool(part(image, URGENT_CHUNK_BYTES if urgent else self._chunk))
                self.parts += 1
            else:
                display.show(image)
        except Exception:  # never let one display stop the others
            log.exception("display %s: drawing failed", getattr(display, "station", slot))
        with self._cond:
            sending, self._sending = self._sending, None
            if image is None:
                if not done:
                    self._queue_reinit(slot)  # the rest of it, after more urgent work
                else:
                    self._reinit_urgent.discard(slot)
                return
            if done:
                self.sent += 1
                if urgent:
                    self._holds.pop(slot, None)  # this press is answered: its hold ends
                    if slot in self._reinit and getattr(
                            self._displays[slot], "refreshing", False):
                        # the answer went out over a refresh under way: the rest of the
                        # picture is the refresh's to write, at the answer's priority
                        self._reinit_urgent.add(slot)
                if sending is not None and sending[1].then is not None \
                        and slot not in self._pending:
                    # the new screen behind the answer: first of the ordinary frames (it was
                    # drawn first), no longer ahead of other stations' answers
                    self._pending[slot] = _Frame(sending[1].then, False, sending[1].seq)
            elif sending is not None and slot not in self._pending:
                self._pending[slot] = sending[1]  # the rest of it, in its place

    def _apply_hold_backs(self) -> None:
        """Hand the displays the hold-backs asked for since the last part (writer's side)."""
        with self._cond:
            if not self._hold_backs:
                return
            changes = dict(self._hold_backs)
        for slot, held in changes.items():
            hold_back = getattr(self._displays[slot], "hold_back", None)
            if hold_back is not None:
                hold_back(held)
        with self._cond:  # done (flush() waits for it), unless asked otherwise meanwhile
            for slot, held in changes.items():
                if self._hold_backs.get(slot) is held:
                    del self._hold_backs[slot]
            self._cond.notify_all()

    def _send_all(self, *, hold: bool = False) -> None:
        self._apply_hold_backs()
        while True:
            with self._cond:
                job = self._take(hold=hold)
            if job is None:
                return
            self._send(*job)

    def drain(self) -> None:
        """Without a thread: send every queued frame now (a hold ignored), then poll the
        displays."""
        self._send_all()
        self.poll()
        self._send_all()  # a re-init the poll found due

    def poll(self) -> None:
        """Retry faulty displays and re-initialise when due (the writer's thread does this):
        a periodic re-init goes out in parts like a frame (a press waits behind one part)."""
        self._apply_hold_backs()
        for slot, display in enumerate(self._displays):
            due = getattr(display, "refresh_due", None)
            recover = getattr(display, "recovery_due", None)
            if callable(recover) and recover():
                with self._cond:  # after a fault: init and the whole picture, in parts
                    self._queue_reinit(slot)
                    self._restart.add(slot)
                continue
            if callable(due) and due():
                with self._cond:
                    self._queue_reinit(slot)
                continue
            try:
                display.poll()
            except Exception:
                log.exception("display %s: poll failed", getattr(display, "station", "?"))

    def step(self) -> bool:
        """One turn of the writer: the next part, and the displays' poll when it is due (at
        least every ``poll_s``, however busy the bus: a faulty display's retry and the
        periodic re-init must not starve behind a stream of frames; never while a press holds
        the bus). False when idle."""
        self._apply_hold_backs()
        with self._cond:
            job = self._take()
            self._busy = job is not None
            held = self._held()
        try:
            if job is not None:
                self._send(*job)
            now = self._clock()
            if not held and (job is None or now >= self._next_poll):
                self._next_poll = now + self._poll_s
                self.poll()
        finally:
            with self._cond:
                self._busy = False
                self._cond.notify_all()
        return job is not None

    def _ready(self) -> bool:
        """Work the writer may do now (call with the lock held)."""
        if self._hold_backs:
            return True
        if not self._pending and not self._reinit:
            return False
        return not self._held() or bool(self._reinit_urgent) or any(
            f.urgent for f in self._pending.values())

    def _run(self) -> None:
        while True:
            with self._cond:
                # while held, wake when the hold ends (or an urgent frame comes)
                wait = self._poll_s
                if self._held():
                    wait = min(wait, max(0.0, self._held_until() - self._clock()))
                self._cond.wait_for(lambda: self._ready() or self._stopped, wait)
                if self._stopped:
                    return
            self.step()


class QueuedDisplay:
    """What the table draws on when a display has a writer thread: the
    :class:`~pitboard.hw.display.Display` interface, posting instead of sending.

    Example::

        writer = BusWriter(name="I2C B")
        screen = writer.add(open_display(driver="ssd1306", bus="i2c", port=6))
        screen.show(image)          # returns at once; the writer thread sends it
    """

    def __init__(self, writer: BusWriter, slot: int, display: Display) -> None:
        self.writer = writer
        self._slot = slot
        self._display = display
        self.station = getattr(display, "station", "")

    @property
    def size(self) -> tuple[int, int]:
        """The display's logical image size."""
        return self._display.size

    @property
    def healthy(self) -> bool:
        """As the writer last found the display."""
        return self._display.healthy

    @property
    def stats(self) -> DisplayStats:
        """The display's counters (updated by the writer thread)."""
        return self._display.stats

    def show(self, image: Image.Image) -> None:
        """Post ``image``; the writer sends it after the frames queued before it."""
        self.writer.post(self._slot, image)

    def show_first(self, image: Image.Image) -> None:
        """Post ``image`` ahead of other stations' frames (the station that just acted)."""
        self.writer.post(self._slot, image, urgent=True)

    def hold(self) -> None:
        """A contact of this station moved: hold the bus for its reads and its answer
        (:meth:`BusWriter.hold`; the station's input board calls this on a first edge)."""
        self.writer.hold(self._slot)

    def poll(self) -> None:
        """Nothing: the writer thread polls its displays itself."""

    def hold_back(self, held: bool) -> None:
        """Keep the display off its bus, or let it retry at once (the app's mux guard; the
        writer's thread applies it)."""
        self.writer.request_hold_back(self._slot, held)

    def reinit(self) -> None:
        """Ask the writer to initialise the panel again."""
        self.writer.request_reinit(self._slot)

    def close(self, *, blank: bool = True) -> None:
        """Stop the writer (it sends what is queued) and close its displays."""
        self.writer.close(blank=blank)
