"""One car's turn played ahead on a copy of the race, for every order its cards could come in.

The forecast (:mod:`pitboard.engine.forecast`) does not re-implement a rule: it plays the turn
with the engine itself, on a :class:`Sandbox` (a copy of the race in which the car plays now,
as if it led the round), once for every way the turn's unknowns can fall. The only unknown is
the order of the car's cards: the draw pile, then the discard pile each time it is reshuffled
(the engine's one source of chance, :meth:`Race.shuffle <pitboard.engine.race.Race.shuffle>`).
So the sandbox takes both over: each pile is a :class:`DealtPile` whose top cards are decided
one at a time, when the engine first reads them, and :func:`play_all` walks every sequence of
decisions (a depth-first search by re-playing: each play follows the choices of the one
before up to its last open branch, and tries the next).

What is decided is only what can make a difference, each with the chance the real pile
gives it (every step exact; tests/test_forecast_oracle.py checks the whole against a brute
force on the engine):

* **a flip** needs a basic card's value. The values of a pile's basic cards not seen yet (its
  *pool*) fall on its basic cards in no particular order, so the next one flipped is uniform
  over the pool whichever card comes up; the other cards a flip passes go to the discard pile,
  where they are all before any reshuffle could bring them back, so how many it passes makes no
  difference: they wait at the bottom of the pile;
* the reveal's flips (Stress cards, an upgrade's [+]) only add up: their values are tried as a
  multiset, each with its number of orders;
* **a card read without a flip** (an upgrade's scrap) is taken from the non-basic cards while
  the pile holds more basic cards than the turn can reach, as the values flipped later are
  uniform over the pool, scrapped cards or not. Else the turn is played again following how
  many other cards each flip of the reveal passes, and how many basic cards a scrap takes; a
  basic card scrapped leaves as a *ghost* whose value stays in the pool: when the pile runs
  out, the ghosts are the values it never showed, and they join the reshuffle;
* the plays are made in two halves: every way the reveal can go, alike states merged, then from
  each of them the rest of the turn (a Boost's flip).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import fields
from fractions import Fraction
from math import comb, factorial
from operator import attrgetter
from typing import Any, SupportsIndex, TypeVar, overload

from .car import Car
from .cards import BASIC, HEAT
from .decisions import PLAN
from .events import HeatPaid, Moved
from .modules import Hooks, build_modules
from .preset import play_turn
from .race import Race

_CAR_FIELDS = tuple(f.name for f in fields(Car))
_PILES = ("hand", "draw", "discard", "play")
_GET_CAR = attrgetter(*_CAR_FIELDS)
_PILE_AT = tuple(i for i, name in enumerate(_CAR_FIELDS) if name in _PILES)
#: every attribute a race keeps (slots of its layers)
_RACE_SLOTS = tuple(dict.fromkeys(s for cls in Race.__mro__ for s in getattr(cls, "__slots__", ())))
#: a basic card read without being seen (scrapped): its value is one of its pile's unseen ones
GHOST = "?"
#: the code a ghost takes back in a pile (a basic card whose value a flip decides)
_SLOT_CODE = "1"
#: the sandbox's phase once the car's turn is over (nothing else is played in it)
TURN_OVER = "turn over"

T = TypeVar("T")
#: a sandbox's state (:meth:`Sandbox.checkpoint`)
Checkpoint = tuple[Any, ...]


class _Restart(Exception):
    """The turn read a card without flipping it where the cards were not followed closely
    enough for that: play it again, following more of them."""


class _Dead(Exception):
    """This order of the reveal's flips is tried as another (its values sorted)."""


