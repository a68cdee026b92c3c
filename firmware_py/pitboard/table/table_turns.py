"""The table's turns: planning and resolution input at the stations, the turn screen's
answers, and driving the engine (bots and forced decisions) until a person must act. A mixin of
:class:`~pitboard.table.table.Table`.
"""

from __future__ import annotations

import logging
from typing import Any

from ..engine import decisions as dec
from ..engine.cards import PLAYABLE
from ..engine.decisions import Decision, Discard, IllegalDecision, Plan, React
from ..engine.garage.draft import DRAFT
from ..engine.preset import answered, go
from . import flow
from .hand import in_hand_order, short_problem
from .station import SLOTS, Station
from .table_base import TableBase
from .trays import sync_trays
from .turn import DISCARD_KEY, GO_KEY, TOGGLES, TurnIntent, shown_for
from .turn_symbols import MORE_KEY, page_keys, pages, salvage_picker, symbol_keys

log = logging.getLogger("pitboard.table")


class TurnsMixin(TableBase):
    """Planning and resolution input, and the engine (see :class:`~pitboard.table.table.Table`).

    Example::

        >>> from pitboard.hw.events import GoPressed, LeverMoved, SlotPressed
        >>> from pitboard.table.table import Table
        >>> table = Table(stations=1, seed=1, laps=1)
        >>> table.handle(GoPressed(station=0)); table.handle(SlotPressed(station=0, slot=6))
        >>> st = table.stations[0]
        >>> table.handle(LeverMoved(station=0, gear=2)); table.target_gear(st)
        2
        >>> for slot in (2, 3):
        ...     table.handle(SlotPressed(station=0, slot=slot))  # two cards of the hand
        >>> table.handle(GoPressed(station=0))  # the plan: gear 2 and those cards
        >>> table.state, table.current_station() is st
        ('resolution', True)
    """

    # ------------------------------------------------------------------ planning
    def _car_of(self, st: Station) -> Any:
        if self.race is None or st.car is None:
            return None
        return self.race.cars[st.car]

    def _planning_key(self, st: Station, slot: int) -> None:
        car = self._car_of(st)
        if car is None or car.planned or car.finished or st.lever_fault:
            return
        if st.paged and slot == SLOTS - 1:
            st.page += 1
            return
        visible = st.visible_slots()
        if slot >= len(visible):
            return
        index = visible[slot]
        code = st.slots[index]
        if code is None:
            return
        st.focus = index
        if not PLAYABLE[code]:
            st.message = "Heat can't be played"
            return
        st.message = ""
        st.selected ^= {index}

    def target_gear(self, st: Station) -> int:
        car = self._car_of(st)
        return st.target_gear(int(car.gear) if car is not None else 1)

    def _commit_plan(self, st: Station) -> None:
        car = self._car_of(st)
        assert self.race is not None
        if car is None or car.planned or car.finished:
            return
        if st.lever_fault:
            st.message = "fix the gear lever"
            return
        gear = self.target_gear(st)
        rule = self.race.plan_rule(car.id)
        cards = in_hand_order(car.hand, st.selected_cards())
        if gear in rule.clogged:  # the hand decides: every playable card
            cards = rule.playable
        problem = self.race.plan_problem(Plan(car.id, gear, cards))
        if problem is not None:
            st.message = short_problem(problem)
            return
        self._commit(Plan(car.id, gear, cards))
        st.clear()

    # ------------------------------------------------------------------ resolution
    def current_station(self) -> Station | None:
        race = self.race
        if race is None or race.current is None:
            return None
        car = race.current.id
        return next((s for s in self.stations if s.car == car and not s.idle_bot), None)

    def _resolution_key(self, st: Station, slot: int) -> None:
        race = self.race
        if race is None or self.current_station() is not st or race.current is None:
            return
        car = race.current.id
        phase = race.phase
        if phase in (dec.REACT, dec.SLIPSTREAM):
            intent = self._intent(st, car)
            if self._symbol_key(st, intent, car, slot):
                return
            shown = shown_for(intent, race, car)
            if slot in TOGGLES:
                intent.toggle(TOGGLES[slot], shown)
            elif slot == DISCARD_KEY and shown.discard is not None:
                intent.overrides["discard"] = True
                self._turn_go(st, car)
            elif slot == GO_KEY:
                self._turn_go(st, car)
        elif phase == dec.DISCARD:
            if st.paged and slot == SLOTS - 1:
                st.page += 1
                return
            visible = st.visible_slots()
            if slot < len(visible):
                index = visible[slot]
                code = st.slots[index]
                if code is not None:
                    st.focus = index
                kept = race.undiscardable(race.cars[car])  # an Event may let Heat go
                most = race.discard_limit(race.cars[car])  # ... or allow only one card
                if code is not None and code not in kept:
                    if index not in st.selected and most is not None and \
                            len(st.selected) >= most:
                        st.message = f"at most {most} card{'s' if most != 1 else ''} this race"
                    else:
                        st.selected ^= {index}
                elif code is not None:
                    st.message = "Heat/Stress stay in hand" if len(kept) > 1 else \
                        f"{'Heat' if 'H' in kept else 'Stress'} stays in hand"

    def _resolution_go(self, st: Station) -> None:
        race = self.race
        if race is None or self.current_station() is not st or race.current is None:
            return
        car = race.current.id
        if race.phase in (dec.REACT, dec.SLIPSTREAM):
            intent = self._intent(st, car)
            if intent.picker is not None:
                self._salvage(st, intent, car)
                return
            self._turn_go(st, car)
        elif race.phase == dec.DISCARD:
            hand = race.cars[car].hand
            self._commit(Discard(car, in_hand_order(hand, st.selected_cards())))
            st.clear()

    # ------------------------------------------------------------------ the turn screen
    def _intent(self, st: Station, car: int) -> TurnIntent:
        """The station's toggles for ``car``'s turn now (fresh each car-turn)."""
        assert self.race is not None
        turn = (self.race.round, car)
        if st.turn is None or st.turn.turn != turn:
            st.turn = TurnIntent(turn=turn)
        return st.turn

    def _resolving(self, car: int, phase: str) -> bool:
        race = self.race
        return race is not None and race.phase == phase and race.current is not None \
            and race.current.id == car

    def _turn_go(self, st: Station, car: int) -> None:
        """GO on the turn screen: the React decisions shown, then the later steps (slipstream,
        discard) answered as shown (see :meth:`_answer`): the one-GO path of
        :mod:`pitboard.engine.preset`, which the forecast plays before GO."""
        assert self.race is not None
        intent = self._intent(st, car)
        shown = shown_for(intent, self.race, car)
        intent.answers = shown
        if self.race.phase == dec.SLIPSTREAM:
            self._commit(intent.slipstream(car, shown))
            return
        for decision in go(self.race, car, shown):
            self._commit(decision)
        if self._resolving(car, dec.REACT):
            intent.page = 0  # a Boost's flip let a symbol in (accelerate): ask first

    # ------------------------------------------------------------------ Garage symbols
    def _symbol_key(self, st: Station, intent: TurnIntent, car: int, slot: int) -> bool:
        """A tray button on a Garage page of the turn screen (see turn_symbols.py); False when
        the button is the toggles page's."""
        assert self.race is not None
        picker = intent.picker
        if picker is not None:  # the discard pile in the tray
            per_page = SLOTS - 1 if len(picker.cards) > SLOTS else SLOTS
            if per_page < SLOTS and slot == SLOTS - 1:
                picker.page = (picker.page + 1) % -(-len(picker.cards) // per_page)
                return True
            index = picker.page * per_page + slot
            if index < len(picker.cards):
                st.message = picker.toggle(index)
                if len(picker.chosen) == picker.most:  # all the symbol allows: done, no GO
                    self._salvage(st, intent, car)
            return True
        keys = symbol_keys(self.race, car)
        if not keys:
            return False
        if slot == MORE_KEY:
            intent.page = (intent.page + 1) % pages(keys)
            return True
        shown = page_keys(keys, intent.page)
        if shown is None:  # the toggles page
            return False
        if slot < len(shown):
            key = shown[slot]
            if key.picks:
                intent.picker = salvage_picker(self.race, car, key.most)
                st.message = ""
            else:
                intent.page = 0
                self._commit(key.decision)
        elif slot == GO_KEY:
            self._turn_go(st, car)
        return True

    def _salvage(self, st: Station, intent: TurnIntent, car: int) -> None:
        """GO in the salvage picker: each chosen card back into the deck (none: no salvage)."""
        assert intent.picker is not None
        cards = intent.picker.chosen_cards()
        intent.picker = None
        intent.page = 0
        st.message = ""
        for code in cards:
            if not self._resolving(car, dec.REACT):
                return
            self._commit(React(car, "salvage", 0, code))

    def _answer(self, car: int) -> Decision | None:
        """The decision a person's GO already gave for the step ``car`` is at (None: ask)."""
        race = self.race
        st = next((s for s in self.stations if s.car == car and not s.idle_bot), None)
        if race is None or st is None or st.turn is None or st.turn.turn != (race.round, car):
            return None
        return answered(race, car, st.turn.answers)

    # ------------------------------------------------------------------ engine
    def _commit(self, decision: Decision) -> None:
        """Apply a decision, make it durable, then let bots and forced steps run."""
        assert self.race is not None
        try:
            self.race.apply(decision)
        except IllegalDecision as exc:  # a UI bug or a stale press: refuse, keep going
            log.warning("refused %s: %s", decision, exc)
            return
        self._sync_hands()  # after every decision: a restored table replays the same (trays.py)
        if self.recorder is not None:
            self.recorder.decision(decision)
        self._drive()

    def _drive(self) -> None:
        """Run bot seats and forced decisions until a person must act; follow the flow."""
        race = self.race
        if race is None:
            return
        while True:
            if race.over:
                if self.state in (flow.PLANNING, flow.RESOLUTION):
                    self.race_over()
                    if self.kiosk:
                        self.deadline = self.clock() + self.kiosk.results_seconds
                return
            pending = race.pending()
            if pending.kind == DRAFT:  # the Garage draft (table_draft.py)
                if self._draft_step(pending):
                    continue
                return
            if pending.kind == dec.PLAN:
                if self.state == flow.RESOLUTION:
                    self.next_round()
                elif self.state == flow.DRAFT:
                    self.draft_done()
                bots = [c for c in pending.cars if c in self.bots]
                if bots:
                    self._commit_quiet(self.bots[bots[0]].choose(race, bots[0]))
                    continue
                self._sync_hands()
                return
            if self.state == flow.PLANNING:
                self.plans_locked()
            car = pending.cars[0]
            if car in self.bots:
                self._commit_quiet(self.bots[car].choose(race, car))
                continue
            if pending.forced:
                self._commit_quiet(pending.options[0])
                continue
            answer = self._answer(car)
            if answer is not None:
                self._commit_quiet(answer)
                continue
            self._sync_hands()
            return

    def _commit_quiet(self, decision: Decision) -> None:
        assert self.race is not None
        self.race.apply(decision)
        self._sync_hands()
        if self.recorder is not None:
            self.recorder.decision(decision)

    def _sync_hands(self) -> None:
        """Every tray as the race stands (trays.py: the market during the draft, a locked plan
        with its cards, else the hand), cards kept in their slots."""
        if self.race is None:
            return
        sync_trays(self.race, self.stations)
