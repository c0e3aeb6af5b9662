"""Plays (melds): whether a group of cards is whole, and how it reads.

A *reading* says what every card of a play stands for: a book of one rank,
or a run of one suit over consecutive positions. Jokers take the cards the
reading gives them. A play is whole when it has at least one reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Literal

from .cards import SUITS, Card, Deck, cards_notation, parse_cards, rank_at

if TYPE_CHECKING:  # rules -> family -> plays: the family scores plays by their readings
    from .rules import Ruleset


@dataclass(frozen=True)
class Reading:
    """What each card of a play stands for, in play order.

    ``kind`` is ``book`` or ``run``. For runs ``positions`` gives each
    stand-in's position in the run's order: rank, except that a high ace is
    14 (``high_or_low``) and a circular run counts on past 13.
    """

    kind: Literal["book", "run"]
    cards: tuple[Card, ...]
    stand_ins: tuple[Card, ...]
    positions: tuple[int, ...]

    def joker_stand_ins(self) -> tuple[Card, ...]:
        return tuple(s for c, s in zip(self.cards, self.stand_ins) if c.is_joker)

    def ordered(self) -> tuple[Card, ...]:
        """The play's cards in the order a player lays them out."""
        if self.kind == "book":
            order = sorted(range(len(self.cards)),
                           key=lambda i: (self.cards[i].is_joker, SUITS.index(self.stand_ins[i].suit)))
        else:
            order = sorted(range(len(self.cards)), key=lambda i: self.positions[i])
        return tuple(self.cards[i] for i in order)

    @property
    def ace_high(self) -> bool:
        """A run whose ace stands above the king (rules where that matters)."""
        return self.kind == "run" and any(p == 14 for p in self.positions)


class PlayName(str):
    """A play's name in plans, turn declarations and the table view: ``OWNER/INDEX``.

    ``ann/2`` is the second play of ann's space (or of ann's plays), ``table/3`` a
    shared tile table's third play, ``new/1`` a play laid this turn. A ``str``,
    so it is a dictionary key like any name; ``owner`` is what comes before the slash.
    """

    __slots__ = ()

    @classmethod
    def of(cls, owner: str, index: int) -> PlayName:
        return cls(f"{owner}/{index}")

    @property
    def owner(self) -> str:
        return self.partition("/")[0]

    @property
    def number(self) -> int:
        """The number after the slash, counted from 1."""
        return int(self.partition("/")[2])

    def __repr__(self) -> str:
        return f"PlayName({str(self)!r})"


@dataclass(frozen=True, eq=False)
class Play:
    """A group of cards laid together. Order does not matter for identity."""

    cards: tuple[Card, ...]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    @classmethod
    def from_notation(cls, text: str) -> Play:
        return cls(parse_cards(text))

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Play:
        return cls(tuple(cards))

    def ordered(self, rules: Ruleset) -> tuple[Card, ...]:
        """The cards as a player lays them out (runs in rank order with jokers where they
        stand, books by suit); a play that is not whole keeps its own order."""
        found = readings(self.cards, rules)
        return found[0].ordered() if found else self.cards

    def notation(self, rules: Ruleset | None = None, deck: Deck | None = None) -> str:
        """Printed in ``ordered`` order when the rules are given, else as written."""
        cards = self.ordered(rules) if rules is not None else self.cards
        return cards_notation(cards, deck or (rules.deck if rules else "cards"))

    def key(self) -> tuple[tuple[Card, str], ...]:
        """Identity up to the order of the cards (jokers' stand-ins count)."""
        return tuple(sorted((c, c.stands_for.notation() if c.stands_for else "") for c in self.cards))

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __repr__(self) -> str:
        return f"Play.from_notation({cards_notation(self.cards)!r})"


def settled_stand_ins(cards: tuple[Card, ...], rules: Ruleset) -> tuple[Card, ...] | None:
    """What the play's jokers stand for, where every reading of the play agrees (None: no jokers,
    not whole, or a joker's card left open, as in 7H 7S * or 5H 6H *)."""
    if not any(c.is_joker for c in cards):
        return None
    found = {reading.joker_stand_ins() for reading in readings(cards, rules)}
    return next(iter(found)) if len(found) == 1 else None


def jokers_undecided(found: tuple[Reading, ...]) -> bool:
    """Do these readings of one play leave a joker's card open (rules.md §6: a fixed joker must then say it)?

    True when the play reads as a run and also some other way, or as runs whose jokers stand for different cards.
    """
    runs = [r for r in found if r.kind == "run"]
    if not runs:
        return False
    if len(runs) < len(found):
        return True
    return len({r.joker_stand_ins() for r in runs}) > 1


def is_whole(cards: Iterable[Card], rules: Ruleset) -> bool:
    return bool(readings(tuple(cards), rules))


def readings(cards: tuple[Card, ...], rules: Ruleset) -> tuple[Reading, ...]:
    """Every reading of ``cards`` as a whole play under ``rules``.

    A joker that carries a stand-in (``*=R7``) only takes readings in which
    it stands for that card.
    """
    cards = tuple(cards)
    # Card equality ignores stand-ins, so the cache key must spell them out.
    return _readings(cards, tuple(c.stands_for for c in cards), rules)