class DealtPile(list[str]):
    """A pile whose order is decided from the top down as the engine reads it.

    ``fixed`` top cards (the end of the list) are decided; reading deeper asks the sandbox,
    which puts a card of the class it picks there. Cards put on top stay as they are.

    Example: a pile read by a flip (``sandbox`` None decides the first class in order)::

        >>> pile = DealtPile(["H", "3", "1"], None)
        >>> pile.pop(), pile.fixed, len(pile)
        ('1', 0, 2)
    """

    __slots__ = ("fixed", "sandbox", "stage")

    def __init__(self, cards: Iterable[str], sandbox: Sandbox | None, stage: int = 0) -> None:
        super().__init__(cards)
        self.sandbox = sandbox
        self.stage = stage
        self.fixed = 0

    def _reach(self, depth: int) -> None:
        if self.fixed < depth:
            if self.sandbox is None:
                self.fixed = min(depth, len(self))
            else:
                self.sandbox._decide(self, depth)

    def pop(self, index: SupportsIndex = -1) -> str:
        if index != -1:  # (no engine path takes a card from the middle)
            raise ValueError("a dealt pile gives its top card only")
        self._reach(1)
        self.fixed -= 1
        return super().pop()

    @overload
    def __getitem__(self, key: SupportsIndex) -> str: ...
    @overload
    def __getitem__(self, key: slice) -> list[str]: ...

    def __getitem__(self, key: SupportsIndex | slice) -> str | list[str]:
        n = len(self)
        if isinstance(key, slice):
            start, _stop, _step = key.indices(n)
            touched = range(*key.indices(n))
            lowest = min(touched, default=start)
            if touched:
                self._reach(n - lowest)
        else:
            i = key.__index__()
            self._reach(n - (i % n if n else 0))
        return super().__getitem__(key)

    def __delitem__(self, key: SupportsIndex | slice) -> None:
        n = len(self)
        super().__delitem__(key)
        self.fixed = max(0, self.fixed - (n - len(self)))

    def append(self, card: str) -> None:
        super().append(card)
        self.fixed += 1

    def extend(self, cards: Iterable[str]) -> None:
        n = len(self)
        super().extend(cards)
        self.fixed += len(self) - n

    def __iadd__(self, cards: Iterable[str]) -> DealtPile:  # type: ignore[override,misc]
        self.extend(cards)
        return self


