"""Puzzle sheets: a collection written by ``rummy generate`` drawn as SVG, one sheet and one answer sheet a puzzle.

``read_collection(folder)`` reads ``index.json`` (with the generator's
``read_index``) and each listed puzzle's
position (``NAME.toml``) and stored answer (``NAME.solution.json``, the
``best --json`` object plus the generator's figures); ``task_words`` states
the task from the puzzle's kind (``Kind.task``, the words of the position
file's first comment) and the position; ``sheet_files`` gives the two
pictures by file name: ``NAME.sheet.svg`` (the task above the position, drawn
by ``rummy.svg.sheet_svg``) and ``NAME.answer.svg`` (``rummy.svg.plan_svg`` of
the stored answer, read back by ``rummy.answer.answer_from_data``: the plan is
built from the solution's ``after``, a draw-phase answer keeps its draw
options, and the puzzle is not solved again).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import RummyError
from .files import Folder
from .inputs import MAX_FILE_BYTES

if TYPE_CHECKING:
    from .answer import Answer
    from .position import Position

FILE_LIMIT = MAX_FILE_BYTES  # bytes of one position or solution file, as the position reader takes them
SHEET_SUFFIX, ANSWER_SUFFIX = ".sheet.svg", ".answer.svg"


@dataclass(frozen=True)
class StoredPuzzle:
    name: str
    kind: str
    tier: str | None
    position: Position
    solution: Any  # the NAME.solution.json data
    solution_source: str


def _file_name(value: object, what: str, where: str) -> str:
    """A plain file name from the index (no folder part: every file is read from the collection's folder)."""
    if not isinstance(value, str) or not value or os.sep in value or (os.altsep and os.altsep in value) \
            or value in (".", ".."):
        raise RummyError(f"{where}: {what} {value!r} is not a file name in the folder")
    return value


def _read_text(folder: Folder, name: str, limit: int) -> str:
    data = folder.read(name, limit)
    if data is None:
        raise RummyError(f"{folder.path / name}: no such file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RummyError(f"{folder.path / name}: not UTF-8 text") from None


def read_collection(folder: Folder) -> list[StoredPuzzle]:
    """Every puzzle ``index.json`` lists, read (a missing or malformed file is a RummyError naming it)."""
    from .generator.collection import INDEX, read_index
    from .parsing import parse_json
    from .position import Position

    if folder.kind(INDEX) is None:
        raise RummyError(f"{folder.path}: no {INDEX} (not a puzzle collection written by 'rummy generate')")
    puzzles = []
    for number, entry in enumerate(read_index(folder, advice="").values(), 1):
        at = f"{folder.path / INDEX}: puzzle {number}"
        name = _file_name(entry["name"], "name", at)
        kind = entry.get("kind")
        if not isinstance(kind, str):
            raise RummyError(f"{at}: no kind")
        tier = entry.get("tier")
        position_name = _file_name(entry.get("position", f"{name}.toml"), "position", at)
        solution_name = _file_name(entry.get("solution", f"{name}.solution.json"), "solution", at)
        position = Position.from_toml(_read_text(folder, position_name, FILE_LIMIT), str(folder.path / position_name))
        solution_source = str(folder.path / solution_name)
        solution = parse_json(_read_text(folder, solution_name, FILE_LIMIT), solution_source)
        puzzles.append(StoredPuzzle(name, kind, tier if isinstance(tier, str) else None, position, solution,
                                    solution_source))
    return puzzles


def task_words(puzzle: StoredPuzzle) -> str:
    """What the sheet asks: "House Rummy, Classic, hand 1 — ann to move: score the most ..."."""
    from .generator import kind_for
    from .rules import PRESET_SUMMARIES

    position = puzzle.position
    rules = position.rules
    task = kind_for(puzzle.kind, rules).task_for(rules)
    game = PRESET_SUMMARIES.get(rules.name, rules.name).split(":")[0]
    if position.hand_number is not None:
        game += f", hand {position.hand_number}"
    return f"{game} — {position.to_move} to move: {task}"


def stored_answer(puzzle: StoredPuzzle) -> Answer:
    """The answer the solution file holds, planned from its stored ``after`` (nothing is solved)."""
    from .answer import answer_from_data

    return answer_from_data(puzzle.position, puzzle.solution, puzzle.solution_source)


def sheet_files(puzzle: StoredPuzzle) -> dict[str, str]:
    """The puzzle's two pictures by file name: the sheet, then the answer sheet."""
    from .svg import plan_svg, sheet_svg

    heading = puzzle.name + (f" ({puzzle.tier})" if puzzle.tier else "")
    return {
        puzzle.name + SHEET_SUFFIX: sheet_svg(puzzle.position, heading, task_words(puzzle)),
        puzzle.name + ANSWER_SUFFIX: plan_svg(stored_answer(puzzle), f"{heading}: the answer"),
    }
