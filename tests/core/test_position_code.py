"""Position codes (formats.md "Position codes"): round trips on every shipped position and on made ones,
the fixed dictionary, and every kind of damaged code refused in one line naming the place."""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.errors import PositionError, RummyError
from rummy.inputs import MAX_FILE_BYTES, text_kind
from rummy.position import Position, PuzzleStatement
from rummy.position_code import (
    DICTIONARY_V1,
    DICTIONARY_V1_SHA256,
    PREFIX,
    code_json,
    looks_like_code,
    position_code,
    position_from_code,
)
from tests.core.test_position import positions
from tests.support.paths import DATA_DIR, PUZZLE_EXAMPLES, REPO_ROOT
from tests.support.random_positions import LAYOFF_VARIATIONS, random_house, random_layoff_position, random_tiles

SHIPPED_ROOTS = [REPO_ROOT / "puzzles", REPO_ROOT / "benchmarks" / "positions", DATA_DIR]
HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
URL_SAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def read_shipped(path: Path) -> Position | None:
    """A shipped file as a position: strictly, else as an after-position; None when it is none
    (an answer, an index, a malformed example)."""
    for strict in (True, False):
        try:
            return Position.from_file(path, strict=strict)
        except RummyError:
            continue
    return None


def shipped_positions(root: Path) -> list[tuple[Path, Position]]:
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix in (".toml", ".json") and not path.name.endswith(".solution.json"):
            position = read_shipped(path)
            if position is not None:
                found.append((path, position))
    return found


def assert_code_round_trips(position: Position) -> str:
    code = position_code(position)
    assert code.startswith(PREFIX) and set(code[len(PREFIX):]) <= URL_SAFE
    # lenient: an after-position (a [turn] table, plays not whole) reads back as it was read
    back = position_from_code(code, strict=False)
    assert back == position and back.puzzle == position.puzzle
    assert position_code(back) == code  # code -> position -> code is the identity
    return code


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("root", SHIPPED_ROOTS, ids=lambda p: p.name)
def test_every_shipped_position_round_trips(root: Path) -> None:
    found = shipped_positions(root)
    assert len(found) >= 10, root
    for path, position in found:
        try:
            assert_code_round_trips(position)
        except AssertionError as error:
            raise AssertionError(f"{path}: {error}") from None


def test_a_strict_position_reads_back_strictly() -> None:
    position = Position.from_file(HOUSE)
    assert position_from_code(position_code(position)) == position


@given(positions())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_made_positions_round_trip(position: Position) -> None:
    """Rules with overrides, hidden hands, hot and warm cards, lay-offs, piles as counts or cards, [turn]."""
    assert_code_round_trips(position)


@given(st.integers(0, 10**6), st.sampled_from(["house", "tiles", "layoff"]))
@settings(max_examples=60, deadline=None)
def test_random_positions_round_trip(seed: int, kind: str) -> None:
    import random

    if kind == "house":
        position = random_house(seed, max_table_plays=6, hand_size=(3, 11))
    elif kind == "tiles":
        position = random_tiles(seed, max_table_plays=8, rack_size=(3, 14))
    else:
        rng = random.Random(seed)
        position = random_layoff_position(rng, rng.choice(LAYOFF_VARIATIONS), 7, 5, small=rng.random() < 0.5)
    assert_code_round_trips(position)


@given(st.text(min_size=1, max_size=60), st.sampled_from(["easy", "medium", "hard", "expert"]),
       st.integers(0, 500) | st.floats(0, 500, allow_nan=False).map(lambda x: round(x, 4)),
       st.none() | st.text(max_size=40))
@settings(max_examples=60, deadline=None)
def test_puzzle_statements_round_trip(task: str, tier: str, target: float, note: str | None) -> None:
    """A puzzle's statement is not compared with the position: it is compared here."""
    from dataclasses import replace

    task = "".join(c for c in task if c.isprintable()) or "x"
    note = None if note is None else "".join(c for c in note if c.isprintable())
    statement = PuzzleStatement("steal", tier, task, target, note)
    try:  # only what the reader takes
        statement = PuzzleStatement.from_data(statement.to_data())
    except PositionError:
        return
    assert_code_round_trips(replace(Position.from_file(HOUSE), puzzle=statement))


