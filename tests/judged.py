"""Solver answers re-judged by the checker: every test that asks for a best turn goes through here.

The checker never calls the solver; these helpers fail the test at once if
an answer's ``after`` is a turn the checker refuses.
"""

from __future__ import annotations

from fractions import Fraction

from rummy.answer import Answer, best, gain_breakdown, verify_answer
from rummy.position import Position
from rummy.solution import Solution, SolverConfig
from rummy.vocabulary import Objective


def judged(position: Position, solution: Solution, objective: Objective = Objective.DEFAULT) -> Solution:
    """``solution``, after the checker has accepted its turn, or its draw alone where a random
    draw's answer has no turn yet (``rummy.answer.verify_answer``, as ``best --verify`` judges)."""
    verdict = verify_answer(Answer(position, solution, None))
    assert verdict is None or verdict.legal, f"the checker refuses the solver's answer: {verdict.breaches}"
    lines = gain_breakdown(Answer(position, solution, None, objective))
    if lines is not None:
        assert sum(Fraction(points) for _, points in lines) == Fraction(solution.gain).limit_denominator(10**6), lines
    return solution


def judged_best(position: Position, config: SolverConfig) -> Answer:
    answer = best(position, config)
    judged(position, answer.solution, config.objective)
    return answer
