"""A quick, legal-looking House Rummy turn to start the search from.

The turn a hurried player would make, found in milliseconds without CP-SAT:

- unmelded: the best meld the hand can lay (largest plays first), with one
  joker replacement if the hand alone falls short of the meld cost;
- then, as a melded player: new plays of hand cards in the own space, hand
  cards added to plays where they score, and single paid steals (an
  opponent's card whose play stays whole, moved into a play of the own space
  that holds enough of this turn's hand cards to pay for it);
- finally the discard: the cold card with the highest penalty.

It is only a starting point: ``rummy.model.house`` fixes the model's decisions to it
and lets CP-SAT complete and judge it, so a turn the greedy gets wrong (or
the model cannot lay out) is simply not used. When it is used, every answer,
even one stopped by the time limit, is at least as good as this turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ...cards import Card
from ...family import HOUSE
from ...plays import readings
from .candidates import play_shapes
from .context import TurnContext
from .replacement import replacement_options

# Moves are applied while one improves the turn; this bounds the loop on any table.
MOST_MOVES = 200


@dataclass
class GreedyTurn:
    """The turn as the model's decisions: final plays per space (slots), roles, discard."""

    plays: dict[str, list[list[int]]]
    hand: set[int]  # slots still in the hand
    meld: list[tuple[int, ...]] = field(default_factory=list)
    swaps: list[tuple[int, int]] = field(default_factory=list)  # (joker slot, card slot)
    discard: int | None = None
    # per final play (by id of its list): this turn's payment cards and stolen cards
    paid: dict[int, int] = field(default_factory=dict)
    stolen: dict[int, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)  # score each opposing space lost
    stolen_from: dict[str, int] = field(default_factory=dict)


def greedy_turn(ctx: TurnContext) -> GreedyTurn | None:
    """The greedy turn, or None where the greedy finds no meld for an unmelded mover."""
    turn = GreedyTurn({space: [] for space in ctx.spaces}, {s.index for s in ctx.hand})
    for play in ctx.plays:
        turn.plays[play.space].append(list(play.slots))
    if not ctx.melded and not _meld(ctx, turn):
        return None
    for _ in range(MOST_MOVES):
        if not (_lay_new(ctx, turn) or _extend(ctx, turn) or _steal(ctx, turn)):
            break
    _play_hot(ctx, turn)
    _discard(ctx, turn)
    return turn


# ------------------------------------------------------------------ meld
def _meld(ctx: TurnContext, turn: GreedyTurn) -> bool:
    chosen = _best_meld(ctx, [], set())
    if chosen is None:
        options = replacement_options(ctx)
        tries = [(joker, card) for joker, cards in options.items() for card in cards]
        for joker, card in tries:
            chosen = _best_meld(ctx, [joker], {card})
            if chosen is not None:
                _swap(ctx, turn, joker, card)
                break
    if chosen is None:
        return False
    for slots in chosen:
        turn.plays[ctx.mover].append(list(slots))
        turn.meld.append(slots)
        turn.hand -= set(slots)
    return True


def _best_meld(ctx: TurnContext, released: list[int], spent: set[int]) -> list[tuple[int, ...]] | None:
    naturals = {s.card: s.index for s in ctx.hand if not s.is_joker and s.index not in spent}
    jokers = [s.index for s in ctx.hand if s.is_joker] + released
    ranked = sorted(play_shapes(ctx.rules, frozenset(naturals), len(jokers)), key=lambda s: (-s.score, -s.size))
    chosen: list[tuple[int, ...]] = []
    used: set[int] = set()
    total = 0
    for shape in ranked:
        slots = [naturals[c] for c in sorted(shape.naturals)]
        free_jokers = [j for j in jokers if j not in used]
        if any(i in used for i in slots) or len(free_jokers) < shape.jokers:
            continue
        slots += free_jokers[:shape.jokers]
        chosen.append(tuple(slots))
        used.update(slots)
        total += shape.score
    return chosen if chosen and total >= ctx.meld_cost else None


def _swap(ctx: TurnContext, turn: GreedyTurn, joker: int, card: int) -> None:
    for plays in turn.plays.values():
        for play in plays:
            if joker in play:
                play[play.index(joker)] = card
    turn.hand.discard(card)
    turn.hand.add(joker)
    turn.swaps.append((joker, card))


# ------------------------------------------------------------ melded moves
def _cards(ctx: TurnContext, slots: Iterable[int]) -> tuple[Card, ...]:
    return tuple(ctx.slots[i].card for i in slots)


def _score(ctx: TurnContext, slots: Sequence[int]) -> int:
    return HOUSE.play_score(_cards(ctx, slots), ctx.rules) if slots else 0


def _whole(ctx: TurnContext, slots: Iterable[int]) -> bool:
    return bool(readings(_cards(ctx, slots), ctx.rules))


def _penalty_gain(ctx: TurnContext, slots: Iterable[int]) -> int:
    return sum(ctx.pen(ctx.slots[i]) for i in slots) if ctx.hand_penalty_counts else 0


