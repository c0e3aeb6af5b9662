"""The best turn for a position: dispatch to the family's model, then plan it."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

from .errors import RummyError
from .plan import Plan, make_plan
from .position import Position
from .solution import Solution, SolverConfig

@dataclass(frozen=True)
class Answer:
    """A solved position: the solution and the plan that carries it out."""

    position: Position
    solution: Solution
    plan: Plan | None


def solver_for(position: Position, config: SolverConfig) -> Callable[[Position, SolverConfig], Solution]:
    """The family's model (imported here, so that timing a solve leaves the import out)."""
    family = position.rules.family
    if config.objective not in family.objectives:
        allowed = ", ".join(o for o in family.objectives if o != "default")
        raise RummyError(f"--objective {config.objective!r} does not apply to {position.rules.name} "
                         f"({'choose ' + allowed if allowed else 'it has one objective'})")
    if position.phase != "play" and not family.answers_draw_phase:
        raise RummyError(f"phase {position.phase!r}: 'best' answers play-phase positions of {position.rules.name}")
    return family.solver_function()


def solve(position: Position, config: SolverConfig) -> Solution:
    return solver_for(position, config)(position, config)


def best(position: Position, config: SolverConfig | None = None) -> Answer:
    """Solve and plan; ``seconds`` is model building and solving, not imports."""
    config = config or SolverConfig()
    model = solver_for(position, config)
    started = time.perf_counter()
    solution = model(position, config)
    solution = replace(solution, seconds=time.perf_counter() - started)
    plan_from = position
    if position.phase == "draw" and solution.after is not None and solution.after.phase == "play":
        from .checker.robber import apply_draw

        plan_from = apply_draw(position, solution.after)[0]
    plan = make_plan(plan_from, solution.after) if solution.after is not None else None
    return Answer(position, solution, plan)


def answer_data(answer: Answer) -> dict:
    """The ``best --json`` object of formats.md."""
    from .rules import ruleset_to_spec

    solution = answer.solution
    rules = answer.position.rules
    data = {
        "rules": rules.name if isinstance(ruleset_to_spec(rules), str) else ruleset_to_spec(rules),
        "status": solution.status,
        "gain": _number(solution.gain),
        "bound": _number(solution.bound),
        "cards_played": solution.cards_played,
        "steps": _draw_steps(solution) + (answer.plan.to_data(rules.deck) if answer.plan else []),
        "after": solution.after.to_data() if solution.after is not None else None,
        "seconds": round(solution.seconds, 4),
    }
    if solution.reason:
        data["reason"] = solution.reason
    if answer.plan is not None:
        data["plays_disturbed"] = answer.plan.plays_disturbed
        data["cards_moved"] = answer.plan.cards_moved
    chosen = solution.stats.get("draw_option")
    if chosen is not None:
        data["draw"] = dict(chosen)
        data["options"] = [{k: _number(v) for k, v in option.items()} for option in solution.stats.get("options", ())]
    if solution.stats:
        data["stats"] = {k: _number(v) for k, v in solution.stats.items() if k not in DRAW_KEYS}
    return data


# Structured draw-phase figures of ``Solution.stats``: printed as ``draw`` and ``options``, not under ``stats``.
DRAW_KEYS = ("draw_option", "options")


def _draw_steps(solution: Solution) -> list[dict]:
    """The draw phase: the draw chosen comes first (formats.md); a random draw's answer is this step alone."""
    draw = solution.stats.get("draw")
    if draw is None:
        return []
    step = {"action": "draw", **solution.stats.get("draw_option", {"from": draw})}
    if draw == "stock":
        step["expected_gain"] = _number(solution.stats.get("stock_expected_gain"))
    return [step]


def verify_answer(answer: Answer):
    """The checker's verdict on an answer (``best --verify``), or None when it has no turn to judge.

    A turn (``after``) is judged from the position it starts from; in the draw
    phase the checker applies the draw first. A random draw's answer (``after``
    None) is judged by its draw alone (``rummy.checker.robber.judge_draw_alone``).
    """
    from .checker import check

    solution = answer.solution
    if solution.status not in ("optimal", "feasible"):
        return None
    if solution.after is not None:
        return check(answer.position, solution.after)
    chosen = solution.stats.get("draw_option")
    if answer.position.phase == "draw" and chosen is not None:
        from .checker.robber import judge_draw_alone

        return judge_draw_alone(answer.position, chosen)
    return None


def _number(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, float):
        return round(value, 4)
    return value
