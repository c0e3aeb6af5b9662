"""Each family's play score, meld value and penalty value (rules.md §5-§8)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Iterable

from .cards import Card
from .plays import Reading, readings
from .rules import Ruleset
from .vocabulary import FirstOutBonus

if TYPE_CHECKING:
    from .position import Position

HOUSE_FIRST_OUT_BONUS = 25


def penalty(card: Card, rules: Ruleset) -> int:
    """What an unplayed card costs its holder (the family's table of values)."""
    return rules.family.penalty(card, rules)


def hand_penalty(cards: Iterable[Card], rules: Ruleset) -> int:
    return sum(penalty(card, rules) for card in cards)


def first_out_bonus(position: Position) -> Fraction:
    """What the mover's side earns by going out first in House Rummy (rules.md §5): 25 (Classic),
    or the opponents' hand penalties (Epic), a hidden hand counted at the mean penalty of the unseen cards."""
    rules = position.rules
    if rules.first_out_bonus == FirstOutBonus.FIXED:
        return Fraction(HOUSE_FIRST_OUT_BONUS)
    if rules.first_out_bonus != FirstOutBonus.HANDS:
        return Fraction(0)
    unseen = position.unseen_cards()
    count = sum(unseen.values())
    mean = Fraction(sum(penalty(card, rules) * n for card, n in unseen.items()), count) if count else Fraction(0)
    bonus = Fraction(0)
    for player in position.players:
        if player.side == position.mover.side:
            continue
        if player.hand is not None:
            bonus += hand_penalty(player.hand, rules)
        else:
            bonus += (player.hand_count or 0) * mean
    return bonus


def robber_card_points(rank: int, ace_high: bool) -> int:
    if rank == 1:
        return 15 if ace_high else 5
    return 10 if rank >= 10 else 5


def house_play_score(cards: tuple[Card, ...], rules: Ruleset) -> int:
    """5 a card, but a book of exactly 3 is 10; a 3-card play that can read as a run is a run."""
    found = readings(cards, rules)
    if not found:
        return 0
    if len(cards) == 3 and all(r.kind == "book" for r in found):
        return 10
    return 5 * len(cards)


def robber_play_score(cards: tuple[Card, ...], rules: Ruleset) -> int:
    """Book: card points, aces 15. Run: double, an ace 15 only when high. Best reading."""
    return max((_robber_reading_score(r) for r in readings(cards, rules)), default=0)


def _robber_reading_score(reading: Reading) -> int:
    if reading.kind == "book":
        return sum(robber_card_points(s.rank, ace_high=True) for s in reading.stand_ins)
    return 2 * sum(robber_card_points(s.rank, ace_high=p == 14) for s, p in zip(reading.stand_ins, reading.positions))


def play_score(cards: tuple[Card, ...], rules: Ruleset) -> int:
    """Points a play is worth to whoever scores it (House, Robber); 0 elsewhere."""
    return rules.family.play_score(cards, rules)


def meld_value(cards: tuple[Card, ...], rules: Ruleset) -> int:
    """What a play counts towards an initial-meld threshold (House: its score; tiles: its numbers)."""
    return rules.family.meld_value(cards, rules)
