"""A starting point for the search: the table as it is, nothing played.

For a melded mover that turn is legal unless a hot card must be played: the
table stays, the hand stays, and the cold card with the highest penalty is
discarded. CP-SAT repairs a hint that is not quite legal.
"""

from __future__ import annotations

from .house_runs import grids_of
from .house_state import HouseModel


def add_table_hint(m: HouseModel) -> None:
    ctx = m.ctx
    chosen: set[int] = set()
    taken: dict[tuple[str, str, int], set[int]] = {}
    for play in ctx.plays:
        if play.kind == "run":
            grid = _free_layer(m, play, taken)
            if grid is None:
                continue
            at = dict(zip(play.slots, play.positions))
            for p in grid.order:
                for slot, var in grid.cells[p]:
                    if at.get(slot) == p:
                        chosen.add(var.index)
            positions = set(at.values())
            for stretch, var in grid.segments:
                if set(stretch) == positions:
                    chosen.add(var.index)
        else:
            for book in m.books:
                if book.space == play.space and set(book.slots) == set(play.slots):
                    chosen.add(book.var.index)
    cold = [i for i in m.discard if i in m.keep]
    discard = max(cold, key=lambda i: (ctx.pen(m.slot(i)), i), default=None)
    for i, keep in m.keep.items():
        chosen.update([keep.index] if i != discard else [m.discard[i].index])
    placement_vars = {v.index for vs in m.placements.values() for _, v in vs}
    placement_vars |= {v.index for g in m.runs for _, v in g.segments}
    placement_vars |= {v.index for v in m.keep.values()} | {v.index for v in m.discard.values()}
    for var in m.variables:
        if var.index in placement_vars:
            m.model.add_hint(var, 1 if var.index in chosen else 0)


def _free_layer(m: HouseModel, play, taken):
    """The first layer of the play's row where its positions are still free."""
    for grid in grids_of(m, play.space, play.suit):
        used = taken.setdefault((grid.space, grid.suit, grid.layer), set())
        if used.isdisjoint(play.positions):
            used.update(play.positions)
            return grid
    return None
