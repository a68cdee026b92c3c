"""What answers a station's input at once: a small change of the screen on the glass, sent
ahead of the new screen (issue 15.13: first edge to the answer's last byte within 20 ms at
100 kHz, where a whole 1 KB frame takes ~95 ms of bus and a 100-byte change ~9 ms).

The table (:meth:`pitboard.table.table.Table.refresh`) hands the acting station's answer to
its display writer first (``show_first``) and its new screen right behind it, so the player
sees their press taken while the rest is worked out and sent:

* :func:`acknowledgement` -- a GO that brings a whole new picture: the LOCKED mark, the key
  reading OK;
* :func:`press_answer` -- a key or the lever while planning: the tray or the gear digit as
  pressed, before the forecast is worked out;
* :func:`key_answer` -- a toggle of the turn screen (ADR, BST, COOL, SLIP): its key as the
  new screen has it, the GO line and the other keys right behind it.

Each answer is the old view with a few fields taken from the new state, never something the
new screen does not show: what the player ends up with is the new screen itself.
"""

from __future__ import annotations

from dataclasses import replace

from ..engine.cards import PLAYABLE
from . import flow
from .station import Station
from .view import LOCKED, PLANNING, RESOLUTION, StationView
from .views import TableScene, page_key, tray

__all__ = ["acknowledgement", "key_answer", "press_answer"]


def acknowledgement(old: StationView | None, state: str,
                    pressed: str = "GO") -> StationView | None:
    """What answers a GO press at once when the screen it brings is a whole new picture: a
    small change of the screen the player is looking at (None: the new screen is small
    enough). The new screen follows right behind it. ``state``: the table's after the press,
    so the answer goes out before the new screen is built.

    * planning -> the reveal (the last GO: the table no longer plans): the plan with its
      LOCKED mark, "all in" (a GO refused, or one that locks a plan while others plan, is
      answered by its own small screen);
    * the resolution screen -> whatever comes next: the key pressed (``pressed``: GO, or
      DISC, which is GO and then the hand to discard from) turns to OK (on the discard step,
      where the cards stand over the keys, its prompt ends in "OK").

    Example::

        >>> turn = StationView(RESOLUTION, 0, soft_keys=("ADR", "", "", "", "", "", "GO"))
        >>> acknowledgement(turn, flow.RESOLUTION).soft_keys[6]
        'OK'
    """
    if old is None:
        return None
    if old.kind == PLANNING and state != flow.PLANNING:
        return replace(old, kind=LOCKED, message="all in", detail=())
    if old.kind == RESOLUTION and pressed in old.soft_keys:
        keys = tuple("OK" if k == pressed else k for k in old.soft_keys)
        return replace(old, soft_keys=keys)
    if old.kind == RESOLUTION and old.message:  # the discard step: cards over the keys
        return replace(old, message=f"{old.message}: OK")
    return None


def press_answer(old: StationView | None, scene: TableScene, st: Station) -> StationView | None:
    """What answers a key or the lever on the planning screen at once, before the new screen
    is built (its forecast takes milliseconds, several times more on a Pi): the screen the
    player looks at with what was pressed as it now stands. A key: the tray as pressed (a
    card's bar, a page). The lever: the gear digit and its label (GEAR 2→) alone, the tray
    as it was; a 2-gear shift's Heat chip, the speed and the warnings follow with the new
    screen (a chip already on the glass goes at once: it was the old gear's). None when the
    press changes neither (or the station is not planning).

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> from pitboard.table.views import station_view
        >>> race = Race(RaceSetup(track="usa", cars=1, seed=1, laps=1))
        >>> st = Station(index=0, car=0)
        >>> st.sync_slots(race.cars[0].hand)
        >>> scene = TableScene(state=flow.PLANNING, stations=[st], lobby=("usa", 1, 1),
        ...                    race=race)
        >>> old = station_view(scene, st)
        >>> st.selected.add(0)
        >>> answer = press_answer(old, scene, st)
        >>> answer.cards[0].selected, answer.speed == old.speed
        (True, True)
        >>> st.lever = 3
        >>> answer = press_answer(old, scene, st)
        >>> answer.target_gear, answer.cards == old.cards
        (3, True)
    """
    race = scene.race
    if old is None or old.kind != PLANNING or scene.state != flow.PLANNING or race is None \
            or st.car is None or st.idle_bot or st.lever_fault or scene.legend_moves:
        return None
    car = race.cars[st.car]
    if car.planned or car.finished:
        return None
    gear = st.target_gear(car.gear)
    if gear != old.target_gear:  # the lever: its digit first
        return replace(old, target_gear=gear, shift_cost=0)
    rule = race.plan_rule(car.id)
    forced = set(rule.playable) if gear in rule.clogged else None
    marked = None if forced is None else {i for i in st.visible_slots() if st.slots[i] in forced}
    answer = replace(old, cards=tray(st, selectable=PLAYABLE.__getitem__, marked=marked),
                     soft_keys=page_key(st))
    return None if answer == old else answer


#: the turn screen's toggle keys' labels (views._turn_keys); a slipstream key names its
#: distance when there are several ("SL4")
_TOGGLE_LABELS = ("ADR", "BST", "COOL", "SLIP")


def _toggle(label: str) -> bool:
    return label in _TOGGLE_LABELS or (label[:2] == "SL" and label[2:].isdigit())


def key_answer(old: StationView | None, new: StationView, slot: int) -> StationView | None:
    """What answers a toggle of the turn screen (ADR, BST, COOL, SLIP) at once: the screen on
    the glass with the pressed key as ``new`` shows it (lit or outlined, a slipstream's new
    distance), one window of the keys' page. What GO does (the GO line), a key the toggle
    brings or takes away (BST takes SLIP) follow right behind it with ``new``. None when the
    press is no toggle there, or ``new`` changes nothing else.

    Example::

        >>> keys = ("ADR", "BST", "COOL", "SLIP", "", "", "GO")
        >>> old = StationView(RESOLUTION, 0, soft_keys=keys, message="GO: cool 1")
        >>> new = replace(old, soft_keys=keys[:3] + ("",) + keys[4:], keys_off=(2,),
        ...               message="GO: done")
        >>> answer = key_answer(old, new, 2)
        >>> answer.keys_off, answer.soft_keys == old.soft_keys, answer.message
        ((2,), True, 'GO: cool 1')
    """
    if old is None or old.kind != RESOLUTION or new.kind != RESOLUTION \
            or slot >= min(len(old.soft_keys), len(new.soft_keys)) \
            or old.cards or new.cards:
        return None
    was, now = old.soft_keys[slot], new.soft_keys[slot]
    if not (_toggle(was) and _toggle(now)):
        return None
    keys = (*old.soft_keys[:slot], now, *old.soft_keys[slot + 1:])
    off = tuple(sorted({*old.keys_off} - {slot} | ({slot} & {*new.keys_off})))
    answer = replace(old, soft_keys=keys, keys_off=off)
    return None if answer in (old, new) else answer
