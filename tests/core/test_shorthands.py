"""Shorthands in lists of cards (formats.md "Shorthands"): runs, groups, counts, and Y for O.

Expanding a shorthand is the same as writing its cards out; a malformed one is a
NotationError naming the token, never another exception; no token stands for
more than a deck.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy.cards import LARGEST_DECK, SUITS, Card, cards_notation, parse_cards, read_token
from rummy.errors import NotationError, RummyError
from rummy.position import Position
from rummy.turn_steps import read_steps
from tests.support.cli import run_main

COLOUR_OF = {"S": "K", "C": "B", "H": "R", "D": "O"}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_WRITTEN = {1: "A", 11: "J", 12: "Q", 13: "K"}


def written(rank: int, suit: str) -> str:
    return f"{RANK_WRITTEN.get(rank, str(rank))}{suit}"


@pytest.mark.parametrize(
    "token, cards",
    [("K1-5", "K1 K2 K3 K4 K5"), ("k1-k5", "K1 K2 K3 K4 K5"), ("R12-13", "R12 R13"),
     ("7H-10H", "7H 8H 9H 10H"), ("AH-3H", "AH 2H 3H"), ("QH-AH", "QH KH AH"), ("TS-KS", "10S JS QS KS"),
     ("7♥-9♥", "7H 8H 9H"), ("2C-AC", "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"),
     ("KRO10", "K10 R10 O10"), ("kry10", "K10 R10 O10"), ("BKRO1", "B1 K1 R1 O1"),
     ("7HSD", "7H 7S 7D"), ("10shdc", "10S 10H 10D 10C"), ("Q♠♥", "QS QH"), ("KSH", "KS KH"),
     ("2xR5", "R5 R5"), ("3X7H", "7H 7H 7H"), ("2x*", "* *"), ("2xJK=R5", "*=R5 *=R5"), ("1xR5", "R5"),
     ("Y7", "O7"), ("y13", "O13"), ("*=Y7", "*=O7")],
)
def test_a_shorthand_stands_for_its_cards(token: str, cards: str) -> None:
    assert read_token(token).cards == parse_cards(cards)
    assert [c.stands_for for c in read_token(token).cards] == [c.stands_for for c in parse_cards(cards)]


@pytest.mark.parametrize(
    "token, problem",
    [("K1-99", "a run ends with a number 1 to 13"), ("K5-1", "a run goes up"), ("9H-7H", "around the corner"),
     ("KH-2H", "a run goes up"), ("7H-7H", "two different ranks"), ("7H-10S", "one suit"),
     ("R7-10H", "a run ends"), ("H7-10", "a run starts with a card or tile"), ("7-10H", "a run starts"),
     ("7H-10", "a card of its suit"), ("K1-5-7", "a run is written"), ("*-R3", "a run starts"),
     ("R1-R3=", "a run is written"), ("RR5", "each colour once"), ("7HH", "each suit once"), ("KRY14", "1 to 13"),
     ("ROY5", "each colour once"), ("2xK1-3", "before one card"), ("2xKRO3", "before one card"),
     ("0xR5", "1 to 106"), ("107xR5", "1 to 106"), ("999999xR5", "1 to 106"), ("2xZZ", "before one card")],
)
def test_a_malformed_shorthand_names_its_token(token: str, problem: str) -> None:
    with pytest.raises(NotationError) as info:
        read_token(token)
    assert repr(token) in str(info.value) and problem in str(info.value)


@pytest.mark.parametrize("token", ["7X", "2x", "x5", "KBR", "K1-" + "9" * 50, "1" * 40 + "xR5", "-"])
def test_other_bad_tokens_are_refused_as_cards(token: str) -> None:
    with pytest.raises(NotationError):
        parse_cards(token)


# ------------------------------------------------------------------ properties
suits = st.sampled_from(SUITS)


@given(suits, st.integers(1, 12), st.data())
def test_a_run_of_tiles_is_its_tiles_written_out(suit: str, first: int, data: st.DataObject) -> None:
    last = data.draw(st.integers(first + 1, 13))
    colour = data.draw(st.sampled_from([COLOUR_OF[suit], COLOUR_OF[suit].lower()]))
    end = data.draw(st.sampled_from([str(last), f"{colour}{last}"]))
    long_form = " ".join(f"{COLOUR_OF[suit]}{rank}" for rank in range(first, last + 1))
    assert parse_cards(f"{colour}{first}-{end}") == parse_cards(long_form)


@given(suits, st.integers(1, 13), st.data())
def test_a_run_of_cards_is_its_cards_written_out(suit: str, first: int, data: st.DataObject) -> None:
    high_ace = first > 1 and data.draw(st.booleans())
    last = 1 if high_ace else data.draw(st.integers(first + 1, 13)) if first < 13 else None
    if last is None:
        return
    ranks = list(range(first, 14)) + [1] if high_ace else list(range(first, last + 1))
    symbol = data.draw(st.booleans())
    mark = SUIT_SYMBOL[suit] if symbol else suit
    token = f"{written(first, '')}{mark}-{written(last, '')}{mark}"
    assert read_token(token).cards == tuple(Card(rank, suit) for rank in ranks)
    assert read_token(token).notation == "cards"


@given(st.integers(1, 13), st.lists(suits, min_size=2, max_size=4, unique=True), st.booleans())
def test_a_group_is_its_cards_written_out(rank: int, named: list[str], tiles: bool) -> None:
    if tiles:
        token = "".join(COLOUR_OF[s] for s in named) + str(rank)
        long_form = " ".join(f"{COLOUR_OF[s]}{rank}" for s in named)
    else:
        token = written(rank, "") + "".join(named)
        long_form = " ".join(written(rank, s) for s in named)
    assert parse_cards(token) == parse_cards(long_form)
    assert parse_cards(token.lower()) == parse_cards(long_form)


@given(st.integers(1, LARGEST_DECK), st.builds(Card, st.integers(1, 13), suits), st.sampled_from(["cards", "tiles"]))
def test_a_count_is_that_many_copies(count: int, card: Card, deck: str) -> None:
    assert parse_cards(f"{count}x{card.notation(deck)}") == (card,) * count  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(["K1-5", "7H-10H", "KRO10", "7HSD", "2xR5", "QH-AH", "R9", "*", "Y3"]), max_size=12))
def test_a_list_with_shorthands_is_the_lists_of_each_token(tokens: list[str]) -> None:
    expanded = [cards_notation(read_token(token).cards) for token in tokens]
    assert parse_cards(", ".join(tokens)) == parse_cards(" ".join(expanded))


@given(st.text(alphabet="0123456789xXKBROYSHDCAJQT*=-♥ ,kbroyshdc", max_size=30))
def test_any_text_is_cards_or_a_notation_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except RummyError as error:
        assert isinstance(error, NotationError)
    else:
        assert len(cards) <= LARGEST_DECK * len(text.replace(",", " ").split())


# ------------------------------------------------------------------ in positions
SHORT = '''
rules = "rummikub"
to_move = "ann"
table = ["R1-3", "KRO10", "B5-7 B8"]

[players.ann]
melded = true
hand = "2xK4 B11-13 y9"

[players.bob]
melded = true
hand_count = 14
'''
LONG = SHORT.replace("R1-3", "R1 R2 R3").replace("KRO10", "K10 R10 O10").replace("B5-7", "B5 B6 B7").replace(
    "2xK4 B11-13 y9", "K4 K4 B11 B12 B13 O9")


def test_a_position_with_shorthands_is_the_one_written_out() -> None:
    short, long = Position.from_toml(SHORT), Position.from_toml(LONG)
    assert short == long
    assert short.to_toml() == long.to_toml()  # written in the long form
    assert "-" not in short.to_toml().split("[players.ann]")[1] and "KRO" not in short.to_toml()


def test_shorthands_count_against_the_cards_a_position_holds() -> None:
    text = SHORT.replace('hand = "2xK4 B11-13 y9"', 'hand = "' + "106xR5 " * 3 + '"')
    with pytest.raises(RummyError, match="more than 256 cards"):
        Position.from_toml(text)
    huge = SHORT.replace('hand = "2xK4 B11-13 y9"', 'hand = "' + "106xR5 " * 100_000 + '"')
    with pytest.raises(RummyError, match="more than 256 cards"):
        Position.from_toml(huge)


def test_a_bad_shorthand_is_one_line_naming_file_place_and_token(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.toml"
    path.write_text(SHORT.replace("2xK4", "K1-99"))
    code, out, err = run_main(capsys, "show", path)
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"rummy: {path}: players.ann.hand: 'K1-99': a run ends with a number 1 to 13 "
                                "or a tile of its colour; a run is written K1-5 (tiles) or 7H-10H (cards)"]


def test_steps_take_shorthands() -> None:
    before = Position.from_toml(LONG.replace('hand = "K4 K4', 'hand = "K5 K6 K7 K4 K4'))
    assert read_steps(before, "play K5-7 to new/1; play B11-13 to new/2") == read_steps(
        before, "play K5 K6 K7 to new/1; play B11 B12 B13 to new/2")
    with pytest.raises(RummyError, match="one card"):
        read_steps(before, "replace table/1 2x* with K4")
