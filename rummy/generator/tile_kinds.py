"""Tile-rummy puzzles: "play all your tiles" and "play as many as you can" (any tile preset).

Both are dealt backwards from an answer (``tile_deal``), so the rack can be
emptied: ``easy`` and ``medium`` from a window of interlocking plays (with a
short solver-guided climb for ``medium``), ``hard`` and ``expert`` from one or
two crossings (a grid laid one way on the table, the other way in the
answer). ``max`` adds a few tiles from the rest of the deck, and keeps only
positions where some tile must stay in the rack. The tier asked for only
picks the deal; the generator measures the tier the puzzle really has.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..answer import Answer, best
from ..position import Position
from ..rules import Ruleset
from ..solution import SolverConfig
from ..vocabulary import PuzzleKind, Status, Tier
from .kinds import FamilySupport, Kind, register_family, register_kind
from .tile_arrangement import ambiguity, canonical
from .tile_deal import Deal, DealShape, climb, deal, position_of, with_extra
from .tile_rivals import tile_rivals

# How a position is dealt for each tier asked for (None: one of them at random).
SHAPES = {
    Tier.EASY: DealShape(plays=(4, 6), window=(6, 9), rack=(3, 4), jokers=(0, 1)),
    Tier.MEDIUM: DealShape(plays=(5, 8), window=(5, 7), rack=(4, 6), jokers=(0, 1), lonely=True),
    Tier.HARD: DealShape(plays=(1, 3), jokers=(0, 1), lonely=True, switches=(2, 2), filler=(0, 2)),
    Tier.EXPERT: DealShape(plays=(1, 3), jokers=(0, 1), lonely=True, switches=(2, 3), filler=(0, 2)),
}
# Solver-guided climb per tier (tile_deal.climb): changes tried, and the
# hardness (_hardness: 100 a play disturbed, 1 a tile moved) at which it stops.
CLIMB = {Tier.EASY: (0, 0), Tier.MEDIUM: (8, 200), Tier.HARD: (0, 0), Tier.EXPERT: (0, 0)}
CLIMB_SOLVE_SECONDS = 2.0
EXTRA_TILES = (1, 3)  # 'max': tiles added from the rest of the deck
LURE_CHANCE = 0.3  # 'max' hard and expert: the chance that one added tile fits the table as it lies


def _deal(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Deal | None:
    tier = tier if tier in SHAPES else rng.choice(sorted(SHAPES))
    shape = SHAPES[tier]
    if rules.max_cards_per_turn is not None:
        cap = rules.max_cards_per_turn - EXTRA_TILES[1]
        fewest, most = shape.rack
        shape = replace(shape, rack=(min(fewest, cap), min(most, cap)))
    dealt = deal(rng, rules, shape)
    steps, target = CLIMB[tier]
    if dealt is None or not steps:
        return dealt
    return climb(rng, dealt, shape, rules.run_min, lambda d: _hardness(rules, d), steps, target)


def _hardness(rules: Ruleset, dealt: Deal) -> float:
    """How much of the table the best turn that empties the rack rebuilds (-1: it cannot be emptied).

    Plays disturbed first, then tiles moved: the plan's own figures, which the tiers read.
    """
    answer = best(position_of(rules, dealt, None), SolverConfig(time_limit=CLIMB_SOLVE_SECONDS, workers=1))
    if answer.solution.status != Status.OPTIMAL or answer.solution.cards_played < len(dealt.rack) \
            or answer.plan is None:
        return -1
    return answer.plan.plays_disturbed * 100 + answer.plan.cards_moved


def make_play_all(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    dealt = _deal(rng, rules, tier)
    return position_of(rules, dealt, rng) if dealt else None


def make_max(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    dealt = _deal(rng, rules, tier)
    if dealt is None:
        return None
    count = rng.randint(*EXTRA_TILES)
    # Hard and expert: now and then one of them fits the table as it lies (a lure: playing it may cost more).
    lures = int(rng.random() < LURE_CHANCE) if tier in (Tier.HARD, Tier.EXPERT) else 0
    return position_of(rules, with_extra(rng, rules, dealt, count, lures), rng)


def accept_play_all(position: Position, answer: Answer) -> str | None:
    if answer.solution.cards_played < len(position.mover.hand or ()):
        return "rack not emptied"
    return None


def accept_max(position: Position, answer: Answer) -> str | None:
    played = answer.solution.cards_played
    if played >= len(position.mover.hand or ()):
        return "every tile plays"
    if played < 2:
        return "fewer than 2 tiles play"
    return None


register_family(FamilySupport("tile", near=1, canonical=canonical, ambiguity=ambiguity, rivals=tile_rivals))
register_kind(Kind(PuzzleKind.PLAY_ALL, ("tile",), "play all your tiles", make_play_all, accept_play_all))
# The gain counts tiles, not their numbers (rules.md §6).
MAX_TASK = "play as many tiles from your rack as you can (each counts one, whatever its number)"
register_kind(Kind(PuzzleKind.MAX, ("tile",), MAX_TASK, make_max, accept_max))
