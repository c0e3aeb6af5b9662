"""Robber Rummy's human-like players for the draw (docs/ladder.md, "Draw or pile").

A draw-phase Robber position (rules.md §7) asks two things: take the stock
or the whole discard pile (its top card melded at once, the rest into the
hand), and then the turn. A *draw rung* is a simple rule for the decision
paired with the play-phase rungs (``rummy.ladder.robber``) that play the
turn after it, weakest first:

- ``pile-if-it-melds`` (easy): take the pile whenever its top card melds at
  once; then play the turn as ``extend`` does.
- ``pile-if-it-pays`` (medium): take it when its top card melds and the
  pile's other cards are worth more than they cost: the points of those
  that fit a table play or make a new play with the hand and the pile,
  against the hand penalty of the rest (junk); then play as ``steal-chain``.
- ``draw-lookahead`` (hard): take the pile, play the turn after it as the
  strongest Robber rung (``lookahead``) does, and compare with the stock's
  value estimated by the ladder (over every unseen card, each draw played
  by ``steal-one``, the strongest greedy rung: a lookahead over about forty
  draws would cost a minute a position).

Each rung tries every way to meld the top card (``pile_openings``, as the
solver does) and keeps the best turn its play rungs find. Values are
measured from the draw-phase position, as ``rummy best`` measures them
(``robber_gain``). The tier of a draw puzzle is the tier of the weakest rung
whose decision is the best draw and, where that is the pile, whose turn after
reaches the best gain; ``expert`` when none does. No rung calls a CP-SAT
model; each is bounded by counts (``Effort``), never the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..cards import Card
from ..draw_advice.options import after_stock_draw, stock_draws
from ..errors import RummyError
from ..family import ROBBER
from ..model.robber import pile_openings, robber_gain
from ..plays import is_whole
from ..position import Position
from ..scoring import penalty
from ..vocabulary import DrawSource, Phase, Tier
from . import Effort, Found, best_found
from .robber import LADDER

EASY_TURNS = 1  # the play rungs the easy draw rung climbs: extend
MEDIUM_TURNS = 3  # extend, steal-one, steal-chain
HARD_TURNS = 4  # and lookahead
DEFAULT_EFFORT = Effort()
STOCK_TURNS = 2  # the stock's estimate: extend, steal-one (the strongest greedy rung)


@dataclass(frozen=True)
class DrawDecision:
    """What a draw rung does: its draw, the turn it plays after the pile (None after the stock,
    whose card is unknown), and that turn's gain from the draw-phase position."""

    rung: str
    source: DrawSource
    after: Position | None
    gain: int | None


@dataclass(frozen=True)
class DrawGrade:
    tier: Tier
    rung: str | None  # None: no rung reaches the optimum (expert)
    decisions: tuple[DrawDecision, ...]


def pile_turn(position: Position, turn_rungs: int, effort: Effort) -> tuple[Position, int] | None:
    """The best turn the first ``turn_rungs`` play rungs find after taking the pile, over every way
    to meld its top card, with its gain from the draw-phase ``position``; None when the top card
    does not meld."""
    best: tuple[Position, int] | None = None
    for opening, _, _ in pile_openings(position):
        found = _strongest(opening, turn_rungs, effort)
        if found.after is None:
            continue
        gain = robber_gain(position, found.after)
        if best is None or gain > best[1]:
            best = (found.after, gain)
    return best


def _strongest(start: Position, turn_rungs: int, effort: Effort) -> Found:
    """The best turn of the first ``turn_rungs`` Robber rungs, each given what those below found."""
    below: Found | None = None
    for rung in LADDER[:turn_rungs]:
        below = best_found(rung, start, effort, below)
    assert below is not None  # turn_rungs >= 1
    return below


