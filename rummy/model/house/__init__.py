"""The best turn in House Rummy (presets house-classic, house-epic).

``solve_house`` searches the play phase of ``position.mover``:

- a mover who melded before: one CP-SAT model (branch ``melded``);
- an unmelded mover: the turns without a meld (only joker replacements and a
  discard, listed outright) against one CP-SAT model in which they meld
  (branch ``meld``), the better one wins.

Each model is solved for the highest gain and, among equal gains, the
house tie-break (house/objective), in one objective: a short run hinted
with the table as it is, then (if unproven) from the greedy turn
(house/greedy) with one worker, then with every worker. Under a short limit
(less than ``ONE_RUN_UNDER`` left) the greedy turn comes first and one run
searches from it for all the time: a good turn matters more than a proof
there. Each better turn is told as soon as a run finds it
(``SolverConfig.on_better``, through rummy/model/progress), read from the
run's objective, its after-position made only for a listener. The
modules of this package hold one part each: the card facts
(house/context), whole runs and books (house/runs, house/books, with
house/reach keeping them small), conservation, the initial meld, joker
replacement, paid steals, no spite, the hand rules (hot, warm, discard,
going out), the objective, and reading the answer (house/answer).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from time import perf_counter

from ...cards import cards_notation
from ...position import Position
from ...solution import Solution, SolverConfig, as_number
from ...vocabulary import SearchStatus, Status
from ..clock import Clock
from ..cpsat import cp_model
from ..progress import Announcer
from ..run import ONE_WORKER_SECONDS, Found, RunResult, Tuning, all_workers_join, one_worker_seconds, run
from .answer import TurnPlan, after_position, cards_played, plan_order, read_plan
from .books import add_books
from .branching import add_branching
from .conservation import add_conservation
from .context import TurnContext, build_context
from .cuts import add_play_cuts
from .dominance import add_untouched_spaces
from .exclude import add_exclusions
from .greedy import greedy_turn
from .hand import add_hand_rules
from .meld import add_meld, add_roles, best_meld_score, meld_shapes
from .objective import gain_ceiling, gain_terms, maximize_turn
from .paid_total import add_paid_total
from .reach import reachable
from .redundant import add_redundant
from .replacement import add_replacements, no_meld_turns, replacement_options
from .runs import add_runs
from .spite import add_no_spite
from .state import HouseModel
from .steals import add_payment
from .warm_start import table_hint, turn_assignment


@dataclass
class BranchResult:
    plan: TurnPlan | None
    status: SearchStatus
    bound: Fraction


# The first search, from the table as it is, before the greedy start is made.
QUICK_SECONDS = 0.25
# With less time than this left for a model, the search is for a good turn, not a proof: the greedy start
# first, then one run for all the time (no quick run and restart). Measured with benchmarks/house_found.py
# against the quick run first (55 play-phase positions, both in the same run, load 8-10 on 2 cores): at
# a library limit of 0.62 s (``--time-limit 1``) at least 95% of the best gain on 64% of positions against
# 56%, 80% on 78% against 64% (better on 12, worse on 4); at 1.5 s 95% on 82% against 73%, 80% on 98%
# against 93% (better on 8, worse on 3). Proofs without a limit never take this path. The greedy turn's
# decisions as a bare hint instead of its completion were worse on 33 of 55 positions at 0.12 s.
ONE_RUN_UNDER = 2.0
# At most this long to complete the greedy turn into a full solution.
GREEDY_SECONDS = 0.5
# CP-SAT's presolve weakens this model's linear relaxation (the search then
# needs tens of times longer to prove the best gain), and probing at the
# start of the search costs more than it saves on models this small. The
# full linearization with cuts off proves the slow positions fastest: one
# worker on benchmarks/positions/house, 384,908 branches in all against
# 517,376 with the defaults, p90 0.78 s against 2.61 s; in the full schedule
# (benchmarks/house_versions.py) the house-real median drops from 0.34 s to
# 0.20 s and its p90 from 4.4 s to 1.5 s (issue 12).
HOUSE_TUNING = Tuning(least_seconds=0.05,
                      parameters={"cp_model_presolve": False, "probing_deterministic_time_limit": 0.0,
                                  "linearization_level": 2, "cut_level": 0})


def solve_house(position: Position, config: SolverConfig) -> Solution:
    started = perf_counter()
    ctx = build_context(position)
    clock = Clock(started + config.time_limit)
    announcer = Announcer(config, started)
    options = replacement_options(ctx)
    excluded = config.exclude
    results: list[BranchResult] = []
    if ctx.melded:
        melded = _branch_model(ctx, options, excluded)
        assert melded is not None  # a melded mover always has a model
        result = _solve_model(melded, config, clock, announcer)
        if result.status == SearchStatus.UNKNOWN:
            # Out of time before any answer: leaving the table as it is and
            # discarding is legal (unless a card is hot), so offer that.
            fallback = _no_meld_branch(ctx, {}, excluded)
            if fallback.plan is not None:
                result = BranchResult(fallback.plan, SearchStatus.FEASIBLE, max(result.bound, fallback.plan.gain))
        results.append(result)
    else:
        no_meld = _no_meld_branch(ctx, options, excluded)
        results.append(no_meld)
        m = _branch_model(ctx, options, excluded)
        if m is not None:
            announcer.bound("meld", gain_ceiling(m))
        plan = no_meld.plan
        if plan is not None:
            announcer.bound("no-meld", plan.gain)
            announcer.offer(plan.gain, lambda: (after_position(ctx, plan), cards_played(ctx, plan)), "no-meld")
        if m is not None:
            results.append(_solve_model(m, config, clock, announcer))
    return _solution(ctx, results, started, clock)


def greedy_house(position: Position, config: SolverConfig) -> Solution:
    """The greedy turn alone (house/greedy), completed and scored by the model: status "feasible".

    What every time-limited answer of ``solve_house`` is at least as good as;
    status "unknown" where the greedy finds no turn the model can lay out.
    """
    started = perf_counter()
    ctx = build_context(position)
    clock = Clock(started + config.time_limit)
    m = _branch_model(ctx, replacement_options(ctx), config.exclude)
    start = _greedy_start(m, config, clock) if m is not None else None
    if m is None or start is None:
        return Solution(Status.UNKNOWN, 0, 0, None, 0, "the greedy finds no turn", perf_counter() - started)
    terms, constant = gain_terms(m)
    gain = Fraction(sum(start.value(v) * c for v, c in terms) + constant, ctx.scale)
    plan = read_plan(m, start.value, gain)
    return Solution(Status.FEASIBLE, as_number(gain), as_number(max(gain, gain_ceiling(m))), after_position(ctx, plan),
                    cards_played(ctx, plan), seconds=perf_counter() - started)


def _branch_model(ctx: TurnContext, options: dict[int, list[int]], excluded: tuple[Position, ...]) -> HouseModel | None:
    """The melded mover's model, or the meld branch's (None where no meld reaches the cost)."""
    if ctx.melded:
        return build_model(ctx, "melded", options, [], excluded)
    shapes = meld_shapes(ctx, [j for j, cards in options.items() if cards])
    if not shapes or best_meld_score(shapes, ctx.meld_cost) < ctx.meld_cost:
        return None
    return build_model(ctx, "meld", options, shapes, excluded)


def build_model(ctx: TurnContext, branch: str, options: dict[int, list[int]], shapes: list[tuple[tuple[int, ...], int]],
                excluded: tuple[Position, ...] = ()) -> HouseModel:
    m = HouseModel(ctx, branch)
    if m.melding:
        add_replacements(m, options)
        add_roles(m)
    allowed = reachable(m)
    add_runs(m, allowed)
    add_books(m, allowed)
    add_conservation(m)
    if m.melding:
        add_meld(m, shapes)
    add_payment(m)
    add_no_spite(m)
    add_hand_rules(m)
    # Issue 28's proof levers, each switchable (house/cuts, paid_total, redundant, branching).
    add_play_cuts(m)
    add_paid_total(m)
    add_redundant(m)
    add_branching(m)
    if excluded:
        # An excluded table may leave rivals that only re-form an untouched
        # opponent's space (a long run split): those must stay findable.
        add_exclusions(m, excluded)
    else:
        add_untouched_spaces(m)
    return m


def _solve_model(m: HouseModel, config: SolverConfig, clock: Clock, announcer: Announcer | None = None) -> BranchResult:
    """The highest gain, and among equal gains the house tie-break.

    Both in one search: the objective is ``gain * weight - tiebreak`` with the
    weight larger than any tie-break, which orders turns exactly as solving
    for the gain first and then for the tie-break with the gain fixed.
    """
    model = m.model
    terms, constant = gain_terms(m)
    weight = maximize_turn(m)
    # The best full solution any run has found, the greedy turn included; the
    # tightest bound any run has proven. Runs restart, so neither is lost.
    best: RunResult | None = None
    objective_bound = math.inf
    scale = m.ctx.scale
    ceiling = gain_ceiling(m)

    def gain_bound(objective: float) -> Fraction:
        """The gain no turn beats, from a bound on ``gain * weight - tiebreak`` (0 <= tiebreak < weight)."""
        if objective == math.inf:
            return ceiling
        return min(Fraction((math.floor(objective + 1e-6) + weight - 1) // weight, scale), ceiling)

    def gain_of(result: RunResult) -> Fraction:
        return Fraction(round(sum(result.value(v) * c for v, c in terms) + constant), scale)

    def offer(gain: Fraction, objective_bound_now: float, value: Callable[[], Callable[[cp_model.IntVar], int]],
              source: str) -> None:
        """Tell the listener of a turn of ``gain`` (its values read only if it is told) and the bound so far."""
        assert announcer is not None
        announcer.bound(m.branch, gain_bound(objective_bound_now))
        announcer.offer(gain, lambda: _made(m, read_plan(m, value(), gain)), source)

    def tell(result: RunResult | None, source: str) -> None:
        """The best turn so far, at the end of a run or the greedy start."""
        if announcer is not None and announcer.listening and result is not None and result.found:
            offer(gain_of(result), objective_bound, lambda: result.value, source)

    def heard(found: Found) -> None:
        """A better solution during a run, its gain read from the objective (the tie-break never reaches a
        whole weight); its values are read only when it is told."""
        def value() -> Callable[[cp_model.IntVar], int]:
            values = found.values()
            return lambda variable: values[variable.index]

        offer(gain_bound(found.objective), min(objective_bound, found.bound), value, "cp-sat")

    watch = heard if announcer is not None and announcer.listening else None

    def attempt(seconds: float, workers: int, hint: dict[int, int] | None = None) -> RunResult:
        """One run, from the best solution so far where there is one (else from ``hint``, else the model's)."""
        nonlocal best, objective_bound
        result = run(model, seconds, HOUSE_TUNING, workers=workers, seed=config.seed,
                     hint=best.as_hint() if best is not None else hint, clock=clock, on_solution=watch)
        if result.found:
            # Only a run that found a solution has a bound to keep: one stopped before its search began
            # (a tiny limit on a loaded machine) answers a bound of 0, below turns the greedy start found.
            objective_bound = min(objective_bound, result.bound)
        best = _better(best, result)
        tell(best, "cp-sat")
        return result

    def greedy() -> None:
        nonlocal best
        best = _better(best, _greedy_start(m, config, clock))
        tell(best, "greedy")

    # Most turns are proven within QUICK_SECONDS by one worker from the table
    # as it is. Only a search that needs longer pays for the greedy start
    # (house/greedy, about 25 ms), which then floors every answer. One worker
    # then goes on for half the time left (at least ONE_WORKER_SECONDS in all):
    # the run with every worker starts the search again (only the best turn
    # and bound carry over), which cost the slow positions 2-7 times their
    # one-worker time (issue 12).
    as_is = table_hint(m) if config.hint else None
    if clock.left() < ONE_RUN_UNDER:
        if config.hint:
            greedy()
        last = attempt(clock.left(), 1, as_is)
    else:
        last = attempt(min(clock.left() / 2, QUICK_SECONDS), 1, as_is)
        if not last.proven and config.hint:
            greedy()
            alone = max(ONE_WORKER_SECONDS, clock.left() / 2)
            last = attempt(one_worker_seconds(clock, config.workers, given=QUICK_SECONDS, alone=alone), 1)
    if not last.proven and all_workers_join(clock, config.workers, HOUSE_TUNING.least_seconds):
        last = attempt(clock.left(), config.workers)
    if last.status == SearchStatus.INFEASIBLE:
        return BranchResult(None, SearchStatus.INFEASIBLE, Fraction(0))
    bound = gain_bound(objective_bound)
    if best is None:
        return BranchResult(None, SearchStatus.UNKNOWN, bound)
    achieved = gain_of(best)
    plan = read_plan(m, best.value, achieved)
    if last.status == SearchStatus.OPTIMAL:
        return BranchResult(plan, SearchStatus.OPTIMAL, achieved)
    return BranchResult(plan, SearchStatus.FEASIBLE, max(bound, achieved))


def _made(m: HouseModel, plan: TurnPlan) -> tuple[Position | None, int]:
    """A turn found as the listener sees it: its after-position and the cards it plays."""
    return after_position(m.ctx, plan), cards_played(m.ctx, plan)


def _better(best: RunResult | None, other: RunResult | None) -> RunResult | None:
    """The run with the higher objective among those that found a solution (the earlier on ties)."""
    if other is None or not other.found:
        return best
    if best is None or other.objective > best.objective:
        return other
    return best


def _greedy_start(m: HouseModel, config: SolverConfig, clock: Clock) -> RunResult | None:
    """The greedy turn (house/greedy) as a full solution, or None where the model cannot lay it out.

    The model's decisions are fixed to the turn and CP-SAT fills in the rest
    (payment roles, scores, spite) on a copy of the model: a turn the greedy
    got wrong comes back infeasible and is not used.
    """
    turn = greedy_turn(m.ctx)
    if turn is None:
        return None
    fixed = turn_assignment(m, turn.plays, turn.hand, turn.discard, turn.meld, turn.swaps)
    if fixed is None:
        return None
    copy = m.model.clone()
    # Written into the copy's domains (as house/neighbourhood does): 2-3 times faster to
    # write than ~2,000 ``var == value`` constraints and 3-5 times faster to solve.
    variables = copy.proto.variables
    for index, value in fixed.items():
        domain = variables[index].domain
        if len(domain) == 2 and domain[0] <= value <= domain[1]:
            domain[0] = domain[1] = value
        else:  # a decision's own domain excludes the value: the constraint says so (infeasible)
            copy.add(copy.get_int_var_from_proto_index(index) == value)
    # A quarter of what is left, but enough to complete the turn even under a tiny limit.
    result = run(copy, min(GREEDY_SECONDS, max(clock.left() / 4, 0.1)), HOUSE_TUNING, seed=config.seed, clock=clock)
    return result if result.found else None


def _no_meld_branch(ctx: TurnContext, options: dict[int, list[int]],
                    excluded: tuple[Position, ...] = ()) -> BranchResult:
    """The best turn that changes nothing but jokers (listed, best first), skipping excluded tables."""
    forbidden = {after.table_key() for after in excluded}
    for turn in no_meld_turns(ctx, options):
        swaps = {s.joker: s.card for s in turn.swaps}
        plays: dict[str, list[tuple[int, ...]]] = {space: [] for space in ctx.spaces}
        for play in ctx.plays:
            plays[play.space].append(tuple(swaps.get(i, i) for i in play.slots))
        plan = TurnPlan(plays, turn.hand_after, turn.discard, (), tuple(sorted(swaps.items())), False, turn.gain)
        if not forbidden or after_position(ctx, plan).table_key() not in forbidden:
            return BranchResult(plan, SearchStatus.OPTIMAL, turn.gain)
    return BranchResult(None, SearchStatus.INFEASIBLE, Fraction(0))


def _solution(ctx: TurnContext, results: list[BranchResult], started: float, clock: Clock) -> Solution:
    stats = clock.stats()
    plans = [r.plan for r in results if r.plan is not None]
    if not plans:
        if any(r.status == SearchStatus.UNKNOWN for r in results):
            reason = "the time limit ran out before a legal turn was found"
            return Solution(Status.UNKNOWN, 0, 0, None, 0, reason, perf_counter() - started, stats)
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, _no_turn_reason(ctx), perf_counter() - started, stats)
    best = min(plans, key=lambda plan: plan_order(ctx, plan))
    proven = all(r.status in (SearchStatus.OPTIMAL, SearchStatus.INFEASIBLE) for r in results)
    bound = best.gain if proven else max(r.bound for r in results if r.status != SearchStatus.INFEASIBLE)
    return Solution(
        status=Status.OPTIMAL if proven else Status.FEASIBLE,
        gain=as_number(best.gain),
        bound=as_number(max(bound, best.gain)),
        after=after_position(ctx, best),
        cards_played=cards_played(ctx, best),
        seconds=perf_counter() - started,
        stats=stats,
    )


def _no_turn_reason(ctx: TurnContext) -> str:
    hot = [s.card for s in ctx.hand if s.hot]
    if hot:
        return f"the hot card {cards_notation(hot, ctx.rules.deck)} cannot be played this turn"
    return "no legal turn exists"

