"""How draw advice spends its time limit on its searches (rules.md §5 "Draw advice", docs/draw.md).

Three passes on ``config.workers`` threads (one CP-SAT worker per search,
as before issue 28), and nothing past the limit:

1. **Every outcome valued at once.** The family's quick turn
   (``Family.quick_solver``; House: the no-meld turn and the greedy turn
   completed by the model, house/quick) values each outcome in tens of
   milliseconds, with a proven ceiling: every option has a value (a floor:
   the gain of a real turn) and a bound before any search. An outcome with
   a hot card (a discard-pile bottom card, a demanded card) may get none
   (the greedy cannot play the card): pass 2 searches it in its turn.
2. **The proof pass, in the order given** (as before issue 28: the certain
   draws, i.e. the discard pile's takes and the upcard; then the stock's
   outcomes; then the demands, which weigh only their probability:
   searched first, as hot outcomes once were, they left the stock valued by
   its quick turns alone): each search gets all the time left (as before
   issue 28: most are proven in well under a second), on the threads. A
   search starts only where ``open_searches`` (from the package) still
   names it in its first three tiers: an outcome without a turn, one of an
   option whose bound beats the chosen option's value (a rival), or one
   of the chosen option itself. An option whose proven bound is below the
   chosen value is never searched again: a floor cannot win by accident
   (it is the value of a real turn) and a rival is searched before it loses.
3. **What can still change the choice**, in rounds until the time is up:
   ``open_searches`` tiers, the most urgent first; a round shares what is
   left among the first tier's searches that more time may help (a search
   is made again only with at least ``AGAIN_FACTOR`` times the time it had:
   a new search starts from scratch), and an outcome keeps the better of
   its answers (the higher value, the lower bound).

No search starts past the limit (the very first excepted, so that there is
an answer at all); what searches took beyond their time (building the
model, a loaded machine) is measured as they end and cut from the next
limits, so the answer comes near the limit. An outcome still without a turn
then leaves its option out (reported in ``draws_not_valued_in_time``).

``on_valued`` is told (under the lock, so in order) after every search.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from time import perf_counter

from ..solution import Solution, SolverConfig
from ..vocabulary import Status
from .options import Outcome

# The least time a search is given.
LEAST_SECONDS = 0.05
# No round of pass 3 starts with less than this left: a search
# overruns a tiny limit by about this much (model building, the greedy start).
SECOND_PASS_LEAST = 0.3
# The passes (Schedule._one): the quick turn; all the time left; a fair share of it.
QUICK, PROOF, FAIR = "quick", "proof", "fair"
# A search is made again only with at least this many times the time it had.
AGAIN_FACTOR = 2.0
# An outcome with a hot card (the discard pile's bottom card, a demanded card) may have no quick turn to
# fall back on: the model must find a turn that plays the card, and under a few tenths of a second it
# often finds none, leaving its option out. It weighs this many searches in a round's shares.
HOT_WEIGHT = 3.0


@dataclass(frozen=True)
class Valued:
    """One outcome's best turn: its value from before the draw, proven or not, and its ceiling."""

    solution: Solution | None  # None: no search was needed (no legal turn)
    value: Fraction | None  # None: no legal turn (or none found in time)
    bound: Fraction | None
    proven: bool
    given: float = 0.0  # the longest time limit a search of it had

    @property
    def unknown(self) -> bool:
        """Searched, but no turn found in time (and none proven impossible)."""
        return self.value is None and not self.proven


NOTHING_FOUND = Valued(None, None, None, False)
NO_TURN = Valued(None, None, None, True)

# Which searches deserve more time (from every result so far): tiers, the most urgent first.
OpenSearches = Callable[[dict[Hashable, Valued]], list[list[Hashable]]]


