"""Large-neighbourhood search over the best House turn found so far (issue 28 §1).

``improve(m, start, seconds, config, clock, tell)``: ``m.model`` carries its
objective (house/__init__ ``_solve_model``, house/objective
``maximize_turn``); ``start`` is a full solution of it (the greedy start, a
CP-SAT run). The answer is the best full solution found, ``start`` itself
where nothing beats it; each better one is told as it is found.

A *neighbourhood* is a set of cards: one suit, two suits, the hand's cards
of one suit, the cards of one space (and the hand), one rank, or a random
few; jokers go with every suit and rank. Every decision of the model (where
each card ends: run cells and segments, books, kept and discarded cards,
meld plays, joker swaps; house/warm_start) that the neighbourhood does not
free (``_Fixing``) is fixed to its value in the best turn, and CP-SAT solves
what is left exactly for a few tens of milliseconds, hinted with the best
turn. Everything else (payment roles, scores, spite, going out) follows
from the decisions and stays free, so every turn found satisfies the whole
model: a full solution, as the exact search's hint and ``read_plan`` need.

A better turn replaces the best and every neighbourhood is worth trying
again. A neighbourhood solved to its optimum without beating the best is
not tried again until the best changes; one not settled in its time gets
twice as long at its next turn, at most MOST_TRIES turns. The search ends at
its time, or once every listed neighbourhood is settled and RANDOM_TRIES
random ones in a row found nothing: what is left is the exact search's work.
The fixing writes variable domains of one copy of the model: a neighbourhood
costs the writes of what changes, not a new model.

Measured (benchmarks/house_neighbourhood.py, benchmarks/README.md): from the
greedy start the search finds better turns sooner than CP-SAT's one worker
in the first 0.1 s, but CP-SAT overtakes it by 0.25 s and reaches the
optimum far more often within 1 s: the best turns differ from the greedy
one in half the cards, across suits, ranks and spaces, which no small
neighbourhood holds, and a neighbourhood large enough costs as much as the
whole search.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from time import perf_counter

from ...cards import SUITS
from ...solution import SolverConfig
from ...vocabulary import SearchStatus
from ..clock import Clock
from ..cpsat import cp_model
from ..run import RunResult, Tuning, run
from .state import HouseModel

# One neighbourhood's first run: long enough to prove most of them, short enough to try many. A
# neighbourhood not settled gets twice as long at its next turn, and MOST_TRIES turns in all until the best changes.
NEIGHBOURHOOD_SECONDS = 0.05
MOST_TRIES = 3
# A neighbourhood's run may get only what is left of the search's time: its least is shorter than the model's.
LEAST_SECONDS = 0.005
# Random neighbourhoods tried in a row without a better turn, once every listed one is at its optimum.
RANDOM_TRIES = 8
# A random neighbourhood's size: this share of the cards (at least RANDOM_LEAST).
RANDOM_SHARE = 0.3
RANDOM_LEAST = 6


@dataclass(frozen=True)
class Neighbourhood:
    name: str  # "suit H", "rank 7", "space ann", "hand H", "suits H S", "random"
    cards: frozenset[int]


def improve(m: HouseModel, start: RunResult, seconds: float, config: SolverConfig, clock: Clock,
            tell: Callable[[RunResult, str], None] | None = None) -> RunResult:
    """The best full solution found from ``start`` within ``seconds`` (and the clock): ``start`` if none beats it.

    Each better solution is told (``tell(result, "neighbourhood")``) as it is found.
    """
    if not start.found or seconds <= 0:
        return start
    until = perf_counter() + seconds
    tuning = lns_tuning()
    fixing = _Fixing(m)
    best = start
    seed = config.seed or 0
    shuffle = random.Random(seed)
    listed = listed_neighbourhoods(m, best)
    # Per neighbourhood, its runs since the best last changed that did not settle it;
    # MOST_TRIES once one proved it holds nothing better.
    tries: dict[Neighbourhood, int] = {}
    randoms_failed = 0
    turn = 0
    hint: dict[int, int] | None = best.as_hint()
    while True:
        left = min(until, clock.deadline) - perf_counter()  # the clock's deadline may be brought forward
        waiting = [hood for hood in listed if tries.get(hood, 0) < MOST_TRIES]
        if left <= LEAST_SECONDS or (not waiting and randoms_failed >= RANDOM_TRIES):
            return best
        # The least tried first, in the list's order: each gets its short run before any gets a longer one.
        hood = min(waiting, key=lambda h: tries.get(h, 0)) if waiting else _random_neighbourhood(m, shuffle)
        assert best.solution is not None
        fixing.fix_except(fixing.free_of(hood.cards, best.solution), best.solution)
        left = min(until, clock.deadline) - perf_counter()
        if left <= LEAST_SECONDS:
            return best
        result = run(fixing.model, min(NEIGHBOURHOOD_SECONDS * 2 ** tries.get(hood, 0), left), tuning,
                     seed=seed + turn, hint=hint, clock=clock)
        turn += 1
        hint = None  # the copy keeps it
        if result.found and result.objective > best.objective + 0.5:
            best = result
            hint = best.as_hint()
            tries.clear()
            randoms_failed = 0
            listed = listed_neighbourhoods(m, best)
            if tell is not None:
                tell(best, "neighbourhood")
            continue
        tries[hood] = MOST_TRIES if result.status == SearchStatus.OPTIMAL else tries.get(hood, 0) + 1
        randoms_failed += not waiting


def lns_tuning() -> Tuning:
    """The model's own parameters (house/__init__ HOUSE_TUNING), with LEAST_SECONDS."""
    from . import HOUSE_TUNING  # here, not at the top: house/__init__ imports this module

    return Tuning(least_seconds=LEAST_SECONDS, parameters=HOUSE_TUNING.parameters)


