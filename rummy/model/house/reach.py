"""Which cards may end in which space: a filter that keeps the model small.

Hand cards and the cards of the mover's own space may go anywhere; a
space's own cards may stay. A card from another player's space may only be
stolen into a play that also holds a card able to pay for it: a hand card
of its suit (runs) or rank (books), or a joker the mover can play. The
filter only removes placements that can never be legal; the payment rule
itself is enforced in house/steals.
"""

from __future__ import annotations

from .state import HouseModel


def reachable(m: HouseModel) -> dict[str, set[int]]:
    ctx = m.ctx
    payers = [i for i in range(len(ctx.slots)) if m.may_pay(i)]
    joker_payer = any(ctx.slots[i].is_joker for i in payers)
    suits = {ctx.slots[i].card.suit for i in payers if not ctx.slots[i].is_joker}
    ranks = {ctx.slots[i].card.rank for i in payers if not ctx.slots[i].is_joker}
    allowed: dict[str, set[int]] = {}
    for space in ctx.spaces:
        here = set()
        for slot in ctx.slots:
            if not m.may_be_foreign(slot.index, space) or m.releasable(slot.index):
                here.add(slot.index)
            elif slot.is_joker:
                if payers:
                    here.add(slot.index)
            elif joker_payer or slot.card.suit in suits or slot.card.rank in ranks:
                here.add(slot.index)
        allowed[space] = here
    return allowed
