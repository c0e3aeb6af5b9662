"""``rules_note``: the rule that decides a puzzle, named only where the position and the answer show it
(rummy.generator.rules_notes), on hand-made positions; every answer here is a turn the checker accepts."""

from __future__ import annotations

from rummy.checker import check
from rummy.generator.rules_notes import rules_note
from rummy.position import Position
from rummy.turn_steps import read_steps
from tests.support.paths import PUZZLE_EXAMPLES


def note(before_toml: str, steps: str) -> str | None:
    before = Position.from_toml(before_toml)
    after = read_steps(before, steps)
    assert check(before, after).legal, check(before, after).codes
    return rules_note(before, after)


def house(hand: str, *, melded: bool = True, hand_number: int = 3, extra: str = "", hot: str = "") -> str:
    """A House Classic position: ann to move with ``hand``, bob's run 9D 10D JD."""
    heat = f', hot = "{hot}"' if hot else ""
    return (f'rules = "house-classic"\nhand_number = {hand_number}\nto_move = "ann"\n{extra}'
            f'players.ann = {{melded = {str(melded).lower()}, hand = "{hand}", space = []{heat}}}\n'
            'players.bob = {melded = true, hand_count = 5, space = ["9D 10D JD"]}\n'
            'piles = {discard = "4C", stock = 30}\n')


STRAIGHT = """
rules = "straight"
to_move = "cat"
players.ann = {hand_count = 3, space = ["7H 8H 9H"]}
players.cat = {hand = "QC 2D 4H 5H 6H", warm = "QC"}
piles = {discard = "8C", stock = 28}
"""


def test_a_warm_card_kept_while_a_cheaper_card_is_discarded_is_named() -> None:
    assert note(STRAIGHT, "meld 4H 5H 6H; discard 2D") == "QC is warm: it cannot be discarded"
    # kept while the discard, worth more, is one a play on the table would take: laying it off would
    # leave the warm card as the only discard, which the rule forbids
    taken = STRAIGHT.replace('["7H 8H 9H"]', '["7H 8H 9H", "10S JS QS"]').replace(
        '"QC 2D 4H 5H 6H"', '"2D KS 4C 5C 6C"').replace('warm = "QC"', 'warm = "2D"')
    assert note(taken, "meld 4C 5C 6C; discard KS") == "2D is warm: it cannot be discarded"
    # the warm card laid off: no rule decided anything
    played = STRAIGHT.replace('"QC 2D 4H 5H 6H"', '"10H 2D 4H 5H 6H"').replace('warm = "QC"', 'warm = "10H"')
    assert note(played, "meld 4H 5H 6H; lay off 10H on ann/1; discard 2D") is None


def test_a_hot_card_is_named() -> None:
    assert note(house("2H 3H 4H 9C"), "play 2H 3H 4H to new/1; discard 9C") is None
    assert note(house("2H 3H 4H 9C", hot="2H"), "play 2H 3H 4H to new/1; discard 9C") == "2H is hot: it must be played"


def test_the_meld_cost_of_a_mover_who_has_not_melded() -> None:
    before = house("5S 5H 5D 9C", melded=False, hand_number=1)
    text = note(before, "meld 5S 5H 5D; discard 9C")
    assert text is not None and "you have not melded" in text and "worth 10 (hand 1)" in text
    assert "cannot pay for a steal" in text
    assert note(house("5S 5H 5D 9C", hand_number=1), "play 5S 5H 5D to new/1; discard 9C") is None


def test_a_run_round_the_corner() -> None:
    before = house("KH AH 2H 9C")
    assert note(before, "play KH AH 2H to new/1; discard 9C") == "aces go round the corner: K A 2 is a run"
    assert note(house("QH KH AH 9C"), "play QH KH AH to new/1; discard 9C") is None  # no corner turned


def test_someone_out_first_takes_the_bonus_away() -> None:
    before = house("5S 5H 5D 9C", extra='first_out = "bob"\n')
    assert note(before, "play 5S 5H 5D to new/1; discard 9C") == "bob already went out first this hand: no first-out bonus"


def test_a_fixed_joker_freed_by_its_own_tile() -> None:
    before = (PUZZLE_EXAMPLES / "rummikub-fixed-joker.toml").read_text(encoding="utf-8")
    text = note(before, "replace table/1 * with R7; play K3 K4 * to new/1")
    assert text is not None and "the joker in table/1 is fixed: only R7 from your rack frees it" in text
    assert "its play cannot give up" not in text  # B2 B3 * B5 has no tile the turn's plays would take
    locked = ('rules = "rummikub"\nto_move = "ann"\ntable = ["K5 K6 * K8", "B1 B2 B3"]\n'
              'players.ann = {melded = true, hand = "K9 K10 K11 R1"}\n'
              'players.bob = {melded = true, hand_count = 9}\npiles = {stock = 60}\n')
    # K8 would join K9 K10 K11, and K5 K6 * stays whole without it: only the lock keeps it there
    assert note(locked, "play K9 K10 K11 to new/1") == (
        "the joker in table/1 is fixed: its play cannot give up a tile until K7 replaces it")


def test_one_meld_a_turn_where_the_hand_keeps_another_and_the_queen_of_spades() -> None:
    two = STRAIGHT.replace('"QC 2D 4H 5H 6H"', '"JC QC KC 4S 5S 6S 9D"').replace('warm = "QC"', 'warm = "JC"')
    assert note(two, "meld JC QC KC; discard 9D") == "one meld a turn (lay-offs are not counted)"
    assert note(two, "meld JC QC KC; discard 4S") is None  # nothing whole kept back
    # QS is worth 45 in Straight Rummy: named where the mover holds it
    queen = STRAIGHT.replace('"QC 2D 4H 5H 6H"', '"QS 2D 4H 5H 6H"').replace('warm = "QC"', 'warm = "2D"')
    assert note(queen, "meld 4H 5H 6H; discard QS") == "QS counts 45"


def test_robber_books_that_repeat_a_suit_and_aces_high() -> None:
    before = (PUZZLE_EXAMPLES / "robber.toml").read_text(encoding="utf-8")
    assert note(before, "steal KS from bob/2; discard 7H") == "a book may repeat suits and hold up to 8 cards"
    assert note(before, "steal KS AS from ann/1; discard 7H") == (
        "an ace ends a run high (Q K A) or low (A 2 3), never round the corner")
    assert note(before, "steal 5D from bob/1; discard 7H") is None
