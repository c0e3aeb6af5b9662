"""A hidden mover (``hand_count`` for ``to_move``, docs/formats.md "A hidden mover"): read only where asked
(play, check, show), refused in one line by best and hint; steps of a hidden hand play unseen cards and
lower the count; draws count the cards and keep those seen taken as hot and warm; the next position of a
known mover's legal turn is the hidden mover's, but for the hand."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from rummy.cards import Card
from rummy.checker import check
from rummy.errors import PositionError
from rummy.plays import readings
from rummy.position import Position
from rummy.reader import known_mover_hand
from rummy.reports.play import PlayedTurn, play_turn
from rummy.turn_steps import read_steps
from rummy.vocabulary import Phase
from tests.support.hidden import hidden_mover
from tests.support.paths import PUZZLE_EXAMPLES
from tests.support.random_positions import LAYOFF_VARIATIONS, random_house, random_layoff_position, random_tiles

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
RUMMIKUB = PUZZLE_EXAMPLES / "rummikub.toml"
ROBBER = PUZZLE_EXAMPLES / "robber.toml"
TRADITIONAL = PUZZLE_EXAMPLES / "traditional.toml"


def hidden_text(path: Path, name: str) -> str:
    """The example's TOML with ``name`` to move (their hand is hidden in the example), in the play phase."""
    text = path.read_text(encoding="utf-8")
    lines = [f'to_move = "{name}"' if line.startswith("to_move") else line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def read_hidden(path: Path, name: str) -> Position:
    return Position.from_toml(hidden_text(path, name), str(path), mover_may_be_hidden=True)


def played(before: Position, steps: str) -> PlayedTurn:
    return play_turn(before, steps, "steps", "toml", "here")


# ------------------------------------------------------------------ reading
def test_the_reader_refuses_a_hidden_mover_unless_asked_in_one_line() -> None:
    text = hidden_text(HOUSE, "bob")
    with pytest.raises(PositionError) as refused:
        Position.from_toml(text, "game.toml")
    assert str(refused.value) == ("game.toml: players.bob: bob's hand is hidden (hand_count): best answers for a "
                                  "known hand; enter bob's turn with 'rummy play game.toml STEPS'")
    position = Position.from_toml(text, "game.toml", mover_may_be_hidden=True)
    assert position.mover.hand is None and position.mover.hand_count == 4
    with pytest.raises(PositionError, match="bob's hand is hidden"):
        known_mover_hand(position, "game.toml")
    assert known_mover_hand(Position.from_file(HOUSE)) == Position.from_file(HOUSE).mover.hand


def test_a_hidden_hand_holds_hot_and_warm_cards_up_to_its_count() -> None:
    base = hidden_text(HOUSE, "bob").replace("hand_count = 4", "hand_count = 2\nhot = \"KH\"\nwarm = \"{warm}\"")
    position = Position.from_toml(base.format(warm="QH"), "g", mover_may_be_hidden=True)
    assert [c.notation() for c in position.mover.hot + position.mover.warm] == ["KH", "QH"]
    with pytest.raises(PositionError, match=r"players\.bob: 3 hot and warm cards, but hand_count is 2"):
        Position.from_toml(base.format(warm="QH JH"), "g", mover_may_be_hidden=True)


# -------------------------------------------------------------- play phase
@pytest.mark.parametrize(("path", "name", "steps", "played_cards"), [
    (HOUSE, "bob", "play 6S to bob/2; discard 2D", 2),                        # House: a lay-off on a run, a discard
    (RUMMIKUB, "bob", "play K1 K2 K3 to new/1", 3),                           # tiles: a new group, no discard
    (ROBBER, "ann", "play KD KS to bob/2; discard 2D", 3),                    # Robber: a steal
    (TRADITIONAL, "bob", "play 9C 10C JC to new/1; discard QD", 4),  # lay-off rummy
])
def test_steps_of_a_hidden_mover_play_unseen_cards_and_lower_the_count(path: Path, name: str, steps: str,
                                                                        played_cards: int) -> None:
    before = read_hidden(path, name)
    count = before.mover.hand_size
    turn = played(before, steps)
    assert turn.report.verdict.legal, turn.report.verdict.breaches
    assert "hidden" in turn.report.verdict.reading["hidden_hand"]
    after = turn.after.player(name)
    assert after.hand is None and after.hand_count == count - played_cards
    assert turn.position is not None and turn.position.to_move != name
    assert turn.position.player(name).hand_count == count - played_cards
    # the table is as a known hand holding those cards would leave it
    assert Counter(turn.after.table_cards()) - Counter(before.table_cards())


@pytest.mark.parametrize(("path", "name", "steps", "problem"), [
    (HOUSE, "bob", "play 2C to bob/2", "2C is not in bob's hidden hand (every copy of it is in sight)"),
    (RUMMIKUB, "cat", "play R7 R8 R9 to new/1", "R7 is not in cat's hidden hand"),  # ann holds both R7
    (TRADITIONAL, "bob", "play 4H to ann/1", "4H is not in bob's hidden hand"),  # one deck: 4H is laid off
])
def test_a_card_in_sight_is_not_in_a_hidden_hand(path: Path, name: str, steps: str, problem: str) -> None:
    with pytest.raises(PositionError, match=re.escape(problem)):
        read_steps(read_hidden(path, name), steps)


def test_a_hidden_hand_plays_no_more_cards_than_it_holds() -> None:
    before = read_hidden(HOUSE, "bob")  # 4 cards
    with pytest.raises(PositionError, match=re.escape("step 2: 3D is not in bob's hand (its hidden cards are all played)")):
        read_steps(before, "play 8S 9S 10S JS to new/1; play 3D to bob/2")


def test_going_out_from_a_hidden_hand_is_first_out_when_nobody_is() -> None:
    before = replace(read_hidden(HOUSE, "bob"), first_out=None)
    before = before.replace_player(replace(before.mover, hand_count=3))
    turn = played(before, "play 8S 9S to new/1; discard 3D")  # no: 8S 9S is no whole play
    assert not turn.report.verdict.legal
    turn = played(before, "play 8S 9S 10S to new/1")
    assert turn.report.verdict.legal, turn.report.verdict.breaches
    assert turn.position is not None and turn.position.first_out == "bob"
    assert turn.position.player("bob").hand_count == 0


# --------------------------------------------------------------- draw phase
def draw_phase(position: Position) -> Position:
    return replace(position, phase=Phase.DRAW)


def test_draw_alone_counts_one_card_more_and_one_less_in_the_stock() -> None:
    before = draw_phase(read_hidden(HOUSE, "bob"))
    turn = played(before, "draw")
    assert turn.position is not None and turn.report.verdict.legal
    assert turn.position.phase == Phase.PLAY and turn.position.to_move == "bob"
    assert turn.position.mover.hand_count == 5 and turn.position.stock == 22


def test_draw_from_a_listed_stock_and_a_tile_drawn_by_a_hidden_hand() -> None:
    before = replace(draw_phase(read_hidden(HOUSE, "bob")), stock=(Card.from_notation("2D"), Card.from_notation("3D")))
    drawn = played(before, "draw").position
    assert drawn is not None and drawn.mover.hand_count == 5 and drawn.stock == (Card.from_notation("3D"),)
    with pytest.raises(PositionError, match="the stock's top card is 2D, not 5D"):
        played(before, "draw 5D")
    tiles = read_hidden(RUMMIKUB, "bob")  # tile rummy: a player who plays nothing draws a tile, the turn passes
    turn = played(tiles, "draw")
    assert turn.position is not None and turn.position.to_move == "cat"
    assert turn.position.player("bob").hand_count == 11 and turn.position.stock == 48
    assert not played(tiles, "draw R7").report.verdict.legal  # ann holds both R7: not in the pool


def test_take_two_keeps_the_cards_seen_as_hot_and_warm_on_the_hidden_hand() -> None:
    before = draw_phase(read_hidden(HOUSE, "bob"))  # pile KD 4H 6C
    turn = played(before, "take 2")
    drawn = turn.position
    assert drawn is not None and turn.report.verdict.legal
    assert drawn.mover.hand is None and drawn.mover.hand_count == 6
    assert [c.notation() for c in drawn.mover.hot] == ["4H"] and [c.notation() for c in drawn.mover.warm] == ["6C"]
    assert [c.notation() for c in drawn.discard_pile] == ["KD"]
    assert drawn.unseen_cards()[Card.from_notation("4H")] == 0  # known to be in bob's hand: not unseen
    assert drawn.unseen_cards()[Card.from_notation("4C")] == 1
    # the hot card must be played, the warm one not discarded, as for a known hand
    codes = check(drawn, read_steps(drawn, "discard 6C")).codes
    assert "hot-card-unplayed" in codes and "warm-discard" in codes
    legal = played(drawn, "play 4H 4D 4C to new/1; discard 9C")
    assert legal.report.verdict.legal, legal.report.verdict.breaches
    assert legal.position is not None and legal.position.player("bob").hand_count == 2
    # written back and read again, the hidden hand's hot and warm cards survive
    again = Position.from_toml(drawn.to_toml(), "drawn.toml", mover_may_be_hidden=True)
    assert again.mover.hot == drawn.mover.hot and again.mover.warm == drawn.mover.warm


def test_the_middle_of_a_long_take_is_forgotten_on_a_hidden_hand() -> None:
    before = draw_phase(read_hidden(PUZZLE_EXAMPLES / "house-epic.toml", "bob"))
    before = replace(before, discard_pile=tuple(Card.from_notation(c) for c in ("8S", "5C", "9H", "2C")))
    pile = before.discard_pile
    turn = played(before, f"take {len(pile)}")
    drawn = turn.position
    assert drawn is not None, turn.report.lines
    assert drawn.mover.hand_count == before.mover.hand_size + len(pile)
    epic = before.rules.middle_discards_warm
    assert len(drawn.mover.hot) + len(drawn.mover.warm) == (len(pile) if epic else 2)


def test_open_and_demand_of_a_hidden_mover() -> None:
    upcard = Position.from_toml(hidden_text(PUZZLE_EXAMPLES / "house-upcard.toml", "bob"), "u",
                                mover_may_be_hidden=True)
    opened = played(upcard, "open").position
    assert opened is not None and opened.mover.hand_count == 9
    assert [c.notation() for c in opened.mover.warm] == ["8S"]
    epic = Position.from_toml(hidden_text(PUZZLE_EXAMPLES / "house-epic-draw.toml", "bob"), "e",
                              mover_may_be_hidden=True)
    demanded = played(epic, "demand 5H from ann")
    assert demanded.report.verdict.legal, demanded.report.lines
    assert demanded.position is not None and demanded.position.mover.hand_count == 9
    assert [c.notation() for c in demanded.position.mover.hot] == ["5H"]
    assert demanded.position.player("ann").hand is not None and len(demanded.position.player("ann").hand or ()) == 4


def test_draw_of_a_hidden_robber_mover_then_its_steps() -> None:
    before = draw_phase(read_hidden(ROBBER, "ann"))
    drawn = played(before, "draw").position
    assert drawn is not None and drawn.mover.hand_count == 7 and drawn.stock == 60
    turn = played(drawn, "play JD KD 9D to new/1; discard 2D")
    assert not turn.report.verdict.legal  # JD KD 9D is no run
    turn = played(drawn, "play KD to bob/2; discard 2D")
    assert turn.report.verdict.legal, turn.report.lines


def test_best_and_hint_refuse_a_hidden_mover_through_the_library_too() -> None:
    from rummy.answer import best

    with pytest.raises(PositionError, match="bob's hand is hidden"):
        best(read_hidden(HOUSE, "bob"))


# ------------------------------------------------------------ the property
def hand_turns(position: Position, limit: int = 12) -> list[str]:
    """Some step texts for the mover's hand: whole plays of 3 or 4 hand cards, single cards laid on a play."""
    hand = position.mover.hand or ()
    rules = position.rules
    deck = rules.deck
    steps: list[str] = []
    for size in (3, 4):
        for cards in combinations(hand, size):
            if readings(cards, rules) and len(steps) < limit:
                steps.append(f"play {' '.join(c.notation(deck) for c in cards)} to new/1")
    for name in position.named_plays():
        for card in hand:
            if readings(position.play_with_layoffs(name) + (card,), rules) and len(steps) < 2 * limit:
                steps.append(f"play {card.notation(deck)} to {name}")
    return steps


def random_position(kind: int, seed: int) -> Position:
    if kind == 0:  # hands large enough to hold plays
        return random_house(seed, max_table_plays=3, hand_size=(7, 11))
    if kind == 1:
        return random_tiles(seed, max_table_plays=3, rack_size=(7, 12))
    import random

    rng = random.Random(seed)
    rules: Any = rng.choice(LAYOFF_VARIATIONS)  # a preset name or a table of options
    return random_layoff_position(rng, rules, rng.randint(6, 9), rng.randint(1, 3), True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(kind=st.integers(0, 2), seed=st.integers(0, 10**6), data=st.data())
def test_hiding_the_mover_gives_the_same_next_table_and_count(kind: int, seed: int, data: st.DataObject) -> None:
    """For a random legal turn of a known mover, the hidden mover (hand_count = len(hand)) gets the same
    verdict and gain, and the same next position but for the mover's hand, whose count is the same."""
    known = random_position(kind, seed)
    hand = known.mover.hand or ()
    options = hand_turns(known)
    chosen = data.draw(st.lists(st.sampled_from(options), min_size=1, max_size=2, unique=True)) if options else []
    if known.rules.discard:
        chosen.append(f"discard {data.draw(st.sampled_from(hand)).notation(known.rules.deck)}")
    assume(chosen)
    steps = "; ".join(chosen)
    try:
        seen = played(known, steps)
    except PositionError:  # the same card twice in two steps
        assume(False)
        raise
    assume(seen.report.verdict.legal)
    event(f"{known.rules.family.name}: {len(chosen)} step(s)")
    hidden = played(hidden_mover(known), steps)
    assert hidden.report.verdict.legal, (steps, hidden.report.verdict.breaches)
    assert hidden.report.verdict.reading["gain"] == seen.report.verdict.reading["gain"]
    assert seen.position is not None and hidden.position is not None
    assert hidden.position.table_key() == seen.position.table_key()
    name = known.to_move
    mover_seen, mover_hidden = seen.position.player(name), hidden.position.player(name)
    assert mover_hidden.hand is None and mover_hidden.hand_count == mover_seen.hand_size
    assert replace(hidden.position.replace_player(mover_seen)) == seen.position


def test_a_known_card_left_out_of_the_deck_is_never_unseen() -> None:
    """Unseen means the deck less what the position shows (copies counted): a card of a known hand is not."""
    position = read_hidden(HOUSE, "bob")
    ann = position.player("ann").hand or ()
    shown = Card.from_notation("9D")
    assert shown in ann
    with pytest.raises(PositionError, match="9D is not in bob's hidden hand"):
        read_steps(position, "play 9D to cat/1")
