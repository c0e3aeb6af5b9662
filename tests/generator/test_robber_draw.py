"""Robber draw-or-pile puzzles: the kind's deals (robber_draw_kinds) and the draw rungs (ladder.robber_draw)."""

from __future__ import annotations

import random

import pytest

from rummy.answer import best
from rummy.checker import check
from rummy.errors import RummyError
from rummy.generator import KINDS, Request, generate
from rummy.generator.robber_draw_kinds import DRAW_MARGIN, make_draw
from rummy.ladder.robber_draw import decide, draw_grade, pile_pays
from rummy.model.robber import pile_openings
from rummy.position import Position
from rummy.rules import preset
from rummy.vocabulary import DrawSource, Phase, Tier

ROBBER = preset("robber")


def position(text: str) -> Position:
    return Position.from_toml(text)


def _draw_position(bob_plays: str, discard: str) -> str:
    """Ann (5H 5D 2C 3C, nothing laid) to draw; bob with one play."""
    return f"""
rules = "robber"
to_move = "ann"
phase = "draw"

[players.ann]
hand = "5H 5D 2C 3C"
plays = []

[players.bob]
hand_count = 7
plays = ["{bob_plays}"]

[piles]
discard = "{discard}"
stock = 40
"""


# The pile's top 4C makes a small run with 2C 3C; under it four costly cards that nothing takes.
JUNK_PILE = _draw_position("9H 9D 9S", "KD AS QC AD 4C")
# The same junk, but the top 9S takes bob's 6S 7S 8S: a steal worth the junk.
STEAL_UNDER_JUNK = _draw_position("6S 7S 8S", "KD QC AH JD 9S")


# ------------------------------------------------------------------------------------------- deals
@pytest.mark.parametrize("seed", range(12))
def test_a_deal_is_a_valid_draw_position_whose_top_card_melds(seed: int) -> None:
    made = make_draw(random.Random(seed), ROBBER, None)
    if made is None:
        pytest.skip("this seed's deal failed (the generator counts it)")
    assert made.phase == Phase.DRAW and made.discard_pile
    assert Position.from_data(made.to_data()) == made  # reads back: every card within the deck
    assert pile_openings(made), "the pile's top card melds at once"
    assert len(made.mover.hand or ()) >= 2 and isinstance(made.stock, int) and made.stock >= 1
    assert 2 <= len(made.discard_pile) <= 5


def test_deals_are_the_seeds_and_most_succeed() -> None:
    made = [make_draw(random.Random(seed), ROBBER, None) for seed in range(20)]
    again = [make_draw(random.Random(seed), ROBBER, None) for seed in range(20)]
    assert made == again
    assert sum(p is not None for p in made) >= 10


def test_the_kind_is_registered_for_robber_with_its_own_judge() -> None:
    kind = KINDS["robber", "draw-or-pile"]
    assert kind.judge is not None and kind.tiers == tuple(Tier)


def test_a_small_run_keeps_the_pile_best_by_the_margin_and_checks() -> None:
    report = generate(Request("robber", "draw-or-pile", 2, seed=1, workers=1, max_candidates=40))
    assert len(report.puzzles) == 2, report.rejected
    for puzzle in report.puzzles:
        answer = best(puzzle.position)
        chosen = answer.solution.draw.chosen
        assert chosen is not None and chosen.source == DrawSource.PILE
        assert puzzle.margin >= DRAW_MARGIN and answer.solution.gain == puzzle.answer["gain"]
        assert check(puzzle.position, answer.solution.after).legal
        # the question (take the pile?) is never a theme; what the pile's cards do is
        assert puzzle.themes and "take-the-pile" not in puzzle.themes
        assert {"buried-card", "pile-junk", "pile-discard"} & set(puzzle.themes) or "steal-chain" in puzzle.themes
        assert puzzle.tier == draw_grade(puzzle.position, DrawSource.PILE, answer.solution.gain).tier
        assert dict(puzzle.extra)["turn_margin"] > 0


# ------------------------------------------------------------------------------------------- rungs
def test_the_easy_rule_takes_a_pile_of_junk_and_is_wrong() -> None:
    junk = position(JUNK_PILE)
    answer = best(junk)
    assert answer.solution.draw.chosen.source == DrawSource.STOCK  # the solver: the stock is worth more
    easy, medium, hard = (decide(junk, rung) for rung in range(3))
    assert easy.source == DrawSource.PILE  # its top card melds: the easy rule takes it
    assert easy.gain is not None and easy.gain < answer.solution.gain
    assert not pile_pays(junk) and medium.source == DrawSource.STOCK
    assert hard.source == DrawSource.STOCK
    graded = draw_grade(junk, DrawSource.STOCK, None)
    assert graded.tier == Tier.MEDIUM and graded.rung == "pile-if-it-pays"


def test_a_steal_under_junk_is_taken_by_the_easy_rule_and_the_lookahead_not_by_the_count() -> None:
    steal = position(STEAL_UNDER_JUNK)
    answer = best(steal)
    assert answer.solution.draw.chosen.source == DrawSource.PILE
    easy, medium, hard = (decide(steal, rung) for rung in range(3))
    assert easy.source == hard.source == DrawSource.PILE and easy.gain == answer.solution.gain
    assert medium.source == DrawSource.STOCK  # the junk outweighs what fits: the count says no
    for decision in (easy, hard):
        assert decision.after is not None and check(steal, decision.after).legal
    assert draw_grade(steal, DrawSource.PILE, answer.solution.gain).tier == Tier.EASY


def test_the_rungs_refuse_a_play_phase_position() -> None:
    played = position(STEAL_UNDER_JUNK.replace('phase = "draw"', 'phase = "play"'))
    with pytest.raises(RummyError, match="draw-phase"):
        decide(played, 0)
