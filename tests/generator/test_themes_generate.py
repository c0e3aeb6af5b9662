"""The generator's themes: in every file it writes, --theme, the spread rule and the "no theme" rejection."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from rummy.errors import RummyError
from rummy.generator import Request, candidate_search, generate, validate
from rummy.generator.candidate_search import Outcome, Spread
from rummy.position import Position
from tests.support.cli import run_cli


def outcome(index: int, tier: str, *themes: str) -> Outcome:
    puzzle = SimpleNamespace(name=f"p{index}", tier=tier, themes=themes)
    return Outcome(index, puzzle, None)  # type: ignore[arg-type]


def test_the_spread_rule_keeps_a_theme_to_half_of_the_runs_hard_puzzles():
    spread = Spread(Request("rummikub", "max", 4, "hard"))
    kept = [spread.judge(outcome(i, "hard", "runs-into-groups")) for i in range(3)]
    assert [o.puzzle is not None for o in kept] == [True, True, False]
    assert kept[2].reason == "theme runs-into-groups would cover more than half"
    # A puzzle with a theme still under the cap passes, and counts for each of its themes.
    assert spread.judge(outcome(3, "expert", "sacrifice", "joker-reuse")).puzzle is not None
    assert spread.judge(outcome(4, "hard", "joker-reuse", "runs-into-groups")).puzzle is None


def test_the_spread_rule_leaves_easy_and_medium_and_asked_themes_and_no_spread_alone():
    spread = Spread(Request("rummikub", "max", 2, None))
    assert all(spread.judge(outcome(i, "medium", "sacrifice")).puzzle is not None for i in range(5))
    asked = Spread(Request("rummikub", "max", 2, "hard", themes=("sacrifice",)))
    assert all(asked.judge(outcome(i, "hard", "sacrifice")).puzzle is not None for i in range(5))
    off = Spread(Request("rummikub", "max", 2, "hard", spread=False))
    assert all(off.judge(outcome(i, "hard", "sacrifice")).puzzle is not None for i in range(5))
    one = Spread(Request("rummikub", "max", 1, "hard"))  # max(1, 1 // 2): one puzzle may have it
    assert one.judge(outcome(0, "hard", "sacrifice")).puzzle is not None


def test_the_run_applies_the_rule_in_candidate_order(monkeypatch):
    made = [outcome(i, "hard", "going-out" if i % 2 else "sacrifice") for i in range(8)]

    def fake(request):
        yield from made

    monkeypatch.setattr(candidate_search, "_outcomes", fake)
    monkeypatch.setattr(candidate_search, "validate", lambda request: None)
    report = generate(Request("rummikub", "max", 4, "hard"))
    assert [p.name for p in report.puzzles] == ["p0", "p1", "p2", "p3"]
    report = generate(Request("rummikub", "max", 3, "hard"))  # at most one of each
    assert [p.name for p in report.puzzles] == ["p0", "p1"]
    assert report.rejected == {"theme sacrifice would cover more than half": 3,
                               "theme going-out would cover more than half": 3}


@pytest.mark.parametrize("themes, words", [
    (("steal-chains",), "unknown theme 'steal-chains'"),
    (("fixed-joker-swap",), "never given theme 'fixed-joker-swap'"),
])
def test_a_theme_the_kind_never_has_is_refused(themes, words):
    with pytest.raises(RummyError, match=words):
        validate(Request("house-classic", "steal", 1, themes=themes))


def test_the_command_refuses_a_bad_theme_in_one_line(tmp_path):
    result = run_cli("generate", "--rules", "rummikub", "--kind", "max", "--theme", "going-out", "--theme", "nope",
                     "--out", tmp_path / "out")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--theme" in result.stderr and "nope" in result.stderr
    assert not (tmp_path / "out").exists()


def test_themes_are_written_in_the_statement_the_solution_and_the_index(tmp_path):
    result = run_cli("generate", "--rules", "rummikub-lenient", "--kind", "max", "--count", "2",
                     "--difficulty", "easy", "--seed", "1", "--theme", "plain-play", "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "themes: plain-play 2" in result.stdout
    entries = json.loads((tmp_path / "index.json").read_text())["puzzles"]
    assert len(entries) == 2
    for entry in entries:
        assert "plain-play" in entry["themes"]
        solution = json.loads((tmp_path / entry["solution"]).read_text())
        assert solution["themes"] == entry["themes"]
        position = Position.from_file(tmp_path / entry["position"])
        assert position.puzzle is not None and list(position.puzzle.themes) == entry["themes"]
