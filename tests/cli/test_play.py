"""``rummy play POSITION TURN``: the next position printed, written with ``--out``, an illegal turn refused
with check's breaches (exit 1), bad input one line (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.position import Position
from tests.support.cli import feed_stdin, run_cli, run_main
from tests.support.paths import PUZZLE_EXAMPLES

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
STRAIGHT = PUZZLE_EXAMPLES / "straight.toml"


def test_steps_on_stdin_print_the_next_position_as_toml(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    feed_stdin(monkeypatch, "discard KS\n")
    code, out, err = run_main(capsys, "play", HOUSE, "-")
    # KS alone leaves the hot 2H in the hand: illegal, check's breach listed, nothing printed as a position.
    assert code == 1, err
    assert "hot-card-unplayed" in out and "to_move" not in out


def test_a_legal_turn_gives_the_next_player_in_the_draw_phase(tmp_path: Path) -> None:
    straight = Position.from_file(STRAIGHT)
    mover = straight.mover
    assert mover.hand is not None
    card = mover.hand[0]
    steps = tmp_path / "turn.txt"
    steps.write_text(f"discard {card.notation(straight.rules.deck)}\n")
    result = run_cli("play", STRAIGHT, steps, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    names = [p.name for p in straight.players]
    assert data["to_move"] == names[(names.index(straight.to_move) + 1) % len(names)]
    assert data["phase"] == "draw" and "turn" not in data
    assert data["piles"]["discard"].split()[-1] == card.notation(straight.rules.deck)
    check = run_cli("check", STRAIGHT, steps)
    assert check.returncode == 0, check.stdout


def test_best_is_played_and_written_with_out(tmp_path: Path) -> None:
    target = tmp_path / "next.toml"
    result = run_cli("play", HOUSE, "best", "--out", target)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and "bob to move" in result.stderr
    text = target.read_text()
    assert 'to_move = "bob"' in text and 'first_out = "ann"' in text and 'discard = "KD 4H 6C KS"' in text
    assert not list(tmp_path.glob(".*.tmp"))


def test_an_illegal_turn_exits_1_with_checks_breaches_and_writes_nothing(tmp_path: Path) -> None:
    turn = tmp_path / "turn.txt"
    turn.write_text("discard 2H\n")
    target = tmp_path / "next.toml"
    result = run_cli("play", HOUSE, turn, "--out", target, "--json")
    check = run_cli("check", HOUSE, turn, "--json")
    assert result.returncode == check.returncode == 1
    assert json.loads(result.stdout) == json.loads(check.stdout)  # check's verdict, as check prints it
    assert not target.exists()


@pytest.mark.parametrize(("args", "expected"), [
    (("play", HOUSE, "nowhere.txt"), "nowhere.txt"),
    (("play", HOUSE, "-", "--out", "-"), "--out"),
    (("play", HOUSE, "best", "--time-limit", "nan"), "--time-limit"),
    (("play", HOUSE, STRAIGHT), "plays under"),  # an end state of another game: not a turn at all
], ids=["missing-turn", "out-dash", "time-limit", "other-game"])
def test_bad_input_is_one_line_exit_2(args: tuple[str | Path, ...], expected: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2, result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummy: ") and expected in lines[0], result.stderr
    assert result.stdout == ""


def test_out_never_writes_through_a_link_nor_over_the_position(tmp_path: Path) -> None:
    victim = tmp_path / "victim.toml"
    victim.write_text("keep me\n")
    link = tmp_path / "next.toml"
    link.symlink_to(victim)
    result = run_cli("play", HOUSE, "best", "--out", link)
    assert result.returncode == 2 and "symbolic link" in result.stderr
    assert victim.read_text() == "keep me\n"
    position = tmp_path / "game.toml"
    position.write_text(HOUSE.read_text())
    result = run_cli("play", position, "best", "--out", position)
    assert result.returncode == 2 and "input file" in result.stderr
    assert position.read_text() == HOUSE.read_text()


def test_the_steps_best_prints_play_like_best_itself(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, by_best, err = run_main(capsys, "play", HOUSE, "best", "--json")
    assert code == 0, err
    code, printed, err = run_main(capsys, "best", HOUSE)
    steps = [line for line in printed.splitlines() if line.strip()[:1].isdigit() and ". " in line]
    assert code == 0 and steps, printed
    feed_stdin(monkeypatch, "\n".join(steps))
    code, by_steps, err = run_main(capsys, "play", HOUSE, "-", "--json")
    assert code == 0, err
    assert json.loads(by_steps) == json.loads(by_best)


def test_a_draw_phase_turn_is_played_draw_then_play() -> None:
    result = run_cli("play", PUZZLE_EXAMPLES / "house-classic-draw.toml", "best", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["to_move"] == "bob" and data["phase"] == "draw"
    assert "hot" not in data["players"]["ann"] and "warm" not in data["players"]["ann"]


def test_a_random_draw_alone_is_one_line_exit_2(tmp_path: Path) -> None:
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"status": "optimal", "gain": 1, "bound": 1, "after": None,
                                  "draw": {"from": "stock"}, "steps": [{"action": "draw", "from": "stock"}]}))
    result = run_cli("play", PUZZLE_EXAMPLES / "straight-draw.toml", answer)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "random draw alone" in result.stderr


def test_a_draw_given_as_words_on_the_command_line() -> None:
    result = run_cli("play", PUZZLE_EXAMPLES / "house-upcard.toml", "open", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["to_move"] == "ann" and data["phase"] == "play" and data["players"]["ann"]["warm"] == "8S"
    refused = run_cli("play", PUZZLE_EXAMPLES / "straight-draw.toml", "take 2")
    assert refused.returncode == 1 and "too-many-taken" in refused.stdout


LAST_TURN = """
rules = "house-classic"
hand_number = 1
to_move = "ann"

