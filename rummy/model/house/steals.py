"""Paid steals (rules.md §5): every final play holds at least as many payment
cards as stolen cards.

A card is stolen when it was in another player's space (not the mover's)
and ends in a different space. Payment cards are hand cards played this turn
that are neither meld cards nor put in for a joker (a released joker played
after melding pays). ``HouseModel.contribution`` gives each card's +1 / -1.

Books: one condition per book, enforced when the book is chosen (in the
melded branch the book list is already filtered exactly, see house/books).
Runs: one condition per segment of a row (house/runs), enforced when the
segment is laid, plus the same sum over the whole row, which is implied but
gives the search a much better bound.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cpsat import cp_model
from .runs import RunGrid
from .state import HouseModel

_AT_LEAST_ZERO = (0, 2**63 - 1)  # a linear constraint's domain for ">= 0"


def add_payment(m: HouseModel) -> None:
    if m.melding:
        for book in m.books:
            constant, terms = _total(m, book.slots, book.space)
            if terms or constant < 0:
                expr = cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [c for _, c in terms]) + constant
                m.model.add(expr >= 0).only_enforce_if(book.var)
    for grid in m.runs:
        _balance(m, grid)


def _total(m: HouseModel, slots: Iterable[int], space: str) -> tuple[int, list[tuple[cp_model.IntVar, int]]]:
    constant = 0
    terms: list[tuple[cp_model.IntVar, int]] = []
    for index in slots:
        c, t = m.contribution(index, space)
        constant += c
        terms += t
    return constant, terms


def _balance(m: HouseModel, grid: RunGrid) -> None:
    """Each run (segment) holds at least as many payment cards as stolen cards."""
    counts = {p: [(index, var, *m.contribution(index, grid.space)) for index, var in grid.cells[p]] for p in grid.order}
    negative = {p: any(constant < 0 or any(c < 0 for _, c in roles) for _, _, constant, roles in cells)
                for p, cells in counts.items()}
    if not any(negative.values()):
        return  # nothing can be stolen into these runs
    # What the card at each position counts (+1 pays, -1 stolen), as (variable, coefficient) terms:
    # every position's are variables of its own (its cells, its role values), so none merge.
    terms: dict[int, list[tuple[cp_model.IntVar, int]]] = {}
    for p, cells in counts.items():
        terms[p] = [(_role_at(m, grid, p, index, var, constant, roles), 1) if roles else (var, constant)
                    for index, var, constant, roles in cells if roles or constant]
    # Implied by the per-run conditions, but it gives the search a far better
    # bound: over all runs of the row together, payments cover steals.
    m.model.add(cp_model.LinearExpr.sum([c * v for held in terms.values() for v, c in held]) >= 0)
    # The segments' conditions go straight into the proto, as CpModel.add writes them (terms ordered by
    # variable): building tens of thousands of nested sums took most of this module's time.
    indexed = {p: [(v.index, c) for v, c in held] for p, held in terms.items()}
    constraints = m.model.proto.constraints
    for stretch, var in grid.segments:
        if any(negative[p] for p in stretch):
            held = sorted(term for p in stretch for term in indexed[p])
            constraint = constraints.add()
            constraint.enforcement_literal.append(var.index)
            linear = constraint.linear
            linear.vars.extend([index for index, _ in held])
            linear.coeffs.extend([coefficient for _, coefficient in held])
            linear.domain.extend(_AT_LEAST_ZERO)


def _role_at(m: HouseModel, grid: RunGrid, p: int, index: int, var: cp_model.IntVar, constant: int,
             roles: list[tuple[cp_model.IntVar, int]]) -> cp_model.IntVar:
    """The contribution of a card whose role is chosen (meld branch), 0 unless it lies here."""
    value = m.int_var(-1, 1, f"role_{grid.space}_{grid.suit}{p}_{index}")
    m.model.add(value == cp_model.LinearExpr.weighted_sum([v for v, _ in roles], [c for _, c in roles])
                + constant).only_enforce_if(var)
    m.model.add(value == 0).only_enforce_if(var.Not())
    return value
