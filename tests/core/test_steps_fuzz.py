"""Turns written as steps, fuzzed and bounded (issue 24, section 1).

Steps built from real plays (the plans of shipped answers, in the reader's notation and in
``rummy best``'s words, in every family) are mutated: clauses dropped (a ``steal`` without
``to``), verbs swapped, words replaced, long runs of whitespace put in, a leading ``;``. Given to
the reader (``rummy.steps_notation``, ``rummy.turn_steps``), to the checker after it, to the web's steps report and to
``rummy check BEFORE -``, every text is read or refused with a ``RummyError``: never another
exception, exit 0, 1 or 2 only, one ``rummy: `` line on stderr for exit 2. And ``check`` and
/api/steps read every text the same way (the one rule, ``looks_like_steps``).

The reader's work is bounded, not timed: every pattern it runs sees one step with its whitespace
collapsed, at most ``MAX_STEP_CHARS`` long, whatever the input.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy import steps_notation
from rummy.checker import check
from rummy.cli.app import main
from rummy.errors import PositionError, RummyError
from rummy.plan import make_plan
from rummy.position import Position
from rummy.reports.check import answer_from_text
from rummy.reports.page import STEPS, steps_report
from rummy.steps_notation import CLAUSES, MAX_STEP_CHARS, MAX_STEPS, VERBS, looks_like_steps
from rummy.turn_steps import read_steps, step_tables, steps_text
from rummy.words import plain, step_words
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT

SCALE = float(os.environ.get("RUMMY_FUZZ_SCALE", "1"))
FAMILIES = ("house", "tiles", "robber", "layoff")


def before_path_of(answer: Path) -> Path:
    return answer.with_name(answer.name.replace(".solution.json", ".toml"))


# Every ninth shipped answer of each family from a play-phase position, and no more than four: real plays.
SOURCES = [path for family in FAMILIES for path in [
    answer for answer in sorted((REPO_ROOT / "puzzles" / family).glob("*.solution.json"))[::9]
    if Position.from_file(before_path_of(answer)).phase == "play"][:4]]
HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
# One play-phase example of each family, and a play the steal is written from (not the mover's).
STEAL_WITHOUT_TO = [
    (PUZZLE_EXAMPLES / "house-classic.toml", "steal 7H from bob/1"),
    (PUZZLE_EXAMPLES / "rummikub.toml", "steal R7 from table/1"),
    (PUZZLE_EXAMPLES / "straight.toml", "steal 7D from ann/1"),
    (PUZZLE_EXAMPLES / "traditional.toml", "steal 7D from bob/1"),
]
STEAL_NEEDS_TO = "step 1: 'steal' needs 'to PLAY'"
WHITESPACE = " \t\u00a0\u2003\u3000\x0b\x0c\x1c\r\n"
COUNTS: Counter[str] = Counter()
FUZZ_SETTINGS: dict[str, Any] = dict(deadline=None, suppress_health_check=list(HealthCheck), print_blob=True)


def scaled(n: int) -> int:
    return max(1, round(n * SCALE))


@cache
def source(path: Path) -> tuple[Path, str, tuple[str, ...], tuple[str, ...]]:
    """A shipped answer's BEFORE file, its text, and its plan's steps: in the reader's notation, and as best prints them."""
    before_path = before_path_of(path)
    before = Position.from_file(before_path)
    after = Position.from_data(json.loads(path.read_text(encoding="utf-8"))["after"], source=str(path), strict=False)
    plan = make_plan(before, after)
    notation = tuple(steps_text(plan, before, "\n").splitlines())
    words = tuple(plain(step_words(step), before.rules.deck) for step in plan.steps)
    return before_path, before_path.read_text(encoding="utf-8"), notation, words


@cache
def before_of(path: Path) -> Position:
    return Position.from_file(path)


def cards_of(before: Position) -> list[str]:
    """The cards of the position's plays and of the mover's hand, in notation."""
    deck = before.rules.deck
    return sorted({c.notation(deck) for play in before.named_plays().values() for c in play.cards} |
                  {c.notation(deck) for c in before.mover.hand or ()})


