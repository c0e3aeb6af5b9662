"""The helpers each written once in a core type: run windows, unseen cards, a play's order, the
first-out bonus, the deck pool, the extend-only matching, reading an AFTER file, listing position files."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from rummy.cards import JOKER, Card, parse_cards, rank_at
from rummy.checker import check
from rummy.errors import PositionError
from rummy.generator.deck import DeckPool, PlayShapes, random_play
from rummy.plays import Play, is_whole
from rummy.position import DrawTaken, Position
from rummy.end_states import read_end_state, read_end_state_or_draw
from rummy.inputs import position_files
from rummy.rules import preset
from rummy.scoring import first_out_bonus
from rummy.vocabulary import DrawSource


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# ------------------------------------------------------------- run windows
def test_ace_low_windows_run_from_the_ace_to_the_king() -> None:
    windows = preset("traditional").run_windows(3)
    assert windows[0] == (1, 2, 3) and windows[-1] == (11, 12, 13)
    assert len(windows) == 11


def test_an_ace_high_window_ends_at_position_14() -> None:
    windows = preset("straight").run_windows(3)
    assert windows[-1] == (12, 13, 14)
    assert [rank_at(p) for p in windows[-1]] == [12, 13, 1]


def test_circular_windows_turn_the_corner_and_the_full_circle_is_listed_once() -> None:
    house = preset("house-classic")
    assert (12, 13, 14) in house.run_windows(3) and (13, 14, 15) in house.run_windows(3)
    assert len(house.run_windows(3)) == 13
    assert house.run_windows(13) == (tuple(range(1, 14)),)


def test_two_packs_with_aces_high_or_low_make_one_window_of_14() -> None:
    assert preset("robber").run_windows(14) == (tuple(range(1, 15)),)
    assert preset("traditional").run_windows(14) == ()


def test_every_run_window_reads_as_a_whole_run() -> None:
    for name in ("traditional", "straight", "house-classic", "rummikub"):
        rules = preset(name)
        for window in rules.run_windows(rules.run_min):
            assert is_whole(tuple(Card(rank_at(p), "H") for p in window), rules), (name, window)


# ------------------------------------------------------------- unseen cards
def two_players(rules: str, ann: dict, bob: dict, strict: bool = True, **piles) -> Position:
    """ann to move against bob; House positions are in their first hand."""
    data = {"rules": rules, "to_move": "ann", "players": {"ann": ann, "bob": bob}, "piles": piles}
    if rules.startswith("house"):
        data["hand_number"] = 1
    return Position.from_data(data, strict=strict)


def hidden_hand(rules: str) -> Position:
    """bob's hand of three is hidden; ann sees nine cards."""
    return two_players(rules, {"melded": True, "hand": "KS *", "space": ["5H 6H 7H"]},
                       {"melded": True, "hand_count": 3, "space": ["2C 3C 4C"]}, discard="9D")


def test_unseen_cards_are_the_deck_less_every_card_shown() -> None:
    position = hidden_hand("house-epic")
    unseen = position.unseen_cards()
    assert sum(unseen.values()) == 54 - 9
    assert unseen[JOKER] == 1
    assert unseen[Card(13, "S")] == 0 and unseen[Card(13, "H")] == 1


def test_unseen_cards_count_the_copies_of_two_packs() -> None:
    position = two_players("robber", {"hand": "7H"}, {"hand_count": 3, "plays": ["7H 7S 7D"]})
    unseen = position.unseen_cards()
    assert unseen[Card(7, "H")] == 0 and unseen[Card(7, "S")] == 1 and unseen[Card(7, "C")] == 2
    assert sum(unseen.values()) == 104 - 4


def test_the_epic_first_out_bonus_counts_a_hidden_hand_at_the_unseen_mean() -> None:
    position = hidden_hand("house-epic")
    unseen = position.unseen_cards()
    mean = Fraction(sum({1: 11, 11: 2, 12: 3, 13: 4}.get(c.rank, c.rank) if not c.is_joker else 15
                        for c in unseen.elements()), sum(unseen.values()))
    assert first_out_bonus(position) == 3 * mean


def test_the_classic_first_out_bonus_is_fixed() -> None:
    position = hidden_hand("house-classic")
    assert first_out_bonus(position) == 25


# ------------------------------------------------------------- a play's order
def test_a_run_is_ordered_by_rank_with_its_joker_where_it_stands() -> None:
    rules = preset("rummikub-lenient")
    assert Play(cards("R9 * R7")).ordered(rules) == cards("R7 * R9")
    assert Play(cards("R9 * R7")).notation(rules) == "R7 * R9"


def test_a_book_is_ordered_by_suit_and_a_broken_play_keeps_its_order() -> None:
    rules = preset("house-classic")
    assert Play(cards("5C 5S 5H")).ordered(rules) == cards("5S 5H 5C")
    assert Play(cards("9C 2S 5H")).ordered(rules) == cards("9C 2S 5H")


