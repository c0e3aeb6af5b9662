"""Conservation (rules.md §4): every card ends in exactly one place.

Table cards stay on the table, except a joker released by replacement, which
is a hand card from then on. A hand card ends on the table, in the hand, or
on the discard pile (``discard`` exists only for cards that may be
discarded: house/hand). In the meld branch the card's role accounts for it
being on the table: payment, meld card, or a card put in for a joker.
"""

from __future__ import annotations

from ..cpsat import Expression, cp_model
from .state import HouseModel


def add_conservation(m: HouseModel) -> None:
    for slot in m.ctx.slots:
        index = slot.index
        on_table = m.on_table(index)
        if not slot.from_hand and index not in m.released:
            m.model.add(on_table == 1)
            continue
        m.keep[index] = m.bool(f"keep_{index}")
        if slot.cold or index in m.released:
            m.discard[index] = m.bool(f"discard_{index}")
        rest = [m.keep[index]] + ([m.discard[index]] if index in m.discard else [])
        m.model.add(on_table + cp_model.LinearExpr.sum(rest) == 1)
        if m.melding:
            _roles(m, index, on_table)


def _roles(m: HouseModel, index: int, on_table: Expression) -> None:
    roles = [m.pay[index], m.meld[index]]
    roles += [v for (joker, card), v in m.replace.items() if card == index]
    if index in m.released:
        # A joker that stays on the table keeps its place in the accounts.
        m.model.add(on_table == 1 - m.released[index] + cp_model.LinearExpr.sum(roles))
    else:
        m.model.add(on_table == cp_model.LinearExpr.sum(roles))
