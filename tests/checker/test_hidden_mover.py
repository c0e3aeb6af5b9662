"""The checker on a hidden mover's turn (rummy.checker.hidden): conservation on counts, the cards played
unseen before the turn, everything about the table judged as for a known hand, the reading saying so."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummy.cards import Card, parse_cards
from rummy.checker import check
from rummy.errors import PositionError
from rummy.plays import Play
from rummy.position import Position
from rummy.turn_steps import read_steps
from rummy.vocabulary import Phase
from tests.support.hidden import hidden_mover
from tests.support.paths import PUZZLE_EXAMPLES

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"


def hidden(path_name: str, name: str) -> Position:
    path = PUZZLE_EXAMPLES / path_name
    text = "\n".join(f'to_move = "{name}"' if line.startswith("to_move") else line
                     for line in path.read_text(encoding="utf-8").splitlines())
    return Position.from_toml(text, path.name, mover_may_be_hidden=True)


def with_count(position: Position, count: int) -> Position:
    mover = position.mover
    return position.replace_player(replace(mover, hand_count=count))


def test_a_legal_turn_says_the_hand_is_hidden_and_counts_it() -> None:
    before = hidden("house-classic.toml", "bob")
    verdict = check(before, read_steps(before, "play 6S to bob/2; discard 2D"))
    assert verdict.legal, verdict.breaches
    assert verdict.reading["hidden_hand"] == ("bob's hand is hidden: the cards played are checked against the "
                                              "unseen cards, the hand on counts (4 before, 2 after)")
    assert verdict.reading["discard"] == "2D"


def test_a_hand_count_that_does_not_follow_is_a_conservation_breach() -> None:
    before = hidden("house-classic.toml", "bob")
    after = read_steps(before, "play 6S to bob/2; discard 2D")
    verdict = check(before, with_count(after, 3))
    assert not verdict.legal and verdict.codes == ("conservation",)
    assert verdict.breaches[0].message == ("bob's hand_count after the turn is 3; the turn leaves "
                                           "4 - 2 played + 0 taken = 2")


def test_a_card_in_sight_before_the_turn_appeared_from_nowhere() -> None:
    before = hidden("house-classic.toml", "bob")
    after = read_steps(before, "play 6S to bob/2; discard 2D")
    # a second KS on bob's run's end: the one deck's KS is on the pile
    grown = replace(after.player("bob"), plays=(after.player("bob").plays[0],
                                                Play(parse_cards("3S 4S 5S 6S"))))
    after = after.replace_player(grown)
    stolen = replace(after, discard_pile=after.discard_pile[:-1] + (Card.from_notation("KS"),))
    verdict = check(before, with_count(stolen, 2))
    assert "conservation" in verdict.codes
    assert any("KS appeared from nowhere: bob's hand is hidden and every copy of it is in sight" in b.message
               for b in verdict.breaches)


def test_more_cards_played_than_the_hand_holds() -> None:
    before = with_count(hidden("house-classic.toml", "bob"), 1)
    after = read_steps(with_count(before, 4), "play 8S 9S 10S to new/1")
    verdict = check(before, with_count(after, 0))
    assert any(b.message == "3 cards came from bob's hand, which holds 1 (hand_count)" for b in verdict.breaches)


def test_the_after_position_keeps_the_hand_hidden() -> None:
    before = hidden("house-classic.toml", "bob")
    after = read_steps(before, "discard 2D")
    known = after.replace_player(replace(after.mover, hand=parse_cards("KH QH JH"), hand_count=None))
    with pytest.raises(PositionError, match="bob's hand was hidden before the turn: give hand_count after it"):
        check(before, known)


@pytest.mark.parametrize(("example", "name", "steps", "code"), [
    ("house-classic.toml", "bob", "play 8S 9S to new/1; discard 2D", "not-whole"),
    ("house-upcard.toml", "bob", "play 8C 9C 10C to new/1; discard 2D", "touched-before-meld"),  # not melded
    ("rummikub.toml", "bob", "play K1 K2 K3 to new/1; play B7 to new/1", "not-whole"),
    ("traditional.toml", "bob", "play 5C to ann/1; discard QD", "not-whole"),
])
def test_the_table_is_judged_as_for_a_known_hand(example: str, name: str, steps: str, code: str) -> None:
    before = hidden(example, name)
    if before.phase != Phase.PLAY:
        before = replace(before, phase=Phase.PLAY, upcard=None)
    verdict = check(before, read_steps(before, steps))
    assert code in verdict.codes, verdict.breaches


def test_the_same_turn_of_a_known_hand_has_the_same_breaches_and_gain() -> None:
    known = Position.from_file(PUZZLE_EXAMPLES / "traditional.toml")
    steps = "play KC KD KS to new/1; play 5H to ann/1; discard 9S"
    seen = check(known, read_steps(known, steps))
    before = hidden_mover(known)
    unseen = check(before, read_steps(before, steps))
    assert seen.legal and unseen.legal, (seen.breaches, unseen.breaches)
    assert seen.reading["gain"] == unseen.reading["gain"]
    wrong = "play KC KD to new/1; discard 9S"
    assert check(known, read_steps(known, wrong)).codes == check(before, read_steps(before, wrong)).codes