def listed_neighbourhoods(m: HouseModel, best: RunResult) -> list[Neighbourhood]:
    """The fixed neighbourhoods around the turn ``best``, those that paid most first.

    Measured (benchmarks/house_neighbourhood.py, positions/house from the
    greedy start): one suit found 14 of 28 better turns (+171 points), two
    suits 8 (+143), a suit's hand cards 4 (+15), one space 1, one rank 1.
    A suit solves in 10-60 ms, two suits in 40-130 ms, a space or a rank
    (its books in every space, every row its cards lie in) in up to 200 ms.
    """
    ctx = m.ctx
    jokers = frozenset(s.index for s in ctx.slots if s.is_joker)
    naturals = [s for s in ctx.slots if not s.is_joker]
    hand = frozenset(s.index for s in ctx.hand)
    by_suit = {suit: frozenset(s.index for s in naturals if s.card.suit == suit) for suit in SUITS}
    by_suit = {suit: cards for suit, cards in by_suit.items() if cards}
    hoods = [Neighbourhood(f"suit {suit}", cards | jokers) for suit, cards in by_suit.items()]
    for (a, first), (b, second) in combinations(by_suit.items(), 2):
        hoods.append(Neighbourhood(f"suits {a} {b}", first | second | jokers))
    for suit, cards in by_suit.items():
        if cards & hand:
            hoods.append(Neighbourhood(f"hand {suit}", (cards | jokers) & hand))
    assert best.solution is not None
    ends = _spaces_of(m, best.solution)
    for space in ctx.spaces:
        cards = frozenset(s.index for s in ctx.slots if s.origin == space or ends.get(s.index) == space)
        if cards:
            hoods.append(Neighbourhood(f"space {space}", cards | hand))
    for rank in sorted({s.card.rank for s in naturals}):
        cards = frozenset(s.index for s in naturals if s.card.rank == rank)
        if len(cards) >= 2:
            hoods.append(Neighbourhood(f"rank {rank}", cards | jokers))
    return hoods


def _random_neighbourhood(m: HouseModel, shuffle: random.Random) -> Neighbourhood:
    slots = range(len(m.ctx.slots))
    size = min(len(slots), max(RANDOM_LEAST, round(RANDOM_SHARE * len(slots))))
    return Neighbourhood("random", frozenset(shuffle.sample(slots, size)))


def _spaces_of(m: HouseModel, values: tuple[int, ...]) -> dict[int, str]:
    """The space each card ends in, in the turn ``values``."""
    return {i: space for i, placed in m.placements.items() for space, var in placed if values[var.index]}


