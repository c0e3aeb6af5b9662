"""A rival the House ``ambiguity`` search must see (found in review, kept as a regression test).

``house_kinds.ambiguity`` must call a table "not unique" when a rival as good
exists that the House model cannot hold: two runs of one suit in one space
overlapping through a joker (house_runs lays such a pair as one longer run).
The search once split *all* the cards of a space's runs of a suit into two
runs, so one more run of the suit in the space hid the overlapping split.
"""

from __future__ import annotations

from dataclasses import replace

from rummy.checker import check, turn_gain
from rummy.generator.house_kinds import ambiguity
from rummy.plays import Play
from rummy.position import Position, Turn

BEFORE = Position.from_toml("""
rules = "house-epic"
hand_number = 2
to_move = "ann"
[players.ann]
melded = true
hand = "2H"
space = ["* 5C 6C 7C 8C *", "JC QC KC"]
[players.bob]
melded = true
hand_count = 3
space = ["9S 9D 9H"]
""")


def _with_ann_plays(position: Position, plays: list[str]) -> Position:
    ann = position.player("ann")
    return position.replace_player(replace(ann, plays=tuple(Play.from_notation(p) for p in plays)))


def _kept_and_discarded(before: Position) -> Position:
    """The turn that changes nothing on the table and discards the mover's one card."""
    card = before.mover.hand[0]
    ann = replace(before.mover, hand=())
    return replace(before.replace_player(ann), discard_pile=before.discard_pile + (card,),
                   turn=Turn(discard=card, discard_declared=True))


def test_an_overlapping_split_beside_another_run_of_the_suit_is_a_rival():
    answer = _kept_and_discarded(BEFORE)  # keep the table, discard 2H
    assert check(BEFORE, answer).legal
    # The rival: the long run split into two runs whose jokers stand for each
    # other's naturals (5C *=6C 7C and 6C *=7C 8C); the model cannot hold it.
    rival = _with_ann_plays(answer, ["5C * 7C", "6C * 8C", "JC QC KC"])
    assert rival.table_key() != answer.table_key()
    assert check(BEFORE, rival).legal
    assert turn_gain(BEFORE, rival) == turn_gain(BEFORE, answer)
    # Control: without JC QC KC in the space the same split is found.
    alone = _with_ann_plays(BEFORE, ["* 5C 6C 7C 8C *"])
    assert ambiguity(alone, _kept_and_discarded(alone)) is not None
    # With it, the split is found beside the run of JC QC KC.
    assert ambiguity(BEFORE, answer) is not None