class Sandbox(Race):
    """A copy of ``race`` in which ``car_id`` plays its turn now, its cards in an order the
    caller decides (see the module's introduction). The race itself is never touched.

    Example: a lone car (Adrenaline: +1) plays a 4 and a Stress card, which flips a 2 or a 3::

        >>> from pitboard.engine import RaceSetup, StackedDeck
        >>> deck = StackedDeck(hand=("4", "S", "1", "1", "1", "1", "1"), draw=("2", "3"),
        ...                    d=5, spot=1)
        >>> race = Race(RaceSetup(track="usa", cars=1, laps=1, stacked={0: deck}))
        >>> sandbox = Sandbox(race, 0)
        >>> [(speed, str(p)) for speed, p in play_all(
        ...     sandbox, 2, ("4", "S"), lambda sb: sb.cars[0].speed, overrides={"boost": False})]
        [(7, '1/2'), (8, '1/2')]
    """

    def __init__(self, race: Race, car_id: int) -> None:
        for name in _RACE_SLOTS:
            if hasattr(race, name):
                setattr(self, name, getattr(race, name))
        self.cars = [_copy_car(c) for c in race.cars]
        self._taken = self._taken.copy()  # (the slots above: the race's own list)
        self.order, self._to_plan, self.log = list(race.order), [], []
        self.grid, self.hall_of_fame = list(race.grid), list(race.hall_of_fame)
        self.events = []
        self.record_events = True  # the turn's events are how the forecast reads it
        self._pending, self._rules = None, {}
        self._driving_round = self._round_again = False
        if race.hooks.modules:  # each module's own state, as a snapshot restores it
            self.hooks = Hooks(build_modules(race.setup), race.hooks.features)
            for mine, theirs in zip(self.hooks.modules, race.hooks.modules, strict=True):
                mine.load(theirs.to_dict())
            lines = self._corner_lines, self._line_ds  # (the race's, as its modules prepared)
            self._derive()
            self._corner_lines, self._line_ds = lines
        self.car_id = car_id
        self.phase = PLAN
        self.order, self.turn = [car_id], 0
        #: the current play: the choices to follow, the branches met (how many options, the
        #: one taken), its chance as a fraction, the values flipped per pile stage in the reveal
        self.script: list[int] = []
        self.trail: list[tuple[int, int]] = []
        self.num = self.den = 1
        #: how closely cards are followed: 0 the flips' values only; 1 also the cards the
        #: reveal's flips pass and the classes of cards read without a flip (a scrap); 2 so
        #: all turn long
        self.level = 0
        self.revealing = False
        self.reveal_reads: dict[int, list[str]] = {}
        self.stages = 0
        self.flipping = 0
        #: flips and cards read without one so far this turn, and the basic cards the draw
        #: pile had (see :meth:`exact`)
        self.flips = self.unflipped = 0
        #: level 1: flips before this one pass cards a later read without a flip can take
        #: (learnt by a first play, :func:`play_all`), and the flips made before the last
        #: such read in the play just made
        self.track_until = self.unflipped_after = 0
        self.basics = sum(1 for c in self.cars[car_id].draw if c in BASIC)
        #: per pile (the draw pile, then each reshuffle): the values of its basic cards not
        #: seen yet, those still in it and its ghosts
        self.pools: list[dict[str, int]] = [
            {v: self.cars[car_id].draw.count(v) for v in sorted(BASIC)}]
        self.cars[car_id].draw = self._dealt(self.cars[car_id].draw)
        #: the state each play starts from: the car about to reveal
        self.origin = self.checkpoint()

    # -- states ----------------------------------------------------------------------------------
    def checkpoint(self) -> Checkpoint:
        """Everything a play of the car's turn can change, to :meth:`rewind` later."""
        car = self.cars[self.car_id]
        draw = car.draw
        pile = (list(draw), draw.stage, draw.fixed) if isinstance(draw, DealtPile) else None
        return (_car_state(car, copy=True), pile, self._taken.copy(), self.phase,
                self.shuffles, self.stress_reserve, self.car_turns, self.stages, self.flips,
                self.unflipped, [dict(p) for p in self.pools],
                [m.to_dict() for m in self.hooks.modules], list(self.events))

    def rewind(self, state: Checkpoint) -> None:
        """Back to a :meth:`checkpoint`."""
        (car_state, pile, taken, self.phase, self.shuffles, self.stress_reserve,
         self.car_turns, self.stages, self.flips, self.unflipped, pools, modules,
         events) = state
        self.pools = [dict(p) for p in pools]
        self.cars[self.car_id] = car = _new_car(car_state)
        if pile is not None:
            cards, stage, fixed = pile
            car.draw = DealtPile(cards, self, stage)
            car.draw.fixed = fixed
        self._taken[:] = taken
        for module, data in zip(self.hooks.modules, modules, strict=True):
            module.load(data)
        self.events[:] = events
        self.log.clear()
        self._pending = None

    def fingerprint(self) -> tuple[Any, ...]:
        """What the rest of the turn can depend on: two states alike here play out alike (the
        undecided cards of a pile are in no particular order, so only how many of each class
        count; of the events only what :mod:`pitboard.engine.forecast` reads of the reveal)."""
        car = self.cars[self.car_id]
        draw = car.draw
        undecided: tuple[Any, ...] = ()
        if isinstance(draw, DealtPile):
            cards = list(draw)
            cut = len(cards) - draw.fixed
            slots = sum(1 for c in cards[:cut] if c in BASIC)
            others = sorted(c for c in cards[:cut] if c not in BASIC)
            undecided = (draw.stage, slots, tuple(others), tuple(cards[cut:]))
        parts = tuple(undecided if name == "draw" else tuple(sorted(value)) if name in _PILES
                      else value
                      for name, value in zip(_CAR_FIELDS, _car_state(car), strict=True))
        heat = sum(e.n for e in self.events if isinstance(e, HeatPaid))
        blocked = sum(e.blocked for e in self.events if isinstance(e, Moved))
        pools = tuple(tuple(sorted(p.items())) for p in self.pools)
        return (parts, pools, tuple(self._taken), self.phase,
                self.stress_reserve, heat, blocked, repr([m.to_dict() for m in self.hooks.modules]))

    def reveal(self, gear: int, cards: tuple[str, ...], shift_cost: int) -> None:
        """The plan's commit, as :meth:`Race.apply` does it, for a plan that may still be short
        of cards (a selection being made): the shift, the cards into play; then the reveal.
        A car that has planned already (its plan locked in) reveals the cards it played."""
        car = self.cars[self.car_id]
        if not car.planned:
            car.engine -= shift_cost
            car.discard += [HEAT] * shift_cost
            car.gear = car.played_gear = gear
            car.clogged = False
            for c in cards:
                car.hand.remove(c)
            car.play = list(cards)
            car.planned = True
        self.revealing = True
        try:
            self._start_turn()
        finally:
            self.revealing = False

    def _dealt(self, cards: list[str]) -> DealtPile:
        """``cards`` as a fresh pile stage: the non-basic cards at the bottom."""
        stage = self.stages
        self.stages += 1
        return DealtPile(sorted(cards, key=lambda c: c in BASIC), self, stage)

    def _decide(self, pile: DealtPile, depth: int) -> None:
        """Decide the pile's cards down to ``depth`` from the top, as the engine reads them."""
        depth = min(depth, len(pile))
        if not self.flipping:  # read without a flip (a scrap)
            if self.level == 0:
                self._pass_others(pile, depth - pile.fixed)
            elif self.level == 1 and not self.revealing:
                raise _Restart
            else:
                self.unflipped_after = max(self.unflipped_after, self.flips)
                self._decide_classes(pile, depth - pile.fixed)
            return
        # the cards a flip passes count only when a read without a flip comes after it
        tracked = self.level == 2 or (self.level == 1 and self.revealing and
                                      self.flips < self.track_until)
        while pile.fixed < depth:
            self._decide_flip(pile, tracked=tracked)

    def _branch(self, options: list[tuple[Any, int, int]]) -> Any:
        """One of ``options`` (what, numerator and denominator of its chance): the script's
        or the first, a branch point noted when there are several."""
        pick = 0
        if len(options) > 1:
            k = len(self.trail)
            pick = self.script[k] if k < len(self.script) else 0
            self.trail.append((len(options), pick))
        chosen, num, den = options[pick]
        self.num *= num
        self.den *= den
        return chosen

    def _region(self, pile: DealtPile) -> tuple[int, int, int]:
        """The undecided part of ``pile``: its top index, how many basic cards (slots) and
        how many others it holds."""
        top = len(pile) - 1 - pile.fixed
        slots = sum(1 for c in list.__getitem__(pile, slice(0, top + 1)) if c in BASIC)
        return top, slots, top + 1 - slots

    def _decide_flip(self, pile: DealtPile, *, tracked: bool) -> None:
        """The next flip's basic card (``tracked``: and how many other cards it passes first,
        when a later read without a flip can take them). Its value is one of the pile's
        values not seen yet, uniform whichever slot comes up."""
        top, b, x = self._region(pile)
        if not b:  # only other cards left: passed in any order
            pile.fixed = len(pile)
            return
        pool = self.pools[pile.stage]
        seen = sum(pool.values())
        values = [(v, n) for v, n in sorted(pool.items()) if n]
        merged = self.revealing and self.level == 0
        done = self.reveal_reads.setdefault(pile.stage, []) if merged else []
        if done:  # the reveal's flips only add up: their values tried as a multiset
            values = [(v, n) for v, n in values if v >= done[-1]]
            if not values:
                raise _Dead
        options: list[tuple[Any, int, int]] = []
        for k in range(x + 1) if tracked else (0,):
            passed_num = passed_den = 1
            for i in range(k):
                passed_num *= x - i
                passed_den *= x + b - i
            for v, n in values:
                if tracked:
                    options.append(((k, v), passed_num * b * n, passed_den * (x + b - k) * seen))
                else:
                    options.append(((0, v), n, seen))
        k, v = self._branch(options)
        self.flips += 1
        if merged:
            done.append(v)
        pool[v] -= 1
        at = top
        for _ in range(k):  # k other cards, then the basic card
            at = _bring(pile, at, _other)
        _bring(pile, at, _basic)
        list.__setitem__(pile, at, v)
        pile.fixed += k + 1

    def _pass_others(self, pile: DealtPile, m: int) -> None:
        """``m`` cards read without a flip, taken from the non-basic cards: exact while the
        pile holds more basic cards than the turn can reach (:meth:`exact`), as the values
        flipped later are uniform among the basic cards not seen yet, read or not."""
        top, _, x = self._region(pile)
        if pile.stage or x < m:
            raise _Restart
        at = top
        for _ in range(m):
            at = _bring(pile, at, _other)
        pile.fixed += m
        self.unflipped += m

    def exact(self) -> bool:
        """Was the play just made exact? Not when cards read without a flip (taken from the
        non-basic cards, :meth:`_pass_others`) could have left the real pile short of basic
        cards for a flip."""
        return not self.unflipped or (self.stages == 1 and
                                      self.flips + self.unflipped <= self.basics)

    def _decide_classes(self, pile: DealtPile, m: int) -> None:
        """The next ``m`` cards read without a flip (they leave the pile together): how many
        are basic. Their values stay unseen: they leave as ghosts, whose values are the
        pile's unseen ones left when it runs out (:meth:`shuffle`)."""
        if m <= 0:
            return
        top, b, x = self._region(pile)
        options = [(j, comb(b, j) * comb(x, m - j), comb(b + x, m))
                   for j in range(min(b, m), -1, -1) if m - j <= x]
        j = self._branch(options)
        at = top
        for i in range(m):
            at = _bring(pile, at, _basic if i < j else _other)
            if i < j:
                list.__setitem__(pile, at + 1, GHOST)
        pile.fixed += m

    def chance(self) -> Fraction:
        """The chance of the play just made: its decisions' odds, times the orders of each
        multiset of reveal flips."""
        num, den = self.num, self.den
        for values in self.reveal_reads.values():
            num *= factorial(len(values))
            for v in set(values):
                den *= factorial(values.count(v))
        return Fraction(num, den)

    # -- the engine's chance, taken over ------------------------------------------------------
    def shuffle(self, cards: list[Any]) -> None:
        car = self.cars[self.car_id]
        if cards is not car.draw:
            super().shuffle(cards)
            return
        self.shuffles += 1
        if isinstance(cards, DealtPile):  # the draw pile shuffled as it is (a salvage)
            for card in list.__getitem__(cards, slice(len(cards) - cards.fixed, len(cards))):
                if card in BASIC:  # a card known on top is a slot again
                    self.pools[cards.stage][card] += 1
            cards.fixed = 0
            return
        # the discard pile becomes the draw pile: a new order. The ghosts in it are the old
        # pile's cards no one saw: their values are those it had not shown when it ran out
        pool = {v: 0 for v in sorted(BASIC)}
        ghosts = cards.count(GHOST)
        for card in cards:
            if card in BASIC:
                pool[card] += 1
        if ghosts:
            for old in self.pools:
                for v, n in old.items():
                    pool[v] += n
                    old[v] = 0
        cards = [_SLOT_CODE if c == GHOST else c for c in cards]
        self.pools.append(pool)
        car.draw = self._dealt(cards)

    def flip(self, car: Car, why: str) -> str | None:
        self.flipping += 1
        try:
            return super().flip(car, why)
        finally:
            self.flipping -= 1

    def _end_turn(self, car: Car) -> None:
        self.phase = TURN_OVER  # the rest of the round is not the forecast's


