"""Issue 29's promises, kept true on the remade collections (one test function per family; each owner
adds its own): every puzzle has a theme, no theme covers more than half of a kind's hard and expert
puzzles, the strong rung (lookahead) solves every hard puzzle and no expert one, and the greedy rungs
and the simple greedy players (tests/ladder/greedy_players.py) solve no hard or expert puzzle."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rummy.checker import check, turn_gain
from rummy.ladder import climb
from rummy.position import Position
from rummy.themes import THEMES
from tests.ladder.greedy_players import ROBBER_PLAYERS, ROBBER_SEEDED

ROOT = Path(__file__).resolve().parents[2] / "puzzles"
FIRST_FIT_ORDERS = 20  # random card orders a first-fit player tries on each puzzle


def _entries(folder: str) -> list[dict[str, object]]:
    entries: list[dict[str, object]] = json.loads((ROOT / folder / "index.json").read_text(encoding="utf-8"))["puzzles"]
    return entries


@pytest.mark.slow
def test_robber_collection_29() -> None:
    entries = _entries("robber")
    assert len(entries) >= 59
    hard_and_expert = [e for e in entries if e["tier"] in ("hard", "expert")]
    for entry in entries:
        themes = entry["themes"]
        assert isinstance(themes, list) and themes and all(t in THEMES and t != "plain-play" for t in themes), entry
    counts = Counter(t for e in hard_and_expert for t in e["themes"])  # type: ignore[attr-defined]
    assert max(counts.values()) <= len(hard_and_expert) // 2, counts
    # Two shapes at least (issue 29, second round): lone hold-backs, and cascades (steal-chain: steals that
    # compete, a card of one steal would alone take another stolen play), on a quarter or more, both tiers.
    assert 4 * counts["steal-chain"] >= len(hard_and_expert), counts
    for tier in ("hard", "expert"):
        assert any("steal-chain" in e["themes"] for e in hard_and_expert if e["tier"] == tier), tier  # type: ignore[operator]
        assert any("steal-chain" not in e["themes"] for e in hard_and_expert if e["tier"] == tier), tier  # type: ignore[operator]
    for entry in hard_and_expert:
        position = Position.from_file(ROOT / "robber" / str(entry["position"]))
        solution = json.loads((ROOT / "robber" / str(entry["solution"])).read_text(encoding="utf-8"))
        optimum = Fraction(solution["gain"])
        found = climb(position, None)
        assert [f.rung for f in found][-1] == "lookahead"
        for step in found[:-1]:  # extend, steal-one (greedy), steal-chain: all below the optimum
            assert step.gain is not None and step.gain < optimum, (entry["name"], step.rung)
        strong = found[-1]
        assert strong.after is not None and check(position, strong.after).legal
        if entry["tier"] == "hard":
            assert strong.gain == optimum, entry["name"]
        else:
            assert strong.gain is not None and strong.gain < optimum, entry["name"]
        for name, player in ROBBER_PLAYERS.items():
            for seed in range(FIRST_FIT_ORDERS if name in ROBBER_SEEDED else 1):
                after = player(position, seed)
                assert check(position, after).legal, (entry["name"], name)
                assert turn_gain(position, after) < optimum, (entry["name"], name, seed)
