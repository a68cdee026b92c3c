"""The Weather & road conditions module (see :mod:`.module`) and its tokens (:mod:`.tokens`).

Example::

    >>> from pitboard.engine.weather import load_tokens
    >>> load_tokens().weather_keys
    ('cloud', 'fog', 'storm', 'snow', 'rain', 'sun')
"""

from .module import Weather, race_weather, road_tokens, sector_effect, token_corners
from .tokens import RoadToken, SectorEffect, Tokens, WeatherToken, load_tokens

__all__ = ["RoadToken", "SectorEffect", "Tokens", "Weather", "WeatherToken", "load_tokens",
           "race_weather", "road_tokens", "sector_effect", "token_corners"]
