"""Where a Legend car goes: the Legends module's movement rule, as a pure function of the race.

A Legend looks at the next corner line ahead of it (on the final lap, none once the last corner
is behind it) and at that corner's Legends line:

* **past the Legends line** (between it and the corner): it moves the corner's speed limit (road
  tokens included) plus its diamond. One move may cross at most one corner line; when
  Aggressive Legends is on, two if it starts within the chevron distance printed before the
  corner (``aggressive``), three within a double chevron's (``double_aggressive``: Netherlands
  corner 1). A longer move stops on the space just before the first line it may not cross.
* **before the Legends line**: it moves its top speed if that does not take it over the corner
  line; otherwise it brakes to the space ``diamond`` spaces before the line (diamond 0: the space
  just before it).
* **no corner ahead** (final lap, last corner behind it): top speed, over the finish line.

Blocking is the base game's: a full space sends the car to the first free spot behind it.

Where the sources differ (../shared/reference/modules.md section 3): Board Game Arena moves a
Legend before the line at 20 instead of its helmet's top speed, so it always brakes for a corner
within 20 spaces. Pitboard follows the rulebook (the seeds): the helmet's top speed. To play as
Board Game Arena does, set :data:`APPROACH_SPEED` to 20.

Example (USA: corner 1 is the line after space 12, limit 7, Legends line after space 2)::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1, grid=(0, 1),
    ...                       modules={"legends": {"cars": 1}}))
    >>> car = race.cars[1]                      # on space 69, spot 2: 12 spaces from the line
    >>> legend_move(race, car, LegendEntry(speed=11, diamond=2), aggressive=False)
    LegendMove(target=11, branch='straight', corner=0)
    >>> legend_move(race, car, LegendEntry(speed=15, diamond=2), aggressive=False)
    LegendMove(target=10, branch='brake', corner=0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .cards import LegendEntry

if TYPE_CHECKING:
    from ..car import Car
    from ..modules import ModuleRace

#: None = the helmet's top speed before the Legends line (the rulebook); 20 = Board Game Arena
APPROACH_SPEED: int | None = None

#: branch names, as events and scenarios show them
STRAIGHT = "straight"      # before the Legends line, top speed stays short of the corner
BRAKE = "brake"            # before the Legends line, top speed would cross: stop diamond before
CORNER = "corner"          # past the Legends line: limit + diamond
CORNER_STOP = "corner_stop"  # past the line, but that would cross too many corner lines
FINISH = "finish"          # final lap, no corner left: top speed to the finish
BRANCHES = (STRAIGHT, BRAKE, CORNER, CORNER_STOP, FINISH)


class LegendMove(NamedTuple):
    """Where a Legend aims (``d``, before blocking), which branch of the rule, and the corner
    (0-based index) the rule looked at (None past the last corner of the race).

    Example: after round 1 the Blue Legend stands on space 10, past corner 1's Legends line
    (after space 2), so it moves the limit 7 plus its diamond::

        >>> from pitboard.engine import Race, RaceSetup
        >>> from pitboard.engine.decisions import parse_decision
        >>> race = Race(RaceSetup(track="usa", cars=3, seed=4, laps=1,
        ...                       modules={"legends": {"cars": 2, "deck": [2]}}))
        >>> race.apply(parse_decision("plan 0 gear 2 cards 3 4"))
        >>> blue = race.cars[2]
        >>> move = legend_move(race, blue, LegendEntry(speed=14, diamond=1), aggressive=False)
        >>> move, move.target - blue.d
        (LegendMove(target=18, branch='corner', corner=0), 8)
    """

    target: int
    branch: str
    corner: int | None


def legend_move(race: ModuleRace, car: Car, entry: LegendEntry, *, aggressive: bool,
                pro: int = 0) -> LegendMove:
    """The move of Legend ``car`` this turn, reading ``entry`` (its helmet on this round's card).

    ``pro`` is the Pro Legends bonus added to the top speed.
    """
    top = (APPROACH_SPEED if APPROACH_SPEED is not None else entry.speed) + pro
    ahead = race.corners_between(car.d, race.finish_d)
    if not ahead:
        return LegendMove(car.d + top, FINISH, None)
    line, index, limit = ahead[0]
    corner = race.track.corners[index]
    # the Legends line lies after space `legends_line`: its distance back from the corner line
    legends_d = line - (corner.at - corner.legends_line) % race.track.spaces
    if car.d > legends_d:
        target = car.d + limit + entry.diamond
        allowed = 1
        # chevrons: the corner line is within `aggressive` spaces (1 = from the space just
        # before it), counting the move onto the line's far side as the first; a double
        # chevron the same within `double_aggressive`
        if aggressive:
            distance = line - car.d + 1
            if distance <= corner.double_aggressive:
                allowed = 3
            elif distance <= corner.aggressive:
                allowed = 2
        crossed = [d for d, _, _ in ahead if d < target]
        if len(crossed) > allowed:
            return LegendMove(crossed[allowed], CORNER_STOP, index)
        return LegendMove(target, CORNER, index)
    if car.d + top <= line:
        return LegendMove(car.d + top, STRAIGHT, index)
    return LegendMove(max(car.d, line - entry.diamond), BRAKE, index)
