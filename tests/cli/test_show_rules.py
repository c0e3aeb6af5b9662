"""The command line as a user meets it: ``rummy show``, ``rummy rules`` and bad input.

Every test runs the real program in a subprocess (``python -m rummy``), so
exit codes, stdout and stderr are checked exactly as a shell sees them.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rummy.position import Position
from rummy.position_code import position_code
from rummy.rules import PRESETS, family_options
from tests.support.cli import run_cli, run_main
from tests.support.paths import REPO_ROOT, SHARED_DIR, shared_best_examples

PUZZLE_EXAMPLES = REPO_ROOT / "puzzles" / "examples"


def shipped_examples() -> list[Path]:
    return sorted(PUZZLE_EXAMPLES.glob("*.toml")) + sorted(PUZZLE_EXAMPLES.glob("*.json"))


def assert_shows(path: Path) -> str:
    result = run_cli("show", path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    position = Position.from_file(path)
    out = result.stdout
    assert f"to move: {position.to_move}" in out
    for player in position.players:
        assert player.name in out
    for name, play in position.named_plays().items():
        # Each play under its plan name, its cards in play order (as Play.notation prints them).
        cards = play.notation(position.rules).split()
        assert line_starting(out, name + " ").split()[1 : 1 + len(cards)] == cards
    return out


# ------------------------------------------------------------------ show
@pytest.mark.parametrize("path", shared_best_examples(), ids=lambda p: p.name)
def test_show_draws_every_shared_example(path: Path) -> None:
    assert_shows(path)


@pytest.mark.parametrize("path", shipped_examples(), ids=lambda p: p.name)
def test_show_draws_every_shipped_example(path: Path) -> None:
    assert_shows(path)


def test_shared_examples_present_or_skipped() -> None:
    if not shared_best_examples():
        pytest.skip(f"no shared examples under {SHARED_DIR} (set RUMMY_SHARED)")
    assert len(shared_best_examples()) >= 1


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HOUSE = """\
rules = "house-classic"
hand_number = 3
to_move = "bob"

[players.ann]
side = "A"
melded = true
hand_count = 4
space = ["9D JD 10D", "5S 5H 5D"]

[players.bob]
side = "B"
hand = "QS 2D 9H 3C"
hot = "3C"
warm = "9H"

[piles]
discard = "4C 8S"
stock = 21
"""


def line_starting(out: str, prefix: str) -> str:
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith(prefix)]
    assert lines, f"no line starting with {prefix!r} in:\n{out}"
    return lines[0]


def test_show_house_orders_runs_scores_plays_and_totals_spaces(tmp_path: Path) -> None:
    out = run_cli("show", write(tmp_path, "house.toml", HOUSE)).stdout
    assert "meld cost 15" in out  # hands 3-4 cost 15
    assert line_starting(out, "ann/1").split() == ["ann/1", "9D", "10D", "JD", "15", "points"]
    assert line_starting(out, "ann/2").split() == ["ann/2", "5S", "5H", "5D", "10", "points"]
    assert "space total: 25 points" in out
    assert line_starting(out, "hot").split()[:2] == ["hot", "3C"]
    assert line_starting(out, "warm").split()[:2] == ["warm", "9H"]
    assert "discard (bottom to top): 4C 8S" in out
    assert "stock: 21 cards" in out


def test_show_marks_the_mover_and_their_side(tmp_path: Path) -> None:
    out = run_cli("show", write(tmp_path, "house.toml", HOUSE)).stdout
    assert "to move: bob" in out
    bob = line_starting(out, "bob")
    assert "(to move)" in bob and "side B" in bob and "not melded" in bob
    ann = line_starting(out, "ann ")
    assert "(to move)" not in ann and "melded" in ann and "4 in hand" in ann


def test_show_attaches_layoffs_to_their_target_play(tmp_path: Path) -> None:
    path = write(tmp_path, "straight.toml", """\
rules = "straight"
to_move = "cat"
[players.ann]
hand_count = 3
space = ["7S 7H 7C"]
layoffs = ["bob/1 QD"]
[players.bob]
hand_count = 4
space = ["9D 10D JD"]
[players.cat]
hand = "KD 4C 5C 6C"
[piles]
discard = "8H"
stock = 27
""")
    lines = [line.strip() for line in run_cli("show", path).stdout.splitlines()]
    target = lines.index(next(line for line in lines if line.startswith("bob/1")))
    assert lines[target + 1] == "+ QD  laid off by ann"
    assert not any("points" in line for line in lines)  # lay-off rummy does not score plays


def test_show_shared_table_names_plays_table_n(tmp_path: Path) -> None:
    path = write(tmp_path, "tiles.toml", """\
