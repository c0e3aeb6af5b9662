"""The large-neighbourhood search over a House turn (rummy.model.house.neighbourhood): never worse than its start,
every answer a full solution of the model whose turn the checker accepts with the model's gain, bounded work,
and better turns found where the start is poor."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from time import perf_counter
from typing import Any

import pytest

from rummy.model.clock import Clock
from rummy.model.house import HOUSE_TUNING, _branch_model, _greedy_start
from rummy.model.house import neighbourhood as lns
from rummy.model.house.answer import after_position, cards_played, read_plan
from rummy.model.house.context import build_context
from rummy.model.house.objective import gain_terms, maximize_turn
from rummy.model.house.replacement import replacement_options
from rummy.model.house.state import HouseModel
from rummy.model.run import RunResult, run
from rummy.position import Position
from rummy.solution import Solution, SolverConfig
from rummy.vocabulary import SearchStatus, Status
from tests.support.judged import judged
from tests.support.paths import REPO_ROOT

POSITIONS = REPO_ROOT / "benchmarks" / "positions"
CONFIG = SolverConfig(time_limit=60, workers=1, seed=0)
# Melded and unmelded movers (the meld branch's roles and swaps), Classic and Epic (a fractional bonus), small and
# large tables.
CASES = ["house/house-20-01.toml", "house/house-40-01.toml", "house-real/real-3p-02.toml",
         "house-real/unmelded-10-11-02.toml", "house-selfplay/classic-play-01.toml", "house-selfplay/epic-play-03.toml"]
# Positions whose greedy start is far below the optimum (benchmarks/house_neighbourhood.py: 61 against 191,
# 53 against 142), where the first better turn lies in a neighbourhood solved in a few tens of ms.
POOR_STARTS = ["house/house-40-01.toml", "house-real/real-3p-02.toml"]


def model_and_start(name: str) -> tuple[Position, HouseModel, RunResult]:
    position = Position.from_toml((POSITIONS / name).read_text(encoding="utf-8"))
    ctx = build_context(position)
    m = _branch_model(ctx, replacement_options(ctx), ())
    assert m is not None
    maximize_turn(m)
    start = _greedy_start(m, CONFIG, Clock.from_now(60))
    assert start is not None and start.found
    return position, m, start


def gain_of(m: HouseModel, result: RunResult) -> Fraction:
    terms, constant = gain_terms(m)
    return Fraction(round(sum(result.value(v) * c for v, c in terms) + constant), m.ctx.scale)


def assert_full_solution(position: Position, m: HouseModel, result: RunResult) -> None:
    """Every variable has a value, the values satisfy the whole model, and the turn read from them is legal."""
    assert result.solution is not None and len(result.solution) == len(m.model.proto.variables)
    fixed = m.model.clone()
    for index, value in enumerate(result.solution):
        fixed.add(fixed.get_int_var_from_proto_index(index) == value)
    check = run(fixed, 10, HOUSE_TUNING)
    assert check.status == SearchStatus.OPTIMAL and round(check.objective) == round(result.objective)
    gain = gain_of(m, result)
    plan = read_plan(m, result.value, gain)
    judged(position, Solution(Status.FEASIBLE, float(gain), float(gain), after_position(m.ctx, plan),
                              cards_played(m.ctx, plan)))


def counting_runs(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every CP-SAT run the search makes: the seconds it asked for and when."""
    calls: list[dict[str, Any]] = []
    real: Callable[..., RunResult] = run  # what the search calls (rummy.model.run.run)

    def counted(model: Any, seconds: float, tuning: Any, **options: Any) -> RunResult:
        calls.append({"seconds": seconds, "asked_at": perf_counter()})
        return real(model, seconds, tuning, **options)

    monkeypatch.setattr(lns, "run", counted)
    return calls