class Schedule:
    """The searches of one draw advice, and their results as they come."""

    def __init__(self, jobs: dict[Hashable, Outcome | None], order: list[Hashable], config: SolverConfig,
                 deadline: float, on_valued: Callable[[dict[Hashable, Valued], int, int], None] | None = None) -> None:
        self.outcomes: dict[Hashable, Outcome] = {}
        for key in order:
            outcome = jobs[key]
            if outcome is not None:
                self.outcomes[key] = outcome
        # In the order given: certain draws first, then the stock, then the demands (draw_advice.advise).
        self.order = list(self.outcomes)
        self.config = config
        self.deadline = deadline
        self.on_valued = on_valued
        self.results: dict[Hashable, Valued] = {key: NO_TURN for key, outcome in jobs.items() if outcome is None}
        self.threads = max(1, config.workers)
        self.done = 0  # searches made (quick turns included)
        self.total = len(self.order)  # searches planned so far (grows with each pass)
        self.again = 0  # searches made after the proof pass (the rounds)
        self._lock = threading.Lock()
        # The weights of the searches running and of those waiting in this pass (HOT_WEIGHT).
        self._running = 0.0
        self._waiting = 0.0
        # What searches took beyond the time they were given (building the model, the greedy start,
        # a loaded machine), on average: each limit is cut by it, so the answer comes near the limit.
        self._overrun = 0.0
        self._timed = 0

    def run(self, open_searches: OpenSearches) -> dict[Hashable, Valued]:
        quick = self.outcomes and next(iter(self.outcomes.values())).start.rules.family.quick_solver_function()
        # No more outcomes than threads: each gets a whole search at once, the quick turns would only delay them.
        if quick and len(self.order) > self.threads:
            self._pass(self.order, self.deadline, QUICK)
            with self._lock:
                self.total += len(self.order)
        # The proof pass, in the order given.
        self._pass(self.order, self.deadline, PROOF, open_searches)
        while self.deadline - perf_counter() >= SECOND_PASS_LEAST:
            with self._lock:
                tiers = open_searches(dict(self.results))
            round_ = self._round(tiers)
            if not round_:
                break
            with self._lock:
                self.total += len(round_)
                before = self.done
            self._pass(round_, self.deadline, FAIR, open_searches)
            if self.done == before:
                break  # every search of the round was settled before its turn: nothing left to do
        return self.results

    def _round(self, tiers: list[list[Hashable]]) -> list[Hashable]:
        """The next round: the searches of the first tier that more time may help."""
        left = self.deadline - perf_counter()
        for number, tier in enumerate(tiers):
            if not tier:
                continue
            share = min(left, left * self.threads / max(1, len(tier))) - self._overrun
            # An outcome still unvalued leaves its option out: it is tried again with no less time.
            factor = 1.0 if number == 0 and self.results[tier[0]].unknown else AGAIN_FACTOR
            chosen = [key for key in tier if share >= factor * self.results[key].given]
            if chosen:
                return chosen
        return []

    def _weight(self, key: Hashable) -> float:
        return HOT_WEIGHT if self.outcomes[key].start.mover.hot else 1.0

    def _pass(self, keys: list[Hashable], deadline: float, kind: str,
              open_searches: OpenSearches | None = None) -> None:
        with self._lock:
            self._waiting = sum(self._weight(key) for key in keys)
        threads = max(1, min(self.threads, len(keys)))
        # One CP-SAT worker per search, as before issue 28, even where threads are idle: the House model's
        # run with every worker starts its search again, which made a lone hard search (house-50-06's one
        # stock card) 9 s unproven against 5 s proven with one worker.
        workers = 1
        if threads == 1:
            for key in keys:
                self._one(key, deadline, workers, kind, open_searches)
            return
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(lambda key: self._one(key, deadline, workers, kind, open_searches), keys))

    def _one(self, key: Hashable, deadline: float, workers: int, kind: str, open_searches: OpenSearches | None) -> None:
        weight = self._weight(key)
        with self._lock:
            self._waiting -= weight
            # The proof pass: only what can still change the choice (or is the choice's); a round: any unproven one.
            # (An outcome not valued at all yet is always searched.)
            tiers = open_searches(dict(self.results)) if open_searches is not None and key in self.results else None
            if tiers is not None and not any(key in tier for tier in (tiers[:3] if kind == PROOF else tiers)):
                # Proven, or its option can no longer be chosen (settled meanwhile by the other searches).
                self.total -= 1
                return
            left = deadline - perf_counter()
            if left <= 0 and self.done > 0:
                # No search starts past the limit (the first excepted: an answer at all).
                self.results.setdefault(key, NOTHING_FOUND)
                self.total -= 1
                return
            if kind == FAIR:
                # The round's time left, spread over the threads, among the searches not yet started (this one
                # included) and those still running on the other threads, by weight.
                sharing = self._waiting + weight + self._running
                seconds = max(LEAST_SECONDS, min(left, left * self.threads * weight / max(weight, sharing))
                              - self._overrun)
            else:
                seconds = max(LEAST_SECONDS, left - self._overrun)
            self._running += weight
        began = perf_counter()
        try:
            valued = value_outcome(self.outcomes[key], self.config, seconds, workers, quick=kind == QUICK)
        finally:
            with self._lock:
                self._running -= weight
                if kind != QUICK:
                    self._timed += 1
                    self._overrun += (max(0.0, perf_counter() - began - seconds) - self._overrun) / self._timed
        with self._lock:
            self.results[key] = merged(self.results.get(key), valued)
            self.done += 1
            self.again += kind == FAIR
            if self.on_valued is not None:
                self.on_valued(self.results, self.done, self.total)


def value_outcome(outcome: Outcome, config: SolverConfig, seconds: float, workers: int = 1,
                  quick: bool = False) -> Valued:
    """The best turn after one outcome of a draw within ``seconds`` (``quick``: the family's quick turn, no
    search), valued from before the draw."""
    start = outcome.start
    rules = start.rules
    family = rules.family
    quiet = replace(config, time_limit=seconds, workers=workers, progress=None, on_better=None)
    solver = family.quick_solver_function() if quick else None
    solution = (solver or family.solver_function())(start, quiet)
    given = 0.0 if quick else seconds
    if solution.status in (Status.NO_LEGAL_TURN, Status.UNKNOWN) or solution.after is None:
        return Valued(solution, None, None, solution.status == Status.NO_LEGAL_TURN, given)
    cost = family.hand_cost(outcome.drawn, rules)
    value = Fraction(family.turn_gain(start, solution.after)) - cost
    bound = max(Fraction(solution.bound) - cost, value) if solution.status != Status.OPTIMAL else value
    return Valued(solution, value, bound, solution.status == Status.OPTIMAL, given)


def merged(old: Valued | None, new: Valued) -> Valued:
    """The better of two answers for one outcome: a proof wins; else the higher value, with the lower bound."""
    if old is None or new.proven:
        return new
    given = max(old.given, new.given)
    if old.proven:
        return old
    if new.value is None:
        return replace(old, given=given)
    if old.value is None:
        return replace(new, given=given)
    better = new if new.value > old.value else old
    bounds = [b for b in (old.bound, new.bound) if b is not None]
    bound = max(min(bounds), better.value) if bounds and better.value is not None else better.bound
    return replace(better, bound=bound, given=given)
