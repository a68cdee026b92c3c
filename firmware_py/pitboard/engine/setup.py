"""How a race is set up: everything that, with the decision log, reproduces it exactly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..catalog import MAX_CARS as MAX_CARS  # re-exported: its home before catalog.py
from .cards import check_codes
from .modules import check_modules

HAND_SIZE = 7
#: Stress cards in the box; those not shuffled into decks form the shared reserve
BOX_STRESS = 37


@dataclass(frozen=True, slots=True)
class StackedDeck:
    """A player's cards set by hand (scenarios, tests): pile orders are top first.

    Example::

        StackedDeck(hand=("1", "2", "3", "4", "4", "S", "H"), draw=("3", "2"), engine=6)
    """

    hand: tuple[str, ...] | None = None
    draw: tuple[str, ...] | None = None
    discard: tuple[str, ...] | None = None
    engine: int | None = None
    gear: int | None = None
    #: start here instead of the grid: spaces travelled (see race.py) and spot
    d: int | None = None
    spot: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("hand", "draw", "discard"):
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value)
        for key in ("engine", "gear", "d", "spot"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StackedDeck:
        piles: dict[str, tuple[str, ...] | None] = {}
        for key in ("hand", "draw", "discard"):
            value = data.get(key)
            if value is not None:
                check_codes(value, key)
            piles[key] = None if value is None else tuple(value)
        return cls(
            hand=piles["hand"], draw=piles["draw"], discard=piles["discard"],
            engine=data.get("engine"), gear=data.get("gear"), d=data.get("d"),
            spot=data.get("spot"),
        )


@dataclass(frozen=True, slots=True)
class RaceSetup:
    """The inputs of a race.

    ``grid`` lists car numbers pole first; ``None`` draws the grid from the seed. ``laps`` of
    ``None`` uses the track's printed laps (the rulebook's first game uses 1).

    Example::

        RaceSetup(track="usa", cars=4, seed=7, laps=1)
    """

    track: str = "usa"
    cars: int = 2
    seed: int = 0
    laps: int | None = None
    grid: tuple[int, ...] | None = None
    names: tuple[str, ...] = ()
    stacked: dict[int, StackedDeck] = field(default_factory=dict)
    hand_size: int = HAND_SIZE
    #: rules modules and their options, e.g. ``{"weather": {"weather": "rain"}}`` (see
    #: :mod:`pitboard.engine.modules`); empty for the base game
    modules: dict[str, dict[str, Any]] = field(default_factory=dict)

    def validate(self) -> None:
        """Raise ValueError with a one-line reason when the setup cannot be raced."""
        if not 1 <= self.cars <= MAX_CARS:
            raise ValueError(f"cars must be 1..{MAX_CARS}, not {self.cars}")
        if self.laps is not None and not 1 <= self.laps <= 9:
            raise ValueError(f"laps must be 1..9, not {self.laps}")
        if self.grid is not None and sorted(self.grid) != list(range(self.cars)):
            raise ValueError(f"grid must list each car 0..{self.cars - 1} once, not {self.grid}")
        if self.names and len(self.names) != self.cars:
            raise ValueError(f"{len(self.names)} names given for {self.cars} cars")
        places = set()
        for car, deck in self.stacked.items():
            if not 0 <= car < self.cars:
                raise ValueError(f"stacked deck for car {car}, but cars are 0..{self.cars - 1}")
            if deck.gear is not None and not 1 <= deck.gear <= 4:
                raise ValueError(f"car {car}: gear must be 1..4, not {deck.gear}")
            if deck.engine is not None and deck.engine < 0:
                raise ValueError(f"car {car}: engine Heat cannot be negative")
            if (deck.d is None) != (deck.spot is None):
                raise ValueError(f"car {car}: a start place needs both d and spot")
            if deck.spot is not None:
                if deck.spot not in (1, 2):
                    raise ValueError(f"car {car}: spot must be 1 or 2, not {deck.spot}")
                if (deck.d, deck.spot) in places:
                    raise ValueError(f"car {car}: another car already starts on that spot")
                places.add((deck.d, deck.spot))
        check_modules(self)

    def name(self, car: int) -> str:
        return self.names[car] if self.names else f"Car {car + 1}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"track": self.track, "cars": self.cars, "seed": self.seed}
        if self.laps is not None:
            out["laps"] = self.laps
        if self.grid is not None:
            out["grid"] = list(self.grid)
        if self.names:
            out["names"] = list(self.names)
        if self.stacked:
            out["stacked"] = {str(k): v.to_dict() for k, v in sorted(self.stacked.items())}
        if self.hand_size != HAND_SIZE:
            out["hand_size"] = self.hand_size
        if self.modules:
            out["modules"] = {k: dict(v) for k, v in self.modules.items()}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RaceSetup:
        grid = data.get("grid")
        return cls(
            track=data["track"], cars=data["cars"], seed=data["seed"], laps=data.get("laps"),
            grid=None if grid is None else tuple(grid), names=tuple(data.get("names", ())),
            stacked={int(k): StackedDeck.from_dict(v) for k, v in data.get("stacked", {}).items()},
            hand_size=data.get("hand_size", HAND_SIZE),
            modules=_modules_from(data.get("modules", {})),
        )


def _modules_from(raw: Any) -> dict[str, Any]:
    """``modules`` from JSON: options that are not a table are kept as they are, so
    :func:`check_modules` names the module in its one-line error."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"modules must be a table of module -> options, not {raw!r}")
    return {str(k): dict(v) if isinstance(v, Mapping) else v for k, v in raw.items()}
