"""The Weather & road conditions module's event: the tokens drawn for the race.

Each kind's doctest shows its JSON form; ``docs/events.md`` lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .core import Decoders, Event, register_event


@register_event
@dataclass(frozen=True, slots=True, kw_only=True)
class WeatherDrawn(Event):
    """The race's ``weather`` token and its ``road`` tokens: (corner as printed, token) pairs.

    Example::

        >>> WeatherDrawn(weather="fog", road=((2, "limit+1"),), round=0).to_dict()
        {'weather': 'fog', 'road': {'2': 'limit+1'}, 'type': 'weather', 'round': 0}
    """

    kind = "weather"
    decode: ClassVar[Decoders] = {"road": lambda road: tuple((int(c), t) for c, t in road.items())}
    weather: str
    road: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"weather": self.weather, "road": {str(c): token for c, token in self.road},
                "type": self.kind, "round": self.round}
