"""Hostile and malformed input never crashes rummy (issue 10): one stderr line, exit 2.

Three parts:

* regressions: every crash reported in issue 10, run through the real command
  line in-process (``rummy.cli.app.main``), a few in a subprocess as a shell runs them;
* limits (docs/formats.md "Limits"): file size, devices, FIFOs, stdin, nesting,
  players, cards, option ranges; hostile files are refused fast;
* fuzzing with Hypothesis: valid positions and turns (puzzles/examples,
  tests/data/check_cases) are mutated (types, keys, values, nesting, encodings)
  and given to the reader and to every command that reads a file. Every run
  ends 0, 1 or 2; exit 2 prints exactly one stderr line; nothing is ever
  exit 3 or a traceback. The reader agrees with docs/position.schema.json:
  a document the reader accepts, the schema accepts (so every document the
  schema refuses is refused by the reader, with exit 2).

The fuzzed inputs are counted and the count is reported at the end of the
module (``RUMMY_FUZZ_SCALE=10`` fuzzes ten times as many).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import subprocess
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy import end_states, parsing, reader
from rummy.cli.app import main
from rummy.errors import RummyError, error_lines
from rummy.position import Position
from rummy.rules import OPTION_NUMBER_MAX, preset
from tests.support.paths import CHECK_CASES, PUZZLE_EXAMPLES, REPO_ROOT, SCHEMA_PATH

TRADITIONAL = PUZZLE_EXAMPLES / "traditional.toml"
HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
CASE_120 = CHECK_CASES / "house" / "120-joker-replacement-after-meld"
SCALE = float(os.environ.get("RUMMY_FUZZ_SCALE", "1"))
COUNTS: Counter[str] = Counter()
QUIET_ENV = ("RUMMY_DEBUG", "FORCE_COLOR", "NO_COLOR")


def scaled(n: int) -> int:
    return max(1, round(n * SCALE))


# ------------------------------------------------------------- running rummy
@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture(scope="module", autouse=True)
def plain_environment():
    with pytest.MonkeyPatch.context() as patch:
        for name in QUIET_ENV:
            patch.delenv(name, raising=False)
        yield


def run_main(*args: Any, stdin: bytes | None = None) -> Run:
    """``rummy ARGS`` in this process, stdout and stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in args])
    finally:
        sys.stdin = saved
    return Run(code, out.getvalue(), err.getvalue())