def _payers(ctx: TurnContext, turn: GreedyTurn) -> list[int]:
    """Hand cards that may still be played, hot ones first."""
    return sorted(turn.hand, key=lambda i: (not ctx.slots[i].hot, i))


def _lay_new(ctx: TurnContext, turn: GreedyTurn) -> bool:
    hand = _payers(ctx, turn)
    naturals = {ctx.slots[i].card: i for i in hand if not ctx.slots[i].is_joker}
    jokers = [i for i in hand if ctx.slots[i].is_joker]
    shapes = play_shapes(ctx.rules, frozenset(naturals), len(jokers))
    if not shapes:
        return False
    shape = max(shapes, key=lambda s: (s.size - s.jokers, s.score, -s.jokers))
    slots = [naturals[c] for c in sorted(shape.naturals)] + jokers[:shape.jokers]
    play = list(slots)
    turn.plays[ctx.mover].append(play)
    turn.paid[id(play)] = len(slots)
    turn.hand -= set(slots)
    return True


def _extend(ctx: TurnContext, turn: GreedyTurn) -> bool:
    best: tuple[int, int, list[int]] | None = None  # value, hand card, play
    for card in _payers(ctx, turn):
        for space, plays in turn.plays.items():
            for play in plays:
                if not _whole(ctx, play + [card]):
                    continue
                change = ctx.sign[space] * (_score(ctx, play + [card]) - _score(ctx, play))
                value = change + _penalty_gain(ctx, [card]) + (1000 if ctx.slots[card].hot else 0)
                if value > 0 and (best is None or value > best[0]):
                    best = (value, card, play)
    if best is None:
        return False
    _, card, play = best
    play.append(card)
    turn.paid[id(play)] = turn.paid.get(id(play), 0) + 1
    turn.hand.discard(card)
    return True


def _steal(ctx: TurnContext, turn: GreedyTurn) -> bool:
    """One paid steal: an opponent's card into an own-side play, with a hand card if needed."""
    # value, space robbed, play robbed, card stolen, score it lost, target play (None: a new one), payment
    best: tuple[int, str, list[int], int, int, list[int] | None, tuple[int, ...]] | None = None
    hand = _payers(ctx, turn)
    for space, plays in turn.plays.items():
        if ctx.sign[space] > 0:
            continue
        for source in plays:
            for card in source:
                if ctx.slots[card].origin != space:
                    continue
                rest = [i for i in source if i != card]
                if rest and not _whole(ctx, rest):
                    continue
                loss = _score(ctx, source) - _score(ctx, rest)
                if turn.lost.get(space, 0) + loss > 10 * (turn.stolen_from.get(space, 0) + 1):
                    continue
                for target_space, targets in turn.plays.items():
                    if ctx.sign[target_space] < 0:
                        continue
                    for target in targets:
                        spare = turn.paid.get(id(target), 0) - turn.stolen.get(id(target), 0)
                        for payment in ([()] if spare > 0 else []) + [(h,) for h in hand]:
                            grown = target + [card, *payment]
                            if not _whole(ctx, grown):
                                continue
                            value = (_score(ctx, grown) - _score(ctx, target) + loss
                                     + _penalty_gain(ctx, payment))
                            if best is None or value > best[0]:
                                best = (value, space, source, card, loss, target, payment)
                    for pair in combinations(hand, 2):
                        new = [card, *pair]
                        if _whole(ctx, new):
                            value = _score(ctx, new) + loss + _penalty_gain(ctx, pair)
                            if best is None or value > best[0]:
                                best = (value, space, source, card, loss, None, pair)
    if best is None or best[0] <= 0:
        return False
    _, space, source, card, loss, chosen, paid = best
    source.remove(card)
    if not source:
        turn.plays[space].remove(source)
    if chosen is None:
        chosen = []
        turn.plays[ctx.mover].append(chosen)
    chosen.extend([card, *paid])
    turn.paid[id(chosen)] = turn.paid.get(id(chosen), 0) + len(paid)
    turn.stolen[id(chosen)] = turn.stolen.get(id(chosen), 0) + 1
    turn.lost[space] = turn.lost.get(space, 0) + loss
    turn.stolen_from[space] = turn.stolen_from.get(space, 0) + 1
    turn.hand -= set(paid)
    return True


def _play_hot(ctx: TurnContext, turn: GreedyTurn) -> None:
    """A hot card still in hand goes wherever it keeps a play whole, even at a loss."""
    for card in [i for i in _payers(ctx, turn) if ctx.slots[i].hot]:
        for plays in turn.plays.values():
            target = next((p for p in plays if _whole(ctx, p + [card])), None)
            if target is not None:
                target.append(card)
                turn.paid[id(target)] = turn.paid.get(id(target), 0) + 1
                turn.hand.discard(card)
                break


def _discard(ctx: TurnContext, turn: GreedyTurn) -> None:
    cold = [i for i in turn.hand if ctx.slots[i].cold]
    turn.discard = max(cold, key=lambda i: (ctx.pen(ctx.slots[i]), i), default=None)
    if turn.discard is not None:
        turn.hand.discard(turn.discard)
