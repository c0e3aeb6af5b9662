"""Position codes on the command line (docs/cli.md, formats.md "Position codes"): ``show --code``,
and every command that takes a POSITION taking a code in its place, with the same answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.position import Position
from rummy.position_code import PREFIX, position_code
from tests.support.cli import feed_stdin, run_cli, run_main
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
TILES = PUZZLE_EXAMPLES / "rummikub.toml"
# A shipped expert puzzle, from the index (the collections are remade: no name is fixed here).
PUZZLE = REPO_ROOT / "puzzles" / "house" / next(
    entry["position"] for entry in json.loads((REPO_ROOT / "puzzles" / "house" / "index.json").read_text())["puzzles"]
    if entry["tier"] == "expert")
# Keys of best --json that say how the answer was found, not what it is.
HOW = ("file", "seconds", "stats")


def code_of(path: Path) -> str:
    return position_code(Position.from_file(path))


def test_show_code_prints_the_code_alone() -> None:
    result = run_cli("show", HOUSE, "--code")
    assert result.returncode == 0, result.stderr
    assert result.stdout == code_of(HOUSE) + "\n" and result.stderr == ""


def test_show_json_adds_the_code_and_reads_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run_main(capsys, "show", TILES, "--json")
    data = json.loads(out)
    assert code == 0 and data["code"] == code_of(TILES)
    saved = tmp_path / "tiles.json"
    saved.write_text(out, encoding="utf-8")  # show --json's output is still a position file
    assert Position.from_file(saved) == Position.from_file(TILES)


@pytest.mark.parametrize("path", sorted(PUZZLE_EXAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_show_draws_a_code_as_its_file(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    assert run_main(capsys, "show", code_of(path)) == run_main(capsys, "show", path)


def without_how(line: str) -> dict[str, object]:
    return {key: value for key, value in json.loads(line).items() if key not in HOW}


def test_best_answers_a_code_as_its_file(capsys: pytest.CaptureFixture[str]) -> None:
    options = ("--json", "--workers", "1", "--seed", "3", "--time-limit", "20")
    code_exit, by_code, _ = run_main(capsys, "best", code_of(HOUSE), *options)
    file_exit, by_file, _ = run_main(capsys, "best", HOUSE, *options)
    assert code_exit == file_exit == 0
    assert without_how(by_code) == without_how(by_file)
    assert json.loads(by_code)["status"] == "optimal"
    assert json.loads(by_code)["file"] == code_of(HOUSE)  # as the command line gave it


def test_best_takes_files_and_codes_together(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "best", HOUSE, code_of(TILES), "--json", "--time-limit", "20")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert [answer["rules"] for answer in answers] == ["house-classic", "rummikub"]


def test_check_and_hint_take_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    steps = tmp_path / "turn.txt"
    steps.write_text("play 2C 2H to new/1; discard KS\n", encoding="utf-8")
    by_code = run_main(capsys, "check", code_of(HOUSE), steps, "--json")
    by_file = run_main(capsys, "check", HOUSE, steps, "--json")
    assert by_code[0] == by_file[0] and json.loads(by_code[1]) == json.loads(by_file[1])
    hinted = run_main(capsys, "hint", code_of(PUZZLE), "--level", "2", "--json")
    assert hinted[0] == 0 and len(json.loads(hinted[1])) == 2


def test_a_code_in_a_file_or_on_stdin_reads_as_the_position(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    expected = run_main(capsys, "show", HOUSE)
    saved = tmp_path / "house.toml"  # named .toml, holding a code: read by its content
    saved.write_text(code_of(HOUSE) + "\n", encoding="utf-8")
    assert run_main(capsys, "show", saved) == expected
    feed_stdin(monkeypatch, "  " + code_of(HOUSE) + "\n")
    assert run_main(capsys, "show", "-") == expected


def test_a_file_named_as_a_code_is_read_as_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rummy1_mine").write_text(HOUSE.read_text(encoding="utf-8"), encoding="utf-8")
    assert run_main(capsys, "show", "rummy1_mine")[0] == 0


GOOD = position_code(Position.from_file(HOUSE))
DAMAGED = {
    "truncated": (GOOD[:60], "damaged"),
    "changed": (GOOD[:40] + ("A" if GOOD[40] != "A" else "B") + GOOD[41:], "damaged"),
    "bad character": (GOOD[:20] + "%" + GOOD[21:], "bad character '%' at character 21"),
    "non-ascii": (GOOD[:20] + "é" + GOOD[21:], "bad character 'é' at character 21"),
    "unknown version": ("rummy9_" + GOOD[len(PREFIX):], "unknown version 9"),
    "empty": (PREFIX, "damaged"),
}


@pytest.mark.parametrize("command", [("show",), ("best",), ("hint",), ("check", "BEFORE"), ("check", "AFTER")],
                         ids=lambda c: " ".join(c))
@pytest.mark.parametrize("case", list(DAMAGED), ids=str)
def test_a_damaged_code_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], command: tuple[str, ...],
                                               case: str) -> None:
    text, words = DAMAGED[case]
    if command == ("check", "BEFORE"):
        args: tuple[str | Path, ...] = ("check", text, HOUSE)
    elif command == ("check", "AFTER"):
        args = ("check", HOUSE, text)
    else:
        args = (*command, text)
    code, out, err = run_main(capsys, *args)
    lines = err.splitlines()
    assert code == 2 and out == "", (out, err)
    assert len(lines) == 1 and lines[0].startswith("rummy: ") and "Traceback" not in err, err
    assert "<code>" in lines[0] and "not a position code" in lines[0] and words in lines[0], lines[0]


def test_a_damaged_code_is_refused_in_a_subprocess_too() -> None:
    """As a user's shell runs it: one line on stderr, exit 2."""
    result = run_cli("best", DAMAGED["changed"][0])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()] and "<code>: not a position code" in result.stderr


def test_check_takes_the_after_position_as_a_code(capsys: pytest.CaptureFixture[str]) -> None:
    """best's after-position (its [turn] table too) as a code: check judges it as it judges the file."""
    _, answer, _ = run_main(capsys, "best", HOUSE, "--json", "--time-limit", "20")
    after = Position.from_data(json.loads(answer)["after"], strict=False)
    code, out, err = run_main(capsys, "check", code_of(HOUSE), position_code(after), "--json")
    assert code == 0, err
    assert json.loads(out)["legal"] is True and json.loads(out)["reading"]["gain"] == json.loads(answer)["gain"]


def bomb(size: int) -> str:
    """A valid code whose data would expand to ``size`` bytes."""
    import base64
    import zlib

    data = b" " * size
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(data) + packer.flush() + (zlib.crc32(data) & 0xFFFF).to_bytes(2, "big")
    return PREFIX + base64.urlsafe_b64encode(packed).decode().rstrip("=")


@pytest.mark.parametrize(("text", "words"), [(bomb(4 << 20), "expands beyond 1,048,576 bytes"),
                                             (PREFIX + "A" * (1 << 20), "too long")], ids=["bomb", "huge"])
def test_a_bomb_or_a_huge_code_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], text: str,
                                                      words: str) -> None:
    code, out, err = run_main(capsys, "best", text)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and words in err, err
