"""Build each station's :class:`StationView` from what the table shows and the race.

The table hands over a :class:`TableScene` (its flow state, the race, the lobby choices),
never itself: this module reads the engine and the stations and knows nothing about input
handling, bots or the journal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import decisions as dec
from ..engine.cards import PLAYABLE
from ..engine.championship.season import Season
from ..engine.events import CarEvent, Flipped, HeatPaid, Moved, SpunOut, TurnStarted
from ..engine.forecast import Forecast, forecast, forecast_planned, shifted
from ..engine.legends import legend_cars
from ..engine.race import Race
from ..engine.weather import race_weather, road_tokens
from ..trackfile import load_track
from . import flow
from .draft_view import draft_view
from .hand import in_hand_order, short_problem
from .join_screen import join_view
from .legend_moves import LegendMoveView
from .lobby_options import JOIN_PAGE, options_view, rules_lines
from .phone_seats import JoinInfo
from .season_view import season_words, sponsor_note, standings_view
from .station import SLOTS, Station
from .table_setup import checklist, setup_view
from .trays import locked, played_slots
from .turn import (
    ADRENALINE_KEY,
    BOOST_KEY,
    COOL_KEY,
    DISCARD_KEY,
    GO_KEY,
    SLIP_KEY,
    TOGGLES,
    TurnChoices,
    shown_for,
)
from .turn_symbols_view import card_name, symbols_page, upgrade_effects
from .upgrade_art import detail
from .view import (
    ATTRACT,
    FAULT,
    LOBBY,
    LOCKED,
    PLANNING,
    RESOLUTION,
    RESULTS,
    WAITING,
    CardView,
    CornerView,
    MoveView,
    StationView,
)
from .weather_view import corner_notes, sector_line


@dataclass(frozen=True, slots=True)
class TableScene:
    """What every station's view is built from: the table's state, as the table hands it over.

    Example::

        scene = TableScene(state="lobby", stations=[Station(index=0)], lobby=("usa", 2, 4))
        station_view(scene, scene.stations[0]).kind   # "lobby"
    """

    state: str
    stations: Sequence[Station]
    #: (track key, laps, cars) the next race would use
    lobby: tuple[str, int, int]
    race: Race | None = None
    #: the kiosk's attract-loop race
    attract: Race | None = None
    #: index of the station whose car is resolving (None: no person's turn)
    current: int | None = None
    #: one line about a storage problem, shown in the lobby ("" when all is well)
    storage_problem: str = ""
    #: kiosk lobby: whole seconds until the race starts (None: no countdown)
    countdown: int | None = None
    #: rules modules of the next race and their options
    modules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: why the lobby's choices could not be raced ("" when they can)
    lobby_problem: str = ""
    #: the set-up checklist's page (table_setup.py)
    setup_page: int = 0
    #: Legend moves waiting for the players' GO (legend_moves.py)
    legend_moves: tuple[LegendMoveView, ...] = ()
    #: the table has a race-control display (the Legend moves show there in full)
    race_control: bool = False
    #: how to join from a phone (None: the table has no phone seats; phone_seats.py)
    join: JoinInfo | None = None
    #: the championship season under way (``race`` is its current race), and the lobby's
    #: championship choice for the next start (a season key; None: a single race)
    season: Season | None = None
    championship: str | None = None


def station_view(scene: TableScene, st: Station) -> StationView:
    """What ``st`` shows now."""
    view = _station_view(scene, st)
    if scene.legend_moves and st.car is not None and not st.idle_bot and view.kind in _RACING:
        # the board is behind the race: every seated station's status line says what to move
        first = scene.legend_moves[0]
        # a car to put back after an undo is spelled out here even beside race control
        status = "Legends: race control, GO" if scene.race_control and not first.back \
            else first.status()
        # (a pressed card's meaning gives way: the instruction is what the player must act on)
        view = replace(view, message=status, detail=(), message_toggles=False, go_fields=())
    return view


#: screens with a status line the Legend moves take over
_RACING = (PLANNING, LOCKED, RESOLUTION, WAITING)


def _station_view(scene: TableScene, st: Station) -> StationView:
    title = st.name
    if st.lever_fault or st.input_fault:
        lines = []
        if st.lever_fault:
            lines += ["Gear lever fault:", "contacts " + "+".join(map(str, st.lever_fault)),
                      "check the wiring"]
        if st.input_fault:
            lines += ["Buttons not answering", st.input_fault[:40]]
        return StationView(FAULT, st.index, title=title, lines=tuple(lines))
    state = scene.state
    if state == flow.ATTRACT:
        return _attract(scene, st)
    if state == flow.LOBBY:
        return _lobby(scene, st)
    race = scene.race
    if race is None:
        return _lobby(scene, st)
    if state == flow.SETUP:
        return setup_view(checklist(race, scene.season), scene.setup_page, st)
    if state == flow.DRAFT:  # the Garage draft (draft_view.py)
        return draft_view(race, st, {c.id: c.name for c in race.cars})
    if state == flow.RESULTS and scene.season is not None:  # the season's standings
        return standings_view(scene.season, st.index)
    if state == flow.RESULTS:
        return StationView(RESULTS, st.index, title="RESULTS", order=_results(race),
                           laps=race.laps, round=race.round, soft_keys=("", "", "", "", "", "",
                                                                         "NEXT"))
    car = race.cars[st.car] if st.car is not None else None
    if st.idle_bot and car is not None and not car.finished:
        view = _waiting(scene, st, race)
        return replace(view, message="BOT: press to play")
    if state == flow.PLANNING and car is not None and not car.finished:
        if car.planned:
            return _locked(st, race, car)
        return planning_view(st, race, car)
    if state == flow.RESOLUTION and car is not None and scene.current == st.index:
        return _resolution(st, race, car)
    return _waiting(scene, st, race)


def _results(race: Race) -> tuple[str, ...]:
    return tuple(f"{i + 1} {race.cars[c].name}" for i, c in enumerate(race.standings()))


def _label(code: str) -> str:
    return code


def _lobby(scene: TableScene, st: Station) -> StationView:
    track, laps, cars = scene.lobby
    joined = [s.name for s in scene.stations if s.joined]
    # what the next start races: the lobby's track, or a championship season's races
    head: tuple[str, ...] = season_words(scene.championship) if scene.championship else \
        (f"{load_track(track).name}, {laps} lap{'s' if laps > 1 else ''}",)
    seats = seat_line(cars, len(joined))
    problem = scene.storage_problem
    if problem:  # staff should know a power cut would lose this race
        seats = problem[:32]
    lines = (*head, seats, *(rules_lines(scene.modules, module_line) if scene.modules else ()),
             "JOINED - GO to leave" if st.joined else "press GO to join")
    if scene.countdown is not None and joined:
        left = scene.countdown
        lines = (*lines[:-1], f"{'JOINED' if st.joined else 'GO to join'} - start in {left}s")
    if scene.join is not None:  # phone seats: the code here, the QR code on the PHONES page
        if st.lobby_page == JOIN_PAGE:
            return join_view(st, scene.join, joined_line=lines[-1])
        if len(lines) + bool(st.message or scene.lobby_problem) < 6:  # what the screen holds
            lines = (*lines[:-1], f"phones: code {scene.join.code}, QR: OPTS", lines[-1])
    if st.lobby_page:  # a module's page: its options on the tray buttons (lobby_options.py)
        return options_view(st, scene.modules, joined_line=lines[-1],
                            championship=scene.championship,
                            problem=scene.lobby_problem)
    return StationView(LOBBY, st.index, title=f"{st.name} LOBBY", lines=lines,
                       message=st.message or scene.lobby_problem,
                       soft_keys=("TRK", "LAPS", "CARS", "OPTS", "", "", "RACE"))


def seat_line(cars: int, players: int) -> str:
    """Who drives the next race's cars (Legends come on top, on their own line).

    Example::

        >>> seat_line(4, 1), seat_line(1, 0), seat_line(2, 2)
        ('4 cars: 1 player, 3 bots', '1 car: 1 bot', '2 cars: 2 players')
    """
    bots = cars - players
    who = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((players, "player"),
                                                               (bots, "bot")) if n > 0]
    return f"{cars} car{'s' if cars != 1 else ''}: {', '.join(who)}"


def module_line(modules: Mapping[str, Mapping[str, Any]]) -> str:
    """The rules modules of a race in one short line.

    Example::

        >>> module_line({"weather": {}, "legends": {"cars": 2, "level": 3}})
        '+ weather, legends cars=2 level=3'
    """
    parts = []
    for key, options in modules.items():
        parts.append(" ".join([key, *(f"{k}={_option(v)}" for k, v in options.items())]))
    return "+ " + ", ".join(parts)


def _option(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return "/".join(map(_option, value))
    return str(value)


def _attract(scene: TableScene, st: Station) -> StationView:
    race = scene.attract
    order: tuple[str, ...] = ()
    if race is not None:
        order = tuple(f"{i + 1} {race.cars[c].name}" for i, c in enumerate(race.standings()))
    demo = demo_line(race) if race is not None else ""
    return StationView(ATTRACT, st.index, title="PITBOARD", order=order[:3],
                       lines=("Heat: Pedal to the Metal", *((demo,) if demo else ()),
                              "press GO to play"),
                       round=race.round if race else 0)


def demo_line(race: Race) -> str:
    """The modules a kiosk's attract race shows off, in the game's words: "vs 2 Legends, fog,
    road tokens" ("" for the base game)."""
    words = []
    legends = len(legend_cars(race))
    if legends:
        words.append(f"vs {legends} Legend{'s' if legends != 1 else ''}")
    weather = race_weather(race)
    if weather:
        words.append(weather)
    if road_tokens(race):
        words.append("road tokens")
    return ", ".join(words)


