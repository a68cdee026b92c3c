"""A car's resolution as one screen: the likely answer preset, GO confirms it.

After the reveal a person's car-turn has up to three steps in the engine: React (Adrenaline,
Boost, Cooldown), Slipstream and Discard. Asking each in turn cost players 3.5 presses a
car-turn, most of them confirming the obvious. The table shows the rest of the turn on one
screen instead, with the likely answer already set (:mod:`pitboard.engine.preset`, the one
place it is decided: the forecast before GO plays the same answer forward):

* **COOL** on: cool the most Heat the car may (Heat in hand helps no one);
* **ADR**, **BST** and **SLIP** on when the car can pay the corner Heat they may add and still
  keep some Heat in its engine (a Boost is judged as if it drew a 4, and pays for itself
  first): the heuristic bot's rule;
* keep the hand.

ADR, BST, COOL and SLIP toggle (a lit key is on, an outlined one off); the line above the keys
says what GO will do. **GO** confirms: the engine gets the same decisions one by one (cool,
Adrenaline, Boost, done, slipstream, keep), each journalled as ever. **DISC** is GO, then the
hand shows to pick the cards to discard. A step nobody could foresee when GO was pressed (a
slipstream after a Boost moved the car by a card not yet drawn) is asked when it comes.

The toggles are table-side state like a card selection: never journalled, preset again after
a power cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..engine.decisions import Slipstream
from ..engine.preset import GoAnswers, likely
from ..engine.race import Race
from .turn_symbols import SalvagePicker

#: the soft keys of the turn screen: tray button -> what it does
ADRENALINE_KEY, BOOST_KEY, COOL_KEY, SLIP_KEY, DISCARD_KEY, GO_KEY = 0, 1, 2, 3, 4, 6
#: the toggles, by tray button
TOGGLES = {ADRENALINE_KEY: "adrenaline", BOOST_KEY: "boost", COOL_KEY: "cooling",
           SLIP_KEY: "slipstream"}


@dataclass(frozen=True, slots=True)
class TurnChoices(GoAnswers):
    """What GO will do for the car resolving (None: that choice is not offered now), with the
    turn screen's words for it.

    Example::

        >>> TurnChoices(cool=2, cooling=True, slipstream=False, discard=False).summary()
        'GO: cool 2, keep hand'
    """

    def summary(self) -> str:
        """One line for the screen: what GO does."""
        parts = []
        if self.cool and self.cooling:
            parts.append(f"cool {self.cool}")
        if self.adrenaline:
            parts.append("+1")
        if self.boost:
            parts.append("boost")
        if self.slipstream:
            parts.append(f"slip {self.reach}" if self.reach else "slip")
        if self.discard is not None:
            parts.append("discard" if self.discard else "keep hand")
        return "GO: " + (", ".join(parts) if parts else "done")

    def fields(self) -> tuple[tuple[str, str], ...]:
        """:meth:`summary` as fixed fields (cool, Adrenaline when the car may take it: that
        stays so all turn long, Boost, slipstream, the hand): (the field's text now, "" when
        off or not offered; the widest text it can show), so a screen keeps each field at its
        place while toggles (and the choices they bring or take away, such as a slipstream a
        Boost makes possible) change the others.

        Example::

            >>> TurnChoices(cool=2, cooling=False, boost=True, discard=False).fields()[:2]
            (('', 'cool 8'), ('boost', 'boost'))
        """
        slip = (f"slip {self.reach}" if self.reach else "slip") if self.slipstream else ""
        widest_slip = "slip 8" if any(self.reaches) else "slip"
        hand = "" if self.discard is None else "discard" if self.discard else "keep hand"
        adrenaline = () if self.adrenaline is None else (("+1" if self.adrenaline else "", "+1"),)
        return (("" if not (self.cool and self.cooling) else f"cool {self.cool}", "cool 8"),
                *adrenaline,
                ("boost" if self.boost else "", "boost"),
                (slip, widest_slip),
                (hand, "keep hand"))


@dataclass
class TurnIntent:
    """One station's changes to the likely answer for one car-turn, and what GO answered.

    Example::

        >>> intent = TurnIntent(turn=(3, 1))
        >>> intent.toggle("slipstream", TurnChoices(slipstream=True)).overrides
        {'slipstream': False}
    """

    #: (round, car) these choices are for
    turn: tuple[int, int]
    overrides: dict[str, bool] = field(default_factory=dict)
    #: what the screen showed when GO was pressed: later steps are answered with it
    answers: TurnChoices | None = None
    #: Garage: the page shown (symbols first, then the toggles; see turn_symbols.py)
    page: int = 0
    #: Garage: the discard pile shown to choose cards to salvage (None: not open)
    picker: SalvagePicker | None = None
    #: the slipstream distance the player chose among several (0: the likely answer's)
    reach: int = 0

    def toggle(self, name: str, shown: TurnChoices) -> TurnIntent:
        """Turn a toggle over; SLIP with several distances steps through them, then off."""
        value = getattr(shown, name) if name != "cooling" or shown.cool else None
        if name == "slipstream" and len(shown.reaches) > 1 and value is not None:
            states = [(True, r) for r in shown.reaches] + [(False, 0)]
            now = states.index((True, shown.reach) if value else (False, 0))
            take, self.reach = states[(now + 1) % len(states)]
            self.overrides[name] = take
        elif value is not None:
            self.overrides[name] = not value
        return self

    def slipstream(self, car: int, shown: TurnChoices) -> Slipstream:
        """The Slipstream decision ``shown`` answers (the usual distance as 0, as ever)."""
        return shown.slipstream_decision(car)


def choices(race: Race, car_id: int, overrides: Mapping[str, bool] = {}, reach: int = 0
            ) -> TurnChoices:
    """The likely answer for the rest of ``car_id``'s turn as the race stands
    (:func:`pitboard.engine.preset.likely`), with the player's toggles (``overrides``, by
    field name) and slipstream distance (``reach``, 0: the likely one) applied where the choice
    is offered."""
    return likely(race, car_id, overrides, reach, kind=TurnChoices)


def shown_for(intent: TurnIntent | None, race: Race, car_id: int) -> TurnChoices:
    """What the turn screen of ``car_id`` shows, with ``intent``'s toggles if they are for
    this turn."""
    if intent is None or intent.turn != (race.round, car_id):
        return choices(race, car_id)
    return choices(race, car_id, intent.overrides, intent.reach)
