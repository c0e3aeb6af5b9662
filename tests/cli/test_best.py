"""The human output of 'rummy best'."""

from __future__ import annotations

import re

from tests.support.paths import REPO_ROOT


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


def test_a_robber_steal_keeps_its_plays_name_through_the_plan_and_the_table() -> None:
    """The stolen play is called as before the turn in the steps and in the table after it, which says its new owner."""
    from rummy.answer import best
    from rummy.cli.best import answer_lines
    from rummy.position import Position
    from rummy.solution import SolverConfig

    example = REPO_ROOT / "puzzles" / "examples" / "robber.toml"
    answer = best(Position.from_file(example), SolverConfig(time_limit=20))
    printed = "\n".join(str(line) for line in answer_lines(example, answer, None))
    steals = re.findall(r"steal (\S+) by adding .* \(now (\w+)'s\)", printed)
    assert steals
    table = printed.split("table after the turn", 1)[1]
    for name, owner in steals:
        assert re.search(rf"^\s+{re.escape(name)}\s.*\(now {owner}'s\)$", table, re.MULTILINE), (name, table)