def _locked(st: Station, race: Race, car: Any) -> StationView:
    """The plan locked in: the planning screen as GO found it, read from the engine alone (so a
    table resumed from its journal shows it as the table that was cut): the gear it shifted
    from (:func:`~pitboard.engine.forecast.shifted`), the Heat in the engine before the shift,
    what the cards played will do (:func:`~pitboard.engine.forecast.forecast_planned`), the
    tray with the cards played marked (trays.py); the LOCKED mark and what it waits for in the
    message row."""
    waiting = sum(1 for c in race.cars if not c.planned and not c.finished)
    fc = forecast_planned(race, car.id)
    gear, _ = shifted(race, car.id)
    return replace(_planned_view(st, race, car, fc, gear=gear, target_gear=car.gear,
                                 marked=played_slots(st, car.play), message=""),
                   kind=LOCKED, message=f"waiting for {waiting}", detail=())


def lockedtray(st: Station, race: Race, car: Any) -> tuple[CardView, ...]:
    """The tray of a locked plan, unchanged from GO until the car's own turn: the hand before
    the plan (trays.py keeps the cards played in their slots) with the cards played marked."""
    return tray(st, selectable=PLAYABLE.__getitem__, marked=played_slots(st, car.play))


#: the planning screen's words when the plan's spin-out would put the car out of the race
OUT_OF_RACE = "spin-out: OUT of the race"

