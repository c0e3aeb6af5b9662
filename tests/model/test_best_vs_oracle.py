"""The CP-SAT models against the brute-force oracle (checker + exhaustive search) on small random positions."""

from __future__ import annotations

import pytest

from rummy.answer import best
from rummy.checker import check
from rummy.solution import SolverConfig
from tests.support.oracle import brute_force_gain
from tests.support.random_positions import random_house, random_tiles

SEEDS = range(20)


@pytest.mark.parametrize("make", [random_house, random_tiles], ids=["house", "tile"])
@pytest.mark.parametrize("seed", SEEDS)
def test_model_gain_equals_the_oracle(make, seed: int) -> None:
    position = make(seed)
    expected = brute_force_gain(position)
    solution = best(position, SolverConfig(time_limit=30)).solution
    if expected is None:
        assert solution.status == "no-legal-turn"
        return
    assert solution.status in ("optimal", "draw")
    assert float(solution.gain) == pytest.approx(float(expected), abs=1e-6)
    if solution.after is not None:
        verdict = check(position, solution.after)
        assert verdict.legal, verdict.breaches
