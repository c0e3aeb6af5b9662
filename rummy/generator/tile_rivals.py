"""Tile rummy: other final tables at least as good as a floor, found by repeated solve and exclude.

The uniqueness check and the near count ask the same question: which final
tables, other than the best one, play at least ``floor`` tiles? The tile
model answers it without an objective: one CP-SAT model (``TileModel``)
with ``tiles played >= floor`` and the best table excluded; each solve
finds a table, which is decoded, counted and excluded in turn (every way
the model can hold it), until the model is infeasible (no more) or the cap
is reached. A feasibility search needs no proof of optimality, so this is
many times faster than solving for the best each time; the count is the
same (the tables found are the same set, in another order).
"""

from __future__ import annotations

from dataclasses import replace
from time import perf_counter

from ..model.tile import arrangement_signatures
from ..model.tile.cells import TileModel
from ..model.tile.decode import decode, to_play
from ..model.tile.table import read_setting
from ..position import Position
from ..vocabulary import Objective, SearchStatus
from .tile_arrangement import canonical
from .unique import Rivals


def tile_rivals(position: Position, best_after: Position, floor: float, cap: int, time_limit: float) -> Rivals:
    deadline = perf_counter() + time_limit
    setting = read_setting(position, Objective.TILES)
    model = TileModel(setting, frozenset(p.index for p in setting.plays))
    model.model.add(model.gain >= int(floor))
    for signature in arrangement_signatures(position, best_after):
        model.exclude(signature)
    seen = {canonical(best_after)}
    branches = 0
    count = 0
    while count < cap:
        remaining = deadline - perf_counter()
        if remaining <= 0:
            return Rivals(count, False, True, branches)
        result = model.solve(remaining, 1, 0)
        branches += result.branches
        if result.status == SearchStatus.INFEASIBLE:
            return Rivals(count, True, False, branches)
        if result.values is None:
            return Rivals(count, False, True, branches)
        plays = tuple(to_play(final, setting) for final in decode(setting, result.values))
        after = replace(position, table=plays if setting.melded else position.table + plays)
        key = canonical(after)
        if key in seen:
            return Rivals(count, False, False, branches)  # held in a way the exclusion did not foresee
        seen.add(key)
        count += 1
        for signature in arrangement_signatures(position, after):
            model.exclude(signature)
    return Rivals(count, False, False, branches)
