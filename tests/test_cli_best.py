"""The human output of 'rummy best'."""

from __future__ import annotations

from conftest import REPO_ROOT


def test_an_answer_without_a_turn_prints_its_reason_in_human_output() -> None:
    """A time limit that passes before any turn is found ("unknown"): one line, no table after the turn."""
    from rummy.answer import Answer
    from rummy.cli.best import answer_lines
    from rummy.position import Position
    from rummy.solution import Solution

    position = Position.from_file(REPO_ROOT / "puzzles" / "examples" / "house-classic.toml")
    solution = Solution("unknown", 0, 0, None, reason="no turn found within 0.01 s")
    lines = [str(line) for line in answer_lines(REPO_ROOT / "x.toml", Answer(position, solution, None), None)]
    assert any("no answer" in line and "0.01 s" in line for line in lines)
    assert not any("table after the turn" in line for line in lines)
