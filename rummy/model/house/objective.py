"""What the best turn maximises (rules.md §5), and how equal turns are ordered.

``gain``: the change this turn causes in (mover's side score - the opposing
sides' scores), every score taken as if the hand ended now: table points of
each space; in Classic minus the mover's unplayed cards; plus the first-out
bonus when this turn goes out first. Epic's bonus may be fractional, so
every term is multiplied by ``ctx.scale``.

Among turns of equal gain (house tie-break, also used by the no-meld
branch):

1. fewest table cards *moved*. A table card is moved when it does not end
   in its own space in the same kind of play: a run card in a run of the
   same suit, a book card in a book. (Cards taken to another space, a
   released joker, a run card put in a book count; re-forming a space's
   runs or books among themselves does not.)
2. fewest of the table's plays disturbed: plays not left exactly as they
   were (same cards, same space).
3. the lowest penalty left in the mover's hand.
"""

from __future__ import annotations

from fractions import Fraction

from ..cpsat import Expression, cp_model
from .runs import grids_of
from .state import HouseModel


def gain_terms(m: HouseModel) -> tuple[list[tuple[cp_model.IntVar, int]], int]:
    """The scaled gain as weighted variables plus a constant."""
    ctx = m.ctx
    scale = ctx.scale
    terms: list[tuple[cp_model.IntVar, int]] = []
    constant = 0
    for space in ctx.spaces:
        sign = ctx.sign[space] * scale
        terms += [(v, sign * c) for v, c in m.score_terms.get(space, [])]
        constant -= sign * ctx.space_scores[space]
    if ctx.hand_penalty_counts:
        constant += scale * sum(ctx.pen(s) for s in ctx.hand)
        terms += [(v, -scale * ctx.pen(m.slot(i))) for i, v in m.keep.items()]
    if m.goes_out is not None:
        bonus = ctx.first_out_bonus * scale
        assert bonus.denominator == 1
        terms.append((m.goes_out, int(bonus)))
    return terms, constant


def moved_expr(m: HouseModel) -> tuple[Expression, int]:
    """Table cards moved (tie-break 1) and the most it can be."""
    ctx = m.ctx
    kind = {i: play for play in ctx.plays for i in play.slots}
    unmoved = []
    for slot in ctx.table:
        play = kind[slot.index]
        if play.kind == "run":
            for grid in grids_of(m, play.space, play.suit):
                unmoved += [v for p in grid.order for i, v in grid.cells[p] if i == slot.index]
        else:
            unmoved += [b.var for b in m.books if b.space == play.space and slot.index in b.slots]
    most = len(ctx.table)
    return most - cp_model.LinearExpr.sum(unmoved), most


def disturbed_expr(m: HouseModel) -> tuple[Expression, int]:
    """The table's plays that do not stay exactly as they were (tie-break 2)."""
    ctx = m.ctx
    intact = []
    for play in ctx.plays:
        if play.kind == "book":
            intact += [b.var for b in m.books if b.space == play.space and set(b.slots) == set(play.slots)]
            continue
        stretch = set(play.positions)
        for grid in grids_of(m, play.space, play.suit):
            segment = next((v for s, v in grid.segments if set(s) == stretch), None)
            cells = {(p, i): v for p in grid.order for i, v in grid.cells[p]}
            needed = [cells.get((p, i)) for p, i in zip(play.positions, play.slots)]
            present = [v for v in needed if v is not None]
            if segment is None or len(present) < len(needed):
                continue
            kept = m.bool(f"intact_{play.name}_{grid.layer}")
            for var in [segment, *present]:
                m.model.add_implication(kept, var)
            intact.append(kept)
    return len(ctx.plays) - cp_model.LinearExpr.sum(intact), len(ctx.plays)


def tiebreak_terms(m: HouseModel) -> tuple[Expression, int]:
    """One expression to minimise for tie-breaks 1, 2, 3 (in that order of weight), and its most."""
    moved, most_moved = moved_expr(m)
    disturbed, most_disturbed = disturbed_expr(m)
    most_penalty = sum(m.ctx.pen(m.slot(i)) for i in m.keep)
    kept_penalty = cp_model.LinearExpr.weighted_sum(list(m.keep.values()), [m.ctx.pen(m.slot(i)) for i in m.keep])
    weight_disturbed = most_penalty + 1
    weight_moved = weight_disturbed * (most_disturbed + 1)
    most = weight_moved * most_moved + weight_disturbed * most_disturbed + most_penalty
    return weight_moved * moved + weight_disturbed * disturbed + kept_penalty, most


def gain_ceiling(m: HouseModel) -> Fraction:
    """An upper bound on the gain of any legal turn, from counting alone.

    The search's own bound is the model's trivial one until its relaxation
    has run, thousands of points on a large table; a turn stopped by the time
    limit reports the smaller of the two. Every card in the mover's side is
    worth at most 5; the side gains at most the hand's cards (released jokers
    included) and as many stolen ones, since every stolen card is paid by one
    of them; no spite lets an opposing space lose at most 10 points a stolen
    card (and 5 a replaced joker); Classic adds back the whole hand's penalty; going out adds the bonus.
    """
    ctx = m.ctx
    cards = len(ctx.hand) + len(m.released)
    side = [space for space in ctx.spaces if ctx.sign[space] > 0]
    side_cards = sum(1 for s in ctx.table if s.origin in side)
    side_gain = 5 * (side_cards + 2 * cards) - sum(ctx.space_scores[s] for s in side)
    opposing_loss = min(10 * cards, sum(ctx.space_scores[s] for s in ctx.spaces if ctx.sign[s] < 0))
    opposing_loss += 5 * len(m.released)  # a replaced joker may turn a 15-point run into a 10-point book
    penalty = sum(ctx.pen(s) for s in ctx.hand) if ctx.hand_penalty_counts else 0
    return Fraction(side_gain + opposing_loss + penalty) + ctx.first_out_bonus


def maximize_turn(m: HouseModel) -> int:
    """Give the model the objective ``rummy.model.house`` solves it for: ``weight * gain - tiebreak``; the weight.

    The weight is larger than any tie-break, so the objective orders turns by
    gain first and by the tie-break among equal gains (house/__init__
    ``_solve_model`` sets the same objective).
    """
    terms, constant = gain_terms(m)
    gain = cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [c for _, c in terms]) + constant
    tiebreak, most = tiebreak_terms(m)
    weight = most + 1
    m.model.maximize(weight * gain - tiebreak)
    return weight
