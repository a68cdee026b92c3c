"""What the box holds, as plain names and numbers, in a module that imports nothing.

The command line shows these in its ``--help`` before it may load the rules engine or parse a
track file (it must not: ``pitboard --help`` answers in a few milliseconds, measured by
benchmarks/cold_start.py). The engine and the track loader take them from here.
"""

#: cars in one race: the base box holds 6
MAX_CARS = 6

#: keys of the tracks shipped with Pitboard (``pitboard/tracks/<key>.toml``): the base box's,
#: then Heavy Rain's (Japan, Mexico) and Tunnel Vision's (Netherlands, Spain)
TRACKS = ("usa", "france", "great_britain", "italy", "japan", "mexico", "netherlands", "spain")

#: the championship's seasons (pitboard/engine/championship/championship.toml; a test keeps
#: them equal), then the season drawn at random from the seed
SEASONS = ("1961", "1962", "1963", "1964", "1965", "random")

#: the weather tokens' keys (pitboard/engine/weather/tokens.toml; a test keeps them equal)
WEATHER_TOKENS = ("cloud", "fog", "storm", "snow", "rain", "sun")

#: rules modules the engine races but the stations cannot present yet, with why: the table
#: (lobby, console, profile presets) refuses them in one line instead of starting a race no
#: one can play. Remove an entry when its screens land (the Garage's draft and upgrade screens
#: are in: none is left today).
NOT_AT_THE_TABLE: dict[str, str] = {}
