"""Joker replacement before melding (rules.md §5).

An unmelded mover may swap a table joker for a hand card that keeps the play
whole; the joker goes to the hand (cold) and the card becomes a card of that
space. Three uses here:

- ``replacement_options``: which hand card may replace which table joker;
- ``add_replacements``: the swaps as variables of the meld branch, with their
  effect on the spite baseline (``5H * *`` scores 15, ``5H 5S *`` only 10);
- ``no_meld_turns``: the turns of a mover who does not meld. They may change
  nothing but jokers, so there are few and they are listed outright.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from ...cards import Card
from ...family import HOUSE
from ...plays import is_whole
from ..cpsat import cp_model
from .context import TablePlay, TurnContext
from .state import HouseModel


@dataclass(frozen=True)
class Swap:
    joker: int  # table joker slot
    card: int  # hand card slot


def replacement_options(ctx: TurnContext) -> dict[int, list[int]]:
    """For every table joker, the hand cards that may replace it (unmelded movers only)."""
    if ctx.melded:
        return {}
    naturals = [s for s in ctx.hand if not s.is_joker]
    options: dict[int, list[int]] = {}
    for play in ctx.plays:
        jokers = [i for i in play.slots if ctx.slots[i].is_joker]
        if not jokers:
            continue
        rest = list(ctx.slots[i].card for i in play.slots)
        rest.remove(ctx.slots[jokers[0]].card)
        fits = [s.index for s in naturals if is_whole(tuple(rest) + (s.card,), ctx.rules)]
        for joker in jokers:
            options[joker] = list(fits)
    return options


def _post_cards(ctx: TurnContext, play_slots: tuple[int, ...], swaps: dict[int, int]) -> tuple[Card, ...]:
    return tuple(ctx.slots[swaps.get(i, i)].card for i in play_slots)


def compatible(ctx: TurnContext, swaps: dict[int, int]) -> bool:
    """Swaps into one play must leave it whole together (two jokers in one play)."""
    for play in ctx.plays:
        if sum(i in swaps for i in play.slots) > 1 and not is_whole(_post_cards(ctx, play.slots, swaps), ctx.rules):
            return False
    return True


def add_replacements(m: HouseModel, options: dict[int, list[int]]) -> None:
    ctx = m.ctx
    for joker, cards in options.items():
        if not cards:
            continue
        for card in cards:
            m.replace[(joker, card)] = m.bool(f"replace_j{joker}_{card}")
        released = m.bool(f"released_j{joker}")
        m.released[joker] = released
        m.model.add(released == cp_model.LinearExpr.sum([m.replace[(joker, c)] for c in cards]))
    for card in {c for cards in options.values() for c in cards}:
        m.model.add_at_most_one(v for (j, c), v in m.replace.items() if c == card)
    for play in ctx.plays:
        jokers = [i for i in play.slots if i in m.released]
        if len(jokers) == 2:
            first, second = jokers
            for a in options[first]:
                for b in options[second]:
                    if a != b and not compatible(ctx, {first: a, second: b}):
                        m.model.add_bool_or([m.replace[(first, a)].Not(), m.replace[(second, b)].Not()])
        _baseline_change(m, play, jokers)


def _baseline_change(m: HouseModel, play: TablePlay, jokers: list[int]) -> None:
    """Score of the play after its swaps, where it can differ (one natural, two jokers)."""
    ctx = m.ctx
    if not jokers or len(play.slots) != 3 or len(jokers) != 2:
        return
    natural = next(ctx.slots[i].card for i in play.slots if not ctx.slots[i].is_joker)
    book_swaps = [v for (j, c), v in m.replace.items() if j in jokers and ctx.slots[c].card.rank == natural.rank]
    if not book_swaps:
        return
    becomes_book = m.bool(f"becomes_book_{play.name}")
    for v in book_swaps:
        m.model.add_implication(v, becomes_book)
    m.model.add_bool_or(book_swaps).only_enforce_if(becomes_book)
    m.baseline_terms.setdefault(play.space, []).append((becomes_book, 10 - 15))


# ------------------------------------------------------------ no meld
@dataclass(frozen=True)
class NoMeldTurn:
    swaps: tuple[Swap, ...]
    discard: int | None
    hand_after: tuple[int, ...]  # slots kept (released jokers included)
    gain: Fraction
    moved: int
    kept_penalty: int


def no_meld_turns(ctx: TurnContext, options: dict[int, list[int]]) -> list[NoMeldTurn]:
    """Every legal turn of an unmelded mover who does not meld, best first."""
    jokers = sorted(options)
    choices = [[None] + options[j] for j in jokers]
    hot = {s.index for s in ctx.hand if s.hot}
    turns: list[NoMeldTurn] = []
    for picked in product(*choices):
        used = [c for c in picked if c is not None]
        if len(set(used)) != len(used):
            continue
        swaps = {j: c for j, c in zip(jokers, picked) if c is not None}
        if not compatible(ctx, swaps) or not hot <= set(used):
            continue
        hand = [s.index for s in ctx.hand if s.index not in swaps.values()] + sorted(swaps)
        table_change = _table_change(ctx, swaps)
        cold = [i for i in hand if ctx.slots[i].cold or i in swaps]
        discards: list[int] | list[None] = cold or [None]  # none where no card may go
        for discard in discards:
            kept = tuple(i for i in hand if i != discard)
            turns.append(_no_meld_turn(ctx, swaps, discard, kept, table_change))
    turns.sort(key=lambda t: (-t.gain, t.moved, t.kept_penalty))
    return turns


def _table_change(ctx: TurnContext, swaps: dict[int, int]) -> Fraction:
    change = Fraction(0)
    for play in ctx.plays:
        if any(i in swaps for i in play.slots):
            before = HOUSE.play_score(_post_cards(ctx, play.slots, {}), ctx.rules)
            after = HOUSE.play_score(_post_cards(ctx, play.slots, swaps), ctx.rules)
            change += ctx.sign[play.space] * (after - before)
    return change


def _no_meld_turn(ctx: TurnContext, swaps: dict[int, int], discard: int | None, kept: tuple[int, ...],
                  table_change: Fraction) -> NoMeldTurn:
    kept_penalty = sum(ctx.pen(ctx.slots[i]) for i in kept)
    gain = table_change
    if ctx.hand_penalty_counts:
        gain += sum(ctx.pen(s) for s in ctx.hand) - kept_penalty
    if not kept:
        gain += ctx.first_out_bonus
    return NoMeldTurn(tuple(Swap(j, c) for j, c in sorted(swaps.items())), discard, kept, gain, len(swaps),
                      kept_penalty)
