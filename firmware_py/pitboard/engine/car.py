"""A car and its player's cards: the state ``Race`` keeps per car."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Car:
    """One car and its player's cards. Piles are lists of card codes; draw pile top = last.

    A race builds its cars (``race.cars``, by id); decisions change them, nothing else should.

    Example::

        >>> from pitboard.engine import Race, RaceSetup
        >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1))
        >>> car = race.cars[0]
        >>> car.name, car.gear, car.engine, car.hand
        ('Car 1', 1, 6, ['1', '4', '2', 'S', '4', '5', '3'])
    """

    id: int
    name: str
    d: int
    spot: int
    space: int
    gear: int = 1
    engine: int = 0
    hand: list[str] = field(default_factory=list)
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    play: list[str] = field(default_factory=list)
    on_track: bool = True
    finished: bool = False
    finish_round: int = 0
    spinouts: int = 0
    #: out of the race without a place (a championship Event's elimination); finished too
    retired: bool = False
    # --- this turn (reset when the car's turn starts) ---
    planned: bool = False
    clogged: bool = False
    played_gear: int = 1
    start_d: int = 0
    speed: int = 0
    adrenaline: bool = False
    adrenaline_used: bool = False
    boosted: bool = False
    cooldown: int = 0
    slipstreamed: bool = False
    #: where this turn's slipstream started (read only when ``slipstreamed``)
    slip_from: int = 0
    spun: bool = False
