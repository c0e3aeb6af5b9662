"""Tile rummy's strong rung, ``lookahead`` (issue 29): a bounded search over the switches a strong player tries.

A strong Rummikub player who cannot place a rack tile looks at the plays
around it and tries, in this order:

1. *one switch*: up to three plays near the stuck tiles taken up with the
   rack and laid out again (runs into groups, groups into runs, a run split
   to let a tile in, two runs joined), as rearrange-three does;
2. *joker work first*: a joker freed (a rack tile taking the place it stands
   for, or a flexible joker taken off a play that stays whole), then the
   freed joker laid again, in the switch or in another play;
3. *a second switch* elsewhere: from the best few tables the first switch
   left, another pool of up to three plays near the tiles still stuck,
   laid out again (two different switches in one turn);
4. then split-and-swap's single moves from every table reached (splits,
   take-offs, joker swaps, extensions, new plays).

Pools are *connected*: each pooled play touches a rack or loose tile (same
number, or same colour within two numbers; a joker touches all) or another
pooled play, as a player looks at the plays near the tile in hand, never
at three plays across the table.

The effort is counts, never the clock (``LookaheadBudget``): the joker
moves tried first, the pools of each switch, the nodes of each pool's
re-partition, the tables kept after the first switch, and the single moves
after (from the best ``finish_starts`` tables, ``finish_states`` states and
at most ``Effort.states``). A puzzle this rung cannot solve within them is
``expert``; one only it solves is ``hard``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

from ..vocabulary import Tier
from . import Effort
from .moves import Budget, depth_first
from .tile_moves import FREED, JOKER_ID, TileGame, Tiles, TileState, is_joker, plain, state_key
from .tile_turns import TileRung


@dataclass(frozen=True)
class LookaheadBudget:
    """The lookahead's effort, in counts (the same on every machine)."""

    pool_plays: int = 3  # the most plays one switch pools with the rack
    joker_openers: int = 6  # joker frees tried before a switch
    first_pools: int = 400  # pools of the first switch, over every opener
    kept: int = 8  # tables kept after the first switch (the most rack tiles played), for a second
    second_pools: int = 60  # pools of the second switch, from each table kept
    pool_nodes: int = 1_500  # nodes of one pool's re-partition
    partitions_kept: int = 4  # re-partitions of one pool kept (the most rack tiles played first)
    finish_starts: int = 48  # tables reached by the switches that single moves are tried from, the best first
    finish_states: int = 5_000  # states of those single moves, all together (at most Effort.states)


BUDGET = LookaheadBudget()


def _touch(a: int, b: int) -> bool:
    """Two tiles a player sees together: the same number, or the same colour within two numbers."""
    if is_joker(a) or is_joker(b):
        return True
    a, b = plain(a), plain(b)
    return a % 16 == b % 16 or (a // 16 == b // 16 and abs(a % 16 - b % 16) <= 2)


def _near(play: Tiles, tiles: Iterable[int]) -> bool:
    return any(_touch(a, b) for a in play for b in tiles)


def pools(game: TileGame, state: TileState, size: int) -> Iterator[tuple[int, ...]]:
    """The pools of up to ``size`` plays a player tries for the stuck tiles of ``state``, each once.

    Tile by tile, the tile with the fewest plays near it first (the one a player
    is most stuck with): the plays near it, smallest pools first; then pools
    reaching further, each play near a stuck (rack or loose) tile or another
    pooled play. Never a play a fixed joker locks, nor one holding a freed joker
    that must stay in a new play."""
    stuck = sorted(set(state.hand + state.loose))
    free = [i for i, play in enumerate(state.table) if not game.locked(play) and not game.pinned_joker(play)]
    near = {tile: [i for i in free if _near(state.table[i], (tile,))] for tile in stuck}
    given: set[tuple[int, ...]] = set()
    for tile in sorted(stuck, key=lambda t: (len(near[t]), t)):
        for count in range(1, size + 1):
            for chosen in combinations(near[tile], count):
                if chosen not in given:
                    given.add(chosen)
                    yield chosen
    seeds = {i for plays in near.values() for i in plays}
    for count in range(2, size + 1):
        for chosen in combinations(free, count):
            if chosen not in given and any(i in seeds for i in chosen) and _connected(state, chosen, seeds):
                given.add(chosen)
                yield chosen


def _connected(state: TileState, chosen: tuple[int, ...], seeds: set[int]) -> bool:
    reached = {i for i in chosen if i in seeds}
    grown = True
    while grown:
        grown = False
        for i in chosen:
            if i not in reached and any(_near(state.table[i], state.table[j]) for j in reached):
                reached.add(i)
                grown = True
    return len(reached) == len(chosen)


def joker_openers(game: TileGame, state: TileState) -> list[TileState]:
    """Every joker freed by one move: a rack tile taking the place it stands for, or a flexible joker taken
    off a play that stays whole (the joker loose, to be laid again)."""
    found = list(game.joker_swaps(state))
    if not game.fixed:
        for taken in game.take_offs(state):
            if any(t in (JOKER_ID, FREED) for t in taken.loose):
                found.append(taken)
    return found


def _rank(game: TileGame, states: Iterable[TileState]) -> list[TileState]:
    """States once each, the most rack tiles played and the fewest tiles loose first."""
    unique = dict.fromkeys(states)
    return sorted(unique, key=lambda s: (-game.played(s), len(s.loose)))


class Lookahead(TileRung):
    name = "lookahead"
    tier = Tier.HARD
    greedy = False
    summary = ("looks ahead like a strong player: pools up to three plays near the stuck tiles and lays them out "
               "again, frees a joker and lays it again, then tries a second such switch elsewhere, and splits "
               "and swaps from there, within a fixed budget")
    budget: LookaheadBudget = BUDGET

    def search(self, game: TileGame, effort: Effort) -> Iterable[TileState]:
        if not game.melded:
            return []  # before the initial meld the table is not touched: extend already tried every meld
        limits = self.budget
        openers = [game.start] + joker_openers(game, game.start)[:limits.joker_openers]
        first = self._switch(game, openers, Budget(limits.first_pools))
        if any(game.done(s) for s in first):
            return [s for s in first if game.done(s)][:1]
        kept = _rank(game, first)[:limits.kept]
        second: list[TileState] = []
        for state in kept:
            second += self._switch(game, [state], Budget(limits.second_pools))
        ranked = _rank(game, openers + first + second)
        done = [s for s in ranked if game.done(s)]
        if done:
            return done[:1]
        starts = ranked[:limits.finish_starts][::-1]  # popped last first: the most rack tiles played first
        seen: set[Hashable] = set()
        budget = Budget(min(effort.states, limits.finish_states))
        # Every table reached is proposed too (a switch may leave nothing for single moves to add).
        return [s for s in ranked if not s.loose] + list(depth_first(starts, game.swap_moves, state_key, budget,
                                                                       seen, game.done))

    def _switch(self, game: TileGame, states: list[TileState], pools_left: Budget) -> list[TileState]:
        """One switch from each of ``states``: each pool re-partitioned with the rack and the loose tiles."""
        limits = self.budget
        found: list[TileState] = []
        for state in states:
            for chosen in pools(game, state, limits.pool_plays):
                if not pools_left.take():
                    return found
                found += game.partitions(state, chosen, Budget(limits.pool_nodes), limits.partitions_kept)
        return found
