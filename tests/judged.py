"""Solver answers re-judged by the checker: every test that asks for a best turn goes through here.

The checker never calls the solver; these helpers fail the test at once if
an answer's ``after`` is a turn the checker refuses.
"""

from __future__ import annotations

from rummy.answer import Answer, best
from rummy.checker import check
from rummy.position import Position
from rummy.solution import Solution, SolverConfig


def judged(position: Position, solution: Solution) -> Solution:
    """``solution``, after the checker has accepted its turn (an answer with no turn is left as it is)."""
    if solution.after is not None and solution.status in ("optimal", "feasible"):
        verdict = check(position, solution.after)
        assert verdict.legal, f"the checker refuses the solver's answer: {verdict.breaches}"
    return solution


def judged_best(position: Position, config: SolverConfig) -> Answer:
    answer = best(position, config)
    judged(position, answer.solution)
    return answer
