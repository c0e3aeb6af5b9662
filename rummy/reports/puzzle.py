"""A puzzle's statement (``[puzzle]``) as lines on top of ``rummy show``, and for ``rummy hint``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummy.reports.lines import Styled, text

if TYPE_CHECKING:
    from rummy.position import Position, PuzzleStatement


def target_words(statement: PuzzleStatement) -> str:
    """``target: 67`` (a number shown as the file gives it)."""
    target = statement.target
    shown = int(target) if isinstance(target, float) and target.is_integer() else target
    return f"target: {shown}"


def statement_lines(statement: PuzzleStatement) -> list[Styled | str]:
    """The task in bold, then its tier and kind and the target, then the rules note if any."""
    task = statement.task.strip()
    task = task[0].upper() + task[1:]
    lines: list[Styled | str] = [
        text(("puzzle: ", "bold"), (task if task.endswith((".", "!", "?")) else task + ".", "bold")),
        f"{statement.tier}, kind {statement.kind}; {target_words(statement)}",
    ]
    if statement.rules_note:
        lines.append(f"note: {statement.rules_note}")
    return lines


def puzzle_lines(position: Position) -> list[Styled | str]:
    """The statement and a blank line, or nothing for a position that is no puzzle."""
    if position.puzzle is None:
        return []
    return statement_lines(position.puzzle) + [""]