def run_process(*args: Any, stdin: Any = None, timeout: float = 60) -> Run:
    """``rummy ARGS`` in a subprocess, as a shell runs it."""
    env = {k: v for k, v in os.environ.items() if k not in QUIET_ENV}
    result = subprocess.run(
        [sys.executable, "-m", "rummy", *map(str, args)], cwd=REPO_ROOT, env=env, stdin=stdin,
        capture_output=True, timeout=timeout,
    )
    return Run(result.returncode, result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace"))


def assert_clean(run: Run, codes: tuple[int, ...] = (0, 1, 2, 4)) -> None:
    """An answer, a 'no', bad input told in one line, or (4) no answer within a short time limit; never a crash."""
    assert "Traceback" not in run.err, run.err
    assert "internal error" not in run.err, run.err
    assert run.code in codes, run
    if run.code == 2:
        lines = run.err.splitlines()
        # One line; several only for a file's independent problems (every unknown card), one each.
        assert 1 <= len(lines) <= reader.MAX_CARD_ERRORS + 2, run.err
        assert len(set(lines)) == len(lines), run.err
        for line in lines:
            assert line.startswith("rummy: ")
            assert len(line) <= 520, len(line)


def assert_refused(run: Run, *words: str) -> str:
    assert_clean(run, (2,))
    assert run.out == ""
    for word in words:
        assert word in run.err, run.err
    return run.err


def data_of(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def write(folder: Path, name: str, data: Any) -> Path:
    path = folder / name
    if name.endswith(".json"):
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    else:
        path.write_text(data if isinstance(data, str) else tomli_w.dumps(data), encoding="utf-8")
    return path


# ------------------------------------------------------------ regressions
@pytest.mark.parametrize("value", [[], {}])
def test_to_move_of_the_wrong_type(tmp_path: Path, value: Any) -> None:
    data = data_of(TRADITIONAL) | {"to_move": value}
    assert_refused(run_main("show", write(tmp_path, "p.toml", data)), "to_move", "is not a player")


def test_first_out_of_the_wrong_type(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL) | {"first_out": []}
    assert_refused(run_main("show", write(tmp_path, "p.toml", data)), "first_out")


@pytest.mark.parametrize("text", ['{"after": true}', "-0.0", '{"after": [1]}', "[]", '"x"', "null"])
def test_after_that_is_no_position(tmp_path: Path, text: str) -> None:
    after = write(tmp_path, "after.json", text)
    assert_refused(run_main("check", TRADITIONAL, after), "after.json")


@pytest.mark.parametrize("item", ["ann/1 ,", "ann/1 7H,8H", "ann/1 7H 8H", "ann 7H", "ann/0 7H", "ann/1 *", "ann/1"])
def test_replaced_that_is_not_one_play_and_one_card(tmp_path: Path, item: str) -> None:
    data = data_of(Path(f"{CASE_120}-after.toml"))
    data["turn"]["replaced"] = [item]
    after = write(tmp_path, "after.toml", data)
    assert_refused(run_main("check", f"{CASE_120}-before.toml", after), "turn.replaced[1]")


@pytest.mark.parametrize("name", ["x/1", "/1", "a b", "", "table", "new", "\x1b[2J", "n" * 33])
def test_player_names_that_would_break_play_names(tmp_path: Path, name: str) -> None:
    data = data_of(TRADITIONAL)
    data["players"][name] = data["players"].pop("bob")
    for command in (("show",), ("best", "--time-limit", "1")):
        assert_refused(run_main(*command, write(tmp_path, "p.toml", data)), "players")


def test_a_lone_surrogate_as_a_json_player_name(tmp_path: Path) -> None:
    text = json.dumps(data_of(TRADITIONAL)).replace('"bob"', '"\\ud800"')
    assert_refused(run_main("show", write(tmp_path, "p.json", text)), "not valid Unicode")


@pytest.mark.parametrize("args", [("best", TRADITIONAL), ("best", HOUSE)])
def test_a_seed_beyond_the_solver_range(args: tuple) -> None:
    assert_refused(run_main(*args, "--seed", "99999999999999999999"), "--seed")
    assert_refused(run_main(*args, "--seed", "-1"), "--seed")
    assert_clean(run_main(*args, "--seed", str(2**31 - 1), "--time-limit", "1"), (0,))


def test_a_seed_beyond_range_in_generate(tmp_path: Path) -> None:
    run = run_main("generate", "--rules", "rummikub", "--kind", "play-all", "--out", tmp_path / "out", "--count", "1",
                   "--max-candidates", "1", "--time-limit", "1", "--seed", "99999999999999999999")
    assert_clean(run)
    assert_refused(run, "--seed")


def test_a_rank_of_5000_digits(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL)
    data["players"]["ann"]["hand"] += " " + "1" * 5000 + "H"
    err = assert_refused(run_main("show", write(tmp_path, "p.toml", data)), "players.ann.hand", "unknown card")
    assert len(err) < 200


@pytest.mark.parametrize("option, value", [
    ("joker_points", 10**30), ("joker_points", -1), ("ace_points", 1001), ("queen_of_spades_points", 2**63),
    ("initial_meld", 10**30), ("initial_meld", [10, 10**20]), ("max_cards_per_turn", 10**30), ("plays_per_turn", 0),
    ("book_max", 10**30), ("run_min", 10**30), ("copies", 10**30), ("jokers", True),
])
def test_option_values_out_of_range(tmp_path: Path, option: str, value: Any) -> None:
    data = data_of(TRADITIONAL) | {"rules": {"preset": "traditional", option: value}}
    path = write(tmp_path, "p.toml", data)
    assert_refused(run_main("show", path), "rules", option)
    assert_refused(run_main("best", path, "--time-limit", "1"), option)


def test_the_largest_option_values_still_solve(tmp_path: Path) -> None:
    house = data_of(HOUSE) | {"rules": {"preset": "house-classic", "joker_points": OPTION_NUMBER_MAX,
                                         "initial_meld": [OPTION_NUMBER_MAX] * 6}}
    assert_clean(run_main("best", write(tmp_path, "h.toml", house), "--time-limit", "1", "--verify"), (0, 1))
    layoff = data_of(TRADITIONAL) | {"rules": {"preset": "traditional", "ace_points": OPTION_NUMBER_MAX,
                                               "queen_of_spades_points": OPTION_NUMBER_MAX}}
    assert_clean(run_main("best", write(tmp_path, "t.toml", layoff), "--time-limit", "1", "--verify"), (0, 1))


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "1e309", "-1", "86401"])
@pytest.mark.parametrize("command", [("best", TRADITIONAL), ("generate", "--rules", "rummikub", "--kind", "play-all")])
def test_time_limits_that_are_no_number_of_seconds(tmp_path: Path, command: tuple, value: str) -> None:
    args = (*command, "--out", tmp_path / "out") if command[0] == "generate" else command
    assert_refused(run_main(*args, "--time-limit", value), "--time-limit")
    assert not (tmp_path / "out").exists()


