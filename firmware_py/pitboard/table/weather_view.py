"""Weather and road conditions on the stations: what the sector where a car stands does to it,
and how the road tokens change the corners ahead (point 7 of issue 14).

* **Sector effects** (:func:`sector_line`): the weather token's effect in a weather sector, or
  a road token's (Heat control, Slipstream +1), where the car stands now: in planning where it
  starts, on the turn screen where it has moved to, which is where the React step's Cooldown,
  a Boost's Heat and a slipstream are judged ("sector: no cooldown", "sector: slipstream +2").
  The same line names what the space itself does on an expansion board ("flooded: downshift
  +1 Heat", "tunnel: no discard").
* **Corner limits** (:func:`corner_notes`): the forecast and the corner warnings already use
  the limits the race uses (a Speed limit token's +-1 included, and an Overheat token's extra
  Heat in the Heat owed); the notes say by how much a limit differs from the number printed on
  the board, so players see why "corner 2 limit 2" is not the 3 they read there.

Example::

    >>> from pitboard.engine import Race, RaceSetup
    >>> race = Race(RaceSetup(track="usa", cars=2, seed=1, laps=1,
    ...             modules={"weather": {"weather": "fog", "road": {"2": "limit+1"}}}))
    >>> corner_notes(race, 2, race.corner_limit(1)), corner_notes(race, 1, race.corner_limit(0))
    ((1, 0), (0, 0))
"""

from __future__ import annotations

from ..engine.race import Race
from ..engine.track_features import space_notices
from ..engine.weather import load_tokens, road_tokens, sector_effect


def sector_line(race: Race, car_id: int) -> str:
    """What the sector, and the space, where ``car_id`` stands do to it ("" when nothing)."""
    words = sector_effect(race, car_id).words()
    parts = ["sector: " + ", ".join(words)] if words else []
    if race.hooks.features:
        parts += space_notices(race, race.cars[car_id])
    return "; ".join(parts)


def corner_notes(race: Race, number: int, limit: int) -> tuple[int, int]:
    """(limit minus the printed limit, Heat a road token adds over it) at corner ``number``
    (1-based, as printed) whose limit in the race is ``limit``."""
    printed = race.track.corners[number - 1].limit
    first = race.track.token_corner(number - 1)  # a chicane's lines share the first's token
    key = road_tokens(race).get(first + 1)
    overheat = load_tokens().road_token(key).overheat if key is not None else 0
    return limit - printed, overheat
