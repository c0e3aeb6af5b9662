"""The one CP-SAT run helper (rummy.model.run) on tiny models: status names, time limit, hint, bound, schedule."""

from __future__ import annotations

from time import perf_counter
from typing import ClassVar

import pytest

from rummy.model.clock import Clock
from rummy.model.cpsat import cp_model
from rummy.model.run import ONE_WORKER_SECONDS, Found, Tuning, all_workers_join, one_worker_seconds, run

PLAIN = Tuning(least_seconds=0.05)
# Stops at the first solution found (the hint, where it is complete): a run that is not proven.
FIRST_SOLUTION = Tuning(least_seconds=0.05, parameters={"stop_after_first_solution": True, "cp_model_presolve": False})


def at_most_seven() -> tuple[cp_model.CpModel, cp_model.IntVar]:
    """Maximise x in 0..10 with x <= 7: the optimum and the bound are 7."""
    model = cp_model.CpModel()
    x = model.new_int_var(0, 10, "x")
    model.add(x <= 7)
    model.maximize(x)
    return model, x


def test_an_optimum_is_named_optimal_with_its_value_and_bound() -> None:
    model, x = at_most_seven()
    result = run(model, 10, PLAIN)
    assert (result.status, result.found, result.proven) == ("optimal", True, True)
    assert result.objective == 7 and result.bound == 7
    assert result.value(x) == 7 and result.solution == (7,)


def test_no_solution_is_named_infeasible() -> None:
    model, x = at_most_seven()
    model.add(x >= 8)
    result = run(model, 10, PLAIN)
    assert (result.status, result.found, result.proven) == ("infeasible", False, True)
    assert result.solution is None and result.objective == 0


def test_a_run_stopped_before_the_proof_is_feasible_and_keeps_the_bound_above_its_objective() -> None:
    model, x = at_most_seven()
    result = run(model, 10, FIRST_SOLUTION, hint={x.index: 2})
    assert (result.status, result.found, result.proven) == ("feasible", True, False)
    assert result.value(x) == 2  # the hint is the first solution: it reached the solver
    assert result.objective == 2 and result.bound == 7


def test_any_other_status_is_unknown() -> None:
    model, _ = at_most_seven()
    model.proto.variables[0].domain[0] = 5  # the domain 5..3: CP-SAT answers MODEL_INVALID
    model.proto.variables[0].domain[1] = 3
    result = run(model, 10, PLAIN)
    assert (result.status, result.found, result.proven) == ("unknown", False, False)


def test_a_hint_replaces_the_models_hint_and_none_keeps_it() -> None:
    model, x = at_most_seven()
    y = model.new_bool_var("y")
    model.add_hint(y, 1)
    run(model, 10, PLAIN)
    assert (list(model.proto.solution_hint.vars), list(model.proto.solution_hint.values)) == ([y.index], [1])
    run(model, 10, PLAIN, hint={x.index: 3})
    assert (list(model.proto.solution_hint.vars), list(model.proto.solution_hint.values)) == ([x.index], [3])


def test_a_found_solution_hints_the_next_run_in_full() -> None:
    model, x = at_most_seven()
    y = model.new_bool_var("y")
    first = run(model, 10, PLAIN)
    assert first.as_hint() == {x.index: 7, y.index: first.value(y)}
    again = run(model, 10, FIRST_SOLUTION, hint=first.as_hint())
    assert again.value(x) == 7


def several_improvements() -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """Maximise 3a + 2b + c over booleans with a + b + c <= 2, from the hint (c): the search improves on it."""
    model = cp_model.CpModel()
    a, b, c = (model.new_bool_var(name) for name in "abc")
    model.add(a + b + c <= 2)
    model.maximize(3 * a + 2 * b + c)
    return model, [a, b, c]


def test_each_better_solution_is_told_during_the_run_with_its_values_on_demand() -> None:
    model, (a, b, c) = several_improvements()
    heard: list[tuple[float, float, tuple[int, ...]]] = []

    def listen(found: Found) -> None:
        heard.append((found.objective, found.bound, found.values()))

    result = run(model, 10, Tuning(least_seconds=0.05, parameters={"cp_model_presolve": False}),
                 hint={a.index: 0, b.index: 0, c.index: 1}, on_solution=listen)
    assert heard, "the solutions found were told"
    objectives = [objective for objective, _, _ in heard]
    assert objectives == sorted(set(objectives)), "each told solution is better than the one before"
    assert objectives[-1] == result.objective == 5
    for objective, bound, values in heard:
        assert objective == 3 * values[a.index] + 2 * values[b.index] + values[c.index]
        assert sum(values) <= 2 and bound >= objective


def test_a_watched_run_answers_as_an_unwatched_one() -> None:
    model, _ = several_improvements()
    quiet = run(model, 10, PLAIN)
    watched = run(model, 10, PLAIN, on_solution=lambda found: None)
    assert (quiet.status, quiet.objective) == (watched.status, watched.objective) == ("optimal", 5)


class RecordingSolver(cp_model.CpSolver):
    """A CP-SAT solver that keeps the parameters of its solve."""

    seen: ClassVar[list] = []

    def solve(self, model, *args, **kwargs):
        RecordingSolver.seen.append(self.parameters)
        return super().solve(model, *args, **kwargs)


@pytest.fixture
def recorded(monkeypatch) -> list:
    RecordingSolver.seen = []
    monkeypatch.setattr(cp_model, "CpSolver", RecordingSolver)
    return RecordingSolver.seen


def test_the_time_limit_workers_seed_and_tuning_are_the_solvers_parameters(recorded: list) -> None:
    model, _ = at_most_seven()
    tuning = Tuning(least_seconds=0.05, parameters={"cp_model_presolve": False, "cut_level": 0})
    run(model, 1.5, tuning, workers=3, seed=42)
    parameters = recorded[-1]
    assert parameters.max_time_in_seconds == 1.5
    assert (parameters.num_workers, parameters.random_seed) == (3, 42)
    assert (parameters.cp_model_presolve, parameters.cut_level) == (False, 0)


def test_no_run_gets_less_than_the_least_seconds_and_no_seed_keeps_cp_sats(recorded: list) -> None:
    model, _ = at_most_seven()
    run(model, 0.0, Tuning(least_seconds=0.05))
    parameters = recorded[-1]
    assert parameters.max_time_in_seconds == 0.05
    assert parameters.random_seed == cp_model.CpSolver().parameters.random_seed
    assert parameters.cp_model_presolve  # untouched without tuning


def test_each_run_counts_into_the_clock() -> None:
    model, _ = at_most_seven()
    clock = Clock.from_now(10)
    results = [run(model, 10, PLAIN, clock=clock) for _ in range(2)]
    assert clock.branches == sum(r.branches for r in results)
    assert clock.solver_seconds == pytest.approx(sum(r.wall_time for r in results))


def test_one_worker_first_then_every_worker() -> None:
    clock = Clock(perf_counter() + 100)
    assert one_worker_seconds(clock, 2) == ONE_WORKER_SECONDS
    assert one_worker_seconds(clock, 2, given=0.25) == ONE_WORKER_SECONDS - 0.25
    assert one_worker_seconds(clock, 1) == pytest.approx(100, abs=1)  # alone, one worker has all the time
    assert all_workers_join(clock, 2, least=0.05)
    assert not all_workers_join(clock, 1, least=0.05)


def test_nothing_runs_past_the_deadline() -> None:
    clock = Clock(perf_counter() - 1)
    assert one_worker_seconds(clock, 2) == 0.0
    assert not all_workers_join(clock, 2, least=0.05)