def test_workers_are_bounded() -> None:
    assert_refused(run_main("best", TRADITIONAL, "--workers", "100000"), "--workers")


def test_json_nested_1000_levels(tmp_path: Path) -> None:
    text = '{"rules": "traditional", "table": ' + "[" * 1000 + "]" * 1000 + "}"
    assert_refused(run_main("show", write(tmp_path, "p.json", text)), "nested")
    assert_refused(run_main("check", TRADITIONAL, tmp_path / "p.json"), "nested")


def test_toml_nested_500_levels(tmp_path: Path) -> None:
    text = 'rules = "traditional"\nx = ' + "[" * 500 + "]" * 500 + "\n"
    assert len(text.encode()) < 2048
    assert_refused(run_main("show", write(tmp_path, "p.toml", text)), "nested")


def test_nesting_the_reader_could_parse_is_refused_too(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL)
    deep: Any = "7H"
    for _ in range(30):
        deep = [deep]
    data["players"]["ann"]["hand"] = deep
    assert_refused(run_main("show", write(tmp_path, "p.json", data)), "nested more than 16")


def test_json_that_python_reads_but_json_does_not_allow(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL)
    text = json.dumps(data)[:-1] + ', "to_move": "bob"}'
    assert_refused(run_main("show", write(tmp_path, "dup.json", text)), "given twice")
    text = json.dumps(data | {"hand_number": float("nan")})
    assert_refused(run_main("show", write(tmp_path, "nan.json", text)), "NaN")
    text = json.dumps(data).replace('"stock": 29', '"stock": ' + "9" * 5000)
    assert_refused(run_main("show", write(tmp_path, "long.json", text)), "long.json")


@pytest.mark.parametrize("card", ["²H", "7ſ", "１H", "*= 6H", "JK=*", "*=", "07H", "R014", "7H\x00"])
def test_cards_the_schema_refuses_the_reader_refuses(card: str) -> None:
    with pytest.raises(RummyError):
        Position.from_data({"rules": "traditional", "to_move": "a", "players": {"a": {"hand": [card]}, "b": {"hand_count": 1}}})


# ------------------------------------------------------------------ limits
def test_the_schema_states_the_reader_limits() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    assert schema["properties"]["players"]["maxProperties"] == reader.MAX_PLAYERS
    assert defs["name"]["maxLength"] == reader.MAX_NAME_LENGTH
    assert set(defs["name"]["not"]["enum"]) == set(reader.RESERVED_NAMES)
    assert defs["player"]["properties"]["hand_count"]["maximum"] == reader.MAX_CARDS
    assert defs["piles"]["properties"]["stock"]["anyOf"][0]["maximum"] == reader.MAX_CARDS
    assert schema["properties"]["hand_number"]["maximum"] == reader.MAX_HAND_NUMBER
    options = defs["rules"]["anyOf"][1]["properties"]
    for key in ("ace_points", "joker_points", "queen_of_spades_points"):
        assert (options[key]["minimum"], options[key]["maximum"]) == (0, OPTION_NUMBER_MAX)
    assert reader.PLAY_NAME in defs["turn"]["properties"]["replaced"]["items"]["pattern"]
    assert reader.PLAY_NAME in defs["player"]["properties"]["layoffs"]["items"]["pattern"]


