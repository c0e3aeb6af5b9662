"""Frictions a new user met (issue 14, section 3): each test failed before its fix."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rummy.cli.app import main

REPO_ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = REPO_ROOT / "puzzles" / "examples"


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``rummy ARGS`` in this process: (exit code, stdout, stderr)."""
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


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


# 1. a folder of puzzles
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


# 2. show --after reads what check reads
def test_show_after_reads_a_puzzle_solution_as_check_does(capsys: pytest.CaptureFixture[str]) -> None:
    solution = sorted((REPO_ROOT / "puzzles" / "tiles").glob("rummikub-max-easy-*.solution.json"))[0]
    before = solution.with_name(solution.name.replace(".solution.json", ".toml"))
    code, _, err = run(capsys, "check", before, solution)
    assert (code, err) == (0, "")
    for args in (("--after", solution), (solution,)):
        code, out, err = run(capsys, "show", *args)
        assert (code, err) == (0, ""), args
        assert "to move:" in out and "status" not in out


# 3. standard input, TOML or JSON, recognised by content
def stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


@pytest.mark.parametrize("kind", ["toml", "json"])
def test_best_show_and_check_read_a_position_on_stdin(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummy.position import Position

    path = EXAMPLES / "rummikub.toml"
    text = path.read_text() if kind == "toml" else json.dumps(Position.from_file(path).to_data())
    stdin(monkeypatch, text)
    code, out, err = run(capsys, "best", "-", "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["status"] == "optimal"
    stdin(monkeypatch, text)
    code, out, err = run(capsys, "show", "-")
    assert (code, err) == (0, "") and "to move: ann" in out
    answer_file = tmp_path / "answer.json"
    answer_file.write_text(json.dumps(answer))
    stdin(monkeypatch, text)
    code, out, err = run(capsys, "check", "-", answer_file)
    assert (code, err) == (0, "") and out.startswith("legal")


# 4. square brackets in help texts
def test_check_help_shows_the_turn_table(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0
    assert "with its [turn] table" in out


def test_every_help_text_escapes_its_square_brackets() -> None:
    """Help is rich markup: a bare [word] is taken for a tag and vanishes."""
    import re

    import typer

    from rummy.cli.app import app

    root = typer.main.get_command(app)
    commands = getattr(root, "commands", {})
    assert commands
    for name, command in commands.items():
        texts = [command.help or ""] + [getattr(param, "help", None) or "" for param in command.params]
        for text in texts:
            assert not re.search(r"(?<!\\)\[[a-z]", text), (name, text)


# 9. what the number of best's human view counts
def test_best_objective_value_names_the_tiles_value(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "rummikub-lenient.toml"
    code, out, err = run(capsys, "best", path, "--objective", "value", "--time-limit", "10")
    assert (code, err) == (0, "")
    headline = out.splitlines()[1]
    assert headline.startswith("value of the tiles played "), headline
    code, out, _ = run(capsys, "best", path, "--time-limit", "10")
    assert out.splitlines()[1].startswith("tiles played "), out
