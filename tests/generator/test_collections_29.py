"""Issue 29's promises on the remade collections, one test function per family (each owner adds its own).

Every puzzle has a theme; the greedy human-like players reach no hard or expert optimum; ...
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rummy.position import Position
from tests.support.paths import REPO_ROOT


# ---------------------------------------------------------------- puzzles/mined (the mining helper)
@pytest.mark.slow
def test_mined_puzzles_have_a_theme_and_beat_the_greedy_players_by_the_margin() -> None:
    """puzzles/mined: House and tiles, each puzzle themed, and its best turn (the stored gain, which
    test_generate proves again) beyond every greedy rung by the family's margin."""
    from rummy.generator.mined_kinds import MARGINS, greedy_found

    folder = REPO_ROOT / "puzzles" / "mined"
    entries = json.loads((folder / "index.json").read_text(encoding="utf-8"))["puzzles"]
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
    assert families.get("house", 0) >= 20 and families.get("tile", 0) >= 20, families