def vocabulary(before: Position) -> list[str]:
    """Words a step may hold, from the position itself: its cards, its plays, its players, the step words."""
    names = [str(name) for name in before.named_plays()] + ["new/1", "new/2", "new/9", "zed/1"]
    players = [p.name for p in before.players]
    return cards_of(before) + names + players + list(VERBS) + list(CLAUSES) + [
        "by", "off", "*", "*=7H", "=", ":", "(", ")", "#", ";", ",", "3.", "as", "nothing", "your", "hand",
        "paying for the steal of", "(ann's space)", "by adding", "the joker of", "XX", "\ufeff", "",
    ]


CLAUSE = re.compile(r" (to|from|on|in) \S+| paid by .*$")  # our own notation's clauses, to drop one


@st.composite
def mutated_turn(draw: st.DrawFn) -> tuple[Path, str, Position, str]:
    """A turn's steps as a player might garble them: from a real plan, each step kept or mutated."""
    before_path, before_text, notation, words = source(draw(st.sampled_from(SOURCES)))
    before = before_of(before_path)
    lines = list(draw(st.sampled_from([notation, words])))
    known = vocabulary(before)
    steps = []
    for line in lines[: draw(st.integers(0, len(lines)))] or lines[:1]:
        shape = draw(st.sampled_from(["keep", "drop-clause", "verb", "steal-without-to", "word", "whitespace", "cut"]))
        COUNTS[shape] += 1
        tokens = line.split(" ")
        if shape == "drop-clause":
            clauses = list(CLAUSE.finditer(line))
            if clauses:
                gone = draw(st.sampled_from(clauses))
                line = line[: gone.start()] + line[gone.end():]
        elif shape == "verb":
            line = " ".join([draw(st.sampled_from(list(VERBS) + ["lay off"]))] + tokens[1:])
        elif shape == "steal-without-to":
            cards = " ".join(draw(st.lists(st.sampled_from(cards_of(before)), min_size=1, max_size=3)))
            play = draw(st.sampled_from([str(name) for name in before.named_plays()] or ["bob/1"]))
            line = f"steal {cards} from {play}"
        elif shape == "word":
            at = draw(st.integers(0, len(tokens)))
            tokens.insert(at, draw(st.sampled_from(known)))
            line = " ".join(tokens)
        elif shape == "whitespace":
            at = draw(st.integers(0, len(line)))
            run = draw(st.sampled_from(WHITESPACE)) * draw(st.sampled_from([2, 17, 4_000, 131_000]))
            line = line[:at] + run + line[at:]
        elif shape == "cut":
            line = line[: draw(st.integers(0, len(line)))]
        steps.append(line)
    separator = draw(st.sampled_from(["; ", "\n", ";", " ;\n", ";;"]))
    lead = draw(st.sampled_from(["", "", ";", "; ", ";\n", "# my turn\n", "\ufeff", " " * 50_000, "\n" * 1_000]))
    COUNTS["leading ;" if lead.startswith(";") else "other lead"] += 1
    return before_path, before_text, before, lead + separator.join(steps)


def read_all_ways(before_text: str, before: Position, text: str) -> None:
    """The reader, the checker, the tables of the page and the steps report: a result or a RummyError."""
    try:
        after = read_steps(before, text, "turn")
    except RummyError as error:
        reader_error: str | None = str(error).removeprefix("turn")
    else:
        reader_error = None
        COUNTS["read, then judged"] += 1
        with contextlib.suppress(RummyError):
            check(before, after)
        assert len(step_tables(before, text, "turn")) >= 1
    try:
        steps_report(before_text, text)
    except RummyError as error:
        report_error: str | None = str(error)
    else:
        report_error = None
    # One rule: check reads as steps what /api/steps reads as steps, with the same result.
    if looks_like_steps(text):
        assert report_error == (None if reader_error is None else STEPS + reader_error), (text[:200], report_error)
        try:
            answer_from_text(text, "turn", "toml", before)
            check_error: str | None = None
        except RummyError as error:
            check_error = str(error).removeprefix("turn")
        assert check_error == reader_error
    elif text.strip():
        assert report_error is not None and report_error.startswith(f"{STEPS}: not a turn written as steps"), report_error