def test_a_file_over_1_mib_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b'rules = "traditional"\n' + b"#" * reader.MAX_FILE_BYTES)
    started = time.perf_counter()
    assert_refused(run_main("show", path), "too large", "1 MiB")
    assert_refused(run_main("check", TRADITIONAL, path), "too large")
    assert_refused(run_main("check", path, TRADITIONAL), "too large")
    assert_refused(run_main("best", path), "too large")
    assert time.perf_counter() - started < 5


def test_a_50_mb_hand_is_refused_fast(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL)
    data["players"]["ann"]["hand"] = "7H " * 17_000_000
    started = time.perf_counter()
    with pytest.raises(RummyError, match="more than 256 cards"):
        Position.from_data(data)
    path = write(tmp_path, "p.toml", data)
    assert_refused(run_main("show", path), "too large")
    assert time.perf_counter() - started < 10


def test_many_cards_are_refused_at_the_card_cap(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL)
    data["players"]["ann"]["space"] = ["7H"] * 100_000  # 1.2 MB as TOML: under the byte cap as JSON
    text = json.dumps(data, separators=(",", ":"))
    assert len(text) < reader.MAX_FILE_BYTES
    started = time.perf_counter()
    err = assert_refused(run_main("show", write(tmp_path, "p.json", text)), "players.ann.space", "256 cards")
    assert time.perf_counter() - started < 5, err


def test_many_players_are_refused(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL)
    data["players"] = {f"p{i}": {} for i in range(60_000)}
    data["to_move"] = "p0"
    text = json.dumps(data, separators=(",", ":"))
    assert len(text) < reader.MAX_FILE_BYTES
    path = write(tmp_path, "p.json", text)
    started = time.perf_counter()
    assert_refused(run_main("check", path, path), "at most 8")
    assert time.perf_counter() - started < 5


