"""Whole books: every book that can be laid, chosen per space.

A book has 3..4 cards of one rank in distinct suits, jokers filling in. A
play of one natural and two jokers also reads as a run and scores as one, so
it is left to the run grid (house/runs); books here have two naturals or
more. Each book is listed with its actual joker slots, and only in the
spaces where its steals could be paid (a book needs at least as many cards
that may pay as cards stolen into it).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ...cards import SUITS
from ..cpsat import cp_model
from .state import HouseModel


@dataclass(frozen=True)
class Book:
    space: str
    slots: tuple[int, ...]
    score: int
    var: cp_model.IntVar


def book_shapes(m: HouseModel, allowed_anywhere: set[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every book of the available cards as (slots, score)."""
    ctx = m.ctx
    rules = ctx.rules
    by_rank: dict[int, list[int]] = {}
    jokers = [i for i in sorted(allowed_anywhere) if ctx.slots[i].is_joker]
    for i in sorted(allowed_anywhere,
                    key=lambda i: (ctx.slots[i].card.rank, SUITS.index(ctx.slots[i].card.suit or "S"))):
        if not ctx.slots[i].is_joker:
            by_rank.setdefault(ctx.slots[i].card.rank, []).append(i)
    shapes = []
    for naturals in by_rank.values():
        for size in range(rules.book_min, min(rules.book_max, 4) + 1):
            for joker_count in range(0, min(len(jokers), size - 2) + 1):
                for chosen in combinations(naturals, size - joker_count):
                    for joker_slots in combinations(jokers, joker_count):
                        shapes.append((chosen + joker_slots, 10 if size == 3 else 5 * size))
    return shapes


def add_books(m: HouseModel, allowed: dict[str, set[int]]) -> None:
    everywhere = set().union(*allowed.values()) if allowed else set()
    # Each card's facts once, not once per book it may lie in.
    pays = {i: m.may_pay(i) for i in everywhere}
    steals = {(i, space): m.may_be_foreign(i, space) and not m.releasable(i)
              for i in everywhere for space in m.ctx.spaces}
    for slots, score in book_shapes(m, everywhere):
        for space in m.ctx.spaces:
            if not all(i in allowed[space] for i in slots):
                continue
            payers = sum(pays[i] for i in slots)
            stolen = sum(steals[i, space] for i in slots)
            if payers < stolen:
                continue
            var = m.bool(f"book_{space}_{'_'.join(map(str, slots))}")
            for i in slots:
                m.place(i, space, var)
            m.score_terms.setdefault(space, []).append((var, score))
            m.books.append(Book(space, slots, score, var))
