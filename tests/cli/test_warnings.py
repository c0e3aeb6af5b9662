"""Warnings (formats.md "Warnings"): legal input that is probably not meant gets ``rummy: warning: ...``
lines on stderr; the answer and the exit code stay as they are. Shipped positions warn of nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.position import Position
from rummy.reports.position_warnings import position_warnings
from rummy.rules import DEALS, PRESETS, dealt, preset
from tests.support.cli import run_cli, run_main
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT

BIG_RACK = '''
rules = "rummikub"
to_move = "ann"
table = ["R1 R2 R3"]

[players.ann]
melded = true
hand = "K1-13 B1-7"

[players.bob]
melded = true
hand_count = 14
'''
CARDS_IN_A_TILE_GAME = '''
rules = "rummikub-lenient"
to_move = "ann"
table = ["7H 8H 9H", "K10 R10 O10"]

[players.ann]
melded = true
hand = "K1 K2 K3 KD B5"

[players.bob]
melded = true
hand_count = 14
'''
TILES_IN_A_CARD_GAME = '''
rules = "straight"
to_move = "ann"

[players.ann]
hand = "R7 8H 9H KS"

[players.bob]
hand_count = 7
space = ["K1-3"]

[piles]
discard = "2D"
'''


def write(tmp_path: Path, text: str, name: str = "p.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def warning_lines(err: str) -> list[str]:
    return [line.removeprefix("rummy: warning: ") for line in err.splitlines() if line.startswith("rummy: warning: ")]


def without_melded(text: str, name: str) -> str:
    """The position with ``melded = ...`` left out of one player's table."""
    head, player, rest = text.partition(f"[players.{name}]\n")
    body, more, tail = rest.partition("\n[")
    lines = [line for line in body.splitlines() if not line.startswith("melded")]
    return head + player + "\n".join(lines) + more + tail


# ------------------------------------------------------------------ each warning
def test_a_rack_larger_than_the_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, BIG_RACK)
    code, out, err = run_main(capsys, "show", path)
    assert code == 0 and out
    assert err.splitlines() == [f"rummy: warning: {path}: players.ann.hand: 20 tiles in ann's hand, "
                                "more than rummikub deals (14 each): is that meant?"]
    code, out, err = run_main(capsys, "best", path, "--json", "--time-limit", "20")
    assert code == 0
    assert json.loads(out)["warnings"] == warning_lines(err) == [
        f"{path}: players.ann.hand: 20 tiles in ann's hand, more than rummikub deals (14 each): is that meant?"]


def test_a_rack_may_hold_what_the_stock_says_was_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played_out = BIG_RACK.replace("hand_count = 14", "hand_count = 5")  # bob has played most of his tiles
    path = write(tmp_path, played_out + "\n[piles]\nstock = 72\n")  # 106 - 2 x 14 - 72 = 6 drawn: 14 + 6 = 20
    assert run_main(capsys, "show", path)[2] == ""
    path = write(tmp_path, played_out + "\n[piles]\nstock = 73\n")  # 5 drawn: 19 at most
    assert warning_lines(run_main(capsys, "show", path)[2]) == [
        f"{path}: players.ann.hand: 20 tiles in ann's hand, more than rummikub deals (14 each) "
        "and at most 5 tiles drawn since, by the stock given: is that meant?"]


def test_the_mover_holds_the_cards_drawn_this_turn(tmp_path: Path) -> None:
    """House Epic, 3 players (8 dealt): Cat took two discards (hot and warm) and holds 10 (the stock, which
    would allow for draws since the deal, left out)."""
    text = (PUZZLE_EXAMPLES / "house-epic.toml").read_text()
    assert position_warnings(Position.from_toml(text)) == []
    unmarked = "\n".join(line for line in text.splitlines() if not line.startswith(("hot", "warm", "stock")))
    assert [line.split(": ", 1)[1] for line in position_warnings(Position.from_toml(unmarked, "p"))] == [
        "players.cat.hand: 10 cards in cat's hand, more than house-epic deals (8 each to 3 players): is that meant?"]


def test_every_preset_knows_its_deal() -> None:
    assert set(DEALS) == set(PRESETS)
    assert dealt(preset("house-classic"), 4) == 7 and dealt(preset("yourturnmyturn"), 3) == 18
    assert dealt(preset("traditional"), 5) == 6 and dealt(preset("straight"), 2) == 10


@pytest.mark.parametrize("example, player, needs", [
    ("rummikub-lenient.toml", "ann", "ann's first meld needs 30 points"),
    ("tiles50.toml", "ann", "ann's first meld needs 50 points"),
    ("house-classic.toml", "bob", "bob's first meld needs 15 points (yet bob has plays on the table: melded = true?)"),
])
def test_melded_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str], example: str, player: str,
                         needs: str) -> None:
    text = (PUZZLE_EXAMPLES / example).read_text()
    left_out = write(tmp_path, without_melded(text, player), "left-out.toml")
    said = write(tmp_path, without_melded(text, player).replace(f"[players.{player}]\n",
                                                                f"[players.{player}]\nmelded = false\n"), "said.toml")
    code, out, err = run_main(capsys, "best", left_out, "--json", "--time-limit", "20")
    code_said, out_said, err_said = run_main(capsys, "best", said, "--json", "--time-limit", "20")
    line = f"{left_out}: players.{player}: {player} has not melded (melded = false unless given): {needs}"
    assert warning_lines(err) == [line] and err_said == ""
    assert code == code_said  # the same position: the same answer and exit code, the warning aside
    answer, answer_said = json.loads(out), json.loads(out_said)
    assert answer.pop("warnings") == [line] and "warnings" not in answer_said
    for data in (answer, answer_said):
        for key in ("file", "seconds", "stats"):
            data.pop(key)
    assert answer == answer_said


