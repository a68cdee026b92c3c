"""The likely answer to the rest of a car's turn, and the one-GO path that plays it.

After the reveal a car's turn has up to three steps: React (Adrenaline, Boost, Cooldown),
Slipstream and Discard. The table shows them on one screen with the likely answer preset, and
GO confirms it (table/turn.py); the forecast plays the same answer forward before the player
commits (engine/forecast.py). Both ask this file, so the warning before GO is what GO does:

* **cool** the most Heat the car may (Heat in hand helps no one);
* **Adrenaline**, **Boost** and **slipstream** when the car can pay the corner Heat they may
  add and still keep :data:`RESERVE` Heat in its engine (a Boost is judged as if it drew
  :data:`BOOST_GUESS`, and pays for itself first): the heuristic bot's rule;
* keep the hand.

A player's toggles (``overrides``, by field name) change it; the screen's words for it are the
table's (table/turn.py).

Example: car 1 leads round 1; a Boost costs 1 of its 6 Heat and no corner is near::

    >>> from pitboard.engine import Plan, Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
    >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
    >>> race.apply(Plan(car=1, gear=2, cards=("3", "4")))
    >>> likely(race, 1)
    GoAnswers(adrenaline=None, boost=True, cool=0, cooling=False, slipstream=None, reach=0, \
reaches=(), discard=False)
    >>> [str(d) for d in likely(race, 1, {"boost": False}).react(1)]
    ['react 1 done']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from .decisions import (
    ADRENALINE,
    BOOST,
    COOLDOWN,
    DISCARD,
    DONE,
    REACT,
    SLIPSTREAM,
    Decision,
    Discard,
    React,
    Slipstream,
)
from .race import Race
from .react import by_name

#: Heat the likely answer keeps in the engine when it spends some on Adrenaline, Boost or
#: slipstream
RESERVE = 1
#: the Boost card the likely answer plans for (the highest basic card)
BOOST_GUESS = 4
#: React actions a GO's own moves can open (an accelerate: +N for every [+] flipped, the
#: Boost's included): GO stops before "done" to ask when one opens that was not on offer when
#: GO was pressed. Other symbols that open meanwhile are answered "done", as GO says
ASK_WHEN_OPENED = frozenset({"accelerate"})


@dataclass(frozen=True, slots=True)
class GoAnswers:
    """What GO answers for the car resolving (None: that choice is not offered now).

    Example::

        >>> answers = GoAnswers(cool=2, cooling=True, boost=True, discard=False)
        >>> [str(d) for d in answers.react(0)]
        ['react 0 cooldown 2', 'react 0 boost', 'react 0 done']
    """

    adrenaline: bool | None = None
    boost: bool | None = None
    #: Heat the car may cool now (0: none)
    cool: int = 0
    cooling: bool = False
    slipstream: bool | None = None
    #: how far the slipstream goes when a module offers several distances (Garage
    #: "slipstream +N", a weather sector): one of ``reaches``; 0 when there is only the usual
    reach: int = 0
    reaches: tuple[int, ...] = ()
    #: True: after GO the hand is shown to pick cards to discard; False: keep the hand
    #: (None: nothing in hand may be discarded)
    discard: bool | None = None

    def react(self, car: int) -> list[Decision]:
        """The React decisions GO makes, in the order the heuristic bot takes them: cool
        (more Heat to spend), Adrenaline, Boost, done."""
        out: list[Decision] = []
        if self.cool and self.cooling:
            out.append(React(car, COOLDOWN, self.cool))
        if self.adrenaline:
            out.append(React(car, ADRENALINE))
        if self.boost:
            out.append(React(car, BOOST))
        out.append(React(car, DONE))
        return out

    def slipstream_decision(self, car: int) -> Slipstream:
        """The Slipstream decision these answers give (the usual distance as 0, as ever).

        Example::

            >>> GoAnswers(slipstream=True, reach=3, reaches=(2, 3)).slipstream_decision(0)
            Slipstream(car=0, take=True, spaces=3)
        """
        usual = self.reaches[0] if self.reaches else 0
        take = bool(self.slipstream)
        return Slipstream(car, take, self.reach if take and self.reach != usual else 0)


Answers = TypeVar("Answers", bound=GoAnswers)


def likely(race: Race, car_id: int, overrides: Mapping[str, bool] = {}, reach: int = 0, *,
           kind: type[Answers] = GoAnswers) -> Answers:  # type: ignore[assignment]
    """The likely answer for the rest of ``car_id``'s turn as the race stands, with a player's
    toggles (``overrides``, by field name) and slipstream distance (``reach``, 0: the likely
    one) applied where the choice is offered; built as ``kind`` (a screen's subclass)."""
    car = race.cars[car_id]
    phase = race.phase
    adrenaline: bool | None = None
    boost: bool | None = None
    cool = 0
    if phase == REACT:
        for option in race.react_options(car_id):
            if option.action == ADRENALINE:
                adrenaline = True
            elif option.action == BOOST:
                boost = True
            elif option.action == COOLDOWN:
                cool = max(cool, option.n)
    cooling = overrides.get("cooling", True) if cool else False
    engine = car.engine + (cool if cooling else 0)  # GO cools first
    extra = 0
    if adrenaline:
        adrenaline = overrides.get("adrenaline", _affordable(race, car_id, engine, 1, 1))
        extra = 1 if adrenaline else 0
    if boost:
        cost = race.boost_heat(car)
        boost = overrides.get("boost", engine >= cost and _affordable(
            race, car_id, engine - cost, extra + BOOST_GUESS, extra + BOOST_GUESS))
    slipstream: bool | None = None
    reaches: tuple[int, ...] = ()
    far = 0
    if not boost and phase in (REACT, SLIPSTREAM) and race.slipstream_allowed(car):
        reaches = race.slipstream_reaches(car)
        # the likely answer: the longest distance whose corners the car can pay
        far = next((r for r in sorted(reaches, reverse=True)
                    if _affordable(race, car_id, engine, extra + r, extra)), 0)
        slipstream = overrides.get("slipstream", bool(far))
        if len(reaches) > 1:
            far = reach if reach in reaches else far or reaches[0]
        else:
            far, reaches = 0, ()
    # (not on a tunnel space: if a Boost or slipstream takes the car out, the step is asked;
    # what may go is the race's: a championship Event may let Heat or Stress go)
    discard = overrides.get("discard", False) if not race.undiscardable(car).issuperset(
        car.hand) and race.may_discard(car) else None
    return kind(adrenaline=adrenaline, boost=boost, cool=cool, cooling=cooling,
                slipstream=slipstream, reach=far if slipstream else 0, reaches=reaches,
                discard=discard)


def _affordable(race: Race, car_id: int, engine: int, spaces: int, speed: int) -> bool:
    """With ``engine`` Heat, the car can pay the corner Heat of moving ``spaces`` more at
    ``speed`` more and still keep :data:`RESERVE` (corners already crossed included, as the
    engine bills them)."""
    car = race.cars[car_id]
    return race.corner_bill(car.start_d, car.d + spaces, car.speed + speed, car) <= \
        engine - RESERVE


def resolving(race: Race, car_id: int, phase: str) -> bool:
    """Is ``car_id`` the car resolving, at ``phase`` of its turn?"""
    current = race.current
    return race.phase == phase and current is not None and current.id == car_id


def opened(race: Race, car_id: int) -> frozenset[str]:
    """The actions of :data:`ASK_WHEN_OPENED` on offer to ``car_id`` now."""
    if ASK_WHEN_OPENED.isdisjoint(by_name(race.hooks.react_actions)) or \
            not resolving(race, car_id, REACT):
        return frozenset()  # (most races offer none of them: asked twice a GO)
    return frozenset(o.action for o in race.react_options(car_id)
                     if o.action in ASK_WHEN_OPENED)


def go(race: Race, car_id: int, answers: GoAnswers) -> Iterator[Decision]:
    """The React decisions one GO press makes, one at a time: the caller applies each before
    asking for the next (each may change what follows). It ends early when the turn has moved
    on, or before "done" when a move since GO opened an action to ask about
    (:data:`ASK_WHEN_OPENED`)."""
    before = opened(race, car_id)
    for decision in answers.react(car_id):
        if not resolving(race, car_id, REACT):
            return
        if isinstance(decision, React) and decision.action == DONE and \
                opened(race, car_id) - before:
            return
        yield decision


def answered(race: Race, car_id: int, answers: GoAnswers | None) -> Decision | None:
    """The decision an earlier GO (``answers``) already gave for the step ``car_id`` is at:
    the slipstream as shown, keeping the hand; None when it must be asked (a step nobody
    could foresee at GO, a distance gone since)."""
    if answers is None:
        return None
    if race.phase == SLIPSTREAM and answers.slipstream is not None:
        slip = answers.slipstream_decision(car_id)
        if slip.spaces and slip.spaces not in race.slipstream_reaches(race.cars[car_id]):
            return None
        return slip
    if race.phase == DISCARD and answers.discard is False:
        return Discard(car_id, ())
    return None


def play_turn(race: Race, car_id: int, overrides: Mapping[str, bool] = {}, *,
              until: str = DISCARD) -> None:
    """Play the rest of ``car_id``'s turn (it must be resolving) as the table does when its
    player only presses GO: each screen's likely answer with ``overrides`` applied, the steps
    an earlier GO answered taken at once, forced ones too. Stops when the turn is over or at
    the ``until`` step (the discard: the move is done by then)."""
    answers: GoAnswers | None = None
    while race.phase != until and race.current is not None and race.current.id == car_id:
        pending = race.pending()
        if pending.forced:
            race.apply(pending.options[0])
            continue
        step = answered(race, car_id, answers)
        if step is not None:
            race.apply(step)
            continue
        # the turn screen asks: the player presses GO on what it shows
        answers = likely(race, car_id, overrides)
        if race.phase == SLIPSTREAM:
            race.apply(answers.slipstream_decision(car_id))
        elif race.phase == REACT:
            for decision in go(race, car_id, answers):
                race.apply(decision)
        else:  # the hand, after DISC: kept
            race.apply(Discard(car_id, ()))
