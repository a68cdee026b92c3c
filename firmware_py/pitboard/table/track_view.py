"""What a TV's track view shows, as plain data: the race on the track, for everyone.

The table builds a :class:`TrackView` after every redraw that has a view observer (the web
server), from the same :class:`~pitboard.table.views.TableScene` the stations' views come from,
and hands it over in the :class:`~pitboard.table.feed.TableFeed`. Like every view it is public
information only: where the cars stand, their gear and speed, whose turn it is and what kind
of decision that player is making, the weather and road tokens, the Legend moves, the draft
market and picks, the results -- never a hand, a draw pile or an engine's cards.

The race's typed events (:mod:`pitboard.engine.events`) ride along, so a client can animate
each move from where the car was to where it stopped: ``events`` holds every event of the race
shown so far (a tuple shared from one view to the next while nothing new happened) and
``race`` names that race. A new race, and a race replayed by an undo, get a new ``race``, so a
client redraws from the view instead of animating what it never saw.

Plans are secret until they are revealed: while a round is being planned, the events since
the round began (a planned shift, its Heat, a clogged hand) are held back, and a car that has
planned shows the gear it had; they come out with the first turn of the round.

Screens (``screen``): ``lobby`` (the next race's track, no cars; how to join), ``attract``
(the kiosk's demo race, with how to join), ``setup`` (the set-up checklist), ``draft`` (the
Garage draft), ``race`` (planning and resolution) and ``results``.

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> from pitboard.table.views import TableScene
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
    ...                       modules={"legends": {"cars": 1}}))
    >>> views = TrackViews()
    >>> view = views.build(TableScene(state="planning", stations=[], lobby=("usa", 1, 1),
    ...                               race=race))
    >>> view.screen, view.round, [(c.name, c.colour, c.space, c.spot) for c in view.cars]
    ('race', 1, [('Car 1', 'red', 69, 2), ('Black Legend', 'black', 69, 1)])
    >>> view.deciding, view.events[-1].kind
    ('planning: Car 1', 'round')
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..engine import decisions as dec
from ..engine.championship.season import Season
from ..engine.events import Event, RoundStarted, Shifted
from ..engine.garage.draft import DRAFT
from ..engine.legends import legend_card, legend_cars
from ..engine.race import Race
from ..engine.weather import load_tokens, race_weather, road_tokens
from ..track import Track
from ..trackfile import load_track
from . import flow
from .draft_view import draft_status
from .legend_moves import LegendMoveView
from .lobby_options import rules_lines
from .phone_seats import JoinInfo
from .season_view import season_title
from .table_setup import checklist
from .views import TableScene, module_line

#: the colours of the cars in the box; a Legend car is the colour of its helmet, and the
#: driven cars take the others in this order
CAR_COLOURS = ("red", "blue", "green", "yellow", "black", "gray")

LOBBY, ATTRACT, SETUP, DRAFT_SCREEN, RACE, RESULTS = (
    "lobby", "attract", "setup", "draft", "race", "results")


@dataclass(frozen=True, slots=True)
class CarMark:
    """One car as the track view shows it.

    Example::

        CarMark(id=0, name="Alice", colour="red", legend=False, d=12, lap=1, space=12, spot=2)
    """

    id: int
    name: str
    colour: str
    legend: bool
    #: spaces from the start line, the lap it drives, the board space and spot (1 or 2)
    d: int
    lap: int
    space: int
    spot: int
    #: still on the board (a car in the Hall of Fame has left it)
    on_track: bool = True
    finished: bool = False
    #: Hall of Fame place (0: none yet)
    place: int = 0
    gear: int = 1
    #: this turn's speed (0 before the car's turn)
    speed: int = 0
    spinouts: int = 0
    #: the round it finished in (0: not yet)
    finish_round: int = 0


@dataclass(frozen=True, slots=True)
class RoadMark:
    """A road-condition token on the board: at corner ``corner`` (as printed), what it is and
    what it does.

    Example::

        RoadMark(corner=2, key="limit-1", name="Limit -1", target="corner", says="limit -1")
    """

    corner: int
    key: str
    name: str
    #: "corner" (changes the corner) or "sector" (the stretch after it)
    target: str
    says: str


@dataclass(frozen=True, slots=True)
class DraftMark:
    """The Garage draft: the round, whose pick it is, the market and each car's picks (upgrade
    codes).

    Example::

        DraftMark(round=1, rounds=3, picker=0, market=("U1", "U5"), picks=((1, ("U9",)),),
                  dropping=False)
    """

    round: int
    rounds: int
    picker: int
    market: tuple[str, ...]
    picks: tuple[tuple[int, tuple[str, ...]], ...]
    dropping: bool


@dataclass(frozen=True, slots=True)
class LobbyMark:
    """The next race and how to join it (the lobby; the kiosk's attract loop).

    Example::

        LobbyMark(track="USA", laps=1, cars=4, rules=("+ 2 Legends",), countdown=12)
    """

    track: str
    laps: int
    cars: int
    rules: tuple[str, ...] = ()
    join: JoinInfo | None = None
    #: the kiosk's countdown to the start (None: none)
    countdown: int | None = None


@dataclass(frozen=True, slots=True)
class SeasonMark:
    """A championship season: where it stands, and after a race its standings (car, points in
    all, points that race; leader first) and the race that comes next.

    Example::

        SeasonMark(title="1961 RACE 1/3", standings=((1, 9, 9), (0, 6, 6)),
                   next="race 2: USA", over=False)
    """

    title: str
    standings: tuple[tuple[int, int, int], ...] = ()
    #: the next race ("race 2: USA"; "" after the last)
    next: str = ""
    over: bool = False


@dataclass(frozen=True, slots=True)
class TrackView:
    """The track view of the table now (see the module docstring).

    Example::

        view = TrackViews().build(table.scene())
        view.screen, view.round, [(c.name, c.space, c.spot) for c in view.cars]
    """

    screen: str
    #: the race shown ("": none); a new one for each race and after an undo
    race: str
    #: the track drawn (compared by ``track_ref``, not field by field)
    track: Track = field(compare=False)
    track_ref: str = ""
    round: int = 0
    laps: int = 0
    cars: tuple[CarMark, ...] = ()
    #: the race order (car ids, leader first; finished cars in Hall of Fame order)
    order: tuple[int, ...] = ()
    #: the car whose turn it is (-1: none)
    current: int = -1
    #: what the table waits for, in words ("planning: Alice, Bob", "Alice: React")
    deciding: str = ""
    #: the cars the table waits for
    waiting: tuple[int, ...] = ()
    weather: str = ""
    weather_says: str = ""
    road: tuple[RoadMark, ...] = ()
    #: the Legend card of this round (0: none flipped yet)
    legend_card: int = 0
    legend_moves: tuple[LegendMoveView, ...] = ()
    draft: DraftMark | None = None
    lobby: LobbyMark | None = None
    #: the set-up checklist: (title, lines) per page, and the page the stations show
    setup: tuple[tuple[str, tuple[str, ...]], ...] = ()
    setup_page: int = 0
    #: the championship season this race is one of (None: a single race)
    season: SeasonMark | None = None
    #: every event of the race so far (shared, not compared: ``event_count`` is)
    events: tuple[Event, ...] = field(default=(), compare=False)
    event_count: int = 0


class TrackViews:
    """Builds each :class:`TrackView`, remembering what the last one shared: the race's key
    and its events tuple (copied only when the race said something new).

    Example::

        views = TrackViews()
        view = views.build(table.scene())
    """

    def __init__(self) -> None:
        self._boot = os.urandom(3).hex()  # keys never repeat across restarts of the program
        self._serial = 0
        self._race: Race | None = None
        self._events: tuple[Event, ...] = ()
        self._lobby_track: tuple[str, Track] | None = None
        self._built: tuple[TableScene, TrackView] | None = None
        self._board_kept: tuple[Race, tuple[object, ...],
                                tuple[str, str, tuple[RoadMark, ...]]] | None = None

    def build(self, scene: TableScene) -> TrackView:
        """The track view of ``scene`` (built once per scene: a redraw asks more than once)."""
        if self._built is not None and self._built[0] is scene:
            return self._built[1]
        view = self._build(scene)
        self._built = (scene, view)
        return view

    def _build(self, scene: TableScene) -> TrackView:
        state = scene.state
        race = scene.attract if state == flow.ATTRACT else scene.race
        lobby = self._lobby(scene) if state in (flow.LOBBY, flow.ATTRACT) else None
        if race is None or state == flow.LOBBY:
            ref, track = self._track(scene.lobby[0])
            return TrackView(LOBBY, "", track, ref, lobby=lobby)
        key = self._race_key(race)
        cut = _planning_start(race)
        events = self._shared_events(race, cut)
        # a planned shift is a secret until the reveal: the gear the car had
        planned = {e.car: e.frm for e in race.events[cut:] if isinstance(e, Shifted)}
        screen = {flow.ATTRACT: ATTRACT, flow.SETUP: SETUP, flow.DRAFT: DRAFT_SCREEN,
                  flow.RESULTS: RESULTS}.get(state, RACE)
        weather, weather_says, road = self._board(race)
        current = race.current
        pending = race.pending()
        return TrackView(
            screen, key, race.track, race.setup.track, round=race.round, laps=race.laps,
            cars=_cars(race, planned), order=tuple(race.standings()),
            current=current.id if current is not None else -1,
            deciding=_deciding(race, scene.legend_moves, state),
            waiting=pending.cars if not race.over else (),
            weather=weather, weather_says=weather_says, road=road,
            legend_card=legend_card(race),
            legend_moves=scene.legend_moves if state != flow.ATTRACT else (),
            draft=_draft(race) if state == flow.DRAFT else None, lobby=lobby,
            setup=tuple((p.title, p.lines) for p in checklist(race)) if state == flow.SETUP
            else (), setup_page=scene.setup_page,
            season=_season(scene.season, race, state == flow.RESULTS)
            if scene.season is not None and state != flow.ATTRACT else None,
            events=events, event_count=len(events))

    def _board(self, race: Race) -> tuple[str, str, tuple[RoadMark, ...]]:
        """The weather (its name, what it does) and the road tokens, kept while they stay."""
        key = (race_weather(race), tuple(road_tokens(race).items()))
        if self._board_kept is None or self._board_kept[0] is not race or \
                self._board_kept[1] != key:
            weather = key[0]
            token = load_tokens().weather_token(weather) if weather is not None else None
            self._board_kept = (race, key, (
                token.name if token is not None else "",
                ", ".join(token.sector.words()) if token is not None else "", _road(race)))
        return self._board_kept[2]

    def _race_key(self, race: Race) -> str:
        if race is not self._race:
            self._race, self._events = race, ()
            self._serial += 1
        return f"{self._boot}-{self._serial}"

    def _shared_events(self, race: Race, count: int) -> tuple[Event, ...]:
        if count != len(self._events):
            self._events = tuple(race.events[:count])
        return self._events

    def _track(self, ref: str) -> tuple[str, Track]:
        cached = self._lobby_track  # a track file is read afresh by load_track: keep one
        if cached is None or cached[0] != ref:
            cached = self._lobby_track = (ref, load_track(ref))
        return cached

    def _lobby(self, scene: TableScene) -> LobbyMark:
        ref, laps, cars = scene.lobby
        rules = tuple(rules_lines(scene.modules, module_line)) if scene.modules else ()
        return LobbyMark(self._track(ref)[1].name, laps, cars, rules, scene.join,
                         scene.countdown)


def car_colours(race: Race) -> dict[int, str]:
    """Car id -> its colour: a Legend car its helmet's, the others the box's colours left.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=3, seed=1,
        ...                       modules={"legends": {"colours": ["red"]}}))
        >>> car_colours(race)
        {0: 'blue', 1: 'green', 2: 'red'}
    """
    legends = legend_cars(race)
    free = iter([c for c in CAR_COLOURS if c not in legends.values()])
    return {car.id: legends[car.id] if car.id in legends else next(free, "white")
            for car in race.cars}


def _planning_start(race: Race) -> int:
    """How many of the race's events are public: all of them, but while a round is planned
    none after its :class:`~pitboard.engine.events.RoundStarted` (what a plan says is secret
    until the reveal)."""
    events = race.events
    if race.phase != dec.PLAN or race.over:
        return len(events)
    for i in range(len(events) - 1, -1, -1):  # a few events back: the round's shifts
        if isinstance(events[i], RoundStarted):
            return i + 1
    return len(events)


def _cars(race: Race, planned: dict[int, int]) -> tuple[CarMark, ...]:
    colours = car_colours(race)
    legends = legend_cars(race)
    fame = {car_id: i for i, car_id in enumerate(race.hall_of_fame, start=1)}
    return tuple(CarMark(id=c.id, name=c.name, colour=colours[c.id], legend=c.id in legends,
                         d=c.d, lap=race.lap_of(c.d), space=c.space, spot=c.spot,
                         on_track=c.on_track, finished=c.finished, place=fame.get(c.id, 0),
                         gear=planned.get(c.id, c.gear), speed=c.speed, spinouts=c.spinouts,
                         finish_round=c.finish_round)
                 for c in race.cars)


#: what a car's player decides in each phase, in the game's words (never what they hold)
_PHASE_WORDS = {dec.REACT: "React (Adrenaline, Boost, Cooldown)", dec.SLIPSTREAM: "slipstream?",
                dec.DISCARD: "discard", DRAFT: "draft pick"}


def _deciding(race: Race, moves: tuple[LegendMoveView, ...], state: str) -> str:
    if race.over:
        return "race over"
    if moves and state != flow.ATTRACT:
        return f"move {moves[0].name} on the board, then GO"
    pending = race.pending()
    names = ", ".join(race.cars[c].name for c in pending.cars)
    if pending.kind == dec.PLAN:
        return f"planning: {names}" if names else ""
    if state == flow.SETUP:
        return "set-up: GO on a station for the next page"
    words = _PHASE_WORDS.get(pending.kind, pending.kind.replace("_", " "))
    return f"{names}: {words}" if names else words


def _road(race: Race) -> tuple[RoadMark, ...]:
    tokens = load_tokens()
    out = []
    for corner, key in road_tokens(race).items():
        token = tokens.road_token(key)
        if token.target == "corner":
            says = ", ".join(w for w in (f"limit {token.limit:+d}" if token.limit else "",
                                         f"+{token.overheat} Heat over the limit"
                                         if token.overheat else "") if w)
        elif token.weather:
            weather = race_weather(race)
            effect = tokens.weather_token(weather).sector.words() if weather else []
            says = "sector: " + (", ".join(effect) or "the weather's effect")
        else:
            says = "sector: " + ", ".join(token.sector.words())
        out.append(RoadMark(corner, key, token.name, token.target, says))
    return tuple(out)


def _season(season: Season, race: Race, results: bool) -> SeasonMark:
    """The season as the TV shows it; its standings once ``race`` (its current one) is over
    and its results are up, as the stations' standings screen has them."""
    title = season_title(season)
    if not (results and race.over and season.results()):
        return SeasonMark(title)
    latest = season.results()[-1].points
    totals = season.totals()
    standings = tuple((car, totals[car], latest.get(car, 0)) for car in season.standings())
    if season.over:
        return SeasonMark(title, standings, over=True)
    upcoming = season.plan[season.index + 1]
    return SeasonMark(title, standings, f"race {season.index + 2}: "
                      f"{load_track(upcoming.track).name}")


def _draft(race: Race) -> DraftMark | None:
    status = draft_status(race)
    if status is None:
        return None
    return DraftMark(status.round, status.rounds, status.picker, status.market,
                     tuple(sorted(status.picks.items())), status.dropping)