def test_melded_left_out_says_nothing_where_melding_does_not_matter(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for example in ("straight.toml", "robber.toml", "traditional.toml"):
        text = (PUZZLE_EXAMPLES / example).read_text()
        assert "melded" not in text
        assert run_main(capsys, "show", PUZZLE_EXAMPLES / example)[2] == ""


def test_card_notation_in_a_tile_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, CARDS_IN_A_TILE_GAME)
    code, out, err = run_main(capsys, "show", path)
    assert code == 0
    assert warning_lines(err) == [  # once a place, in reading order: ann's hand, the table's first play (three such)
        f"{path}: players.ann.hand: 'KD' is card notation in a tile game, read as O13",
        f"{path}: table[1]: '7H' is card notation in a tile game, read as R7",
    ]
    assert "R7 R8 R9" in out


def test_tile_notation_in_a_card_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, TILES_IN_A_CARD_GAME)
    code, _, err = run_main(capsys, "best", path)
    assert code == 0
    assert warning_lines(err) == [
        f"{path}: players.ann.hand: 'R7' is tile notation in a card game, read as 7H",
        f"{path}: players.bob.space[1]: 'K1-3' is tile notation in a card game, read as AS 2S 3S",
    ]


def test_a_joker_alone_is_in_no_notation(tmp_path: Path) -> None:
    text = CARDS_IN_A_TILE_GAME.replace('"7H 8H 9H"', '"R7 R8 *"').replace("KD", "JK")
    assert position_warnings(Position.from_toml(text)) == []


def test_many_places_in_the_other_notation_are_counted(tmp_path: Path) -> None:
    table = ", ".join(f'"{rank}H {rank}S {rank}D"' for rank in range(2, 13))
    text = CARDS_IN_A_TILE_GAME.replace('table = ["7H 8H 9H", "K10 R10 O10"]', f"table = [{table}]")
    lines = position_warnings(Position.from_toml(text, "p"))
    assert len(lines) == 9 and lines[-1] == "p: and 4 more places in card notation"


def test_a_stock_that_does_not_fit_says_what_would(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, BIG_RACK + "\n[piles]\nstock = 90\n")
    code, out, err = run_main(capsys, "show", path)
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"rummy: {path}: piles.stock: a stock of 90 does not fit: the rummikub deck holds "
                                "106 tiles and the rest of the position 37, so the stock holds at most 69 "
                                "(or leave 'stock' out)"]
    assert run_main(capsys, "show", write(tmp_path, BIG_RACK + "\n[piles]\nstock = 69\n"))[0] == 0


def test_check_warns_of_before_and_keeps_its_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = write(tmp_path, BIG_RACK)
    steps = write(tmp_path, "play K4-6 to new/1\n", "turn.txt")
    code, out, err = run_main(capsys, "check", before, steps, "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    assert json.loads(out)["warnings"] == warning_lines(err) and len(warning_lines(err)) == 1
    code, _, err = run_main(capsys, "check", before, write(tmp_path, "play K4 K5 to new/1\n", "bad.txt"))
    assert code == 1 and len(warning_lines(err)) == 1


def test_hint_warns_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = next(path for path in sorted((REPO_ROOT / "puzzles" / "tiles").glob("*.toml"))
                  if "melded = true" in path.read_text().split("[players.ann]")[1].split("[players.")[0])
    text = without_melded(puzzle.read_text(), "ann")
    left_out = write(tmp_path, text, "left-out.toml")
    said = write(tmp_path, text.replace("[players.ann]\n", "[players.ann]\nmelded = false\n"), "said.toml")
    code, out, err = run_main(capsys, "hint", left_out, "--time-limit", "20")
    assert warning_lines(err) == [f"{left_out}: players.ann: ann has not melded (melded = false unless given): "
                                  "ann's first meld needs 30 points"]
    assert run_main(capsys, "hint", said, "--time-limit", "20")[:2] == (code, out)


def test_best_on_many_processes_warns_of_each_position(tmp_path: Path) -> None:
    first = write(tmp_path, BIG_RACK, "a.toml")
    second = write(tmp_path, CARDS_IN_A_TILE_GAME, "b.toml")
    done = run_cli("best", first, second, "--jobs", "2", "--time-limit", "20")
    assert done.returncode == 0, done.stderr
    lines = warning_lines(done.stderr)
    assert len(lines) == 3
    assert sum(line.startswith(f"{first}:") for line in lines) == 1


# ------------------------------------------------------------------ none where there is nothing to say
SHIPPED = sorted((REPO_ROOT / "puzzles").rglob("*.toml"))


def test_shipped_positions_warn_of_nothing() -> None:
    assert len(SHIPPED) > 400
    warned = {path.name: position_warnings(Position.from_file(path)) for path in SHIPPED}
    assert {name: lines for name, lines in warned.items() if lines} == {}


def test_a_clean_position_prints_nothing_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    for example in sorted(PUZZLE_EXAMPLES.glob("*.toml")):
        code, _, err = run_main(capsys, "show", example)
        assert (code, err) == (0, ""), example
