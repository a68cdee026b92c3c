"""Pulling the plug mid-race: the device (forked child) is SIGKILLed inside journal writes again
and again, restarted each time, and must finish the very race an uninterrupted run finishes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from powercut import race_with_power_cuts

SEEDS = (3, 8)


@pytest.mark.parametrize("seed", SEEDS)  # one test per seed: the workers share them
def test_power_cuts_do_not_change_the_race(tmp_path: Path, seed: int) -> None:
    straight = race_with_power_cuts(tmp_path / "straight", seed=seed)
    assert straight.kills == 0
    cut = race_with_power_cuts(tmp_path / "cut", seed=seed, kill_rng=random.Random(seed),
                               max_gap=4)
    assert cut.final == straight.final
    assert cut.final["hall_of_fame"] and len(cut.final["hall_of_fame"]) == 6
    assert cut.kills >= 25, f"only {cut.kills} kill points"


def test_power_cuts_do_not_change_a_championship_season(tmp_path: Path) -> None:
    """A whole season (one journal): cut every 1..40 writes, between races and inside them."""
    straight = race_with_power_cuts(tmp_path / "straight", seed=5, cars=3,
                                    championship="1961")
    cut = race_with_power_cuts(tmp_path / "cut", seed=5, cars=3, championship="1961",
                               kill_rng=random.Random(5), max_gap=40)
    assert cut.final == straight.final
    assert len(cut.final["season"]["logs"]) == 3 and cut.final["hall_of_fame"]
    assert cut.kills >= 10, f"only {cut.kills} kill points"
