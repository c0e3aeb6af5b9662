"""``rummy hint PUZZLE [--level 1..4]``: a hint for a puzzle, never more than the level asked.

The answer is the puzzle's ``NAME.solution.json`` beside it when that file
can be read and its ``after`` is a legal turn from the puzzle (the checker
judges it); otherwise the puzzle is solved (``rummy.answer.best``). Level 1
names the idea (the puzzle's themes) and the aim, 2 the key card or play, 3 a
first move that can be made on its own, 4 the whole turn (rummy.puzzle_hints);
each level prints the ones below it too.
The hints are rummy.reports.hint's; this module reads the files and prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummy.cli._options import JsonFlag, TimeLimitOption
from rummy.cli._output import print_answer, print_warnings

if TYPE_CHECKING:
    from rummy.position import Position

PuzzlePath = Annotated[
    Path,
    typer.Argument(help="A puzzle (a position file, usually with a \\[puzzle] table, or its code), or - for stdin.",
                   show_default=False, metavar="PUZZLE"),
]
LevelOption = Annotated[
    int,
    typer.Option("--level", min=1, max=4,
                 help="How much to tell: 1 the idea, 2 the key card or play, 3 a first move, 4 the whole turn."),
]


def hint(puzzle_path: PuzzlePath, level: LevelOption = 1, json_output: JsonFlag = False,
         time_limit: TimeLimitOption = 30.0) -> int:
    """A hint for a puzzle: level 1 the idea, up to level 4 the whole turn (never more than asked)."""
    from rummy.inputs import argument_name
    from rummy.position import Position
    from rummy.reports.hint import Found, check_hintable, hint_exit_code, hint_lines, hint_list, solved_answer
    from rummy.reports.position_warnings import position_warnings

    position = Position.from_file(puzzle_path)
    check_hintable(position, argument_name(puzzle_path))
    print_warnings(position_warnings(position))
    found: Found | None = stored_answer(puzzle_path, position)
    if found is None:
        found = solved_answer(position, time_limit)
    given = hint_list(position, found, level)
    print_answer([h.to_data() for h in given], hint_lines(found, given), json_output)
    return hint_exit_code(found)


def solution_path(puzzle_path: Path) -> Path | None:
    """``NAME.solution.json`` beside ``NAME.toml`` (or ``NAME.json``); None for stdin and a position code."""
    from rummy.inputs import SOLUTION_SUFFIX, is_code_argument

    if str(puzzle_path) == "-" or is_code_argument(puzzle_path):
        return None
    return puzzle_path.with_name(puzzle_path.stem + SOLUTION_SUFFIX)


def stored_answer(puzzle_path: Path, position: Position) -> tuple[Position, float | int] | None:
    """The stored answer's after-position and gain, if the file is there, readable, and a legal turn."""
    import os

    from rummy.errors import RummyError
    from rummy.inputs import read_text, source_name
    from rummy.reports.hint import stored_answer_from_text

    path = solution_path(puzzle_path)
    if path is None or not os.path.isfile(path):
        return None
    try:
        text = read_text(path)
    except RummyError:
        return None  # not a usable answer: solve instead
    return stored_answer_from_text(text, source_name(path), position)