def test_unicode_names_round_trip_as_utf8() -> None:
    text = ('rules = "rummikub-lenient"\nto_move = "zoë"\ntable = ["R3 R4 R5"]\n'
            '[players."zoë"]\nmelded = true\nhand = "K1 *"\n[players."李"]\nhand_count = 3\n')
    position = Position.from_toml(text)
    code = assert_code_round_trips(position)
    assert "zoë" in code_json(code, "<code>")


def test_a_house_mid_game_position_fits_in_about_200_characters() -> None:
    position = Position.from_file(REPO_ROOT / "benchmarks" / "positions" / "house-real" / "real-3p-02.toml")
    assert len(position_code(position)) <= 200


def test_the_version_1_dictionary_never_changes() -> None:
    """A code written today is read by every later rummy: a new dictionary is a new version (rummy2_)."""
    assert hashlib.sha256(DICTIONARY_V1).hexdigest() == DICTIONARY_V1_SHA256
    assert len(DICTIONARY_V1) <= 32768  # DEFLATE's window


def test_a_code_is_read_wherever_a_position_text_is(tmp_path: Path) -> None:
    position = Position.from_file(HOUSE)
    code = position_code(position)
    for name in ("pos.toml", "pos.json", "pos.txt"):
        path = tmp_path / name
        path.write_text(f"\n  {code}  \n", encoding="utf-8")
        assert text_kind(path, path.read_text()) == "code"
        assert Position.from_file(path) == position
    assert Position.from_file(code) == position  # a command line's argument in place of a file
    assert not looks_like_code('rules = "house-classic"') and not looks_like_code("{}")


# ------------------------------------------------------------------ damage
def encode(payload: bytes) -> str:
    return PREFIX + base64.urlsafe_b64encode(payload).decode().rstrip("=")


def deflated(data: bytes, zdict: bytes | None = DICTIONARY_V1) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, *([zdict] if zdict else []))
    return packer.compress(data) + packer.flush()


def check_of(data: bytes) -> bytes:
    return (zlib.crc32(data) & 0xFFFF).to_bytes(2, "big")


def refusal(code: str) -> str:
    with pytest.raises(PositionError) as caught:
        position_from_code(code, "<code>")
    line = str(caught.value)
    assert "\n" not in line and line.startswith("<code>: "), line
    return line


def test_damaged_codes_are_refused_with_their_reason() -> None:
    code = position_code(Position.from_file(HOUSE))
    assert "unknown version 2" in refusal("rummy2_" + code[len(PREFIX):])
    # A version of any length is a code's (not a TOML's) error, and the line stays short.
    assert "unknown version of 7 digits ('rummy..._'" in refusal("rummy9999999_" + code[len(PREFIX):])
    assert len(refusal("rummy" + "9" * 100_000 + "_" + code[len(PREFIX):])) < 200
    assert looks_like_code("  rummy12345678_x")
    assert "not 'rummy1_'" in refusal("rumy1_" + code[len(PREFIX):])
    assert "bad character '!' at character 12" in refusal(code[:11] + "!" + code[12:])
    assert "bad character 'é' at character 9" in refusal(code[:8] + "é" + code[9:])
    assert "bad character ' '" in refusal(code[:30] + " " + code[30:])
    assert "bad character '='" in refusal(code + "=")
    assert "damaged" in refusal(PREFIX)
    assert "damaged" in refusal(PREFIX + "A")


def test_every_truncation_is_refused() -> None:
    code = position_code(Position.from_file(HOUSE))
    for end in range(len(PREFIX), len(code)):
        assert "not a position code" in refusal(code[:end])


def refused_or_the_same(code: str, position: Position) -> bool:
    """Whether a damaged code is refused (True), or reads the very same position (False): the bits
    that pad DEFLATE's last byte are read by nobody, so changing them changes nothing."""
    try:
        back = position_from_code(code)
    except PositionError as error:
        assert "\n" not in str(error) and "not a position code" in str(error)
        return True
    assert back == position and position_code(back) == position_code(position)
    return False