def calls_made(work: Callable[[], object]) -> int:
    """The Python and C function calls ``work`` makes: a measure of work that no machine's load changes."""
    count = 0

    def counted(_frame: object, event: str, _arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(counted)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def test_reading_is_linear_in_the_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader once looked every lay-off's play up by naming every play anew: 8,000 plays took 24 s.
    Now twice the plays and lay-offs cost twice the work (counted in calls; quadratic would be four times)."""
    monkeypatch.setattr(reader, "MAX_CARDS", 10**6)

    def reading(plays: int) -> Callable[[], object]:
        data = data_of(TRADITIONAL)
        owners = ("ann", "cat", "dan", "eve")
        for owner in owners:
            data["players"].setdefault(owner, {"hand_count": 0})["space"] = ["AH 2H 3H"] * plays
        data["players"]["bob"]["layoffs"] = [f"{owner}/{i} 4H" for owner in owners for i in range(1, plays + 1)]

        def read() -> object:
            position = Position.from_data(data, strict=False)
            assert len(position.named_plays()) == 4 * plays + 1
            return position
        return read

    small, large = calls_made(reading(150)), calls_made(reading(300))
    assert large < 2.3 * small, (small, large)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_unread(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    assert_refused(run_main("show", device), "not a regular file")
    assert_refused(run_main("check", TRADITIONAL, device), "not a regular file")
    assert_refused(run_main("best", device), "not a regular file")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    assert_refused(run_main("show", tmp_path), "a folder")
    assert_refused(run_main("check", TRADITIONAL, tmp_path), "a folder")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_nobody_writes_to_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    started = time.perf_counter()
    assert_refused(run_main("show", fifo), "nothing to read")
    assert_refused(run_process("check", TRADITIONAL, fifo, timeout=30), "nothing to read")
    assert time.perf_counter() - started < 30


def test_a_pipe_with_a_writer_is_read(tmp_path: Path) -> None:
    """docs/checker.md: ``rummy check before.toml <(rummy best before.toml --json)``."""
    script = f'"{sys.executable}" -m rummy check "{TRADITIONAL}" <("{sys.executable}" -m rummy best "{TRADITIONAL}" --json --time-limit 2)'
    result = subprocess.run(["bash", "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("legal")


def test_stdin_as_dash() -> None:
    text = TRADITIONAL.read_bytes()
    run = run_main("show", "-", stdin=text)
    assert_clean(run, (0,))
    assert "to move: ann" in run.out
    json_text = Position.from_file(TRADITIONAL).to_json().encode()
    assert_clean(run_main("show", "-", stdin=json_text), (0,))
    assert_refused(run_main("show", "-", stdin=b""), "<stdin>", "nothing to read")
    assert_refused(run_main("show", "-", stdin=b"x" * (reader.MAX_FILE_BYTES + 10)), "<stdin>", "too large")
    with open(os.devnull, "rb") as empty:
        assert_refused(run_process("show", "-", stdin=empty), "<stdin>")


def test_stdin_from_dev_zero_is_bounded() -> None:
    with open("/dev/zero", "rb") as zero:
        assert_refused(run_process("show", "-", stdin=zero, timeout=30), "too large")


@pytest.mark.parametrize("raw", [b"\xff\xfe" + 'rules = "x"'.encode("utf-16-le"), b"rules = \"\xe9\"", b"\x00" * 10])
def test_text_that_is_not_utf8(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "p.toml"
    path.write_bytes(raw)
    assert_refused(run_main("show", path), "p.toml")


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_bytes(b"\xef\xbb\xbf" + TRADITIONAL.read_bytes())
    assert_clean(run_main("show", path), (0,))


def test_long_values_are_quoted_short(tmp_path: Path) -> None:
    data = data_of(TRADITIONAL) | {"to_move": "z" * 100_000}
    err = assert_refused(run_main("show", write(tmp_path, "p.toml", data)), "to_move", "…")
    assert len(err) < 200
    data = data_of(TRADITIONAL) | {"x" * 100_000: 1}
    err = assert_refused(run_main("show", write(tmp_path, "p.toml", data)), "unknown key", "…")
    assert len(err) < 400  # the quoted key is short; the line also lists every known key
    err = assert_refused(run_main("rules", "p" * 100_000), "unknown preset")
    assert len(err) < 300


def test_the_regressions_in_a_real_process(tmp_path: Path) -> None:
    """What a shell sees: one line on stderr, exit 2 (a few of the cases above)."""
    data = data_of(TRADITIONAL)
    cases = [
        ("show", write(tmp_path, "a.toml", data | {"to_move": []})),
        ("show", write(tmp_path, "b.json", '{"rules": "traditional", "table": ' + "[" * 1000 + "]" * 1000 + "}")),
        ("check", TRADITIONAL, write(tmp_path, "c.json", '{"after": true}')),
        ("best", TRADITIONAL, "--time-limit", "nan"),
        ("best", TRADITIONAL, "--seed", "99999999999999999999"),
        ("show", "/dev/zero"),
    ]
    for args in cases:
        assert_refused(run_process(*args))


# ---------------------------------------------------------------- fuzzing
def _seed_files() -> list[Path]:
    return sorted(PUZZLE_EXAMPLES.glob("*.toml")) + sorted(CHECK_CASES.glob("*/*.toml"))


SEEDS: list[tuple[Path, dict]] = [(path, data_of(path)) for path in _seed_files()]


def partner(path: Path) -> tuple[Path, Path]:
    """BEFORE and AFTER for a seed: its check case, or the position against itself."""
    name = path.name
    if name.endswith("-after.toml"):
        return path.with_name(name.replace("-after.toml", "-before.toml")), path
    if name.endswith("-before.toml"):
        return path, path.with_name(name.replace("-before.toml", "-after.toml"))
    return path, path


KEYS = sorted(set(reader.TOP_KEYS + reader.PLAYER_KEYS + reader.PILE_KEYS + reader.TURN_KEYS)
              | set(preset("house-classic").options()) | {"preset", "after", "status", "upcard", "ann", "bob"})
TEXTS = [
    "", " ", ",", "/", "/1", "x/1", "ann/1", "ann/1 ,", "ann/1 7H,8H", "bob/1 QD", "ann/999 7H", "7H", "*", "*=*",
    "*= 6H", "JK=10S", "*=R7", "10S", "TS", "A♣", "R13", "１H", "²H", "7ſ", "R14", "K0", "0H", "07H", "\x00", "\ud800",
    "\u00a0", "\u200b", "\n", "7H\n8H", '"', "\\", "\x1b[2J", "a" * 50, "1" * 5000 + "H", "table", "new", "ann", "bob",
    "cat", "house-classic", "rummikub", "robber", "traditional", "none", "play", "draw", "fixed", "7H " * 300,
    "7H,8H,9H", "7H  8H", "QS QH QD QC *", "ＡS",
]
CARD_ALPHABET = "0123456789AJQKTSHDCRBO*=/ ,♠♥\u00a0"
texts = st.sampled_from(TEXTS) | st.text(max_size=12) | st.text(alphabet=CARD_ALPHABET, max_size=14)
numbers = (
    st.integers(-3, 300)
    | st.sampled_from([2**31, 2**63, -(2**63), 10**30, -(10**30), 10**4000])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([-0.0, 0.5, 1e308, 3.0])
)
scalars = st.none() | st.booleans() | numbers | texts
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


def _edit_text(draw: st.DrawFn, text: str) -> str:
    action = draw(st.sampled_from(["insert", "delete", "replace", "append", "double", "strip", "upper", "lower"]))
    where = draw(st.integers(0, len(text)))
    piece = draw(st.sampled_from(list(",/= *1\u00a0\n\x00") + ["０", "²", "ſ", "\ud800", "10", "=6H", "/1", "a" * 40]))
    if action == "insert":
        return text[:where] + piece + text[where:]
    if action == "delete":
        return text[:where] + text[where + 1:]
    if action == "replace":
        return text[:where] + piece + text[where + 1:]
    if action == "append":
        return text + piece
    if action == "double":
        return text + " " + text
    if action == "strip":
        return text.replace(" ", "")
    return text.upper() if action == "upper" else text.lower()


def _edit_number(draw: st.DrawFn, number: Any) -> Any:
    variants = [
        lambda n: n + 1, lambda n: n - 1, lambda n: -n, lambda n: n * 10**6, float, str, lambda n: [n],
        lambda n: 0, lambda n: -0.0, lambda n: True, lambda n: 10**30, lambda n: 2**63, lambda n: float("nan"),
        lambda n: float("inf"),
    ]
    try:
        return draw(st.sampled_from(variants))(number)
    except (OverflowError, ValueError):  # float() of a 4,000-digit number
        return number


def _nest(draw: st.DrawFn, value: Any) -> Any:
    depth = draw(st.sampled_from([1, 2, 5, 15, 16, 17, 40, 600]))
    as_list = draw(st.booleans())
    for _ in range(depth):
        value = [value] if as_list else {"x": value}
    return value


def _mutate(draw: st.DrawFn, root: Any) -> Any:
    """One change somewhere in the document."""
    # Hypothesis favours small draws (the root, the first key): the place is
    # chosen by a seeded random, mostly deep inside, sometimes the whole document.
    rnd = random.Random(draw(st.integers(0, 2**64)))
    path: list[Any] = []
    node = root
    while isinstance(node, (dict, list)) and node and rnd.random() < (0.95 if not path else 0.75):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        weights = [4 if isinstance(node[k], (dict, list)) else 1 for k in keys]  # players, piles, turn, plays
        key = rnd.choices(keys, weights)[0]
        path.append(key)
        node = node[key]
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    # Small changes weigh most: they keep the document near the line between accepted and refused.
    operations = ["replace", "replace", "retype", "retype", "nest", "add_key"]
    if isinstance(node, str):
        operations += ["edit_text"] * 8 + ["reformat"] * 3
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        operations += ["edit_number"] * 6
    if isinstance(node, list):
        operations += ["duplicate", "empty", "drop", "drop", "shuffle", "shuffle"]
    if path and isinstance(parent, dict):
        operations += ["delete", "delete", "rename"]
    operation = rnd.choice(operations)
    if operation == "edit_text":
        new: Any = _edit_text(draw, node)
    elif operation == "reformat":  # the same cards written another way, mostly still valid
        new = rnd.choice([
            lambda t: t.split(), lambda t: t.replace(" ", ", "), lambda t: t.replace(" ", "\t"), lambda t: f"  {t}  ",
            str.lower, lambda t: t.replace("10", "T"), lambda t: t.replace("A", "1"), lambda t: t.replace("*", "JK"),
        ])(node)
    elif operation == "shuffle":
        new = list(node)
        rnd.shuffle(new)
    elif operation == "edit_number":
        new = _edit_number(draw, node)
    elif operation == "retype":
        new = draw(st.sampled_from([[node], {"x": node}, str(node)[:200], None, True, 7, 7.5, [node, node]]))
    elif operation == "nest":
        new = _nest(draw, node)
    elif operation == "duplicate":
        new = node * draw(st.sampled_from([2, 3, 50, 300]))
    elif operation == "empty":
        new = []
    elif operation == "drop":
        new = node[1:]
    elif operation == "add_key":
        if isinstance(node, dict):
            node[draw(st.sampled_from(KEYS) | st.text(max_size=6))] = draw(junk)
            return root
        new = draw(junk)
    elif operation == "delete":
        del parent[path[-1]]
        return root
    elif operation == "rename":
        value = parent.pop(path[-1])
        parent[draw(st.sampled_from(KEYS) | texts)] = value
        return root
    else:
        new = draw(junk)
    if not path:
        return new
    parent[path[-1]] = new
    return root


@dataclass
class Case:
    seed: Path
    raw: bytes
    suffix: str
    answer: bool = False  # the document is a 'best --json' answer: the position is under "after"


@st.composite
def documents(draw: st.DrawFn) -> tuple[Path, Any]:
    rnd = random.Random(draw(st.integers(0, 2**64)))
    seed, data = rnd.choice(SEEDS)
    data = copy.deepcopy(data)
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        data = _mutate(draw, data)
    return seed, data


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A mutated document, written as TOML or JSON, sometimes with its bytes damaged."""
    seed, data = draw(documents())
    rnd = random.Random(draw(st.integers(0, 2**64)))
    kind = rnd.choice(["toml", "toml", "toml", "json", "json", "json", "answer"])
    answer = kind == "answer"
    text = None
    if kind == "toml":
        try:
            text = tomli_w.dumps(data)
        except Exception:  # noqa: BLE001 - any value tomli_w cannot write: fall back to JSON
            kind = "json"
    if kind == "answer":  # what 'best --json' prints: the position under "after"
        data, kind = {"rules": "x", "status": "optimal", "after": data}, "json"
    if text is None:
        try:
            text = json.dumps(data, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 2])))
        except Exception:  # noqa: BLE001 - any value json cannot write: an empty document
            text = "{}"
    raw = text.encode("utf-8", "surrogatepass")
    damage = rnd.choice(["none"] * 63 + ["bom", "utf-16", "latin-1", "flip", "truncate", "insert", "nul"])
    if damage == "bom":
        raw = b"\xef\xbb\xbf" + raw
    elif damage == "utf-16":
        raw = text.encode("utf-16", "surrogatepass")
    elif damage == "latin-1":
        raw = text.encode("latin-1", "replace")
    elif damage in ("flip", "truncate", "insert", "nul") and raw:
        at = draw(st.integers(0, len(raw) - 1))
        if damage == "flip":
            raw = raw[:at] + bytes([raw[at] ^ (1 << draw(st.integers(0, 7)))]) + raw[at + 1:]
        elif damage == "truncate":
            raw = raw[:at]
        elif damage == "insert":
            raw = raw[:at] + draw(st.binary(min_size=1, max_size=4)) + raw[at:]
        else:
            raw = raw[:at] + b"\x00" + raw[at:]
    suffix = rnd.choice([f".{kind}"] * 30 + [".json" if kind == "toml" else ".toml", ".txt", ""])
    return Case(seed, raw, suffix, answer)


