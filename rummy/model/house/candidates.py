"""Every whole play that can be built from a set of cards (House Rummy).

Used for the initial meld (house/meld): the plays a hand can lay. A *shape*
names a play by its natural cards and its number of jokers; which joker
fills which gap is left to the caller.

Shapes depend only on the ruleset, the naturals and the joker count, so
they are cached. (The table's final plays are not listed this way: with
jokers a full table has thousands of runs, see house/runs.)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ...cards import SUITS, Card, rank_at
from ...errors import RulesError
from ...rules import Ruleset


@dataclass(frozen=True)
class Shape:
    """A whole play up to the identity of its jokers."""

    naturals: frozenset[Card]
    jokers: int
    score: int

    @property
    def size(self) -> int:
        return len(self.naturals) + self.jokers


def play_shapes(rules: Ruleset, naturals: frozenset[Card], jokers: int) -> tuple[Shape, ...]:
    """Every whole play of ``naturals`` plus up to ``jokers`` jokers, in a fixed order."""
    if rules.copies != 1 or not rules.book_distinct_suits:
        raise RulesError("the House Rummy model needs one copy of each card and books of distinct suits")
    return _shapes(rules, naturals, min(jokers, rules.jokers))


@lru_cache(maxsize=256)
def _shapes(rules: Ruleset, naturals: frozenset[Card], jokers: int) -> tuple[Shape, ...]:
    scores: dict[tuple[frozenset[Card], int], int] = {}
    for key, score in _books(rules, naturals, jokers):
        scores[key] = max(score, scores.get(key, 0))
    for key in _runs(rules, naturals, jokers):
        # A 3-card play that reads as a run scores as a run (rules.md §5).
        scores[key] = max(5 * (len(key[0]) + key[1]), scores.get(key, 0))
    ordered = sorted(scores.items(), key=lambda item: (len(item[0][0]) + item[0][1], item[0][1], sorted(item[0][0])))
    return tuple(Shape(natural_set, count, score) for (natural_set, count), score in ordered)


def _books(rules: Ruleset, naturals: frozenset[Card], jokers: int) -> Iterator[tuple[tuple[frozenset[Card], int], int]]:
    by_rank: dict[int, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(card.rank, []).append(card)
    for cards in by_rank.values():
        cards.sort(key=lambda c: SUITS.index(c.suit))
        for size in range(rules.book_min, rules.book_max + 1):
            for joker_count in range(0, min(jokers, size - 1) + 1):
                for chosen in combinations(cards, size - joker_count):
                    if size > 4:
                        continue
                    yield (frozenset(chosen), joker_count), (10 if size == 3 else 5 * size)


def _runs(rules: Ruleset, naturals: frozenset[Card], jokers: int) -> Iterator[tuple[frozenset[Card], int]]:
    for suit in SUITS:
        present = {c.rank for c in naturals if c.suit == suit}
        if not present:
            continue
        for length in range(rules.run_min, rules.run_max + 1):
            for window in rules.run_windows(length):
                ranks = [rank_at(p) for p in window]
                if len(set(ranks)) != len(ranks):
                    continue
                inside = [r for r in ranks if r in present]
                gaps = length - len(inside)
                if gaps > jokers or not inside:
                    continue
                # A joker may also stand where an available natural would go,
                # leaving that natural free for another play.
                for extra in range(0, jokers - gaps + 1):
                    for dropped in combinations(inside, extra):
                        kept = [r for r in inside if r not in dropped]
                        if kept:
                            yield frozenset(Card(r, suit) for r in kept), gaps + extra

