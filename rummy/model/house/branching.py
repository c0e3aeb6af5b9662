"""Deciding going out and the meld first (issue 28, lever a).

The relaxation of the full model leaves going out fractional (``goes_out``
0.7 with every hand card kept 0.3) and the meld spread over several plays;
fixing those first closes the root gap on many positions. A decision
strategy on those literals (going out first, then the meld plays best
score first, each tried at 1 first) followed by CP-SAT's own heuristic
for the rest: the strategy only counts under ``FIXED_SEARCH`` (CP-SAT's
automatic search ignores a strategy on Boolean variables), so
``BRANCHING_PARAMETERS`` says so.
"""

from __future__ import annotations

from ..cpsat import cp_model
from .state import HouseModel

# Off: FIXED_SEARCH is far slower on this model (benchmarks/house_proof.py, variant "branching": 2.65 times
# base at the median on the first 20 house positions; benchmarks/README.md). A switch for measuring.
ENABLED = False
# What a model with the strategy needs on top of the family's tuning.
BRANCHING_PARAMETERS: dict[str, bool | int | float] = {"search_branching": int(cp_model.FIXED_SEARCH)}


def decision_literals(m: HouseModel) -> list[cp_model.IntVar]:
    """Going out, then the meld plays from the highest score down."""
    first = [m.goes_out] if m.goes_out is not None else []
    meld = [var for _, _, var in sorted(m.meld_plays, key=lambda play: -play[1])]
    return first + meld


def add_branching(m: HouseModel) -> bool:
    """Give the model the strategy (where enabled and there is something to decide); whether it did."""
    if not ENABLED:
        return False
    literals = decision_literals(m)
    if not literals:
        return False
    m.model.add_decision_strategy(literals, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return True
