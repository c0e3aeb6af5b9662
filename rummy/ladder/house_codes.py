"""The House ladder's card codes: inside its searches a card is a small number and a table card carries
where it came from (rummy/ladder/house.py and house_lookahead.py share these)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from ..cards import JOKER, SUITS, Card

# Inside the search a card is a small number (a joker 0, else rank * 4 + suit), and a card on the
# table carries where it came from: ``tag * 64 + card``, the tag a seat's index (the space it
# lay in before the turn), PAY (a hand card played after the meld: it pays for steals) or MELD.
PAY = 8
MELD = 9
TaggedPlay = tuple[int, tuple[int, ...], str | None]  # space (seat index), tagged cards (sorted), name before the turn
# A card lifted off another space: the plays it touches, the card, those plays as they are left, new plays cut off.
Lift = tuple[tuple[int, ...], int, tuple[tuple[int, tuple[int, ...]], ...], tuple[tuple[int, tuple[int, ...]], ...]]


def lifted(plays: tuple[TaggedPlay, ...], chosen: Iterable[Lift]) -> list[TaggedPlay]:
    """The plays once the chosen lifts are made: each robbed play as the lift leaves it, and the plays it
    cuts off added (a run cut in two), named by nobody yet."""
    base = list(plays)
    for _, _, edits, extras in chosen:
        for index, tagged in edits:
            space, _, name = base[index]
            base[index] = (space, tagged, name)
        base.extend((space, tagged, None) for space, tagged in extras)
    return base



def code_of(card: Card) -> int:
    return 0 if card.is_joker else card.rank * 4 + SUITS.index(card.suit)


def card_of(code: int) -> Card:
    return JOKER if code == 0 else Card(code >> 2, SUITS[code & 3])


def plain_codes(tagged: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(x & 63 for x in tagged))


def related_cards(a: int, b: int) -> bool:
    """Cards a player looks at together: a joker, one rank, or one suit a few ranks apart."""
    if a == 0 or b == 0 or a >> 2 == b >> 2:
        return True
    return (a & 3) == (b & 3) and min(((a >> 2) - (b >> 2)) % 13, ((b >> 2) - (a >> 2)) % 13) <= 3


def distinct_subsets(cards: Iterable[int], size: int) -> Iterator[tuple[int, ...]]:
    """Distinct ``size``-subsets of sorted ``cards``."""
    seen: set[tuple[int, ...]] = set()
    for combo in combinations(tuple(cards), size):
        if combo not in seen:
            seen.add(combo)
            yield combo
