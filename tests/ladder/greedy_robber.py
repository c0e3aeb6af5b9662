"""Simple one-pass greedy players, written apart from rummy.ladder on purpose: the ladder's greedy rungs
must be at least as strong as each of them, and none of them may reach the optimum of a shipped hard or
expert puzzle (issue 29). One section per family: House ``house_*``, tiles ``tile_*``, Robber ``robber_*``,
lay-off ``layoff_*``; each player takes a play-phase position and a seed and returns an after-position,
which the tests judge with the checker."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from rummy.cards import Card
from rummy.family import ROBBER
from rummy.plays import is_whole
from rummy.position import Position
from rummy.scoring import penalty
from tests.support.greedy_players import PlayCards, finished_turn

# --------------------------------------------------------------------------- Robber Rummy (robber_*)
# A Robber player's table is a list of (owner, cards) in table order (each player's plays in turn); a
# card added to another side's play takes it. Every player ends with the costliest card discarded.

RobberPlayer = Callable[[Position, int], Position]


def _robber_start(pos: Position) -> tuple[list[PlayCards], list[Card], set[str]]:
    ours = {p.name for p in pos.players if p.side == pos.mover.side}
    return [(p.name, list(play.cards)) for p in pos.players for play in p.plays], list(pos.mover.hand or ()), ours


def _robber_score(cards: list[Card], pos: Position) -> int:
    return ROBBER.play_score(tuple(cards), pos.rules) if is_whole(tuple(cards), pos.rules) else -1


def _robber_gain(pos: Position, play: PlayCards, card: Card, ours: set[str]) -> int:
    """What ``card`` gains now on ``play`` (-1: it does not fit): the growth of one's own side's play, or the
    whole play's new score plus the owner's loss; and the card's penalty, out of the hand."""
    owner, cards = play
    new = _robber_score(cards + [card], pos)
    if new < 0:
        return -1
    old = _robber_score(cards, pos)
    return (new - old if owner in ours else new + old) + penalty(card, pos.rules)


def _robber_melds(pos: Position, hand: list[Card]) -> list[tuple[int, tuple[Card, ...]]]:
    """Every three hand cards that make a play, with what laying them gains now (score and penalties)."""
    return [(_robber_score(list(combo), pos) + sum(penalty(c, pos.rules) for c in combo), combo)
            for combo in set(combinations(sorted(hand), 3)) if is_whole(combo, pos.rules)]


def _robber_lay(plays: list[PlayCards], hand: list[Card], mover: str, index: int | None, cards: tuple[Card, ...]) -> None:
    for card in cards:
        hand.remove(card)
    if index is None:
        plays.append((mover, list(cards)))
    else:
        plays[index] = (mover, plays[index][1] + list(cards))


def _robber_by_rank(pos: Position, rank: Callable[[list[PlayCards], list[Card], set[str]],
                                                  tuple[int | None, tuple[Card, ...]] | None]) -> Position:
    """A player that makes the move ``rank`` picks (a play index or None for a new play, and the cards) until
    it picks none, then discards the costliest card."""
    plays, hand, ours = _robber_start(pos)
    while (move := rank(plays, hand, ours)) is not None:
        _robber_lay(plays, hand, pos.to_move, *move)
    return finished_turn(pos, plays, hand, meld=())


def _robber_best_move(pos: Position, plays: list[PlayCards], hand: list[Card], ours: set[str],
                      allowed: Callable[[PlayCards], bool] = lambda play: True,
                      melds: bool = True) -> tuple[int | None, tuple[Card, ...]] | None:
    """The single move that gains the most now among plays ``allowed`` (and new melds), or None."""
    options: list[tuple[int, int, int | None, tuple[Card, ...]]] = []
    for index, play in enumerate(plays):
        if allowed(play):
            for card in sorted(set(hand)):
                gain = _robber_gain(pos, play, card, ours)
                if gain >= 0:
                    options.append((gain, -index, index, (card,)))
    if melds:
        options += [(gain, 1, None, combo) for gain, combo in _robber_melds(pos, hand)]
    if not options:
        return None
    _, _, where, cards = max(options, key=lambda o: (o[0], o[1], o[3]))
    return where, cards