@pytest.mark.parametrize("name", [c for c in CASES if (POSITIONS / c).is_file()])
def test_never_worse_and_every_turn_told_is_a_full_legal_solution(name: str) -> None:
    position, m, start = model_and_start(name)
    told: list[tuple[RunResult, str]] = []
    found = lns.improve(m, start, 1.0, CONFIG, Clock.from_now(60), lambda result, source: told.append((result, source)))
    assert found.objective >= start.objective
    objectives = [start.objective] + [result.objective for result, _ in told]
    assert objectives == sorted(set(objectives)), "each told solution beats the one before"
    assert all(source == "neighbourhood" for _, source in told)
    assert found.objective == objectives[-1]
    for result in [found] + [result for result, _ in told[:-1]]:
        assert_full_solution(position, m, result)


@pytest.mark.parametrize("name", [c for c in POOR_STARTS if (POSITIONS / c).is_file()])
def test_a_poor_start_is_improved(name: str) -> None:
    position, m, start = model_and_start(name)
    # Ample time: the search ends by itself once no neighbourhood holds a better turn.
    found = lns.improve(m, start, 20.0, CONFIG, Clock.from_now(60))
    assert gain_of(m, found) > gain_of(m, start)
    assert_full_solution(position, m, found)


def test_no_time_means_no_run_and_the_start_back(monkeypatch: pytest.MonkeyPatch) -> None:
    _, m, start = model_and_start(CASES[0])
    calls = counting_runs(monkeypatch)
    assert lns.improve(m, start, 0.0, CONFIG, Clock.from_now(60)) is start
    assert lns.improve(m, start, 5.0, CONFIG, Clock.from_now(0.0)) is start  # the answer's clock has run out
    assert calls == []


def test_a_start_without_a_solution_is_given_back(monkeypatch: pytest.MonkeyPatch) -> None:
    _, m, _ = model_and_start(CASES[0])
    calls = counting_runs(monkeypatch)
    nothing = RunResult(SearchStatus.UNKNOWN, 0.0, 0.0, None, 0, 0.0)
    assert lns.improve(m, nothing, 5.0, CONFIG, Clock.from_now(60)) is nothing
    assert calls == []


def test_every_run_fits_in_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    _, m, start = model_and_start("house/house-40-01.toml")
    calls = counting_runs(monkeypatch)
    seconds = 0.3
    began = perf_counter()
    lns.improve(m, start, seconds, CONFIG, Clock.from_now(60))
    assert calls, "there was time for a neighbourhood"
    for call in calls:
        # (1 ms: from the search reading the time left to the run being called)
        assert call["seconds"] <= began + seconds - call["asked_at"] + 0.001, "no run asks for more than is left"
        assert lns.LEAST_SECONDS < call["seconds"] <= lns.NEIGHBOURHOOD_SECONDS * 2 ** (lns.MOST_TRIES - 1)


def test_from_the_optimum_the_search_ends_by_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded work: every listed neighbourhood settled (or tried MOST_TRIES times), then a few random ones."""
    position, m, _ = model_and_start(CASES[0])
    optimum = run(m.model.clone(), 30, HOUSE_TUNING)
    assert optimum.status == SearchStatus.OPTIMAL
    calls = counting_runs(monkeypatch)
    found = lns.improve(m, optimum, 60.0, CONFIG, Clock.from_now(60))
    assert found is optimum
    listed = lns.listed_neighbourhoods(m, optimum)
    assert len(calls) <= lns.MOST_TRIES * len(listed) + lns.RANDOM_TRIES
    assert_full_solution(position, m, found)


@pytest.mark.parametrize("name", [c for c in CASES if (POSITIONS / c).is_file()])
def test_every_decision_fixed_and_freed_is_a_boolean(name: str) -> None:
    """The search writes a freed decision's domain back as (0, 1) without reading it: that holds for every one."""
    _, m, start = model_and_start(name)
    fixing = lns._Fixing(m)
    variables = m.model.proto.variables
    assert fixing.decisions and all(list(variables[i].domain) == [0, 1] for i in fixing.decisions)
    assert start.solution is not None
    every = frozenset(range(len(m.ctx.slots)))
    assert fixing.free_of(every, start.solution) == set(fixing.decisions), "every card free frees every decision"