#: the resolution screen's GO key and DISC key (GO, then the hand to discard from: see
#: _turn_keys); a press of either is answered like GO (answers.acknowledgement)
GO_LABEL = "GO"
DISC_LABEL = "DISC"
COMMIT_LABELS = frozenset({GO_LABEL, DISC_LABEL})


def planning_view(st: Station, race: Race, car: Any) -> StationView:
    """The planning screen of ``car`` at ``st``: gear, speed forecast, corners, the hand."""
    gear = st.target_gear(car.gear)
    rule = race.plan_rule(car.id)
    clogged = gear in rule.clogged
    # in the order GO will play them (an upgrade's symbols resolve in play order)
    cards = rule.playable if clogged else in_hand_order(car.hand, st.selected_cards())
    fc = forecast(race, car.id, gear, cards, partial=True)
    message = st.message
    if clogged and not message:
        message = "CLOGGED: no move, gear 1"
    elif fc.problem and not message and fc.problem.kind != dec.COUNT:
        message = short_problem(fc.problem)
    elif not message and fc.out_probability:  # an Event's spin-out puts the car out
        message = OUT_OF_RACE
    meaning = card_detail(st)
    warned = bool(cards and fc.outcomes and (fc.corners() or fc.spin_probability))
    if not message and not meaning and not warned:
        # how many cards the gear plays (the bars over the cards say how many are chosen):
        # a shift changes its digit, a card nothing (a toggle's answer keeps off this row);
        # a corner's warning takes the row
        message = f"cards to play: {rule.cards_needed(gear)}"
    return _planned_view(st, race, car, fc, gear=car.gear, target_gear=gear,
                         marked=None if not clogged else
                         {i for i in st.visible_slots() if st.slots[i] in set(cards)},
                         message=message, detail=meaning)


