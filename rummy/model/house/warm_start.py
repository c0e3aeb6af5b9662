"""Starting points for the search, as values of the model's decisions.

- ``table_hint``: the table as it is, nothing played. For a melded mover
  that turn is legal unless a hot card must be played: the table stays, the
  hand stays, and the cold card with the highest penalty is discarded.
  CP-SAT repairs a hint that is not quite legal.
- ``turn_assignment``: any turn given as final plays per space (slots), the
  cards kept, the discard, the meld and the joker swaps, as 0/1 values of
  every placement, segment, book, hand, meld and swap variable; ``None``
  where the model cannot lay the turn out. ``rummy.model.house`` fixes the model to
  the greedy turn's values to complete it into a full solution.
"""

from __future__ import annotations

from ...plays import readings
from .context import row_position
from .runs import grids_of
from .state import HouseModel

# The row positions laid so far, per run grid (space, suit, layer).
Taken = dict[tuple[str, str, int], set[int]]


def table_hint(m: HouseModel) -> dict[int, int]:
    """Every decision's value (by variable index) in the turn that leaves the table as it is."""
    ctx = m.ctx
    chosen: set[int] = set()
    taken: Taken = {}
    for play in ctx.plays:
        if play.kind == "run":
            _lay_run(m, play.space, play.suit, dict(zip(play.slots, play.positions)), taken, chosen)
        else:
            _lay_book(m, play.space, play.slots, chosen)
    cold = [i for i in m.discard if i in m.keep]
    discard = max(cold, key=lambda i: (ctx.pen(m.slot(i)), i), default=None)
    for i, keep in m.keep.items():
        chosen.update([keep.index] if i != discard else [m.discard[i].index])
    return {index: 1 if index in chosen else 0 for index in _decisions(m)}


def turn_assignment(m: HouseModel, plays: dict[str, list[list[int]]], kept: set[int], discard: int | None,
                    meld: list[tuple[int, ...]], swaps: list[tuple[int, int]]) -> dict[int, int] | None:
    chosen: set[int] = set()
    taken: Taken = {}
    for space, final in plays.items():
        for slots in final:
            if not _lay_play(m, space, slots, taken, chosen):
                return None
    for i in kept:
        if i not in m.keep:
            return None
        chosen.add(m.keep[i].index)
    if discard is not None:
        if discard not in m.discard:
            return None
        chosen.add(m.discard[discard].index)
    laid = {frozenset(slots) for slots in meld}
    meld_vars = {frozenset(slots): var.index for slots, _, var in m.meld_plays}
    if not laid <= meld_vars.keys():
        return None
    chosen.update(meld_vars[slots] for slots in laid)
    for swap in swaps:
        if swap not in m.replace:
            return None
        chosen.add(m.replace[swap].index)
    decisions = _decisions(m) | set(meld_vars.values()) | {v.index for v in m.replace.values()}
    return {index: int(index in chosen) for index in decisions}


def _decisions(m: HouseModel) -> set[int]:
    """Where every card ends: placements, run segments, kept and discarded cards."""
    found = {v.index for vs in m.placements.values() for _, v in vs}
    found |= {v.index for g in m.runs for _, v in g.segments}
    found |= {v.index for v in m.keep.values()} | {v.index for v in m.discard.values()}
    return found


def _lay_play(m: HouseModel, space: str, slots: list[int], taken: Taken, chosen: set[int]) -> bool:
    ctx = m.ctx
    cards = tuple(ctx.slots[i].card for i in slots)
    found = readings(cards, ctx.rules)
    naturals = [c for c in cards if not c.is_joker]
    if len({c.rank for c in naturals}) == 1 and len(naturals) > 1:
        return _lay_book(m, space, tuple(slots), chosen)
    for reading in found:
        if reading.kind == "run":
            at = {i: row_position(p, ctx.rules) for i, p in zip(slots, reading.positions)}
            if _lay_run(m, space, naturals[0].suit, at, taken, chosen):
                return True
    return False


def _lay_run(m: HouseModel, space: str, suit: str, at: dict[int, int], taken: Taken, chosen: set[int]) -> bool:
    """Put a run's slots at their row positions in the first layer where those are free."""
    positions = set(at.values())
    for grid in grids_of(m, space, suit):
        used = taken.setdefault((grid.space, grid.suit, grid.layer), set())
        if not used.isdisjoint(positions):
            continue
        cells = [var.index for p in grid.order for slot, var in grid.cells[p] if at.get(slot) == p]
        segment = [var.index for stretch, var in grid.segments if set(stretch) == positions]
        if len(cells) != len(at) or not segment:
            continue
        used.update(positions)
        chosen.update(cells + segment[:1])
        return True
    return False


def _lay_book(m: HouseModel, space: str, slots: tuple[int, ...], chosen: set[int]) -> bool:
    for book in m.books:
        if book.space == space and set(book.slots) == set(slots):
            chosen.add(book.var.index)
            return True
    return False
