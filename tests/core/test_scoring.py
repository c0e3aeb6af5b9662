"""Play scores, meld values and penalty values per family (rules.md §5-§8)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy.cards import SUITS, Card, parse_cards
from rummy.family import HOUSE
from rummy.rules import PRESETS, preset
from rummy.scoring import hand_penalty, meld_value, penalty, play_score
from tests.support.positions import hidden_hand


def score(cards: str, name: str) -> int:
    return play_score(parse_cards(cards), preset(name))


def meld(cards: str, name: str) -> int:
    return meld_value(parse_cards(cards), preset(name))


def penalties(cards: str, name: str) -> list[int]:
    rules = preset(name)
    return [penalty(card, rules) for card in parse_cards(cards)]


# ------------------------------------------------------------------- House
@pytest.mark.parametrize("name", ["house-classic", "house-epic"])
@pytest.mark.parametrize(
    "cards, expected",
    [
        ("5H 5S 5D", 10),  # a book of exactly 3 is worth 10 in all
        ("5H 5S 5D 5C", 20),
        ("5H 5S *", 10),
        ("5H 5S * *", 20),
        ("5H 6H 7H", 15),
        ("5H 6H 7H 8H", 20),
        ("KH AH 2H", 15),
        ("5H * *", 15),  # reads as a book and as a run: a run
        ("* 5H *", 15),
        ("4H * 6H", 15),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 65),
        ("5H 6S 7H", 0),  # not a play at all
    ],
)
def test_house_play_scores(name: str, cards: str, expected: int) -> None:
    assert score(cards, name) == expected


def test_house_meld_value_is_the_play_score() -> None:
    assert meld("5H 5S 5D", "house-classic") == 10
    assert meld("9C 10C JC", "house-epic") == 15
    assert meld("9C 10C * QC", "house-epic") == 20


def test_house_penalty_values() -> None:
    assert penalties("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS *", "house-classic") == [
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 3, 4, 15,
    ]
    assert penalties("AH JD QC KH", "house-epic") == [11, 2, 3, 4]


# -------------------------------------------------------------------- tiles
def test_tile_meld_value_counts_a_flexible_joker_at_its_best() -> None:
    assert meld("R10 R11 *", "rummikub-lenient") == 33
    assert meld("R10 R11 R12", "rummikub-lenient") == 33
    assert meld("R7 B7 *", "rummikub-lenient") == 21


def test_tile_meld_value_of_a_fixed_joker_is_its_card() -> None:
    assert meld("R10 R11 *=R12", "rummikub") == 33
    assert meld("*=R9 R10 R11", "rummikub") == 30
    assert meld("R10 R11 *=R12", "tiles50") == 33


def test_yourturnmyturn_joker_counts_zero_in_the_initial_meld() -> None:
    assert meld("R10 R11 *", "yourturnmyturn") == 21
    assert meld("R10 R11 R12", "yourturnmyturn") == 33


def test_tile_source_examples_reach_thirty() -> None:
    # "For example: 9 10 11, or 3 3 3 3 5 6 *" (the 3s in four colours).
    assert meld("R9 R10 R11", "rummikub-lenient") == 30
    assert meld("R3 B3 K3 O3", "rummikub-lenient") + meld("R5 R6 *", "rummikub-lenient") == 12 + 18


def test_not_whole_plays_are_worth_nothing() -> None:
    assert meld("R10 B11 *", "rummikub-lenient") == 0
    assert score("4H 4H 4S", "robber") == 15  # repeated suits are fine in Robber
    assert score("4H 5S 6D", "robber") == 0


@pytest.mark.parametrize(
    "name, joker", [("rummikub", 30), ("rummikub-lenient", 30), ("tiles50", 30), ("yourturnmyturn", 25)]
)
def test_tile_penalty_is_the_number(name: str, joker: int) -> None:
    assert penalties("R1 B13 K7 O10 *", name) == [1, 13, 7, 10, joker]


@pytest.mark.parametrize("name", ["rummikub", "rummikub-lenient", "tiles50", "yourturnmyturn", "straight", "traditional"])
def test_only_house_and_robber_score_plays(name: str) -> None:
    assert play_score(parse_cards("5H 6H 7H"), preset(name)) == 0


# ------------------------------------------------------------------- Robber
def test_robber_scoring_examples_from_the_text() -> None:
    assert score("4H 4S 4C", "robber") == 15
    assert score("9S 10S JS QS KS AS", "robber") == 120
    assert hand_penalty(parse_cards("2S 3D 4H 5C JS AH"), preset("robber")) == 45
    # 9-10-J of hearts owned, 2D AS QC KC AC in hand: +50 and -55.
    assert score("9H 10H JH", "robber") == 50
    assert hand_penalty(parse_cards("2D AS QC KC AC"), preset("robber")) == 55


def test_robber_aces() -> None:
    assert score("AH 2H 3H", "robber") == 30  # played low: 5, doubled in a run
    assert score("QH KH AH", "robber") == 70  # played high: 15, doubled
    assert score("AH AS AC", "robber") == 45  # a book of aces: 15 each
    ace_to_ace = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    assert score(ace_to_ace, "robber") == 2 * (5 + 8 * 5 + 4 * 10 + 15)
    assert score("5H 5H 5S 5S 5D 5D 5C 5C", "robber") == 40


def test_robber_hand_penalty_never_doubles_and_aces_are_high() -> None:
    assert penalties("AS 2S 9S 10S KS", "robber") == [15, 5, 5, 10, 10]


# ------------------------------------------------------------ lay-off rummy
def test_straight_penalty_values() -> None:
    assert penalties("QS QH AS KD JC 10H 7C 2D", "straight") == [45, 10, 1, 10, 10, 10, 7, 2]


def test_traditional_penalty_values() -> None:
    assert penalties("QS QH AS KD 9C", "traditional") == [10, 10, 1, 10, 9]


def test_lay_off_variations_change_penalties() -> None:
    aces_high = preset("traditional").with_options({"ace": "high_or_low", "ace_points": 15})
    assert penalty(Card(1, "S"), aces_high) == 15
    with_jokers = preset("traditional").with_options({"jokers": 2, "joker_points": 15})
    assert penalty(Card.joker(), with_jokers) == 15


# -------------------------------------------------------------- properties
naturals = st.builds(Card, st.integers(1, 13), st.sampled_from(SUITS))


@given(st.sampled_from(sorted(PRESETS)), st.lists(naturals | st.just(Card.joker()), max_size=15))
def test_hand_penalty_is_the_sum_of_card_penalties(name: str, cards: list[Card]) -> None:
    rules = preset(name)
    assert hand_penalty(cards, rules) == sum(penalty(card, rules) for card in cards)
    assert all(penalty(card, rules) > 0 for card in cards)


@given(st.integers(3, 13), st.sampled_from(SUITS), st.integers(1, 11))
def test_house_run_scores_five_a_card(length: int, suit: str, start: int) -> None:
    cards = tuple(Card((start + i - 1) % 13 + 1, suit) for i in range(length))
    assert play_score(cards, preset("house-epic")) == 5 * length


# ------------------------------------------------------------- the first-out bonus
def test_the_epic_first_out_bonus_counts_a_hidden_hand_at_the_unseen_mean() -> None:
    position = hidden_hand("house-epic")
    unseen = position.unseen_cards()
    mean = Fraction(sum({1: 11, 11: 2, 12: 3, 13: 4}.get(c.rank, c.rank) if not c.is_joker else 15
                        for c in unseen.elements()), sum(unseen.values()))
    assert HOUSE.first_out_bonus(position) == 3 * mean


def test_the_classic_first_out_bonus_is_fixed() -> None:
    position = hidden_hand("house-classic")
    assert HOUSE.first_out_bonus(position) == 25
