"""The tile rungs' common part: a rung searches a ``TileGame`` and proposes the end states it reached as turns."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace

from ..cards import cards_within
from ..plays import Play
from ..position import Position, Turn
from . import Effort, Rung
from .tile_moves import TileGame, TileState, decode

PROPOSALS_PER_COUNT = 12  # end states proposed for each number of tiles played


def _after(game: TileGame, state: TileState) -> Position:
    position = game.position
    mover = position.mover
    hand = cards_within(mover.hand or (), Counter(decode(t) for t in state.hand))  # the rack in its own order
    still = Counter(c.plain() for c in hand)
    if game.melded:
        remaining = list(state.table)
        table: list[Play] = []
        for play in position.table:  # unchanged plays first, in their order
            pinned = game.pinned(play.cards)
            if pinned in remaining:
                remaining.remove(pinned)
                table.append(Play(game.cards(pinned)))
        table += [Play(game.cards(p)) for p in remaining]
        meld: tuple[Play, ...] = ()
    else:
        meld = tuple(Play(game.cards(p)) for p in game.new_on_table(state))
        table = list(position.table) + list(meld)
    player = replace(mover, hand=hand, melded=mover.melded or game.played(state) > 0,
                     hot=cards_within(mover.hot, still), warm=cards_within(mover.warm, still))
    after = replace(position, table=tuple(table),
                    turn=Turn(meld=meld, replaced=(), discard=None, discard_declared=False))
    return after.replace_player(player)


def _proposals(game: TileGame, states: Iterable[TileState], effort: Effort) -> Iterator[Position]:
    """The end states reached, the most tiles played first, a few for each count."""
    by_count: dict[int, list[TileState]] = {}
    for state in states:
        if game.acceptable(state):
            bucket = by_count.setdefault(game.played(state), [])
            if len(bucket) < PROPOSALS_PER_COUNT:
                bucket.append(state)
    proposed = 0
    for count in sorted(by_count, reverse=True):
        for state in by_count[count]:
            if proposed >= effort.turns:
                return
            proposed += 1
            yield _after(game, state)


class TileRung(Rung):
    def search(self, game: TileGame, effort: Effort) -> Iterable[TileState]:
        raise NotImplementedError

    def turns(self, position: Position, effort: Effort) -> Iterable[Position]:
        game = TileGame(position)
        return _proposals(game, list(self.search(game, effort)), effort)
