"""Issue 29's promises on the remade collections, one test function per family (each owner adds its own).

Every puzzle has at least one theme; no theme covers more than half of a kind's hard and expert puzzles (all
presets of the family together); the strong rung (``lookahead``) solves every hard puzzle and no expert one
within its budget; the greedy rungs, and the simple greedy players of tests/ladder/greedy_players.py, reach
the optimum of no hard or expert puzzle.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rummy.checker import check
from rummy.ladder import Effort, best_found, ladder_of
from rummy.position import Position

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


# ---------------------------------------------------------------------------------------------- tiles
@pytest.mark.slow
def test_tile_collection_is_graded_by_insight_and_varied() -> None:
    from tests.ladder.greedy_players import TILE_PLAYERS

    folder = PUZZLES / "tiles"
    entries = json.loads((folder / "index.json").read_text(encoding="utf-8"))["puzzles"]
    themes_by_kind: dict[str, Counter[str]] = {}
    hard_by_kind: Counter[str] = Counter()
    for entry in entries:
        assert entry.get("themes"), entry["name"]
        if entry["tier"] not in ("hard", "expert"):
            continue
        hard_by_kind[entry["kind"]] += 1
        themes_by_kind.setdefault(entry["kind"], Counter()).update(entry["themes"])
        position = Position.from_file(folder / entry["position"])
        optimum = Fraction(json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))["gain"])
        below = None
        for rung in ladder_of(position):
            below = best_found(rung, position, Effort(), below)
            reached = below.gain is not None and below.gain >= optimum
            if rung.greedy:
                assert not reached, (entry["name"], rung.name)
            elif rung.name == "lookahead":
                assert reached == (entry["tier"] == "hard"), (entry["name"], below.gain, optimum)
        for k, player in enumerate(TILE_PLAYERS):
            after = player(position, random.Random(f"{entry['name']}/{k}"))
            assert check(position, after).legal, (entry["name"], player.__name__)
            gain = Fraction(position.rules.family.turn_gain(position, after))
            assert gain < optimum, (entry["name"], player.__name__)
    for kind, counts in themes_by_kind.items():
        for theme, count in counts.items():
            assert count <= hard_by_kind[kind] // 2, (kind, theme, count, hard_by_kind[kind])
