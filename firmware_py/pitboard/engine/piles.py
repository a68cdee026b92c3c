"""The cards: deal, shuffle, draw, flip and replenish (a layer of the race).

:class:`Piles` sits between :class:`~pitboard.engine.course.Course` and
:class:`~pitboard.engine.race.Race`. Each shuffle draws from a stream derived from the setup's
seed and a shuffle counter kept in the state (:mod:`pitboard.engine.shuffle`), so *setup +
decision log* reproduces the race exactly, on any platform and Python version.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .car import Car
from .cards import BASIC, STRESS, starting_deck
from .course import Course
from .events import Flipped, GridDrawn, GridSpot, Replenished, Reshuffled
from .setup import BOX_STRESS, RaceSetup
from .shuffle import shuffle_cards


class Piles(Course):
    """Every car's draw pile, hand, play area and discard pile, and the race's shuffles.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> [len(c.hand) for c in race.cars], race.shuffles
        ([7, 7], 3)
    """

    __slots__ = ("_seed_key", "grid", "hand_size", "setup", "shuffles", "stress_reserve")

    setup: RaceSetup
    #: cards in a full hand (the setup's, as the modules' hand_size hooks changed it)
    hand_size: int
    grid: list[int]
    shuffles: int
    stress_reserve: int
    _seed_key: int

    def shuffle(self, cards: list[Any]) -> None:
        """Shuffle ``cards`` in place with the race's next seeded stream: the only randomness a
        module may use, so setup + decision log replays the race. The order follows from the
        setup's seed and the shuffle count alone, so a restored race shuffles as the original
        would (see :mod:`pitboard.engine.shuffle`)."""
        self.shuffles += 1
        shuffle_cards(cards, self._seed_key, self.shuffles)

    def _deal(self) -> None:
        """Every car's starting deck (modules adjust it), engine and hand."""
        setup, track = self.setup, self.track
        setup_car = self.hooks.setup_car
        for car in self.cars:
            car.engine = track.heat
            stacked = setup.stacked.get(car.id)
            car.draw = starting_deck(track.stress)
            if setup_car:
                setup_car(self, car)
            self.shuffle(car.draw)
            if stacked is not None:
                if stacked.draw is not None:
                    car.draw = list(reversed(stacked.draw))
                if stacked.discard is not None:
                    car.discard = list(stacked.discard)
                if stacked.engine is not None:
                    car.engine = stacked.engine
            if stacked is not None and stacked.hand is not None:
                car.hand = list(stacked.hand)
            else:
                self._fill_hand(car, log=False)
        in_decks = sum(c.draw.count(STRESS) + c.hand.count(STRESS) for c in self.cars)
        self.stress_reserve = max(0, BOX_STRESS - in_decks)
        if self.record_events:
            self.events.append(GridDrawn(grid=tuple(self._grid_spot(i) for i in self.grid),
                                         round=self.round))

    def _grid_spot(self, car_id: int) -> GridSpot:
        p = self.where(self.cars[car_id])
        return GridSpot(p.d, p.lap, p.space, p.spot, p.racing_line, car_id)


    # -------------------------------------------------------------- what modules may do
    def draws(self, car: Car) -> Iterator[str]:
        """Cards off the top of ``car``'s draw pile, one each time the caller asks. When the
        pile runs out the discard pile becomes the new one, shuffled (a
        :class:`~pitboard.engine.events.Reshuffled`), once: a second time it would hold only
        the cards just drawn. Ends when no card is left. (Mid-turn: the play area stays.)"""
        reshuffled = False
        while True:
            if not car.draw:
                if reshuffled or not car.discard:
                    return
                self._reshuffle(car)
                reshuffled = True
            yield car.draw.pop()

    def flip(self, car: Car, why: str) -> str | None:
        """Flip cards until a basic Speed card (1-4): it joins the play area and is returned; the
        others go to the discard pile (None: no card was left). Each flip is a
        :class:`~pitboard.engine.events.Flipped` (``why``: "stress", "boost", a module's)."""
        record = self.record_events
        for card in self.draws(car):
            kept = card in BASIC
            if kept:
                car.play.append(card)
            else:
                car.discard.append(card)
            if record:
                self.events.append(Flipped(car=car.id, card=card, kept=kept, why=why,
                                           round=self.round))
            if kept:
                return card
        if record:
            self.events.append(Flipped(car=car.id, card=None, kept=False, why=why,
                                       round=self.round))
        return None

    def _reshuffle(self, car: Car, *, log: bool = True) -> None:
        """The discard pile, shuffled, becomes ``car``'s draw pile (a :class:`Reshuffled`
        unless ``log`` is off: the deal)."""
        car.draw = car.discard
        car.discard = []
        self.shuffle(car.draw)
        if log and self.record_events:
            self.events.append(Reshuffled(car=car.id, cards=len(car.draw), round=self.round))

    def _fill_hand(self, car: Car, *, log: bool = True) -> None:
        """Draw up to the hand size, top card first (a :class:`Replenished` unless ``log`` is
        off: the deal). An empty draw pile takes the discard pile, shuffled, as often as
        needed; the hand stays short when both run out."""
        hand = car.hand
        need = self.hand_size - len(hand)
        if need <= 0:
            return
        log = log and self.record_events
        drawn = 0
        while drawn < need:
            if not car.draw:
                if not car.discard:
                    break
                self._reshuffle(car, log=log)
            draw = car.draw
            take = min(need - drawn, len(draw))
            hand += draw[:-take - 1:-1]  # top card first, as if popped one by one (in place)
            del draw[-take:]
            drawn += take
        if log:
            self.events.append(Replenished(car=car.id, drawn=drawn, round=self.round))
