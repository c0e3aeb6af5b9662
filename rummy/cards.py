"""Cards, tiles and jokers, with the notation of formats.md.

A tile is a card: colour K/B/R/O is suit S/C/H/D, so ``R7`` and ``7H`` are
the same value. Which notation is printed depends on the ruleset's deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from .errors import NotationError, quote

Deck = Literal["cards", "tiles"]

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
TILE_COLOUR_TO_SUIT = {"K": "S", "B": "C", "R": "H", "O": "D"}
SUIT_TO_TILE_COLOUR = {suit: colour for colour, suit in TILE_COLOUR_TO_SUIT.items()}
RANK_NAMES = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
RANK_ALIASES = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
JOKER_NAMES = ("*", "JK", "JO")
# The longest card is a joker with its stand-in: ``JK=10S``. Longer text is
# refused before it is looked at (a 5,000-digit "rank" must not be converted).
LONGEST_CARD = 6
# Card text is ASCII, except the four suit symbols: ``７H`` or ``7ſ`` is no card.
_CARD_CHARACTERS = (frozenset("0123456789*=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
                    | frozenset(SUIT_SYMBOLS))


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def _parse_rank(text: str) -> int | None:
    upper = text.upper()
    if upper in RANK_ALIASES:
        return RANK_ALIASES[upper]
    if _is_number(upper) and 1 <= int(upper) <= 13:
        return int(upper)
    return None


def _is_number(text: str) -> bool:
    """One or two ASCII digits, no leading zero (``isdigit`` alone takes ``²`` and ``７``)."""
    return 1 <= len(text) <= 2 and text.isascii() and text.isdigit() and not text.startswith("0")


@dataclass(frozen=True, order=True)
class Card:
    """A natural card (rank 1..13, suit S/H/D/C) or a joker (rank 0, suit '').

    A joker on the table may carry the card it stands for (``*=6H``); that
    is a reading of the joker, not part of its identity, so it is left out
    of equality and hashing: two jokers are the same card.
    """

    rank: int
    suit: str
    stands_for: Card | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.rank == 0:
            if self.suit != "":
                raise NotationError(f"a joker has no suit, got {quote(self.suit)}")
            if self.stands_for is not None and self.stands_for.is_joker:
                raise NotationError("a joker cannot stand for a joker")
        else:
            if not 1 <= self.rank <= 13 or self.suit not in SUITS:
                raise NotationError(f"no such card: rank {quote(self.rank)}, suit {quote(self.suit)}")
            if self.stands_for is not None:
                raise NotationError("only a joker can stand for another card")

    @classmethod
    def joker(cls, stands_for: Card | None = None) -> Card:
        return cls(0, "", stands_for)

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def plain(self) -> Card:
        """The card without a joker's stand-in."""
        return Card.joker() if self.is_joker else self

    def with_stand_in(self, stands_for: Card | None) -> Card:
        if not self.is_joker:
            raise NotationError(f"{self.notation()!r} is not a joker")
        return Card.joker(stands_for)

    @classmethod
    def from_notation(cls, text: str) -> Card:
        """Read ``7H``, ``10S``, ``TS``, ``A♣``, ``R7``, ``*``, ``JK``, ``*=6H``."""
        if not isinstance(text, str):
            raise NotationError(f"expected a card like \"7H\", got {quote(text)}")
        token = text.strip()
        if not token:
            raise NotationError("empty card")
        if len(token) > LONGEST_CARD or not _CARD_CHARACTERS.issuperset(token):
            raise NotationError(f"unknown card {quote(text)}")
        head, sep, tail = token.partition("=")
        if head.upper() in JOKER_NAMES:
            if not sep:
                return cls.joker()
            stand_in = _read_natural(tail) if tail else None
            if stand_in is None:
                if tail.upper() in JOKER_NAMES:
                    raise NotationError(f"unknown card {quote(text)}: a joker cannot stand for a joker")
                raise NotationError(f"unknown card {quote(text)}: a joker stands for a natural card, e.g. *=6H")
            return cls.joker(stand_in)
        if sep:
            raise NotationError(f"unknown card {quote(text)}: only a joker carries '='")
        card = _read_natural(token)
        if card is None:
            raise NotationError(f"unknown card {quote(text)}")
        return card

    def notation(self, deck: Deck = "cards") -> str:
        if self.is_joker:
            if self.stands_for is None:
                return "*"
            return "*=" + self.stands_for.notation(deck)
        if deck == "tiles":
            return f"{SUIT_TO_TILE_COLOUR[self.suit]}{self.rank}"
        return f"{rank_name(self.rank)}{self.suit}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Card.from_notation({self.notation()!r})"


def _read_natural(token: str) -> Card | None:
    if not token:
        return None
    last = token[-1]
    suit = SUIT_SYMBOLS.get(last) or (last.upper() if last.upper() in SUITS else None)
    if suit is not None:
        rank = _parse_rank(token[:-1])
        if rank is not None:
            return Card(rank, suit)
    colour = TILE_COLOUR_TO_SUIT.get(token[0].upper())
    number = token[1:]
    if colour is not None and _is_number(number) and 1 <= int(number) <= 13:
        return Card(int(number), colour)
    return None


JOKER = Card.joker()


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a space-separated list of cards (commas are tolerated)."""
    return tuple(Card.from_notation(token) for token in text.replace(",", " ").split())


def cards_notation(cards: Iterable[Card], deck: Deck = "cards") -> str:
    return " ".join(card.notation(deck) for card in cards)


def cards_without(cards: Iterable[Card], gone: Counter[Card]) -> tuple[Card, ...]:
    """``cards`` less the plain cards counted in ``gone``, the rest in their order."""
    left = Counter(gone)
    kept = []
    for card in cards:
        if left[card.plain()] > 0:
            left[card.plain()] -= 1
        else:
            kept.append(card)
    return tuple(kept)


def cards_within(cards: Iterable[Card], available: Counter[Card]) -> tuple[Card, ...]:
    """The cards of ``cards`` that ``available`` still holds (e.g. hot cards still in hand)."""
    left = Counter(available)
    kept = []
    for card in cards:
        if left[card.plain()] > 0:
            left[card.plain()] -= 1
            kept.append(card)
    return tuple(kept)


def rank_at(position: int) -> int:
    """The rank at a run position: a high ace stands at 14, and a circular run counts on past 13."""
    return (position - 1) % 13 + 1


def full_deck(copies: int, jokers: int) -> list[Card]:
    """Every card of a deck, jokers last."""
    naturals = [Card(rank, suit) for _ in range(copies) for suit in SUITS for rank in range(1, 14)]
    return naturals + [JOKER] * jokers
