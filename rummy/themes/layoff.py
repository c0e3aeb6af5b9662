"""Lay-off rummy's theme detectors (docs/themes.md, "Lay-off rummy")."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from ..plays import is_whole
from ..scoring import penalty
from ..vocabulary import PuzzleKind
from .house import warm_or_hot
from .turn import TurnView, going_out, took_pile

MAX_HAND = 11  # cards of a hand whose melds sacrifice looks through (2,000 subsets at most)



def keep_a_card(view: TurnView) -> bool:
    """A card left in the hand (the discard aside) could be laid off on a play of the table after the turn."""
    if view.rules.layoff_needs_meld and not (view.before.mover.melded or view.played):
        return False
    return any(view.fits(cards, card) for card in set(view.hand_after) for cards in view.final_plays.values())


def layoff_choice(view: TurnView) -> bool:
    """A card the turn plays also fits, on its own, a play of the table before other than the one it went
    to: it could have been laid off there (or, melded, laid off instead)."""
    for card, target in view.played:
        if any(name != target and view.fits(cards, card) for name, cards in view.before_plays.items()):
            return True
    return False


def sacrifice(view: TurnView) -> bool:
    """The hand holds a meld of its own cards worth more points than all the turn plays from the hand
    (the discard aside): the turn gives those points up, to go out or to keep its cards together."""
    hand = sorted(set(view.hand_before))
    if not hand or len(hand) > MAX_HAND:
        return False
    played = sum(penalty(card, view.rules) for card, _ in view.played)
    shortest = min(view.rules.book_min, view.rules.run_min)
    for size in range(shortest, len(hand) + 1):
        for cards in combinations(hand, size):
            if sum(penalty(card, view.rules) for card in cards) > played and is_whole(cards, view.rules):
                return True
    return False


DETECTORS: dict[str, Callable[[TurnView], bool]] = {
    "going-out": going_out,
    "warm-or-hot-card": warm_or_hot,
    "keep-a-card": keep_a_card,
    "layoff-choice": layoff_choice,
    "sacrifice": sacrifice,
    "take-the-pile": took_pile,
}

TASK_THEMES: dict[str, frozenset[str]] = {
    PuzzleKind.GO_OUT: frozenset({"going-out"}),
}
