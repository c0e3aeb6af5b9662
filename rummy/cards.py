"""Cards, tiles and jokers, with the notation of formats.md.

A tile is a card: colour K/B/R/O is suit S/C/H/D, so ``R7`` and ``7H`` are
the same value (``Y``, yellow, is read as ``O``). Which notation is printed
depends on the ruleset's deck. Lists of cards may use the shorthands of
formats.md "Shorthands" (``K1-5``, ``7H-10H``, ``KRO10``, ``7HSD``,
``2xR5``), read by ``read_token``; nothing is ever written with them.
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
# Read, never written: many sets and apps call the orange colour yellow.
TILE_COLOUR_READ = {**TILE_COLOUR_TO_SUIT, "Y": "D"}
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
    colour = TILE_COLOUR_READ.get(token[0].upper())
    number = token[1:]
    if colour is not None and _is_number(number) and 1 <= int(number) <= 13:
        return Card(int(number), colour)
    return None


JOKER = Card.joker()


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a space-separated list of cards (commas are tolerated), shorthands expanded (``read_token``)."""
    return tuple(card for token in text.replace(",", " ").split() for card in read_token(token).cards)


# ------------------------------------------------------------------ shorthands
# The most cards one token may stand for: the largest deck (2 x 52 + 2 jokers). A count is
# checked against it before anything is expanded, so no token costs more than this.
LARGEST_DECK = 106
# The longest shorthand (``106x*=10S``, ``10SHDC``, ``10H-10H`` are 9 and fewer); longer text is
# refused before it is looked at, as a card is.
LONGEST_TOKEN = 12
_TOKEN_CHARACTERS = _CARD_CHARACTERS | frozenset("-")
_SUIT_LETTERS = frozenset("SHDC") | frozenset(SUIT_SYMBOLS)
RUN_FORMS = "a run is written K1-5 (tiles) or 7H-10H (cards)"


@dataclass(frozen=True)
class Written:
    """One token of a list of cards as written: the cards it stands for (a shorthand stands for
    several), and its notation (None for a joker alone, the same in both)."""

    cards: tuple[Card, ...]
    notation: Deck | None


def read_token(text: str) -> Written:
    """One token of a list of cards (no spaces or commas in it): a card (``Card.from_notation``), a
    run (``K1-5``, ``K1-K5``, ``7H-10H``; in cards an ace after a higher rank is high: ``QH-AH``), a
    group (``KRO10``: colours then number; ``7HSD``: rank then suits; each colour or suit once) or a
    count of one card (``2xR5``, 1 to ``LARGEST_DECK``). ``NotationError`` quotes the token.
    Bounded: a token of more than ``LONGEST_TOKEN`` characters is refused unread, and none stands
    for more than ``LARGEST_DECK`` cards."""
    if not isinstance(text, str):
        raise NotationError(f"expected a card like \"7H\", got {quote(text)}")
    token = text.strip()
    if len(token) > LONGEST_TOKEN or not _TOKEN_CHARACTERS.issuperset(token):
        raise NotationError(f"unknown card {quote(text)}")
    count, _, one = _split_count(token)
    if count is not None:
        if "-" in one or _group(one) is not None:
            raise NotationError(f"{quote(token)}: a count goes before one card (2xR5), not a run or a group")
        try:
            card = Card.from_notation(one)
        except NotationError:
            raise NotationError(f"{quote(token)}: a count goes before one card, e.g. 2xR5") from None
        return Written((card,) * count, notation_of(one))
    if "-" in token:
        return Written(_run(token), notation_of(token))
    group = _group(token)
    if group is not None:
        return Written(group, notation_of(token))
    return Written((Card.from_notation(token),), notation_of(token))


def _split_count(token: str) -> tuple[int | None, str, str]:
    """``2xR5`` as (2, "x", "R5"); a token with no count as (None, "", token)."""
    digits = 0
    while digits < len(token) and token[digits].isdigit():
        digits += 1
    if digits == 0 or digits >= len(token) - 1 or token[digits] not in "xX":  # 7X is an unknown card
        return None, "", token
    written = token[:digits]
    if len(written) > 3 or written.startswith("0") or not 1 <= int(written) <= LARGEST_DECK:
        raise NotationError(f"{quote(token)}: a count is 1 to {LARGEST_DECK}")
    return int(written), token[digits], token[digits + 1:]


def notation_of(token: str) -> Deck | None:
    """The notation a token that reads is written in: a card's ends with a suit, a tile's with a number."""
    head, _, stand_in = token.partition("=")
    last = (stand_in or head)[-1:].upper()
    if not stand_in and head.upper() in JOKER_NAMES:
        return None
    if last in _SUIT_LETTERS:
        return "cards"
    return "tiles" if last.isdigit() else None


def _run(token: str) -> tuple[Card, ...]:
    first_text, _, last_text = token.partition("-")
    if "-" in last_text or "=" in token:
        raise NotationError(f"{quote(token)}: {RUN_FORMS}")
    first = _read_natural(first_text)
    if first is None:
        raise NotationError(f"{quote(token)}: a run starts with a card or tile; {RUN_FORMS}")
    tiles = notation_of(first_text) == "tiles"
    if tiles and _is_number(last_text):
        last_rank = int(last_text)
        last = Card(last_rank, first.suit) if 1 <= last_rank <= 13 else None
    else:
        last = _read_natural(last_text)
        if last is not None and (notation_of(last_text) == "tiles") != tiles:
            last = None
    if last is None:
        ends = "a number 1 to 13 or a tile of its colour" if tiles else "a card of its suit"
        raise NotationError(f"{quote(token)}: a run ends with {ends}; {RUN_FORMS}")
    if last.suit != first.suit:
        raise NotationError(f"{quote(token)}: a run keeps one {'colour' if tiles else 'suit'}; {RUN_FORMS}")
    top = 14 if last.rank == 1 and first.rank > 1 and not tiles else last.rank  # QH-AH: a high ace
    if top == first.rank:
        raise NotationError(f"{quote(token)}: a run needs two different ranks")
    if top < first.rank:
        corner = "" if tiles else " (around the corner, write the cards: KH AH 2H)"
        raise NotationError(f"{quote(token)}: a run goes up, from its lowest {'tile' if tiles else 'card'}{corner}")
    return tuple(Card(rank_at(position), first.suit) for position in range(first.rank, top + 1))


def _group(token: str) -> tuple[Card, ...] | None:
    """``KRO10`` or ``7HSD``: one card of each colour or suit named; None for a token of neither form."""
    letters = len(token) - len(token.lstrip("KBROYkbroy"))
    if letters >= 2 and _is_number(token[letters:]):
        suits = [TILE_COLOUR_READ[colour.upper()] for colour in token[:letters]]
        rank: int | None = int(token[letters:])
        what = ("colour", "tile", token[0] + token[letters:])
    else:
        rank_length = 2 if token[:2].isdigit() else 1
        rank = _parse_rank(token[:rank_length])
        named = token[rank_length:]
        if rank is None or len(named) < 2 or not _SUIT_LETTERS.issuperset(named.upper()):
            return None
        suits = [SUIT_SYMBOLS.get(suit) or suit.upper() for suit in named]
        what = ("suit", "card", token[:rank_length] + named[0])
    if rank is None or not 1 <= rank <= 13:
        raise NotationError(f"{quote(token)}: a group's number is 1 to 13")
    if len(set(suits)) != len(suits):
        kind, one, example = what
        raise NotationError(f"{quote(token)}: a group names each {kind} once (two of one {one}: 2x{example})")
    return tuple(Card(rank, suit) for suit in suits)


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
