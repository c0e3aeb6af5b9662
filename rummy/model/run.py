"""One CP-SAT run, made the same way by every family's model.

``run`` sets the run's time limit (never under the family's least), its
workers and seed, the family's parameters (``Tuning``) and, where asked, a
new hint; it counts the run's effort into the answer's ``Clock`` and reads
the answer back as a ``RunResult``: our status name, the objective, CP-SAT's
best bound and every variable's value.

The workers schedule is shared too: one worker for the first
``ONE_WORKER_SECONDS``, or for the family's longer ``alone`` time (House:
half the time left, since the joining run restarts the search)
(``one_worker_seconds``), then every worker for what is left
(``all_workers_join``).

A run may be watched (``on_solution``): CP-SAT tells each better solution
as it finds it, with only its objective and bound read; the values are read
only where the watcher asks for them (``Found.values``), so a watcher that
compares objectives alone costs almost nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..vocabulary import SearchStatus
from .clock import Clock
from .cpsat import cp_model

# Models this small are proven fastest by one worker; the other workers join
# only when one worker has not finished within this long (measured on
# benchmarks/positions: House median 147 ms against 274 ms with two from the
# start; tile rummy uses it as it is, House as its least one-worker time).
ONE_WORKER_SECONDS = 2.0

# Any other CP-SAT status (UNKNOWN, MODEL_INVALID) is "unknown": no answer, no proof.
_STATUS_NAMES = {cp_model.OPTIMAL: SearchStatus.OPTIMAL, cp_model.FEASIBLE: SearchStatus.FEASIBLE,
                 cp_model.INFEASIBLE: SearchStatus.INFEASIBLE}


@dataclass(frozen=True)
class Tuning:
    """How one family runs CP-SAT: the least time limit of a run, and the parameters measured best on its models."""

    least_seconds: float
    parameters: Mapping[str, bool | int | float] = field(default_factory=dict)


@dataclass(frozen=True)
class RunResult:
    status: SearchStatus
    objective: float  # of the solution found (0 without one)
    bound: float  # CP-SAT's best objective bound: no solution is better
    solution: tuple[int, ...] | None  # every variable's value by its index; None where none was found
    branches: int
    wall_time: float

    @property
    def found(self) -> bool:
        return self.solution is not None

    @property
    def proven(self) -> bool:
        """The answer is final: the optimum, or proof that there is no solution."""
        return self.status in (SearchStatus.OPTIMAL, SearchStatus.INFEASIBLE)

    def value(self, variable: cp_model.IntVar) -> int:
        """The variable's value in the solution found (a run that found none has no values)."""
        solution = self.solution
        assert solution is not None, "no solution was found"
        return solution[variable.index]

    def as_hint(self) -> dict[int, int]:
        """The solution found, as the next run's hint (every variable)."""
        assert self.solution is not None, "no solution was found"
        return dict(enumerate(self.solution))


@dataclass(frozen=True)
class Found:
    """A better solution told during a run (``run``'s ``on_solution``): read its values only if they are wanted."""

    objective: float
    bound: float  # CP-SAT's best objective bound when it was found
    values: Callable[[], tuple[int, ...]]  # every variable's value by its index (valid during the call only)


class _Watcher(cp_model.CpSolverSolutionCallback):
    """Passes each solution's objective and bound on; the values stay in CP-SAT unless asked for."""

    def __init__(self, tell: Callable[[Found], None]) -> None:
        super().__init__()
        self.tell = tell

    def on_solution_callback(self) -> None:
        self.tell(Found(self.objective_value, self.best_objective_bound,
                        lambda: tuple(self.response_proto.solution)))


def run(model: cp_model.CpModel, seconds: float, tuning: Tuning, *, workers: int = 1, seed: int | None = None,
        hint: Mapping[int, int] | None = None, clock: Clock | None = None,
        on_solution: Callable[[Found], None] | None = None) -> RunResult:
    """Solve ``model`` for at most ``seconds`` (at least ``tuning.least_seconds``).

    ``seed`` None keeps CP-SAT's own; ``hint`` (values by variable index)
    replaces the model's hint, None keeps it. The run's branches and wall
    time are counted into ``clock``. ``on_solution`` hears each better
    solution while the run goes on (from CP-SAT's thread: it must be quick).
    """
    solver = cp_model.CpSolver()
    settings = solver.parameters
    settings.max_time_in_seconds = max(seconds, tuning.least_seconds)
    settings.num_workers = workers
    # Ctrl-C is Python's: CP-SAT's own handler would end a one-thread search at once (exit -2, nothing
    # said) or swallow the signal in a multi-thread one; the command's handler stops the run cleanly.
    settings.catch_sigint_signal = False
    if seed is not None:
        settings.random_seed = seed
    for name, value in tuning.parameters.items():
        setattr(settings, name, value)
    if hint is not None:
        model.clear_hints()
        # Written into the proto at once: the same hint as ``add_hint`` per variable, without an IntVar for each.
        model.proto.solution_hint.vars.extend(hint.keys())
        model.proto.solution_hint.values.extend(hint.values())
    watcher = _Watcher(on_solution) if on_solution is not None else None
    status = _STATUS_NAMES.get(solver.solve(model, watcher), SearchStatus.UNKNOWN)
    found = status in (SearchStatus.OPTIMAL, SearchStatus.FEASIBLE)
    result = RunResult(
        status=status,
        objective=solver.objective_value if found else 0.0,
        bound=solver.best_objective_bound,
        solution=tuple(solver.response_proto.solution) if found else None,
        branches=solver.num_branches,
        wall_time=solver.wall_time,
    )
    if clock is not None:
        clock.count(result.branches, result.wall_time)
    return result


def one_worker_seconds(clock: Clock, workers: int, given: float = 0.0, alone: float = ONE_WORKER_SECONDS) -> float:
    """How long the next one-worker run may take.

    All the time left where only one worker may work; else what is left of
    ``alone`` (the family's one-worker time) after the ``given`` seconds of
    earlier one-worker runs.
    """
    if workers <= 1:
        return clock.left()
    return min(clock.left(), alone - given)


def all_workers_join(clock: Clock, workers: int, least: float) -> bool:
    """Whether a run with every worker follows an unfinished one.

    Only where more than one worker may work and more than ``least`` seconds are left.
    """
    return workers > 1 and clock.left() > least
