"""What the turn screen shows of the Garage: its pages (turn_symbols.py) and the upgrades'
effects this turn, mandatory ones included, as they happen (Heat paid, cards scrapped, a card
discarded for Heat it could not pay).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.events import (
    Accelerated,
    DirectPlayed,
    DraftMoved,
    Event,
    RefreshChosen,
    Revealed,
    Salvaged,
    Scrapped,
    SpeedChosen,
    StressReduced,
    SuperCooled,
    UpgradeReplaced,
)
from ..engine.race import Race
from .station import SLOTS, Station
from .turn_symbols import MORE_KEY, page_keys, pages, symbol_keys
from .upgrade_art import by_code, speed_text
from .view import CardView

#: (soft keys, toggles off, tray cards, message, extra lines) of a Garage page
Page = tuple[tuple[str, ...], tuple[int, ...], tuple[CardView, ...], str, tuple[str, ...]]


def card_name(code: str) -> str:
    """An upgrade by its printed name and speed ("Wings 4"); any other card by its code."""
    u = by_code(code)
    return f"{u.family} {speed_text(u)}" if u is not None else code


def symbols_page(st: Station, race: Race, car_id: int, toggles: Sequence[str],
                 off: tuple[int, ...], summary: str) -> Page | None:
    """The Garage page of ``car_id``'s turn screen at ``st`` (None: the plain turn screen, no
    symbol on offer). ``toggles``/``off``/``summary`` are the toggles page as drawn."""
    intent = st.turn if st.turn is not None and st.turn.turn == (race.round, car_id) else None
    if intent is not None and intent.picker is not None:
        picker = intent.picker
        per_page = SLOTS - 1 if len(picker.cards) > SLOTS else SLOTS
        first = picker.page * per_page
        cards = tuple(CardView(code, code, selected=first + i in picker.chosen)
                      for i, code in enumerate(picker.cards[first:first + per_page]))
        paging = ("",) * (SLOTS - 1) + ("PG>",) if per_page < SLOTS else ()
        chosen = len(picker.chosen)
        message = st.message or f"salvage {chosen}/{picker.most}: pick, then GO"
        return paging, (), cards, message, ()
    keys = symbol_keys(race, car_id)
    if not keys:
        return None
    shown = page_keys(keys, intent.page if intent is not None else 0)
    if shown is None:  # the toggles page: button 6 turns back to the symbols
        soft = list(toggles)
        soft[MORE_KEY] = "UPG"
        return tuple(soft), off, (), summary, ()
    soft = [k.label for k in shown] + [""] * (SLOTS - len(shown))
    soft[MORE_KEY] = "MORE" if pages(keys) > 2 else "TURN"
    soft[SLOTS - 1] = "GO"
    # what the keys do leads; what GO does comes after the upgrades' effects
    return tuple(soft), (), (), ", ".join(k.text for k in shown), (summary,)


def _effect(e: Event) -> str | None:
    """What the table says of one of the upgrades' events (engine/garage/symbols.py)."""
    match e:
        case Scrapped(cards=cards):
            return f"scrapped {' '.join(cards)}" if cards else "nothing to scrap"
        case UpgradeReplaced(card=card):  # the card played in its place is among the flips
            return f"{card_name(card)} discarded: no Heat"
        case DirectPlayed(card=card):
            return f"played {card_name(card)}"
        case SpeedChosen(card=card, value=value):
            return f"{card_name(card)} at {value}"
        case Salvaged(card=card):
            return f"salvaged {card}"
        case StressReduced(n=n):
            return f"dropped {n} Stress"
        case SuperCooled(n=n):
            return f"super-cooled {n}"
        case Accelerated(n=n, flips=flips):
            return f"accelerated +{n * flips}"
        case DraftMoved(spaces=spaces):
            return f"closed up {spaces}"
        case RefreshChosen(card=card):
            return f"{card_name(card)} back on deck"
    return None


def upgrade_effects(events: Iterable[Event]) -> list[str]:
    """The upgrades' effects among a turn's events, one short phrase each, in order."""
    out: list[str] = []
    for e in events:
        says = _effect(e)
        if says is not None:
            out.append(says)
        if isinstance(e, Revealed | DirectPlayed):  # adjust acts by itself, all turn long
            for code in e.cards if isinstance(e, Revealed) else (e.card,):
                u = by_code(code)
                if u is not None and u.has("adjust"):
                    out.append(f"{card_name(code)}: corner limits {u.count('adjust'):+d}")
    return out
