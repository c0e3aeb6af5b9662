"""Robber Rummy deals with traps for the greedy player (``robber_kinds``'s tiers medium to expert).

A *trap* is one decision a greedy player gets wrong (docs/ladder.md, "Robber
Rummy"): a hand card X that fits a run B and one or two *decoys*, plays
where X gains more now (so every simple rule, the most gain now, the best
steal, the biggest play, the best run, picks a decoy), while X on B lets
the *chain* follow it: the next cards of B's suit, which fit no play until X
is on B. The run decoy A lies on X's other side, one card past it in the
same suit (B below X, A above, or the mirror), so X joins B or A and the
chain (second copies of A's first cards) continues B only. A second decoy,
now and then, is a book of X's rank. B belongs to an opponent (a steal),
to the mover (a card put on one's own play instead of stealing), or, in a
partnership deal, to the mover's partner.

The table order is left to chance: a trap whose B comes first among X's
places is found by a first-fit player, so the ladder grades it lower (the
generator keeps only candidates of the tier asked for). ``steal-chain``
makes one such decision a turn, ``lookahead`` three: a trap is medium, two
or three are hard, four are expert.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..cards import SUITS, Card
from ..family import ROBBER
from ..plays import is_whole
from ..rules import Ruleset
from ..scoring import penalty
from .deck import DeckPool

Range = tuple[int, int]
TRAP_TRIES = 600  # layouts tried for one trap
OWNERS = ("opponent", "own", "partner")  # who owns a trap's run B
# The chain must outweigh twice what A beats B by (X on A steals A: its score counts twice), and each
# chain card is worth three times its value (doubled in the run, out of the hand): so the chain is
# high cards, X a 7 to a queen with A above it, mostly.
X_POSITIONS = (5, 12)
UPWARD = 0.85


@dataclass(frozen=True)
class Trap:
    run: list[Card]  # B: where X belongs
    owner: str  # one of OWNERS
    decoys: list[list[Card]]  # opponents' plays where X gains more now: the run A, perhaps a book of X's rank
    cards: list[Card]  # X, then the chain that follows it on B


def _card(position: int, suit: str) -> Card:
    return Card(1 if position == 14 else position, suit)


def fits(card: Card, play: list[Card], rules: Ruleset) -> bool:
    return is_whole(tuple(play) + (card,), rules)


def _score(cards: list[Card], rules: Ruleset) -> int:
    return ROBBER.play_score(tuple(cards), rules)


def _gain(play: list[Card], cards: list[Card], ours: bool, rules: Ruleset) -> int:
    """What ``cards`` gain now laid on ``play``: its growth (one's own side) or its new score and the owner's
    loss (an opponent's), and the cards' penalties."""
    grown, old = _score(play + cards, rules), _score(play, rules)
    return (grown - old if ours else grown + old) + sum(penalty(c, rules) for c in cards)


def plant(rng: random.Random, pool: DeckPool, rules: Ruleset, owner: str, least_gap: int,
          table: list[list[Card]], hand: list[Card]) -> Trap | None:
    """One trap, its cards taken from ``pool``; None when no layout fits around ``table`` and ``hand``."""
    ours = owner != "opponent"
    left = Counter(c.suit for c in pool.cards)
    roomy = sorted(SUITS, key=lambda s: (-left[s], rng.random()))[:2]  # traps before spread over the suits
    for _ in range(TRAP_TRIES):
        suit = rng.choice(roomy)
        step = 1 if rng.random() < UPWARD else -1  # A above X and B below, or the mirror
        x_at = rng.randint(*X_POSITIONS) if step == 1 else rng.randint(5, 12)
        room_a, room_b = (14 - x_at, x_at - 2) if step == 1 else (x_at - 2, 14 - x_at)  # never both aces
        if room_a < 3 or room_b < 3:
            continue
        b_length, a_length = rng.randint(3, min(5, room_b)), rng.randint(3, min(4, room_a))
        chain_length = rng.randint(1, 2)
        b_at = [x_at - step * i for i in range(b_length, 0, -1)]
        a_at = [x_at + step * i for i in range(1, a_length + 1)]
        run = sorted(_card(p, suit) for p in b_at)
        decoy = sorted(_card(p, suit) for p in a_at)
        x = _card(x_at, suit)
        chain = [_card(p, suit) for p in a_at[:chain_length]]
        decoys = [decoy]
        if rng.random() < 0.4:
            same_rank = [c for c in pool.cards if c.rank == x.rank and c != x]
            decoys.append(rng.sample(same_rank, min(len(same_rank), rng.randint(3, 5))))
        plan = run + [x] + chain + [c for d in decoys for c in d]
        if not pool.has(plan) or not all(is_whole(tuple(d), rules) and fits(x, d, rules) for d in decoys):
            continue
        if any(fits(c, play, rules) for c in [x] + chain for play in table) \
                or any(fits(c, play, rules) for c in hand for play in [run] + decoys):
            continue
        on_b = _gain(run, [x], ours, rules)
        right = _gain(run, [x] + chain, ours, rules)
        wrong = max(_gain(d, [x], False, rules) for d in decoys)
        biggest = max(_score(d, rules) for d in decoys)
        if _gain(decoy, [x], False, rules) <= on_b or right - wrong < least_gap or biggest <= _score(run, rules):
            continue
        pool.take(plan)
        return Trap(run, owner, decoys, [x] + chain)
    return None


def _fitting(card: Card, table: list[list[Card]], rules: Ruleset) -> list[int]:
    """The identities of the plays ``card`` fits."""
    return sorted(id(play) for play in table if fits(card, play, rules))


def traps_stand(traps: list[Trap], table: list[list[Card]], hand: list[Card], rules: Ruleset) -> bool:
    """Each trap untouched by the rest of the deal: its X fits its run and decoys alone, its chain no play
    on the table, and no other hand card fits a trap's play (which would change what X gains there). The
    traps' cards may make plays in the hand (X and its chain, three of a rank): more decoys, which the
    ladder and the solver weigh like any other."""
    trap_cards = Counter(c for trap in traps for c in trap.cards)
    others = list((Counter(hand) - trap_cards).elements())
    for trap in traps:
        x, *chain = trap.cards
        if _fitting(x, table, rules) != sorted(id(p) for p in [trap.run] + trap.decoys):
            return False
        if any(_fitting(c, table, rules) for c in chain):
            return False
        if any(fits(c, play, rules) for c in others for play in [trap.run] + trap.decoys):
            return False
    return True
