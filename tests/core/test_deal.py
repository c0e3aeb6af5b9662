"""Hands dealt from a seeded deck (rummy.deal): as the game deals, every card once, the same for a seed."""

from __future__ import annotations

from collections import Counter

import pytest

from rummy.deal import deal
from rummy.errors import RulesError
from rummy.position import Position
from rummy.rules import PRESETS, dealt, preset
from rummy.vocabulary import Phase

NAMES = ("ann", "bob", "cat", "dan")


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_card_is_dealt_once_as_the_game_deals(name: str, players: int) -> None:
    rules = preset(name)
    position = deal(rules, NAMES[:players], seed=11)
    each = dealt(rules, players)
    assert [len(p.hand or ()) for p in position.players] == [each] * players
    assert Counter(c.plain() for c in position.known_cards()) == Counter(rules.deck_cards)
    assert position.unseen_cards().total() == 0
    assert isinstance(position.stock, tuple)
    assert position.to_move == "ann" and position.first_out is None
    family = rules.family
    if family.stock_upcard:  # House: the upcard on the unopened stock, no discard pile yet
        assert position.upcard is not None and position.discard_pile == () and position.phase == Phase.DRAW
        assert position.hand_number == 1
    elif family.draw_judge is not None:  # one card turned up to start the discard pile
        assert len(position.discard_pile) == 1 and position.upcard is None and position.phase == Phase.DRAW
    else:  # tile rummy: play (or draw a tile), no pile
        assert position.discard_pile == () and position.phase == Phase.PLAY
    assert not any(p.melded or p.plays or p.layoffs for p in position.players) and position.table == ()
    # What it writes reads back as itself (a game record's start is this data).
    assert Position.from_data(position.to_data()) == position


def test_a_seed_deals_the_same_and_another_seed_does_not() -> None:
    rules = preset("house-classic")
    first = deal(rules, NAMES[:3], 5)
    assert deal(rules, NAMES[:3], 5) == first
    assert deal(rules, NAMES[:3], 6) != first
    assert deal(rules, NAMES[:3], 5).to_toml() == first.to_toml()


def test_the_deal_goes_round_the_table_from_the_dealers_left() -> None:
    rules = preset("straight")
    first = deal(rules, NAMES[:3], 9, hand=1)
    second = deal(rules, NAMES[:3], 9, hand=2)
    assert first.to_move == "ann" and second.to_move == "bob"
    # The same shuffled deck, dealt one card at a time from the first to move.
    ann, bob = first.player("ann").hand or (), first.player("bob").hand or ()
    assert ann == second.player("bob").hand and ann[:2] != bob[:2]


@pytest.mark.parametrize(("name", "players", "seed", "hand", "problem"), [
    ("house-classic", 5, 1, 1, "2 to 4 players"),
    ("house-classic", 1, 1, 1, "2 to 4 players"),
    ("house-classic", 3, 1, 7, "hands 1 to 6"),
    ("straight", 3, -1, 1, "seed"),
    ("straight", 3, 1, 0, "hands count from 1"),
])
def test_impossible_deals_are_refused(name: str, players: int, seed: int, hand: int, problem: str) -> None:
    with pytest.raises(RulesError, match=problem):
        deal(preset(name), NAMES[:players] if players <= 4 else (*NAMES, "eve"), seed, hand)


def test_more_players_than_the_deck_deals_are_refused() -> None:
    with pytest.raises(RulesError, match="8 players of 14 tiles each need more than the 106 of the deck"):
        deal(preset("rummikub"), tuple(f"p{k}" for k in range(8)), 1)
    stock = deal(preset("rummikub"), tuple(f"p{k}" for k in range(7)), 1).stock
    assert isinstance(stock, tuple) and len(stock) == 106 - 98


def test_a_player_named_twice_is_refused() -> None:
    with pytest.raises(RulesError, match="named twice"):
        deal(preset("robber"), ("ann", "ann"), 1)
