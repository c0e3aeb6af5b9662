"""Is a puzzle's best answer unique? How many final tables come near it? By how much is it best?

Uniqueness (the issue's rule, with rules.md's objective, the gain): exclude
the best final table and solve again; no other table may reach the best
gain. Before that, the family's ``ambiguity`` says whether excluding the
best table could also exclude a rival (the model could not tell them
apart); such a puzzle is called not unique. Every doubt (a repeat, a time
limit) falls on the side of "not unique": that costs yield, never a puzzle
with two answers.

The search for rivals is the family's (``FamilySupport.rivals``), or else
``rivals_by_best``: solve for the best again and again, each time with every
table found so far excluded. The margin is always measured the second way:
the best answer with the best table excluded, the issue's procedure, which
also checks the rival search.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from time import perf_counter

from ..answer import Answer, best
from ..position import Position
from ..solution import SolverConfig
from ..vocabulary import Status
from .kinds import FamilySupport, RivalSearch

NO_OTHER_TURN = "no other legal turn"


@dataclass(frozen=True)
class Rivals:
    count: int  # distinct final tables found, the excluded best not counted
    complete: bool  # the search proved there are no more
    timed_out: bool
    branches: int


@dataclass(frozen=True)
class Judgement:
    reason: str | None  # None: unique
    margin: float | str | None = None  # best gain minus the second best, or NO_OTHER_TURN
    near: int = 0  # distinct final tables within support.near of the best gain, the best included
    near_capped: bool = False
    proof_branches: int = 0


def judge(position: Position, first: Answer, config: SolverConfig, support: FamilySupport, cap: int) -> Judgement:
    after = first.solution.after
    assert after is not None  # judged: an optimal answer, with its turn
    gain = first.solution.gain
    doubt = support.ambiguity(position, after)
    if doubt:
        return Judgement(f"not unique ({doubt})")
    find = support.rivals or _by_best(config, support)
    same = find(position, after, gain, 1, config.time_limit)
    if same.count:
        return Judgement("not unique")
    if same.timed_out:
        return Judgement("timeout (uniqueness)")
    if not same.complete:
        return Judgement("not unique (same table found again)")
    near = find(position, after, gain - support.near, cap - 1, config.time_limit)
    if near.timed_out:
        return Judgement("timeout (near count)")
    second = best(position, replace(config, exclude=(after,)))
    if second.solution.status == Status.NO_LEGAL_TURN:
        margin: float | str = NO_OTHER_TURN
    elif second.solution.status not in (Status.OPTIMAL, Status.DRAW):
        return Judgement("timeout (margin)")
    else:
        margin = gain - second.solution.gain
        if margin <= 0:  # the rival search missed a table: never keep such a puzzle
            return Judgement("not unique (found by the second solve)")
    return Judgement(None, margin, 1 + near.count, not near.complete, same.branches)


def _by_best(config: SolverConfig, support: FamilySupport) -> RivalSearch:
    def rivals_by_best(position: Position, best_after: Position, floor: float, cap: int, time_limit: float) -> Rivals:
        """Other final tables with gain >= floor: the best answer, again and again, with each table found excluded."""
        deadline = perf_counter() + time_limit
        excluded = [best_after]
        keys = {support.canonical(best_after)}
        branches = 0
        while len(excluded) - 1 < cap:
            remaining = deadline - perf_counter()
            if remaining <= 0:
                return Rivals(len(excluded) - 1, False, True, branches)
            answer = best(position, replace(config, time_limit=remaining, exclude=tuple(excluded)))
            solution = answer.solution
            branches += int(solution.stats.get("branches", 0))
            if solution.status == Status.NO_LEGAL_TURN \
                    or (solution.status in (Status.OPTIMAL, Status.DRAW) and solution.gain < floor):
                return Rivals(len(excluded) - 1, True, False, branches)
            if solution.status not in (Status.OPTIMAL, Status.DRAW) or solution.after is None:
                return Rivals(len(excluded) - 1, False, True, branches)
            key = support.canonical(solution.after)
            if key in keys:
                return Rivals(len(excluded) - 1, False, False, branches)
            keys.add(key)
            excluded.append(solution.after)
        return Rivals(len(excluded) - 1, False, False, branches)

    return rivals_by_best