def test_every_changed_character_is_refused_never_read_as_another_position() -> None:
    """The check makes a mistyped character a refusal, never another position."""
    position = Position.from_file(HOUSE)
    code = position_code(position)
    alphabet = sorted(URL_SAFE)
    same = 0
    for at in range(len(PREFIX), len(code)):
        for other in (alphabet[(alphabet.index(code[at]) + step) % len(alphabet)] for step in (1, 17, 40)):
            same += not refused_or_the_same(code[:at] + other + code[at + 1:], position)
    assert same <= 3  # only the one character holding the padding, if any


@given(st.data())
@settings(max_examples=200, deadline=None)
def test_flipped_bits_are_refused(data: st.DataObject) -> None:
    position = Position.from_file(HOUSE)
    packed = bytearray(base64.urlsafe_b64decode(position_code(position)[len(PREFIX):] + "=="))
    bit = data.draw(st.integers(0, len(packed) * 8 - 1))
    packed[bit // 8] ^= 1 << (bit % 8)
    refused_or_the_same(encode(bytes(packed)), position)


def test_a_code_with_data_after_its_end_is_refused() -> None:
    code = position_code(Position.from_file(HOUSE))
    packed = base64.urlsafe_b64decode(code[len(PREFIX):] + "==")
    assert "check does not match" in refusal(encode(packed + b"\0\0\0"))


def test_a_bomb_is_refused_at_the_file_limit() -> None:
    """A few KB that would expand to 64 MiB: unpacking stops at the limit of a position file."""
    data = b" " * (64 << 20)
    line = refusal(encode(deflated(data) + check_of(data)))
    assert "expands beyond 1,048,576 bytes" in line


def test_a_code_longer_than_a_file_is_refused_before_decoding() -> None:
    assert "too long" in refusal(PREFIX + "A" * (MAX_FILE_BYTES + 1))


def test_a_code_made_without_the_dictionary_reads_too() -> None:
    """The dictionary only makes codes shorter: DEFLATE that never reaches back into it reads the same."""
    position = Position.from_file(HOUSE)
    data = json.dumps(position.to_data(), separators=(",", ":")).encode()
    longer = encode(deflated(data, None) + check_of(data))
    assert position_from_code(longer) == position and len(longer) > len(position_code(position)) + 50


def test_a_code_of_no_position_gets_the_readers_line_with_its_place() -> None:
    """What a code holds is read as a JSON position file is: the reader's errors keep their places."""
    data = json.dumps(Position.from_file(HOUSE).to_data(), separators=(",", ":")).replace('"KD', '"KX').encode()
    assert data.count(b"KX")
    line = refusal(encode(deflated(data) + check_of(data)))
    assert line.startswith("<code>: piles.discard") and "KX" in line
    for text in (b"[1, 2]", b"not json", b'{"rules": "house-classic"}', b"\xff\xfe"):
        assert refusal(encode(deflated(text) + check_of(text)))


# ------------------------------------------------------------------ the docs
FORMATS = REPO_ROOT / "docs" / "formats.md"


def test_the_docs_codes_are_the_examples_codes_today() -> None:
    """The codes docs/formats.md and docs/cli.md show are the shipped examples' (a changed example changes them)."""
    docs = FORMATS.read_text(encoding="utf-8") + (REPO_ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in ("house-classic", "rummikub"):
        assert position_code(Position.from_file(PUZZLE_EXAMPLES / f"{name}.toml")) in docs, name


def test_the_length_table_is_measured() -> None:
    """formats.md's lengths, example by example (within a few characters: another zlib may pack differently)."""
    import re

    text = FORMATS.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([\w-]+\.toml)` \| \d+ \| \d+ \| (\d+) \|", text, flags=re.MULTILINE))
    examples = sorted(PUZZLE_EXAMPLES.glob("*.toml"))
    assert set(rows) == {path.name for path in examples}
    for path in examples:
        assert abs(len(position_code(Position.from_file(path))) - int(rows[path.name])) <= 4, path.name
