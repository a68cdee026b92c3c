"""The cards: deal, shuffle, draw, flip and replenish (a layer of the race).

:class:`Piles` sits between :class:`~pitboard.engine.course.Course` and
:class:`~pitboard.engine.race.Race`. Each shuffle draws from a stream derived from the setup's
seed and a shuffle counter kept in the state (:mod:`pitboard.engine.shuffle`), so *setup +
decision log* reproduces the race exactly, on any platform and Python version.
"""

from __future__ import annotations

from typing import Any

from .car import Car
from .cards import BASIC, STRESS, starting_deck
from .course import Course
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

    __slots__ = ("_seed_key", "grid", "setup", "shuffles", "stress_reserve")

    setup: RaceSetup
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
            self._event("grid", grid=[self._where(self.cars[i]) | {"car": i} for i in self.grid])


    def _draw_one(self, car: Car, reshuffled: list[bool]) -> str | None:
        if not car.draw:
            if not car.discard or reshuffled[0]:
                return None
            # mid-turn reshuffles never take the play area
            car.draw = car.discard
            car.discard = []
            self.shuffle(car.draw)
            reshuffled[0] = True
            if self.record_events:
                self._event("reshuffle", car=car.id, cards=len(car.draw))
        return car.draw.pop()

    def _flip_basic(self, car: Car, why: str) -> str | None:
        """Flip until a basic Speed card (1-4): it joins the play area, the rest are discarded.

        One reshuffle at most per flip: a second one would hold only the cards just flipped.
        """
        reshuffled = [False]
        while True:
            draw = car.draw
            card = draw.pop() if draw else self._draw_one(car, reshuffled)
            if card is None:
                if self.record_events:
                    self.events.append({"car": car.id, "card": None, "kept": False, "why": why,
                                        "type": "flip", "round": self.round})
                return None
            if card in BASIC:
                car.play.append(card)
                if self.record_events:
                    self.events.append({"car": car.id, "card": card, "kept": True, "why": why,
                                    "type": "flip", "round": self.round})
                return card
            car.discard.append(card)
            if self.record_events:
                self.events.append({"car": car.id, "card": card, "kept": False, "why": why,
                                "type": "flip", "round": self.round})

    def _fill_hand(self, car: Car, *, log: bool = True) -> None:
        hand = car.hand
        need = self.setup.hand_size - len(hand)
        if need <= 0:
            return
        draw = car.draw
        if len(draw) >= need and not (log and self.record_events):  # no reshuffle, no event
            hand += draw[:-need - 1:-1]  # top card first, as if popped one by one (in place)
            del draw[-need:]
            return
        drawn = 0
        while drawn < need:
            draw = car.draw
            if not draw:
                if not car.discard:
                    break
                car.draw = draw = car.discard
                car.discard = []
                self.shuffle(draw)
                if log and self.record_events:
                    self._event("reshuffle", car=car.id, cards=len(draw))
            take = need - drawn  # (not min(): a builtin call costs more, on every reshuffle)
            if take > len(draw):
                take = len(draw)
            car.hand.extend(draw[:-take - 1:-1])  # top card first, as if popped one by one
            del draw[-take:]
            drawn += take
        if log and self.record_events:
            self.events.append({"car": car.id, "drawn": drawn, "type": "replenish",
                                "round": self.round})
