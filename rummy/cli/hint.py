"""``rummy hint PUZZLE [--level 1..4]``: a hint for a puzzle, never more than the level asked.

The answer is the puzzle's ``NAME.solution.json`` beside it when that file
can be read and its ``after`` is a legal turn from the puzzle (the checker
judges it); otherwise the puzzle is solved (``rummy.answer.best``). Level 1
says what to aim for, 2 which kinds of move are needed, 3 which plays to
touch, 4 the first step (rummy.puzzle_hints); each level prints the ones below it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummy.cli.options import JsonFlag, TimeLimitOption

if TYPE_CHECKING:
    from rummy.puzzle_hints import Hint
    from rummy.position import Position

PuzzlePath = Annotated[
    Path,
    typer.Argument(help="A puzzle (a position file, usually with a \\[puzzle] table), or - for stdin.",
                   show_default=False, metavar="PUZZLE"),
]
LevelOption = Annotated[
    int,
    typer.Option("--level", min=1, max=4,
                 help="How much to tell: 1 the aim, 2 the kinds of move, 3 the plays to touch, 4 the first step."),
]

SOLUTION_SUFFIX = ".solution.json"
# Why there is no hint when the search found no turn in time (exit 4, as best's "unknown").
NO_TURN_IN_TIME = "no turn found within the time limit (try a longer --time-limit)"


def hint(puzzle_path: PuzzlePath, level: LevelOption = 1, json_output: JsonFlag = False,
         time_limit: TimeLimitOption = 30.0) -> int:
    """A hint for a puzzle: level 1 the aim, up to level 4 the first step (never more than asked)."""
    from rummy.cli import output
    from rummy.cli.output import text
    from rummy.position import Position

    position = Position.from_file(puzzle_path)
    check_hintable(position, str(puzzle_path))
    found: tuple[Position, float | int] | str | None = stored_answer(puzzle_path, position)
    if found is None:
        found = solved_answer(position, time_limit)
    given = hint_list(position, found, level)
    if json_output:
        output.print_json([h.to_data() for h in given])
    elif isinstance(found, str):
        output.print_lines([text(f"no hint: {found}")])
    else:
        output.print_lines([text((f"{h.level}. ", "bold"), h.text) for h in given])
    if found == NO_TURN_IN_TIME:
        return output.EXIT_NO_ANSWER
    return output.EXIT_NEGATIVE if isinstance(found, str) else output.EXIT_OK


def check_hintable(position: Position, source: str) -> None:
    """Hints are for play-phase puzzles: RummyError naming ``source`` otherwise."""
    from rummy.errors import RummyError
    from rummy.vocabulary import Phase

    if position.phase != Phase.PLAY:
        raise RummyError(f"{source}: hints are for play-phase puzzles; this position is in the {position.phase} phase")


def hint_list(position: Position, found: tuple[Position, float | int] | str, level: int) -> list[Hint]:
    """The hints up to ``level`` from the answer ``found`` (none when ``found`` says why there is no answer)."""
    from rummy.puzzle_hints import hints

    if isinstance(found, str):
        return []
    after, gain = found
    return hints(position, after, gain, level)


def solution_path(puzzle_path: Path) -> Path | None:
    """``NAME.solution.json`` beside ``NAME.toml`` (or ``NAME.json``); None for stdin."""
    if str(puzzle_path) == "-":
        return None
    return puzzle_path.with_name(puzzle_path.stem + SOLUTION_SUFFIX)


def stored_answer(puzzle_path: Path, position: Position) -> tuple[Position, float | int] | None:
    """The stored answer's after-position and gain, if the file is there, readable, and a legal turn."""
    import os

    from rummy.errors import RummyError
    from rummy.reader import read_text, source_name

    path = solution_path(puzzle_path)
    if path is None or not os.path.isfile(path):
        return None
    try:
        text = read_text(path)
    except RummyError:
        return None  # not a usable answer: solve instead
    return stored_answer_from_text(text, source_name(path), position)


def stored_answer_from_text(text: str, source: str, position: Position) -> tuple[Position, float | int] | None:
    """A stored answer (``best --json``) read from its text: its after-position and gain, if it is a
    legal turn from ``position`` that reaches the puzzle's target; None (solve instead) otherwise."""
    from rummy.checker import check
    from rummy.errors import RummyError
    from rummy.end_states import end_state_or_draw_from_text

    try:
        after, _ = end_state_or_draw_from_text(text, source, "json")
        if after is None:
            return None
        verdict = check(position, after)
    except (RummyError, KeyError, ValueError):
        return None  # not a usable answer: solve instead
    gain = verdict.reading.get("gain")
    if not verdict.legal or not isinstance(gain, (int, float)):
        return None
    target = position.puzzle.target if position.puzzle is not None else None
    if target is not None and gain < target - 1e-4:  # a legal turn, but not the best: hint from the best one
        return None
    return after, gain


def solved_answer(position: Position, time_limit: float) -> tuple[Position, float | int] | str:
    """The best turn's after-position and gain; or why there is none to hint at."""
    from rummy.answer import best
    from rummy.solution import SolverConfig
    from rummy.vocabulary import Status

    solution = best(position, SolverConfig(time_limit=time_limit)).solution
    if solution.status == Status.DRAW:
        return "nothing can be played; draw"
    if solution.status == Status.UNKNOWN:
        return NO_TURN_IN_TIME
    if solution.status not in (Status.OPTIMAL, Status.FEASIBLE) or solution.after is None:
        return "no legal turn"
    gain = solution.gain
    return solution.after, gain if isinstance(gain, int) else float(gain)
