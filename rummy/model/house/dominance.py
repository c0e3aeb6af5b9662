"""Redundant constraints that only cut turns no better than others.

An opponent's space that neither loses nor receives a card keeps its score at
best (no spite), so the turn that leaves its plays exactly as they were is at
least as good, and the tie-break prefers it. Saying so spares the search
from re-forming untouched opponents' spaces. (A partner's space is different:
re-forming it may raise the side's score.)
"""

from __future__ import annotations

from ..cpsat import Expression, cp_model
from .context import TablePlay
from .runs import grids_of
from .state import HouseModel


def add_untouched_spaces(m: HouseModel) -> None:
    ctx = m.ctx
    for space in ctx.spaces:
        if ctx.sign[space] > 0 or not any(play.space == space for play in ctx.plays):
            continue
        own = {s.index for s in ctx.table if s.origin == space}
        if any(i in m.released for i in own) or any(ctx.slots[j].origin == space for j, _ in m.replace):
            continue
        staying = [v for i in own for s, v in m.placements.get(i, []) if s == space]
        entering = [v for i, places in m.placements.items() if i not in own for s, v in places if s == space]
        # cards that left plus cards that came: 0 when the space is untouched
        flow = cp_model.LinearExpr.sum(entering) + len(own) - cp_model.LinearExpr.sum(staying)
        for play in ctx.plays:
            if play.space != space:
                continue
            kept = _original(m, play)
            if kept is not None:
                m.model.add(kept >= 1 - flow)


def _original(m: HouseModel, play: TablePlay) -> Expression | None:
    """A 0/1 expression: the play lies on the table exactly as before."""
    if play.overlaps:
        return None
    if play.kind == "book":
        same = [b.var for b in m.books if b.space == play.space and set(b.slots) == set(play.slots)]
        return same[0] if same else None
    stretch = set(play.positions)
    same = [v for g in grids_of(m, play.space, play.suit) for s, v in g.segments if set(s) == stretch]
    return cp_model.LinearExpr.sum(same) if same else None