# ---------------------------------------------------------------- fuzzing
@settings(max_examples=scaled(150), **FUZZ_SETTINGS)
@given(mutated_turn())
def test_fuzzed_steps_are_read_or_refused_with_a_rummy_error(turn: tuple[Path, str, Position, str]) -> None:
    _, before_text, before, text = turn
    COUNTS["library"] += 1
    read_all_ways(before_text, before, text)


@settings(max_examples=scaled(40), **FUZZ_SETTINGS)
@given(mutated_turn())
def test_fuzzed_steps_through_check_exit_0_1_or_2(turn: tuple[Path, str, Position, str]) -> None:
    before_path, _, _, text = turn
    COUNTS["command line"] += 1
    code, _out, err = run_check(before_path, text)
    assert_clean(code, err)


def test_the_fuzzing_tried_every_shape() -> None:
    """Run after the fuzz tests (file order): each new shape was generated, and some texts reached the checker."""
    if COUNTS["library"] == 0:
        pytest.skip("the fuzz tests did not run in this session")
    for shape in ("steal-without-to", "whitespace", "drop-clause", "leading ;", "read, then judged"):
        assert COUNTS[shape] > 0, COUNTS
    print(f"\nsteps fuzzing: {dict(COUNTS)}")


# ------------------------------------------------------------ the command line
def run_check(before: Path, text: str) -> tuple[int, str, str]:
    """``rummy check BEFORE -`` in this process, the steps on stdin."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", str(before), "-"])
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def assert_clean(code: int, err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err
    assert code in (0, 1, 2), (code, err)
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("rummy: "), err


# ------------------------------------------------------- the three cases of the issue
@pytest.mark.parametrize(("path", "text"), STEAL_WITHOUT_TO, ids=lambda v: v.stem if isinstance(v, Path) else None)
def test_a_steal_without_to_is_a_step_error_in_every_game_but_robber(path: Path, text: str) -> None:
    with pytest.raises(PositionError) as raised:
        read_steps(before_of(path), text, "turn.txt")
    assert str(raised.value) == f"turn.txt: {STEAL_NEEDS_TO} (in {text!r})"
    code, out, err = run_check(path, text + "\n")
    assert (code, out, err) == (2, "", f"rummy: <stdin>: {STEAL_NEEDS_TO} (in {text!r})\n")


def test_a_robber_steal_needs_no_to() -> None:
    robber = PUZZLE_EXAMPLES / "robber.toml"
    after = read_steps(before_of(robber), "steal AS KS from ann/1; discard 2C")
    assert check(before_of(robber), after).legal
    code, _, err = run_check(robber, "steal AS KS from ann/1; discard 2C")
    assert code == 0, err


def test_the_issue_command_exits_2_in_a_shell() -> None:
    """``echo 'steal 7H from bob/1' | rummy check puzzles/examples/house-classic.toml -``, as a shell runs it."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "RUMMY_DEBUG")}
    result = subprocess.run([sys.executable, "-m", "rummy", "check", "puzzles/examples/house-classic.toml", "-"],
                            cwd=REPO_ROOT, input="steal 7H from bob/1\n", capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"rummy: <stdin>: {STEAL_NEEDS_TO} (in 'steal 7H from bob/1')\n"


@pytest.mark.parametrize("run", [131_000, (1 << 20) - 5])
def test_a_long_run_of_whitespace_is_one_space(run: int) -> None:
    """``play`` + 131,000 spaces + ``x`` (and a file of them as large as the command line reads, 1 MiB) reads as ``play x``."""
    text = "play" + " " * run + "x"
    with pytest.raises(PositionError) as raised:
        read_steps(before_of(HOUSE), text, "turn")
    assert str(raised.value) == "turn: step 1: unknown card 'x' (in 'play x')"
    code, _out, err = run_check(HOUSE, text)
    assert (code, err) == (2, "rummy: <stdin>: step 1: unknown card 'x' (in 'play x')\n")


def test_a_step_longer_than_any_turn_needs_is_refused_before_it_is_matched() -> None:
    text = "play " + "7H," * MAX_STEP_CHARS + " to new/1"
    with pytest.raises(PositionError, match=f"step 1: a step of {len(text):,} characters; a step is at most 2,048"):
        read_steps(before_of(HOUSE), text)
    # the longest best ever prints, and a step naming 256 cards, are well within it
    assert len("play " + " ".join(["*=10H"] * 256) + " to new/1") < MAX_STEP_CHARS


@pytest.mark.parametrize("text", ["; play 2C 2H to new/1; discard KS", ";\nplay 2C 2H to new/1\ndiscard KS",
                                  "# my turn\n; play 2C 2H to new/1; discard KS"])
def test_a_leading_semicolon_is_steps_for_check_and_the_page_alike(text: str) -> None:
    before = before_of(HOUSE)
    assert looks_like_steps(text)
    after = read_steps(before, text)
    assert after.table_key() == read_steps(before, "play 2C 2H to new/1; discard KS").table_key()
    read_all_ways(HOUSE.read_text(encoding="utf-8"), before, text)
    code, out, err = run_check(HOUSE, text)
    assert code in (0, 1) and err == "" and out, (code, out, err)


def test_a_bare_semicolon_is_steps_without_a_step() -> None:
    with pytest.raises(PositionError, match="no steps"):
        read_steps(before_of(HOUSE), " ;; \n")
    assert run_check(HOUSE, ";")[2] == "rummy: <stdin>: no steps: write them like 'play 7H 8H 9H to new/1; discard KS'\n"


def test_a_position_given_as_steps_is_refused_by_the_steps_report() -> None:
    before_text = HOUSE.read_text(encoding="utf-8")
    for text, word in ((before_text, "'rules'"), ('{"after": {}}', "'{\"after\":'"), ("fly KD to the moon", "'fly'")):
        assert not looks_like_steps(text)
        with pytest.raises(RummyError) as raised:
            steps_report(before_text, text)
        assert str(raised.value).startswith(f"steps: not a turn written as steps: {word} is no step"), str(raised.value)


# ------------------------------------------------------------- bounded work
class RecordingPattern:
    """A compiled pattern that notes the text each call hands it."""

    def __init__(self, pattern: re.Pattern[str], seen: list[str]) -> None:
        self.pattern = pattern
        self.seen = seen

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.pattern, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            self.seen.append(args[1] if name in ("sub", "subn") else args[0])
            return method(*args, **kwargs)

        return call


HOSTILE = [
    "play" + " " * 131_000 + "x",
    "play" + "\t \u3000" * 40_000 + "7H to new/1",
    "steal" + " , paying" * 20_000 + " for the steal of 7H",
    "play 2C" + " ,   paying" * 150 + " for the steal of 7H to new/1",  # under the cap once collapsed
    "meld 2S" + " as" * 50_000 + " new/1",
    "meld 2S" + "  as" * 600 + " new/1",
    "replace the joker of " + "a/1" * 600 + " with 3D",
    "steal " + "x/1" * 600 + " by adding AS",
    "1." + " " * 100_000 + "replace the joker of" + " " * 100_000 + "bob/1 with 3D",
    "(" * 100_000 + "ann's space" + ")" * 100_000,
    "play " + "7H" * 100_000 + " to new/1",
    "; ".join(["play 2C to new/1"] * 300),
    " ;" * 100_000,
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_every_pattern_sees_one_collapsed_step_at_most_max_step_chars_long(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """No pattern of the reader ever sees more than a step, whitespace collapsed: its work is bounded
    whatever the input (a long run of spaces once made ``,?\\s*paying`` quadratic)."""
    seen: list[str] = []
    patterns = {name: value for name, value in vars(steps_notation).items() if isinstance(value, re.Pattern)}
    assert len(patterns) >= 10
    for name, pattern in patterns.items():
        monkeypatch.setattr(steps_notation, name, RecordingPattern(pattern, seen))
    monkeypatch.setattr(steps_notation, "re", None)  # and no uncompiled re.match(...) on the side
    with contextlib.suppress(RummyError):
        read_steps(before_of(HOUSE), text)
    looks_like_steps(text)
    assert all(len(piece) <= MAX_STEP_CHARS for piece in seen), max(map(len, seen))
    assert not any(re.search(r"\s\s|^\s|\s$", piece) for piece in seen)  # collapsed: no run to backtrack over
    # and the patterns together see no more than the text itself, a few times over
    assert sum(map(len, seen)) <= 12 * min(len(text), MAX_STEPS * MAX_STEP_CHARS)
