"""The human output of 'rummy best'."""

from __future__ import annotations

import io
import re

import pytest

from tests.support.cli import run_main
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT


def test_an_answer_without_a_turn_prints_its_reason_in_human_output() -> None:
    """A time limit that passes before any turn is found ("unknown"): one line, no table after the turn."""
    from rummy.answer import Answer
    from rummy.position import Position
    from rummy.reports.best import answer_lines
    from rummy.solution import Solution

    position = Position.from_file(REPO_ROOT / "puzzles" / "examples" / "house-classic.toml")
    solution = Solution("unknown", 0, 0, None, reason="no turn found within 0.01 s")
    lines = [str(line) for line in answer_lines(REPO_ROOT / "x.toml", Answer(position, solution, None), None)]
    assert any("no answer" in line and "0.01 s" in line for line in lines)
    assert not any("table after the turn" in line for line in lines)


def test_a_robber_steal_keeps_its_plays_name_through_the_plan_and_the_table() -> None:
    """The stolen play is called as before the turn in the steps and in the table after it, which says its new owner."""
    from rummy.answer import best
    from rummy.position import Position
    from rummy.reports.best import answer_lines
    from rummy.solution import SolverConfig

    example = REPO_ROOT / "puzzles" / "examples" / "robber.toml"
    answer = best(Position.from_file(example), SolverConfig(time_limit=20))
    printed = "\n".join(str(line) for line in answer_lines(example, answer, None))
    # the stolen play named with its cards, as it lay before the turn: "steal ann/1 (9S 10S JS QS) by adding AS KS"
    steals = re.findall(r"steal (\S+) \([^()]+\) by adding .* \(now (\w+)'s\)", printed)
    assert steals
    table = printed.split("table after the turn", 1)[1]
    for name, owner in steals:
        assert re.search(rf"^\s+{re.escape(name)}\s.*\(now {owner}'s\)$", table, re.MULTILINE), (name, table)


def test_the_deadline_counts_the_process_start_and_then_each_answer() -> None:
    from rummy.deadline import LEAST_SEARCH_SECONDS, Deadline, process_age

    assert process_age() > 0  # pytest itself has been running a while
    deadline = Deadline(1000.0)
    first = deadline.search_seconds()
    assert first < 1000.0 - process_age() + 0.5
    deadline.next_answer()
    assert first < deadline.search_seconds() <= 1000.0
    assert Deadline(0.0).search_seconds() == LEAST_SEARCH_SECONDS


# ------------------------------------------------------------ the headline of --objective value; a spinner on a terminal
def test_best_objective_value_names_the_tiles_value(capsys: pytest.CaptureFixture[str]) -> None:
    path = PUZZLE_EXAMPLES / "rummikub-lenient.toml"
    code, out, err = run_main(capsys, "best", path, "--objective", "value", "--time-limit", "10")
    assert (code, err) == (0, "")
    headline = out.splitlines()[1]
    assert headline.startswith("value of the tiles played "), headline
    code, out, _ = run_main(capsys, "best", path, "--time-limit", "10")
    assert out.splitlines()[1].startswith("tiles played "), out


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_search_shows_a_spinner_on_a_terminal_and_a_short_one_nothing() -> None:
    import time

    from rummy.cli.best import _DrawProgress
    from rummy.position import Position

    position = Position.from_file(PUZZLE_EXAMPLES / "rummikub.toml")
    stream = FakeTerminal()
    with _DrawProgress(position, delay=0.05, stream=stream):
        time.sleep(0.5)
    assert "searching for the best turn" in stream.getvalue()
    quick = FakeTerminal()
    with _DrawProgress(position, delay=0.5, stream=quick):
        pass
    time.sleep(0.6)
    assert quick.getvalue() == ""
    pipe = io.StringIO()
    with _DrawProgress(position, delay=0.0, stream=pipe) as progress:
        time.sleep(0.1)
    assert progress.bar is None and pipe.getvalue() == ""


def test_draw_advice_still_counts_its_searches_on_a_terminal() -> None:
    import time

    from rummy.cli.best import _DrawProgress
    from rummy.position import Position

    stream = FakeTerminal()
    with _DrawProgress(Position.from_file(PUZZLE_EXAMPLES / "house-classic-draw.toml"), delay=0.01, stream=stream) as progress:
        time.sleep(0.1)
        progress.update(3, 7)
        time.sleep(0.3)
    assert "draw advice" in stream.getvalue() and "3/7" in stream.getvalue()
