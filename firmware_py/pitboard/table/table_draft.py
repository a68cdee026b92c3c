"""The Garage draft at the table: each player picks upgrades with the tray buttons and GO. A
mixin of :class:`~pitboard.table.table.Table`.

A Garage race with a draft starts in the flow's ``draft`` state. The engine says whose pick it
is (the rulebook's order: rounds 1 and 3 from the last grid position to the first, round 2
from the first to the last; the snake draft as the engine deals it). That player's tray shows
the market, one card over each button (past 7 cards the last button pages): a button selects
a card (its name and symbols show above), GO takes it. Bots pick at once. Each pick is an
engine decision, journalled like a plan, so a power cut mid-draft resumes at the same pick and
staff undo takes picks back. When the last pick is made the table goes on to round 1.

Cards stay over the same button while others pick (only taken cards leave), like a hand.
"""

from __future__ import annotations

from ..engine.decisions import Decision, Pending
from ..engine.garage.draft import DRAFT, DraftDrop, DraftPick, DraftSwap
from .draft_view import draft_status
from .station import SLOTS, Station
from .table_base import TableBase


class DraftMixin(TableBase):
    """Draft picks at the stations (see :class:`~pitboard.table.table.Table`).

    Example::

        >>> from pitboard.hw.events import GoPressed, SlotPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, laps=1, modules={"garage": {"choose": "draft"}})
        >>> table.handle(GoPressed(station=0)); table.handle(SlotPressed(station=0, slot=6))
        >>> table.state, table.views[0].title, table.views[0].message
        ('draft', 'DRAFT 1/3', 'YOUR PICK')
        >>> market = [card.code for card in table.views[0].cards if card.code]
        >>> table.handle(SlotPressed(station=0, slot=0)); table.handle(GoPressed(station=0))
        >>> table.race.log[-1] == DraftPick(0, market[0]), draft_status(table.race).round
        (True, 2)
    """

    def _draft_step(self, pending: Pending) -> bool:
        """Called by the engine loop on a draft pick: a bot's or a forced one is made (True:
        go on); a person's is waited for (False)."""
        assert self.race is not None
        car = pending.cars[0]
        if car in self.bots:
            self._commit_quiet(self.bots[car].choose(self.race, car))
            return True
        if pending.forced:
            self._commit_quiet(pending.options[0])
            return True
        self._sync_hands()
        return False

    def _picker(self, st: Station) -> bool:
        """Is it ``st``'s pick now?"""
        race = self.race
        if race is None or race.phase != DRAFT or st.car is None or st.idle_bot:
            return False
        return race.pending().cars == (st.car,)

    def _draft_key(self, st: Station, slot: int) -> None:
        if not self._picker(st):
            return
        if st.paged and slot == SLOTS - 1:
            st.page += 1
            return
        visible = st.visible_slots()
        if slot >= len(visible) or st.slots[visible[slot]] is None:
            return
        index = visible[slot]
        st.message = ""
        st.selected = set() if index in st.selected else {index}  # one card at a time

    def _draft_go(self, st: Station) -> None:
        if not self._picker(st):
            return
        assert self.race is not None and st.car is not None
        chosen = st.selected_cards()
        status = draft_status(self.race)
        if status is not None and status.swapping:  # a season's optional swap, two steps
            self._swap_go(st, chosen)
            return
        if not chosen:
            st.message = "press a card first"
            return
        decision: Decision = DraftDrop(st.car, chosen[0]) if status and status.dropping \
            else DraftPick(st.car, chosen[0])
        st.clear()
        self._commit(decision)

    def _swap_go(self, st: Station, chosen: tuple[str, ...]) -> None:
        """GO in the swap step: give the card pressed (then take one), keep all, take the card
        pressed for the one given, or back to choosing what to give."""
        assert st.car is not None
        give = st.swap_give
        if give is None and not chosen:  # keep every upgrade
            st.clear()
            self._commit(DraftSwap(st.car, "", ""))
        elif give is None:  # the market comes to the tray (trays.py)
            st.clear()
            st.swap_give = chosen[0]
        elif not chosen:  # back: choose again what to give
            st.clear()
        else:
            st.clear()
            self._commit(DraftSwap(st.car, give, chosen[0]))
        self._sync_hands()

    def on_exit_draft(self) -> None:
        """Round 1 begins: the trays went from the market to the hands with the last pick
        (trays.py); what was pressed in the draft goes."""
        for st in self.stations:
            st.page = 0
            st.clear()
