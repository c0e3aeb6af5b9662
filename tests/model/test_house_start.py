"""House Rummy answers under a time limit: the greedy start, the gain ceiling, the command's deadline.

- The greedy turn (house_greedy), completed by the model, is a legal turn:
  the checker accepts it.
- Whatever stops the search, the answer is at least as good as that turn.
- ``gain_ceiling`` never falls below the best gain (oracle and benchmark
  positions), so a "feasible" answer's bound means something.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.judged import judged
from tests.support.oracle import brute_force_gain
from tests.support.random_positions import random_house
from rummy.answer import best
from rummy.model.house import _branch_model, greedy_house, solve_house
from rummy.model.house.context import build_context
from rummy.model.house.objective import gain_ceiling
from rummy.model.house.replacement import replacement_options
from rummy.position import Position
from rummy.solution import SolverConfig

from rummy.cli.deadline import LEAST_SEARCH_SECONDS, Deadline, process_age
from tests.support.paths import REPO_ROOT

BENCHMARK = sorted((REPO_ROOT / "benchmarks" / "positions" / "house").glob("*.toml"))
AMPLE = SolverConfig(time_limit=60, workers=1)


def ceiling(position: Position) -> float:
    ctx = build_context(position)
    m = _branch_model(ctx, replacement_options(ctx), ())
    return float(gain_ceiling(m)) if m is not None else float("inf")


@pytest.mark.parametrize("path", [p for p in BENCHMARK if p.stem < "house-40"], ids=lambda p: p.stem)
def test_the_greedy_turn_is_legal_and_no_better_than_the_best(path: Path) -> None:
    position = Position.from_file(path)
    greedy = judged(position, greedy_house(position, AMPLE))
    optimal = judged(position, solve_house(position, AMPLE))
    assert optimal.status == "optimal"
    if greedy.status == "feasible":
        assert greedy.gain <= optimal.gain
    assert optimal.gain <= ceiling(position)


@pytest.mark.parametrize("seed", range(40))
def test_the_ceiling_is_never_below_the_oracles_best(seed: int) -> None:
    position = random_house(seed)
    best_gain = brute_force_gain(position)
    if best_gain is None:
        return
    assert best_gain <= ceiling(position)


@pytest.mark.parametrize("seed", range(40))
def test_the_greedy_turn_on_small_positions_is_judged_legal(seed: int) -> None:
    position = random_house(seed, max_table_plays=4, hand_size=(4, 8))
    greedy = judged(position, greedy_house(position, AMPLE))
    assert greedy.status in ("feasible", "unknown")
    if greedy.status == "feasible":
        assert greedy.gain <= greedy.bound


@pytest.mark.parametrize("path", [p for p in BENCHMARK if p.stem >= "house-40"], ids=lambda p: p.stem)
def test_a_time_limited_answer_is_at_least_the_greedy_turn(path: Path) -> None:
    position = Position.from_file(path)
    greedy = greedy_house(position, AMPLE)
    answer = best(position, SolverConfig(time_limit=0.2, workers=2)).solution
    judged(position, answer)
    assert answer.status in ("optimal", "feasible")
    if greedy.status == "feasible":
        assert answer.gain >= greedy.gain
    assert answer.gain <= answer.bound <= max(ceiling(position), answer.gain)


def test_the_deadline_counts_the_process_start_and_then_each_answer() -> None:
    assert process_age() > 0  # pytest itself has been running a while
    deadline = Deadline(1000.0)
    first = deadline.search_seconds()
    assert first < 1000.0 - process_age() + 0.5
    deadline.next_answer()
    assert first < deadline.search_seconds() <= 1000.0
    assert Deadline(0.0).search_seconds() == LEAST_SEARCH_SECONDS
