"""Pieces of the simple one-order greedy players that tests/ladder/test_house.py and
tests/ladder/test_robber.py pit the ladder's rungs against (written apart from rummy.ladder on purpose).

Plays are ``(owner, cards)`` pairs and the hand a list of cards, both changed in place."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from rummy.answer import best
from rummy.cards import Card
from rummy.ladder import Effort, climb, ladder_tier
from rummy.plays import Play, is_whole
from rummy.position import Position, Turn
from rummy.rules import Ruleset
from rummy.scoring import penalty
from rummy.solution import SolverConfig
from rummy.vocabulary import Tier

PlayCards = tuple[str, list[Card]]


def lay_new_plays(hand: list[Card], plays: list[PlayCards], owner: str, rules: Ruleset) -> bool:
    """Every three hand cards that make a whole play, laid as new plays of ``owner``; whether any was."""
    laid = False
    for combo in combinations(list(hand), 3):
        if all(c in hand for c in combo) and is_whole(combo, rules):
            plays.append((owner, list(combo)))
            for c in combo:
                hand.remove(c)
            laid = True
    return laid


def finished_turn(pos: Position, plays: list[PlayCards], hand: list[Card], meld: tuple[Play, ...] | None) -> Position:
    """The turn's end: the costliest hand card discarded, the plays given to their owners, the mover's hand
    what is left (``meld``: the turn's declared meld, None for undeclared)."""
    rules = pos.rules
    discard = max(hand, key=lambda c: penalty(c, rules)) if hand else None
    if discard is not None:
        hand.remove(discard)
    mover = pos.to_move
    players = tuple(replace(p, plays=tuple(Play(tuple(c)) for o, c in plays if o == p.name),
                            **({"hand": tuple(hand)} if p.name == mover else {}))
                    for p in pos.players)
    return replace(pos, players=players, discard_pile=pos.discard_pile + ((discard,) if discard else ()),
                   turn=Turn(meld=meld, replaced=(), discard=discard, discard_declared=True))


def optimum_of(pos: Position, config: SolverConfig) -> Fraction:
    """The solver's best gain (Epic's may be fractional: the solver gives it as a float)."""
    return Fraction(best(pos, config).solution.gain).limit_denominator(10_000)


def reach(pos: Position, config: SolverConfig, effort: Effort) -> tuple[Fraction, list[Fraction | None]]:
    """The solver's best gain and the gain of each rung of the ladder, weakest first."""
    return optimum_of(pos, config), [found.gain for found in climb(pos, None, effort)]


def assert_climbed(pos: Position, rung: int, config: SolverConfig, effort: Effort, tier: Tier | None = None) -> None:
    """The ladder on ``pos``: rung ``rung`` (0: the weakest) is the first to reach the solver's optimum
    (one past the last rung: none does), and the position's tier is ``tier`` when given."""
    optimum, found = reach(pos, config, effort)
    if rung > 0:
        below = found[rung - 1]
        assert below is not None and below < optimum
    if rung < len(found):
        assert found[rung] == optimum
    if tier is not None:
        assert ladder_tier(pos, optimum, effort) == tier
