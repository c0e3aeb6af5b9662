"""How draw advice spends its time limit on its searches (rules.md §5 "Draw advice", docs/draw.md).

Two passes and an overtime, on ``config.workers`` threads (one CP-SAT
worker per search unless a pass has fewer searches than threads):

1. **Every outcome valued.** Each search gets a fair share of the first
   pass's time (``FIRST_PASS_SHARE`` of the limit): the time that pass has
   left, times the threads, over the searches not yet done, recomputed as
   each starts, so time a quick proof leaves unused goes to the later ones.
   None is skipped: the family's model answers a feasible turn quickly
   (House: the no-meld turn or the greedy start), so even a search given
   the least time values its outcome, honestly ("feasible", with its bound).
   A random draw (the stock: one search per distinct card) counts one
   search per card, so it gets as many shares as it has searches. An
   outcome with a hot card (a discard-pile bottom card, a demanded card)
   weighs ``HOT_WEIGHT`` shares and goes first: no quick turn stands in
   for it (the card must be played), so a search too short finds nothing
   and leaves its option out. What searches take beyond their time
   (building the model, a loaded machine) is measured as they end and cut
   from the next shares, so the pass ends near its time.
2. **What can still change the choice**, in rounds until the time is up:
   ``open_searches`` (from the package) names the searches worth more time
   in tiers, the most urgent first (outcomes still unvalued; then the
   outcomes of every option whose bound beats the chosen option's value,
   and of the chosen option itself, the largest weighted gap first; then
   the chosen option's alone; then any other unproven one). A round takes
   the first tier that more time may help and shares what is left among
   its searches; a search whose option can no longer be chosen by the time
   its turn comes is dropped.
3. **Overtime, only for outcomes still unvalued**: an option one of whose
   outcomes has no turn found would be left out of the answer (the worst answer: it
   may be the best draw), so such outcomes are searched again past the
   limit, for at most ``OVERTIME_SHARE`` of it, until each has a turn or is
   proven to have none. No search at all starts past that: on a machine too
   slow to make every search of the first pass, the rest are left unvalued
   (their options left out, as before issue 28), not the answer late
   without bound.

   A search is made again only with at least ``AGAIN_FACTOR`` times the time
   it had (a new search starts from scratch: the family's model has no hint
   to continue from but its own greedy start), and an outcome keeps the
   better of its answers (the higher value, the lower bound).

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

# The first pass may use this share of the limit; the second gets the rest
# (and whatever the first did not need).
FIRST_PASS_SHARE = 0.75
# The least time a search is given, even when the limit has passed.
LEAST_SECONDS = 0.05
# A second pass starts no search with less than this left: a search
# overruns a tiny limit by about this much (model building, the greedy start).
SECOND_PASS_LEAST = 0.3
# Past the limit, outcomes still unvalued are searched again for at most this share of the limit.
OVERTIME_SHARE = 0.5
# A search is made again only with at least this many times the time it had.
AGAIN_FACTOR = 2.0
# An outcome with a hot card (the discard pile's bottom card, a demanded card) has no quick turn to fall
# back on (House: the table as it is, the no-meld turn): the model must find a turn that plays the card,
# and under a few tenths of a second it often finds none, leaving its option out. It weighs this many
# searches in the first pass's shares, and those searches come first.
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
        # Hot outcomes first (HOT_WEIGHT), else in the order given.
        self.order = sorted(self.outcomes, key=lambda key: not self.outcomes[key].start.mover.hot)
        self.config = config
        self.deadline = deadline
        self.on_valued = on_valued
        self.results: dict[Hashable, Valued] = {key: NO_TURN for key, outcome in jobs.items() if outcome is None}
        self.threads = max(1, config.workers)
        self.done = 0  # searches made (both passes)
        self.total = len(self.order)  # searches planned so far (grows with the second pass)
        self.again = 0  # searches made again (the second pass)
        self._lock = threading.Lock()
        # The weights of the searches running and of those waiting in this pass (HOT_WEIGHT).
        self._running = 0.0
        self._waiting = 0.0
        # What searches took beyond the time they were given (building the model, the greedy start,
        # a loaded machine), on average: each share is cut by it, so the passes end on time.
        self._overrun = 0.0
        self._timed = 0
        # No search starts after this (the limit and its overtime): on a machine too slow to make
        # them all, the rest are left unvalued rather than the answer late without bound.
        self._stop = deadline

    def run(self, open_searches: OpenSearches) -> dict[Hashable, Valued]:
        started = perf_counter()
        # Of the limit itself: the time before the schedule started (the model's import) counts against it.
        self._stop = self.deadline + OVERTIME_SHARE * max(0.0, self.config.time_limit)
        first_deadline = started + FIRST_PASS_SHARE * max(0.0, self.deadline - started)
        self._pass(self.order, first_deadline)
        while self.deadline - perf_counter() >= SECOND_PASS_LEAST:
            with self._lock:
                tiers = open_searches(dict(self.results))
            round_ = self._round(tiers)
            if not round_:
                break
            with self._lock:
                self.total += len(round_)
            self._pass(round_, self.deadline, open_searches)
        self._overtime()
        return self.results

    def _overtime(self) -> None:
        """Outcomes still unvalued at the limit leave their options out: they are searched again past it,
        for at most ``OVERTIME_SHARE`` of the limit in all, until each has a turn or is proven to have none."""
        overtime = self._stop
        while overtime - perf_counter() >= SECOND_PASS_LEAST:
            unknown = [key for key in self.order if self.results[key].unknown]
            if not unknown:
                return
            with self._lock:
                self.total += len(unknown)
            self._pass(unknown, overtime)

    def _round(self, tiers: list[list[Hashable]]) -> list[Hashable]:
        """The next second-pass round: the searches of the first tier that more time may help."""
        left = self.deadline - perf_counter()
        for number, tier in enumerate(tiers):
            share = min(left, left * self.threads / max(1, len(tier))) - self._overrun
            # An outcome still unvalued leaves its option out: it is tried again with no less time.
            factor = 1.0 if number == 0 and self.results[tier[0]].unknown else AGAIN_FACTOR
            chosen = [key for key in tier if share >= factor * self.results[key].given]
            if chosen:
                return chosen
        return []

    def _weight(self, key: Hashable) -> float:
        return HOT_WEIGHT if self.outcomes[key].start.mover.hot else 1.0

    def _pass(self, keys: list[Hashable], deadline: float, open_searches: OpenSearches | None = None) -> None:
        with self._lock:
            self._waiting = sum(self._weight(key) for key in keys)
        threads = max(1, min(self.threads, len(keys)))
        # Fewer searches than threads: each gets the workers the others leave idle.
        workers = max(1, self.threads // len(keys)) if keys else 1
        if threads == 1:
            for key in keys:
                self._one(key, deadline, workers, open_searches)
            return
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(lambda key: self._one(key, deadline, workers, open_searches), keys))

    def _one(self, key: Hashable, deadline: float, workers: int, open_searches: OpenSearches | None) -> None:
        weight = self._weight(key)
        with self._lock:
            if open_searches is not None and not any(key in tier for tier in open_searches(dict(self.results))):
                # Settled meanwhile by the round's other searches (its option can no longer be chosen).
                self._waiting -= weight
                self.total -= 1
                return
            # This search's share: the pass's time left, spread over the threads, among the searches
            # not yet started (this one included) and those still running on the other threads, by weight.
            left = max(0.0, deadline - perf_counter())
            sharing = self._waiting + self._running
            self._waiting -= weight
            if perf_counter() > self._stop:
                self.results.setdefault(key, NOTHING_FOUND)
                return
            self._running += weight
            fair = min(left, left * self.threads * weight / max(weight, sharing))
            seconds = max(LEAST_SECONDS, fair - self._overrun)
        began = perf_counter()
        try:
            valued = value_outcome(self.outcomes[key], self.config, seconds, workers)
        finally:
            with self._lock:
                self._running -= weight
                self._timed += 1
                self._overrun += (max(0.0, perf_counter() - began - seconds) - self._overrun) / self._timed
        with self._lock:
            self.results[key] = merged(self.results.get(key), valued)
            self.done += 1
            self.again += open_searches is not None
            if self.on_valued is not None:
                self.on_valued(self.results, self.done, self.total)


def value_outcome(outcome: Outcome, config: SolverConfig, seconds: float, workers: int = 1) -> Valued:
    """The best turn after one outcome of a draw within ``seconds``, valued from before the draw."""
    start = outcome.start
    rules = start.rules
    family = rules.family
    quiet = replace(config, time_limit=seconds, workers=workers, progress=None, on_better=None)
    solution = family.solver_function()(start, quiet)
    if solution.status in (Status.NO_LEGAL_TURN, Status.UNKNOWN) or solution.after is None:
        return Valued(solution, None, None, solution.status == Status.NO_LEGAL_TURN, seconds)
    cost = family.hand_cost(outcome.drawn, rules)
    value = Fraction(family.turn_gain(start, solution.after)) - cost
    bound = max(Fraction(solution.bound) - cost, value) if solution.status != Status.OPTIMAL else value
    return Valued(solution, value, bound, solution.status == Status.OPTIMAL, seconds)


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
