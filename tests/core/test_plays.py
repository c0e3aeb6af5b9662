"""Plays (rules.md §1-§8): which groups of cards are whole under each preset.

Cases come from the source texts in shared/seeds; a brute-force reference
(every joker tried as every card) checks ``is_whole`` on generated plays.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import JOKER, SUITS, Card, parse_cards
from rummy.plays import Play, is_whole, readings
from rummy.rules import PRESETS, Ruleset, preset

PRESET_NAMES = sorted(PRESETS)
RULESETS = st.sampled_from(PRESET_NAMES).map(preset)  # for Hypothesis: every preset
TILE_PRESETS = ["rummikub", "rummikub-lenient", "tiles50", "yourturnmyturn"]


def whole(text: str, name: str) -> bool:
    return is_whole(parse_cards(text), preset(name))


def full_suit(suit: str) -> str:
    return " ".join(f"{rank}{suit}" for rank in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K"])


# ------------------------------------------------------------- source cases
@pytest.mark.parametrize(
    "cards, name, expected",
    [
        # House Rummy rule 11: counting in runs is circular.
        ("KH AH 2H", "house-classic", True),
        ("QH KH AH 2H 3H", "house-epic", True),
        ("AH 2H 3H", "house-classic", True),
        # Tile rummy: "A 1 is only valid in front of a 2, and never after a 13".
        ("R13 R1 R2", "rummikub", False),
        ("R12 R13 R1", "rummikub", False),
        ("R1 R2 R3", "rummikub", True),
        ("R9 R10 R11 R12 R13", "rummikub-lenient", True),
        # Straight Rummy: aces high or low, never both at once.
        ("QS KS AS", "straight", True),
        ("AS 2S 3S", "straight", True),
        ("KS AS 2S", "straight", False),
        # Traditional rummy: aces low only.
        ("AS 2S 3S", "traditional", True),
        ("QS KS AS", "traditional", False),
        # Robber Rummy: A-2-...-K-A is the longest run; never around the corner.
        ("QD KD AD", "robber", True),
        ("KD AD 2D", "robber", False),
        # Robber Rummy example: 3 hearts, spades and clubs, then another 3 of hearts.
        ("3H 3S 3C 3H", "robber", True),
        ("4H 4S 4C", "robber", True),
    ],
)
def test_runs_and_books_from_the_sources(cards: str, name: str, expected: bool) -> None:
    assert whole(cards, name) is expected


def test_robber_book_of_eight_with_repeated_suits() -> None:
    assert whole("5H 5H 5S 5S 5D 5D 5C 5C", "robber")
    assert not whole("5H 5H 5H 5S 5D 5D 5C", "robber")  # three 5H: two packs hold two
    assert whole("9C 9C 9C", "robber") is False  # two packs hold two of each card


def test_robber_longest_run_is_ace_to_ace() -> None:
    ace_to_ace = full_suit("S") + " AS"
    assert whole(ace_to_ace, "robber")
    assert not whole(ace_to_ace + " 2S", "robber")
    # Two aces need two packs: with one pack A..K..A cannot exist.
    assert not is_whole(parse_cards(ace_to_ace), preset("straight"))


@pytest.mark.parametrize("name", ["house-classic", "house-epic"])
def test_house_books_are_never_more_than_four(name: str) -> None:
    books = {"5H 5S 5D 5C": True, "5H 5S * *": True, "5H 5S 5D 5C *": False, "5H 5S 5D * *": False,
             "5H * * 5D 5C": False}
    assert {cards: whole(cards, name) for cards in books} == books


@pytest.mark.parametrize("name", TILE_PRESETS)
def test_tile_groups_need_distinct_colours(name: str) -> None:
    groups = {"R7 B7 K7": True, "R7 B7 K7 O7": True, "R4 R4 B4": False, "R4 B4 K4 O4 R4": False, "R7 B7": False}
    assert {cards: whole(cards, name) for cards in groups} == groups


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_runs_of_mixed_suits_are_never_whole(name: str) -> None:
    assert not whole("4H 5S 6H", name)
    assert not whole("9D 10D JC", name)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_books_of_mixed_ranks_are_never_whole(name: str) -> None:
    assert not whole("4H 4S 5D", name)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_two_cards_are_never_a_play(name: str) -> None:
    assert not whole("4H 5H", name)
    assert not whole("4H 4S", name)


@pytest.mark.parametrize("name", ["house-classic", "house-epic", "rummikub-lenient", "yourturnmyturn"])
def test_jokers_fill_gaps(name: str) -> None:
    assert whole("4H * 6H", name)
    assert whole("4H * * 7H", name)
    assert whole("* 5H *", name)
    assert whole("8S * 8D", name)
    assert not whole("4H * 8H", name)


def test_a_joker_reads_as_the_card_it_replaces() -> None:
    found = readings(parse_cards("4H * 6H"), preset("house-classic"))
    assert [r.joker_stand_ins() for r in found] == [(Card(5, "H"),)]
    assert found[0].kind == "run"


def test_fixed_joker_stand_in_restricts_readings() -> None:
    rules = preset("rummikub")
    assert is_whole(parse_cards("R5 R6 *=R7"), rules)
    assert is_whole(parse_cards("R5 R6 *=R4"), rules)
    assert not is_whole(parse_cards("R5 R6 *=R9"), rules)
    assert not is_whole(parse_cards("R5 R6 *=B7"), rules)
    both = readings(parse_cards("R5 R6 *"), rules)
    assert {r.joker_stand_ins() for r in both} == {(Card(4, "H"),), (Card(7, "H"),)}


@pytest.mark.parametrize("name", ["house-classic", "rummikub-lenient", "traditional", "straight"])
def test_a_run_never_repeats_a_rank_so_at_most_thirteen(name: str) -> None:
    rules = preset(name)
    thirteen = parse_cards(full_suit("H"))
    assert is_whole(thirteen, rules)
    assert not is_whole(thirteen + (Card(1, "H") if rules.copies == 2 else JOKER,), rules)
    assert not is_whole(thirteen + (Card(2, "H"),), rules)
    if rules.jokers:
        assert is_whole(thirteen[:12] + (JOKER,), rules)


def test_house_run_of_thirteen_with_a_joker_wraps_anywhere() -> None:
    rules = preset("house-classic")
    cards = parse_cards("9H 10H JH QH KH AH 2H 3H 4H 5H 6H 7H *")
    assert is_whole(cards, rules)
    assert not is_whole(cards + (JOKER,), rules)


# ------------------------------------------------------------- notation
def test_play_notation_puts_runs_in_rank_order_with_jokers_in_place() -> None:
    assert Play.from_notation("6H 4H *").notation(preset("house-classic")) == "4H * 6H"
    assert Play.from_notation("AS KS QS").notation(preset("straight")) == "QS KS AS"
    assert Play.from_notation("2H AH KH").notation(preset("house-classic")) == "KH AH 2H"
    assert Play.from_notation("R7 R5 *=R6").notation(preset("rummikub")) == "R5 *=R6 R7"
    assert Play.from_notation("7D 7S 7H").notation(preset("traditional")) == "7S 7H 7D"


def test_plays_are_equal_up_to_order_but_stand_ins_count() -> None:
    assert Play.from_notation("5H 6H 7H") == Play.from_notation("7H 5H 6H")
    assert hash(Play.from_notation("5H 6H 7H")) == hash(Play.from_notation("7H 6H 5H"))
    assert Play.from_notation("R5 R6 *=R7") != Play.from_notation("R5 R6 *=R4")
    assert Play.from_notation("5H 6H 7H") != Play.from_notation("5H 6H 7H 8H")


# ------------------------------------------------------------- generated plays
@st.composite
def whole_plays(draw: st.DrawFn, rules: Ruleset) -> tuple[Card, ...]:
    """A play that is whole by construction: a run window or a book, some cards turned to jokers."""
    if draw(st.booleans()):
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(rules.run_min, rules.run_max))
        last_start = {"low": 14 - length, "high_or_low": 15 - length, "circular": 13}[rules.ace]
        start = draw(st.integers(1, max(1, last_start)))
        cards = [Card((start + i - 1) % 13 + 1, suit) for i in range(length)]
    else:
        rank = draw(st.integers(1, 13))
        pool = list(SUITS) if rules.book_distinct_suits else [s for s in SUITS for _ in range(rules.copies)]
        size = draw(st.integers(rules.book_min, min(rules.book_max, len(pool))))
        suits = draw(st.permutations(pool))[:size]
        cards = [Card(rank, suit) for suit in suits]
    joker_count = draw(st.integers(0, min(rules.jokers, len(cards) - 1)))
    for index in draw(st.lists(st.integers(0, len(cards) - 1), min_size=joker_count, max_size=joker_count, unique=True)):
        stand_in = cards[index]
        cards[index] = Card.joker(stand_in if rules.joker_mode == "fixed" else None)
    return tuple(draw(st.permutations(cards)))


@settings(max_examples=60)
@given(RULESETS, st.data())
def test_generated_whole_plays_are_whole_and_notation_reads_back(rules: Ruleset, data: st.DataObject) -> None:
    cards = data.draw(whole_plays(rules))
    assert is_whole(cards, rules)
    play = Play(cards)
    back = Play.from_notation(play.notation(rules))
    assert back == play
    assert is_whole(back.cards, rules)


@settings(max_examples=60)
@given(RULESETS, st.data())
def test_play_repr_rebuilds_the_play(rules: Ruleset, data: st.DataObject) -> None:
    play = Play(data.draw(whole_plays(rules)))
    assert eval(repr(play), {"Play": Play}) == play


@settings(max_examples=60)
@given(RULESETS, st.data())
def test_every_reading_is_a_real_book_or_run(rules: Ruleset, data: st.DataObject) -> None:
    cards = data.draw(whole_plays(rules))
    for reading in readings(cards, rules):
        assert reading.cards == cards
        assert all(s == c for c, s in zip(cards, reading.stand_ins) if not c.is_joker)
        assert not any(s.is_joker for s in reading.stand_ins)
        assert concrete_is_whole(list(reading.stand_ins), rules)
        if reading.kind == "run":
            assert sorted(reading.positions) == list(range(min(reading.positions), max(reading.positions) + 1))


# A straightforward restatement of the rules, to compare the solver's readings against.
def concrete_is_whole(cards: list[Card], rules: Ruleset) -> bool:
    """Whether natural cards (no jokers) form a book or a run."""
    return concrete_book(cards, rules) or concrete_run(cards, rules)


def concrete_book(cards: list[Card], rules: Ruleset) -> bool:
    if not rules.book_min <= len(cards) <= rules.book_max or len({c.rank for c in cards}) != 1:
        return False
    per_suit = Counter(c.suit for c in cards)
    limit = 1 if rules.book_distinct_suits else rules.copies
    return max(per_suit.values()) <= limit


def concrete_run(cards: list[Card], rules: Ruleset) -> bool:
    n = len(cards)
    if n < rules.run_min or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    if rules.ace == "circular":
        if n > 13 or len(set(ranks)) != n:
            return False
        return any({(start + i - 1) % 13 + 1 for i in range(n)} == set(ranks) for start in range(1, 14))
    candidates = [ranks]
    if rules.ace == "high_or_low":
        candidates.append(sorted(14 if r == 1 else r for r in ranks))
        if rules.copies == 2 and ranks.count(1) == 2:
            candidates.append(sorted([1] + [r for r in ranks if r != 1] + [14]))
    return any(c == list(range(c[0], c[0] + n)) for c in candidates)


def reference_is_whole(cards: tuple[Card, ...], rules: Ruleset) -> bool:
    naturals = [c for c in cards if not c.is_joker]
    joker_count = len(cards) - len(naturals)
    if not naturals:
        return False
    everything = [Card(rank, suit) for rank in range(1, 14) for suit in SUITS]
    for stand_ins in product(everything, repeat=joker_count):
        concrete = naturals + list(stand_ins)
        if max(Counter(concrete).values()) > rules.copies:
            continue
        if concrete_is_whole(concrete, rules):
            return True
    return False


@st.composite
def nearby_cards(draw: st.DrawFn, rules: Ruleset) -> tuple[Card, ...]:
    """3 to 6 cards of nearby ranks and few suits, so that many are whole and many are not."""
    low = draw(st.integers(1, 13))
    ranks = st.integers(0, 3).map(lambda step: (low + step - 1) % 13 + 1)
    suits = st.sampled_from(draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=3, unique=True)))
    size = draw(st.integers(3, 6))
    jokers = draw(st.integers(0, min(rules.jokers, size - 1)))
    cards = [Card(draw(ranks), draw(suits)) for _ in range(size - jokers)] + [JOKER] * jokers
    counts = Counter(cards)
    if any(n > rules.copies for card, n in counts.items() if not card.is_joker):
        cards = list(dict.fromkeys(cards))
    return tuple(draw(st.permutations(cards)))


@settings(max_examples=150)
@given(RULESETS, st.data())
def test_is_whole_agrees_with_a_brute_force_reference(rules: Ruleset, data: st.DataObject) -> None:
    cards = data.draw(nearby_cards(rules))
    assert is_whole(cards, rules) == reference_is_whole(cards, rules), Play(cards).notation(deck=rules.deck)


@pytest.mark.parametrize(
    "cards, name",
    [("KH AH 2H", "house-classic"), ("QS KS AS", "straight"), (full_suit("S") + " AS", "robber"),
     ("R12 R13 R1", "rummikub"), ("5H 5S 5D 5C *", "house-classic"), ("5H 5H 5S 5S 5D 5D 5C 5C", "robber"),
     ("4H * * 7H", "house-epic"), ("R4 R4 B4", "tiles50")],
)
def test_reference_agrees_on_the_source_cases(cards: str, name: str) -> None:
    rules = preset(name)
    assert is_whole(parse_cards(cards), rules) == reference_is_whole(parse_cards(cards), rules)


@pytest.mark.parametrize(("play", "undecided"), [
    ("R5 R6 *", True),        # R4 or R7
    ("R5 * R7", False),       # only R6
    ("R5 B5 *", False),       # a book of 3: either missing colour frees it (rules.md §6)
    ("R5 *", False),          # not whole: no reading at all
])
def test_a_fixed_jokers_card_is_undecided_only_where_readings_differ(play: str, undecided: bool) -> None:
    from rummy.plays import jokers_undecided

    assert jokers_undecided(readings(Play.from_notation(play).cards, preset("rummikub"))) is undecided


def test_a_play_name_knows_its_owner_and_rebuilds_from_its_repr() -> None:
    from rummy.plays import PlayName

    name = PlayName.of("ann", 2)
    assert name == "ann/2" and name.owner == "ann"
    assert eval(repr(name)) == name and isinstance(eval(repr(name)), PlayName)
    assert {name: 1}["ann/2"] == 1  # a name is a string key like any other
    assert PlayName("table/3").owner == "table" and PlayName("new/1").owner == "new"


def test_a_joker_stands_for_a_card_only_where_every_reading_agrees() -> None:
    from rummy.cards import Card
    from rummy.plays import settled_stand_ins
    from rummy.rules import preset

    rules = preset("house-classic")
    joker = Card.joker()
    assert settled_stand_ins((Card(7, "H"), Card(7, "S"), joker), rules) is None  # 7C or 7D
    assert settled_stand_ins((Card(5, "H"), Card(6, "H"), joker), rules) is None  # 4H or 7H
    assert settled_stand_ins((Card(5, "H"), joker, Card(7, "H")), rules) == (Card(6, "H"),)
    assert settled_stand_ins((Card(5, "H"), Card(6, "H"), Card(7, "H")), rules) is None  # no joker


# ------------------------------------------------------------- a play's order
def test_a_run_is_ordered_by_rank_with_its_joker_where_it_stands() -> None:
    rules = preset("rummikub-lenient")
    assert Play(parse_cards("R9 * R7")).ordered(rules) == parse_cards("R7 * R9")
    assert Play(parse_cards("R9 * R7")).notation(rules) == "R7 * R9"


def test_a_book_is_ordered_by_suit_and_a_broken_play_keeps_its_order() -> None:
    rules = preset("house-classic")
    assert Play(parse_cards("5C 5S 5H")).ordered(rules) == parse_cards("5S 5H 5C")
    assert Play(parse_cards("9C 2S 5H")).ordered(rules) == parse_cards("9C 2S 5H")


def test_a_circular_run_is_ordered_from_where_it_starts() -> None:
    assert Play(parse_cards("AS 2S KS")).ordered(preset("house-classic")) == parse_cards("KS AS 2S")
