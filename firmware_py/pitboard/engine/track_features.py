"""The rules a track's spaces bring: flooded spaces (Japan) and tunnel spaces (Spain).

They are no one's choice: a race on a track whose file lists ``flooded`` or ``tunnels`` spaces
plays by them, whatever its modules, and a race on a track without them builds no feature at all
(:func:`~pitboard.engine.modules.build_features`), so the base tracks pay nothing for them. Each
feature answers the hooks of :mod:`pitboard.engine.modules` its rule changes:

===========  =============  ==================================================================
feature      hook           rule
===========  =============  ==================================================================
flooded      downshift_heat a car that starts the round on a flooded space pays 1 Heat more
                            for any downshift: 1 Heat for one gear down, 2 for two (so with
                            no Heat in the engine it cannot shift down there at all)
tunnels      may_discard    a car on a tunnel space discards no card from its hand: no
                            Discard step there, and no effect that discards from a hand (an
                            upgrade's reduce symbol) either
===========  =============  ==================================================================

Sources (../shared/reference/modules.md section 6; Board Game Arena's rule texts): "flooded
space (Japan): any downshift costs +1 Heat" ("if you start the round on a flooded space,
shifting down a gear costs 1 extra Heat"); "no discarding in tunnel spaces", a rule that
"takes precedence over any effect that would allow you to discard". How much a flooded
downshift costs is :data:`FLOODED_DOWNSHIFT_HEAT`, easy to change.

Example: Japan's spaces 6-11 are flooded::

    >>> from pitboard.engine import Race, RaceSetup, StackedDeck
    >>> deck = StackedDeck(d=8, spot=1, gear=3)
    >>> race = Race(RaceSetup(track="japan", cars=2, seed=1, stacked={0: deck}))
    >>> race.plan_rule(0).shift_cost          # gear 3 on space 8: down costs 1 or 2 Heat
    {1: 2, 2: 1, 3: 0, 4: 0}
    >>> race.plan_rule(1).shift_cost          # car 1 on the grid, not flooded
    {1: 0, 2: 0, 3: 1}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .modules import TrackFeature, register_feature
from .stamp import register_data

if TYPE_CHECKING:
    from ..track import Track
    from .car import Car
    from .modules import ModuleRace

#: Heat a downshift costs on a flooded space, on top of the base game's
FLOODED_DOWNSHIFT_HEAT = 1

# a journalled race replays only under the same rules (engine/stamp.py): bump a version when
# its rule changes
register_data("flooded", "rules", "flooded-1")
register_data("tunnels", "rules", "tunnels-1")


def _marked(track: Track, spaces: frozenset[int]) -> tuple[bool, ...]:
    """Per board space (index 0 unused): is it one of ``spaces``? (one index per question)"""
    return tuple(space in spaces for space in range(track.spaces + 1))


@register_feature
class FloodedSpaces(TrackFeature):
    """Flooded spaces: a downshift planned there costs Heat.

    Example::

        >>> from pitboard.trackfile import load_track
        >>> FloodedSpaces.on_track(load_track("japan")), FloodedSpaces.on_track(load_track("usa"))
        (True, False)
    """

    key = "flooded"

    def __init__(self, track: Track) -> None:
        super().__init__(track)
        self._flooded = _marked(track, track.flooded)

    @classmethod
    def on_track(cls, track: Track) -> bool:
        return bool(track.flooded)

    def downshift_heat(self, race: ModuleRace, car: Car, heat: int) -> int:
        if car.on_track and self._flooded[car.space]:
            return heat + FLOODED_DOWNSHIFT_HEAT
        return heat

    def notice(self, car: Car) -> str:
        if car.on_track and self._flooded[car.space]:
            return f"flooded: downshift +{FLOODED_DOWNSHIFT_HEAT} Heat"
        return ""


@register_feature
class TunnelSpaces(TrackFeature):
    """Tunnel spaces: no card leaves a hand by a discard there.

    Example::

        >>> from pitboard.trackfile import load_track
        >>> TunnelSpaces.on_track(load_track("spain")), TunnelSpaces.on_track(load_track("japan"))
        (True, False)
    """

    key = "tunnels"

    def __init__(self, track: Track) -> None:
        super().__init__(track)
        self._tunnel = _marked(track, track.tunnels)

    @classmethod
    def on_track(cls, track: Track) -> bool:
        return bool(track.tunnels)

    def may_discard(self, race: ModuleRace, car: Car) -> bool:
        return not (car.on_track and self._tunnel[car.space])

    def notice(self, car: Car) -> str:
        return "tunnel: no discard" if car.on_track and self._tunnel[car.space] else ""


def space_notices(race: ModuleRace, car: Car) -> list[str]:
    """What the space where ``car`` stands does to it, in a few words for a station (empty on
    a track without such spaces).

    Example::

        >>> from pitboard.engine import Race, RaceSetup, StackedDeck
        >>> race = Race(RaceSetup(track="spain", cars=2, seed=1,
        ...                       stacked={0: StackedDeck(d=20, spot=1)}))
        >>> space_notices(race, race.cars[0]), space_notices(race, race.cars[1])
        (['tunnel: no discard'], [])
    """
    return [text for feature in race.hooks.features if (text := feature.notice(car))]
