"""One player station's table-side state: its seat, tray slots, selection and lever."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .turn import TurnIntent

SLOTS = 7


@dataclass
class Station:
    """What the table remembers about one station between input events.

    Example::

        st = Station(index=0)
        st.sync_slots(["1", "4", "S"])
        st.slots[:3]  # ['1', '4', 'S']
    """

    index: int
    #: the car this station drives in the current race (None: not playing)
    car: int | None = None
    joined: bool = False
    name: str = ""
    #: lever position as last reported (None until the lever first settles)
    lever: int | None = None
    lever_fault: tuple[int, ...] = ()
    input_fault: str = ""
    #: card code under each tray slot (None = empty slot); kept stable as the hand changes
    slots: list[str | None] = field(default_factory=lambda: [None] * SLOTS)
    selected: set[int] = field(default_factory=set)
    #: the slot of the card last pressed (its meaning shows on the detail line)
    focus: int | None = None
    message: str = ""
    #: last time a person touched this station (table clock)
    last_input: float = 0.0
    #: the seat was handed to a bot after sitting idle (kiosk)
    idle_bot: bool = False
    #: which page of the hand the tray shows when the hand holds more than 7 cards
    page: int = 0
    #: the lobby page this station shows (lobby_options.PAGES: 0 = the race, then modules)
    lobby_page: int = 0
    #: the player's changes to the likely answer of their car's resolution (see turn.py)
    turn: TurnIntent | None = None
    #: what the tray holds: the draft's market or the car's hand (trays.py)
    tray: str = ""
    #: a championship season's swap, after its draft round: the upgrade this player chose to
    #: give back (the tray then shows the market to take one from); None: not chosen yet
    swap_give: str | None = None

    def visible_slots(self) -> list[int]:
        """Hand slots under the 7 tray buttons; past 7 cards the last button pages."""
        if len(self.slots) <= SLOTS:
            return list(range(len(self.slots)))
        per_page = SLOTS - 1
        pages = -(-len(self.slots) // per_page)
        self.page %= pages
        start = self.page * per_page
        return list(range(start, min(start + per_page, len(self.slots))))

    @property
    def paged(self) -> bool:
        return len(self.slots) > SLOTS

    def sync_slots(self, hand: list[str]) -> None:
        """Keep cards in their slots; new cards fill the empty slots left to right.

        Players find a card where they left it, which matters when the tray has physical
        buttons under fixed positions.
        """
        want = Counter(hand)
        kept: list[str | None] = []
        for code in self.slots:
            if code is not None and want[code] > 0:
                want[code] -= 1
                kept.append(code)
            else:
                kept.append(None)
        incoming = []
        for code in hand:
            if want[code] > 0:
                want[code] -= 1
                incoming.append(code)
        it = iter(incoming)
        self.slots = [code if code is not None else next(it, None) for code in kept]
        extra = list(it)  # a hand above 7 (spin-out Stress) spills past the tray
        if extra:
            self.slots.extend(extra)
        else:
            del self.slots[max(SLOTS, _last_filled(self.slots) + 1):]
        self.selected = {s for s in self.selected if s < len(self.slots) and self.slots[s]}
        if self.focus is not None and (self.focus >= len(self.slots) or not self.slots[self.focus]):
            self.focus = None

    def target_gear(self, gear: int) -> int:
        """The gear the lever asks for (the car's ``gear`` until the lever first settles)."""
        return self.lever if self.lever is not None else gear

    def selected_cards(self) -> tuple[str, ...]:
        return tuple(c for i in sorted(self.selected) if (c := self.slots[i]) is not None)

    def focused(self) -> str | None:
        """The card last pressed, while it stays in its slot."""
        return self.slots[self.focus] if self.focus is not None else None

    def clear(self) -> None:
        """Forget what was pressed (a selection, its page, the card last pressed, a message,
        the turn screen's toggles): after a decision the station shows the race as it stands."""
        self.selected.clear()
        self.focus = None
        self.message = ""
        self.turn = None
        self.page = 0
        self.swap_give = None

    def release(self) -> None:
        """Leave the seat, with every per-seat flag: the car, joined, a bot's takeover, the tray
        and its page. (A takeover flag left behind once swallowed the next GO in the attract
        loop.) Hardware state -- the lever, its faults -- stays: it belongs to the station."""
        self.car = None
        self.joined = False
        self.idle_bot = False
        self.slots = [None] * SLOTS
        self.page = 0
        self.lobby_page = 0  # the next lobby opens on the race page
        self.tray = ""
        self.clear()


def _last_filled(slots: list[str | None]) -> int:
    for i in range(len(slots) - 1, -1, -1):
        if slots[i] is not None:
            return i
    return -1
