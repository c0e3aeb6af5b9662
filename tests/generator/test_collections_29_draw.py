"""Issue 29 §3 on puzzles/robber-draw (kind draw-or-pile): every puzzle re-solved still has its stored answer
and margins, its stored tier is the draw rungs', and the checker accepts its stored answer."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rummy.answer import best
from rummy.checker import check
from rummy.generator.robber_draw_kinds import DRAW_MARGIN, pile_turn_margin
from rummy.ladder.robber_draw import draw_grade
from rummy.position import Position
from rummy.solution import SolverConfig
from rummy.vocabulary import DrawSource, Phase

FOLDER = Path(__file__).resolve().parents[2] / "puzzles" / "robber-draw"
ENTRIES = json.loads((FOLDER / "index.json").read_text(encoding="utf-8"))["puzzles"]


def test_the_collection_is_themed_by_what_the_piles_cards_do_and_spread() -> None:
    assert len(ENTRIES) >= 12
    assert len(Counter(entry["tier"] for entry in ENTRIES)) >= 2
    assert all(entry["kind"] == "draw-or-pile" for entry in ENTRIES)
    # taking the pile is the question, never a theme (it would answer it); every puzzle has an idea
    assert all(entry["themes"] and "take-the-pile" not in entry["themes"] and entry["themes"] != ["plain-play"]
               for entry in ENTRIES)
    hard = [entry for entry in ENTRIES if entry["tier"] in ("hard", "expert")]
    counts = Counter(name for entry in hard for name in entry["themes"])
    assert len(hard) >= 12 and all(2 * n <= len(hard) for n in counts.values()), counts


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry["name"])
def test_a_puzzle_is_still_its_answer_its_margins_and_its_tier(entry: dict) -> None:
    position = Position.from_file(FOLDER / entry["position"])
    stored = json.loads((FOLDER / entry["solution"]).read_text(encoding="utf-8"))
    assert position.phase == Phase.DRAW
    answer = best(position)
    solution = answer.solution
    assert solution.draw is not None and solution.draw.chosen is not None
    assert solution.draw.chosen.source == DrawSource.PILE == stored["draw"]["from"]
    assert solution.gain == stored["gain"] == position.puzzle.target
    assert solution.after is not None and solution.after.table_key() \
        == Position.from_data(stored["after"], strict=False).table_key()
    values = {option.source: option.value for option in solution.draw.options}
    margin = values[DrawSource.PILE] - values[DrawSource.STOCK]
    assert margin == pytest.approx(stored["margin"]) and margin >= DRAW_MARGIN
    assert pile_turn_margin(position, answer, SolverConfig(workers=1, seed=0)) == stored["turn_margin"]
    graded = draw_grade(position, DrawSource.PILE, solution.gain)
    assert graded.tier == stored["tier"] == entry["tier"]
    assert [{"rung": d.rung, "draw": str(d.source), "gain": d.gain} for d in graded.decisions] \
        == stored["draw_rungs"]
    assert check(position, solution.after).legal


def test_rummy_check_accepts_every_stored_answer() -> None:
    for entry in ENTRIES:
        result = subprocess.run([sys.executable, "-m", "rummy", "check", str(FOLDER / entry["position"]),
                                 str(FOLDER / entry["solution"])], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0 and result.stdout.startswith("legal"), (entry["name"], result.stdout,
                                                                              result.stderr)
