"""Puzzles at the command line: ``show`` states them, ``check PUZZLE MYTURN`` says whether a turn
solves one (MYTURN a position or steps), ``hint`` tells a little at a time."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rummy.cli.app import main
from rummy.position import Position
from tests.support.paths import PUZZLE_CASES, REPO_ROOT

REPO = REPO_ROOT
STEAL = PUZZLE_CASES / "house-classic-steal-easy-s1-0000.toml"
BEST_TURN = "play AD AS to new/1; steal AC from bob/1 to new/1 paid by AD; discard 5D"
# One puzzle of each family, and a lay-off position without a [puzzle] table (solved for the hint).
PER_FAMILY = [
    PUZZLE_CASES / "house-classic-replace-meld-easy-s1-0000.toml",
    PUZZLE_CASES / "rummikub-max-medium-s1-0016.toml",
    PUZZLE_CASES / "robber-steal-medium-s1-0017.toml",
    REPO / "puzzles" / "examples" / "straight.toml",
    *sorted((REPO / "puzzles" / "layoff").glob("*-hard-*.toml"))[:1],
]


def run_cli(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "RUMMY_DEBUG")}
    return subprocess.run([sys.executable, "-m", "rummy", *map(str, args)], cwd=REPO, input=stdin,
                          capture_output=True, text=True, env=clean, timeout=120)


def run_here(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ show
def test_show_states_the_puzzle_on_top(capsys):
    code, out, _ = run_here(capsys, "show", STEAL)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "puzzle: Find the best turn (it steals)."
    assert lines[1] == "easy, kind steal; target: 67"
    assert lines[3].startswith("rules: house-classic")
    code, out, _ = run_here(capsys, "show", "--json", STEAL)
    assert json.loads(out)["puzzle"] == {"kind": "steal", "tier": "easy", "task": "find the best turn (it steals)",
                                         "target": 67}


def test_show_of_a_plain_position_has_no_statement(capsys):
    code, out, _ = run_here(capsys, "show", REPO / "puzzles" / "examples" / "house-classic.toml")
    assert code == 0 and out.startswith("rules: ")


# ----------------------------------------------------------------- check
def test_check_a_turn_written_as_steps_that_solves_the_puzzle():
    result = run_cli("check", STEAL, "-", stdin=BEST_TURN + "\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "legal"
    assert result.stdout.splitlines()[-1] == "solved: gain 67, the best there is"
    result = run_cli("check", "--json", STEAL, "-", stdin=BEST_TURN)
    assert json.loads(result.stdout)["puzzle"] == {"target": 67, "solved": True}


def test_check_a_legal_turn_short_of_the_target(tmp_path, capsys):
    turn = tmp_path / "myturn.txt"
    turn.write_text("# a timid turn\ndiscard 5D\n", encoding="utf-8")
    code, out, _ = run_here(capsys, "check", STEAL, turn)
    assert code == 0 and out.splitlines()[-1] == "not solved: gain 5 of 67"
    code, out, _ = run_here(capsys, "check", "--best", STEAL, turn)
    # "legal" is said once, by the verdict: the puzzle's line carries the best's score
    assert code == 0 and out.count("legal") == 1 and out.splitlines()[0] == "legal"
    assert out.splitlines()[-1] == "not solved: gain 5 of 67; the best turn scores 67"
    code, out, _ = run_here(capsys, "check", "--json", STEAL, turn)
    data = json.loads(out)
    assert data["legal"] is True and data["puzzle"] == {"target": 67, "solved": False}
    assert "AC" not in out  # never the answer


def test_check_an_illegal_turn_on_a_puzzle():
    turn = "play AD AS 5D to new/1"
    result = run_cli("check", STEAL, "-", stdin=turn)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "not solved: the turn is not legal"


def test_check_the_stored_answer_of_a_puzzle_solves_it():
    result = run_cli("check", STEAL, STEAL.with_name(STEAL.stem + ".solution.json"))
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "solved: gain 67, the best there is"


def test_a_plain_position_gets_no_puzzle_verdict(capsys):
    plain = REPO / "puzzles" / "examples" / "rummikub.toml"
    _code, out, _ = run_here(capsys, "check", "--json", plain, plain)
    assert "puzzle" not in json.loads(out)


@pytest.mark.parametrize("turn, words", [
    ("play AD AS to new/1\nsteel AC", "step 2: 'steel' is no step"),
    ("play 9H to new/1", "step 1: 9H is not in ann's hand"),
])
def test_bad_step_text_is_one_line_and_exit_2(turn, words):
    result = run_cli("check", STEAL, "-", stdin=turn)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummy: <stdin>: ") and words in lines[0], result.stderr


# ------------------------------------------------------------------ hint
@pytest.mark.parametrize("puzzle", PER_FAMILY, ids=lambda p: p.stem)
def test_hint_levels_never_tell_more_than_asked(capsys, puzzle):
    texts = {}
    for level in (1, 2, 3, 4):
        code, out, err = run_here(capsys, "hint", "--level", str(level), puzzle)
        assert code == 0 and err == ""
        lines = out.splitlines()
        assert [line.split(".", 1)[0] for line in lines] == [str(k) for k in range(1, level + 1)]
        code, out, _ = run_here(capsys, "hint", "--json", "--level", str(level), puzzle)
        given = json.loads(out)
        assert [h["level"] for h in given] == list(range(1, level + 1))
        texts[level] = [h["text"] for h in given]
    for level in (1, 2, 3):  # each level repeats the ones below, word for word
        assert texts[level + 1][:level] == texts[level]
    assert texts[1][0].startswith(("Idea: ", "Aim: ")) and texts[2][1].startswith("Key")
    assert texts[3][2].startswith("First move") and texts[4][3].startswith("Whole turn: 1. ")
    code, out, _ = run_here(capsys, "hint", puzzle)  # level 1 by default
    assert out.splitlines() == ["1. " + texts[1][0]]


def test_hint_levels_3_and_4_give_a_first_move_and_the_whole_turn_in_the_steps_notation(capsys):
    _code, out, _ = run_here(capsys, "hint", "--level", "4", STEAL)
    lines = out.splitlines()
    # the payment alone leaves AD AS, no whole play: the first move is the steal with its payment
    assert lines[2] == ("3. First move (made as one; nothing smaller leaves the table whole): play AD AS to new/1; "
                        "steal AC from bob/1 (JC QC KC AC) to new/1 paid by AD")
    assert lines[3] == ("4. Whole turn: 1. play AD AS to new/1; 2. steal AC from bob/1 (JC QC KC AC) to new/1 "
                        "paid by AD; 3. discard 5D")
    assert "target" not in out and "gain of 67" in out


def test_hint_solves_when_the_stored_answer_is_missing_or_wrong(tmp_path, capsys):
    puzzle = tmp_path / STEAL.name
    shutil.copy(STEAL, puzzle)
    code, alone, _ = run_here(capsys, "hint", "--level", "4", puzzle)
    assert code == 0
    answer = json.loads(STEAL.with_name(STEAL.stem + ".solution.json").read_text(encoding="utf-8"))
    answer["after"]["players"]["ann"]["space"] = ["AD AS AC 5D"]  # not a legal turn: the checker refuses it
    puzzle.with_name(puzzle.stem + ".solution.json").write_text(json.dumps(answer), encoding="utf-8")
    code, wrong, _ = run_here(capsys, "hint", "--level", "4", puzzle)
    puzzle.with_name(puzzle.stem + ".solution.json").write_text("{not json", encoding="utf-8")
    code2, broken, _ = run_here(capsys, "hint", "--level", "4", puzzle)
    assert code == code2 == 0 and alone == wrong == broken
    code, stored, _ = run_here(capsys, "hint", "--level", "4", STEAL)
    assert stored == alone


def test_hint_errors(tmp_path):
    draw = run_cli("hint", REPO / "puzzles" / "examples" / "house-classic-draw.toml")
    assert draw.returncode == 2 and len(draw.stderr.splitlines()) == 1 and "play-phase" in draw.stderr
    stuck = tmp_path / "stuck.toml"
    stuck.write_text('rules = "house-classic"\nhand_number = 1\nto_move = "ann"\n[players.ann]\nmelded = true\n'
                     'hand = "2C 9D"\nhot = "2C"\nspace = []\n[players.bob]\nmelded = true\nhand_count = 5\nspace = []\n'
                     '[piles]\ndiscard = "KD"\nstock = 30\n', encoding="utf-8")
    result = run_cli("hint", stuck)
    assert result.returncode == 1 and result.stdout.strip() == "no hint: no legal turn"
    bad_level = run_cli("hint", "--level", "5", STEAL)
    assert bad_level.returncode == 2 and len(bad_level.stderr.splitlines()) == 1


def test_a_robber_draw_is_hinted_with_the_take_in_front_unless_the_stock_is_best(tmp_path):
    """Robber's draw is part of its answer: the hints start from the pile's take; where the stock is the best
    draw there is no turn to hint at yet (exit 1, the reason)."""
    example = REPO / "puzzles" / "examples" / "robber-draw.toml"
    taken = run_cli("hint", "--level", "4", example)
    assert taken.returncode == 0, taken.stderr
    lines = taken.stdout.splitlines()
    assert "KD" in lines[1] and lines[2].startswith("3. First move (the table is whole after it): take; ")
    whole = tmp_path / "whole.txt"
    whole.write_text(lines[3].split("Whole turn: ", 1)[1], encoding="utf-8")
    checked = run_cli("check", example, whole)
    assert checked.returncode == 0 and checked.stdout.startswith("legal"), checked.stdout + checked.stderr
    stock = tmp_path / "stock.toml"  # a top card (JH) no play and no two hand cards take: the pile cannot be taken
    stock.write_text(example.read_text(encoding="utf-8").replace('"QD 8C 6S KD"', '"QD 8C 6S JH"'), encoding="utf-8")
    result = run_cli("hint", stock)
    assert result.returncode == 1 and result.stdout.strip().startswith("no hint: the best draw is the stock")


def _first_puzzle_of_each_kind() -> list[Path]:
    firsts: dict[tuple[str, str], Path] = {}
    for index in sorted((REPO / "puzzles").glob("*/index.json")):
        for entry in json.loads(index.read_text(encoding="utf-8"))["puzzles"]:
            firsts.setdefault((entry["rules"].split("-")[0], entry["kind"]), index.parent / entry["position"])
    return sorted(firsts.values())


@pytest.mark.parametrize("puzzle", _first_puzzle_of_each_kind(), ids=lambda p: p.stem)
def test_every_shipped_kind_has_hints_from_its_stored_answer(capsys, puzzle):
    """Hints work for every kind: four levels, the first step a turn check reads, aiming at the stated target."""
    code, out, err = run_here(capsys, "hint", "--json", "--level", "4", puzzle)
    assert code == 0 and err == ""
    given = json.loads(out)
    assert [h["level"] for h in given] == [1, 2, 3, 4]
    target = Position.from_file(puzzle).puzzle.target
    assert f"{target:g}" in given[0]["text"] or "tiles" in given[0]["text"], given[0]["text"]


def test_words_that_are_neither_a_position_nor_steps_say_both_were_tried():
    result = run_cli("check", STEAL, "-", stdin="blah blah\n")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "not valid TOML" in lines[0] and "'blah' is no step" in lines[0], result.stderr


def test_hint_level_4_names_each_play_with_its_cards_once(capsys):
    # A real table has no numbers on its plays: each one is named with its cards as they lie before
    # the turn, once, however many steps touch it.
    puzzle = PUZZLE_CASES / "house-classic-across-hard-s1-0004.toml"
    before = Position.from_file(puzzle)
    _code, out, _ = run_here(capsys, "hint", "--level", "4", puzzle)
    whole = out.splitlines()[-1]
    names = []
    for name, cards in re.findall(r"(\w+/\d+) \(([^()]*)\)", whole):
        assert sorted(cards.split()) == sorted(c.notation() for c in before.play_with_layoffs(name)), name
        names.append(name)
    assert names and len(names) == len(set(names))
    assert set(names) == {n for n in re.findall(r"\b[a-z]+/\d+\b", whole) if not n.startswith("new/")}