FUZZ_SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), print_blob=True)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def case_file(folder: Path, case: Case, name: str = "case") -> Path:
    path = folder / f"{name}{case.suffix}"
    path.write_bytes(case.raw)
    return path


def test_the_seeds_are_valid_and_schema_valid() -> None:
    assert len(SEEDS) > 100
    for path, data in SEEDS:
        assert VALIDATOR.is_valid(data), path
        Position.from_file(path, strict=not path.name.endswith("-after.toml"))


@pytest.mark.slow
@settings(max_examples=scaled(2000), **FUZZ_SETTINGS)
@given(case=cases())
def test_fuzz_the_reader_refuses_cleanly_and_agrees_with_the_schema(case: Case, fuzz_dir: Path) -> None:
    COUNTS["reader"] += 1
    path = case_file(fuzz_dir, case)
    for strict in (False,) if case.answer else (True, False):
        try:
            position = end_states.read_end_state(path) if case.answer else Position.from_file(path, strict=strict)
        except RummyError as error:
            # One line a problem; several only for independent ones (every unknown card), each naming the file.
            for message in error_lines(error):
                assert "\n" not in message and len(message) < 1000, message
                assert str(path) in message
            assert len(error_lines(error)) <= reader.MAX_CARD_ERRORS + 2
            continue
        COUNTS["reader: reads accepted"] += 1
        # Accepted: the schema accepts it too, and it writes and reads back the same.
        text = reader.read_text(path)
        kind = reader.text_kind(path, text)
        if case.answer:  # as read_end_state reads it: the first line of several, the position under "after"
            stripped = text.strip()
            data = parsing.parse_json(stripped.splitlines()[0] if "\n{" in stripped else text, "x")
            data = data if "players" in data else data["after"]
        else:
            data = parsing.parse_json(text, "x") if kind == "json" else parsing.parse_toml(text, "x")
        errors = sorted(VALIDATOR.iter_errors(data), key=lambda e: list(e.absolute_path))
        assert not errors, f"the reader accepts what the schema refuses: {errors[0].message[:300]} at {list(errors[0].absolute_path)}"
        assert Position.from_data(position.to_data(), strict=strict) == position