def test_a_circular_run_is_ordered_from_where_it_starts() -> None:
    assert Play(cards("AS 2S KS")).ordered(preset("house-classic")) == cards("KS AS 2S")


# ------------------------------------------------------------- deck pool
def test_a_pool_takes_all_of_the_cards_or_none() -> None:
    pool = DeckPool(preset("house-classic"))
    assert pool.take(cards("5H 6H"))
    assert not pool.has(cards("5H")) and pool.has(cards("7H *"))
    assert not pool.take(cards("7H 5H"))
    assert pool.has(cards("7H")) and len(pool) == 52


def test_a_pool_holds_each_card_as_often_as_the_deck_and_takes_jokers_with_stand_ins() -> None:
    pool = DeckPool(preset("rummikub"))
    assert pool.take(cards("R7 R7"))
    assert not pool.take(cards("R7"))
    assert pool.take([Card.joker(Card(5, "H")), JOKER])
    assert JOKER not in pool
    pool.give_back([Card.joker(Card(5, "H"))])
    assert JOKER in pool and pool.cards[-1] == JOKER and pool.cards[-1].stands_for is None


def test_a_shuffled_pool_deals_the_same_for_the_same_seed() -> None:
    first, second = (DeckPool(preset("robber"), random.Random(7)) for _ in range(2))
    assert first.draw(10) == second.draw(10)
    assert len(first) == 94 and tuple(first.draw(200)) == second.cards and not first


def test_random_plays_are_whole_and_leave_the_pool() -> None:
    rules = preset("house-epic")
    shapes = PlayShapes(tries=40, run_chance=0.5, run_lengths=(3, 4, 5), book_sizes=(3, 4), joker_chance=0.3)
    rng, pool = random.Random(3), DeckPool(rules, random.Random(3))
    dealt: Counter = Counter()
    for _ in range(8):
        play = random_play(rng, pool, rules, shapes)
        assert play is not None and is_whole(tuple(play), rules)
        dealt.update(play)
    assert dealt + Counter(pool.cards) == Counter(rules.deck_cards)


def test_no_random_play_from_a_pool_that_cannot_give_one() -> None:
    rules = preset("house-classic")
    pool = DeckPool(rules)
    pool.draw(len(pool) - 2)
    assert random_play(random.Random(1), pool, rules, PlayShapes(10, 0.5, (3,), (3,))) is None
    assert len(pool) == 2


# ------------------------------------------------------------- matching
def test_alike_plays_keep_their_order_when_both_grow() -> None:
    before = two_players("robber", {"hand": "6S 6S 2C"}, {"hand_count": 5, "plays": ["3S 4S 5S", "3S 4S 5S"]},
                         discard="9D", stock=40)
    after = two_players("robber", {"hand": "", "plays": ["3S 4S 5S 6S", "3S 4S 5S 6S"]}, {"hand_count": 5},
                        strict=False, discard="9D 2C", stock=40)
    verdict = check(before, after)
    assert verdict.legal, [b.message for b in verdict.breaches]
    assert verdict.reading["stolen"] == ["bob/1 -> ann/1", "bob/2 -> ann/2"]


# ------------------------------------------------------------- files
def test_a_random_draw_is_read_as_the_draw_alone_only_when_asked(tmp_path) -> None:
    answer = tmp_path / "answer.json"
    draw = {"action": "draw", "from": "stock"}
    answer.write_text(json.dumps({"status": "optimal", "after": None, "draw": draw}) + "\n")
    assert read_end_state_or_draw(answer, random_draw=True) == (None, DrawTaken(DrawSource.STOCK))
    with pytest.raises(PositionError, match="no after position"):
        read_end_state(answer)


def test_an_after_position_is_read_from_a_best_answer_or_a_file(tmp_path) -> None:
    position = hidden_hand("house-epic")
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"status": "optimal", "after": position.to_data()}) + "\n")
    plain = tmp_path / "after.toml"
    plain.write_text(position.to_toml())
    assert read_end_state(answer) == position == read_end_state(plain)
    assert read_end_state_or_draw(plain, random_draw=True) == (position, None)


def test_a_folder_stands_for_its_position_files_and_an_empty_one_is_refused(tmp_path) -> None:
    folder, empty = tmp_path / "positions", tmp_path / "empty"
    folder.mkdir()
    empty.mkdir()
    for name in ("b.toml", "a.json", "notes.txt"):
        (folder / name).write_text("")
    single = tmp_path / "single.toml"  # a file is listed as it is named, even one that is not there (yet)
    assert position_files([folder, single]) == [folder / "a.json", folder / "b.toml", single]
    with pytest.raises(PositionError, match="no .toml or .json"):
        position_files([empty])