def play_all(sandbox: Sandbox, gear: int, cards: tuple[str, ...],
             read: Callable[[Sandbox], T], *, shift_cost: int = 0,
             overrides: Mapping[str, bool] = {}) -> list[tuple[T, Fraction]]:
    """Play ``cards`` in ``gear`` and the rest of the turn as one GO would (``overrides``:
    the player's toggles), once for every way the cards can fall; ``read`` takes what the
    caller needs of each play (before the next one starts), with that play's chance.

    In two halves: every way the reveal can go, alike ones merged (:meth:`Sandbox.fingerprint`),
    then from each of those every way the rest of the turn can go."""
    sandbox.level = 0
    while True:
        try:
            return _play_all(sandbox, gear, cards, read, shift_cost, overrides)
        except _Restart:  # a card read without a flip: follow more of the cards
            sandbox.level += 1
        if sandbox.level == 1:  # which flips come before the reveal's last read without one
            sandbox.track_until = 1 << 30
            for _ in _explore(sandbox, sandbox.origin,
                              lambda: sandbox.reveal(gear, cards, shift_cost), first=True):
                pass
            sandbox.track_until = sandbox.unflipped_after


def _play_all(sandbox: Sandbox, gear: int, cards: tuple[str, ...],
              read: Callable[[Sandbox], T], shift_cost: int,
              overrides: Mapping[str, bool]) -> list[tuple[T, Fraction]]:
    revealed: dict[tuple[Any, ...], tuple[Checkpoint, Fraction]] = {}

    def reveal() -> tuple[Any, ...]:
        sandbox.reveal(gear, cards, shift_cost)
        return sandbox.fingerprint()

    for key, p in _explore(sandbox, sandbox.origin, reveal):
        if key in revealed:
            state, q = revealed[key]
            revealed[key] = (state, q + p)
        else:
            revealed[key] = (sandbox.checkpoint(), p)
    out: list[tuple[T, Fraction]] = []

    def rest() -> T:
        play_turn(sandbox, sandbox.car_id, overrides)
        return read(sandbox)

    for state, p in revealed.values():
        out += [(found, p * q) for found, q in _explore(sandbox, state, rest)]
    return out


