"""Engine events as plain sentences, for the text demo, the console and the logs."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .engine.cards import CARD_TYPES

Event = dict[str, Any]


def _card(code: str | None) -> str:
    if code is None:
        return "nothing (no cards left to flip)"
    return CARD_TYPES[code].name if code in CARD_TYPES else code


def _spot(e: Event) -> str:
    line = "racing line" if e.get("racing_line") else "outside spot"
    return f"space {e['space']} ({line}), lap {e['lap']}"


#: the Legend movement branches (engine/legends/movement.py) in words
_LEGEND = {"straight": "top speed towards", "brake": "brakes before",
           "corner": "corner speed + diamond through", "corner_stop": "stops short of the line "
           "after", "finish": "top speed to"}


def describe(event: Event, name: Callable[[int], str]) -> str | None:
    """One line for an event, or None for events that only screens use."""
    t = event["type"]
    who = name(event["car"]) if "car" in event else ""
    if t == "grid":
        return "Grid: " + ", ".join(f"{name(g['car'])} on space {g['space']} spot {g['spot']}"
                                    for g in event["grid"])
    if t == "round":
        return f"\n=== Round {event['round']}: order " + ", ".join(
            name(c) for c in event["order"]) + " ==="
    if t == "shift":
        cost = f" for {event['heat']} Heat" if event["heat"] else ""
        return f"{who} shifts {event['frm']} -> {event['to']}{cost}"
    if t == "clogged":
        return f"{who} has a clogged hand: plays {' '.join(event['cards'])}, does not move, gear 1"
    if t == "reveal":
        return f"{who} reveals {' '.join(event['cards'])}"
    if t == "flip":
        kept = "kept" if event["kept"] else "discarded"
        return f"  {event['why']} flip: {_card(event['card'])} ({kept})" \
            if event["card"] is not None else f"  {event['why']} flip: {_card(None)}"
    if t == "speed":
        return f"  speed {event['speed']}"
    if t == "move":
        blocked = f", blocked {event['blocked']} short" if event["blocked"] else ""
        return f"  moves {event['spaces']} ({event['why']}) to {_spot(event)}{blocked}"
    if t == "lap":
        return f"  {who} starts lap {event['lap']}"
    if t == "adrenaline":
        return f"  {who} uses Adrenaline: speed {event['speed']}"
    if t == "boost":
        return f"  {who} boosts: +{event['value']}, speed {event['speed']}"
    if t == "cooldown":
        return f"  {who} cools {event['n']} Heat back into the engine ({event['engine']} there)"
    if t == "slipstream":
        return f"  {who} slipstreams"
    if t == "weather":
        road = ", ".join(f"corner {c} {k}" for c, k in event["road"].items()) or "none"
        return f"Weather: {event['weather']}; road conditions: {road}"
    garage = _garage(event, who)
    if garage is not None:
        return garage
    if t == "legend_card":
        return f"  Legend card {event['card']} is flipped"
    if t == "legend_reshuffle":
        return "  the Legend deck is reshuffled"
    if t == "legend":
        corner = f" corner {event['corner']}" if event["corner"] else " the finish"
        return f"  {who} ({event['colour']} helmet): {_LEGEND[event['branch']]}{corner}"
    if t == "corner":
        paid = f"pays {event['heat']} Heat" if event["heat"] else "no Heat"
        return f"  corner {event['corner']} (limit {event['limit']}) at speed {event['speed']}: " \
            f"{paid}"
    if t == "heat":
        return None  # the shift/corner/boost lines already say it
    if t == "spin_out":
        return (f"  {who} SPINS OUT at corner {event['corner']}: pays {event['heat']} Heat, "
                f"back to {_spot(event)}, {event['stress']} Stress to hand, gear 1")
    if t == "discard":
        return f"  {who} discards {' '.join(event['cards'])}"
    if t == "finish":
        return f"  {who} crosses the finish line!"
    if t == "hall_of_fame":
        return f"{who} finishes in place {event['place']}"
    if t == "race_over":
        return f"\nRace over after {event['rounds']} rounds. Final order: " + ", ".join(
            f"{i + 1}. {name(c)}" for i, c in enumerate(event["order"]))
    return None


def _garage(e: Event, who: str) -> str | None:
    """The Garage module's events (draft and upgrade symbols)."""
    t = e["type"]
    if t == "draft_market":
        return f"Draft round {e['draft_round']}: market " + ", ".join(
            f"{c} {_card(c)}" for c in e["cards"])
    if t == "draft_pick":
        return f"  {who} drafts {e['card']} {_card(e['card'])}"
    if t == "draft_drop":
        return f"  {who} drops {e['card']} {_card(e['card'])}"
    if t == "upgrade_replaced":
        return (f"  {who} cannot pay the Heat of {_card(e['card'])}: discarded, "
                f"{_card(e['by'])} played instead")
    if t == "scrap":
        cards = " ".join(e["cards"]) or "nothing (no cards left)"
        return f"  {who} scraps {cards}"
    if t == "speed_choice":
        return f"  {who} plays {_card(e['card'])} at {e['value']}: speed {e['speed']}"
    if t == "direct_play":
        return f"  {who} plays {_card(e['card'])} from hand"
    if t == "accelerate":
        return f"  {who} accelerates: +{e['n']} for {e['flips']} flips, speed {e['speed']}"
    if t == "reduce":
        return f"  {who} discards {e['n']} Stress"
    if t == "salvage":
        return f"  {who} salvages {_card(e['card'])} into the draw deck"
    if t == "supercool":
        return f"  {who} super-cools {e['n']} Heat from the discard pile ({e['engine']} there)"
    if t == "draft_move":
        return f"  {who} drafts {e['spaces']} spaces up to the car ahead"
    if t == "refresh":
        return f"  {who} will put {_card(e['card'])} back on the draw deck"
    if t == "one_time":
        return f"  {who} uses up {' '.join(_card(c) for c in e['cards'])} (out of the game)"
    return None


def narrate(events: Iterable[Event], name: Callable[[int], str]) -> list[str]:
    return [line for e in events if (line := describe(e, name)) is not None]