def stock_estimate(position: Position, effort: Effort) -> float | None:
    """The stock's value as the ladder sees it: over every unseen card (weighted by its copies), the
    gain of the best turn ``steal-one`` finds after drawing it; None when the stock is empty."""
    draws = stock_draws(position)
    total = value = 0
    for card, weight in draws:
        found = _strongest(after_stock_draw(position, card), STOCK_TURNS, effort)
        gain = robber_gain(position, found.after) if found.after is not None else 0
        total += weight
        value += weight * gain
    return value / total if total else None


def pile_pays(position: Position) -> bool:
    """The medium rule: the pile's cards under its top are worth more (the points of those that fit
    a table play or make a new play with the hand and the pile) than the junk among them costs."""
    rules = position.rules
    rest = [card.plain() for card in position.discard_pile[:-1]]
    pool = [card.plain() for card in position.mover.hand or ()] + [position.discard_pile[-1].plain()] + rest
    plays = [play.cards for player in position.players for play in player.plays]
    worth = 0
    for index, card in enumerate(rest):
        others = pool[:len(pool) - len(rest) + index] + pool[len(pool) - len(rest) + index + 1:]
        fits = any(is_whole(cards + (card,), rules) for cards in plays) or _melds(card, others, position)
        worth += penalty(card, rules) if fits else -penalty(card, rules)
    return worth > 0


def _melds(card: Card, others: Sequence[Card], position: Position) -> bool:
    """``card`` makes a new play of three with two of ``others``."""
    return any(is_whole((card, a, b), position.rules) for i, a in enumerate(others) for b in others[i + 1:])


def _decide(name: str, position: Position, take: bool, turn_rungs: int, effort: Effort) -> DrawDecision:
    if not take:
        return DrawDecision(name, DrawSource.STOCK, None, None)
    turn = pile_turn(position, turn_rungs, effort)
    if turn is None:
        return DrawDecision(name, DrawSource.STOCK, None, None)
    return DrawDecision(name, DrawSource.PILE, turn[0], turn[1])


RUNGS = ("pile-if-it-melds", "pile-if-it-pays", "draw-lookahead")
RUNG_TIERS = (Tier.EASY, Tier.MEDIUM, Tier.HARD)


def decide(position: Position, rung: int, effort: Effort = DEFAULT_EFFORT) -> DrawDecision:
    """Draw rung ``rung``'s (0: the weakest) decision and turn on a draw-phase Robber ``position``."""
    ROBBER.require(position.rules, "draw rungs")
    if position.phase != Phase.DRAW:
        raise RummyError("the draw rungs play draw-phase Robber positions only")
    name = RUNGS[rung]
    melds = bool(pile_openings(position))
    if rung == 0:
        return _decide(name, position, melds, EASY_TURNS, effort)
    if rung == 1:
        return _decide(name, position, melds and pile_pays(position), MEDIUM_TURNS, effort)
    turn = pile_turn(position, HARD_TURNS, effort) if melds else None
    if turn is None:
        return DrawDecision(name, DrawSource.STOCK, None, None)
    stock = stock_estimate(position, effort)
    if stock is not None and turn[1] <= stock:
        return DrawDecision(name, DrawSource.STOCK, None, None)
    return DrawDecision(name, DrawSource.PILE, turn[0], turn[1])


def draw_grade(position: Position, best_source: DrawSource, best_gain: float | Fraction | None,
               effort: Effort = DEFAULT_EFFORT) -> DrawGrade:
    """The tier of a draw puzzle whose best draw is ``best_source`` (and, for the pile, whose best
    turn gains ``best_gain``): the weakest rung whose decision and turn reach both (rungs climbed
    weakest first, stopping there); expert when none does."""
    found: list[DrawDecision] = []
    for rung, tier in enumerate(RUNG_TIERS):
        step = decide(position, rung, effort)
        found.append(step)
        if step.source == best_source and (best_source == DrawSource.STOCK or (
                step.gain is not None and best_gain is not None and step.gain >= best_gain)):
            return DrawGrade(tier, step.rung, tuple(found))
    return DrawGrade(Tier.EXPERT, None, tuple(found))
