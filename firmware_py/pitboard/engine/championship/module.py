"""The championship module: one race of a season, with its Event card, its Press Corners and the
Sponsorship cards.

Options (``RaceSetup.modules["championship"]``, plain JSON):

==============  ===============================================================================
``event``       the Event card's key (``championship.toml``): its sponsors, Press Corners, rules
``expansions``  the boxes whose sponsor types join the sponsor deck (``heavy_rain``,
                ``tunnel_vision``); default: the Event's own box
``deck``        the sponsor deck, top first (scenarios): dealt and earned from it in order,
                instead of the box's deck shuffled from the seed
==============  ===============================================================================

Sponsorship cards are one-time upgrade cards (``P1``-``P7`` in ``garage/upgrades.toml``): the
Garage module plays their symbols and takes them out of the game once played, so a
championship race always has the Garage module (``{"choose": "none"}`` keeps the starting
upgrades when nobody races upgrades).

* **At the start** each car (not a Legend: it holds no cards) is dealt the Event's number of
  sponsors from the deck, shuffled into its draw deck (``[sponsors] dealt_to``).
* **A Press Corner** (the Event's letters: :meth:`Track.press_slots
  <pitboard.track.Track.press_slots>`) crossed at its limit + 2 or more, or crossed by a
  slipstream, earns a sponsor, into the hand (``earned_to``); at most one per corner per move,
  none on a turn the car spun out. The Event's rules may change both (:mod:`.rules`).
* The deck runs out: nothing more is earned (the event says so: ``card`` None).

Example: Record crowds on Great Britain, Press Corners C and E (corner lines 3 and 5)::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="great_britain", cars=2, seed=1, modules={
    ...     "garage": {"choose": "none"}, "championship": {"event": "record_crowds"}}))
    >>> champ = race.hooks.by_key["championship"]
    >>> champ.press, [champ.dealt[c] for c in (0, 1)]
    ((2, 4), [['P3'], ['P1']])
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..events import EventRevealed, SponsorEarned, SponsorsDealt
from ..garage.data import UPGRADES
from ..modules import RaceModule, register_module
from ..stamp import register_data
from .data import EXPANSIONS, LETTERS, Championship, Event, load_championship
from .rules import EventRule, build_rules, overriding

if TYPE_CHECKING:
    from ..car import Car
    from ..modules import ModuleRace
    from ..setup import RaceSetup

KEY = "championship"
_OPTIONS = ("event", "expansions", "deck")
#: sponsor card codes by box ("" the base box)
SPONSORS: dict[str, tuple[str, ...]] = {}
for _u in UPGRADES.values():
    if _u.tier == "sponsor":
        SPONSORS[_u.expansion] = (*SPONSORS.get(_u.expansion, ()), _u.key)
SPONSOR_CODES = frozenset(code for codes in SPONSORS.values() for code in codes)

# a journalled championship race replays only with the same data and rules (engine/stamp.py)
register_data(KEY, "data", resources.files(__package__).joinpath("championship.toml"))
register_data(KEY, "rules", "championship-1")  # bump when a rule's code changes what it does


def sponsor_deck(data: Championship, expansions: tuple[str, ...]) -> list[str]:
    """The sponsor deck before the shuffle: ``copies`` of every base type, and of each type of
    the ``expansions``."""
    return [code for box in ("", *expansions) for code in SPONSORS.get(box, ())
            for _ in range(data.copies)]


def press_corners(event: Event, track_slots: list[int]) -> tuple[int, ...]:
    """The corner lines (0-based) of ``event``'s Press Corners on a track with these slots:
    letter A is the first slot, and a letter past the last slot counts round again."""
    return tuple(sorted({track_slots[LETTERS.index(letter) % len(track_slots)]
                         for letter in event.press}))


@register_module
class ChampionshipModule(RaceModule):
    """The Event, Press Corners and sponsors of one championship race (module docstring).

    Example: a Press Corner at limit + 2 (``tests/scenarios/champ_press_corner.txt``)::

        >>> from pitboard.scenario import load_scenario
        >>> race = load_scenario("tests/scenarios/champ_press_corner.txt").run()
        >>> champ = race.hooks.by_key["championship"]
        >>> champ.event.name, champ.earned, champ.to_dict()["press"]
        ('Title sponsor change', {0: ['P4']}, [1])
    """

    key = KEY
    deals_onetime = True  # sponsors earned at Press Corners

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.data = load_championship()
        self.event = self.data.event(str(options["event"]))
        self.rules: tuple[EventRule, ...] = build_rules(self.event.rules)
        self.parts = self.rules
        self._pays = overriding(self.rules, "press_pays")
        self._sponsors = overriding(self.rules, "press_sponsors")
        given = options.get("expansions")
        self.expansions: tuple[str, ...] = tuple(given) if given is not None else \
            tuple(filter(None, (self.event.expansion,)))
        #: Press Corner lines (0-based), set with the track (prepare, load)
        self.press: tuple[int, ...] = ()
        #: the sponsor deck, top first
        self.deck: list[str] = []
        #: sponsors dealt at the start, earned in the race, by car
        self.dealt: dict[int, list[str]] = {}
        self.earned: dict[int, list[str]] = {}
        #: Heat cards taken out of the game (an Event's heat_per_lap), by car
        self.heat_removed: dict[int, int] = {}

    # -- options and state ------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: Mapping[str, Any], setup: RaceSetup) -> None:
        unknown = set(options) - set(_OPTIONS)
        if unknown:
            raise ValueError(f"championship: unknown option {sorted(unknown)[0]!r} "
                             f"(known: {', '.join(_OPTIONS)})")
        if "garage" not in setup.modules:
            raise ValueError("championship: sponsors are upgrade cards: the race needs the "
                             "garage module (choose none races without upgrades)")
        event = options.get("event")
        if not isinstance(event, str):
            raise ValueError("championship: event must be an Event's key (see "
                             "championship.toml)")
        load_championship().event(event)  # one line naming the known Events
        expansions = options.get("expansions", [])
        if not isinstance(expansions, list) or any(e not in EXPANSIONS for e in expansions):
            raise ValueError(f"championship: expansions must be a list of "
                             f"{', '.join(EXPANSIONS)}")
        deck = options.get("deck")
        if deck is not None and (not isinstance(deck, list) or
                                 any(c not in SPONSOR_CODES for c in deck)):
            raise ValueError(f"championship: deck must be a list of sponsor cards "
                             f"({', '.join(sorted(SPONSOR_CODES))})")

    def to_dict(self) -> dict[str, Any]:
        return {"deck": list(self.deck),
                "dealt": {str(k): list(v) for k, v in sorted(self.dealt.items())},
                "earned": {str(k): list(v) for k, v in sorted(self.earned.items())},
                "heat_removed": {str(k): v for k, v in sorted(self.heat_removed.items())},
                "press": [i + 1 for i in self.press]}

    def load(self, data: Mapping[str, Any]) -> None:
        self.deck = [str(c) for c in data.get("deck", [])]
        self.dealt = {int(k): [str(c) for c in v] for k, v in data.get("dealt", {}).items()}
        self.earned = {int(k): [str(c) for c in v] for k, v in data.get("earned", {}).items()}
        self.heat_removed = {int(k): int(v) for k, v in data.get("heat_removed", {}).items()}
        self.press = tuple(int(n) - 1 for n in data.get("press", []))

    # -- before the race --------------------------------------------------------------------
    def prepare(self, race: ModuleRace) -> None:
        self.press = press_corners(self.event, race.track.press_slots())
        deck = self.options.get("deck")
        if deck is not None:
            self.deck = list(deck)
        else:
            self.deck = sponsor_deck(self.data, self.expansions)
            race.shuffle(self.deck)
        if race.record_events:
            race.record(EventRevealed(event=self.event.key,
                                      press=tuple(i + 1 for i in self.press), round=race.round))

    def setup_car(self, race: ModuleRace, car: Car) -> None:
        plans = race.hooks.plans
        if not self.event.sponsors or (plans is not None and not plans(race, car)):
            return  # a Legend car holds no cards
        cards = self._draw(self.event.sponsors)
        self.dealt[car.id] = cards
        (car.draw if self.data.dealt_to == "deck" else car.hand).extend(cards)
        if race.record_events:
            race.record(SponsorsDealt(car=car.id, cards=tuple(cards), round=race.round))

    def _draw(self, n: int) -> list[str]:
        cards = self.deck[:n]
        del self.deck[:n]
        return cards

    # -- the race -------------------------------------------------------------------------------
    def after_corners(self, race: ModuleRace, car: Car) -> None:
        if car.spun or not self.press:
            return  # no sponsor on a spin-out turn
        for line, index, limit in race.corners_between(car.start_d, car.d):
            if index not in self.press:
                continue
            slipstream = car.slipstreamed and car.slip_from <= line
            pays = slipstream or car.speed >= limit + self.data.margin
            for r in self._pays:
                pays = r.press_pays(race, car, limit, slipstream, pays)
            if not pays:
                continue
            n = 1
            for r in self._sponsors:
                n = r.press_sponsors(n)
            why = "slipstream" if slipstream and car.speed < limit + self.data.margin \
                else "press"
            for _ in range(n):
                self.earn(race, car, why, index + 1)

    def earn(self, race: ModuleRace, car: Car, why: str, corner: int | None = None) -> None:
        """``car`` earns a sponsor for ``why`` (at Press Corner ``corner``, as printed): the
        deck's top card, into its hand (``earned_to``); none when the deck is empty."""
        cards = self._draw(1)
        card = cards[0] if cards else None
        if card is not None:
            self.earned.setdefault(car.id, []).append(card)
            place = self.data.earned_to
            (car.hand if place == "hand" else car.draw if place == "deck" else
             car.discard).append(card)
            if place == "deck":
                race.shuffle(car.draw)
        if race.record_events:
            race.record(SponsorEarned(car=car.id, card=card, why=why, corner=corner,
                                      round=race.round))

    def heat_gone(self, car: Car, n: int) -> None:
        """``n`` of ``car``'s Heat cards left the game (an Event's rule)."""
        if n:
            self.heat_removed[car.id] = self.heat_removed.get(car.id, 0) + n

    # -- after the race ------------------------------------------------------------------------
    def points(self, hall_of_fame: list[int]) -> dict[int, int]:
        """The points of a finished race by car: the place's points, then the Event's
        bonuses. A car out of the race (not in ``hall_of_fame``) scores nothing."""
        table = self.data.points
        points = {car: table[i] if i < len(table) else 0 for i, car in enumerate(hall_of_fame)}
        for r in overriding(self.rules, "race_points"):
            r.race_points(hall_of_fame, points)
        return points


def championship(race: ModuleRace) -> ChampionshipModule | None:
    """The race's championship module (None: not a championship race)."""
    module = race.hooks.by_key.get(KEY)
    return module if isinstance(module, ChampionshipModule) else None


__all__ = ["KEY", "SPONSORS", "SPONSOR_CODES", "ChampionshipModule", "championship",
           "press_corners", "sponsor_deck"]
