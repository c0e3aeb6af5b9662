"""``rummy best --progress``: each better turn as it is found, then the answer (docs/cli.md, docs/formats.md
"Progress lines"). Every told turn is judged again by the checker; the last line is ``best --json``'s object;
several positions are followed one after another; --jobs and --cluster are refused; Ctrl-C stays clean."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rummy.position import Position
from rummy.solution import Solution
from tests.support.cli import run_cli
from tests.support.judged import judged
from tests.support.paths import REPO_ROOT
from tests.support.progress_lines import assert_each_line_better

POSITIONS = REPO_ROOT / "benchmarks" / "positions"
HOUSE = POSITIONS / "house-real" / "real-3p-02.toml"  # a worse turn first, then the optimum, within a second or so
OTHER = POSITIONS / "house" / "house-20-01.toml"
DRAW = POSITIONS / "house-draw" / "house-20-00.toml"
LONG = POSITIONS / "house" / "house-50-06.toml"  # still searching after 20 s: for Ctrl-C
HUMAN_LINE = re.compile(r"^better: gain -?[\d.]+, at most -?[\d.]+, \d+\.\d\d s \([a-z-]+(, \d+ of \d+ valued)?\)$")
# The answer's keys that say how long it took.
TIMED = {"seconds", "stats"}


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def assert_told_turns_judged(path: Path, told: list[dict[str, Any]]) -> None:
    """Each progress line: the contract's keys, a better gain than the line before, its turn legal by the checker
    with the gain the line says."""
    position = Position.from_file(path)
    for line in told:
        progress = line["progress"]
        assert set(progress) >= {"gain", "bound", "seconds", "source", "status", "turn", "after", "cards_played"}
        assert progress["status"] == "feasible" and progress["bound"] >= progress["gain"]
        assert progress["seconds"] > 0 and progress["source"] in (
            "table", "greedy", "ladder", "neighbourhood", "cp-sat", "no-meld", "draw")
        if progress["after"] is not None:
            after = Position.from_data(progress["after"], "after", strict=False)
            judged(position, Solution("feasible", progress["gain"], progress["bound"], after, progress["cards_played"]))
            assert progress["turn"]
    assert_each_line_better([line["progress"] for line in told])
    seconds = [line["progress"]["seconds"] for line in told]
    assert seconds == sorted(seconds)


def test_json_progress_lines_are_judged_and_the_last_line_is_best_json() -> None:
    done = run_cli("best", HOUSE, "--progress", "--json", "--time-limit", "20")
    assert done.returncode == 0, done.stderr
    *told, last = json_lines(done.stdout)
    assert told, "House tells its better turns"
    assert all(set(line) == {"progress"} for line in told)
    assert_told_turns_judged(HOUSE, told)
    plain = run_cli("best", HOUSE, "--json", "--time-limit", "20")
    assert plain.returncode == 0, plain.stderr
    usual = json.loads(plain.stdout)
    assert {k: v for k, v in last.items() if k not in TIMED} == {k: v for k, v in usual.items() if k not in TIMED}
    assert last["gain"] >= told[-1]["progress"]["gain"]
    if last["status"] == "optimal" and told[-1]["progress"]["gain"] == last["gain"]:
        # the optimum told is the answer's turn, written alike
        assert told[-1]["progress"]["after"] == last["after"] and told[-1]["progress"]["turn"] == last["turn"]


def test_human_progress_lines_come_before_the_answer() -> None:
    done = run_cli("best", HOUSE, "--progress", "--time-limit", "20")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(index for index, line in enumerate(lines) if line.startswith(str(HOUSE.relative_to(REPO_ROOT)))
                  or line.startswith(str(HOUSE)))
    told = lines[:header]
    assert told and all(HUMAN_LINE.match(line) for line in told), told
    assert not any(line.startswith("better:") for line in lines[header:])
    gains = [float(line.split()[2].rstrip(",")) for line in told]
    assert gains == sorted(gains)
    plain = run_cli("best", HOUSE, "--time-limit", "20")
    assert lines[header + 1].split("(")[0] == plain.stdout.splitlines()[1].split("(")[0]  # "gain 142  "


def test_several_positions_are_followed_one_after_another() -> None:
    done = run_cli("best", HOUSE, OTHER, "--progress", "--json", "--time-limit", "20")
    assert done.returncode == 0, done.stderr
    groups: list[list[dict[str, Any]]] = [[]]
    for line in json_lines(done.stdout):
        groups[-1].append(line)
        if "progress" not in line:
            groups.append([])
    assert groups.pop() == []
    assert [group[-1]["file"] for group in groups] == [str(HOUSE), str(OTHER)]
    for path, group in zip((HOUSE, OTHER), groups):
        assert_told_turns_judged(path, group[:-1])


def test_a_draw_phase_position_tells_only_its_own_answers() -> None:
    """Draw advice tells its options as they are valued (where it does); the turns its searches find after
    one draw are not answers to the position and are left out. The last line is the usual answer."""
    done = run_cli("best", DRAW, "--progress", "--json", "--time-limit", "3")
    assert done.returncode == 0, done.stderr
    *told, last = json_lines(done.stdout)
    for line in told:
        progress = line["progress"]
        assert {"options", "valued", "total"} <= set(progress) and progress["total"] > 0
    assert_told_turns_judged(DRAW, told)
    assert last["options"] and "progress" not in last


@pytest.mark.parametrize("many", [["--jobs", "2"], ["--cluster", "tcp://127.0.0.1:9"]], ids=["jobs", "cluster"])
def test_progress_with_jobs_or_a_cluster_is_refused_in_one_line(many: list[str]) -> None:
    done = run_cli("best", HOUSE, OTHER, "--progress", *many)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "rummy: --progress follows one search at a time: it does not go with --jobs or --cluster"]


def test_rummy_cluster_in_the_environment_does_not_take_progress_away() -> None:
    done = run_cli("best", HOUSE, "--progress", "--json", "--time-limit", "20",
                   env={"RUMMY_CLUSTER": "tcp://127.0.0.1:9"})
    assert done.returncode == 0, done.stderr
    assert "progress" in json_lines(done.stdout)[0]


def test_ctrl_c_while_searching_with_progress_is_clean() -> None:
    process = subprocess.Popen([sys.executable, "-m", "rummy", "best", str(LONG), "--progress", "--json",
                                "--time-limit", "60"], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # a told turn: the search is well under way
        assert "progress" in json.loads(first)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "rummy: interrupted"
    for line in out.splitlines():  # whatever was printed is whole lines
        assert "progress" in json.loads(line)


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_reader_that_leaves_after_the_first_line_is_no_failure(json_flag: list[str]) -> None:
    # `rummy best X --progress | head -1`: the reader leaves while a progress line is being printed (inside
    # the command, where click would make it a silent exit 1, "no legal turn"): exit 0, nothing on stderr
    process = subprocess.Popen([sys.executable, "-m", "rummy", "best", str(LONG), "--progress", *json_flag,
                                "--time-limit", "60"], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline()  # the first told turn
        process.stdout.close()  # the reader leaves; the next line meets a broken pipe
        err = process.stderr.read()
        process.wait(timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert err == ""
