"""Desktop simulations opened by tests, closed after each test by conftest.py."""

from __future__ import annotations

from typing import Any

from pitboard.sim import Sim

_OPEN: list[Sim] = []


def open_sim(*args: Any, **kwargs: Any) -> Sim:
    """A :class:`Sim` that is closed (app, journal, temporary folder) when the test ends."""
    sim = Sim(*args, **kwargs)
    _OPEN.append(sim)
    return sim


def close_sims() -> None:
    while _OPEN:
        _OPEN.pop().close()
