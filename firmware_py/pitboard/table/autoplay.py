"""Hands on the tray: turn a bot's decision into the lever moves and button presses a person
would make, one input event at a time.

Used by the desktop simulation's ``--autoplay``, the kiosk soak and the power-cut tests, so they
exercise the same input path as players. Stateless: the next input depends only on the table
(race, station lever, tray and selection), so it carries on correctly after a resume.
"""

from __future__ import annotations

from collections import Counter

from ..bots import Bot, HeuristicBot
from ..engine import decisions as dec
from ..engine.decisions import Decision, Discard, Plan, React, Slipstream
from ..engine.garage.draft import DraftDrop, DraftPick, DraftSwap
from ..engine.race import Race
from ..engine.snapshot import race_from_dict, race_to_dict
from ..hw.events import GoPressed, LeverMoved, SlotPressed, StationEvent
from . import flow
from .station import SLOTS, Station
from .table import Table
from .turn import DISCARD_KEY, SLIP_KEY, TOGGLES, TurnChoices, shown_for
from .turn_symbols import MORE_KEY, SYMBOLS, SymbolKey, page_keys, symbol_keys


def next_input(table: Table, *, brain: Bot | None = None,
               stations: set[int] | None = None) -> StationEvent | None:
    """The next press for a station that owes a decision (None: nobody does).

    ``stations`` limits the hands to those stations (default: every seated, non-bot one).

    Example::

        while (event := next_input(table)) is not None:
            table.handle(event)
    """
    race = table.race
    if race is not None and race.over and table.state == flow.RESULTS and \
            table.season is not None and table.season.between:
        # a championship season: GO on the standings starts the next race
        for st in table.stations:
            if st.car is not None and not st.idle_bot and \
                    (stations is None or st.index in stations):
                return GoPressed(station=st.index)
        return None
    if race is None or race.over:
        return None
    bot = brain or hands_bot(race)
    if table.state == flow.SETUP or (table.state in (flow.PLANNING, flow.RESOLUTION)
                                     and table.legend_moves_waiting()):
        # the set-up checklist's pages, or a Legend car moved on the board: GO at a seat
        for st in table.stations:
            if st.car is not None and not st.idle_bot and \
                    (stations is None or st.index in stations):
                return GoPressed(station=st.index)
        return None
    if table.state == flow.DRAFT:
        return _draft_input(table, bot, stations)
    if table.state == flow.PLANNING:
        waiting = set(race.pending().cars)
        for st in table.stations:
            if st.car is None or st.idle_bot or st.car not in waiting:
                continue
            if stations is not None and st.index not in stations:
                continue
            return _plan_input(table, st, bot.choose(race, st.car))
        return None
    if table.state == flow.RESOLUTION:
        current = table.current_station()
        if current is None or (stations is not None and current.index not in stations):
            return None
        assert race.current is not None
        car = race.current.id
        if race.phase == dec.DISCARD:
            decision = bot.choose(race, car)
            assert isinstance(decision, Discard)
            return _select(current, decision.cards) or GoPressed(station=current.index)
        rest = _rest_of_turn(race, car, bot)
        shown = shown_for(current.turn, race, car)
        return _symbol_input(current, race, car, rest, shown) or _turn_input(current, shown, rest)
    return None


def _draft_input(table: Table, bot: Bot, stations: set[int] | None) -> StationEvent | None:
    """The press towards the bot's draft pick (or snake drop): its card, then GO."""
    assert table.race is not None
    pending = table.race.pending()
    st = next((s for s in table.stations if s.car in pending.cars and not s.idle_bot), None)
    if st is None or st.car is None or (stations is not None and st.index not in stations):
        return None
    decision = bot.choose(table.race, st.car)
    if isinstance(decision, DraftSwap):  # a season's swap: the card to give, then to take
        if not decision.give:  # keep them all (back first, if a card was given)
            return _select(st, ()) or GoPressed(station=st.index)
        if st.swap_give is None:
            return _select(st, (decision.give,)) or GoPressed(station=st.index)
        return _select(st, (decision.take,)) or GoPressed(station=st.index)
    assert isinstance(decision, DraftPick | DraftDrop)
    return _select(st, (decision.card,)) or GoPressed(station=st.index)


def hands_bot(race: Race, *, seed: int = 0) -> Bot:
    """The mind behind the hands for ``race``: in a Garage race one that uses upgrades."""
    if "garage" in race.setup.modules:
        from ..garage_bots import GarageBot

        return GarageBot(seed=seed)
    return HeuristicBot(seed=seed)


def _plan_input(table: Table, st: Station, decision: Decision) -> StationEvent:
    assert isinstance(decision, Plan) and table.race is not None
    if table.target_gear(st) != decision.gear:
        return LeverMoved(station=st.index, gear=decision.gear)
    if decision.gear in table.race.plan_rule(decision.car).clogged:
        return GoPressed(station=st.index)
    return _select(st, decision.cards) or GoPressed(station=st.index)