class _Fixing:
    """One copy of the model whose decisions outside a neighbourhood are fixed, by writing their domains.

    What a neighbourhood of cards frees:

    - each of its cards' own decisions: its run cells (a natural's), whether
      it is kept or discarded, the swaps it would make;
    - the run rows its naturals have a cell in, and the rows its jokers lie
      in now: the row's segments and its joker cells (so jokers move in and
      out, segments move where the free cards fill the row);
    - the books and meld plays it lies in now (so they may break up), and
      every other book or meld play whose cards are all *loose*: in the
      neighbourhood, or now in a place the neighbourhood frees.

    A book of a loose card and a card fixed where it is can never be laid,
    so it stays fixed too: freeing every book of a card would free most of
    the model (books of each rank in every space, with every joker).
    """

    def __init__(self, m: HouseModel) -> None:
        self.model: cp_model.CpModel = m.model.clone()
        self.own: dict[int, set[int]] = {s.index: set() for s in m.ctx.slots}
        self.places: dict[int, set[int]] = {s.index: set() for s in m.ctx.slots}  # where each card may end
        # Per run row: its naturals, its segments and joker cells, and its joker cells by joker.
        self.rows: list[tuple[frozenset[int], set[int], dict[int, set[int]]]] = []
        self.plays: list[tuple[frozenset[int], int]] = []  # books and meld plays: their cards, their variable
        for kept in (m.keep, m.discard):
            for i, var in kept.items():
                self.own[i].add(var.index)
                self.places[i].add(var.index)
        for (_, card), var in m.replace.items():
            self.own[card].add(var.index)
        for grid in m.runs:
            rest = {var.index for _, var in grid.segments}
            naturals: set[int] = set()
            jokers: dict[int, set[int]] = {}
            for cells in grid.cells.values():
                for i, var in cells:
                    self.places[i].add(var.index)
                    if m.slot(i).is_joker:
                        rest.add(var.index)
                        jokers.setdefault(i, set()).add(var.index)
                    else:
                        self.own[i].add(var.index)
                        naturals.add(i)
            self.rows.append((frozenset(naturals), rest, jokers))
        for book in m.books:
            self.plays.append((frozenset(book.slots), book.var.index))
            for i in book.slots:
                self.places[i].add(book.var.index)
        self.plays += [(frozenset(slots), var.index) for slots, _, var in m.meld_plays]
        decisions = ({index for found in self.own.values() for index in found}
                     | {index for _, rest, _ in self.rows for index in rest} | {index for _, index in self.plays})
        # Every decision is a Boolean (HouseModel.bool), so its own domain is (0, 1): reading the
        # domains back from the model costs tens of microseconds a variable.
        self.decisions = sorted(decisions)
        self.free: set[int] = set(self.decisions)  # what the copy has free now
        self.around: tuple[int, ...] | None = None  # the values the copy's fixed decisions were written from

    def free_of(self, cards: frozenset[int], values: tuple[int, ...]) -> set[int]:
        """The decisions a neighbourhood frees around the turn ``values``."""
        free: set[int] = set()
        for i in cards:
            free |= self.own[i]
        for naturals, rest, jokers in self.rows:
            lying_here = any(values[index] for j in cards & jokers.keys() for index in jokers[j])
            if lying_here or not naturals.isdisjoint(cards):
                free |= rest
        broken = [(slots, index) for slots, index in self.plays if values[index] and not slots.isdisjoint(cards)]
        free.update(index for _, index in broken)
        loose = set(cards).union(*(slots for slots, _ in broken))
        loose.update(i for i, places in self.places.items()
                     if any(values[index] for index in places & free))
        free.update(index for slots, index in self.plays if slots <= loose)
        return free

    def fix_except(self, free: set[int], values: tuple[int, ...]) -> None:
        """Fix every decision but ``free`` to its value in ``values``; only what changes is written."""
        if values is self.around:
            changed = self.free ^ free
        else:
            changed = set(self.decisions)
            self.around = values
        variables = self.model.proto.variables
        for index in changed:
            domain = variables[index].domain
            domain.clear()
            domain.extend((0, 1) if index in free else (values[index], values[index]))
        self.free = set(free)
