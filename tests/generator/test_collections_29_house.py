"""Issue 29 on the remade collections: every puzzle has a theme, no theme covers more than half of a kind's
hard and expert puzzles, the strong rung (lookahead) solves every hard puzzle and no expert one, and neither the
greedy rungs nor simple greedy players (tests/ladder/greedy_players.py) solve a hard or expert puzzle.
One test function per family (each family's owner adds its own)."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rummy.ladder import climb, ladder_of
from rummy.position import Position
from tests.ladder.greedy_players import house_players

REPO_ROOT = Path(__file__).resolve().parents[2]
TOLERANCE = Fraction(1, 1000)  # the files round Epic's fractional gains to 4 places


def _entries(folder: str) -> list[dict[str, Any]]:
    index = REPO_ROOT / "puzzles" / folder / "index.json"
    entries: list[dict[str, Any]] = json.loads(index.read_text(encoding="utf-8"))["puzzles"]
    return entries


# ------------------------------------------------------------------ House Rummy
HOUSE = _entries("house")
HOUSE_HARD = [e for e in HOUSE if e["tier"] in ("hard", "expert")]


def test_house_puzzles_each_have_a_theme_and_no_theme_covers_half_of_a_kinds_hard_and_expert() -> None:
    assert len(HOUSE) >= 200
    assert all(e.get("themes") for e in HOUSE), [e["name"] for e in HOUSE if not e.get("themes")]
    for kind in sorted({e["kind"] for e in HOUSE}):
        mine = [e for e in HOUSE_HARD if e["kind"] == kind]
        counts = Counter(name for e in mine for name in e["themes"])
        assert all(2 * n <= len(mine) for n in counts.values()), (kind, len(mine), counts.most_common(3))


@pytest.mark.slow
@pytest.mark.parametrize("entry", HOUSE_HARD, ids=lambda e: e["name"])
def test_house_hard_and_expert_need_the_lookahead_and_beat_every_greedy_player(entry: dict[str, Any]) -> None:
    folder = REPO_ROOT / "puzzles" / "house"
    position = Position.from_file(folder / entry["position"])
    optimum = Fraction(json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))["gain"])
    found = climb(position, None)
    rungs = ladder_of(position)
    assert rungs[-1].name == "lookahead"
    reaches = [step.gain is not None and step.gain >= optimum - TOLERANCE for step in found]
    assert reaches[-1] == (entry["tier"] == "hard"), entry["tier"]
    assert not any(reached for rung, reached in zip(rungs, reaches) if rung.greedy)
    assert not any(reaches[:-1])  # hard: only lookahead; expert: none
    for name, gain in house_players(position, seeds=3):
        assert gain is None or gain < optimum - TOLERANCE, name