rules = "rummikub-lenient"
to_move = "ann"
table = ["R3 R1 R2", "B7 O7 K7"]
[players.ann]
hand = "K1 R8"
[players.bob]
hand_count = 9
[piles]
stock = 40
""")
    out = run_cli("show", path).stdout
    assert line_starting(out, "table/1").split() == ["table/1", "R1", "R2", "R3"]
    assert line_starting(out, "table/2").split()[0] == "table/2"
    assert "initial meld 30 points" in out
    assert "stock: 40 tiles" in out
    assert "discard" not in out  # tile rummy has no discard pile


NOT_WHOLE_TILES = """\
rules = "rummikub-lenient"
to_move = "ann"
table = ["B5 B6 B7", "R7 R7 O7"]
[players.ann]
melded = true
hand = "K2"
[players.bob]
hand_count = 8
[piles]
stock = 40
"""


def test_show_refuses_a_play_that_is_not_whole_and_hints_at_after(tmp_path: Path) -> None:
    path = write(tmp_path, "after.toml", NOT_WHOLE_TILES)
    line = assert_one_line_error(run_cli("show", path), path.name, "table[2]", "--after")
    assert "not a whole play" in line


def test_show_after_draws_a_play_that_is_not_whole_marked(tmp_path: Path) -> None:
    result = run_cli("show", "--after", write(tmp_path, "after.toml", NOT_WHOLE_TILES))
    assert result.returncode == 0, result.stderr
    assert line_starting(result.stdout, "table/2").endswith("not a whole play")
    assert "not a whole play" not in line_starting(result.stdout, "table/1")


def test_show_reads_a_file_with_a_turn_table_as_an_after_position(tmp_path: Path) -> None:
    house = HOUSE.replace('space = ["9D JD 10D", "5S 5H 5D"]', 'space = ["9D JD 10D", "5S 5H"]')
    result = run_cli("show", write(tmp_path, "after.toml", house + '\n[turn]\nmeld = []\ndiscard = "8S"\n'))
    assert result.returncode == 0, result.stderr
    assert line_starting(result.stdout, "ann/2").endswith("not a whole play")
    assert line_starting(result.stdout, "meld:") == "meld: none"
    assert line_starting(result.stdout, "discard:") == "discard: 8S"
    assert line_starting(result.stdout, "replaced:") == "replaced: not declared"


def test_show_json_is_the_position_data(tmp_path: Path) -> None:
    path = write(tmp_path, "house.toml", HOUSE)
    result = run_cli("show", "--json", path)
    assert result.returncode == 0
    data = json.loads(result.stdout)
    position = Position.from_file(path)
    # The position's data, and its code (formats.md "Position codes"), which the reader takes and ignores.
    assert data == {**position.to_data(), "code": position_code(position)}
    assert Position.from_data(data) == position


def test_show_has_no_colour_codes_without_a_terminal(tmp_path: Path) -> None:
    out = run_cli("show", write(tmp_path, "house.toml", HOUSE)).stdout
    assert "\x1b[" not in out


def test_show_colours_hearts_red_when_colour_is_forced(tmp_path: Path) -> None:
    out = run_cli("show", write(tmp_path, "house.toml", HOUSE), env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[31m5H" in out
    assert "\x1b[31m5S" not in out and "5S" in out  # spades stay in the terminal's colour


# ----------------------------------------------------------------- rules
def test_rules_lists_every_preset() -> None:
    result = run_cli("rules")
    assert result.returncode == 0
    names = [line.split()[0] for line in result.stdout.splitlines() if line.strip()]
    for name in PRESETS:
        assert name in names
    assert len(PRESETS) == 9


def test_rules_json_lists_every_preset_with_its_family() -> None:
    listing = json.loads(run_cli("rules", "--json").stdout)
    assert [entry["name"] for entry in listing] == list(PRESETS)
    assert all(entry["family"] == PRESETS[entry["name"]].family for entry in listing)


def test_rules_preset_shows_each_option_with_value_and_meaning() -> None:
    result = run_cli("rules", "house-epic")
    assert result.returncode == 0
    ace = line_starting(result.stdout, "ace ")
    assert ace.split()[:2] == ["ace", "circular"]
    assert "K-A-2" in ace  # the option's one-line meaning follows its value
    for option in family_options(PRESETS["house-epic"]):  # the options of its family, and only those
        line_starting(result.stdout, option + " ")
    assert "queen_of_spades_points" not in result.stdout


def test_rules_fit_80_columns_and_wrap_between_words() -> None:
    for args in (("rules",), ("rules", "house-classic"), ("rules", "robber")):
        result = run_cli(*args, env={"COLUMNS": "80"})
        assert result.returncode == 0
        assert max(len(line) for line in result.stdout.splitlines()) <= 80, (args, result.stdout)
    listing = run_cli("rules", env={"COLUMNS": "80"}).stdout
    for summary in (entry["summary"] for entry in json.loads(run_cli("rules", "--json").stdout)):
        assert " ".join(summary.split()[:3]) in listing  # whole words, in order


def test_rules_leave_out_the_options_that_cannot_matter() -> None:
    """Robber has no jokers: no joker option is listed, and the note says why; lenient tile rummy's jokers
    are not fixed: the fixed-joker options are left out, which official rummikub lists."""
    robber = run_cli("rules", "robber").stdout
    assert not any(line.startswith("joker_mode") for line in robber.splitlines())
    assert "cannot matter here (no jokers): joker_mode" in robber
    lenient = run_cli("rules", "rummikub-lenient").stdout
    assert not any(line.startswith("joker_locks_play") for line in lenient.splitlines())
    assert any(line.startswith("joker_mode") for line in lenient.splitlines())
    assert any(line.startswith("joker_locks_play") for line in run_cli("rules", "rummikub").stdout.splitlines())
    assert "joker_mode" in json.loads(run_cli("rules", "robber", "--json").stdout)["options"]  # JSON lists every one


def test_generate_help_names_every_choice_whole_at_80_columns() -> None:
    from rummy.vocabulary import PuzzleKind

    result = run_cli("generate", "--help", env={"COLUMNS": "80"})
    assert result.returncode == 0
    words = {word.strip(",;.()'") for line in result.stdout.splitlines() for word in line.strip("│ ").split()}
    for name in [*PRESETS, *(kind.value for kind in PuzzleKind), "easy", "medium", "hard", "expert"]:
        assert name in words, (name, result.stdout)


def test_rules_preset_json_gives_values_as_a_rules_table_writes_them() -> None:
    data = json.loads(run_cli("rules", "house-epic", "--json").stdout)
    assert data["name"] == "house-epic"
    assert data["options"]["ace"] == "circular"
    assert data["options"]["initial_meld"] == [10, 10, 15, 15, 20, 20]
    assert data["options"]["max_cards_per_turn"] is None
    assert set(data["docs"]) == set(data["options"])
    assert all(data["docs"].values())


# ------------------------------------------------------------- bad input
def assert_one_line_error(result: subprocess.CompletedProcess[str], *mentions: str) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].strip(), result.stderr
    assert lines[0].startswith("rummy: ")
    for mention in mentions:
        assert mention in lines[0]
    assert "Traceback" not in result.stderr
    return lines[0]


BAD_POSITIONS = {
    "malformed-toml": ('rules = "house-classic"\nhand_number = \n', "TOML"),
    "unknown-card": (HOUSE.replace("QS 2D 9H 3C", "QS 2X 9H 3C"), "2X"),
    "unknown-preset": (HOUSE.replace('"house-classic"', '"house-nope"'), "house-nope"),
    "unknown-option": (HOUSE.replace('rules = "house-classic"', 'rules = { preset = "house-classic", colour = 1 }'), "colour"),
}


@pytest.mark.parametrize("kind", BAD_POSITIONS)
def test_show_bad_position_is_one_line_naming_the_file(tmp_path: Path, kind: str) -> None:
    text, mention = BAD_POSITIONS[kind]
    path = write(tmp_path, f"{kind}.toml", text)
    assert_one_line_error(run_cli("show", path), path.name, mention)


def test_show_missing_file_is_one_line_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    assert_one_line_error(run_cli("show", missing), "nowhere.toml")


def test_rules_unknown_preset_is_one_line() -> None:
    assert_one_line_error(run_cli("rules", "no-such-game"), "no-such-game")


@pytest.mark.parametrize("args", [("show",), ("show", "--bogus", "x.toml"), ("frobnicate",), ("rules", "a", "b")])
def test_usage_errors_exit_2_without_traceback(args: tuple[str, ...]) -> None:
    assert_one_line_error(run_cli(*args))


# ------------------------------------------------------------ show --after reads what check reads; rules PRESET: its family's options
def test_show_after_reads_a_puzzle_solution_as_check_does(capsys: pytest.CaptureFixture[str]) -> None:
    solution = sorted((REPO_ROOT / "puzzles" / "tiles").glob("rummikub-max-easy-*.solution.json"))[0]
    before = solution.with_name(solution.name.replace(".solution.json", ".toml"))
    code, _, err = run_main(capsys, "check", before, solution)
    assert (code, err) == (0, "")
    for args in (("--after", solution), (solution,)):
        code, out, err = run_main(capsys, "show", *args)
        assert (code, err) == (0, ""), args
        assert "to move:" in out and "status" not in out


@pytest.mark.parametrize("name, absent, present", [
    ("house-classic", ["queen_of_spades_points", "ace_points", "joker_locks_play", "plays_per_turn"], ["demand"]),
    ("rummikub", ["queen_of_spades_points", "demand", "plays_per_turn"], ["joker_locks_play", "max_cards_per_turn"]),
    ("straight", ["demand", "joker_locks_play", "max_cards_per_turn"], ["queen_of_spades_points"]),
])
def test_rules_preset_shows_only_its_familys_options(
    name: str, absent: list[str], present: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(capsys, "rules", name)
    assert code == 0
    options = {line.split()[0] for line in out.splitlines() if line[:1].isalpha()}
    assert not options & set(absent)
    assert set(present) <= options


@pytest.mark.parametrize("width", [60, 80, 100])
def test_rules_preset_wraps_between_words_to_a_terminals_width(width: int) -> None:
    from rummy.reports.presets import option_docs, preset_lines
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
