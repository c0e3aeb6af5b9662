"""How hand cards can grow the plays of an extend-only table, and the new plays they make.

Robber Rummy and lay-off rummy never rearrange the table: a play only gains
cards, at the ends of a run or more cards of a book's rank (rules.md §7,
§8). So the ways one play can grow are a short list, and a turn is a choice
of at most one growth per play plus some new plays, each hand card used once
(``extend/select``).

A growth or new play is a sorted tuple of hand cards (plain: jokers without
stand-ins). Two paths produce them:

- natural cards only (Robber always; lay-off rummy without jokers): a run
  grows by a chain of hand cards below its lowest and above its highest
  position; a book by more cards of its rank. Fast, because the stock
  comparison of the Robber draw phase calls this for every unseen card.
- with jokers (lay-off variation ``jokers = 2``): every window of ranks the
  ace rule allows is tried; ranks the hand cannot supply are filled with
  jokers (the play's own jokers may change meaning: jokers are flexible).

Everything returned is whole under ``plays.readings`` (the tests check this
against both paths); the caller never needs to re-check.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

from ...cards import JOKER, SUITS, Card, rank_at
from ...plays import readings
from ...rules import Ruleset
from ...vocabulary import Ace

Cards = tuple[Card, ...]


def growths(base: Cards, hand: Counter[Card], rules: Ruleset) -> list[Cards]:
    """Every distinct non-empty multiset of hand cards that keeps ``base`` whole when added."""
    plain = tuple(sorted(c.plain() for c in base))
    found: set[Cards] = set()
    naturals = [c for c in plain if not c.is_joker]
    if not naturals:
        return []
    if hand[JOKER] or len(naturals) < len(plain):
        _joker_runs(plain, hand, rules, found)
        _books(plain, hand, rules, found, with_jokers=True)
    else:
        _natural_run_growths(plain, hand, rules, found)
        _books(plain, hand, rules, found, with_jokers=False)
    return sorted(found)


def new_plays(hand: Counter[Card], rules: Ruleset) -> list[Cards]:
    """Every distinct whole play that can be laid from the hand alone."""
    found: set[Cards] = set()
    if hand[JOKER]:
        _joker_runs((), hand, rules, found)
        _books((), hand, rules, found, with_jokers=True)
    else:
        _natural_new_runs(hand, rules, found)
        _books((), hand, rules, found, with_jokers=False)
    return sorted(found)


# ------------------------------------------------------------------ run frames
def _position_bounds(rules: Ruleset) -> tuple[int | None, int | None]:
    """Lowest and highest run position; circular runs wrap, so they have none."""
    if rules.ace == Ace.LOW:
        return 1, 13
    if rules.ace == Ace.HIGH_OR_LOW:
        return 1, 14
    return None, None


# ------------------------------------------------------------ natural runs
def _natural_run_growths(base: Cards, hand: Counter[Card], rules: Ruleset, found: set[Cards]) -> None:
    suit = base[0].suit
    if any(c.suit != suit for c in base):
        return
    low_bound, high_bound = _position_bounds(rules)
    room = rules.run_max - len(base)
    if room <= 0:
        return
    for reading in readings(base, rules):
        if reading.kind != "run":
            continue
        down = _chain(min(reading.positions) - 1, -1, low_bound, suit, hand, room)
        up = _chain(max(reading.positions) + 1, +1, high_bound, suit, hand, room)
        for i in range(len(down) + 1):
            for j in range(len(up) + 1):
                if not 0 < i + j <= room:
                    continue
                added = down[:i] + up[:j]
                # A..K..A needs two aces: the chains were built one card at a time.
                if len(added) > 1 and any(n > hand[c] for c, n in Counter(added).items()):
                    continue
                found.add(tuple(sorted(added)))


def _chain(start: int, step: int, bound: int | None, suit: str, hand: Counter[Card], room: int) -> list[Card]:
    """Hand cards at consecutive positions from ``start`` outwards."""
    chain: list[Card] = []
    position = start
    while len(chain) < room and (bound is None or (position >= bound if step < 0 else position <= bound)):
        card = Card(rank_at(position), suit)
        if hand[card] <= 0:
            break
        chain.append(card)
        position += step
    return chain


def _natural_new_runs(hand: Counter[Card], rules: Ruleset, found: set[Cards]) -> None:
    _, high_bound = _position_bounds(rules)
    suits = {c.suit for c in hand if hand[c] > 0}
    last_start = 13 if high_bound is None else high_bound - rules.run_min + 1
    for suit in SUITS:
        if suit not in suits:
            continue
        for start in range(1, last_start + 1):
            run: list[Card] = []
            position = start
            while len(run) < rules.run_max and (high_bound is None or position <= high_bound):
                card = Card(rank_at(position), suit)
                if hand[card] <= run.count(card):
                    break
                run.append(card)
                position += 1
                if len(run) >= rules.run_min:
                    found.add(tuple(sorted(run)))


# ------------------------------------------------------------- joker runs
def _joker_runs(base: Cards, hand: Counter[Card], rules: Ruleset, found: set[Cards]) -> None:
    base_naturals = [c for c in base if not c.is_joker]
    base_jokers = len(base) - len(base_naturals)
    suits = {c.suit for c in base_naturals}
    if len(suits) > 1:
        return
    candidate_suits = sorted(suits) if suits else [s for s in SUITS if any(c.suit == s and hand[c] > 0 for c in hand)]
    base_ranks = Counter(c.rank for c in base_naturals)
    hand_jokers = hand[JOKER]
    shortest = max(len(base) + 1, rules.run_min)
    for suit in candidate_suits:
        for length in range(shortest, rules.run_max + 1):
            for window in rules.run_windows(length):
                missing = Counter(rank_at(p) for p in window)
                missing.subtract(base_ranks)
                if any(n < 0 for n in missing.values()):
                    continue
                coverable: list[int] = []
                must_be_jokers = 0
                for rank, need in missing.items():
                    take = min(need, hand[Card(rank, suit)])
                    coverable += [rank] * take
                    must_be_jokers += need - take
                for extra_jokers in range(hand_jokers + 1):
                    free = base_jokers + extra_jokers - must_be_jokers
                    if free < 0 or free > len(coverable):
                        continue
                    for dropped in set(combinations(coverable, free)):
                        used = Counter(coverable)
                        used.subtract(dropped)
                        added = [Card(r, suit) for r, n in used.items() for _ in range(n)] + [JOKER] * extra_jokers
                        if not added or (not base_naturals and len(added) == extra_jokers):
                            continue
                        found.add(tuple(sorted(added)))


# ------------------------------------------------------------------- books
def _books(base: Cards, hand: Counter[Card], rules: Ruleset, found: set[Cards], with_jokers: bool) -> None:
    base_naturals = [c for c in base if not c.is_joker]
    base_jokers = len(base) - len(base_naturals)
    ranks = {c.rank for c in base_naturals}
    if len(ranks) > 1:
        return
    candidate_ranks = sorted(ranks) if ranks else sorted({c.rank for c in hand if not c.is_joker and hand[c] > 0})
    in_base = Counter(c.suit for c in base_naturals)
    per_suit = 1 if rules.book_distinct_suits else rules.copies
    hand_jokers = hand[JOKER] if with_jokers else 0
    for rank in candidate_ranks:
        limits = [max(0, min(hand[Card(rank, s)], per_suit - in_base[s])) for s in SUITS]
        for counts in product(*(range(n + 1) for n in limits)):
            naturals = len(base_naturals) + sum(counts)
            if naturals == 0:
                continue
            for extra_jokers in range(hand_jokers + 1):
                added_count = sum(counts) + extra_jokers
                size = len(base) + added_count
                if added_count == 0 or not rules.book_min <= size <= rules.book_max:
                    continue
                if base_jokers + extra_jokers > 4 * per_suit - naturals:
                    continue
                added = [Card(rank, s) for s, n in zip(SUITS, counts) for _ in range(n)] + [JOKER] * extra_jokers
                found.add(tuple(sorted(added)))