COMMANDS = ["show", "show --after", "show --json", "check AFTER", "check BEFORE", "best"]


@settings(max_examples=scaled(700), **FUZZ_SETTINGS)
@given(case=cases(), command=st.sampled_from(COMMANDS))
def test_fuzz_the_commands_in_process(case: Case, command: str, fuzz_dir: Path) -> None:
    COUNTS["cli"] += 1
    path = case_file(fuzz_dir, case, "cli")
    before, after = partner(case.seed)
    if command == "check AFTER":
        args: tuple = ("check", before, path)
    elif command == "check BEFORE":
        args = ("check", path, after)
    elif command == "best":
        args = ("best", path, "--json", "--time-limit", "0.2", "--verify")
    else:
        args = (*command.split(), path)
    run = run_main(*args)
    assert_clean(run)
    if run.code == 2:
        assert str(path) in run.err or "cli" in run.err


@settings(max_examples=scaled(24), **FUZZ_SETTINGS)
@given(case=cases(), command=st.sampled_from(["show", "check AFTER", "check BEFORE"]))
def test_fuzz_the_commands_in_a_subprocess(case: Case, command: str, fuzz_dir: Path) -> None:
    COUNTS["subprocess"] += 1
    path = case_file(fuzz_dir, case, "process")
    before, after = partner(case.seed)
    args = {"show": ("show", path), "check AFTER": ("check", before, path), "check BEFORE": ("check", path, after)}[command]
    assert_clean(run_process(*args))


def test_report_the_number_of_fuzzed_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    """Printed past pytest's capture, so that every run shows how much was fuzzed."""
    total = sum(n for key, n in COUNTS.items() if ":" not in key)
    if not total:
        pytest.skip("the fuzz tests did not run")
    line = f"fuzzed inputs: {total} ({', '.join(f'{k} {v}' for k, v in sorted(COUNTS.items()))})"
    with capsys.disabled():
        sys.stdout.write(f"\n{line}\n")
