"""Cards that cannot join any play: drawing one changes no turn but the hand.

On a table that may be rearranged freely (House Rummy), every card on the
table and in the mover's hand may end in a play with the drawn card. A
natural card that no book and no run of those cards can hold ends in the
hand or on the discard pile whatever the turn, so the best turn after
drawing it depends on the card only through its penalty (Classic's hand
penalty, Epic's unseen mean): one search answers every such card of equal
penalty, and a hot one (a demand) leaves no legal turn at all.
"""

from __future__ import annotations

from collections import Counter

from ..cards import Card, rank_at
from ..position import Position
from ..vocabulary import Rearrange


def idle_key(position: Position, card: Card) -> tuple[str, int] | None:
    """For a card that can join no play after it is drawn into ``position``'s hand: ("idle", its penalty).

    None where it might join one, or where the table cannot be rearranged
    freely (an extend-only table is cheap to search card by card).
    """
    rules = position.rules
    if rules.rearrange != Rearrange.FREE or card.is_joker:
        return None
    if _joins_a_play(position, card):
        return None
    return ("idle", rules.family.penalty(card, rules))


def _joins_a_play(position: Position, card: Card) -> bool:
    rules = position.rules
    others = Counter(c.plain() for c in position.table_cards()) + Counter(c.plain() for c in position.mover.hand or ())
    others[card] -= 1  # the card itself (it is in the hand after the draw)
    jokers = sum(n for c, n in others.items() if c.is_joker)
    naturals = {c for c, n in others.items() if n > 0 and not c.is_joker}
    same_rank = [c for c, n in others.items() if n > 0 and not c.is_joker and c.rank == card.rank
                 for _ in range(n)]
    mates = len({c.suit for c in same_rank} - {card.suit}) if rules.book_distinct_suits else len(same_rank)
    if mates + jokers >= rules.book_min - 1:
        return True
    for window in rules.run_windows(rules.run_min):
        ranks = [rank_at(p) for p in window]
        if card.rank not in ranks:
            continue
        spot = ranks.index(card.rank)
        missing = sum(Card(rank, card.suit) not in naturals for k, rank in enumerate(ranks) if k != spot)
        if missing <= jokers:
            return True
    return False