def _planned_view(st: Station, race: Race, car: Any, fc: Forecast, *, gear: int,
                  target_gear: int, marked: set[int] | None, message: str,
                  detail: tuple[str, ...] = ()) -> StationView:
    """The planning screen of ``fc`` (the planning and locked screens): SPEED, GEAR and HEAT,
    the corners and spin-out, the tray with ``marked`` slots (None: the station's selection)."""
    speed = ""
    if fc.outcomes and fc.cards:
        speed = str(fc.min_speed) if fc.min_speed == fc.max_speed \
            else f"{fc.min_speed}-{fc.max_speed}"
    spin_p = fc.spin_probability
    corners = tuple(CornerView(c.corner, c.limit, c.heat, *corner_notes(race, c.corner, c.limit))
                    for c in fc.corners())
    return StationView(
        PLANNING, st.index, title=st.name, cards=tray(st, selectable=PLAYABLE.__getitem__,
                                                       marked=marked),
        soft_keys=page_key(st), gear=gear, target_gear=target_gear, shift_cost=fc.shift_cost,
        engine=fc.engine, speed=speed, corners=corners,
        next_corner=None if corners else next_corner(race, car),
        heat_owed=fc.max_heat if fc.outcomes else 0, note=risk_note(fc) if fc.cards else "",
        spin_out=spin_p > 0, spin_odds=round(float(spin_p) * 100), message=message,
        lap=race.lap_of(car.d), laps=race.laps, round=race.round, detail=detail,
        sector=sector_line(race, car.id),
    )


def risk_note(fc: Forecast) -> str:
    """A few words on a toggle the turn screen must keep as preset for the corners to cost what
    the forecast says ("keep COOL on": the Heat GO cools first pays a corner; else the car
    would spin), "" when there is none.

    Example::

        >>> from fractions import Fraction
        >>> from pitboard.engine.forecast import Forecast, Risk
        >>> risk_note(Forecast(0, 2, ("3",), None, 0, False, 1, (),
        ...                    risks=(Risk("cooling", False, Fraction(1)),)))
        'keep COOL on'
    """
    for risk in fc.risks:
        if risk.toggle == "cooling":
            return "keep COOL on"
    return ""


def next_corner(race: Race, car: Any) -> CornerView | None:
    """The next corner line ahead of ``car``: its limit for this car and ``ahead``, the fewest
    spaces of a move that crosses it (as the forecast counts: a line at ``car.d`` is crossed by
    any move); None past the last one."""
    for line, index, limit in race.corners_between(car.d, race.finish_d + 1):
        if race.hooks.car_corner_limit:
            limit = race.hooks.car_corner_limit(race, car, index, limit)
        return CornerView(index + 1, limit, 0, *corner_notes(race, index + 1, limit),
                          ahead=line - car.d + 1)
    return None


def card_detail(st: Station) -> tuple[str, ...]:
    """The meaning of the card last pressed at ``st`` if it is an upgrade (else ())."""
    code = st.focused()
    return detail(code) if code else ()


def tray(st: Station, *, selectable: Any, marked: set[int] | None = None
         ) -> tuple[CardView, ...]:
    """The cards over the tray buttons, ``marked`` slots (None: the station's selection) with
    a bar."""
    chosen = st.selected if marked is None else marked
    out = []
    for index in st.visible_slots():
        code = st.slots[index]
        if code is None:  # keep every card over its own button
            out.append(CardView("", "", disabled=True))
            continue
        out.append(CardView(code, _label(code), selected=index in chosen,
                            disabled=not selectable(code)))
    return tuple(out)


def page_key(st: Station) -> tuple[str, ...]:
    """The soft keys over a tray with more cards than buttons: the last one turns the page."""
    return ("", "", "", "", "", "", "PG>") if st.paged else ()


