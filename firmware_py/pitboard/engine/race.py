"""The race: state, legal decisions and ``apply`` for the base game of Heat.

Pure and deterministic: no I/O, threads or hardware. *setup + decision log* reproduces the race
exactly, on any platform and Python version. This file is the base game's sequence (plan,
reveal, move, react, slipstream, corners, discard, replenish); it builds on three layers: where
cars stand and how they move (:mod:`pitboard.engine.course`), the cards, with the seeded
shuffles (:mod:`pitboard.engine.piles`), and what the race waits for and what is legal now
(:mod:`pitboard.engine.queries`). A car's state is :class:`~pitboard.engine.car.Car`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, NoReturn

from ..track import Track
from ..trackfile import load_track
from .car import Car
from .cards import DISCARDABLE, HEAT, SPEED, STRESS, UNDISCARDABLE, UNPLAYABLE
from .course import SLIPSTREAM_SPACES
from .decisions import (
    DISCARD,
    DONE,
    OVER,
    PLAN,
    REACT,
    SLIPSTREAM,
    Decision,
    Discard,
    IllegalDecision,
    Plan,
    React,
    Slipstream,
)
from .events import (
    Clogged,
    CornerChecked,
    Discarded,
    Event,
    Finished,
    HeatPaid,
    Placed,
    RaceOver,
    Retired,
    Revealed,
    RoundStarted,
    Shifted,
    Slipstreamed,
    SpeedCounted,
    SpunOut,
    TurnStarted,
)
from .modules import Hooks, build_features, build_modules
from .queries import FREE_SHIFTS, SHIFTS, Queries, undiscardable_text
from .react import BASE_ACTIONS, more_available
from .react import by_name as react_by_name
from .setup import RaceSetup
from .shuffle import seed_key


class Race(Queries):
    """A race of Heat in progress.

    Example::

        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> race.pending().kind
        'plan'
    """

    __slots__ = ("_driving_round", "_react_actions", "_react_by_name", "_react_more",
                 "_round_again", "_step8_hooks", "_to_plan", "car_turns", "log", "order", "phase",
                 "turn")

    def __init__(
        self, setup: RaceSetup, *, track: Track | None = None, record_events: bool = True
    ) -> None:
        self._set_up(setup, track, setup.laps, record_events)
        if self.hooks.laps:  # e.g. a championship Event: a lap more or fewer
            self.laps = max(1, self.hooks.laps(self, self.laps))
            self.finish_d = self.laps * self.track.spaces
        self._derive()
        if self.hooks.prepare:
            self.hooks.prepare(self)
            self._derive_corners()
        self._draw_grid()
        if self.hooks.pre_race and self.hooks.pre_race(self):
            return  # in a module's phase (a draft): the module calls start() when it is done
        self.start()

    def _set_up(self, setup: RaceSetup, track: Track | None, laps: int | None,
                record_events: bool) -> None:
        """The state of a race before anything is drawn (the modules built, not prepared)."""
        setup.validate()
        self.record_events = record_events
        self._pending = None
        self._rules = {}
        #: ids of the cars yet to plan this round, lowest first (set by _round and on restore)
        self._to_plan: list[int] = []
        #: set while a round no car plans is driven: the next one loops in _begin_round
        self._driving_round = self._round_again = False
        self.setup = setup
        self.track = track if track is not None else load_track(setup.track)
        self.laps = laps if laps is not None else self.track.laps
        self.finish_d = self.laps * self.track.spaces
        self.round = self.turn = 0
        self.phase = PLAN
        self.order: list[int] = []
        self.hall_of_fame: list[int] = []
        self.shuffles = self.car_turns = self.stress_reserve = 0
        self.log: list[Decision] = []
        self.events: list[Event] = []
        self.grid: list[int] = []
        self.cars: list[Car] = []
        self.hooks = Hooks(build_modules(setup), build_features(self.track))

    @classmethod
    def restore(cls, setup: RaceSetup, *, laps: int, modules: Mapping[str, Mapping[str, Any]],
                track: Track | None = None) -> Race:
        """A race of ``setup`` over ``laps`` with nothing drawn yet and its modules' state
        loaded from ``modules`` (their ``to_dict``, by key), for a snapshot loader
        (:func:`~pitboard.engine.snapshot.race_from_dict`) to fill in: round, phase, order,
        cars... It then calls :meth:`restored`."""
        race = cls.__new__(cls)
        race._set_up(setup, track, laps, True)
        for module in race.hooks.modules:
            module.load(modules.get(module.key, {}))
        return race

    def restored(self) -> None:
        """Work out again what follows from the state a loader has set (see :meth:`restore`):
        corner lines, held spots, the cars yet to plan."""
        self._derive()
        self.index_cars()
        self._to_plan = [c.id for c in self.cars if not c.planned and not c.finished]

    def start(self) -> None:
        """Deal the cards and begin round 1 (a module with pre-race decisions calls this once
        they are done)."""
        self._deal()
        self._begin_round()

    # ------------------------------------------------------------------ setup
    def _derive(self) -> None:
        """Lookups that follow from track and laps (also run when a snapshot is loaded)."""
        self._spaces = self.track.spaces
        self._spots = self.track.racing_spots
        self._seed_key = seed_key(self.setup.seed)
        hooks = self.hooks
        hand_size = hooks.hand_size  # e.g. a championship Event: 6 or 8 cards
        self.hand_size = max(1, hand_size(self, self.setup.hand_size)) if hand_size \
            else self.setup.hand_size
        #: a module acts after step 7 or changes which cards step 8 takes (a championship
        #: Event): one test per car-turn instead of one per hook
        self._step8_hooks = bool(hooks.after_corners or hooks.undiscardable)
        #: the React actions this race offers: the base game's, then its modules' (a module
        #: action with a base action's name refines it in place)
        actions = {a.name: a for a in BASE_ACTIONS}
        actions.update((a.name or str(id(a)), a) for a in self.hooks.react_actions)
        self._react_actions = tuple(actions.values())
        self._react_by_name = react_by_name(self._react_actions)
        #: the checks _react_choice asks after the base actions' (written out there); None
        #: when a module changes a base action's availability (every action is asked)
        self._react_more = more_available(self._react_actions)
        self._derive_corners()

    def _draw_grid(self) -> None:
        """Draw the grid (unless the setup fixes it) and put every car on it (cards come
        later, in :meth:`_deal`)."""
        setup = self.setup
        if setup.grid is not None:
            self.grid = list(setup.grid)
        else:
            self.grid = list(range(setup.cars))
            self.shuffle(self.grid)
        self._place_cars(setup, self.grid)

    # ------------------------------------------------------------------ apply
    def apply(self, decision: Decision) -> None:
        """Apply one decision; raises :class:`IllegalDecision` (state untouched) if not legal."""
        try:  # each handler checks the phase and the car first
            handler = _HANDLERS[type(decision)]
        except KeyError:  # a module's decision (or not a decision)
            if type(decision) in self.hooks.decisions:  # found without an exception from now on
                _HANDLERS[type(decision)] = Race._apply_module  # (a caught one: ~1,900 instr.)
            handler = Race._apply_module
        handler(self, decision)

    def _apply_module(self, decision: Decision) -> None:
        owner = self.hooks.decisions.get(type(decision))
        if self.phase == OVER:
            raise IllegalDecision("the race is over")
        if owner is None:
            raise IllegalDecision(f"not a decision: {decision!r}")
        if self.phase != owner[0]:
            raise IllegalDecision(f"waiting for {self._waiting_text()}, not {owner[0]}")
        owner[1].apply(self, decision)

    def _refuse(self, kind: str, car_id: int) -> NoReturn:
        if self.phase == OVER:
            raise IllegalDecision("the race is over")
        if not 0 <= car_id < len(self.cars):
            raise IllegalDecision(f"there is no car {car_id}")
        if self.phase != kind:
            raise IllegalDecision(f"waiting for {self._waiting_text()}, not {kind}")
        if kind == PLAN:  # a car that has planned (or finished)
            raise IllegalDecision(f"car {car_id} has already planned this round")
        raise IllegalDecision(f"waiting for {self._waiting_text()}, not car {car_id}")

    def _apply_plan(self, plan: Plan) -> None:
        # unpacked, not read by field name: cheaper (the handler is picked by exact type)
        car_id, gear, played = plan
        to_plan = self._to_plan
        if self.phase != PLAN or car_id not in to_plan:
            self._refuse(PLAN, car_id)
        car = self.cars[car_id]
        # checked field by field (plan_rule is built only to explain a refusal): a reachable
        # gear, cards from hand that are not Heat, and as many as the gear unless every
        # playable card is played (a clogged hand)
        cost = (self.shifts(car) if self.hooks.downshift_heat else  # e.g. a flooded space
                (SHIFTS if car.engine else FREE_SHIFTS)[car.gear])[1].get(gear)
        cards = [*played]  # (not list(): a call to a type costs more)
        hand = car.hand.copy()  # a copy: an illegal plan leaves the state untouched
        legal = cost is not None and len(cards) <= gear and UNPLAYABLE.isdisjoint(cards)
        if legal:
            try:
                for c in cards:
                    hand.remove(c)
            except ValueError:  # not in hand
                legal = False
        clogged = len(cards) < gear
        if not legal or (clogged and not UNPLAYABLE.issuperset(hand)):
            raise IllegalDecision(f"car {car.id}: {self.plan_problem(plan)}")
        # legal: commit
        self.log.append(plan)
        if cost:
            car.engine -= cost
            car.discard += [HEAT] * cost
        if self.record_events and gear != car.gear:
            self.events.append(Shifted(car=car.id, frm=car.gear, to=gear, heat=cost or 0,
                                       round=self.round))
            if cost:
                why = "2-gear shift" if abs(gear - car.gear) == 2 and cost == 1 else "downshift"
                self.events.append(HeatPaid(car=car.id, n=cost, why=why, round=self.round))
        car.gear = car.played_gear = gear
        car.clogged = clogged
        if clogged:  # Heat cards fill the rest, while there are any
            for _ in range(gear - len(cards)):
                if HEAT in hand:
                    hand.remove(HEAT)
                    cards.append(HEAT)
        car.hand = hand
        car.play = cards
        car.planned = True
        to_plan.remove(car_id)
        if to_plan:
            return
        self.turn = 0
        self._start_turn()

    def _apply_react(self, react: React) -> None:
        car_id, name, _, _ = react
        if self.phase != REACT or self.order[self.turn] != car_id:
            self._refuse(REACT, car_id)
        car = self.cars[car_id]
        if name == DONE:  # always legal, and the most common: _after_react(), written out
            self.log.append(react)
            if self.slipstream_allowed(car):
                self.phase = SLIPSTREAM
            else:
                self._after_slipstream(car)
            return
        action = self._react_by_name.get(name)
        if action is None or not action.legal(self, car, react):
            legal = self._react_options(car)
            raise IllegalDecision(
                f"car {car.id}: cannot {str(react).split(' ', 2)[2]} now "
                f"(can: {', '.join(str(o).split(' ', 2)[2] for o in legal)})")
        self.log.append(react)
        action.apply(self, car, react)
        if not self._react_choice(car):
            self._after_react(car)

    def _apply_slipstream(self, slip: Slipstream) -> None:
        car_id, take, reach = slip
        if self.phase != SLIPSTREAM or self.order[self.turn] != car_id:
            self._refuse(SLIPSTREAM, car_id)
        car = self.cars[car_id]
        spaces = 0 if not take else self.slipstream_spaces(car) if self.hooks.slipstream_spaces \
            else SLIPSTREAM_SPACES  # (the hook tested here: a call costs more than the test)
        if reach and reach != spaces:
            reaches = self.slipstream_reaches(car)
            if not take or reach not in reaches:
                raise IllegalDecision(f"car {car.id}: cannot slipstream {reach} spaces "
                                      f"(can: {', '.join(map(str, reaches))})")
            spaces = reach
        self.log.append(slip)
        if take:
            car.slipstreamed = True
            car.slip_from = car.d
            if self.record_events:
                self.events.append(Slipstreamed(car=car.id, round=self.round))
            self.move(car, spaces, "slipstream")
        self._after_slipstream(car)

    def _apply_discard(self, discard: Discard) -> None:
        car_id, cards = discard
        if self.phase != DISCARD or self.order[self.turn] != car_id:
            self._refuse(DISCARD, car_id)
        car = self.cars[car_id]
        if not cards:
            self.log.append(discard)
            self._end_turn(car)
            return
        hand = car.hand.copy()
        kept = self.undiscardable(car) if self.hooks.undiscardable else UNDISCARDABLE
        most = self.discard_limit(car) if self.hooks.discard_limit else None
        if most is not None and len(cards) > most:
            raise IllegalDecision(f"car {car.id}: at most {most} card"
                                  f"{'s' if most != 1 else ''} may be discarded now")
        for c in cards:
            if c in kept:
                raise IllegalDecision(f"car {car.id}: {undiscardable_text(kept)}")
            if c not in hand:
                raise IllegalDecision(f"car {car.id}: card {c} is not in hand")
            hand.remove(c)
        self.log.append(discard)
        car.hand = hand
        car.discard.extend(cards)
        if self.record_events:
            self.events.append(Discarded(car=car.id, cards=tuple(cards), round=self.round))
        self._end_turn(car)

    # ------------------------------------------------------------------ the turn
    def _begin_round(self) -> None:
        if self._driving_round:
            self._round_again = True
            return
        while self._round():
            self._driving_round, self._round_again = True, False
            try:
                self.turn = 0
                self._start_turn()
            finally:
                self._driving_round = False
            if not self._round_again:
                return

    def _round(self) -> bool:
        """Set up the next round; True if no car plans in it (e.g. only Legend cars left), so
        its turns start right away."""
        self.round += 1
        self._rules.clear()
        racing = self.leader_first([c for c in self.cars if not c.finished])
        self.order = [c.id for c in racing]
        self.turn = 0
        self.phase = PLAN
        # adrenaline goes by the STARTING field: last 2 of the order with 5+ starters
        adrenaline = len(racing) - (2 if len(self.cars) >= 5 else 1)
        plans = self.hooks.plans
        for i, car in enumerate(racing):
            car.adrenaline = i >= adrenaline
            car.planned = False
        if self.hooks.adrenaline:  # e.g. an Event: no Adrenaline this race
            for car in racing:
                car.adrenaline = self.hooks.adrenaline(self, car, car.adrenaline)
        if plans is not None:  # a car may sit the planning out (a Legend car)
            for car in racing:
                car.planned = not plans(self, car)
        self._to_plan = to_plan = sorted(c.id for c in racing if not c.planned) if plans else \
            sorted(self.order)
        if self.record_events:
            self.events.append(RoundStarted(order=tuple(self.order), round=self.round))
        return plans is not None and not to_plan

    def _start_turn(self) -> None:
        car = self.cars[self.order[self.turn]]
        self.phase = REACT
        self.car_turns += 1
        car.start_d = car.d
        car.adrenaline_used = car.boosted = car.slipstreamed = car.spun = False
        hooks, events = self.hooks, self.record_events
        if events:
            self.events.append(TurnStarted(car=car.id, gear=car.gear, round=self.round))
        if hooks.drive and hooks.drive(self, car):  # e.g. a Legend car
            self._end_turn(car)
            return
        play = car.play
        if car.clogged:
            if events:
                self.events.append(Clogged(car=car.id, cards=tuple(play), round=self.round))
            car.gear = 1
            self._end_turn(car)
            return
        if events:
            self.events.append(Revealed(car=car.id, cards=tuple(play), round=self.round))
        if STRESS in play:
            for _ in range(play.count(STRESS)):
                self.flip(car, "stress")
        speed = 0
        for c in play:
            speed += SPEED[c]
        car.speed = speed
        if hooks.after_reveal:
            hooks.after_reveal(self, car)
        if events:
            self.events.append(SpeedCounted(car=car.id, speed=car.speed, round=self.round))
        self.move(car, car.speed, "cards")
        car.cooldown = _COOLDOWN[car.gear] + car.adrenaline
        if hooks.cooldown:
            car.cooldown = hooks.cooldown(self, car, car.cooldown)
        # a React choice? The first test of _react_choice written out: a car that has just
        # revealed has not boosted, and most can pay for a Boost
        boost_heat = hooks.boost_heat
        if (self._react_more is None or car.engine < (boost_heat(self, car, 1) if boost_heat
                                                      else 1)) and not self._react_choice(car):
            self._after_react(car)

    def _react_choice(self, car: Car) -> bool:
        """Is there any React action besides 'done'? (asked after every move)"""
        more = self._react_more
        if more is not None:  # the base actions' available(), written out, then the others'
            boost_heat = self.hooks.boost_heat
            if (not car.boosted and  # Boost first: the most often open, and the cheapest test
                    car.engine >= (boost_heat(self, car, 1) if boost_heat else 1)) or \
                    (car.adrenaline and not car.adrenaline_used) or \
                    (car.cooldown > 0 and HEAT in car.hand):
                return True
            for available in more:  # noqa: SIM110 (a loop: any() with a generator costs more)
                if available(self, car):
                    return True
            return False
        for action in self._react_actions:  # noqa: SIM110 (a loop: any() with a generator costs more here)
            if action.available(self, car):
                return True
        return False

    def _after_react(self, car: Car) -> None:
        if self.slipstream_allowed(car):
            self.phase = SLIPSTREAM
            return
        self._after_slipstream(car)

    def _after_slipstream(self, car: Car) -> None:
        ds = self._line_ds  # a corner line crossed this turn? (most turns cross none)
        first = bisect_left(ds, car.start_d)
        if first < len(ds) and ds[first] < car.d:
            self._check_corners(car, first)
        if self._step8_hooks:  # e.g. a championship's Press Corners and Event
            self._after_corners(car)
            return
        for c in car.hand:  # a card to discard? (a loop: the first card usually is one)
            if DISCARDABLE[c]:
                may = self.hooks.may_discard  # e.g. not in a tunnel
                if may is None or may(self, car):
                    self.phase = DISCARD
                    return
                break
        self._end_turn(car)

    def _after_corners(self, car: Car) -> None:
        """Step 7 is done: the modules' after_corners, then step 8 with the cards they let go
        (a race whose modules change neither goes on in :meth:`_after_slipstream`)."""
        hooks = self.hooks
        if hooks.after_corners:
            hooks.after_corners(self, car)
            if car.retired:  # out of the race: no Discard step
                self._end_turn(car)
                return
        if not self.undiscardable(car).issuperset(car.hand) and self.may_discard(car):
            self.phase = DISCARD
            return
        self._end_turn(car)

    def _check_corners(self, car: Car, first: int | None = None) -> None:
        """Step 7: every corner line crossed this turn, in order (``first``: the first line
        at or after the turn's start, if known); a spin-out ends the checks."""
        if first is None:
            first = bisect_left(self._line_ds, car.start_d)
        last = bisect_left(self._line_ds, car.d, first)
        own_limit, heat_for = self.hooks.car_corner_limit, self.hooks.corner_heat
        for line, index, limit in self._corner_lines[first:last]:
            if own_limit:  # e.g. an upgrade's adjust symbol, this car this turn
                limit = own_limit(self, car, index, limit)
            excess = car.speed - limit
            if excess > 0 and heat_for:  # e.g. an overheat token
                excess = heat_for(self, car, index, excess)
            paid = max(excess, 0)
            if car.engine < paid:
                self._spin_out(car, line, index)
                return
            car.engine -= paid
            car.discard.extend([HEAT] * paid)
            if self.record_events:
                self.events.append(CornerChecked(car=car.id, corner=index + 1, limit=limit,
                                                 speed=car.speed, heat=paid, round=self.round))
                if paid:
                    self.events.append(HeatPaid(car=car.id, n=paid, why=f"corner {index + 1}",
                                                round=self.round))

    def _spin_out(self, car: Car, line: int, index: int) -> None:
        paid = car.engine
        car.discard.extend([HEAT] * paid)
        car.engine = 0
        frm = car.d
        self._put(car, *self.landing(car, line))
        stress = 1 if car.played_gear <= 2 else 2
        given = min(stress, self.stress_reserve)
        self.stress_reserve -= given
        car.hand.extend([STRESS] * given)
        car.gear = 1
        car.spun = True
        car.spinouts += 1
        if self.record_events:
            p = self.where(car)
            self.events.append(SpunOut(car=car.id, corner=index + 1, heat=paid, stress=given,
                                       frm=frm, d=p.d, lap=p.lap, space=p.space, spot=p.spot,
                                       racing_line=p.racing_line, round=self.round))

    def retire(self, car: Car, why: str) -> None:
        """Take ``car`` out of the race: off the board, no more turns, no place in the Hall of
        Fame (a championship Event's elimination). Its turn, if under way, ends at once."""
        if car.finished:
            return
        if car.on_track:
            self._taken[car.space] &= ~car.spot
        car.on_track = False
        car.finished = car.retired = True
        car.finish_round = self.round
        if self.record_events:
            self.events.append(Retired(car=car.id, why=why, round=self.round))

    def _end_turn(self, car: Car) -> None:
        if self.hooks.end_turn:
            self.hooks.end_turn(self, car)
        car.discard += car.play
        car.play = []
        self._fill_hand(car)
        if car.d > self.finish_d and not car.finished:
            car.finished = True
            car.finish_round = self.round
            if self.record_events:
                self.events.append(Finished(car=car.id, round=self.round))
        self.turn += 1
        if self.turn < len(self.order):
            self._start_turn()
        else:
            self._end_round()

    def _end_round(self) -> None:
        finished = sum(map(_FINISHED, self.cars))
        if finished > len(self.hall_of_fame):  # cars crossed the line this round: off the track
            for c in self.leader_first([c for c in self.cars if c.finished and c.on_track]):
                self._taken[c.space] &= ~c.spot
                c.on_track = False
                self.hall_of_fame.append(c.id)
                if self.record_events:
                    self.events.append(Placed(car=c.id, place=len(self.hall_of_fame),
                                              round=self.round))
        if finished == len(self.cars):
            self.phase = OVER
            if self.record_events:
                self.events.append(RaceOver(order=tuple(self.hall_of_fame), rounds=self.round,
                                            round=self.round))
            return
        self._begin_round()


_FINISHED = attrgetter("finished")
#: Cooldown by gear (3 in 1st, 1 in 2nd), before Adrenaline's +1
_COOLDOWN = (0, 3, 1, 0, 0)

#: apply() dispatch by decision type (one dict lookup instead of an isinstance chain); the types
#: of modules' decisions join when first applied
_HANDLERS: dict[type, Callable[[Race, Any], None]] = {
    Plan: Race._apply_plan,
    React: Race._apply_react,
    Slipstream: Race._apply_slipstream,
    Discard: Race._apply_discard,
}

#: Car (car.py) and SLIPSTREAM_SPACES (course.py) may still be imported from here
__all__ = ["SLIPSTREAM_SPACES", "Car", "Race"]