def _rest_of_turn(race: Race, car: int, bot: Bot) -> list[Decision]:
    """What ``bot`` would decide for the rest of ``car``'s turn (played on a copy)."""
    future = race_from_dict(race_to_dict(race), track=race.track)
    out: list[Decision] = []
    while future.current is not None and future.current.id == car and \
            future.phase in (dec.REACT, dec.SLIPSTREAM, dec.DISCARD):
        decision = bot.choose(future, car)
        future.apply(decision)
        out.append(decision)
    return out


def _turn_input(st: Station, shown: TurnChoices, rest: list[Decision]) -> StationEvent:
    """The press that brings the turn screen closer to ``rest``: a toggle the bot would set
    otherwise, then DISC if it discards, else GO."""
    actions = {d.action for d in rest if isinstance(d, React)}
    slipping = next((d for d in rest if isinstance(d, Slipstream)), None)
    slip = slipping.take if slipping is not None else None
    if slipping is not None and slipping.take and len(shown.reaches) > 1:
        reach = slipping.spaces or shown.reaches[0]
        if reach in shown.reaches and shown.slipstream and reach != shown.reach:
            return SlotPressed(station=st.index, slot=SLIP_KEY)  # the next distance
    discard = next((bool(d.cards) for d in rest if isinstance(d, Discard)), None)
    wanted = {"adrenaline": dec.ADRENALINE in actions, "boost": dec.BOOST in actions,
              "cooling": dec.COOLDOWN in actions, "slipstream": slip}
    for slot, name in TOGGLES.items():
        now = getattr(shown, name) if name != "cooling" or shown.cool else None
        if now is not None and wanted[name] is not None and now != wanted[name]:
            return SlotPressed(station=st.index, slot=slot)
    if discard and shown.discard is not None:
        return SlotPressed(station=st.index, slot=DISCARD_KEY)
    return GoPressed(station=st.index)


def _symbol_input(st: Station, race: Race, car: int, rest: list[Decision],
                  shown: TurnChoices) -> StationEvent | None:
    """The press on a Garage page of the turn screen that brings it closer to ``rest``: the
    salvage picker's cards and GO, a symbol's key, or MORE to the page holding the key (or
    the toggles, when a toggle needs changing). None: nothing to do there."""
    intent = st.turn if st.turn is not None and st.turn.turn == (race.round, car) else None
    first = rest[0] if rest and isinstance(rest[0], React) and rest[0].action in SYMBOLS \
        else None
    if intent is not None and intent.picker is not None:
        picker = intent.picker
        wanted = Counter(d.card for d in rest[:picker.most] if isinstance(d, React)
                         and d.action == "salvage")
        chosen = Counter(picker.chosen_cards())
        per_page = SLOTS - 1 if len(picker.cards) > SLOTS else SLOTS
        first_index = picker.page * per_page
        for button, code in enumerate(picker.cards[first_index:first_index + per_page]):
            index = first_index + button
            if (index in picker.chosen and chosen[code] > wanted[code]) or \
                    (index not in picker.chosen and chosen[code] < wanted[code]):
                return SlotPressed(station=st.index, slot=button)
        if chosen != wanted and per_page < SLOTS:
            return SlotPressed(station=st.index, slot=SLOTS - 1)  # another page
        return GoPressed(station=st.index)
    keys = symbol_keys(race, car)
    if not keys:
        return None
    page = intent.page if intent is not None else 0
    on_page = page_keys(keys, page)
    if first is not None:
        for key in keys:
            if _does(key, first):
                if on_page is not None and key in on_page:
                    return SlotPressed(station=st.index, slot=on_page.index(key))
                return SlotPressed(station=st.index, slot=MORE_KEY)
    if on_page is not None and isinstance(_turn_input(st, shown, rest), SlotPressed):
        return SlotPressed(station=st.index, slot=MORE_KEY)  # a toggle to change: to them
    return None


def _does(key: SymbolKey, decision: React) -> bool:
    """Does a press of ``key`` make ``decision`` (salvage: open the picker for it; up-to-N
    symbols: their key takes the most)?"""
    if key.decision.action != decision.action:
        return False
    return decision.action in ("salvage", "reduce", "supercool") or key.decision == decision


def _select(st: Station, cards: tuple[str, ...]) -> StationEvent | None:
    """A press that brings the tray selection closer to ``cards`` (None: it matches)."""
    chosen = Counter(code for i in st.selected if (code := st.slots[i]) is not None)
    wanted = Counter(cards)
    extra = chosen - wanted
    missing = wanted - chosen
    if not extra and not missing:
        return None
    visible = st.visible_slots()
    for button, index in enumerate(visible):
        code = st.slots[index]
        if code is None:
            continue
        if index in st.selected and extra[code] > 0:
            return SlotPressed(station=st.index, slot=button)
        if index not in st.selected and missing[code] > 0:
            return SlotPressed(station=st.index, slot=button)
    # what we need is on another page of the hand
    return SlotPressed(station=st.index, slot=SLOTS - 1)
