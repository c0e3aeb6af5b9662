"""Draw advice and ``SolverConfig.on_better``: the turns its play-phase searches find after one draw are
not answers to the position (their gains count from another position): they are not told at all, so a
listener (``best --progress``, the page) never pays for their after-positions."""

from __future__ import annotations

from rummy.answer import best
from rummy.position import Position
from rummy.solution import Improvement, SolverConfig
from tests.support.paths import PUZZLE_EXAMPLES

DRAW = PUZZLE_EXAMPLES / "house-classic-draw.toml"


def test_the_searches_after_each_draw_tell_nothing_of_their_own() -> None:
    heard: list[Improvement] = []
    position = Position.from_file(DRAW)
    answer = best(position, SolverConfig(time_limit=5, workers=1, on_better=heard.append))
    assert answer.solution.draw is not None and answer.solution.draw.options  # draw advice did search
    assert [told for told in heard if told.total == 0] == []  # every one told is draw advice's own (options)
