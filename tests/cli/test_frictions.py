"""Frictions a new user met (issue 14, section 3): each test failed before its fix."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rummy.cli.app import main
from tests.support.paths import REPO_ROOT

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


def test_check_help_shows_a_turn_of_steps_piped_to_stdin(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn comes from a file or stdin: the help shows it piped, and the piped form works."""
    import re

    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0
    example = re.search(r"echo '([^']+)' \| rummy check \S+ -", out)
    assert example, out
    assert "file, or - for stdin" in out
    stdin(monkeypatch, "play 2C 2H to new/1; steal * from cat/1 to new/1 paid by 2C; play 9D to cat/1; discard KS")
    code, out, err = run(capsys, "check", EXAMPLES / "house-classic.toml", "-")
    assert (code, err) == (0, "") and out.startswith("legal")


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


# 8. error messages
TILES_WITH = '''rules = "rummikub-lenient"
to_move = "ann"
table = [{table}]
[players.ann]
hand = "{hand}"
[players.bob]
hand_count = 10
[piles]
stock = 60
'''


def write(tmp_path: Path, text: str, name: str = "p.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_an_unknown_tile_names_the_colours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, TILES_WITH.format(table='"R1 R2 R3"', hand="Y9 K4"))
    code, out, err = run(capsys, "show", path)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "players.ann.hand" in lines[0] and "'Y9'" in lines[0] and "K B R O" in lines[0]
    assert "after-position" not in lines[0]


def test_an_unknown_card_names_the_suits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (EXAMPLES / "robber.toml").read_text()
    hand = next(line for line in text.splitlines() if line.startswith("hand = "))
    path = write(tmp_path, text.replace(hand, 'hand = "ZZ 7X"', 1))
    code, _, err = run(capsys, "best", path)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2, err  # one line an unknown card, each naming its place
    assert all(".hand" in line and "S H D C" in line for line in lines)
    assert "'ZZ'" in lines[0] and "'7X'" in lines[1]


def test_every_unknown_card_of_a_file_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, TILES_WITH.format(table='"R1 R2 Q3", "B5 B6 B7"', hand="Y9 K4 K5"))
    code, _, err = run(capsys, "best", path)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert any("table[1]" in line and "'Q3'" in line for line in lines)
    assert any("players.ann.hand" in line and "'Y9'" in line for line in lines)
    assert all(line.startswith(f"rummy: {path}: ") for line in lines)


def test_an_unknown_card_then_another_problem_reports_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = TILES_WITH.format(table='"R1 R2 R3"', hand="Y9 K4").replace('to_move = "ann"', 'to_move = "cat"')
    code, _, err = run(capsys, "show", write(tmp_path, text))
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2 and "'Y9'" in lines[0] and "to_move" in lines[1], err


def test_the_after_position_hint_is_only_for_plays_that_are_not_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    too_many = TILES_WITH.format(table='"R1 R2 R3", "R1 R2 R3"', hand="R1 K4")  # three R1 in a deck of two
    code, _, err = run(capsys, "show", write(tmp_path, too_many))
    assert code == 2 and "copies" in err and "after-position" not in err
    not_whole = TILES_WITH.format(table='"R1 R2"', hand="K4")
    code, _, err = run(capsys, "show", write(tmp_path, not_whole, "q.toml"))
    assert code == 2 and "not a whole play" in err and "after-position" in err


# 6. rules PRESET: its family's options, wrapped between words
def test_every_option_is_attributed_to_families() -> None:
    from rummy.family import FAMILIES
    from rummy.rules import ALL_FAMILIES, OPTION_FAMILIES, PRESETS

    assert set(ALL_FAMILIES) == {str(family) for family in FAMILIES}
    for ruleset in PRESETS.values():
        assert set(OPTION_FAMILIES) == set(ruleset.options())
    assert all(set(families) <= set(ALL_FAMILIES) and families for families in OPTION_FAMILIES.values())


@pytest.mark.parametrize("name, absent, present", [
    ("house-classic", ["queen_of_spades_points", "ace_points", "joker_locks_play", "plays_per_turn"], ["demand"]),
    ("rummikub", ["queen_of_spades_points", "demand", "plays_per_turn"], ["joker_locks_play", "max_cards_per_turn"]),
    ("straight", ["demand", "joker_locks_play", "max_cards_per_turn"], ["queen_of_spades_points"]),
])
def test_rules_preset_shows_only_its_familys_options(
    name: str, absent: list[str], present: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "rules", name)
    assert code == 0
    options = {line.split()[0] for line in out.splitlines() if line[:1].isalpha()}
    assert not options & set(absent)
    assert set(present) <= options


@pytest.mark.parametrize("width", [60, 80, 100])
def test_rules_preset_wraps_between_words_to_a_terminals_width(width: int) -> None:
    from rummy.cli.rules_cmd import option_docs, preset_lines
    from rummy.rules import family_options, preset

    ruleset = preset("house-classic")
    lines = [str(line) for line in preset_lines(ruleset, width)]
    assert all(len(line) <= width for line in lines), [line for line in lines if len(line) > width]
    words = " ".join(lines).split()
    for key, doc in option_docs(ruleset).items():
        if key in family_options(ruleset):
            # every word of the meaning appears whole, in order, after its option
            start = words.index(key)
            assert " ".join(words[start:]).find(" ".join(doc.split())) != -1, key
    unwrapped = [str(line) for line in preset_lines(ruleset)]
    assert any(len(line) > 100 for line in unwrapped)  # in a pipe lines are never wrapped


# 5. typed choices and shell completion
def test_the_preset_words_are_the_presets() -> None:
    from rummy.cli.options import Preset
    from rummy.rules import PRESETS

    assert tuple(Preset) == tuple(PRESETS)


def test_generate_rules_is_a_choice_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    code, out, _ = run(capsys, "generate", "--help")
    assert code == 0 and "house-classic, house-epic, rummikub" in out  # named in the help, which wraps between words
    code, out, err = run(capsys, "generate", "--rules", "nope", "--kind", "max", "--out", tmp_path / "out")
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "--rules" in lines[0] and "'nope'" in lines[0] and "rummikub" in lines[0]
    assert not (tmp_path / "out").exists()


def test_shell_completion_can_be_installed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "--install-completion" in out and "--show-completion" in out
    import subprocess
    import sys

    shown = subprocess.run([sys.executable, "-m", "rummy", "--show-completion", "bash"], capture_output=True, text=True,
                           cwd=REPO_ROOT, timeout=60)
    assert shown.returncode == 0 and "_RUMMY_COMPLETE=complete_bash" in shown.stdout, shown.stderr


# 7. a spinner on a terminal's stderr while a play-phase search runs
class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_search_shows_a_spinner_on_a_terminal_and_a_short_one_nothing() -> None:
    import time

    from rummy.cli.best import _DrawProgress
    from rummy.position import Position

    position = Position.from_file(EXAMPLES / "rummikub.toml")
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
    with _DrawProgress(Position.from_file(EXAMPLES / "house-classic-draw.toml"), delay=0.01, stream=stream) as progress:
        time.sleep(0.1)
        progress.update(3, 7)
        time.sleep(0.3)
    assert "draw advice" in stream.getvalue() and "3/7" in stream.getvalue()
