"""The initial meld (rules.md §5): new plays of hand cards worth the meld cost.

In the meld branch every hand card that reaches the table has one role:
meld card, payment, or a card put in for a joker (house/replacement). Meld
cards lie in the mover's own space when laid, so they are free to move on
later in the turn, but they never pay for a steal. A joker released by
replacement is a hand card and may be melded or pay.
"""

from __future__ import annotations

from itertools import combinations

from ..cpsat import cp_model
from .candidates import play_shapes
from .context import TurnContext
from .state import HouseModel


def meld_shapes(ctx: TurnContext, releasable: list[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every whole play of hand cards (and jokers that may be released), as (slots, score)."""
    naturals = {s.card: s.index for s in ctx.hand if not s.is_joker}
    jokers = [s.index for s in ctx.hand if s.is_joker] + sorted(releasable)
    shapes = []
    for shape in play_shapes(ctx.rules, frozenset(naturals), len(jokers)):
        natural_slots = tuple(naturals[c] for c in sorted(shape.naturals))
        for joker_slots in combinations(jokers, shape.jokers):
            shapes.append((natural_slots + joker_slots, shape.score))
    return shapes


def best_meld_score(shapes: list[tuple[tuple[int, ...], int]], enough: int) -> int:
    """The most a set of disjoint shapes can score (stops once ``enough`` is reached)."""
    ordered = sorted(shapes, key=lambda s: -s[1])
    best = 0

    def walk(start: int, used: frozenset[int], total: int) -> None:
        nonlocal best
        best = max(best, total)
        if best >= enough:
            return
        for k in range(start, len(ordered)):
            slots, score = ordered[k]
            if used.isdisjoint(slots):
                walk(k + 1, used | set(slots), total + score)
                if best >= enough:
                    return

    walk(0, frozenset(), 0)
    return best


def add_roles(m: HouseModel) -> None:
    """Payment and meld roles for every card that may leave the hand (meld branch)."""
    for slot in m.ctx.hand:
        m.pay[slot.index] = m.bool(f"pay_{slot.index}")
        m.meld[slot.index] = m.bool(f"meld_{slot.index}")
    for joker in m.released:
        m.pay[joker] = m.bool(f"pay_{joker}")
        m.meld[joker] = m.bool(f"meld_{joker}")


def add_meld(m: HouseModel, shapes: list[tuple[tuple[int, ...], int]]) -> None:
    for slots, score in shapes:
        var = m.bool(f"meldplay_{'_'.join(map(str, slots))}")
        m.meld_plays.append((slots, score, var))
    for index, meld_var in m.meld.items():
        m.model.add(meld_var == cp_model.LinearExpr.sum([v for slots, _, v in m.meld_plays if index in slots]))
    m.model.add(
        cp_model.LinearExpr.weighted_sum([v for _, _, v in m.meld_plays], [s for _, s, _ in m.meld_plays])
        >= m.ctx.meld_cost
    )
    # Melding lays at least one play, even where the cost is 0.
    m.model.add_bool_or([v for _, _, v in m.meld_plays])
