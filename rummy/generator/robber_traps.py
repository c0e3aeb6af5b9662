"""Robber Rummy deals with traps for the greedy player (``robber_kinds``'s tiers medium to expert).

A *trap* is one decision a greedy player gets wrong (docs/ladder.md, "Robber
Rummy"): a hand card X that fits a run B and one or two *decoys*, plays
where X gains more now (so every simple rule, the most gain now, the best
steal, the biggest play, the best run, picks a decoy), while X on B lets
the *chain* follow it: the next cards of B's suit, which fit no play until X
is on B. The run decoy A lies just above X in the same suit (B just below),
so X joins B or A, and the chain (second copies of A's first cards)
continues B only. A second decoy, now and then, is a book of X's rank. Two
traps may share a run: the first trap's B is the second one's decoy A, so
the steals interact (the second X, greedy, takes that run, which makes it
the mover's: the first X then gains little there and goes to its own
decoy).

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
# The chain must outweigh twice what A beats B by (X on A steals A: its score counts twice), and each
# chain card is worth three times its value (doubled in the run, out of the hand): so the chain is
# high cards, X a 5 to a jack with A above it, a run of three or four. (The mirror, A below X, never
# passes: its chain is low. B owned by the mover or a partner never passes either: X on it gains only
# its own points, under A's score twice, more than a chain of two can win back.)
X_POSITIONS = (5, 11)


@dataclass(frozen=True)
class Trap:
    run: list[Card]  # B, an opponent's: where X belongs
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


def _positions(run: list[Card]) -> list[int]:
    """A run's places in its suit, 1 (low ace) to 14 (high ace)."""
    high = any(c.rank == 13 for c in run)
    return sorted(14 if c.rank == 1 and high else c.rank for c in run)


def plant(rng: random.Random, pool: DeckPool, rules: Ruleset, least_gap: int, table: list[list[Card]],
          hand: list[Card], above: list[Card] | None = None, book_chance: float = 0.4) -> Trap | None:
    """One trap, its cards taken from ``pool``; None when no layout fits around ``table`` and ``hand``.
    ``above``: an opponent's run already on the table (an earlier trap's B) to be this trap's decoy A, so
    the two traps interact: X taking that run makes it the mover's, and the earlier X gains little there.
    ``book_chance``: how often a book of X's rank is a second decoy (books use up cards of four suits,
    so deals of many traps fail more often with them)."""
    left = Counter(c.suit for c in pool.cards)
    roomy = sorted(SUITS, key=lambda s: (-left[s], rng.random()))[:2]  # traps before spread over the suits
    for _ in range(TRAP_TRIES):
        if above is None:
            suit = rng.choice(roomy)
            x_at = rng.randint(*X_POSITIONS)
            a_at = [x_at + i for i in range(1, rng.randint(3, min(4, 14 - x_at)) + 1)]
        else:
            suit, a_at = above[0].suit, _positions(above)
            x_at = a_at[0] - 1
        if x_at < 5 or x_at > 11:  # B below X needs three places above the low ace, A three above X
            if above is not None:
                return None
            continue
        b_at = [x_at - i for i in range(rng.randint(3, min(5, x_at - 2)), 0, -1)]  # never the low ace
        run = [_card(p, suit) for p in b_at]
        decoy = above if above is not None else [_card(p, suit) for p in a_at]
        x = _card(x_at, suit)
        chain = [_card(p, suit) for p in a_at[: rng.randint(1, 2)]]  # the second copies of A's first cards
        decoys = [decoy]
        if rng.random() < book_chance:
            same_rank = [c for c in pool.cards if c.rank == x.rank and c != x]
            decoys.append(rng.sample(same_rank, min(len(same_rank), rng.randint(3, 5))))
        plan = run + [x] + chain + [c for d in decoys if d is not above for c in d]
        if not pool.has(plan) or max(Counter(c.rank for c in hand + [x] + chain).values()) > 2 \
                or not all(is_whole(tuple(d), rules) and fits(x, d, rules) for d in decoys):
            continue  # three of a rank would meld as a book: another use for a chain card, undoing the trap
        on_b = _gain(run, [x], False, rules)
        right = _gain(run, [x] + chain, False, rules)
        wrong = max(_gain(d, [x], False, rules) for d in decoys)
        biggest = max(_score(d, rules) for d in decoys)
        if _gain(decoy, [x], False, rules) <= on_b or right - wrong < least_gap or biggest <= _score(run, rules):
            continue
        if any(fits(c, play, rules) for c in [x] + chain for play in table if play is not above) \
                or any(fits(c, play, rules) for c in hand for play in [run] + decoys if play is not above):
            continue  # (the trap before's X fits ``above``: that is the interaction)
        pool.take(plan)
        return Trap(run, decoys, [x] + chain)
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
