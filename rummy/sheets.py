"""Puzzle sheets: a collection written by ``rummy generate`` drawn as SVG, one sheet and one answer sheet a puzzle.

``read_collection(folder)`` reads ``index.json`` and each listed puzzle's
position (``NAME.toml``) and stored answer (``NAME.solution.json``, the
``best --json`` object plus the generator's figures); ``task_words`` states
the task from the puzzle's kind (``Kind.task``, the words of the position
file's first comment) and the position; ``sheet_files`` gives the two
pictures by file name: ``NAME.sheet.svg`` (the task above the position, drawn
by ``rummy.svg.sheet_svg``) and ``NAME.answer.svg`` (``rummy.svg.plan_svg`` of
the stored answer: the plan is built from the solution's ``after`` with
``rummy.plan.make_plan``, the puzzle is not solved again, except a
draw-phase puzzle whose draw cannot be read back from ``after``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import RummyError
from .files import Folder

if TYPE_CHECKING:
    from .answer import Answer
    from .position import Position

INDEX = "index.json"
INDEX_LIMIT = 16 * 1024 * 1024  # bytes, as rummy.generator.collection reads it
FILE_LIMIT = 4 * 1024 * 1024  # bytes of one position or solution file
SHEET_SUFFIX, ANSWER_SUFFIX = ".sheet.svg", ".answer.svg"


@dataclass(frozen=True)
class StoredPuzzle:
    name: str
    kind: str
    tier: str | None
    position: Position
    solution: dict[str, Any]  # the NAME.solution.json object
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
    from .position import Position

    where = str(folder.path / INDEX)
    if folder.kind(INDEX) is None:
        raise RummyError(f"{folder.path}: no {INDEX} (not a puzzle collection written by 'rummy generate')")
    try:
        index = json.loads(_read_text(folder, INDEX, INDEX_LIMIT))
    except json.JSONDecodeError as error:
        raise RummyError(f"{where}: not JSON ({error})") from None
    entries = index.get("puzzles") if isinstance(index, dict) else None
    if not isinstance(entries, list):
        raise RummyError(f"{where}: no list of puzzles")
    puzzles = []
    for number, entry in enumerate(entries, 1):
        at = f"{where}: puzzle {number}"
        if not isinstance(entry, dict):
            raise RummyError(f"{at}: not an object")
        name = _file_name(entry.get("name"), "name", at)
        kind = entry.get("kind")
        if not isinstance(kind, str):
            raise RummyError(f"{at}: no kind")
        tier = entry.get("tier")
        position_name = _file_name(entry.get("position", f"{name}.toml"), "position", at)
        solution_name = _file_name(entry.get("solution", f"{name}.solution.json"), "solution", at)
        position = Position.from_toml(_read_text(folder, position_name, FILE_LIMIT), str(folder.path / position_name))
        solution_source = str(folder.path / solution_name)
        try:
            solution = json.loads(_read_text(folder, solution_name, FILE_LIMIT))
        except json.JSONDecodeError as error:
            raise RummyError(f"{solution_source}: not JSON ({error})") from None
        if not isinstance(solution, dict):
            raise RummyError(f"{solution_source}: not a JSON object")
        puzzles.append(StoredPuzzle(name, kind, tier if isinstance(tier, str) else None, position, solution,
                                    solution_source))
    return puzzles


def task_words(puzzle: StoredPuzzle) -> str:
    """What the sheet asks: "House Rummy, Classic, hand 1 — ann to move: find the best turn (it steals)"."""
    from .generator import kind_for
    from .rules import PRESET_SUMMARIES

    position = puzzle.position
    rules = position.rules
    task = kind_for(puzzle.kind, rules).task
    game = PRESET_SUMMARIES.get(rules.name, rules.name).split(":")[0]
    if position.hand_number is not None:
        game += f", hand {position.hand_number}"
    return f"{game} — {position.to_move} to move: {task}"


def stored_answer(puzzle: StoredPuzzle) -> Answer:
    """The answer the solution file holds, with its plan built from the stored ``after`` (no solving)."""
    from .answer import Answer, best
    from .plan import make_plan
    from .position import Position
    from .solution import Solution
    from .vocabulary import Phase

    data, source = puzzle.solution, puzzle.solution_source
    position = puzzle.position
    try:
        after_data = data.get("after")
        after = Position.from_data(after_data, f"{source}: after", strict=False) if after_data is not None else None
        solution = Solution(status=data["status"], gain=data["gain"], bound=data["bound"], after=after,
                            cards_played=int(data.get("cards_played", 0)), reason=data.get("reason"))
    except (KeyError, TypeError, ValueError) as error:
        raise RummyError(f"{source}: not a 'best --json' answer ({type(error).__name__}: {error})") from None
    plan_from: Position | None = position
    if position.phase == Phase.DRAW and after is not None:
        if not position.rules.family.answers_draw_phase:
            return best(position)  # the draw's start is not in the file: solve again
        from .checker.robber import apply_draw

        plan_from = apply_draw(position, after)[0]
    plan = make_plan(plan_from, after) if after is not None and plan_from is not None else None
    return Answer(position, solution, plan)


def sheet_files(puzzle: StoredPuzzle) -> dict[str, str]:
    """The puzzle's two pictures by file name: the sheet, then the answer sheet."""
    from .svg import plan_svg, sheet_svg

    heading = puzzle.name + (f" ({puzzle.tier})" if puzzle.tier else "")
    return {
        puzzle.name + SHEET_SUFFIX: sheet_svg(puzzle.position, heading, task_words(puzzle)),
        puzzle.name + ANSWER_SUFFIX: plan_svg(stored_answer(puzzle), f"{heading}: the answer"),
    }