def _turn_events(race: Race, car_id: int) -> list[CarEvent]:
    """``car_id``'s events since its turn started (none before its first turn)."""
    events = race.events
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if isinstance(e, TurnStarted) and e.car == car_id:
            return [x for x in events[i:] if isinstance(x, CarEvent) and x.car == car_id]
    return []


def _move_view(race: Race, car: Any) -> MoveView:
    spot = "racing line" if car.spot == race.racing_spot(car.d) else "outside"
    blocked = sum(e.blocked for e in _turn_events(race, car.id) if isinstance(e, Moved))
    return MoveView(car.d - car.start_d, car.space, spot, race.lap_of(car.d), blocked)


def _resolution(st: Station, race: Race, car: Any) -> StationView:
    events = _turn_events(race, car.id)
    flips = []
    heat_paid = []
    message = ""
    for e in events:
        if isinstance(e, Flipped):
            card = e.card or "-"
            flips.append(f"{'S' if e.why == 'stress' else '+'}>{card}" if e.kept
                         else f"x{card}")
        elif isinstance(e, HeatPaid):
            heat_paid.append(heat_words(e.why, e.n))
        elif isinstance(e, SpunOut):
            heat_paid.append(f"{e.heat} Heat in the spin-out")
            message = f"SPUN OUT: +{e.stress} Stress, gear 1"
    effects = upgrade_effects(events)
    meaning: tuple[str, ...] = ()
    phase = race.phase
    keys: tuple[str, ...] = ()
    cards: tuple[CardView, ...] = ()
    keys_off: tuple[int, ...] = ()
    toggled = False
    lines: tuple[str, ...] = ()
    corners: tuple[CornerView, ...] = ()
    go_fields: tuple[tuple[str, str], ...] = ()
    if phase in (dec.REACT, dec.SLIPSTREAM):
        corners = turn_corners(race, car)  # checked when the turn's React is over
        shown = shown_for(st.turn, race, car.id)
        keys, keys_off, summary = _turn_keys(shown)
        toggled = any(keys[slot] for slot in TOGGLES)
        garage = symbols_page(st, race, car.id, keys, keys_off, summary)
        if garage is not None:
            keys, keys_off, cards, summary, lines = garage
            toggled = False  # the Garage page says what GO does in its own words
        if message:  # a spin-out leads
            toggled = False
        message = message or summary
        go_fields = shown.fields() if toggled else ()
    elif phase == dec.DISCARD:
        st.sync_slots(car.hand)
        kept = race.undiscardable(car)  # Heat and Stress, unless an Event lets one go
        cards = tray(st, selectable=lambda code: code not in kept)
        keys = page_key(st)
        message = message or "discard? then GO"
        if not st.message:
            meaning = card_detail(st)
    if effects:  # what the upgrades did, mandatory effects first, as they happened
        lines = (", ".join(effects), *lines)
    note = sponsor_note(race, car.id)  # a Press Corner paid: the sponsor is in the hand
    if note and phase == dec.DISCARD:  # (earned after the corners: at the discard step)
        lines = (message, *lines)
        message = note
    return StationView(
        RESOLUTION, st.index, title=st.name, cards=cards, soft_keys=keys, keys_off=keys_off,
        gear=car.gear,
        target_gear=car.gear, engine=car.engine, speed=str(car.speed), flips=tuple(flips[-6:]),
        move=_move_view(race, car), heat_paid=tuple(heat_paid), message=message,
        lap=race.lap_of(car.d), laps=race.laps, round=race.round, lines=lines,
        detail=meaning, sector=sector_line(race, car.id), corners=corners,
        heat_owed=sum(c.heat for c in corners), message_toggles=toggled, go_fields=go_fields,
    )


def heat_words(why: str, n: int) -> str:
    """Heat paid, in a player's words, for the line "paid ..." (a corner, the Boost, a 2-gear
    shift, an upgrade card's Heat symbol).

    Example::

        >>> heat_words("corner 2", 3), heat_words("U59", 1), heat_words("boost", 1)
        ('3 Heat at corner 2', '1 Heat for Front Wing 4', '1 Heat for the Boost')
    """
    if why.startswith("corner"):
        return f"{n} Heat at {why}"
    named = {"boost": "the Boost", "2-gear shift": "the 2-gear shift",
             "downshift": "the downshift"}.get(why)
    return f"{n} Heat for {named or card_name(why)}"


