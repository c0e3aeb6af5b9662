"""The deck pool the generator and the tests deal from (rummy.generator.deck): all or nothing, copies, seeds, random plays."""

from __future__ import annotations

import random
from collections import Counter

from rummy.cards import JOKER, Card, parse_cards
from rummy.generator.deck import DeckPool, PlayShapes, random_play
from rummy.plays import is_whole
from rummy.rules import preset


def test_a_pool_takes_all_of_the_cards_or_none() -> None:
    pool = DeckPool(preset("house-classic"))
    assert pool.take(parse_cards("5H 6H"))
    assert not pool.has(parse_cards("5H")) and pool.has(parse_cards("7H *"))
    assert not pool.take(parse_cards("7H 5H"))
    assert pool.has(parse_cards("7H")) and len(pool) == 52


def test_a_pool_holds_each_card_as_often_as_the_deck_and_takes_jokers_with_stand_ins() -> None:
    pool = DeckPool(preset("rummikub"))
    assert pool.take(parse_cards("R7 R7"))
    assert not pool.take(parse_cards("R7"))
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