[players.ann]
melded = true
hand = "5H 6H 7H KS"
space = ["QS QD QC"]

[players.bob]
melded = true
hand = "9C 9D 3S"
space = ["6S 7S 8S 9S"]

[piles]
discard = "JD"
stock = 20
"""


@pytest.mark.parametrize("json_output", [False, True])
def test_the_last_turn_of_a_hand_reports_its_end_beside_the_position(tmp_path: Path, json_output: bool) -> None:
    before = tmp_path / "last.toml"
    before.write_text(LAST_TURN)
    turn = tmp_path / "turn.txt"
    turn.write_text("play 5H 6H 7H to new/1; discard KS\n")
    result = run_cli("play", before, turn, *(["--json"] if json_output else []))
    assert result.returncode == 0, result.stderr
    # stdout is still the position, read back strictly; ann: 10 + 15 + 25; bob: 20 - 21, floored at 0.
    text_kind = "json" if json_output else "toml"
    position = Position.from_text(result.stdout, "<stdout>", text_kind)
    assert position.first_out == "ann"
    if json_output:
        ending = json.loads(result.stderr.strip().splitlines()[-1])["hand_end"]
        assert ending["reason"] == "ann went out" and ending["scores"] == {"ann": 50, "bob": 0}
    else:
        assert "the hand is over: ann went out; ann 50, bob 0" in result.stderr


def test_a_turn_that_does_not_end_the_hand_says_nothing_of_it(tmp_path: Path) -> None:
    before = tmp_path / "on.toml"
    before.write_text(LAST_TURN.replace('"5H 6H 7H KS"', '"5H 6H 7H KS 2C"'))
    turn = tmp_path / "turn.txt"
    turn.write_text("play 5H 6H 7H to new/1; discard KS\n")
    result = run_cli("play", before, turn)
    assert result.returncode == 0, result.stderr
    assert 'to_move = "bob"' in result.stdout
    assert "hand is over" not in result.stderr


@pytest.mark.parametrize("turn", ["draw\x01\x1b[31m", "take 2\x1b]0;pwned\x07; discard QC", "\u202edraw"])
def test_control_characters_in_a_turn_never_reach_the_terminal(capsys: pytest.CaptureFixture[str],
                                                                turn: str) -> None:
    """A hostile TURN (an escape sequence, a bidi override) is quoted escaped in the one error line."""
    code, out, err = run_main(capsys, "play", PUZZLE_EXAMPLES / "house-classic-draw.toml", turn)
    assert code == 2 and out == ""
    assert err.startswith("rummy: ") and err.count("\n") == 1
    assert all(c.isprintable() for c in err.rstrip("\n")), repr(err)


def test_steps_typed_from_the_draw_phase_say_to_begin_with_the_draw(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "play", PUZZLE_EXAMPLES / "house-classic-draw.toml", "discard QC")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "is in the draw phase: begin the turn with the draw, e.g. 'draw; discard 7H'" in err


def test_a_turn_too_long_for_a_file_name_is_read_as_the_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """Over 255 characters TURN cannot name a file: it is read as typed (it was 'no such file', quoting it)."""
    turn = "take 1; " + "play 5S to ann/1; " * 300 + "discard 2H"
    code, out, err = run_main(capsys, "play", PUZZLE_EXAMPLES / "house-classic-draw.toml", turn)
    assert code == 2 and out == "" and err.endswith("301 steps; a turn has at most 256\n"), err
