"""Engine events as plain sentences, for the text demo, the console and the logs.

Example::

    >>> from pitboard.engine.events import Boosted, RoundStarted
    >>> names = ["Ann", "Bo"].__getitem__
    >>> narrate([RoundStarted(order=(1, 0), round=2),
    ...          Boosted(car=1, card="3", value=3, speed=9, round=2)], names)
    ['\\n=== Round 2: order Bo, Ann ===', '  Bo boosts: +3, speed 9']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .engine import events as ev
from .engine.cards import CARD_TYPES


def _card(code: str | None) -> str:
    if code is None:
        return "nothing (no cards left to flip)"
    return CARD_TYPES[code].name if code in CARD_TYPES else code


def _spot(space: int, racing_line: bool, lap: int) -> str:
    line = "racing line" if racing_line else "outside spot"
    return f"space {space} ({line}), lap {lap}"


#: the Legend movement branches (engine/legends/movement.py) in words
_LEGEND = {"straight": "top speed towards", "brake": "brakes before",
           "corner": "corner speed + diamond through", "corner_stop": "stops short of the line "
           "after", "finish": "top speed to"}


def describe(event: ev.Event, name: Callable[[int], str]) -> str | None:
    """One line for an event, or None for events that only screens use."""
    who = name(event.car) if isinstance(event, ev.CarEvent) else ""
    match event:
        case ev.GridDrawn(grid=grid):
            return "Grid: " + ", ".join(f"{name(g.car)} on space {g.space} spot {g.spot}"
                                        for g in grid)
        case ev.RoundStarted(order=order):
            return f"\n=== Round {event.round}: order " + ", ".join(map(name, order)) + " ==="
        case ev.Shifted(frm=frm, to=to, heat=heat):
            return f"{who} shifts {frm} -> {to}{f' for {heat} Heat' if heat else ''}"
        case ev.Clogged(cards=cards):
            return f"{who} has a clogged hand: plays {' '.join(cards)}, does not move, gear 1"
        case ev.Revealed(cards=cards):
            return f"{who} reveals {' '.join(cards)}"
        case ev.Flipped(card=None, why=why):
            return f"  {why} flip: {_card(None)}"
        case ev.Flipped(card=card, kept=kept, why=why):
            return f"  {why} flip: {_card(card)} ({'kept' if kept else 'discarded'})"
        case ev.SpeedCounted(speed=speed):
            return f"  speed {speed}"
        case ev.Moved():
            blocked = f", blocked {event.blocked} short" if event.blocked else ""
            return (f"  moves {event.spaces} ({event.why}) to "
                    f"{_spot(event.space, event.racing_line, event.lap)}{blocked}")
        case ev.LapStarted(lap=lap):
            return f"  {who} starts lap {lap}"
        case ev.AdrenalineUsed(speed=speed):
            return f"  {who} uses Adrenaline: speed {speed}"
        case ev.Boosted(value=value, speed=speed):
            return f"  {who} boosts: +{value}, speed {speed}"
        case ev.CooledDown(n=n, engine=engine):
            return f"  {who} cools {n} Heat back into the engine ({engine} there)"
        case ev.Slipstreamed():
            return f"  {who} slipstreams"
        case ev.WeatherDrawn(weather=weather, road=road):
            tokens = ", ".join(f"corner {c} {k}" for c, k in road) or "none"
            return f"Weather: {weather}; road conditions: {tokens}"
        case ev.LegendCardFlipped(card=card):
            return f"  Legend card {card} is flipped"
        case ev.LegendDeckReshuffled():
            return "  the Legend deck is reshuffled"
        case ev.LegendMoved(colour=colour, branch=branch, corner=corner):
            where = f" corner {corner}" if corner else " the finish"
            return f"  {who} ({colour} helmet): {_LEGEND[branch]}{where}"
        case ev.CornerChecked(corner=corner, limit=limit, speed=speed, heat=heat):
            paid = f"pays {heat} Heat" if heat else "no Heat"
            return f"  corner {corner} (limit {limit}) at speed {speed}: {paid}"
        case ev.HeatPaid():
            return None  # the shift/corner/boost lines already say it
        case ev.SpunOut():
            return (f"  {who} SPINS OUT at corner {event.corner}: pays {event.heat} Heat, back "
                    f"to {_spot(event.space, event.racing_line, event.lap)}, {event.stress} "
                    "Stress to hand, gear 1")
        case ev.Discarded(cards=cards):
            return f"  {who} discards {' '.join(cards)}"
        case ev.Finished():
            return f"  {who} crosses the finish line!"
        case ev.Placed(place=place):
            return f"{who} finishes in place {place}"
        case ev.RaceOver(order=order, rounds=rounds):
            return f"\nRace over after {rounds} rounds. Final order: " + ", ".join(
                f"{i + 1}. {name(c)}" for i, c in enumerate(order))
    return _garage(event, who)


def _garage(e: ev.Event, who: str) -> str | None:
    """The Garage module's events (draft and upgrade symbols)."""
    match e:
        case ev.MarketDealt(draft_round=draft_round, cards=cards):
            return f"Draft round {draft_round}: market " + ", ".join(
                f"{c} {_card(c)}" for c in cards)
        case ev.Drafted(card=card):
            return f"  {who} drafts {card} {_card(card)}"
        case ev.DraftDropped(card=card):
            return f"  {who} drops {card} {_card(card)}"
        case ev.UpgradeReplaced(card=card, by=by):
            return (f"  {who} cannot pay the Heat of {_card(card)}: discarded, "
                    f"{_card(by)} played instead")
        case ev.Scrapped(cards=cards):
            return f"  {who} scraps {' '.join(cards) or 'nothing (no cards left)'}"
        case ev.SpeedChosen(card=card, value=value, speed=speed):
            return f"  {who} plays {_card(card)} at {value}: speed {speed}"
        case ev.DirectPlayed(card=card):
            return f"  {who} plays {_card(card)} from hand"
        case ev.Accelerated(n=n, flips=flips, speed=speed):
            return f"  {who} accelerates: +{n} for {flips} flips, speed {speed}"
        case ev.StressReduced(n=n):
            return f"  {who} discards {n} Stress"
        case ev.Salvaged(card=card):
            return f"  {who} salvages {_card(card)} into the draw deck"
        case ev.SuperCooled(n=n, engine=engine):
            return f"  {who} super-cools {n} Heat from the discard pile ({engine} there)"
        case ev.DraftMoved(spaces=spaces):
            return f"  {who} drafts {spaces} spaces up to the car ahead"
        case ev.RefreshChosen(card=card):
            return f"  {who} will put {_card(card)} back on the draw deck"
        case ev.UsedUp(cards=cards):
            return f"  {who} uses up {' '.join(_card(c) for c in cards)} (out of the game)"
        case ev.Swapped(give=None):
            return f"  {who} keeps its upgrades"
        case ev.Swapped(give=give, take=take):
            return f"  {who} swaps {give} {_card(give)} for {take} {_card(take)}"
    return _championship(e, who)


