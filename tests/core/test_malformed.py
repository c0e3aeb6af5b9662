"""Bad position files are refused with one line naming the file and the place.

Every file in tests/data/malformed/ starts with ``# expect: PLACE`` (JSON files,
which cannot hold comments, carry the same lines in ``NAME.json.expect``).
The error message must read ``FILE: PLACE...``. Files also marked
``# schema: reject`` are structurally wrong, so docs/position.schema.json
must refuse them too.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest

from rummy.errors import PositionError
from rummy.position import Position
from tests.support.cli import run_main
from tests.support.paths import MALFORMED_DIR, PUZZLE_EXAMPLES, REPO_ROOT, SCHEMA_PATH, header_lines

MALFORMED_FILES = sorted(p for p in MALFORMED_DIR.iterdir() if p.suffix in (".toml", ".json"))


def headers(path: Path) -> list[str]:
    sidecar = path.with_name(path.name + ".expect")
    return header_lines(sidecar if sidecar.exists() else path)


def expected_place(path: Path) -> str:
    for line in headers(path):
        if line.startswith("expect:"):
            return line.removeprefix("expect:").strip()
    raise AssertionError(f"{path.name} has no '# expect:' line")


def schema_rejects(path: Path) -> bool:
    return "schema: reject" in headers(path)


def test_the_corpus_is_large_and_every_file_says_what_to_expect() -> None:
    assert len(MALFORMED_FILES) >= 20
    assert any(p.suffix == ".json" for p in MALFORMED_FILES)
    for path in MALFORMED_FILES:
        assert expected_place(path)


@pytest.mark.parametrize("path", MALFORMED_FILES, ids=lambda p: p.name)
def test_reading_fails_naming_file_and_place(path: Path) -> None:
    with pytest.raises(PositionError) as info:
        Position.from_file(path)
    message = str(info.value)
    assert f"{path}: {expected_place(path)}" in message
    assert "\n" not in message


@pytest.mark.parametrize("path", MALFORMED_FILES, ids=lambda p: p.name)
def test_lenient_reading_still_refuses_what_is_not_about_the_end_state(path: Path) -> None:
    """strict=False forgives only plays that are not whole and card counts."""
    lenient_about = ("not-whole", "duplicate", "jokers", "third-copy", "too-many-cards", "ambiguous", "repeated-colour")
    if any(word in path.name for word in lenient_about):
        Position.from_file(path, strict=False)
    else:
        with pytest.raises(PositionError):
            Position.from_file(path, strict=False)


def test_a_missing_file_is_a_position_error() -> None:
    missing = MALFORMED_DIR / "no-such-position.toml"
    with pytest.raises(PositionError, match=r"no-such-position\.toml"):
        Position.from_file(missing)


@pytest.fixture(scope="module")
def schema_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


SCHEMA_REJECTS = [p for p in MALFORMED_FILES if schema_rejects(p)]


@pytest.mark.parametrize("path", SCHEMA_REJECTS, ids=lambda p: p.name)
def test_the_schema_rejects_structural_mistakes(path: Path, schema_validator: jsonschema.Draft202012Validator) -> None:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    assert not schema_validator.is_valid(data)


def test_some_files_are_schema_rejects() -> None:
    assert len(SCHEMA_REJECTS) >= 10


@pytest.mark.parametrize("path", MALFORMED_FILES, ids=lambda p: p.name)
def test_cli_show_refuses_with_one_line_and_exit_code_2(path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rummy", "show", str(path)],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
    )
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert len(lines) == 1, result.stderr
    assert path.name in lines[0]
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------ unknown cards and other problems at the command line: every one a line
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
    path = write(tmp_path, TILES_WITH.format(table='"R1 R2 R3"', hand="G9 K4"))
    code, out, err = run_main(capsys, "show", path)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "players.ann.hand" in lines[0] and "'G9'" in lines[0] and "K B R O" in lines[0]
    assert "after-position" not in lines[0]


def test_an_unknown_card_names_the_suits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (PUZZLE_EXAMPLES / "robber.toml").read_text()
    hand = next(line for line in text.splitlines() if line.startswith("hand = "))
    path = write(tmp_path, text.replace(hand, 'hand = "ZZ 7X"', 1))
    code, _, err = run_main(capsys, "best", path)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2, err  # one line an unknown card, each naming its place
    assert all(".hand" in line and "S H D C" in line for line in lines)
    assert "'ZZ'" in lines[0] and "'7X'" in lines[1]


def test_every_unknown_card_of_a_file_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, TILES_WITH.format(table='"R1 R2 Q3", "B5 B6 B7"', hand="G9 K4 K5"))
    code, _, err = run_main(capsys, "best", path)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert any("table[1]" in line and "'Q3'" in line for line in lines)
    assert any("players.ann.hand" in line and "'G9'" in line for line in lines)
    assert all(line.startswith(f"rummy: {path}: ") for line in lines)


def test_an_unknown_card_then_another_problem_reports_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = TILES_WITH.format(table='"R1 R2 R3"', hand="G9 K4").replace('to_move = "ann"', 'to_move = "cat"')
    code, _, err = run_main(capsys, "show", write(tmp_path, text))
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2 and "'G9'" in lines[0] and "to_move" in lines[1], err


def test_the_after_position_hint_is_only_for_plays_that_are_not_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    too_many = TILES_WITH.format(table='"R1 R2 R3", "R1 R2 R3"', hand="R1 K4")  # three R1 in a deck of two
    code, _, err = run_main(capsys, "show", write(tmp_path, too_many))
    assert code == 2 and "copies" in err and "after-position" not in err
    not_whole = TILES_WITH.format(table='"R1 R2"', hand="K4")
    code, _, err = run_main(capsys, "show", write(tmp_path, not_whole, "q.toml"))
    assert code == 2 and "not a whole play" in err and "after-position" in err