def _explore(sandbox: Sandbox, start: Checkpoint, play: Callable[[], T], *,
             first: bool = False) -> Iterator[tuple[T, Fraction]]:
    """``play`` from ``start`` once for every way the cards it reads can fall (a depth-first
    search by re-playing: each play follows the last one's choices up to its last branch
    point with an option left, and takes that option); ``first``: the first play only."""
    script: list[int] = []
    while True:
        sandbox.rewind(start)
        sandbox.script, sandbox.trail = script, []
        sandbox.num = sandbox.den = 1
        sandbox.reveal_reads = {}
        sandbox.unflipped_after = 0
        try:
            found = play()
        except _Dead:
            pass
        else:
            if not sandbox.exact():
                raise _Restart
            yield found, sandbox.chance()
        if first:
            return
        trail = sandbox.trail
        while trail and trail[-1][1] + 1 >= trail[-1][0]:
            trail.pop()
        if not trail:
            return
        script = [pick for _, pick in trail[:-1]] + [trail[-1][1] + 1]


def _basic(card: str) -> bool:
    return card in BASIC


def _other(card: str) -> bool:
    return card not in BASIC


def _bring(pile: DealtPile, at: int, wanted: Callable[[str], bool]) -> int:
    """Swap a card ``wanted`` takes from below ``at`` (or at it) to ``at``; the next place."""
    for i in range(at, -1, -1):
        card = list.__getitem__(pile, i)
        if wanted(card):
            list.__setitem__(pile, i, list.__getitem__(pile, at))
            list.__setitem__(pile, at, card)
            break
    return at - 1


def _copy_car(car: Car) -> Car:
    return _new_car(_car_state(car))


def _car_state(car: Car, *, copy: bool = False) -> tuple[Any, ...]:
    state = _GET_CAR(car)
    if not copy:
        return state
    values = list(state)
    for i in _PILE_AT:
        values[i] = values[i].copy()
    return tuple(values)


def _new_car(state: tuple[Any, ...]) -> Car:
    """A car in ``state`` (its piles copied)."""
    values = list(state)
    for i in _PILE_AT:
        values[i] = list(values[i])
    return Car(*values)


__all__ = ["GHOST", "TURN_OVER", "DealtPile", "Sandbox", "play_all"]
