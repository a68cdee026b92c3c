"""The desktop keyboard as station hardware: key map, key decoding and the autopilot.

The simulation (:mod:`pitboard.sim`) has one keyboard for every station, so one station is *in
focus* and the keys act on its lever and tray, like a person walking round the table:

    Tab or →            next station in focus (Shift-Tab or ←: previous)
    1 2 3 4             put the focused station's gear lever in that gear
    ↑ ↓                 lever one gear up / down
    a s d f g h j       tray slot buttons 1..7, left to right (the home row)
    Space or Enter      GO
    q, Ctrl-C, Ctrl-D   quit

:class:`Keyboard` turns key names into the same :mod:`pitboard.hw.events` a station's buttons
post. :class:`AutoPilot` types for the players: :mod:`pitboard.table.autoplay` turns a
:class:`~pitboard.bots.HeuristicBot`'s decision into lever moves and button presses, and the
autopilot presses the keys for them, so an autoplayed race goes through exactly the input path
a person uses.

Example::

    >>> kb = Keyboard(stations=2)
    >>> kb.press("tab"), kb.focus
    ([], 1)
    >>> kb.press("3"), kb.press("d"), kb.press("space")
    ([LeverMoved(station=1, gear=3)], [SlotPressed(station=1, slot=2)], [GoPressed(station=1)])
    >>> keys, rest = decode("\\x1b[Aq\\x1b[")
    >>> keys, rest
    (['up', 'q'], '\\x1b[')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bots import Bot, HeuristicBot
from ..garage_bots import GarageBot
from ..hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from . import flow
from .autoplay import hands_bot, next_input
from .station import SLOTS
from .table import Table

__all__ = [
    "GEARS",
    "HELP",
    "QUIT_KEYS",
    "SLOT_KEYS",
    "AutoPilot",
    "AutoplayStuck",
    "Keyboard",
    "Quit",
    "decode",
    "key_for",
    "key_label",
]

#: tray slot buttons 0..6 (the home row, in tray order)
SLOT_KEYS = "asdfghj"
GEARS = 4
QUIT_KEYS = frozenset({"q", "Q", "ctrl-c", "ctrl-d"})
#: the key map in two lines of at most 80 characters (drawn under the screens)
HELP = (
    "Tab/←→ station   1-4 or ↑↓ gear lever   Space/Enter GO   q quit",
    "tray slots: a s d f g h j (shown under the screen in focus)",
)

_SINGLE = {"\t": "tab", "\r": "enter", "\n": "enter", " ": "space", "\x03": "ctrl-c",
           "\x04": "ctrl-d"}
# final byte of ESC [ ... or ESC O ... → key
_FINAL = {"A": "up", "B": "down", "C": "right", "D": "left", "Z": "backtab"}
_LABELS = {"tab": "Tab", "backtab": "Shift-Tab", "space": "Space", "enter": "Enter",
           "up": "↑", "down": "↓", "left": "←", "right": "→"}


def decode(text: str) -> tuple[list[str], str]:
    """Key names in ``text`` and what is left over (an escape sequence cut off at the end).

    Printable characters are their own names; Tab, Enter, Space, arrows, Shift-Tab, Ctrl-C and
    Ctrl-D get names (``"tab"``, ``"up"`` ...). Other control characters and unknown escape
    sequences (function keys, Alt) are dropped; a lone Esc is ``"esc"``. Feed the leftover back
    in front of the next read.
    """
    keys: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "\x1b":
            if ch in _SINGLE:
                keys.append(_SINGLE[ch])
            elif ch.isprintable():
                keys.append(ch)
            i += 1
            continue
        if i + 1 == n:
            return keys, text[i:]  # maybe the start of a sequence: wait for the rest
        kind = text[i + 1]
        if kind not in "[O":
            keys.append("esc")  # Esc, or Alt+key: the key itself follows
            i += 1
            continue
        # CSI/SS3: parameter bytes, then one final byte in @..~
        j = i + 2
        while j < n and not "@" <= text[j] <= "~":
            j += 1
        if j == n:
            return keys, text[i:]
        name = _FINAL.get(text[j])
        if name is not None:
            keys.append(name)
        i = j + 1
    return keys, ""


def key_label(key: str) -> str:
    """How a key name is printed in logs and help: ``"space"`` → ``"Space"``, ``"up"`` → ``"↑"``.

    Example::

        >>> [key_label(k) for k in ("tab", "a", "space")]
        ['Tab', 'a', 'Space']
    """
    return _LABELS.get(key, key)


@dataclass(frozen=True, slots=True)
class Quit:
    """The key that was pressed means "quit" (see :data:`QUIT_KEYS`).

    Example::

        >>> Keyboard(stations=1).press("q")
        Quit()
    """


class Keyboard:
    """Every station's lever and buttons on one keyboard; tracks focus and lever positions.

    A lever stays where it was put, like the real one; pressing the gear it is already in sends
    nothing.

    Example::

        >>> kb = Keyboard(stations=1)
        >>> kb.start_events()
        [LeverMoved(station=0, gear=1)]
        >>> kb.press("up"), kb.press("4"), kb.press("4"), kb.press("q")
        ([LeverMoved(station=0, gear=2)], [LeverMoved(station=0, gear=4)], [], Quit())
    """

    def __init__(self, stations: int, *, gear: int = 1) -> None:
        if stations < 1:
            raise ValueError("need at least one station")
        self.stations = stations
        self.focus = 0
        self.levers = [gear] * stations

    def start_events(self) -> list[StationEvent]:
        """What the stations post at start-up: every lever settles in its gear."""
        return [LeverMoved(station=i, gear=g) for i, g in enumerate(self.levers)]

    def press(self, key: str) -> list[StationEvent] | Quit:
        """The events one key press posts (often none), or :class:`Quit`.

        ``key`` is a name from :func:`decode`; a raw ``" "``, ``"\\t"`` or ``"\\r"`` works too.
        """
        key = _SINGLE.get(key, key)
        if key in QUIT_KEYS:
            return Quit()
        st = self.focus
        if key in ("tab", "right"):
            self.focus = (st + 1) % self.stations
        elif key in ("backtab", "left"):
            self.focus = (st - 1) % self.stations
        elif key in ("up", "down") or (len(key) == 1 and "1" <= key <= str(GEARS)):
            gear = self.levers[st]
            if key == "up":
                gear = min(gear + 1, GEARS)
            elif key == "down":
                gear = max(gear - 1, 1)
            else:
                gear = int(key)
            if gear != self.levers[st]:
                self.levers[st] = gear
                return [LeverMoved(station=st, gear=gear)]
        elif len(key) == 1 and key.lower() in SLOT_KEYS:
            return [SlotPressed(station=st, slot=SLOT_KEYS.index(key.lower()))]
        elif key in ("space", "enter"):
            return [GoPressed(station=st)]
        return []


class AutoplayStuck(RuntimeError):
    """The autopilot cannot go on: no input moves the race forward (a table or UI bug).

    Raised by :meth:`AutoPilot.next_key` and by
    :meth:`~pitboard.sim.session.Sim.autoplay_step` (keys pressed without progress);
    ``pitboard sim --autoplay`` reports it in one line, exit status 1.

    Example::

        try:
            while sim.autoplay_step() is not None:
                pass
        except AutoplayStuck as exc:
            print(f"pitboard sim: autoplay stuck: {exc}", file=sys.stderr)
    """


class AutoPilot:
    """Plays every person's seat by typing: one key per :meth:`next_key` call.

    In the lobby it joins every station and presses RACE (a championship: on the standings
    between its races, GO). In the race,
    :func:`~pitboard.table.autoplay.next_input` says which lever move or button press a person
    would make next for the bot's decision; the autopilot moves the focus to that station and
    types the key for it. Returns None once the race is over.

    Example::

        table = Table(stations=2, seed=1)
        kb, pilot = Keyboard(2), AutoPilot(seed=1)
        while (key := pilot.next_key(table, kb)) is not None:
            for event in kb.press(key):
                table.handle(event)
    """

    def __init__(self, *, seed: int = 0) -> None:
        self.seed = seed
        self.brain: Bot = HeuristicBot(seed=seed)

    def next_key(self, table: Table, kb: Keyboard) -> str | None:
        """The next key to press, or None when there is nothing left to play."""
        if table.state == flow.LOBBY:
            for st in table.stations:
                if not st.joined:
                    return _focus_key(kb, st.index) or "space"
            return SLOT_KEYS[SLOTS - 1]  # RACE
        race = table.race
        if table.state == flow.RESULTS and table.season is not None and table.season.between:
            event = next_input(table, brain=self.brain)  # GO: the season's next race
            return None if event is None else _focus_key(kb, event.station) or key_for(event)
        if table.state not in (flow.SETUP, *flow.RACING) or race is None or race.over:
            return None
        if ("garage" in race.setup.modules) != isinstance(self.brain, GarageBot):
            self.brain = hands_bot(race, seed=self.seed)  # one that uses upgrades, or not
        event = next_input(table, brain=self.brain)
        if event is None:  # the table waits for a person, but nobody's hands know what to do
            raise AutoplayStuck(f"no input for {race.pending().kind} of car "
                                f"{race.pending().cars}")
        return _focus_key(kb, event.station) or key_for(event)


def key_for(event: StationEvent) -> str:
    """The key that posts ``event`` for the station in focus.

    Example::

        >>> key_for(SlotPressed(station=0, slot=6)), key_for(LeverMoved(station=0, gear=3))
        ('j', '3')
    """
    if isinstance(event, LeverMoved):
        return str(event.gear)
    if isinstance(event, SlotPressed):
        return SLOT_KEYS[event.slot]
    if isinstance(event, GoPressed):
        return "space"
    raise ValueError(f"no key posts {event!r}")


def _focus_key(kb: Keyboard, station: int) -> str:
    return "" if kb.focus == station else "tab"
