"""Tile rummy's greedy rungs are at least as strong as simple greedy players written apart from the ladder
(tests/ladder/greedy_players.py, issue 29): on seeded random positions of every tile preset, ``extend`` plays
as many tiles as first-fit and biggest-play-first in any order, and ``split-and-swap`` as many as best-now.
Every player's turn is re-judged by the checker."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rummy.checker import check
from rummy.ladder import Effort, climb
from rummy.position import Position
from tests.ladder.greedy_players import TILE_PLAYERS, tile_best_now, tile_biggest_play_first, tile_first_fit
from tests.ladder.test_tile import random_position

EFFORT = Effort(states=3_000)
ORDERS = 4  # random orders each player tries on each position


def judged(before: Position, after: Position) -> Fraction:
    verdict = check(before, after)
    assert verdict.legal, (before.to_toml(), after.to_toml(), verdict.breaches)
    return Fraction(before.rules.family.turn_gain(before, after))


@pytest.mark.parametrize("seed", range(24))
def test_the_greedy_rungs_play_at_least_as_many_tiles_as_each_greedy_player(seed: int) -> None:
    before = random_position(seed)
    found = climb(before, None, EFFORT)
    extend, split_and_swap = (step.gain or Fraction(0) for step in found[:2])
    for k in range(ORDERS):
        rng = random.Random(f"{seed}/{k}")
        for player in TILE_PLAYERS:
            gain = judged(before, player(before, random.Random(rng.random())))
            assert gain <= split_and_swap, (player.__name__, gain, split_and_swap, before.to_toml())
            if player is not tile_best_now:  # no split: extend's own moves
                assert gain <= extend, (player.__name__, gain, extend, before.to_toml())


def test_the_greedy_players_play() -> None:
    """They are players, not stubs: on these positions each plays tiles somewhere, and best-now splits a run."""
    from tests.ladder.test_tile import position
    simple = position(["R5 R6 R7", "K9 O9 B9"], "R8 R4 K2 K3 K4 R9")
    for player in TILE_PLAYERS:
        assert judged(simple, player(simple, random.Random(1))) == 6
    split = position(["R3 R4 R5 R6 R7"], "R5")
    assert judged(split, tile_best_now(split, random.Random(1))) == 1
    assert judged(split, tile_first_fit(split, random.Random(1))) == 0
    assert judged(split, tile_biggest_play_first(split, random.Random(1))) == 0
