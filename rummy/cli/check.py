"""``rummy check BEFORE AFTER``: is this turn legal? Every breach, coded.

AFTER is a position file with its ``[turn]`` table, the JSON that
``rummy best --json`` prints (its ``after`` key is used), or the turn written
as steps (``play 7H 8H 9H to new/1; discard KS``: rummy.turn_steps), or a draw in
words (``"take 3"``, ``open``, ``pass``, ``"draw 7H"``: rummy.draw_words). Files are
read by content, so ``<(rummy best BEFORE --json)`` works too. A BEFORE with a
``[puzzle]`` table is a puzzle: the verdict says whether the turn solves it.
The answer is rummy.reports.check's; this module reads the files and prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from rummy.cli._options import AfterPath, BeforePath, JsonFlag, TimeLimitOption
from rummy.cli._output import print_answer, print_warnings
from rummy.reports.exit_codes import EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_OK

BestFlag = Annotated[bool, typer.Option("--best",
                                        help="Also solve BEFORE and say how far the turn is from the best one.")]

if TYPE_CHECKING:
    from pathlib import Path

    from rummy.position import Position
    from rummy.reports.check import ReadTurn


def check(before_path: BeforePath, after_path: AfterPath, json_output: JsonFlag = False, compare: BestFlag = False,
          time_limit: TimeLimitOption = 30.0) -> int:
    """Judge a proposed turn: exit 0 when legal, 1 when illegal (every breach listed), 4 when AFTER is
    an answer with no turn in it (nothing to judge).

    A turn written as steps comes from a file or from stdin (-), e.g.:

    echo 'play 7H 8H 9H to new/1; discard KS' | rummy check position.toml -
    """
    from rummy.errors import NoTurnInAnswer
    from rummy.inputs import argument_name
    from rummy.position import Position
    from rummy.reports.check import nothing_to_judge, turn_report
    from rummy.reports.position_warnings import position_warnings

    before = Position.from_file(before_path, mover_may_be_hidden=True)
    print_warnings(position_warnings(before))
    try:
        turn = read_answer(after_path, before)
    except NoTurnInAnswer as empty:  # best's answer "unknown" or "no-legal-turn": said plainly, not as bad input
        data, lines = nothing_to_judge(empty)
        print_answer(data, lines, json_output)
        return EXIT_NO_ANSWER
    where = f"{argument_name(before_path)} -> {turn_argument_name(after_path)}"
    report = turn_report(before, turn, where, compare, time_limit)
    print_answer(report.data, report.lines, json_output)
    return EXIT_OK if report.verdict.legal else EXIT_NEGATIVE


def read_answer(path: Path, before: Position) -> ReadTurn:
    """AFTER read once (stdin or a pipe cannot be read twice), as rummy.reports.check.answer_from_text reads it;
    a draw in words (``"take 3"``) where no file has that name is the turn itself."""
    from rummy.reports.check import answer_from_text

    text, source, kind = turn_text(path)
    return answer_from_text(text, source, kind, before)


TURN_IN_WORDS = "turn"  # how messages name a turn given in words on the command line


def is_turn_in_words(path: Path) -> bool:
    """Whether a turn argument is the turn itself in words (a draw, a whole turn starting with its
    draw: ``"take 2; play 5D 5H 5S to new/1; discard QC"``, or a play phase's steps: ``"play 7H 8H
    9H to new/1; discard KS"``): it starts so, and no file has that name."""
    import os

    from rummy.draw_words import looks_like_draw
    from rummy.steps_notation import looks_like_steps

    typed = str(path)
    # os.path.exists, not Path.exists: a turn too long for a file name is no file (Path.exists raises on it).
    return (looks_like_draw(typed) or looks_like_steps(typed)) and not os.path.exists(typed)


def turn_argument_name(path: Path) -> str:
    """A turn argument as messages name it: ``turn`` for a turn in words (not its words again), else
    as ``rummy.inputs.argument_name`` names a file argument."""
    from rummy.inputs import argument_name

    return TURN_IN_WORDS if is_turn_in_words(path) else argument_name(path)


def turn_text(path: Path) -> tuple[str, str, str]:
    """The text of a turn argument (``check``'s AFTER, ``play``'s TURN), its source name and kind: a file,
    stdin (-), or a turn in words (``"draw 7H"``, ``"take 3"``, ``pass``, ``"take 2; play 5D 5H 5S to
    new/1; discard QC"``) when no file has that name."""
    from rummy.inputs import read_text, source_name, text_kind

    if is_turn_in_words(path):
        return str(path), TURN_IN_WORDS, "toml"
    text = read_text(path)
    return text, source_name(path), text_kind(path, text)
