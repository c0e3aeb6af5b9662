"""rummy.generator.regrade: a folder graded again writes the ladder's tier everywhere the files state it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rummy.generator.regrade import regrade
from rummy.position import Position
from tests.support.paths import REPO_ROOT


@pytest.mark.parametrize("collection", ["mined", "robber-draw"])  # robber-draw: graded by the draw rungs
def test_a_wrong_tier_is_graded_again_in_the_position_the_solution_and_the_index(tmp_path: Path,
                                                                                 collection: str) -> None:
    source = REPO_ROOT / "puzzles" / collection
    index = json.loads((source / "index.json").read_text(encoding="utf-8"))
    entry = index["puzzles"][0]
    folder = tmp_path / collection
    folder.mkdir()
    for name in (entry["position"], entry["solution"]):
        shutil.copy(source / name, folder / name)
    right = entry["tier"]
    wrong = "easy" if right != "easy" else "expert"
    position_text = (folder / entry["position"]).read_text(encoding="utf-8")
    (folder / entry["position"]).write_text(position_text.replace(f'tier = "{right}"', f'tier = "{wrong}"'),
                                            encoding="utf-8")
    (folder / "index.json").write_text(json.dumps({"puzzles": [{**entry, "tier": wrong}]}), encoding="utf-8")
    assert regrade(folder) == [(entry["name"], wrong, right)]
    assert Position.from_file(folder / entry["position"]).puzzle.tier == right  # type: ignore[union-attr]
    assert json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))["tier"] == right
    assert json.loads((folder / "index.json").read_text(encoding="utf-8"))["puzzles"][0]["tier"] == right
    assert (folder / entry["position"]).read_text(encoding="utf-8") == position_text
    assert (folder / entry["solution"]).read_text(encoding="utf-8") \
        == (source / entry["solution"]).read_text(encoding="utf-8")


def test_drop_greedy_removes_a_puzzle_a_greedy_rung_solves(tmp_path: Path) -> None:
    source = REPO_ROOT / "puzzles" / "house"
    entries = json.loads((source / "index.json").read_text(encoding="utf-8"))["puzzles"]
    entry = next(e for e in entries if e["tier"] == "medium"
                 and json.loads((source / e["solution"]).read_text(encoding="utf-8"))["difficulty"]["rung"] == "steal-one")
    folder = tmp_path / "few"
    folder.mkdir()
    for name in (entry["position"], entry["solution"]):
        shutil.copy(source / name, folder / name)
    (folder / "index.json").write_text(json.dumps({"puzzles": [entry]}), encoding="utf-8")
    assert regrade(folder, drop_greedy=True) == [(entry["name"], "medium", "dropped")]
    assert sorted(p.name for p in folder.iterdir()) == ["index.json"]
    assert json.loads((folder / "index.json").read_text(encoding="utf-8")) == {"puzzles": []}
