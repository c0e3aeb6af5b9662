"""Issue 29: what the remade collections keep true (one test function a family, each owner adds its own).

Every puzzle has a theme; no theme covers more than half of a kind's hard and expert puzzles (all the
family's presets together); the ladder's lookahead solves every hard puzzle and no expert one; the greedy
rungs and the simple greedy players of tests/ladder/greedy_players.py solve none of them.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rummy.ladder import climb, ladder_of, solving_rung
from rummy.position import Position

REPO_ROOT = Path(__file__).resolve().parents[2]


def _entries(folder: str) -> list[dict[str, Any]]:
    index = REPO_ROOT / "puzzles" / folder / "index.json"
    entries: list[dict[str, Any]] = json.loads(index.read_text(encoding="utf-8"))["puzzles"]
    return entries


def _themes_spread_by_kind(entries: list[dict[str, Any]]) -> dict[str, tuple[int, Counter[str]]]:
    """Per kind: the number of hard and expert puzzles and how many of them carry each theme."""
    spread: dict[str, tuple[int, Counter[str]]] = {}
    for entry in entries:
        if entry["tier"] not in ("hard", "expert"):
            continue
        count, themes = spread.get(entry["kind"], (0, Counter()))
        themes.update(set(entry.get("themes", ())))
        spread[entry["kind"]] = (count + 1, themes)
    return spread


# ------------------------------------------------------------------ lay-off rummy (puzzles/layoff)
def test_layoff_collection_is_themed_spread_and_graded_by_insight() -> None:
    from tests.ladder.greedy_players import LAYOFF_PLAYERS

    entries = _entries("layoff")
    assert len(entries) >= 104
    assert all(entry.get("themes") for entry in entries), [e["name"] for e in entries if not e.get("themes")]
    for kind, (count, themes) in _themes_spread_by_kind(entries).items():
        assert all(n <= count // 2 for n in themes.values()), (kind, count, themes)
    assert not [e for e in entries if e["tier"] == "expert"]  # lookahead searches the whole turn
    folder = REPO_ROOT / "puzzles" / "layoff"
    for entry in entries:
        if entry["tier"] != "hard":
            continue
        before = Position.from_file(folder / entry["position"])
        optimum = Fraction(json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))["gain"])
        found = climb(before, optimum)
        solved = solving_rung(found, optimum)
        assert solved is not None and ladder_of(before)[solved].name == "lookahead", entry["name"]
        for player in LAYOFF_PLAYERS:
            for order in range(8):
                after = player(before, random.Random(order))
                gain = None if after is None else before.rules.family.turn_gain(before, after)
                assert gain is None or gain < optimum, (entry["name"], player.__name__, order)


# ---------------------------------------------------------------- puzzles/mined (the mining helper)
@pytest.mark.slow
def test_mined_puzzles_have_a_theme_and_beat_the_greedy_players_by_the_margin() -> None:
    """puzzles/mined: House and tiles, each puzzle themed, and its best turn (the stored gain, which
    test_generate proves again) beyond every greedy rung by the family's margin."""
    from rummy.generator.mined_kinds import MARGINS, greedy_found

    folder = REPO_ROOT / "puzzles" / "mined"
    entries = _entries("mined")
    families = {}
    for entry in entries:
        position = Position.from_file(folder / entry["position"])
        stored = json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))
        assert entry["kind"] == stored["kind"] == "mined"
        assert len(entry["themes"]) >= 1 and entry["themes"] == stored["themes"], entry["name"]
        assert position.puzzle is not None and position.puzzle.themes == tuple(entry["themes"])
        family = position.rules.family
        optimum = Fraction(str(stored["gain"]))
        found = greedy_found(position)
        assert found is not None, entry["name"]
        # Epic's gains are fractions written to 4 places: the margin is far wider than the rounding.
        assert found.gain is None or found.gain <= optimum - MARGINS[family] + Fraction(1, 1000), entry["name"]
        families[family] = families.get(family, 0) + 1
    assert families.get("house", 0) >= 10 and families.get("tile", 0) >= 10, families  # see test_generate
