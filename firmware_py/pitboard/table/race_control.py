"""The race-control display: one more 128x64 OLED beside the board, for the whole table.

Optional (``[race_control] display`` in the hardware profile). While the stations are busy with
their own cars it shows what concerns everyone:

* the round, the weather token and the race order (who is where, whose turn it is);
* **where to move each Legend car**, big, while a move waits for a GO on any station
  (without this display the stations' status lines carry the same instruction), and after
  an undo which cars go back where;
* the set-up checklist page before round 1 (and whose pick it is in a Garage draft), the
  lobby's race before it, the results after it.

Like the stations, it is built as plain data (:class:`RaceControlView`, compared to skip
unchanged frames) and drawn by a pure :func:`render_race_control`.

Example::

    >>> from pitboard.table.views import TableScene
    >>> view = race_control_view(TableScene(state="lobby", stations=[], lobby=("usa", 1, 4)))
    >>> view.title, render_race_control(view).size
    ('RACE CONTROL', (128, 64))
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from ..engine.race import Race
from ..engine.weather import load_tokens, race_weather
from ..trackfile import load_track
from . import flow
from .canvas import _L, _R, HEIGHT, WIDTH, _Screen
from .draft_view import draft_status
from .fonts import MEDIUM, SMALL, TINY
from .join_screen import draw_race_control_join
from .lobby_options import rules_lines
from .season_view import sponsor_news, standings_view
from .table_setup import checklist
from .views import TableScene, module_line


@dataclass(frozen=True, slots=True)
class RaceControlView:
    """What the race-control display shows.

    Example::

        RaceControlView(title="ROUND 3", right="Storm", lines=("1 Alice sp 14", "2 Red L sp 12"))
    """

    #: the top band: what is going on (left) and the weather or lap (right)
    title: str
    right: str = ""
    #: a Legend move waiting: who (inverted band), the spaces (big) and the spot
    legend: str = ""
    spaces: str = ""
    spot: str = ""
    #: the rest: race order, checklist lines, results
    lines: tuple[str, ...] = ()
    #: the bottom line: what happens next
    footer: str = ""
    #: the lobby: the QR code's text for joining from a phone ("" none; join_screen.py)
    qr: str = ""

    def words(self) -> list[str]:
        """The view as text lines (the simulation's text mode, the console).

        Example::

            >>> RaceControlView("ROUND 2", "Fog", legend="MOVE Red Legend", spaces="3 → 9",
            ...                 spot="outside, lap 1").words()
            ['ROUND 2 · Fog', 'MOVE Red Legend: 3 → 9 outside, lap 1']
        """
        head = " · ".join(t for t in (self.title, self.right) if t)
        body = [f"{self.legend}: {self.spaces} {self.spot}"] if self.legend else list(self.lines)
        return [head, *body, *([self.footer] if self.footer else [])]


def race_control_view(scene: TableScene) -> RaceControlView:
    """The race-control display's view of ``scene``."""
    race = scene.race
    state = scene.state
    if race is None or state in (flow.LOBBY, flow.ATTRACT):
        track, laps, cars = scene.lobby
        lines = [f"{load_track(track).name}, {laps} lap{'s' if laps > 1 else ''}",
                 f"{cars} car{'s' if cars != 1 else ''}"]
        lines += rules_lines(scene.modules, module_line)  # as the stations' race page
        if scene.join is not None:  # and how to join from a phone, with its QR code
            lines.append(f"phone code {scene.join.code}")
            return RaceControlView("RACE CONTROL", lines=tuple(lines), footer="GO: join",
                                   qr=scene.join.qr)
        return RaceControlView("RACE CONTROL", lines=tuple(lines),
                               footer="GO on a station: join")
    weather = _weather_name(race)
    if state == flow.SETUP:
        pages = checklist(race, scene.season)
        index = min(scene.setup_page, len(pages) - 1)
        page = pages[index]
        return RaceControlView(f"SET-UP {index + 1}/{len(pages)} {page.title}",
                               lines=page.lines, footer="GO on a station: next")
    if state == flow.DRAFT:  # the Garage draft: whose pick it is (the market is theirs)
        picking = ", ".join(race.cars[c].name for c in race.pending().cars)
        status = draft_status(race)
        verb = "may swap" if status is not None and status.swapping else "to pick"
        return RaceControlView("GARAGE DRAFT", weather, lines=(f"{picking} {verb}",),
                               footer="upgrades first, then round 1")
    if state == flow.RESULTS and scene.season is not None:  # a season's standings
        view = standings_view(scene.season, -1)
        return RaceControlView(view.title, lines=tuple(r.replace("\t", " ") for r in view.order),
                               footer=view.message)
    if state == flow.RESULTS:
        order = tuple(f"{i + 1} {race.cars[c].name}" for i, c in enumerate(race.standings()))
        return RaceControlView("RESULTS", weather, lines=order)
    title = f"ROUND {race.round}"
    if scene.legend_moves:
        move = scene.legend_moves[0]
        count = f" {move.number}/{move.of}" if move.of > 1 else ""
        verb = "UNDO: BACK" if move.back else "MOVE"  # an undo: a car goes back
        return RaceControlView(title, weather, legend=f"{verb} {move.name}{count}",
                               spaces=f"{move.frm} → {move.to}",
                               spot=f"{move.spot}, lap {move.lap}" if move.lap > 0
                               else move.spot,
                               footer="then GO on any station")
    news = sponsor_news(race)  # a Press Corner's sponsor: announced to the whole table
    return RaceControlView(title, weather, lines=(news, *_order(race)) if news else _order(race),
                           footer=_whose_turn(race))


def _weather_name(race: Race) -> str:
    key = race_weather(race)
    return load_tokens().weather_token(key).name if key is not None else ""


def _order(race: Race) -> tuple[str, ...]:
    out = []
    for i, c in enumerate(race.standings()):
        car = race.cars[c]
        mark = ">" if race.current is not None and race.current.id == c else ""
        out.append(f"{mark}{i + 1} {car.name} sp{car.space} L{race.lap_of(car.d)}")
    return tuple(out)


def _whose_turn(race: Race) -> str:
    if race.current is not None:
        return f"{race.current.name} to play"
    waiting = len(race.pending().cars)
    return f"planning: {waiting} to lock in" if waiting else ""


def render_race_control(view: RaceControlView) -> Image.Image:
    """Draw ``view`` as a 128x64 mode "1" image (pure: equal views, identical pixels)."""
    if view.qr:  # the lobby of a table with phone seats
        return draw_race_control_join(view.title, view.lines, view.footer, view.qr)
    s = _Screen()
    s.band(0, 8)
    left = s.fitted(_L, 1, _R - _L + 1, view.title, ink=0).image.width
    room = _R - _L - left - 6
    if view.right and room >= 12:
        s.fitted(_R, 1, room, view.right, ink=0, align="right")
    bottom = HEIGHT - 1
    if view.footer:
        s.fitted(WIDTH // 2, HEIGHT - TINY.height, WIDTH, view.footer, (TINY,), align="center")
        bottom = HEIGHT - TINY.height - 2
    if view.legend:
        s.band(11, 20)
        s.fitted(WIDTH // 2, 12, WIDTH - 4, view.legend, ink=0, align="center")
        s.fitted(WIDTH // 2, 23, WIDTH, view.spaces, (MEDIUM, SMALL), align="center")
        s.fitted(WIDTH // 2, 39, WIDTH, view.spot, align="center")
        return s.img
    s.lines(11, bottom, view.lines, x=_L, width=_R - _L + 1)
    return s.img
