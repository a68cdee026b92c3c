"""The track view as JSON, for a TV's page: a :class:`~pitboard.table.track_view.TrackView`
as plain dicts (beside :mod:`~pitboard.table.view_json`, the stations' views as JSON).

Three parts, each made once however many TVs watch:

* :func:`track_state_dict`: the table now -- the cars where they stand, the race order, whose
  turn and what they decide, the weather and road tokens, and one **panel** for the side of
  the screen (``lobby``, ``setup``, ``draft``, ``order`` during a race, ``results``, a
  championship's ``standings`` after one of its races: its ``kind`` says which; a page draws
  the kinds it knows);
* :func:`track_drawing`: the track's drawing, once per track: the geometry
  (:meth:`~pitboard.geometry.TrackGeometry.to_dict`: where each spot is) and the SVG that
  ``pitboard tracks --svg`` prints (without its style sheet: the page has its own);
* :func:`event_dict`: one event of the race (:meth:`~pitboard.engine.events.Event.to_dict`
  with its index ``i`` in the race's events), for the kinds a TV shows (:data:`TV_EVENTS`).

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> from pitboard.table.track_view import TrackViews
    >>> from pitboard.table.views import TableScene
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
    >>> view = TrackViews().build(TableScene(state="planning", stations=[],
    ...                                      lobby=("usa", 1, 2), race=race))
    >>> state = track_state_dict(view)
    >>> state["screen"], state["panel"]["kind"], state["cars"][0]["space"], state["events"]
    ('race', 'order', 69, 2)
    >>> event_dict(view.events[-1], 1)
    {'order': [1, 0], 'type': 'round', 'round': 1, 'i': 1}
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import fields
from typing import Any

from ..engine.events import Event
from ..geometry import track_geometry
from ..track import Track
from ..tracksvg import track_svg
from .track_view import LOBBY, RESULTS, SETUP, CarMark, RoadMark, TrackView
from .view_json import card_face

#: the bump of the JSON shape: a page drawn for another shape reloads
TRACK_SCHEMA = 1

#: the kinds of event a TV shows (the rest -- reshuffles, draws, discards -- is bookkeeping
#: nobody watches on a board)
TV_EVENTS = frozenset({
    "grid", "round", "turn", "shift", "clogged", "reveal", "speed", "move", "lap", "adrenaline",
    "boost", "cooldown", "slipstream", "corner", "spin_out", "heat", "finish", "hall_of_fame",
    "race_over", "draft_market", "draft_pick", "draft_drop", "draft_move", "legend",
    "legend_card", "weather", "upgrade_replaced", "speed_choice", "accelerate",
})

#: drawings kept (a track's is a few tens of kB; a kiosk changes track seldom)
_DRAWINGS = 4
_drawings: OrderedDict[int, tuple[Track, dict[str, Any]]] = OrderedDict()
#: the fields of a car and a road token, as JSON keys (their values are plain already: a
#: flat dict is a tenth of what ``dataclasses.asdict``'s deep copy costs, once per change)
_CAR_KEYS = tuple(f.name for f in fields(CarMark))
_ROAD_KEYS = tuple(f.name for f in fields(RoadMark))


def event_dict(event: Event, index: int) -> dict[str, Any] | None:
    """``event`` (the race's ``index``-th) as a TV gets it; None for a kind it does not show."""
    if event.kind not in TV_EVENTS:
        return None
    out = event.to_dict()
    out["i"] = index
    return out


def track_drawing(track: Track) -> dict[str, Any]:
    """The drawing of ``track``: its geometry and its SVG (made once per track object).

    Example::

        >>> from pitboard.trackfile import load_track
        >>> drawing = track_drawing(load_track("italy"))
        >>> drawing["geometry"]["spaces"], drawing["svg"].startswith("<svg"), "<style>" in \
drawing["svg"]
        (54, True, False)
    """
    found = _drawings.get(id(track))
    if found is not None and found[0] is track:
        _drawings.move_to_end(id(track))
        return found[1]
    geo = track_geometry(track)
    drawing = {"track": track.key, "name": track.name, "geometry": geo.to_dict(),
               "svg": track_svg(geo, style=False)}
    _drawings[id(track)] = (track, drawing)  # the track held: its id is not reused meanwhile
    while len(_drawings) > _DRAWINGS:
        _drawings.popitem(last=False)
    return drawing


def track_state_dict(view: TrackView) -> dict[str, Any]:
    """``view`` as JSON types (see the module docstring); a lobby's join carries the QR
    code's text as ``qr_text`` (the web server draws the code)."""
    return {
        "schema": TRACK_SCHEMA, "screen": view.screen, "race": view.race,
        "track": view.track_ref, "track_name": view.track.name, "round": view.round,
        "laps": view.laps or view.track.laps, "events": view.event_count,
        "cars": [{k: getattr(c, k) for k in _CAR_KEYS} for c in view.cars],
        "order": list(view.order),
        "current": view.current, "deciding": view.deciding, "waiting": list(view.waiting),
        "weather": {"name": view.weather, "says": view.weather_says} if view.weather
        else None,
        "road": [{k: getattr(r, k) for k in _ROAD_KEYS} for r in view.road],
        "legend_card": view.legend_card,
        "legend_moves": [{"car": m.car, "name": m.name, "colour": m.colour, "frm": m.frm,
                          "to": m.to, "spot": m.spot, "lap": m.lap, "number": m.number,
                          "of": m.of, "back": m.back, "says": m.instruction()}
                         for m in view.legend_moves],
        "season": {"title": view.season.title} if view.season is not None else None,
        "panel": _panel(view),
    }


def _panel(view: TrackView) -> dict[str, Any]:
    lobby = view.lobby
    if view.screen == LOBBY or (lobby is not None and view.screen != RESULTS):
        assert lobby is not None
        join = lobby.join
        return {"kind": "lobby", "track": lobby.track, "laps": lobby.laps, "cars": lobby.cars,
                "rules": list(lobby.rules), "countdown": lobby.countdown,
                "join": {"url": join.url, "code": join.code, "qr_text": join.qr}
                if join is not None else None}
    if view.screen == SETUP:
        return {"kind": "setup", "page": view.setup_page,
                "pages": [{"title": title, "lines": list(lines)} for title, lines in view.setup]}
    draft = view.draft
    if draft is not None:
        return {"kind": "draft", "round": draft.round, "rounds": draft.rounds,
                "picker": draft.picker, "dropping": draft.dropping,
                "market": [_card(code) for code in draft.market],
                "picks": [{"car": car, "cards": [_card(code) for code in codes]}
                          for car, codes in draft.picks]}
    season = view.season
    if view.screen == RESULTS and season is not None and season.standings:
        return {"kind": "standings", "title": season.title, "places": list(view.order),
                "rows": [{"car": car, "points": points, "race": latest}
                         for car, points, latest in season.standings],
                "next": season.next, "over": season.over}
    if view.screen == RESULTS:
        return {"kind": "results", "places": list(view.order)}
    return {"kind": "order"}


def _card(code: str) -> dict[str, str]:
    face = card_face(code)
    return {"code": code, "label": face.get("label", code), "says": face.get("says", "")}
