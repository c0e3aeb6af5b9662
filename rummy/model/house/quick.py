"""A quick turn and a proven ceiling for a House position, without a search (draw advice's floors, issue 28).

``quick_house`` answers what ``solve_house`` is sure to reach or beat,
in the time it takes to build the model (tens of milliseconds): the best
turn without a meld (listed outright) for an unmelded mover, and the
greedy turn (house/greedy) completed by the model. Its bound is proven
all the same: the meld model's gain ceiling (house/objective), or the
no-meld turn's gain where no meld reaches the cost. Status "feasible"
(or "optimal" where no model is needed: no meld reaches the cost),
"unknown" where neither finds a turn (a hot card the greedy cannot play).
"""

from __future__ import annotations

from fractions import Fraction
from time import perf_counter

from ...position import Position
from ...solution import Solution, SolverConfig
from ...vocabulary import SearchStatus
from ..clock import Clock
from . import BranchResult, _branch_model, _greedy_start, _no_meld_branch, _solution
from .answer import read_plan
from .context import build_context
from .objective import gain_ceiling, gain_terms
from .replacement import replacement_options


def quick_house(position: Position, config: SolverConfig) -> Solution:
    started = perf_counter()
    ctx = build_context(position)
    clock = Clock(started + config.time_limit)
    options = replacement_options(ctx)
    excluded = config.exclude
    results: list[BranchResult] = []
    if not ctx.melded:
        results.append(_no_meld_branch(ctx, options, excluded))
    m = _branch_model(ctx, options, excluded)
    if m is not None:
        ceiling = gain_ceiling(m)
        start = _greedy_start(m, config, clock) if config.hint else None
        if start is None:
            results.append(BranchResult(None, SearchStatus.UNKNOWN, ceiling))
            if ctx.melded:
                # As solve_house falls back: the table as it is and a discard (unless a card is hot).
                fallback = _no_meld_branch(ctx, {}, excluded)
                if fallback.plan is not None:
                    results[-1] = BranchResult(fallback.plan, SearchStatus.FEASIBLE, max(ceiling, fallback.plan.gain))
        else:
            terms, constant = gain_terms(m)
            gain = Fraction(round(sum(start.value(v) * c for v, c in terms) + constant), ctx.scale)
            results.append(BranchResult(read_plan(m, start.value, gain), SearchStatus.FEASIBLE, max(gain, ceiling)))
    return _solution(ctx, results, started, clock)
