"""Batches keep going (issue 24, section 4): one file's problem is one line in its place, a pipe that
sends nothing is given up on, and an answer that found no turn has its own exit code, which ``check``
answers plainly (docs/formats.md "Positions" and "No turn within the time limit")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummy.cli.app import main
from rummy.errors import PositionError
from rummy.inputs import iter_position_files, position_files, read_text
from rummy.reports.exit_codes import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_OK, worse
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT
from tests.support.positions import EPIC_BOB

# A draw-phase position whose first searches take longer than 0.05 s here: at --time-limit 0 it is
# often answered "unknown" (on a fast machine, perhaps a turn).
NO_TURN_IN_TIME = REPO_ROOT / "benchmarks" / "positions" / "house-draw" / "house-20-00.toml"
ROBBER = PUZZLE_EXAMPLES / "robber.toml"
HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"


def rummy(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummy", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO_ROOT)


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``rummy ARGS`` in this process: (exit code, stdout, stderr)."""
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def answers(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


@pytest.fixture
def silent_fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO with a writer that holds it open and never writes: this test's own descriptor, opened
    read-write (which never waits for a reader), closed when the test ends."""
    fifo = tmp_path / "silent.toml"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        yield fifo
    finally:
        os.close(writer)


# ------------------------------------------------------- a folder's odd entries
@pytest.fixture
def odd_folder(tmp_path: Path, silent_fifo: Path) -> Path:
    """Two positions among entries named as positions that are no regular file."""
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "a.toml").write_text(HOUSE.read_text())
    (folder / "z.toml").write_text(ROBBER.read_text())
    (folder / "self.toml").symlink_to("self.toml")  # ln -s self.toml self.toml: ELOOP
    (folder / "gone.toml").symlink_to("nowhere.toml")
    (folder / "sub.toml").mkdir()
    silent_fifo.rename(folder / "fifo.toml")  # its writer still holds it open
    return folder


ODD_LINES = {
    "fifo.toml": "not a regular file (a pipe); a folder's positions are read from its regular files only",
    "gone.toml": "a symbolic link to nothing",
    "self.toml": "cannot read: Too many levels of symbolic links",
    "sub.toml": "a folder, not a position file",
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_folders_odd_entries_get_a_line_each_and_the_positions_are_answered(odd_folder: Path, jobs: str) -> None:
    """The FIFO is never opened (its line is not a wait's), so its silent writer holds nothing up."""
    result = rummy("best", odd_folder, "--json", "--jobs", jobs, "--ordered", "--verify", "--time-limit", "20")
    assert result.returncode == EXIT_BAD_INPUT, result.stderr
    found = answers(result.stdout)
    assert [Path(a["file"]).name for a in found] == ["a.toml", "z.toml"]
    assert all(a["verified"] and a["status"] == "optimal" for a in found)
    assert sorted(result.stderr.splitlines()) == [f"rummy: {odd_folder / name}: {line}" for name, line in sorted(ODD_LINES.items())]


def test_the_human_view_keeps_each_line_in_its_place(odd_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "best", odd_folder / "self.toml", HOUSE, odd_folder, "--time-limit", "20")
    assert code == EXIT_BAD_INPUT
    assert out.count("(house-classic, ann to move)") == 2 and "(robber," in out
    assert err.splitlines()[0] == f"rummy: {odd_folder / 'self.toml'}: cannot read: Too many levels of symbolic links"
    assert len(err.splitlines()) == 1 + len(ODD_LINES)


def test_listing_gives_each_problem_in_its_place(odd_folder: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    listed = list(iter_position_files([odd_folder, empty, tmp_path / "missing.toml"]))
    shown = [str(item) if isinstance(item, PositionError) else item.name for item in listed]
    assert shown == ["a.toml", f"{odd_folder / 'fifo.toml'}: {ODD_LINES['fifo.toml']}",
                     f"{odd_folder / 'gone.toml'}: {ODD_LINES['gone.toml']}",
                     f"{odd_folder / 'self.toml'}: {ODD_LINES['self.toml']}",
                     f"{odd_folder / 'sub.toml'}: {ODD_LINES['sub.toml']}", "z.toml",
                     f"{empty}: a folder with no .toml or .json positions", "missing.toml"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file whatever its mode")
def test_a_file_or_folder_that_cannot_be_read_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    closed = tmp_path / "closed.toml"
    closed.write_text(ROBBER.read_text())
    locked = tmp_path / "locked"
    locked.mkdir()
    try:
        closed.chmod(0)
        locked.chmod(0)
        for jobs in ("1", "2"):
            code, out, err = run(capsys, "best", closed, locked, ROBBER, "--json", "--jobs", jobs)
            assert code == EXIT_BAD_INPUT and [Path(a["file"]).name for a in answers(out)] == ["robber.toml"]
            assert sorted(err.splitlines()) == [f"rummy: {closed}: cannot read: Permission denied",
                                                f"rummy: {locked}: cannot list the folder: Permission denied"]
    finally:
        closed.chmod(0o600)
        locked.chmod(0o700)


# ------------------------------------------------------- a pipe named outright
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fifo_whose_writer_sends_nothing_is_given_up_on(silent_fifo: Path, jobs: str, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("rummy.inputs.PIPE_WAIT_SECONDS", 0.3)
    code, out, err = run(capsys, "best", silent_fifo, ROBBER, "--json", "--jobs", jobs, "--verify")
    assert code == EXIT_BAD_INPUT
    assert [(Path(a["file"]).name, a["verified"]) for a in answers(out)] == [("robber.toml", True)]
    assert err == f"rummy: {silent_fifo}: nothing to read after 0.3 s (a pipe or FIFO whose writer sends nothing more)\n"


@pytest.mark.slow
def test_the_real_command_waits_ten_seconds_for_a_silent_fifo(silent_fifo: Path) -> None:
    """Liveness only: answered at all, well within the test's timeout (it stalled for good before)."""
    result = rummy("best", silent_fifo, ROBBER, "--json", timeout=60)
    assert result.returncode == EXIT_BAD_INPUT
    assert [Path(a["file"]).name for a in answers(result.stdout)] == ["robber.toml"]
    assert result.stderr == f"rummy: {silent_fifo}: nothing to read after 10 s (a pipe or FIFO whose writer sends nothing more)\n"


def test_a_pipe_that_stops_halfway_is_refused_and_one_that_delivers_is_read(silent_fifo: Path) -> None:
    text = ROBBER.read_text()
    writer = os.open(silent_fifo, os.O_WRONLY | os.O_NONBLOCK)  # the silent writer stays: no end comes
    try:
        os.write(writer, text[:40].encode())
        with pytest.raises(PositionError, match=r"the position did not end after 0.2 s"):
            read_text(silent_fifo, wait=0.2)
    finally:
        os.close(writer)
    result = subprocess.run(["bash", "-c", f"{sys.executable} -m rummy best <(cat {ROBBER}) --json --verify"],
                            capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["verified"] is True


# ------------------------------------------------------- no turn within the time limit
# Whether a search finds a turn within a tiny limit depends on the machine's speed, so the commands'
# handling of "unknown" is tested with a solver that finds nothing in time for one player, "slow"
# (every other position is solved as always); the last test runs the real solver at --time-limit 0
# and holds whatever it answers to the same rules.
SLOW = HOUSE.read_text().replace('to_move = "ann"', 'to_move = "slow"').replace("[players.ann]", "[players.slow]")
NOT_IN_TIME = "the time limit ran out before a legal turn was found"


@pytest.fixture
def slow_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from rummy import answer
    from rummy.reports import best as reports_best
    from rummy.solution import Solution

    solve = answer.best

    def nothing_in_time_for_slow(position: Any, config: Any = None) -> answer.Answer:
        if position.to_move != "slow":
            return solve(position, config)
        return answer.Answer(position, Solution("unknown", 0, 0, None, reason=NOT_IN_TIME), None)

    monkeypatch.setattr(answer, "best", nothing_in_time_for_slow)
    monkeypatch.setattr(reports_best, "best", nothing_in_time_for_slow)  # bound there when first imported
    path = tmp_path / "slow.toml"
    path.write_text(SLOW)
    return path


def test_worse_orders_the_exit_codes() -> None:
    order = [EXIT_OK, EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_BAD_INPUT, EXIT_INTERNAL]
    for i, code in enumerate(order):
        for other in order:
            assert worse(code, other) == order[max(i, order.index(other))]


def test_no_turn_within_the_time_limit_exits_4_and_check_has_nothing_to_judge(
        slow_position: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "best", slow_position, "--json")
    assert (code, err) == (EXIT_NO_ANSWER, "")
    answer = json.loads(out)
    assert (answer["status"], answer["after"], answer["steps"], answer["reason"]) == ("unknown", None, [], NOT_IN_TIME)
    path = tmp_path / "answer.json"
    path.write_text(out)
    code, out, err = run(capsys, "check", slow_position, path)
    assert (code, out, err) == (EXIT_NO_ANSWER, "nothing to judge: the answer found no turn (status unknown)\n", "")
    code, out, err = run(capsys, "check", slow_position, path, "--json")
    assert (code, err) == (EXIT_NO_ANSWER, "")
    assert json.loads(out) == {"legal": None, "status": "unknown",
                               "nothing_to_judge": "the answer found no turn (status unknown)"}
    code, out, err = run(capsys, "show", path)  # nothing to draw either: said, not a traceback
    assert code == EXIT_BAD_INPUT and err == f"rummy: {path}: the answer found no turn (status unknown)\n"


def test_the_human_view_says_no_answer_and_exits_4(slow_position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best", slow_position)
    assert code == EXIT_NO_ANSWER
    assert out.splitlines()[1] == f"no answer: {NOT_IN_TIME}"


def test_a_batch_exits_with_the_worst_code_seen(slow_position: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """No answer (4) is worse than an answer (0), better than bad input (2)."""
    code, out, _ = run(capsys, "best", slow_position, ROBBER, "--json", "--verify")
    assert code == EXIT_NO_ANSWER
    assert [(a["status"], a.get("verified")) for a in answers(out)] == [("unknown", None), ("optimal", True)]
    code, out, err = run(capsys, "best", slow_position, tmp_path / "missing.toml", "--json")
    assert code == EXIT_BAD_INPUT and [a["status"] for a in answers(out)] == ["unknown"]
    assert err == f"rummy: {tmp_path / 'missing.toml'}: no such file\n"


def test_a_worker_answers_no_turn_in_time_with_exit_code_4(slow_position: Path) -> None:
    """What a --jobs or --cluster worker sends back (the worker function, in this process)."""
    from rummy.cli.best import _task
    from rummy.reports.best import solve_text
    from rummy.solution import SolverConfig

    for path, status, code in ((slow_position, "unknown", EXIT_NO_ANSWER), (ROBBER, "optimal", EXIT_OK)):
        (task,) = _task(path, SolverConfig(time_limit=20, workers=1), True, True)
        solved = solve_text(task)
        assert (solved.code, solved.data["status"] if solved.data else None, solved.errors) == (code, status, ())
        assert solved.data.get("verified", True) is True


def test_a_hint_whose_search_finds_no_turn_in_time_exits_4(slow_position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", slow_position)  # no NAME.solution.json beside it: hint solves
    assert (code, out) == (EXIT_NO_ANSWER, "no hint: no turn found within the time limit (try a longer --time-limit)\n")


# A hot card that cannot be played: no legal turn (test_model_house).
NO_LEGAL_TURN = EPIC_BOB.format(hand="8H 2C", hot="2C", warm="")
NOTHING_TO_PLAY = """
rules = "rummikub"
to_move = "ann"
table = []
[players.ann]
melded = false
hand = "R1 B5 K9"
[players.bob]
melded = false
hand_count = 14
"""
STATUS_CODES = {"optimal": EXIT_OK, "feasible": EXIT_OK, "draw": EXIT_OK, "no-legal-turn": EXIT_NEGATIVE,
                "unknown": EXIT_NO_ANSWER}


def test_check_judges_every_answer_best_gives_or_says_there_is_nothing_to_judge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real solver's answers of every kind (a turn, a random draw, draw a tile, no legal turn, and at
    --time-limit 0 whatever the machine finds in time: a feasible turn or none) fed back to check: judged
    legal, or "nothing to judge" (exit 4); never refused as input. best exits with the worst status's code."""
    draw = (PUZZLE_EXAMPLES / "house-classic-draw.toml").read_text()
    full = {"no-legal-turn": NO_LEGAL_TURN, "nothing-to-play": NOTHING_TO_PLAY, "optimal": HOUSE.read_text(),
            "random-draw": draw.replace('discard = "3C 9D 8D 5D JH"', 'discard = "3C"')}
    at_once = {"in-time-or-not": NO_TURN_IN_TIME.read_text(),
               "large": (REPO_ROOT / "benchmarks" / "positions" / "house" / "house-50-00.toml").read_text()}
    folder = tmp_path / "positions"
    found: dict[str, dict[str, Any]] = {}
    for texts, limit in ((full, "20"), (at_once, "0")):
        folder.mkdir(exist_ok=True)
        for name, text in texts.items():
            (folder / f"{name}.toml").write_text(text)
        result = rummy("best", *(folder / f"{name}.toml" for name in texts), "--json", "--time-limit", limit,
                       "--workers", "1")
        given = answers(result.stdout)
        expected = EXIT_OK
        for answer in given:
            expected = worse(expected, STATUS_CODES[answer["status"]])
        assert (result.returncode, result.stderr) == (expected, "")
        found |= {Path(a["file"]).stem: a for a in given}
    statuses = {name: a["status"] for name, a in found.items()}
    assert statuses | {"in-time-or-not": "?", "large": "?"} == {
        "no-legal-turn": "no-legal-turn", "nothing-to-play": "draw", "optimal": "optimal", "random-draw": "optimal",
        "in-time-or-not": "?", "large": "?"}
    assert found["random-draw"]["after"] is None and found["nothing-to-play"]["after"] is not None
    for name, answer in found.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(answer))
        code, out, err = run(capsys, "check", folder / f"{name}.toml", path)
        if answer["status"] in ("unknown", "no-legal-turn"):
            assert (code, out, err) == (EXIT_NO_ANSWER, f"nothing to judge: the answer found no turn (status {answer['status']})\n", "")
        else:
            assert (code, err) == (EXIT_OK, "") and out.startswith("legal"), (name, out)


# ------------------------------------------------------------- a folder stands for its position files
def test_a_folder_stands_for_its_position_files_and_an_empty_one_is_refused(tmp_path) -> None:
    folder, empty = tmp_path / "positions", tmp_path / "empty"
    folder.mkdir()
    empty.mkdir()
    for name in ("b.toml", "a.json", "notes.txt"):
        (folder / name).write_text("")
    single = tmp_path / "single.toml"  # a file is listed as it is named, even one that is not there (yet)
    assert position_files([folder, single]) == [folder / "a.json", folder / "b.toml", single]
    with pytest.raises(PositionError, match=r"no \.toml or \.json"):
        position_files([empty])


# ------------------------------------------------------------ a folder of puzzles: its positions, not its index and solutions
def puzzle_folder(tmp_path: Path) -> Path:
    """A folder as 'rummy generate' leaves it: positions, their answers and index.json."""
    folder = tmp_path / "puzzles"
    folder.mkdir()
    source = REPO_ROOT / "puzzles" / "tiles"
    for toml in sorted(source.glob("rummikub-max-easy-*.toml"))[:2]:
        (folder / toml.name).write_text(toml.read_text())
        solution = toml.with_name(toml.stem + ".solution.json")
        (folder / solution.name).write_text(solution.read_text())
    (folder / "index.json").write_text((source / "index.json").read_text())
    return folder


def test_best_on_a_folder_of_puzzles_solves_its_positions_and_skips_index_and_solutions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = puzzle_folder(tmp_path)
    code, out, err = run(capsys, "best", folder, "--json", "--time-limit", "5")
    assert (code, err) == (0, "")
    answers = [json.loads(line) for line in out.splitlines()]
    assert [Path(a["file"]).suffix for a in answers] == [".toml", ".toml"]


def test_a_solution_file_named_outright_is_still_read(tmp_path: Path) -> None:
    from rummy.reader import position_files

    folder = puzzle_folder(tmp_path)
    named = next(folder.glob("*.solution.json"))
    assert position_files([named]) == [named]
    assert all(not p.name.endswith(".solution.json") and p.name != "index.json" for p in position_files([folder]))
