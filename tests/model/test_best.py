"""`best` end to end: every answer re-judged by the checker, gains against known answers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rummy.answer import answer_data, best
from rummy.checker import check, turn_gain
from rummy.position import Position
from rummy.solution import SolverConfig
from tests.support.paths import REPO_ROOT, shared_best_examples

ROOT = REPO_ROOT
SUPPORTED = ("house", "tile", "robber", "layoff")


def expected_gain(path: Path) -> float:
    match = re.match(r"#\s*expect gain\s*=\s*(-?[\d.]+)", path.read_text().splitlines()[0])
    assert match, f"{path} has no '# expect gain = N' line"
    return float(match.group(1))


def judged(position: Position, config: SolverConfig | None = None):
    answer = best(position, config or SolverConfig(time_limit=60, workers=2))
    solution = answer.solution
    if solution.after is not None:
        verdict = check(position, solution.after)
        assert verdict.legal, [b.message for b in verdict.breaches]
        independent = turn_gain(position, solution.after, "value" if (config and config.objective == "value") else "default")
        assert float(independent) == pytest.approx(float(solution.gain), abs=1e-3)
    return answer


@pytest.mark.parametrize("path", shared_best_examples(), ids=lambda p: p.name)
def test_shared_examples_reach_the_known_gain(path: Path) -> None:
    position = Position.from_file(path)
    if position.rules.family not in SUPPORTED:
        pytest.skip(f"{position.rules.family} is not solved yet")
    answer = judged(position)
    assert answer.solution.status == "optimal"
    assert float(answer.solution.gain) == pytest.approx(expected_gain(path), abs=1e-3)


@pytest.mark.parametrize("path", sorted((ROOT / "puzzles" / "examples").glob("*.toml")), ids=lambda p: p.name)
def test_shipped_examples_are_solved_and_checked(path: Path) -> None:
    position = Position.from_file(path)
    if position.rules.family not in SUPPORTED:
        pytest.skip(f"{position.rules.family} is not solved yet")
    answer = judged(position)
    assert answer.solution.status in ("optimal", "draw", "no-legal-turn")
    data = answer_data(answer)
    for key in ("rules", "status", "gain", "bound", "cards_played", "steps", "after", "seconds"):
        assert key in data
    json.dumps(data)  # serialisable
    if answer.solution.after is not None:
        again = Position.from_data(data["after"], strict=False)
        assert check(position, again).legal


def test_cli_answer_is_accepted_by_cli_check(tmp_path: Path) -> None:
    examples = [p for p in shared_best_examples() if Position.from_file(p).rules.family in SUPPORTED][:3]
    if not examples:
        pytest.skip("no shared examples")
    for path in examples:
        run = subprocess.run([sys.executable, "-m", "rummy", "best", str(path), "--json"], capture_output=True, text=True, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        answer = json.loads(run.stdout)
        assert answer["status"] == "optimal"
        assert answer["gain"] == pytest.approx(expected_gain(path))
        out = tmp_path / f"{path.stem}-answer.json"
        out.write_text(run.stdout)
        verdict = subprocess.run([sys.executable, "-m", "rummy", "check", str(path), str(out), "--json"],
                                 capture_output=True, text=True, cwd=ROOT)
        assert verdict.returncode == 0, verdict.stdout + verdict.stderr
        assert json.loads(verdict.stdout)["legal"] is True


def test_several_positions_give_one_json_line_each() -> None:
    examples = [p for p in shared_best_examples() if Position.from_file(p).rules.family in SUPPORTED][:2]
    if len(examples) < 2:
        pytest.skip("no shared examples")
    run = subprocess.run([sys.executable, "-m", "rummy", "best", *map(str, examples), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(lines) == 2
    assert all(line["seconds"] >= 0 for line in lines)


def test_bad_objective_is_bad_input() -> None:
    examples = [p for p in shared_best_examples() if Position.from_file(p).rules.family == "house"][:1]
    if not examples:
        pytest.skip("no shared examples")
    run = subprocess.run([sys.executable, "-m", "rummy", "best", str(examples[0]), "--objective", "value"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1
