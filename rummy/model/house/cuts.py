"""Redundant at-most-one rows between plays that cannot lie together (issue 28, lever b).

The model already says that a card lies in one place and that a position
of a run row is covered once, so two plays sharing a card are never both
laid; but three or more plays that meet pairwise without one card common
to all (three books of one rank out of four suits, three runs round the
corner of a circular row, three meld plays pairwise overlapping) may each
be taken at a half in the linear relaxation. A clique of such plays gets
one ``at most one`` row: redundant for the integer model, a tighter bound.

The cliques: per rank, every book of three naturals or more (two share a
suit of four) with the two-natural books that meet them all; per circular
run row, every run longer than half the row; among meld plays, cliques
grown greedily from each play (longest first). A clique is kept only where
no single card or position is shared by all its members (that row is in
the model already). (A first version grew greedy cliques over every run
row too: up to 5 s to build on the real-4p-late positions.)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cpsat import cp_model
from .books import Book
from .runs import RunGrid
from .state import HouseModel

# Off: measured (benchmarks/house_proof.py, variant "cuts"; benchmarks/README.md) the root bound moved on
# none of 101 positions and the work grew (deterministic time 58.3 against 50.6). A switch for measuring.
ENABLED = False
# At most this many rows from one family of plays: the rows are redundant, the first ones do the work.
MOST_ROWS = 100
# The greedy cliques cost a square of the plays: larger meld families go without.
MOST_MELD_PLAYS = 300

Play = tuple[int, cp_model.IntVar]  # the cards or positions a play takes (a bit each), its variable


def add_play_cuts(m: HouseModel) -> int:
    """Add the clique rows (where enabled); how many were added."""
    if not ENABLED:
        return 0
    rows = [row for rank in _ranks(m) if (row := _books_of_rank(m, rank))]
    rows += [row for grid in m.runs if (row := _long_runs(grid))]
    if len(m.meld_plays) <= MOST_MELD_PLAYS:
        rows += cliques([(_bits(slots), var) for slots, _, var in m.meld_plays])
    for row in rows:
        m.model.add_at_most_one(row)
    return len(rows)


def _ranks(m: HouseModel) -> set[int]:
    return {m.slot(b.slots[0]).card.rank for b in m.books}


def _books_of_rank(m: HouseModel, rank: int) -> list[cp_model.IntVar]:
    """Books of one rank that meet pairwise: every book of three naturals or more (two such books
    share a suit of four) and the two-natural books that meet them all and each other."""
    def naturals(book: Book) -> frozenset[int]:
        return frozenset(i for i in book.slots if not m.slot(i).is_joker)

    books = [b for b in m.books if m.slot(b.slots[0]).card.rank == rank]
    large = [b for b in books if len(naturals(b)) >= 3]
    if not large:
        return []
    members = list(large)
    for book in sorted((b for b in books if len(naturals(b)) < 3), key=lambda b: (-len(b.slots), b.slots)):
        if all(set(book.slots) & set(other.slots) for other in members):
            members.append(book)
    if len(members) < 3 or frozenset.intersection(*(frozenset(b.slots) for b in members)):
        return []  # one card common to all: that row is in the model already
    return [b.var for b in members]


def _long_runs(grid: RunGrid) -> list[cp_model.IntVar]:
    """Runs round a circular row longer than half of it meet pairwise."""
    if not _wraps(grid.nxt):
        return []  # segments of a row that does not wrap are intervals: meeting ones share a position
    half = len(grid.rank) // 2 + 1
    members = [(stretch, var) for stretch, var in grid.segments if len(stretch) >= half]
    if len(members) < 3 or frozenset.intersection(*(frozenset(s) for s, _ in members)):
        return []
    return [var for _, var in members]


def cliques(plays: Sequence[Play]) -> list[list[cp_model.IntVar]]:
    """Maximal sets of plays meeting pairwise with nothing common to all, grown greedily from each play."""
    order = sorted(range(len(plays)), key=lambda k: (-plays[k][0].bit_count(), k))
    found: set[frozenset[int]] = set()
    rows: list[list[cp_model.IntVar]] = []
    for seed in order:
        members = [seed]
        common = plays[seed][0]
        candidates = [k for k in order if k != seed and plays[k][0] & common]
        while candidates:
            chosen = candidates[0]
            members.append(chosen)
            common &= plays[chosen][0]
            candidates = [k for k in candidates[1:] if plays[k][0] & plays[chosen][0]]
        key = frozenset(members)
        if len(members) < 3 or common or key in found:
            continue  # with a card or position common to all, that row is in the model already
        found.add(key)
        rows.append([plays[k][1] for k in sorted(members)])
        if len(rows) >= MOST_ROWS:
            break
    return rows


def _bits(items: Sequence[int]) -> int:
    return sum(1 << i for i in set(items))


def _wraps(successor: dict[int, int]) -> bool:
    return any(after <= position for position, after in successor.items())
