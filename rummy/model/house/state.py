"""The CP-SAT model of one House Rummy turn, shared by the constraint modules.

A turn is solved in one of two *branches*:

- ``melded``: the mover had melded before this turn. Every hand card that
  ends on the table pays (rules.md §5), so payment is fixed per card.
- ``meld``: the mover melds this turn. Hand cards then take a *role*: meld
  card, joker replacement, or payment; released jokers become hand cards.

(An unmelded mover who does not meld changes nothing but jokers; that branch
is searched without CP-SAT, in ``house/replacement``.)

Each module adds the variables and constraints of one rule to a
``HouseModel``; placement variables say where every card ends:
``placements[slot]`` lists ``(space, var)`` for every spot on the table.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cpsat import Expression, cp_model
from .context import Slot, TurnContext

if TYPE_CHECKING:  # they build on this module
    from .books import Book
    from .runs import RunGrid

_BOOLEAN = cp_model.Domain(0, 1)


@dataclass
class HouseModel:
    ctx: TurnContext
    branch: str  # "melded" or "meld"
    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    placements: dict[int, list[tuple[str, cp_model.IntVar]]] = field(default_factory=dict)
    keep: dict[int, cp_model.IntVar] = field(default_factory=dict)
    discard: dict[int, cp_model.IntVar] = field(default_factory=dict)
    # Roles (meld branch only): a hand card on the table pays, is a meld card,
    # or went in for a joker; a table joker may be released to the hand.
    pay: dict[int, cp_model.IntVar] = field(default_factory=dict)
    meld: dict[int, cp_model.IntVar] = field(default_factory=dict)
    replace: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (joker slot, card slot)
    released: dict[int, cp_model.IntVar] = field(default_factory=dict)
    meld_plays: list[tuple[tuple[int, ...], int, cp_model.IntVar]] = field(default_factory=list)
    # Filled by house/runs and house/books: score of every space after the turn.
    score_terms: dict[str, list[tuple[cp_model.IntVar, int]]] = field(default_factory=dict)
    # The spite baseline may move with replacements (house/replacement).
    baseline_terms: dict[str, list[tuple[cp_model.IntVar, int]]] = field(default_factory=dict)
    goes_out: cp_model.IntVar | None = None
    variables: list[cp_model.IntVar] = field(default_factory=list)
    # Filled by house/runs and house/books for the tie-break and for reading the answer.
    runs: list[RunGrid] = field(default_factory=list)
    books: list[Book] = field(default_factory=list)

    # ----------------------------------------------------------- helpers
    @property
    def melding(self) -> bool:
        return self.branch == "meld"

    def bool(self, name: str = "") -> cp_model.IntVar:
        # What ``CpModel.new_bool_var`` does, with one Domain for all: a model has tens of thousands.
        var = cp_model.IntVar(self.model.proto).with_name(name).with_domain(_BOOLEAN)
        self.variables.append(var)
        return var

    def int_var(self, low: int, high: int, name: str = "") -> cp_model.IntVar:
        var = self.model.new_int_var(low, high, name)
        self.variables.append(var)
        return var

    def slot(self, index: int) -> Slot:
        return self.ctx.slots[index]

    def place(self, index: int, space: str, var: cp_model.IntVar) -> None:
        self.placements.setdefault(index, []).append((space, var))

    def on_table(self, index: int) -> Expression:
        return cp_model.LinearExpr.sum([v for _, v in self.placements.get(index, [])])

    def in_space(self, index: int, space: str) -> Expression:
        return cp_model.LinearExpr.sum([v for s, v in self.placements.get(index, []) if s == space])

    # ``bool`` below names the method that makes a Boolean variable, hence ``builtins.bool``.
    def releasable(self, index: int) -> builtins.bool:
        return index in self.released

    def contribution(self, index: int, space: str) -> tuple[int, list[tuple[cp_model.IntVar, int]]]:
        """What one card counts towards paying for steals in a play of ``space``.

        +1 for a payment card, -1 for a stolen card, 0 otherwise; returned as a
        constant and role terms (the roles are fixed in the melded branch).
        """
        slot = self.slot(index)
        mover = self.ctx.mover
        foreign = not slot.from_hand and slot.origin not in (space, mover)
        if not self.melding:
            return (1 if slot.from_hand else -1 if foreign else 0), []
        terms: list[tuple[cp_model.IntVar, int]] = []
        constant = 0
        if slot.from_hand:
            if index in self.pay:
                terms.append((self.pay[index], 1))
            for (joker, card), var in self.replace.items():
                if card == index and self.slot(joker).origin not in (space, mover):
                    terms.append((var, -1))
        elif slot.is_joker and index in self.released:
            # A released joker is a hand card; one left on the table keeps its origin.
            if index in self.pay:
                terms.append((self.pay[index], 1))
            if foreign:
                constant -= 1
                terms.append((self.released[index], 1))
        elif foreign:
            constant -= 1
        return constant, terms

    def may_pay(self, index: int) -> builtins.bool:
        """Could this card count as payment (the filter for possible plays)?"""
        slot = self.slot(index)
        return slot.from_hand or (self.melding and index in self.released)

    def may_be_foreign(self, index: int, space: str) -> builtins.bool:
        slot = self.slot(index)
        return not slot.from_hand and slot.origin not in (space, self.ctx.mover)
