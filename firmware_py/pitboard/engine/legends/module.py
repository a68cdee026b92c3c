"""The Legends module: automated rival cars that move by the Legend cards instead of a hand.

Options (``RaceSetup.modules["legends"]``), plain JSON:

=============  ==============================================================================
``cars``       how many Legend cars: the last ``cars`` cars of the race (at least one car must
               be driven by a player or a bot). Or give ``colours`` instead.
``colours``    the Legend cars' helmet colours, one per Legend car (the last cars, in order),
               or a table of car number -> colour for Legend cars anywhere in the field;
               default: the data file's colours in order
``deck``       Legend card numbers on top of the deck, top first (scenarios, a repeatable demo);
               the cards not listed are shuffled below them from the race's seed
``pro``        Pro Legends: 0..6 added to every top speed (default 0)
``aggressive`` Aggressive Legends: may cross 2 corner lines where the track prints chevrons,
               3 where it prints a double chevron (default false)
=============  ==============================================================================

Legend cars never plan, pay Heat, cool down, slipstream or spin out; they take a grid spot, block
spaces, count for Adrenaline (and gain nothing from it), can be slipstreamed off, finish and rank
like any car. Each round the top Legend card is flipped when the first Legend car moves; when
the deck runs out all the cards are shuffled into a new deck with the race's seeded stream.

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=3, seed=4, laps=1,
    ...                       modules={"legends": {"cars": 2, "colours": ["red", "blue"]}}))
    >>> race.pending().cars                       # only car 0 plans
    (0,)
    >>> legend_cars(race)
    {1: 'red', 2: 'blue'}
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..events import LegendCardFlipped, LegendDeckReshuffled, LegendMoved
from ..modules import RaceModule, register_module
from ..stamp import register_data
from .cards import LegendDeck, load_legend_cards
from .movement import legend_move

if TYPE_CHECKING:
    from ..car import Car
    from ..modules import ModuleRace
    from ..setup import RaceSetup

KEY = "legends"
MAX_PRO = 6
_OPTIONS = ("cars", "colours", "deck", "pro", "aggressive")

# a journalled race replays only with the same cards and movement rule (engine/stamp.py): bump
# the version whenever movement.py changes where a Legend goes
register_data(KEY, "cards", resources.files(__package__).joinpath("legend_cards.toml"))
register_data(KEY, "rules", "legends-1")


@register_module
class Legends(RaceModule):
    """Legend cars in one race (see the module docstring for the options).

    Example: the last 2 of 3 cars are Legends, card 2 on top of their deck::

        >>> from pitboard.engine import Race, RaceSetup
        >>> from pitboard.engine.decisions import parse_decision
        >>> race = Race(RaceSetup(track="usa", cars=3, seed=4, laps=1,
        ...                       modules={"legends": {"cars": 2, "deck": [2]}}))
        >>> legends = race.hooks.by_key["legends"]
        >>> legends.colour_of, legends.deck[0], [car.name for car in race.cars]
        ({1: 'black', 2: 'blue'}, 2, ['Car 1', 'Black Legend', 'Blue Legend'])
        >>> race.apply(parse_decision("plan 0 gear 2 cards 3 4"))  # the Legends need no plan
        >>> legends.card, [(e.car, e.branch, e.d)
        ...                for e in race.events if isinstance(e, LegendMoved)]
        (2, [(2, 'brake', 10), (1, 'brake', 9)])

    Card 2 gives blue top speed 16 and diamond 2: 16 would cross corner 1 (the line after
    space 12), so the Blue Legend brakes 2 spaces before it; black (18, diamond 3) stops on 9.
    """

    key = KEY

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.data: LegendDeck = load_legend_cards()
        self.pro = int(options.get("pro", 0))
        self.aggressive = bool(options.get("aggressive", False))
        #: car id -> helmet colour (filled in prepare, when the number of cars is known)
        self.colour_of: dict[int, str] = {}
        #: card numbers still to flip, top first
        self.deck: list[int] = []
        #: the card flipped this round (0: none yet) and the round it was flipped in
        self.card = 0
        self.card_round = 0
        self.flips = 0

    # -- options and state ------------------------------------------------------------------
    @classmethod
    def check_options(cls, options: Mapping[str, Any], setup: RaceSetup) -> None:
        for key in options:
            if key not in _OPTIONS:
                raise ValueError(f"legends: unknown option {key!r} (known: {', '.join(_OPTIONS)})")
        data = load_legend_cards()
        colours = _colour_of(options, data, setup.cars)
        if not colours:
            raise ValueError("legends: give 1 or more Legend cars")
        if len(colours) >= setup.cars:
            raise ValueError(f"legends: {len(colours)} Legend cars leave no driven car among "
                             f"{setup.cars} cars (solo is 1 player against Legends)")
        deck = options.get("deck", [])
        if not isinstance(deck, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in deck):
            raise ValueError("legends: deck must be a list of card numbers")
        for n in deck:
            if not 1 <= n <= len(data.cards):
                raise ValueError(f"legends: no Legend card {n} (cards are 1..{len(data.cards)})")
        if len(set(deck)) != len(deck):
            raise ValueError("legends: deck lists a card twice")
        pro = options.get("pro", 0)
        if not isinstance(pro, int) or isinstance(pro, bool) or not 0 <= pro <= MAX_PRO:
            raise ValueError(f"legends: pro must be 0..{MAX_PRO}, not {pro!r}")
        if not isinstance(options.get("aggressive", False), bool):
            raise ValueError("legends: aggressive must be true or false")

    def to_dict(self) -> dict[str, Any]:
        return {"deck": list(self.deck), "card": self.card, "card_round": self.card_round,
                "flips": self.flips,
                "colour_of": {str(k): v for k, v in sorted(self.colour_of.items())}}

    def load(self, data: Mapping[str, Any]) -> None:
        self.deck = [int(n) for n in data.get("deck", [])]
        self.card = int(data.get("card", 0))
        self.card_round = int(data.get("card_round", 0))
        self.flips = int(data.get("flips", 0))
        self.colour_of = {int(k): str(v) for k, v in data.get("colour_of", {}).items()}

    # -- before the race --------------------------------------------------------------------
    def prepare(self, race: ModuleRace) -> None:
        self.colour_of = _colour_of(self.options, self.data, race.setup.cars)
        given = [int(n) for n in self.options.get("deck", [])]
        rest = [c.number for c in self.data.cards if c.number not in given]
        race.shuffle(rest)
        self.deck = given + rest

    def setup_car(self, race: ModuleRace, car: Car) -> None:
        colour = self.colour_of.get(car.id)
        if colour is None:
            return
        car.draw = []  # a Legend holds no cards and no Heat
        car.engine = 0
        if not race.setup.names:
            car.name = f"{colour.capitalize()} Legend"

    # -- the round -----------------------------------------------------------------------------
    def plans(self, race: ModuleRace, car: Car) -> bool:
        return car.id not in self.colour_of

    def drive(self, race: ModuleRace, car: Car) -> bool:
        colour = self.colour_of.get(car.id)
        if colour is None:
            return False
        if self.card_round != race.round:
            self._flip(race)
        entry = self.data.card(self.card).entry(colour)
        move = legend_move(race, car, entry, aggressive=self.aggressive, pro=self.pro)
        frm = car.d
        car.speed = move.target - frm
        race.move(car, move.target - frm, "legend")
        if race.record_events:
            p = race.where(car)
            race.record(LegendMoved(
                car=car.id, colour=colour, card=self.card, branch=move.branch,
                corner=None if move.corner is None else move.corner + 1, speed=car.speed,
                frm=frm, d=p.d, lap=p.lap, space=p.space, spot=p.spot,
                racing_line=p.racing_line, round=race.round))
        return True

    def _flip(self, race: ModuleRace) -> None:
        if not self.deck:  # every card has been used: shuffle them all into a new deck
            self.deck = [c.number for c in self.data.cards]
            race.shuffle(self.deck)
            if race.record_events:
                race.record(LegendDeckReshuffled(cards=len(self.deck), round=race.round))
        self.card = self.deck.pop(0)
        self.card_round = race.round
        self.flips += 1
        if race.record_events:
            race.record(LegendCardFlipped(card=self.card, round=race.round))


def _colour_of(options: Mapping[str, Any], data: LegendDeck, cars: int) -> dict[int, str]:
    """Car id -> colour of every Legend car, from ``cars`` and/or ``colours`` (ValueError with
    a one-line reason if they are wrong or clash)."""
    given = options.get("colours")
    count = options.get("cars")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool)
                              or count < 0):
        raise ValueError(f"legends: cars must be a whole number, not {count!r}")
    if given is None:
        if count is None:
            raise ValueError("legends: give cars (how many) or colours (one per Legend car)")
        if count > len(data.colours):
            raise ValueError(f"legends: at most {len(data.colours)} Legend cars "
                             f"(one per helmet colour: {', '.join(data.colours)})")
        given = list(data.colours[:count])
    if isinstance(given, Mapping):
        seats = {}
        for key, colour in given.items():
            if not str(key).isdigit() or not 0 <= int(key) < cars:
                raise ValueError(f"legends: no car {key} (cars are 0..{cars - 1})")
            seats[int(key)] = colour
    elif isinstance(given, list):
        seats = {cars - len(given) + i: colour for i, colour in enumerate(given)}
    else:
        raise ValueError("legends: colours must be a list of colour names")
    for colour in seats.values():
        if colour not in data.colours:
            raise ValueError(f"legends: unknown colour {colour!r} "
                             f"(known: {', '.join(data.colours)})")
    if len(set(seats.values())) != len(seats):
        raise ValueError("legends: two Legend cars have the same colour")
    if count is not None and count != len(seats):
        raise ValueError(f"legends: cars is {count} but {len(seats)} colours are given")
    return dict(sorted(seats.items()))


def legend_count(options: Mapping[str, Any]) -> int:
    """How many Legend cars the module options ask for (0 for none)."""
    return int(options.get("cars") or len(options.get("colours") or ()))


def legend_cars(race: ModuleRace) -> dict[int, str]:
    """Car id -> helmet colour of every Legend car in ``race`` (empty without the module)."""
    module = race.hooks.by_key.get(KEY)
    return dict(module.colour_of) if isinstance(module, Legends) else {}


def legend_card(race: ModuleRace) -> int:
    """The Legend card flipped this round (0 before the first Legend has moved)."""
    module = race.hooks.by_key.get(KEY)
    if isinstance(module, Legends) and module.card_round == race.round:
        return module.card
    return 0


def legend_grid(race: ModuleRace) -> list[dict[str, Any]]:
    """Where each Legend car starts, for the set-up checklist: car, colour, grid position
    (1 = pole), board space and spot, in grid order."""
    colours = legend_cars(race)
    out = []
    for slot, car_id in enumerate(race.grid, start=1):
        if car_id in colours:
            space, spot = race.track.grid[slot - 1]
            out.append({"car": car_id, "colour": colours[car_id], "grid": slot,
                        "space": space, "spot": spot})
    return out