def robber_best_gain_now(pos: Position, seed: int = 0) -> Position:
    """Always the single move (a card onto a play, or a new play of three) that gains the most now."""
    return _robber_by_rank(pos, lambda plays, hand, ours: _robber_best_move(pos, plays, hand, ours))


def robber_biggest_steal_first(pos: Position, seed: int = 0) -> Position:
    """Steal the biggest opponent's play any hand card fits (with the card that gains most on it), again and
    again; then the best move now among one's own plays and new melds."""
    def rank(plays: list[PlayCards], hand: list[Card], ours: set[str]) -> tuple[int | None, tuple[Card, ...]] | None:
        steals = [(_robber_score(cards, pos), index) for index, (owner, cards) in enumerate(plays)
                  if owner not in ours and any(_robber_gain(pos, plays[index], c, ours) >= 0 for c in hand)]
        if steals:
            _, index = max(steals, key=lambda s: (s[0], -s[1]))
            card = max(hand, key=lambda c: (_robber_gain(pos, plays[index], c, ours), c))
            return index, (card,)
        return _robber_best_move(pos, plays, hand, ours)
    return _robber_by_rank(pos, rank)


def robber_melds_first(pos: Position, seed: int = 0) -> Position:
    """Lay the best new play of three while there is one, then always the best move now."""
    def rank(plays: list[PlayCards], hand: list[Card], ours: set[str]) -> tuple[int | None, tuple[Card, ...]] | None:
        melds = _robber_melds(pos, hand)
        if melds:
            return None, max(melds)[1]
        return _robber_best_move(pos, plays, hand, ours)
    return _robber_by_rank(pos, rank)


def robber_runs_first(pos: Position, seed: int = 0) -> Position:
    """Runs count double: the best card onto a run while one fits (never fattening a book first), then the
    best move now."""
    def is_run(play: PlayCards) -> bool:
        return len({c.rank for c in play[1]}) > 1

    def rank(plays: list[PlayCards], hand: list[Card], ours: set[str]) -> tuple[int | None, tuple[Card, ...]] | None:
        return _robber_best_move(pos, plays, hand, ours, is_run, melds=False) \
            or _robber_best_move(pos, plays, hand, ours)
    return _robber_by_rank(pos, rank)


def robber_costliest_first(pos: Position, seed: int = 0) -> Position:
    """The costliest card first, each to where it gains the most now (so the card discarded is a cheap one);
    a card that fits nowhere waits for a meld."""
    plays, hand, ours = _robber_start(pos)
    placed = True
    while placed:
        placed = False
        for card in sorted(hand, key=lambda c: (-penalty(c, pos.rules), c)):
            options = [(_robber_gain(pos, play, card, ours), -index) for index, play in enumerate(plays)]
            gain, index = max(options, default=(-1, 0))
            if gain >= 0:
                _robber_lay(plays, hand, pos.to_move, -index, (card,))
                placed = True
                break
        if not placed and (melds := _robber_melds(pos, hand)):
            _robber_lay(plays, hand, pos.to_move, None, max(melds)[1])
            placed = True
    return finished_turn(pos, plays, hand, meld=())


def robber_first_fit(pos: Position, seed: int = 0) -> Position:
    """The hand in a random order (by ``seed``), each card onto the first play in table order it fits, pass
    after pass while any card was laid; then a new play of three hand cards where there is one, and again."""
    plays, hand, _ = _robber_start(pos)
    random.Random(seed).shuffle(hand)
    laid = True
    while laid:
        laid = False
        for card in list(hand):
            for index, (_, cards) in enumerate(plays):
                if is_whole(tuple(cards) + (card,), pos.rules):
                    _robber_lay(plays, hand, pos.to_move, index, (card,))
                    laid = True
                    break
        if not laid:
            for combo in combinations(list(hand), 3):
                if is_whole(combo, pos.rules):
                    _robber_lay(plays, hand, pos.to_move, None, combo)
                    laid = True
                    break
    return finished_turn(pos, plays, hand, meld=())


ROBBER_PLAYERS: dict[str, RobberPlayer] = {
    "first-fit": robber_first_fit,
    "best-gain-now": robber_best_gain_now,
    "biggest-steal-first": robber_biggest_steal_first,
    "melds-first": robber_melds_first,
    "runs-first": robber_runs_first,
    "costliest-first": robber_costliest_first,
}
ROBBER_SEEDED = {"first-fit"}  # the players whose seed matters (random card orders)
