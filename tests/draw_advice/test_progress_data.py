"""The draw phase's progress lines (rummy.reports.best.progress_data), from the Improvement draw advice tells
(SolverConfig.on_better: the options valued so far, the chosen draw's whole turn where it is certain): the keys
of docs/formats.md "Progress lines", the options as best --json writes them, the turn judged by the checker."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rummy.answer import answer_data
from rummy.position import Position
from rummy.reports.best import answers_position, progress_data, progress_line
from rummy.solution import Improvement, SolverConfig
from tests.support.judged import judged_best
from tests.support.paths import PUZZLE_EXAMPLES

DRAW = PUZZLE_EXAMPLES / "house-classic-draw.toml"  # the discard pile's top 4 cards, a certain draw, chosen


def told(valued: int) -> tuple[Position, dict[str, Any], Improvement]:
    position = Position.from_file(DRAW)
    answer = judged_best(position, SolverConfig(time_limit=20, workers=1))
    whole = answer_data(answer)
    draw = answer.solution.draw
    assert draw is not None and draw.chosen is not None and draw.chosen.certain
    improvement = Improvement(gain=answer.solution.gain, bound=answer.solution.bound, seconds=0.5,
                              after=answer.solution.after, cards_played=answer.solution.cards_played, source="draw",
                              options=draw.options[:valued], valued=valued, total=len(draw.options))
    return position, whole, improvement


def test_a_draw_phase_line_has_the_options_valued_so_far_and_the_chosen_draws_turn() -> None:
    position, whole, improvement = told(2)
    data = progress_data(position, improvement)
    assert list(data) == ["gain", "bound", "seconds", "source", "status", "turn", "after", "cards_played",
                          "options", "valued", "total"]
    assert data["options"] == whole["options"][:2] and (data["valued"], data["total"]) == (2, len(whole["options"]))
    assert data["turn"] == whole["turn"] and data["turn"].startswith("take ")
    assert data["after"] == whole["after"] and data["status"] == "feasible" and data["source"] == "draw"
    assert progress_line(data) == (f"better: gain {whole['gain']}, at most {whole['bound']}, 0.50 s "
                                   f"(draw, 2 of {len(whole['options'])} valued)")


def test_a_random_draw_chosen_so_far_has_no_turn_yet() -> None:
    position, _, improvement = told(1)
    data = progress_data(position, replace(improvement, after=None, cards_played=0))
    assert data["turn"] is None and data["after"] is None and len(data["options"]) == 1


def test_a_turn_told_by_a_search_after_one_draw_is_not_an_answer_to_the_draw_phase_position() -> None:
    position, _, improvement = told(1)
    assert answers_position(position, improvement)
    searched_after_a_draw = replace(improvement, options=(), valued=0, total=0, source="cp-sat")
    assert not answers_position(position, searched_after_a_draw)
    play_phase = Position.from_file(PUZZLE_EXAMPLES / "house-classic.toml")
    assert answers_position(play_phase, searched_after_a_draw)


def test_the_web_line_carries_the_answer_the_page_draws_with_the_options_so_far() -> None:
    """POST /api/best with progress: the line's ``answer`` is the endpoint's answer for the options so far
    (status feasible, verified by the checker, the options table's words)."""
    from rummy.reports.page import progress_report

    position, whole, improvement = told(2)
    line = progress_report(position, improvement, SolverConfig().objective)["progress"]
    answer = line["answer"]
    assert answer["status"] == "feasible" and answer["verified"] is True
    assert answer["options"] == whole["options"][:2] == line["options"]
    assert len(answer["view"]["options"]) == 2 and answer["turn"] == whole["turn"]
