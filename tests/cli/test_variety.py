"""``rummy variety DIR``: the share of each theme per kind and tier of a collection, and its errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rummy.reports.variety import collection_variety
from rummy.themes import THEMES
from tests.support.cli import run_main
from tests.support.paths import REPO_ROOT

ROBBER = REPO_ROOT / "puzzles" / "robber"


def small_collection(tmp_path: Path, names: list[str], themes: dict[str, list[str]] | None = None,
                     old: bool = False) -> Path:
    """A copy of some Robber puzzles, their solution files given ``themes`` where named; ``old``: as made
    before themes (no ``themes`` in the solution files nor the index)."""
    folder = tmp_path / "few"
    folder.mkdir()
    index = json.loads((ROBBER / "index.json").read_text(encoding="utf-8"))
    entries = [entry for entry in index["puzzles"] if entry["name"] in names]
    if old:
        entries = [{key: value for key, value in entry.items() if key != "themes"} for entry in entries]
    for entry in entries:
        shutil.copy(ROBBER / entry["position"], folder / entry["position"])
        solution = json.loads((ROBBER / entry["solution"]).read_text(encoding="utf-8"))
        if themes and entry["name"] in themes:
            solution["themes"] = themes[entry["name"]]
        if old:
            solution.pop("themes", None)
        (folder / entry["solution"]).write_text(json.dumps(solution), encoding="utf-8")
    (folder / "index.json").write_text(json.dumps({"puzzles": entries}), encoding="utf-8")
    return folder


def _first(tier: str, count: int) -> list[str]:
    """The first ``count`` shipped Robber puzzles of ``tier`` (the collection is remade: no name is fixed)."""
    entries = json.loads((ROBBER / "index.json").read_text(encoding="utf-8"))["puzzles"]
    return [entry["name"] for entry in entries if entry["tier"] == tier][:count]


HARD = _first("hard", 2) + _first("expert", 1)  # two hard puzzles, then an expert one


def test_stored_themes_are_counted_and_the_top_theme_flagged_over_half(tmp_path):
    names = [name for name in HARD if (ROBBER / f"{name}.toml").exists()]
    assert len(names) == 3
    folder = small_collection(tmp_path, names, {names[0]: ["going-out", "sacrifice"], names[1]: ["going-out"],
                                                names[2]: ["plain-play"]})
    variety = collection_variety(folder)
    assert variety.puzzles == 3 and variety.themes_found_here == 0
    (kind,) = variety.kinds
    assert (kind.family, kind.kind) == ("robber", "steal")
    hard, expert = kind.tiers
    assert (hard.tier, hard.puzzles, hard.themes, hard.no_theme) == ("hard", 2, {"sacrifice": 1, "going-out": 2}, 0)
    assert (expert.tier, expert.puzzles, expert.no_theme) == ("expert", 1, 1)  # plain-play alone names no idea
    assert (kind.hard_expert, kind.top_theme, kind.top_count, kind.over_half) == (3, "going-out", 2, True)


def test_a_kind_at_half_is_not_flagged(tmp_path):
    folder = small_collection(tmp_path, HARD[:2], {HARD[0]: ["going-out"], HARD[1]: ["sacrifice"]})
    (kind,) = collection_variety(folder).kinds
    assert kind.top_count == 1 and not kind.over_half


def test_themes_missing_from_old_solution_files_are_found_from_the_answer(tmp_path):
    folder = small_collection(tmp_path, HARD, old=True)
    variety = collection_variety(folder)
    assert variety.themes_found_here == 3
    found = {name for tier in variety.kinds[0].tiers for name in tier.themes}
    assert found and found <= set(THEMES)


def test_the_command_prints_a_table_and_a_stable_json_object(tmp_path, capsys):
    folder = small_collection(tmp_path, HARD, {HARD[0]: ["going-out"], HARD[1]: ["going-out"],
                                               HARD[2]: ["going-out"]})
    code, out, err = run_main(capsys, "variety", folder)
    assert code == 0 and err == ""
    assert "steal (robber), 3 puzzles" in out
    assert "going-out" in out and "100%" in out and "over half" in out
    code, out, err = run_main(capsys, "variety", folder, "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["folder", "puzzles", "themes_found_here", "kinds"]
    (kind,) = data["kinds"]
    assert kind["hard_expert"] == {"puzzles": 3, "top_theme": "going-out", "count": 3, "share": 1.0,
                                   "over_half": True}
    assert kind["tiers"][0] == {"tier": "hard", "puzzles": 2,
                                "themes": {"going-out": {"count": 2, "share": 1.0}},
                                "no_theme": {"count": 0, "share": 0.0}}


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp / "missing", "no such folder"),
    (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "no index.json"),
])
def test_a_folder_that_is_no_collection_is_one_line_and_exit_2(tmp_path, capsys, make, words):
    code, out, err = run_main(capsys, "variety", make(tmp_path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("rummy: ") and words in err


def test_a_broken_index_is_one_line_and_exit_2(tmp_path, capsys):
    folder = small_collection(tmp_path, HARD[:1])
    (folder / "index.json").write_text("{not json", encoding="utf-8")
    code, _, err = run_main(capsys, "variety", folder)
    assert code == 2 and err.count("\n") == 1 and "not a puzzle index" in err
