"""A card's penalty, a hand's, a play's score and its meld value, each as the ruleset's family
counts it (rules.md §5-§8).

The family record holds each family's own values (``rummy.family``: House's
play score and first-out bonus, Robber's card points...); this module asks
it, and the family never calls back here.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Card
from .rules import Ruleset


def penalty(card: Card, rules: Ruleset) -> int:
    """What an unplayed card costs its holder (the family's table of values)."""
    return rules.family.penalty(card, rules)


def hand_penalty(cards: Iterable[Card], rules: Ruleset) -> int:
    return rules.family.hand_penalty(cards, rules)


def play_score(cards: tuple[Card, ...], rules: Ruleset) -> int:
    """Points a play is worth to whoever scores it (House, Robber); 0 elsewhere."""
    return rules.family.play_score(cards, rules)


def meld_value(cards: tuple[Card, ...], rules: Ruleset) -> int:
    """What a play counts towards an initial-meld threshold (House: its score; tiles: its numbers)."""
    return rules.family.meld_value(cards, rules)
