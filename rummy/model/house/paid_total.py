"""One row over the whole table: payment cards cover stolen cards (issue 28, lever c).

Every final play holds at least as many payment cards as stolen cards
(house/steals), so the whole table does too. The per-play rows are
enforced by the play's literal, which the linear relaxation reads at the
play's fraction, and in the meld branch a hand card's payment role counts
in every play it lies in at a fraction: the relaxation then pays for many
steals with one card. The total row counts each payment card once.

Kept valid by counting what can only be too generous: a card put in for a
joker loses its payment where the joker came from another space (left out:
it only lowers the true total), a released joker counts its payment role
only, and a table card counts -1 wherever it may land as a stolen card.
"""

from __future__ import annotations

from ..cpsat import Expression, cp_model
from .state import HouseModel

# A switch for measuring (benchmarks/house_proof.py, variant "paid"). On: in the meld branch its root bound
# falls (unmelded-10-11-03 548 -> 428, -04 447 -> 253) and the unmelded-10-11 positions are proven sooner
# (one CP-SAT worker, 10 s cap: 9 of 10 proven against 8, p90 6.7 s against 10 s, total 30 s against 42 s).
ENABLED = True
# In the melded branch every hand card on the table pays and house/steals already sums each run row with
# fixed weights: the row measured neutral there (median 1.04 times base), so it is left out.
MELDED_TOO = False


def add_paid_total(m: HouseModel) -> bool:
    """Add the row (where enabled and a card may be stolen); whether it did."""
    if not ENABLED or not (m.melding or MELDED_TOO):
        return False
    stolen: list[cp_model.IntVar] = []
    for slot in m.ctx.table:
        if m.releasable(slot.index):
            continue  # left on the table it is stolen unless released; released it pays: counted by its role
        stolen += [var for space, var in m.placements.get(slot.index, []) if m.may_be_foreign(slot.index, space)]
    if not stolen:
        return False
    m.model.add(_payers(m) >= cp_model.LinearExpr.sum(stolen))
    return True


def _payers(m: HouseModel) -> Expression:
    if m.melding:
        return cp_model.LinearExpr.sum(list(m.pay.values()))
    return cp_model.LinearExpr.sum([m.on_table(slot.index) for slot in m.ctx.hand])
