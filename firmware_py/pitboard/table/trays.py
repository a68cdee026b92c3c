"""What each station's tray holds, card by card over its buttons: a function of the race's
decisions alone, so a table resumed from its journal lays the tray out as the table that was
cut (issue 23: a restored Garage draft once showed 9 slots with gaps where the uncut table
showed 7 cards on one page, so the same presses picked different cards).

A tray keeps its cards where they are while the cards it holds change (players find a card
where they left it: :meth:`~pitboard.table.station.Station.sync_slots`). Which cards it holds
(:func:`tray_cards`):

* during the Garage draft, the market (or, when the snake draft's players drop one, the car's
  own picks); in a championship season's swap step, the player whose swap it is sees their own
  upgrades until they press GO on the one to give (``Station.swap_give``), then the market;
* a car whose plan is locked in and whose turn has not come: its hand before the plan, the
  cards played marked (:func:`played_slots`), so the locked and waiting screens show the plan
  over the buttons that chose it;
* else the car's hand.

The table syncs every tray after every decision the race applies (:func:`sync_trays`), and a
restored table replays the journal's decisions doing the same (:func:`replay_trays`): same
decisions, same trays. When the draft ends the trays start afresh with the hands, and a swap's
tray starts afresh at each of its steps (what to give, what to take): a GO that chose a card to
give is no decision, so a resumed table shows the step before it, laid out as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..engine.decisions import Decision
from ..engine.race import Race
from ..engine.setup import RaceSetup
from ..track import Track
from .draft_view import draft_status
from .draft_view import tray_cards as draft_cards
from .station import SLOTS, Station

#: what a tray holds (``Station.tray``): the draft's market, or the car's hand; a season's
#: swap step: the upgrades one may give, then the market to take one from
DRAFT_TRAY, HAND_TRAY, GIVE_TRAY, TAKE_TRAY = "draft", "hand", "give", "take"


def locked(race: Race, car_id: int) -> bool:
    """Is ``car_id``'s plan locked in with its turn still to come?"""
    car = race.cars[car_id]
    current = race.current
    return car.planned and bool(car.play) and (current is None or current.id != car_id) \
        and not race.over


def tray_cards(race: Race, car_id: int, give: str | None = None) -> tuple[str, list[str]]:
    """What the tray of ``car_id``'s station holds now, and which kind of tray that is
    (``give``: the upgrade its player chose to give in a season's swap step)."""
    status = draft_status(race)
    if status is not None:
        kind = DRAFT_TRAY
        if status.swapping and status.picker == car_id:
            kind = GIVE_TRAY if give is None else TAKE_TRAY
        return kind, draft_cards(status, car_id, give)
    car = race.cars[car_id]
    if locked(race, car_id):
        return HAND_TRAY, [*car.hand, *car.play]
    return HAND_TRAY, list(car.hand)


def sync_trays(race: Race, stations: Iterable[Station]) -> None:
    """Every seated station's tray as the race stands (cards kept in their slots); a tray
    whose kind changed (the draft is over) starts afresh."""
    for st in stations:
        if st.car is None:
            continue
        kind, cards = tray_cards(race, st.car, st.swap_give)
        if kind != st.tray:
            st.slots = [None] * SLOTS
            st.page = 0
            st.tray = kind
        st.sync_slots(cards)


def replay_trays(setup: RaceSetup, log: Sequence[Decision], stations: Sequence[Station], *,
                 track: Track | None = None) -> Race:
    """The race ``log`` plays from ``setup``, every station's tray synced as the live table
    syncs it (from empty, then after each decision): what a table resumed from its journal,
    or after an undo, shows in its trays."""
    for st in stations:
        st.slots = [None] * SLOTS
        st.page = 0
        st.tray = ""
    race = Race(setup, track=track)
    sync_trays(race, stations)
    for decision in log:
        race.apply(decision)
        sync_trays(race, stations)
    return race


def played_slots(st: Station, play: Sequence[str]) -> set[int]:
    """The slots of ``st``'s tray that hold the cards played (``play``): for each card the
    leftmost slot holding one like it, so the marks follow from the plan alone."""
    want = Counter(play)
    out = set()
    for i, code in enumerate(st.slots):
        if code is not None and want[code] > 0:
            want[code] -= 1
            out.add(i)
    return out
