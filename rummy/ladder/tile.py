"""Tile rummy's human-like players (rules.md §6): extend, split-and-swap, rearrange-three, lookahead.

Each rung searches sequences of moves a person makes one at a time, every
move leaving each play on the table whole, depth first with a memo of the
states seen (``Effort.states`` bounds it), and proposes the best end states
it reached. A state is the table, the rack and the *loose* tiles: tiles
taken off the table that must go back into a play before the turn ends.

- ``extend``: a rack tile added to a play (either end of a run, a missing
  colour of a group, next to a joker), or a new play of rack tiles alone.
- ``split-and-swap``: also a run split in two (to insert a rack tile, or to
  make room), an end tile taken off a run, the fourth tile off a group or a
  middle tile out of a long run, used again with rack tiles, and a table joker
  replaced by the rack tile it stands for, the joker used again.
- ``rearrange-three``: up to three table plays pooled with the rack and
  re-partitioned exhaustively (every pooled table tile stays on the table,
  as many rack tiles as possible join), then split-and-swap from there.
- ``lookahead`` (``rummy.ladder.tile_lookahead``, the strong rung): joker
  frees, then one switch of up to three plays near the stuck tiles, then a
  second switch elsewhere, then split-and-swap, within a budget of counts.

Before the initial meld the table is not touched: every rung lays new plays
of rack tiles alone, worth the threshold together. Fixed jokers
(``joker_mode = "fixed"``) keep the card they stand for: a play holding one
only grows (``joker_locks_play``), and a joker leaves it only when the rack
tile it stands for takes its place; a freed joker goes back into a play,
with ``freed_joker_new_play_only`` into a new play of rack tiles.

The search each rung runs (the tiles, the states, the moves) is
``rummy.ladder.tile_moves``; here are the rungs and the turns they propose.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from itertools import combinations
from typing import ClassVar

from ..vocabulary import Tier
from . import Effort, Rung
from .moves import Budget, depth_first
from .tile_lookahead import Lookahead
from .tile_moves import PARTITION_NODES, TileGame, TileState, state_key
from .tile_turns import TileRung

# Issue 29: the medium rungs' single moves are capped below Effort.states (a failing search spent all 20,000
# states, seconds a candidate); what they reach within the cap is what a medium player finds.
SPLIT_AND_SWAP_STATES = 3_000
REARRANGE_STATES = 5_000

__all__ = ["LADDER", "Extend", "Lookahead", "RearrangeThree", "SplitAndSwap", "TileRung"]


class Extend(TileRung):
    name = "extend"
    tier = Tier.EASY
    greedy = True
    summary = ("adds rack tiles to the ends of runs and the missing colours of groups, and lays new plays "
               "of rack tiles, as long as anything fits")

    def search(self, game: TileGame, effort: Effort) -> Iterable[TileState]:
        return depth_first([game.start], game.simple_moves, state_key, Budget(effort.states), set(), game.done)


class SplitAndSwap(TileRung):
    name = "split-and-swap"
    tier = Tier.MEDIUM
    greedy = True
    summary = ("also splits a run to insert a tile, takes an end tile off a run or a fourth tile off a group "
               "to use with rack tiles, and swaps a rack tile for the joker that stands for it")

    def search(self, game: TileGame, effort: Effort) -> Iterable[TileState]:
        budget = Budget(min(effort.states, SPLIT_AND_SWAP_STATES))
        return depth_first([game.start], game.swap_moves, state_key, budget, set(), game.done)


class RearrangeThree(TileRung):
    name = "rearrange-three"
    tier = Tier.MEDIUM  # issue 29: one pool of three plays is what a club player sees; lookahead is the hard tier
    greedy = False
    summary = ("takes up to three plays from the table together with the rack and lays those tiles out again "
               "in the way that plays the most rack tiles, then splits and swaps from there")
    pooled: ClassVar[int] = 3  # the most table plays pooled with the rack at once

    def search(self, game: TileGame, effort: Effort) -> Iterable[TileState]:
        if not game.melded:
            return []  # before the initial meld the table is not touched: extend already tried every meld
        budget = Budget(min(effort.states, REARRANGE_STATES))
        seen: set[Hashable] = set()
        start = game.start
        free = [i for i, play in enumerate(start.table) if not game.pinned_joker(play)]  # a fixed joker keeps its play
        choices = [chosen for size in range(1, self.pooled + 1) for chosen in combinations(free, size)]
        nodes = Budget(min(effort.states, PARTITION_NODES * max(1, len(choices))))
        starts: list[TileState] = []
        for chosen in choices:
            starts += game.partitions(start, chosen, nodes)
        starts.sort(key=game.played)  # the most rack tiles played popped first
        return list(depth_first(starts, game.swap_moves, state_key, budget, seen, game.done))


LADDER: tuple[Rung, ...] = (Extend(), SplitAndSwap(), RearrangeThree(), Lookahead())
