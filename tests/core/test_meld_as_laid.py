"""A meld declared as it stays (rummy.meld_as_laid): no official plan melds, then takes the meld apart."""

from __future__ import annotations

from rummy.checker import check, turn_gain
from rummy.meld_as_laid import meld_as_laid
from rummy.plan import make_plan
from rummy.position import Position
from rummy.turn_steps import read_steps, steps_text
from rummy.vocabulary import Action

# Hand 2 (cost 10), ann has not melded: the solver's meld 7S 8S 9S ends split (7S 8S onto ann's run,
# 9S into a book of nines made of hand cards alone, worth the cost by itself).
BEFORE = """
rules = "house-classic"
hand_number = 2
to_move = "ann"
players.ann = {melded = false, hand = "KD 9H 8S 10S 9S 9C 7S KC", space = ["4S 5S 6S"]}
players.bob = {melded = true, hand_count = 4, space = ["* JD QD", "AC 2C 3C 4C"]}
piles = {discard = "3S", stock = 21}
"""

DETOUR = """
replace bob/1 * with KD
meld 7S 8S 9S
move 7S from new/1 to ann/1
move 8S from new/1 to ann/1
play 9C 9H to new/1
play * KC to new/2
steal AC from bob/2 to new/2 paid by *
discard 10S
"""


def test_the_meld_is_declared_as_the_play_that_stays() -> None:
    before = Position.from_toml(BEFORE)
    after = read_steps(before, DETOUR)
    assert check(before, after).legal
    laid = meld_as_laid(before, after)
    assert laid.turn is not None and [sorted(p.notation().split()) for p in laid.turn.meld or ()] == [["9C", "9H", "9S"]]
    verdict = check(before, laid)
    assert verdict.legal and laid.table_key() == after.table_key()
    assert turn_gain(before, laid) == turn_gain(before, after)
    plan = make_plan(before, laid)
    # no card laid in the meld moves again: 7S and 8S go straight from the hand to ann/1
    assert not [s for s in plan.steps if s.action == Action.MOVE and (s.source or "").startswith("new/")]
    assert check(before, read_steps(before, steps_text(plan, before))).legal


def test_a_meld_needed_as_laid_is_kept() -> None:
    # 7S 8S 9S ends whole in ann's space: nothing to change.
    before = Position.from_toml(BEFORE)
    after = read_steps(before, "meld 7S 8S 9S; discard 10S")
    assert meld_as_laid(before, after) is after
    # The joker must pay for the steal, and no play of hand cards alone is worth the cost but the meld.
    steal = read_steps(before, "replace bob/1 * with KD; meld 9S 9H 9C; play * KC to new/2; "
                               "steal AC from bob/2 to new/2 paid by *; discard 10S")
    assert check(before, steal).legal and meld_as_laid(before, steal) is steal