def turn_corners(race: Race, car: Any) -> tuple[CornerView, ...]:
    """The corner lines this turn's move crosses, each with the Heat it costs at the car's
    speed now: charged once React is over (Boost and Adrenaline can still raise it). The same
    arithmetic as the engine's corner check; the planning screen's corner line, for the move
    as made."""
    own_limit, heat_for = race.hooks.car_corner_limit, race.hooks.corner_heat
    engine = car.engine
    out = []
    for _line, index, limit in race.corners_between(car.start_d, car.d):
        if own_limit:
            limit = own_limit(race, car, index, limit)
        excess = max(0, car.speed - limit)
        if excess and heat_for:
            excess = heat_for(race, car, index, excess)
        out.append(CornerView(index + 1, limit, min(excess, engine),
                              *corner_notes(race, index + 1, limit)))
        if excess > engine:  # the engine cannot pay: a spin-out there ends the checks
            break
        engine -= excess
    return tuple(out)


def _turn_keys(shown: TurnChoices) -> tuple[tuple[str, ...], tuple[int, ...], str]:
    """Soft keys of the turn screen, the toggles that are off, and what GO does."""
    keys = [""] * SLOTS
    off = []
    toggles = ((ADRENALINE_KEY, "ADR", shown.adrenaline), (BOOST_KEY, "BST", shown.boost),
               (COOL_KEY, "COOL", shown.cooling if shown.cool else None),
               (SLIP_KEY, f"SL{shown.reach}" if shown.reach else "SLIP", shown.slipstream))
    for slot, label, on in toggles:
        if on is not None:
            keys[slot] = label
            if not on:
                off.append(slot)
    if shown.discard is not None:
        keys[DISCARD_KEY] = DISC_LABEL
    keys[GO_KEY] = GO_LABEL
    return tuple(keys), tuple(off), shown.summary()


def _turns_away(ahead: int) -> str:
    """How far away a car's turn is, in turns of the cars before it."""
    return "you: now" if ahead <= 0 else "you: next" if ahead == 1 else f"you: in {ahead} turns"


def _waiting(scene: TableScene, st: Station, race: Race) -> StationView:
    current = race.current
    order = tuple(f"{i + 1} {race.cars[c].name} L{race.lap_of(race.cars[c].d)}"
                  f" sp{race.cars[c].space}" for i, c in enumerate(race.standings()))
    car = race.cars[st.car] if st.car is not None else None
    if car is not None and car.retired:  # an Event put it out of the race
        message = "OUT of the race: spun out"
    elif car is not None and car.finished:
        place = race.hall_of_fame.index(car.id) + 1 if car.id in race.hall_of_fame else 0
        message = f"FINISHED P{place}" if place else "FINISHED"
    elif current is not None:
        message = f"{current.name} to play"
    else:
        waiting = [race.cars[c].name for c in race.pending().cars]
        message = "waiting: " + ", ".join(waiting)[:30]
    move = _move_view(race, current) if current is not None else None
    if car is not None and current is not None and car.id in race.order[:race.turn]:
        # this car's turn is over (GO answered its last steps at once): where it ended up is
        # what its player must move on the board, and a sponsor it earned on the way
        move = replace(_move_view(race, car), who="you")
        message = sponsor_note(race, car.id) or message
    if car is not None and not car.finished and locked(race, car.id):
        # a plan locked in, its turn to come: the locked screen (the plan's header and tray
        # stay, so the reveal sends two pages) with whose turn it is and the move
        ahead = race.order.index(car.id) - race.turn
        return replace(_locked(st, race, car), kind=WAITING, message=message, move=move,
                       lines=(_turns_away(ahead), current.name if current is not None else ""),
                       order=order[:SLOTS - 1], corners=(), heat_owed=0, spin_out=False,
                       spin_odds=0, soft_keys=())
    return StationView(
        WAITING, st.index, title=st.name, order=order[:SLOTS - 1], message=message, move=move,
        lap=race.lap_of(car.d) if car is not None else 0, laps=race.laps, round=race.round,
        engine=car.engine if car is not None else 0, gear=car.gear if car is not None else 1,
    )
