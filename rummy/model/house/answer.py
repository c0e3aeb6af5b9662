"""The chosen turn as plain data, and the position after it.

``TurnPlan`` is what either branch decides (final plays per space, the hand
kept, the discard, the meld and the replacements); ``after_position`` writes
it as the full position after the turn with every ``[turn]`` declaration.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from ...cards import Card, cards_within
from ...plays import Play
from ...position import Position, Replacement, Turn
from ..cpsat import cp_model
from .context import TurnContext
from .state import HouseModel


@dataclass(frozen=True)
class TurnPlan:
    plays: dict[str, list[tuple[int, ...]]]  # final plays of every space, as slots
    kept: tuple[int, ...]  # slots left in the hand
    discard: int | None
    meld: tuple[tuple[int, ...], ...]
    swaps: tuple[tuple[int, int], ...]  # (joker slot, card slot)
    melded_now: bool
    gain: Fraction


def read_plan(m: HouseModel, value: Callable[[cp_model.IntVar], int], gain: Fraction) -> TurnPlan:
    """The turn of a solved model (``value`` reads a variable's value)."""
    ctx = m.ctx
    plays: dict[str, list[tuple[int, ...]]] = {space: [] for space in ctx.spaces}
    for grid in m.runs:
        # The card at each position a run covers (a covered position holds exactly one).
        filled: dict[int, int] = {}
        for p in grid.order:
            for i, v in grid.cells[p]:
                if value(v):
                    filled[p] = i
                    break
        for stretch, var in grid.segments:
            if value(var):
                plays[grid.space].append(tuple(filled[p] for p in stretch))
    for book in m.books:
        if value(book.var):
            plays[book.space].append(book.slots)
    kept = tuple(i for i, v in m.keep.items() if value(v))
    discard = next((i for i, v in m.discard.items() if value(v)), None)
    meld = tuple(slots for slots, _, v in m.meld_plays if value(v))
    swaps = tuple(key for key, v in m.replace.items() if value(v))
    return TurnPlan(plays, kept, discard, meld, swaps, m.melding, gain)


def after_position(ctx: TurnContext, plan: TurnPlan) -> Position:
    before = ctx.position

    def cards(slots: tuple[int, ...]) -> tuple[Card, ...]:
        return tuple(ctx.slots[i].card for i in slots)

    players = []
    for player in before.players:
        final = [cards(slots) for slots in plan.plays.get(player.name, [])]
        players.append(replace(player, plays=_ordered_plays(player.plays, final, ctx)))
    position = replace(before, players=tuple(players))
    mover = position.mover
    hand = _hand_after(ctx, plan)
    still = Counter(hand)
    position = position.replace_player(replace(
        mover,
        hand=hand,
        hot=_still_held(mover.hot, still),
        warm=_still_held(mover.warm, still),
        melded=mover.melded or plan.melded_now,
    ))
    discard = ctx.slots[plan.discard].card if plan.discard is not None else None
    names = {i: play.name for play in ctx.plays for i in play.slots}
    turn = Turn(
        meld=tuple(Play(cards(slots)) for slots in plan.meld),
        replaced=tuple(Replacement(names[joker], ctx.slots[card].card) for joker, card in plan.swaps),
        discard=discard,
        discard_declared=True,
    )
    pile = before.discard_pile + ((discard,) if discard is not None else ())
    return replace(position, discard_pile=pile, turn=turn)


def _ordered_plays(original: tuple[Play, ...], final: list[tuple[Card, ...]], ctx: TurnContext) -> tuple[Play, ...]:
    """Untouched plays first, in their old order; then the changed and new ones."""
    remaining = Counter(_key(cards) for cards in final)
    result: list[Play] = []
    for play in original:
        key = _key(tuple(c.plain() for c in play.cards))
        if remaining[key] > 0:
            remaining[key] -= 1
            result.append(play)
    new: list[Play] = []
    for cards in final:
        key = _key(cards)
        if remaining[key] > 0:
            remaining[key] -= 1
            new.append(Play(cards))
    new.sort(key=lambda play: _key(play.cards))
    return tuple(result + new)


def _key(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(c.plain() for c in cards))


def _hand_after(ctx: TurnContext, plan: TurnPlan) -> tuple[Card, ...]:
    """The kept cards in the order the hand was written, released jokers last."""
    kept = Counter(ctx.slots[i].card for i in plan.kept)
    hand: list[Card] = []
    for card in ctx.position.mover.hand or ():
        if kept[card.plain()] > 0:
            kept[card.plain()] -= 1
            hand.append(card.plain())
    hand += sorted(kept.elements())
    return tuple(hand)


def _still_held(cards: tuple[Card, ...], held: Counter[Card]) -> tuple[Card, ...]:
    return cards_within(cards, held)


def cards_played(ctx: TurnContext, plan: TurnPlan) -> int:
    """Hand cards (released jokers included) that went to the table this turn."""
    handish = {s.index for s in ctx.hand} | {joker for joker, _ in plan.swaps}
    return len(handish) - len(plan.kept) - (plan.discard is not None)


def plan_order(ctx: TurnContext, plan: TurnPlan) -> tuple[Fraction, int, int]:
    """How two turns of equal gain compare (house/objective): moved cards, then hand penalty."""
    kind: dict[int, tuple[str, tuple[str, ...]]] = {}
    for play in ctx.plays:
        for i in play.slots:
            kind[i] = (play.space, _kind(tuple(ctx.slots[j].card for j in play.slots)))
    moved = len(kind)
    for space, plays in plan.plays.items():
        for slots in plays:
            here = (space, _kind(tuple(ctx.slots[j].card for j in slots)))
            moved -= sum(kind.get(i) == here for i in slots)
    return (-plan.gain, moved, sum(ctx.pen(ctx.slots[i]) for i in plan.kept))


def _kind(cards: tuple[Card, ...]) -> tuple[str, ...]:
    naturals = [c for c in cards if not c.is_joker]
    if len(naturals) > 1 and len({c.rank for c in naturals}) == 1:
        return ("book",)
    return ("run", naturals[0].suit)
