"""No spite (rules.md §5), judged on the end state for every space but the
mover's own: a space may lose at most 10 points per card stolen from it
(so one that lost nothing to a steal may not lose score at all).

The baseline is the space's score once the mover's joker replacements are
made (they come before melding, when spite does not apply yet); a card put
in for a joker counts as a card of that space, so moving it away is a steal.
"""

from __future__ import annotations

from ..cpsat import Expression, cp_model
from .state import HouseModel


def add_no_spite(m: HouseModel) -> None:
    ctx = m.ctx
    for space in ctx.spaces:
        if space == ctx.mover:
            continue
        own = [s.index for s in ctx.table if s.origin == space]
        if not own:
            continue
        terms: list[tuple[cp_model.IntVar, int]] = list(m.score_terms.get(space, []))
        terms += [(v, -c) for v, c in m.baseline_terms.get(space, [])]
        constant = -ctx.space_scores[space]
        # + 10 per stolen card
        for index in own:
            if index in m.released:
                stolen = _stolen_unless(m, 1 - m.released[index], index, space, f"stolen_{index}")
                terms.append((stolen, 10))
            else:
                constant += 10
                terms += [(v, -10) for s, v in m.placements.get(index, []) if s == space]
        for (joker, card), swap in m.replace.items():
            if ctx.slots[joker].origin == space:
                stolen = _stolen_unless(m, swap, card, space, f"stolen_swap_{card}")
                terms.append((stolen, 10))
        expr = cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [c for _, c in terms])
        m.model.add(expr + constant >= 0)


def _stolen_unless(m: HouseModel, belongs: Expression, index: int, space: str, name: str) -> cp_model.IntVar:
    """A card that belongs to ``space`` (an expression 0/1) and ends elsewhere."""
    stolen = m.bool(name)
    inside = m.in_space(index, space)
    m.model.add(stolen >= belongs - inside)
    m.model.add(stolen <= belongs)
    m.model.add(stolen <= 1 - inside)
    return stolen
