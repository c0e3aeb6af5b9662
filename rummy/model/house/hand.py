"""Hot, warm, the discard and going out (rules.md §5).

Hot cards end on the table (a hot card put in for a joker counts as played).
The discard is one card that is neither hot nor warm; a mover whose hand
still holds such a card must discard exactly one; a mover holding only warm
cards, or nothing, does not discard. A released joker is cold.
"""

from __future__ import annotations

from ..cpsat import cp_model
from .state import HouseModel


def add_hand_rules(m: HouseModel) -> None:
    for index, keep in m.keep.items():
        if m.slot(index).hot:
            m.model.add(keep == 0)
    discards = list(m.discard.values())
    if discards:
        m.model.add_at_most_one(discards)
        discarded = cp_model.LinearExpr.sum(discards)
        for index in m.discard:
            # Holding a card that may be discarded means discarding one.
            m.model.add(m.keep[index] <= discarded)
    if m.ctx.first_out_bonus > 0 and m.keep:
        m.goes_out = m.bool("goes_out")
        # One implication per card, not one sum: the search's linear relaxation then cannot go
        # nearly all the way out with half of every card kept (issue 12).
        for keep in m.keep.values():
            m.model.add_implication(m.goes_out, keep.Not())
        # And an empty hand goes out: a fact, not a choice (a run without an objective, such as
        # the greedy turn's completion, must not leave the bonus out).
        m.model.add(cp_model.LinearExpr.sum(list(m.keep.values())) + m.goes_out >= 1)
