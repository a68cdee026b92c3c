"""Decisions a player makes, and what the race is waiting for.

Decisions are NamedTuples: immutable, hashable and cheap to build, which matters because a bot
race makes hundreds of them.

A decision is a small frozen value; the race log is a list of them, so *seed + log* replays a
race. Each has a JSON form (``to_dict``/``decision_from_dict``) and a one-line text form
(``str()``/``parse_decision``) used by scenario files and the console.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from .cards import PLAYABLE, check_codes

PLAN = "plan"
REACT = "react"
SLIPSTREAM = "slipstream"
DISCARD = "discard"
OVER = "over"

#: React actions of the base game; modules add theirs with :func:`register_react_word`
ADRENALINE = "adrenaline"
BOOST = "boost"
COOLDOWN = "cooldown"
DONE = "done"
#: what follows a React action's name in its text form: nothing, a number ``n``, a card code,
#: or a card code and a number (``react 0 speed U8 3``)
NO_ARG, N_ARG, CARD_ARG, CARD_N_ARG = "", "n", "card", "card n"
#: every React action name -> its argument kind (the rules of each live in engine/react.py)
REACT_ACTIONS: dict[str, str] = {ADRENALINE: NO_ARG, BOOST: NO_ARG, COOLDOWN: N_ARG,
                                 DONE: NO_ARG}


def register_react_word(name: str, arg: str) -> None:
    """Make ``react CAR <name> ...`` parse and print (a module's React action)."""
    if REACT_ACTIONS.get(name, arg) != arg or arg not in (NO_ARG, N_ARG, CARD_ARG, CARD_N_ARG):
        raise ValueError(f"react action {name!r} already registered differently")
    REACT_ACTIONS[name] = arg


class IllegalDecision(ValueError):
    """A decision that the rules do not allow now; the message says why in one line.

    ``Race.apply`` raises it and leaves the race as it was, so a screen can show the message
    and ask again.

    Example: gear 4 is more than 2 gears up from gear 1::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.apply(Plan(car=0, gear=4, cards=("4", "5", "4", "3")))
        Traceback (most recent call last):
          ...
        pitboard.engine.decisions.IllegalDecision: car 0: cannot shift 1->4: shift at most 2 ...
        >>> race.pending().cars  # still waiting for both plans
        (0, 1)
    """


class Plan(NamedTuple):
    """Steps 1–2: the gear to shift to and the cards to play face down.

    Example::

        Plan(car=0, gear=3, cards=("4", "4", "S"))
    """

    car: int
    gear: int
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"plan {self.car} gear {self.gear} cards {' '.join(self.cards) or '-'}"


class React(NamedTuple):
    """Step 4–5: one React action (Adrenaline, Boost, Cooldown ``n``, an upgrade's symbol on
    ``card``...), or be done reacting.

    Example::

        React(car=2, action="cooldown", n=2)
        React(car=0, action="salvage", card="3")
    """

    car: int
    action: str
    n: int = 0
    card: str = ""

    def __str__(self) -> str:
        arg = REACT_ACTIONS.get(self.action, NO_ARG)
        text = f"react {self.car} {self.action}"
        if arg in (CARD_ARG, CARD_N_ARG):
            text += f" {self.card}"
        if arg in (N_ARG, CARD_N_ARG):
            text += f" {self.n}"
        return text


class Slipstream(NamedTuple):
    """Step 6: take the 2-space slipstream or not.

    ``spaces`` picks a longer slipstream a module offers (a road token's "may add 1"); 0 is the
    usual reach.

    Example::

        Slipstream(car=1, take=True)
        Slipstream(car=1, take=True, spaces=3)
    """

    car: int
    take: bool
    spaces: int = 0

    def __str__(self) -> str:
        if self.spaces:
            return f"slipstream {self.car} yes {self.spaces}"
        return f"slipstream {self.car} {'yes' if self.take else 'no'}"


class Discard(NamedTuple):
    """Step 8: cards to discard from hand (may be none).

    Example::

        Discard(car=0, cards=("0", "1"))
    """

    car: int
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"discard {self.car} {' '.join(self.cards) or '-'}"


class ModuleDecision(Protocol):
    """A decision a rules module adds (a draft pick...): any value with a ``car``, registered
    with :func:`register_decision` so it serializes and parses like the base ones.

    Example: the Garage's :class:`~pitboard.engine.garage.draft.DraftPick` is one::

        >>> from pitboard.engine.garage.draft import DraftPick
        >>> pick = parse_decision("draft 1 U7")
        >>> pick == DraftPick(car=1, card="U7"), pick.car
        (True, 1)
        >>> decision_to_dict(pick)
        {'kind': 'draft', 'car': 1, 'card': 'U7'}
    """

    @property
    def car(self) -> int: ...


Decision = Plan | React | Slipstream | Discard | ModuleDecision


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """How a module's decision type is written and read.

    ``to_dict`` gives the fields besides ``kind`` and ``car``; ``from_dict(car, data)`` and
    ``parse(car, words)`` (the words after ``KIND CAR`` in the text form) raise ValueError with a
    one-line reason. The text form itself is the type's ``str()``.

    Example: the Garage registers its draft pick's (see engine/garage/draft.py)::

        >>> from pitboard.engine.garage.draft import DraftPick
        >>> kind = MODULE_DECISIONS["draft"]
        >>> kind.type is DraftPick, kind.to_dict(DraftPick(car=1, card="U7"))
        (True, {'card': 'U7'})
        >>> kind.parse(1, ["U7"]), kind.from_dict(1, {"card": "U7"})
        (DraftPick(car=1, card='U7'), DraftPick(car=1, card='U7'))
    """

    kind: str
    type: type
    to_dict: Callable[[Any], dict[str, Any]]
    from_dict: Callable[[int, dict[str, Any]], Any]
    parse: Callable[[int, list[str]], Any]


#: module decision kinds by name, and by type
MODULE_DECISIONS: dict[str, DecisionKind] = {}
_KIND_OF_TYPE: dict[type, DecisionKind] = {}


def register_decision(kind: DecisionKind) -> DecisionKind:
    """Add a module's decision kind (its JSON and text forms)."""
    if kind.kind in (PLAN, REACT, SLIPSTREAM, DISCARD) or \
            MODULE_DECISIONS.get(kind.kind, kind) != kind:
        raise ValueError(f"decision kind {kind.kind!r} already taken")
    MODULE_DECISIONS[kind.kind] = kind
    _KIND_OF_TYPE[kind.type] = kind
    return kind


class PlanProblem(str):
    """Why a plan is not legal: the sentence (it *is* the string), plus fields a screen reads
    instead of parsing it, so rewording the sentence never changes a screen.

    ``kind``: ``"shift"`` (the gear cannot be reached; ``needed`` Heat for a 2-gear shift, 0
    when the gear is out of reach), ``"downshift"`` (``needed`` Heat that this downshift costs
    here, a flooded space, is not in the engine), ``"heat"`` (a Heat card in the plan), ``"count"``
    (``needed`` cards, ``given`` chosen) or ``"hand"`` (a card not in hand).

    Example::

        >>> p = PlanProblem("gear 3 plays 3 cards, not 1", kind=COUNT, needed=3, given=1)
        >>> p.startswith("gear 3"), p.kind, p.needed
        (True, 'count', 3)
    """

    kind: str
    needed: int
    given: int

    def __new__(cls, text: str, *, kind: str, needed: int = 0, given: int = 0) -> PlanProblem:
        self = super().__new__(cls, text)
        self.kind, self.needed, self.given = kind, needed, given
        return self


# PlanProblem kinds
SHIFT, DOWNSHIFT, HEAT_CARD, COUNT, NOT_IN_HAND = "shift", "downshift", "heat", "count", "hand"


class PlanRule(NamedTuple):
    """What a car may plan: the legal gears, each gear's shift cost, and the playable cards.

    ``clogged`` lists the gears at which the hand cannot supply enough non-Heat cards; at those
    gears every playable card must be played and the car will not move. ``downshift_heat`` is
    the Heat any downshift costs on top of the base game's this round (1 on a flooded space).
    A NamedTuple because one is built for every car every round (a frozen dataclass costs
    several times more).

    Example: from gear 1 a car may plan gears 1-3, gear 3 costing 1 Heat::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> rule = race.plan_rule(0)
        >>> rule.gears, rule.shift_cost[3], rule.playable
        ((1, 2, 3), 1, ('1', '4', '2', 'S', '4', '5', '3'))
        >>> rule.cards_needed(3), rule.forced
        (3, False)
        >>> rule.problem(Plan(car=0, gear=3, cards=("4", "5")), race.cars[0].hand)
        'gear 3 plays 3 cards, not 2'
        >>> rule.problem(Plan(car=0, gear=3, cards=("4", "5", "S")), race.cars[0].hand) is None
        True
    """

    car: int
    gear: int
    gears: tuple[int, ...]
    shift_cost: dict[int, int]
    playable: tuple[str, ...]
    clogged: tuple[int, ...]
    downshift_heat: int = 0

    def cards_needed(self, gear: int) -> int:
        return min(gear, len(self.playable))

    def problem(self, plan: Plan, hand: list[str]) -> PlanProblem | None:
        """Why ``plan`` breaks this rule, for a car holding ``hand`` (None if it does not)."""
        if plan.gear not in self.gears:
            two = abs(plan.gear - self.gear) == 2
            reach = 1 <= plan.gear <= 4 and abs(plan.gear - self.gear) <= 2
            if reach and plan.gear < self.gear and self.downshift_heat:
                cost = two + self.downshift_heat
                return PlanProblem(f"not enough Heat to shift {self.gear}->{plan.gear}: a "
                                   f"downshift here costs {cost} Heat (a flooded space)",
                                   kind=DOWNSHIFT, needed=cost)
            why = "no Heat in the engine for a 2-gear shift" if two \
                else "shift at most 2 gears, to gears 1-4"
            return PlanProblem(f"cannot shift {self.gear}->{plan.gear}: {why}", kind=SHIFT,
                               needed=1 if two else 0)
        if any(not PLAYABLE[c] for c in plan.cards):
            return PlanProblem("Heat cards cannot be played", kind=HEAT_CARD)
        need = self.cards_needed(plan.gear)
        if len(plan.cards) != need:
            clog = " (clogged hand: play every non-Heat card)" if plan.gear in self.clogged else ""
            return PlanProblem(f"gear {plan.gear} plays {need} cards, not {len(plan.cards)}{clog}",
                               kind=COUNT, needed=need, given=len(plan.cards))
        left = list(hand)
        for c in plan.cards:
            if c not in left:
                return PlanProblem(f"card {c} is not in hand", kind=NOT_IN_HAND)
            left.remove(c)
        return None

    @property
    def forced(self) -> bool:
        """Exactly one legal plan: one gear, and no choice among the cards it plays."""
        if len(self.gears) != 1:
            return False
        return self.gears[0] >= len(self.playable) or len(set(self.playable)) <= 1


@dataclass(frozen=True, slots=True)
class Pending:
    """What the race waits for.

    ``cars`` are the cars that must decide (several at once while planning). ``options`` lists
    every legal decision when they can be listed (react, slipstream); ``forced`` is true when
    exactly one legal decision exists, so a UI may take it without asking.

    Example: both cars plan at once; then the leader reacts, choosing among listed options::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> pending = race.pending()
        >>> pending.kind, pending.cars, sorted(pending.plan_rules)
        ('plan', (0, 1), [0, 1])
        >>> race.apply(Plan(car=0, gear=2, cards=("4", "5")))
        >>> race.apply(Plan(car=1, gear=2, cards=("3", "4")))
        >>> pending = race.pending()
        >>> pending.kind, pending.cars, pending.forced
        ('react', (1,), False)
        >>> [str(d) for d in pending.options]
        ['react 1 boost', 'react 1 done']
    """

    kind: str
    cars: tuple[int, ...] = ()
    options: tuple[Decision, ...] = ()
    plan_rules: dict[int, PlanRule] = field(default_factory=dict)
    discardable: tuple[str, ...] = ()
    forced: bool = False
    #: the discard step: the most cards that may go (None: any number of ``discardable``)
    discard_most: int | None = None


def decision_to_dict(d: Decision) -> dict[str, Any]:
    module = _KIND_OF_TYPE.get(type(d))
    if module is not None:
        return {"kind": module.kind, "car": d.car, **module.to_dict(d)}
    if isinstance(d, Plan):
        return {"kind": PLAN, "car": d.car, "gear": d.gear, "cards": list(d.cards)}
    if isinstance(d, React):
        out: dict[str, Any] = {"kind": REACT, "car": d.car, "action": d.action}
        arg = REACT_ACTIONS.get(d.action, NO_ARG)
        if arg in (N_ARG, CARD_N_ARG):
            out["n"] = d.n
        if arg in (CARD_ARG, CARD_N_ARG):
            out["card"] = d.card
        return out
    if isinstance(d, Slipstream):
        if d.spaces:
            return {"kind": SLIPSTREAM, "car": d.car, "take": d.take, "spaces": d.spaces}
        return {"kind": SLIPSTREAM, "car": d.car, "take": d.take}
    if isinstance(d, Discard):
        return {"kind": DISCARD, "car": d.car, "cards": list(d.cards)}
    raise ValueError(f"not a decision: {d!r}")


def decision_from_dict(data: Any) -> Decision:
    """Build a decision from its JSON form; ValueError with a one-line reason if malformed."""
    if not isinstance(data, dict):
        raise ValueError("a decision must be a JSON object")
    kind = data.get("kind")
    car = data.get("car")
    if not isinstance(car, int) or isinstance(car, bool):
        raise ValueError("decision needs an integer 'car'")
    if kind == PLAN:
        gear, cards = data.get("gear"), data.get("cards")
        if not isinstance(gear, int) or not isinstance(cards, list):
            raise ValueError("plan needs 'gear' (integer) and 'cards' (list)")
        check_codes(cards, "plan")
        return Plan(car, gear, tuple(cards))
    if kind == REACT:
        action, n, card = data.get("action"), data.get("n", 0), data.get("card", "")
        if action not in REACT_ACTIONS or not isinstance(n, int) or not isinstance(card, str):
            raise ValueError(f"react 'action' must be one of {', '.join(REACT_ACTIONS)}")
        if card:
            check_codes((card,), "react")
        return React(car, action, n, card)
    if kind == SLIPSTREAM:
        take, spaces = data.get("take"), data.get("spaces", 0)
        if not isinstance(take, bool) or not isinstance(spaces, int) or \
                (spaces and not take) or spaces < 0:
            raise ValueError("slipstream needs 'take' (true/false) and maybe 'spaces' (1 or more)")
        return Slipstream(car, take, spaces)
    if kind == DISCARD:
        cards = data.get("cards")
        if not isinstance(cards, list):
            raise ValueError("discard needs 'cards' (list)")
        check_codes(cards, "discard")
        return Discard(car, tuple(cards))
    module = MODULE_DECISIONS.get(kind) if isinstance(kind, str) else None
    if module is not None:
        return module.from_dict(car, data)  # type: ignore[no-any-return]
    raise ValueError(f"unknown decision kind {kind!r}")


def parse_decision(text: str) -> Decision:
    """Parse the one-line text form, e.g. ``plan 0 gear 2 cards 3 4`` or ``react 1 boost``.

    ``-`` stands for no cards.
    """
    words = text.split()
    if len(words) < 2:
        raise ValueError("expected '<kind> <car> ...'")
    kind, car_text, rest = words[0].lower(), words[1], words[2:]
    if not car_text.isdigit():
        raise ValueError(f"car must be a number, not {car_text!r}")
    car = int(car_text)
    if kind == PLAN:
        if len(rest) < 3 or rest[0] != "gear" or not rest[1].isdigit() or rest[2] != "cards":
            raise ValueError("expected 'plan CAR gear N cards C1 C2 ...'")
        cards = tuple(c.upper() for c in rest[3:] if c != "-")
        check_codes(cards, "plan")
        return Plan(car, int(rest[1]), cards)
    if kind == REACT:
        return _parse_react(car, rest)
    if kind == SLIPSTREAM:
        if len(rest) == 2 and rest[0] == "yes" and rest[1].isdigit() and int(rest[1]) > 0:
            return Slipstream(car, True, int(rest[1]))
        if len(rest) != 1 or rest[0] not in ("yes", "no"):
            raise ValueError("expected 'slipstream CAR yes|no' or 'slipstream CAR yes SPACES'")
        return Slipstream(car, rest[0] == "yes")
    if kind == DISCARD:
        cards = tuple(c.upper() for c in rest if c != "-")
        check_codes(cards, "discard")
        return Discard(car, cards)
    module = MODULE_DECISIONS.get(kind)
    if module is not None:
        return module.parse(car, rest)  # type: ignore[no-any-return]
    known = ", ".join((PLAN, REACT, SLIPSTREAM, DISCARD, *MODULE_DECISIONS))
    raise ValueError(f"unknown decision {kind!r} ({known})")


def _parse_react(car: int, rest: list[str]) -> React:
    if not rest or rest[0].lower() not in REACT_ACTIONS:
        raise ValueError(f"expected 'react CAR {'|'.join(REACT_ACTIONS)}'")
    action, args = rest[0].lower(), rest[1:]
    arg = REACT_ACTIONS[action]
    shape = {NO_ARG: "", N_ARG: " N", CARD_ARG: " CARD", CARD_N_ARG: " CARD N"}[arg]
    want = len(shape.split())
    if len(args) != want or (arg in (N_ARG, CARD_N_ARG) and not args[-1].isdigit()):
        raise ValueError(f"expected 'react CAR {action}{shape}'")
    card = args[0].upper() if arg in (CARD_ARG, CARD_N_ARG) else ""
    if card:
        check_codes((card,), f"react {action}")
    n = int(args[-1]) if arg in (N_ARG, CARD_N_ARG) else 0
    return React(car, action, n, card)