@lru_cache(maxsize=65536)
def _readings(cards: tuple[Card, ...], stand_in_key: tuple[object, ...], rules: Ruleset) -> tuple[Reading, ...]:
    found = [r for r in _book_readings(cards, rules) + _run_readings(cards, rules) if _respects_stand_ins(r)]
    return tuple(found)


def _respects_stand_ins(reading: Reading) -> bool:
    return all(
        card.stands_for is None or card.stands_for == stand_in
        for card, stand_in in zip(reading.cards, reading.stand_ins)
    )


def _book_readings(cards: tuple[Card, ...], rules: Ruleset) -> list[Reading]:
    naturals = [c for c in cards if not c.is_joker]
    n = len(cards)
    if not naturals or not rules.book_min <= n <= rules.book_max:
        return []
    rank = naturals[0].rank
    if any(c.rank != rank for c in naturals):
        return []
    counts = Counter(c.suit for c in naturals)
    if any(v > rules.copies for v in counts.values()):
        return []
    if rules.book_distinct_suits and any(v > 1 for v in counts.values()):
        return []
    jokers = [i for i, c in enumerate(cards) if c.is_joker]
    if rules.book_distinct_suits:
        free_suits = [s for s in SUITS if s not in counts]
    else:
        free_suits = [s for s in SUITS for _ in range(rules.copies - counts.get(s, 0))]
    if len(jokers) > len(free_suits):
        return []
    results: list[Reading] = []
    distinguishable = any(cards[i].stands_for is not None for i in jokers)
    for assignment in _joker_suit_choices(jokers, free_suits, rank, distinguishable):
        stand_ins = tuple(assignment.get(i, c) for i, c in enumerate(cards))
        results.append(Reading("book", cards, stand_ins, tuple(rank for _ in cards)))
    return results


def _joker_suit_choices(jokers: list[int], free_suits: list[str], rank: int,
                        distinguishable: bool) -> Iterator[dict[int, Card]]:
    """Suits for the jokers of a book, one reading per distinct assignment."""
    choose = permutations if distinguishable else combinations
    for chosen in sorted(set(choose(free_suits, len(jokers)))):
        yield {joker: Card(rank, suit) for joker, suit in zip(jokers, chosen)}


def _run_readings(cards: tuple[Card, ...], rules: Ruleset) -> list[Reading]:
    naturals = [(i, c) for i, c in enumerate(cards) if not c.is_joker]
    n = len(cards)
    if not naturals or not rules.run_min <= n <= rules.run_max:
        return []
    suit = naturals[0][1].suit
    if any(c.suit != suit for _, c in naturals):
        return []
    jokers = [i for i, c in enumerate(cards) if c.is_joker]
    results: list[Reading] = []
    seen: set[tuple[int, ...]] = set()
    for window in rules.run_windows(n):
        for placement in _place_naturals(naturals, window, rules):
            free = [p for p in window if p not in placement.values()]
            distinguishable = any(cards[i].stands_for is not None for i in jokers)
            for joker_positions in _joker_positions(free, len(jokers), distinguishable):
                positions = [0] * n
                for i, p in placement.items():
                    positions[i] = p
                for i, p in zip(jokers, joker_positions):
                    positions[i] = p
                key = tuple(positions)
                if key in seen:
                    continue
                seen.add(key)
                stand_ins = tuple(
                    cards[i] if not cards[i].is_joker else Card(rank_at(positions[i]), suit) for i in range(n)
                )
                results.append(Reading("run", cards, stand_ins, key))
    return results


def _place_naturals(naturals: list[tuple[int, Card]], window: tuple[int, ...],
                    rules: Ruleset) -> Iterator[dict[int, int]]:
    """Assign each natural card a distinct position of the window matching its rank."""
    slots: dict[int, list[int]] = {}
    for p in window:
        slots.setdefault(rank_at(p), []).append(p)
    used: set[int] = set()
    placement: dict[int, int] = {}

    def walk(k: int) -> Iterator[dict[int, int]]:
        if k == len(naturals):
            yield dict(placement)
            return
        index, card = naturals[k]
        for p in slots.get(card.rank, []):
            if p in used:
                continue
            used.add(p)
            placement[index] = p
            yield from walk(k + 1)
            used.discard(p)
            del placement[index]

    # Identical naturals would only permute the same positions: keep one order.
    yield from _dedupe(walk(0), naturals)


def _dedupe(placements: Iterable[dict[int, int]], naturals: list[tuple[int, Card]]) -> Iterator[dict[int, int]]:
    seen: set[tuple[tuple[Card, int], ...]] = set()
    for placement in placements:
        key = tuple(sorted((naturals_card, placement[i]) for i, naturals_card in naturals))
        if key not in seen:
            seen.add(key)
            yield placement


def _joker_positions(free: list[int], count: int, distinguishable: bool) -> Iterator[tuple[int, ...]]:
    """Positions for the jokers: combinations when they are interchangeable."""
    if count > len(free):
        return
    yield from (permutations if distinguishable else combinations)(free, count)
