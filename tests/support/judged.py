"""Solver answers re-judged by the checker: every test that asks for a best turn goes through here.

The checker never calls the solver; these helpers fail the test at once if
an answer's ``after`` is a turn the checker refuses.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from rummy.answer import Answer, best, gain_breakdown, verify_answer
from rummy.checker import check
from rummy.ladder import climb, ladder_of
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


def rejudged(before_path: Path, answer: dict[str, Any]) -> dict[str, Any]:
    """The checker's verdict on an API best answer, read back as ``rummy check`` reads a ``best --json``."""
    from rummy.reports.check import answer_from_text, turn_report
    from rummy.vocabulary import Phase

    before = Position.from_file(before_path)
    turn = answer_from_text(json.dumps(answer), "after", "json", before)
    if before.phase == Phase.PLAY and turn.after is not None:
        verdict = check(before, turn.after)
        assert verdict.legal, verdict.breaches
    data: dict[str, Any] = turn_report(before, turn, "rejudged", False, 10.0).data
    return data


def assert_graded_by_the_ladder(position: Position, tier: str, optimum: float) -> None:
    """The tier is the weakest rung's that reaches the optimum: every rung below falls short, and every
    rung's turn is legal and no better than the optimum."""
    from rummy.generator import TIERS

    found = climb(position, None)
    rungs = ladder_of(position)
    for rung, step in zip(rungs, found):
        assert step.after is None or check(position, step.after).legal
        assert step.refused == 0, (rung.name, step.refused)  # every proposal judged was a legal turn
        assert step.gain is None or step.gain <= optimum
        reaches = step.gain is not None and step.gain >= optimum
        if TIERS.index(rung.tier) < TIERS.index(tier):
            assert not reaches, (rung.name, tier)
    # a tier may have several rungs (lay-off rummy: two medium ones): the tier's last rung reaches it
    same = [step for rung, step in zip(rungs, found) if rung.tier == tier]
    if same:
        assert same[-1].gain is not None and same[-1].gain >= optimum, (tier, [s.rung for s in same])
    if tier == "expert":
        assert all(step.gain is None or step.gain < optimum for step in found)
