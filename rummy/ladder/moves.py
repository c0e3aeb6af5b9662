"""Helpers the tile and lay-off rungs share: which plays a handful of cards can make, and a bounded search.

Nothing here reads the checker or a model: a play is whole when ``rummy.plays``
finds a reading of it, as a player sees it on the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator
from itertools import combinations
from typing import TypeVar

from ..cards import JOKER, SUITS, Card, rank_at
from ..plays import readings
from ..rules import Ruleset

Cards = tuple[Card, ...]
S = TypeVar("S")


def card_key(card: Card) -> tuple[int, str, int, str]:
    """Orders cards and tells jokers' stand-ins apart (Card equality ignores them)."""
    stand = card.stands_for
    return (card.rank, card.suit, stand.rank if stand else 0, stand.suit if stand else "")


def norm(cards: Iterable[Card]) -> Cards:
    """Cards in one fixed order, so that equal plays are equal tuples."""
    return tuple(sorted(cards, key=card_key))


def cards_key(cards: Cards) -> tuple[tuple[int, str, int, str], ...]:
    return tuple(card_key(c) for c in cards)


class Wholes:
    """``is_whole`` with a cache of its own, keyed by the cards and their stand-ins."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.seen: dict[tuple[tuple[int, str, int, str], ...], bool] = {}

    def __call__(self, cards: Cards) -> bool:
        cards = norm(cards)
        key = cards_key(cards)
        found = self.seen.get(key)
        if found is None:
            found = bool(readings(cards, self.rules))
            self.seen[key] = found
        return found


T = TypeVar("T")


def without(items: tuple[T, ...], gone: Iterable[T]) -> tuple[T, ...]:
    """``items`` less one of each of ``gone`` (which it must hold), the rest in order."""
    left = list(items)
    for item in gone:
        left.remove(item)
    return tuple(left)


def minus(cards: Cards, gone: Iterable[Card]) -> Cards:
    """``cards`` less ``gone`` (plain cards; a joker takes any joker, the plainest first)."""
    left = list(cards)
    for card in gone:
        for i, c in enumerate(left):
            if c == card and (c.stands_for is None or not card.is_joker):
                del left[i]
                break
        else:
            for i, c in enumerate(left):
                if c == card:
                    del left[i]
                    break
            else:
                raise ValueError(f"{card} is not among the cards")
    return tuple(left)


def contains(pool: Counter[Card], cards: Iterable[Card]) -> bool:
    need = Counter(c.plain() for c in cards)
    return all(pool[c] >= n for c, n in need.items())


def plays_from(pool: Counter[Card], rules: Ruleset, wholes: Wholes) -> list[Cards]:
    """Every whole play (books and runs, jokers filling gaps or standing in for cards held)
    that the plain cards of ``pool`` can make, each once."""
    jokers = pool[JOKER]
    naturals = {c for c, n in pool.items() if n > 0 and not c.is_joker}
    found: set[Cards] = set()
    # Books: distinct suits of one rank, jokers making up the rest.
    for rank in sorted({c.rank for c in naturals}):
        suits = [s for s in SUITS if Card(rank, s) in naturals]
        for k in range(1, len(suits) + 1):
            for chosen in combinations(suits, k):
                for j in range(0, jokers + 1):
                    if rules.book_min <= k + j <= rules.book_max:
                        found.add(norm([Card(rank, s) for s in chosen] + [JOKER] * j))
    # Runs: every window of every length; gaps are jokers, and spare jokers may stand in for held cards.
    for suit in SUITS:
        if not any(c.suit == suit for c in naturals):
            continue
        for length in range(rules.run_min, rules.run_max + 1):
            for window in rules.run_windows(length):
                cards = [Card(rank_at(p), suit) for p in window]
                need = Counter(cards)
                present = [c for c in need if pool[c] >= need[c]]
                missing = sum(need[c] for c in need if pool[c] < need[c])
                if missing > jokers or not present:
                    continue
                base = [c for c in cards if pool[c] >= need[c]]
                spare = jokers - missing
                for extra in range(0, min(spare, len(base) - 1) + 1):
                    for replaced in set(combinations(base, extra)):
                        kept = list(base)
                        for c in replaced:
                            kept.remove(c)
                        found.add(norm(kept + [JOKER] * (missing + extra)))
    return [cards for cards in sorted(found, key=cards_key) if wholes(cards)]


K = TypeVar("K", bound=Hashable)


class Temperatures:
    """Hot and warm cards read as the checker reads them (rules.md §4), over any card keys: of the
    copies of a card in the hand before the turn, min(hot, held) must be played; a card may be
    discarded unless every copy held is hot, or every copy held is warm."""

    def __init__(self, hand: Iterable[K], hot: Iterable[K], warm: Iterable[K]) -> None:
        self.held: Counter[Hashable] = Counter(hand)
        self.hot: Counter[Hashable] = Counter(hot)
        self.warm: Counter[Hashable] = Counter(warm)

    def hot_left_unplayed(self, left: Iterable[Hashable]) -> bool:
        """Whether a hand ``left`` at the end keeps a hot card that had to be played."""
        kept = Counter(left)
        return any(kept[c] > self.held[c] - min(n, self.held[c]) for c, n in self.hot.items())

    def discardable(self, card: Hashable) -> bool:
        return not (self.hot[card] and self.hot[card] >= self.held[card]) and \
            not (self.warm[card] and self.warm[card] >= self.held[card])


class Budget:
    """How many states a search may still expand (shared by the searches of one rung)."""

    def __init__(self, states: int) -> None:
        self.left = states

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return True


def depth_first(starts: Iterable[S], children: Callable[[S], Iterator[S]], key: Callable[[S], Hashable],
                budget: Budget, seen: set[Hashable], done: Callable[[S], bool] | None = None) -> Iterator[S]:
    """Every state reachable from ``starts`` (each once, ``seen`` shared between calls), depth first,
    while the budget lasts; stops after a state for which ``done`` says nothing better exists."""
    stack = list(starts)
    while stack:
        state = stack.pop()
        k = key(state)
        if k in seen:
            continue
        if not budget.take():
            return
        seen.add(k)
        yield state
        if done is not None and done(state):
            budget.left = 0
            return
        for child in children(state):
            if key(child) not in seen:
                stack.append(child)
