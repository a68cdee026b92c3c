"""Garage symbols on the turn screen: each optional symbol of the played cards a soft key.

In a Garage race the turn screen (:mod:`pitboard.table.turn`) has pages. While the car's
upgrades offer optional symbols, it opens on the **symbols page**: one soft key per choice
(:func:`symbol_keys`), up to five a page, in the order the engine lists them, and a line above
the keys saying what each does; a press carries the choice out at once (journalled like every
decision), so the player uses the symbols in the order they pick. Tray button 6 turns the page
(MORE while more symbols follow, else TURN) to the turn's toggles (ADR BST COOL SLIP DISC),
where it reads UPG and turns back. GO on any page confirms the toggles as shown, as ever.

The keys, drawn with the symbols' icons (:mod:`pitboard.table.icons`; here in words):

===================  ========================================================================
``SP3``              a speed choice: count this card's speed as 3 (one key per value: when
                     two played cards offer 3, the one with fewer choices takes it)
``direct 2``         play a card from hand now (the key shows its speed)
``accelerate 1``     +1 for every [+] flipped this turn, later ones too
``reduce 2``         drop Stress from hand, as many as the symbols allow (fewer never helps)
``supercool 1``      Heat back from the discard pile to the engine, as many as allowed
``salvage 2``        opens the discard pile in the tray to choose up to 2 cards: the second
                     pick shuffles them into the deck (GO takes fewer; none: no salvage)
``close up 1``       move up behind the car ahead (the line says how many spaces; not "draft",
                     the word of the Garage draft on the same screens)
``refresh 4``        this card (speed 4) goes back on the deck at the end of the turn
===================  ========================================================================

A card's Cooldown adds to COOL, its [+] flips by itself at the reveal, and slipstream +N makes
SLIP a choice of distance (turn.py). The engine offers a symbol only while it can change
something, so there is never a key that does nothing. The page and the salvage picker are
table-side state like a card selection: never journalled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import decisions as dec
from ..engine.cards import HEAT, SPEED, STRESS
from ..engine.decisions import React
from ..engine.garage.choices import draft_spaces
from ..engine.garage.module import GarageModule
from ..engine.garage.symbols import TurnState
from ..engine.race import Race
from .upgrade_art import by_code, icon, speed_text

#: the React actions of the Garage's optional symbols (engine/garage/choices.py)
SYMBOLS = frozenset({"speed", "direct", "accelerate", "reduce", "salvage", "supercool",
                     "draft", "refresh"})
#: symbol keys on one page (tray buttons 1-5); button 6 turns the page, button 7 is GO
PER_PAGE = 5
MORE_KEY = 5


@dataclass(frozen=True, slots=True)
class SymbolKey:
    """One soft key of the symbols page.

    Example::

        >>> SymbolKey("SP3", "speed 3", React(0, "speed", 3, "U8")).picks
        False
    """

    label: str
    #: what it does, in a few words
    text: str
    #: the decision a press makes (for salvage, one of several: the press opens the picker)
    decision: React
    #: up to how many cards the salvage picker takes (0: not a picker)
    most: int = 0

    @property
    def picks(self) -> bool:
        return self.most > 0


@dataclass
class SalvagePicker:
    """The discard pile in the tray, to choose cards to salvage.

    Example::

        >>> p = SalvagePicker(cards=("4", "3", "H"), most=2)
        >>> p.toggle(0), p.toggle(2), p.toggle(1), p.chosen_cards()
        ('', '', 'salvage 2 at most', ('4', 'H'))
    """

    #: one entry per card that can be taken (at most ``most`` of each kind), best first
    cards: tuple[str, ...]
    most: int
    chosen: set[int] = field(default_factory=set)
    page: int = 0

    def toggle(self, index: int) -> str:
        """Choose or unchoose card ``index``; a message when refused ("" when done)."""
        if index in self.chosen:
            self.chosen.discard(index)
        elif len(self.chosen) >= self.most:
            return f"salvage {self.most} at most"
        else:
            self.chosen.add(index)
        return ""

    def chosen_cards(self) -> tuple[str, ...]:
        return tuple(self.cards[i] for i in sorted(self.chosen))


def garage_turn(race: Race, car_id: int) -> TurnState | None:
    """The Garage's state of ``car_id``'s turn (None: no Garage, or no upgrade played)."""
    module = race.hooks.by_key.get("garage")
    return module.turn.get(car_id) if isinstance(module, GarageModule) else None


def symbol_keys(race: Race, car_id: int) -> tuple[SymbolKey, ...]:
    """The symbols page's keys for ``car_id`` now (() outside a Garage race's React step)."""
    if race.phase != dec.REACT or "garage" not in race.hooks.by_key:
        return ()
    options = [o for o in race.react_options(car_id) if o.action in SYMBOLS]
    if not options:
        return ()
    car = race.cars[car_id]
    ts = garage_turn(race, car_id)
    out: list[SymbolKey] = []
    most: dict[str, React] = {}
    salvage: list[React] = []
    speeds: dict[int, int] = {}  # speed value -> its key's index in out
    for o in options:
        action = o.action
        if action == "speed":  # one key per value, however many played cards offer it
            key = SymbolKey(f"SP{o.n}", f"{_name(o.card)} at {o.n}", o)
            at = speeds.get(o.n)
            if at is None:
                speeds[o.n] = len(out)
                out.append(key)
            elif _choices(o.card) < _choices(out[at].decision.card):
                out[at] = key  # the card with fewer choices takes it: the wider one stays free
        elif action == "direct":
            out.append(SymbolKey(icon("direct") + str(SPEED[o.card]),
                                 f"play {_name(o.card)}", o))
        elif action == "accelerate":
            n = ts.accelerate[0] if ts is not None else 1
            out.append(SymbolKey(icon("accelerate", n), f"+{n} per boost flip", o))
        elif action in ("reduce", "supercool"):
            if action not in most or o.n > most[action].n:
                most[action] = o
        elif action == "salvage":
            salvage.append(o)
        elif action == "draft":
            spaces = draft_spaces(race, car, o.n)
            out.append(SymbolKey(icon("draft", o.n), f"close up {spaces}", o))
        elif action == "refresh":
            out.append(SymbolKey(icon("refresh") + str(SPEED[o.card]),
                                 f"refresh {_name(o.card)}", o))
    for action, o in most.items():
        what = f"drop {o.n} Stress" if action == "reduce" else f"super-cool {o.n}"
        out.append(SymbolKey(icon(action, o.n), what, o))
    if salvage:
        n = ts.salvage if ts is not None else 1
        out.append(SymbolKey(icon("salvage", n), f"salvage up to {n}",
                             salvage[0], most=n))
    return tuple(out)


def _choices(code: str) -> int:
    u = by_code(code)
    return len(u.speeds) if u is not None else 1


def _name(code: str) -> str:
    u = by_code(code)
    return f"{u.family} {speed_text(u)}" if u is not None else code


def salvage_picker(race: Race, car_id: int, most: int) -> SalvagePicker:
    """The discard pile of ``car_id`` for the salvage picker: each kind of card at most
    ``most`` times, the fastest first, Heat and Stress last."""
    car = race.cars[car_id]
    kinds = sorted(set(car.discard), key=lambda c: (c in (HEAT, STRESS), -SPEED[c], c))
    cards = [c for c in kinds for _ in range(min(most, car.discard.count(c)))]
    return SalvagePicker(cards=tuple(cards), most=most)


def pages(keys: tuple[SymbolKey, ...]) -> int:
    """How many pages the turn screen has: the symbols', then the toggles'."""
    return -(-len(keys) // PER_PAGE) + 1


def page_keys(keys: tuple[SymbolKey, ...], page: int) -> tuple[SymbolKey, ...] | None:
    """The symbol keys shown on ``page`` (None: that page is the toggles')."""
    page %= pages(keys)
    if page * PER_PAGE >= len(keys):
        return None
    return keys[page * PER_PAGE:(page + 1) * PER_PAGE]
