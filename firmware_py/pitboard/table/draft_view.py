"""The Garage draft as the stations show it: a pure reading of the engine's draft.

The engine keeps the draft (:mod:`pitboard.engine.garage.draft`): the market, whose pick it
is, the picks so far. This module turns that into what a station shows
(:class:`~pitboard.table.view.StationView` of kind ``draft``, drawn by
:mod:`pitboard.table.draft_screen`):

* the station whose pick it is sees the market over its tray buttons (each card's face drawn
  by :mod:`pitboard.table.upgrade_art`; the selected one marked with a bar, its meaning
  spelled out above) and picks with GO;
* every other station sees whose pick it is, the cards left in the market (over its tray, not
  selectable) and its own picks so far.

In a snake draft, after the two market rounds, each player drops one of their four cards: the
tray then shows that player's own cards.

Between the races of a championship season, after its one draft round, each player in turn may
swap one of their upgrades for a card left in the market, in two steps on the tray: their own
upgrades first (press the one to give, GO; or GO with none pressed: keep them all), then the
market (press the card to take, GO; GO with none pressed goes back a step).

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(cars=2, seed=3, modules={"garage": {"choose": "draft"}}))
    >>> status = draft_status(race)
    >>> status.round, status.rounds, len(status.market), status.picker in (0, 1)
    (1, 3, 5, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.garage.data import UPGRADES
from ..engine.garage.draft import DRAFT
from ..engine.garage.module import GarageModule
from ..engine.race import Race
from .station import Station
from .upgrade_art import detail
from .view import DRAFT as DRAFT_SCREEN
from .view import HEAT_CARD, UPGRADE_CARD, CardView, StationView

__all__ = ["DraftStatus", "draft_status", "draft_tray", "draft_view",
           "market_card", "tray_cards"]


@dataclass(frozen=True, slots=True)
class DraftStatus:
    """Where the draft stands, from the engine (:func:`draft_status`).

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> from pitboard.engine.garage.draft import DraftPick
        >>> race = Race(RaceSetup(cars=1, seed=3, modules={"garage": {"choose": "draft"}}))
        >>> first = draft_status(race)
        >>> race.apply(DraftPick(0, first.market[0]))
        >>> status = draft_status(race)
        >>> status.round, status.rounds, status.picks == {0: first.market[:1]}, status.dropping
        (2, 3, True, False)
    """

    #: draft round (1-based)
    round: int
    rounds: int
    #: the car whose pick (or drop) it is
    picker: int
    #: the market, in the order it was dealt (upgrade keys such as ``U7``); empty while the
    #: snake draft's players drop a card
    market: tuple[str, ...]
    #: each car's picks so far
    picks: dict[int, tuple[str, ...]]
    #: picks in this round so far, and picks the round has
    at: int
    order: tuple[int, ...]
    #: a season's swap step (after its draft round): each player may swap one upgrade
    swapping: bool = False

    @property
    def dropping(self) -> bool:
        return not self.market and not self.swapping


def garage_of(race: Race) -> GarageModule | None:
    module = race.hooks.by_key.get("garage")
    return module if isinstance(module, GarageModule) else None


def draft_status(race: Race) -> DraftStatus | None:
    """The draft now (None: the race is not drafting)."""
    garage = garage_of(race)
    if garage is None or race.phase != DRAFT or not garage.order:
        return None
    return DraftStatus(
        round=min(garage.round, garage.rounds), rounds=garage.rounds,
        picker=garage.order[garage.at], market=tuple(garage.market),
        picks={car: tuple(keys) for car, keys in garage.picks.items()},
        at=garage.at, order=tuple(garage.order), swapping=garage.swapping)


def tray_cards(status: DraftStatus, car: int | None, give: str | None = None) -> list[str]:
    """What the tray of ``car``'s station holds: the market, or while the snake draft's
    players drop a card, that car's own picks; a season's swap: its own upgrades until it
    chose one to ``give``, then the market."""
    if status.dropping or (status.swapping and give is None and car == status.picker):
        return list(status.picks.get(car, ())) if car is not None else []
    return list(status.market)


def market_card(key: str, *, selected: bool = False, disabled: bool = False) -> CardView:
    """One upgrade card of the market over a tray button: its speed(s) on the face."""
    u = UPGRADES[key]
    label = "H" if u.heat_card else "/".join(map(str, u.speeds))
    return CardView(key, label, selected=selected, disabled=disabled,
                    kind=HEAT_CARD if u.heat_card else UPGRADE_CARD)


def draft_tray(st: Station, *, active: bool) -> tuple[tuple[CardView, ...], tuple[str, ...]]:
    """The tray cards over the buttons (empty slots stay empty) and the soft keys (PG> when
    the market holds more than 7 cards)."""
    cards = []
    for index in st.visible_slots():
        key = st.slots[index]
        if key is None:
            cards.append(CardView("", "", disabled=True))
        else:
            cards.append(market_card(key, selected=active and index in st.selected,
                                     disabled=not active))
    keys = ("", "", "", "", "", "", "PG>") if st.paged else ()
    return tuple(cards), keys


def draft_view(race: Race, st: Station, names: dict[int, str]) -> StationView:
    """What ``st`` shows during the draft (``names``: car -> the name to show for it)."""
    status = draft_status(race)
    if status is None:  # between two steps (a bot's pick): say so rather than fail
        return StationView(DRAFT_SCREEN, st.index, title="DRAFT", message="drafting")
    mine = st.car == status.picker and not st.idle_bot
    if status.swapping:
        return _swap_view(status, st, names, mine)
    title = "DROP 1 OF 4" if status.dropping else f"DRAFT {status.round}/{status.rounds}"
    cards, keys = draft_tray(st, active=mine)
    own = status.picks.get(st.car, ()) if st.car is not None else ()
    yours = "yours: " + (", ".join(UPGRADES[k].label for k in own) if own else "none yet")
    if mine:
        chosen = st.selected_cards()
        verb = "drop" if status.dropping else "take"
        meaning: tuple[str, ...] = ()
        if chosen:  # spelled out by upgrade_art, as the tray's detail line does
            meaning = detail(chosen[0])
            lines: tuple[str, ...] = (f"GO: {verb} it",)
        else:
            lines = (f"{verb} a card: press it", "then GO", yours)
        message = "YOUR DROP" if status.dropping else "YOUR PICK"
    else:
        who = names.get(status.picker, f"car {status.picker + 1}")
        message = f"{who} drops" if status.dropping else f"{who} picks"
        left = f"{len(status.market)} cards left" if status.market else "each drops 1"
        lines = (left, yours) if st.car is not None else (left,)  # a station not racing
        meaning = ()
    if st.message:
        lines = (st.message, *lines)
    return StationView(DRAFT_SCREEN, st.index, title=title, message=message, lines=lines,
                       cards=cards, soft_keys=keys, round=status.round, detail=meaning)


def _swap_view(status: DraftStatus, st: Station, names: dict[int, str],
               mine: bool) -> StationView:
    """A season's swap step (see the module docstring)."""
    cards, keys = draft_tray(st, active=mine)
    meaning: tuple[str, ...] = ()
    if mine:
        chosen = st.selected_cards()
        if st.swap_give is None:
            lines: tuple[str, ...] = ("GO: give it, then take one",) if chosen else \
                ("swap one of yours?", "press it, or GO: keep all")
        else:
            give = UPGRADES[st.swap_give].label
            lines = (f"GO: {give} for it",) if chosen else \
                (f"for {give}, take:", "press one, or GO: back")
        if chosen:
            meaning = detail(chosen[0])
        message = "YOUR SWAP"
    else:
        who = names.get(status.picker, f"car {status.picker + 1}")
        message = f"{who} may swap"
        lines = (f"market: {len(status.market)} cards",)
    if st.message:
        lines = (st.message, *lines)
    return StationView(DRAFT_SCREEN, st.index, title="SWAP?", message=message,
                       lines=lines, cards=cards, soft_keys=keys, round=status.round,
                       detail=meaning)
