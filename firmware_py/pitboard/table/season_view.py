"""What the stations show of a championship season (table_season.py): the standings between
races and at the end, the Event card and Press Corners on the set-up checklist, a sponsor just
earned, a car out of the race. Pure: built from the engine's season and race.

Example: the standings after the first race of 1961, as every station shows them::

    >>> from pitboard.bots import HeuristicBot
    >>> from pitboard.engine.championship.season import Season, SeasonSetup
    >>> season = Season(SeasonSetup(season="1961", cars=2, seed=3, names=("Ann", "Bob")))
    >>> bot = HeuristicBot(seed=1)
    >>> while not season.race.over:
    ...     season.race.apply(bot.choose(season.race, season.race.waiting_for()))
    >>> view = standings_view(season, 0)
    >>> view.title, view.order, view.message
    ('1961 RACE 1/3', ('1 Ann\\t9 +9', '2 Bob\\t6 +6'), 'GO: race 2, USA')
"""

from __future__ import annotations

from ..engine.championship.module import championship
from ..engine.championship.season import Season, SeasonSetup, season_plan
from ..engine.events import SponsorEarned
from ..engine.garage.data import UPGRADES
from ..engine.race import Race
from ..trackfile import load_track
from .canvas import WIDTH
from .fonts import SMALL
from .upgrade_art import wrap
from .view import STANDINGS, StationView


def season_words(season: str) -> tuple[str, ...]:
    """What the lobby says of a season before it starts: its name and its races.

    Example::

        >>> season_words("1961")
        ('championship 1961', '3 races: Great Britain,', 'USA, Italy')
        >>> season_words("random")
        ('championship: random', '4 races drawn at the start')
    """
    if season == "random":
        races = len(season_plan(SeasonSetup(season="random")))
        return ("championship: random", f"{races} races drawn at the start")
    tracks = [load_track(r.track).name for r in season_plan(SeasonSetup(season=season))]
    head = f"{len(tracks)} races: {tracks[0]},"
    return (f"championship {season}", head, ", ".join(tracks[1:]))


def season_title(season: Season) -> str:
    """``1961 RACE 2/3``: the season and where it stands (``RANDOM`` for a random one)."""
    return f"{season.setup.season.upper()} RACE {season.index + 1}/{len(season.plan)}"


def standings_view(season: Season, station: int) -> StationView:
    """The standings after a race (every car: place, name, points in all and in that race)
    with the next race; after the last race, the final standings. Each row is ``"place
    name\\tpoints"``: the screen puts the points at the right."""
    race = season.race
    latest = season.results()[-1].points
    totals = season.totals()
    order = tuple(f"{i + 1} {race.cars[c].name}\t{totals[c]} +{latest.get(c, 0)}"
                  for i, c in enumerate(season.standings()))
    if season.over:
        return StationView(STANDINGS, station,
                           title=f"{season.setup.season.upper()} FINAL STANDINGS",
                           order=order, message="GO: back to the lobby",
                           soft_keys=("", "", "", "", "", "", "END"))
    upcoming = season.plan[season.index + 1]
    return StationView(STANDINGS, station, title=season_title(season), order=order,
                       message=f"GO: race {season.index + 2}, {load_track(upcoming.track).name}",
                       soft_keys=("", "", "", "", "", "", "NEXT"))


def event_pages(race: Race, season: Season | None) -> list[tuple[str, tuple[str, ...]]]:
    """The set-up checklist's pages of a championship race: the Event card and its rule, then
    the Press Corners (by corner number as the board prints them, the letter in brackets).

    Example::

        >>> from pitboard.engine.championship.season import Season, SeasonSetup
        >>> season = Season(SeasonSetup(season="1962"))
        >>> for title, lines in event_pages(season.race, season):
        ...     print(title, lines)
        EVENT ('race 1/3: Italy', 'Mechanical', 'restrictions lifted', '+1 Heat in each engine', \
'2 sponsors each in deck')
        PRESS CORNERS ('corner 2 (E)', 'sponsor: at limit+2', 'or by slipstream')
    """
    module = championship(race)
    if module is None:
        return []
    event = module.event
    where = race.track.name if season is None else \
        f"race {season.index + 1}/{len(season.plan)}: {race.track.name}"
    # every line wrapped to the small font's width: a page of up to 5 lines is drawn in it,
    # a longer one all in the tiny font (never a mix)
    lines = [where, *wrap(event.name, SMALL, WIDTH - 4), *wrap(event.text, SMALL, WIDTH - 4),
             f"{event.sponsors} sponsor{'s' if event.sponsors != 1 else ''} each in deck"
             if event.sponsors else "no sponsor at the start"]
    pages = [("EVENT", tuple(lines))]
    slots = race.track.press_slots()
    letters: dict[int, list[str]] = {}
    for letter in event.press:
        letters.setdefault(slots["ABCDEFGH".index(letter) % len(slots)], []).append(letter)
    corners = [f"corner {i + 1} ({'/'.join(letters[i])})" for i in module.press]
    if not corners:
        return [*pages, ("PRESS CORNERS", ("no Press Corner this race",))]
    how = ("sponsor: only under", "the speed limit") if any(
        name == "press_below_limit" for name, _ in event.rules) else \
        ("sponsor: at limit+2", "or by slipstream")
    return [*pages, ("PRESS CORNERS", (*corners, *how))]


def sponsor_note(race: Race, car: int) -> str:
    """What ``car`` earned this round, for its station: ``SPONSOR: Lord&Co. (C3)`` ("" if
    nothing). An empty sponsor deck says so."""
    notes = []
    for e in reversed(race.events):
        if e.round != race.round:
            break
        if isinstance(e, SponsorEarned) and e.car == car:
            if e.card is None:
                notes.append("no sponsor left")
            else:
                at = f" (C{e.corner})" if e.corner else ""
                notes.append(f"{sponsor_name(e.card)}{at}")
    if not notes:
        return ""
    return "SPONSOR: " + ", ".join(reversed(notes))


def sponsor_name(code: str) -> str:
    """A sponsor's name as the small screen font spells it (it has no ``&``).

    Example::

        >>> sponsor_name("P4"), sponsor_name("P1")
        ('Lord+Co. T.B.', 'Dramdo Brakes')
    """
    return UPGRADES[code].family.replace("&", "+")


def sponsor_news(race: Race) -> str:
    """The latest sponsor earned this round by anyone, for the race-control display
    (``Ann: sponsor at C3``; "" if none)."""
    for e in reversed(race.events):
        if e.round != race.round:
            return ""
        if isinstance(e, SponsorEarned) and e.card is not None:
            at = f" at C{e.corner}" if e.corner else f" ({e.why})"
            return f"{race.cars[e.car].name}: sponsor{at}"
    return ""


__all__ = ["event_pages", "season_title", "season_words", "sponsor_name", "sponsor_news",
           "sponsor_note", "standings_view"]