#: why a sponsor was earned, in words
_SPONSOR_WHY = {"press": "a Press Corner", "slipstream": "slipstreaming a Press Corner",
                "lap": "one of the first to finish lap 1", "record": "a speed record",
                "passing": "passing cars in one move"}


def _championship(e: ev.Event, who: str) -> str | None:
    """The championship's events (Event card, sponsors, its rules)."""
    match e:
        case ev.EventRevealed(event=event, press=press):
            corners = ", ".join(map(str, press)) or "none"
            return f"Event: {event}; Press Corners: {corners}"
        case ev.SponsorsDealt(cards=cards):
            return f"  {who} is dealt sponsors {' '.join(_card(c) for c in cards)}"
        case ev.SponsorEarned(card=card, why=why, corner=corner):
            at = f" at corner {corner}" if corner else ""
            what = _card(card) if card is not None else "nothing (the sponsor deck is empty)"
            return f"  {who} earns a sponsor ({_SPONSOR_WHY.get(why, why)}{at}): {what}"
        case ev.HeatRemoved(piles=piles, lap=lap):
            return f"  {who} loses {len(piles)} Heat for lap {lap} ({', '.join(piles)})"
        case ev.Retired(why=why):
            return f"  {who} is OUT of the race ({why})"
    return None


def narrate(events: Iterable[ev.Event], name: Callable[[int], str]) -> list[str]:
    return [line for e in events if (line := describe(e, name)) is not None]
