"""Card notation (formats.md "Cards"): every alias reads, printing reads back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy.cards import JOKER, SUITS, Card, cards_notation, full_deck, parse_cards
from rummy.errors import NotationError

RANK_SPELLINGS = {
    1: ["A", "a", "1"],
    10: ["10", "T", "t"],
    11: ["J", "j", "11"],
    12: ["Q", "q", "12"],
    13: ["K", "k", "13"],
    **{rank: [str(rank)] for rank in range(2, 10)},
}
SUIT_SPELLINGS = {"S": ["S", "s", "♠"], "H": ["H", "h", "♥"], "D": ["D", "d", "♦"], "C": ["C", "c", "♣"]}
TILE_COLOURS = {"S": ["K", "k"], "C": ["B", "b"], "H": ["R", "r"], "D": ["O", "o"]}

naturals = st.builds(Card, st.integers(1, 13), st.sampled_from(SUITS))
jokers = st.builds(Card.joker, st.none() | naturals)
any_card = naturals | jokers
decks = st.sampled_from(["cards", "tiles"])


@given(any_card, decks)
def test_notation_reads_back_in_both_decks(card: Card, deck: str) -> None:
    back = Card.from_notation(card.notation(deck))
    assert back == card
    assert back.stands_for == card.stands_for


@given(naturals, st.data())
def test_every_card_alias_reads_as_the_same_card(card: Card, data: st.DataObject) -> None:
    rank = data.draw(st.sampled_from(RANK_SPELLINGS[card.rank]))
    suit = data.draw(st.sampled_from(SUIT_SPELLINGS[card.suit]))
    assert Card.from_notation(rank + suit) == card


@given(naturals, st.data())
def test_every_tile_alias_reads_as_the_same_card(card: Card, data: st.DataObject) -> None:
    colour = data.draw(st.sampled_from(TILE_COLOURS[card.suit]))
    assert Card.from_notation(f"{colour}{card.rank}") == card


@pytest.mark.parametrize("text", ["*", "JK", "jk", "Jo", "JO", "jo", " * "])
def test_joker_aliases(text: str) -> None:
    card = Card.from_notation(text)
    assert card.is_joker and card == JOKER and card.stands_for is None


@given(naturals, decks, st.sampled_from(["*", "JK", "Jo"]))
def test_joker_stand_in_reads_in_either_notation(card: Card, deck: str, joker: str) -> None:
    read = Card.from_notation(f"{joker}={card.notation(deck)}")
    assert read.is_joker and read.stands_for == card
    # The stand-in is a reading, not part of the card's identity.
    assert read == JOKER and hash(read) == hash(JOKER)


def test_tile_and_card_spell_the_same_value() -> None:
    assert Card.from_notation("R7") == Card.from_notation("7H") == Card(7, "H")
    assert Card.from_notation("K1") == Card.from_notation("AS")
    assert Card.from_notation("B13") == Card.from_notation("KC")
    assert Card.from_notation("O10") == Card.from_notation("TD")
    assert Card(7, "H").notation("tiles") == "R7"
    assert Card(10, "S").notation("cards") == "10S"
    assert Card(12, "D").notation("cards") == "QD"
    assert Card.joker(Card(7, "H")).notation("tiles") == "*=R7"


@given(any_card)
def test_repr_rebuilds_the_card(card: Card) -> None:
    rebuilt = eval(repr(card), {"Card": Card})
    assert rebuilt == card and rebuilt.stands_for == card.stands_for


@pytest.mark.parametrize(
    "text",
    ["", "   ", "7X", "14H", "0H", "07H", "H7", "R14", "R0", "R07", "X7", "10", "S", "**", "*=*", "*=JK",
     "7H=6H", "*=", "*=7X", "1O0", "AA"],
)
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Card.from_notation(text)


def test_unknown_card_message_quotes_the_text() -> None:
    with pytest.raises(NotationError, match="7X"):
        Card.from_notation("7X")


@pytest.mark.parametrize("rank, suit", [(0, "H"), (14, "S"), (5, "X"), (5, "")])
def test_impossible_cards_cannot_be_built(rank: int, suit: str) -> None:
    with pytest.raises(NotationError):
        Card(rank, suit)


def test_only_a_joker_carries_a_stand_in() -> None:
    with pytest.raises(NotationError):
        Card(5, "H", Card(6, "H"))
    with pytest.raises(NotationError):
        Card.joker(JOKER)
    with pytest.raises(NotationError):
        Card(5, "H").with_stand_in(Card(6, "H"))


@given(st.lists(any_card, max_size=12), decks)
def test_card_lists_read_back(cards: list[Card], deck: str) -> None:
    text = cards_notation(cards, deck)
    back = parse_cards(text)
    assert back == tuple(cards)
    assert [c.stands_for for c in back] == [c.stands_for for c in cards]


def test_card_lists_tolerate_commas_and_spacing() -> None:
    assert parse_cards(" 7H, 8H  *,2C ") == (Card(7, "H"), Card(8, "H"), JOKER, Card(2, "C"))
    assert parse_cards("") == ()


@pytest.mark.parametrize("copies, jokers", [(1, 0), (1, 2), (2, 0), (2, 2)])
def test_full_deck_holds_each_card_copies_times(copies: int, jokers: int) -> None:
    deck = full_deck(copies, jokers)
    assert len(deck) == 52 * copies + jokers
    assert deck.count(JOKER) == jokers
    assert all(deck.count(Card(rank, suit)) == copies for rank in range(1, 14) for suit in SUITS)
    # Jokers come last, so slicing off the naturals leaves only jokers.
    assert deck[52 * copies:] == [JOKER] * jokers


def test_cards_sort_and_hash_as_values() -> None:
    assert len({Card(7, "H"), Card.from_notation("R7"), Card.from_notation("7h")}) == 1
    assert sorted([Card(9, "S"), Card(2, "C"), JOKER])[0] == JOKER
