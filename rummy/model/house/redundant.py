"""Redundant rows the findings of issue 28 suggest (lever c): going out counted, hand jokers ordered.

- Going out leaves the hand empty with at most one card discarded, so at
  least all but one hand card (released jokers included) lie on the table:
  ``cards on the table >= (hand - 1) * goes_out``. The per-card
  implications of house/hand only give ``hand * goes_out - discards``,
  which the relaxation meets with a fractional discard on every card.
- Two jokers in the hand with the same hot and warm marks are the same
  card to every rule and to the tie-break, so every turn has a twin with
  the two swapped; the lower slot goes first: its state (2 on the table,
  1 kept, 0 discarded) is at least the other's.
"""

from __future__ import annotations

from itertools import pairwise

from ..cpsat import Expression, cp_model
from .state import HouseModel

# Off: measured (benchmarks/house_proof.py, variant "redundant"; benchmarks/README.md) the root bound moved
# on 1 of 101 positions and the time was neutral (median ratio 1.00); the joker order could also refuse a
# greedy start that uses the other twin. A switch for measuring.
ENABLED = False


def add_redundant(m: HouseModel) -> int:
    """Add the rows (where enabled); how many were added."""
    if not ENABLED:
        return 0
    added = 0
    if m.goes_out is not None and len(m.keep) > 1:
        on_table = cp_model.LinearExpr.sum([m.on_table(i) for i in m.keep])
        m.model.add(on_table >= (len(m.keep) - 1) * m.goes_out)
        added += 1
    jokers = [s for s in m.ctx.hand if s.is_joker and s.index in m.keep]
    for first, second in pairwise(jokers):
        if (first.hot, first.warm) == (second.hot, second.warm):
            m.model.add(_state(m, first.index) >= _state(m, second.index))
            added += 1
    return added


def _state(m: HouseModel, index: int) -> Expression:
    return 2 * m.on_table(index) + m.keep[index]
