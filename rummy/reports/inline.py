"""What an answer to an inline position adds: what was assumed (rummy.inline.Assumed), as lines
above the answer and as the ``assumed`` key of its --json object."""

from __future__ import annotations

from dataclasses import replace

from rummy.inline import Assumed
from rummy.position import Position
from rummy.reports.best import Solved
from rummy.reports.lines import Styled, text


def assumed_lines(assumed: Assumed, position: Position) -> list[Styled | str]:
    """One line a fact the command line left to rummy, each naming the option that would change it."""
    lines: list[Styled | str] = []
    if not assumed.rules_given:
        lines.append(_assumed(f"rules {assumed.rules} (--rules to change)"))
    if assumed.melded:
        lines.append(_assumed(f"{assumed.to_move} to move, melded"))
    else:
        cost = position.rules.meld_threshold(position.hand_number)
        first = f": the first meld needs {cost}" if cost else ""
        lines.append(_assumed(f"{assumed.to_move} to move, not melded (--melded if so){first}"))
    count = len(assumed.opponents)
    if not count:
        lines.append(_assumed("no opponents (--players)"))
    elif len(set(assumed.hand_counts)) == 1:
        held = assumed.hand_counts[0]
        each = " each" if count > 1 else ""
        lines.append(_assumed(f"{count} opponent{'s' if count > 1 else ''} ({', '.join(assumed.opponents)}) "
                              f"holding {held} tile{'s' if held != 1 else ''}{each} (--players, --hand-count)"))
    else:
        each = ", ".join(f"{name} {held}" for name, held in zip(assumed.opponents, assumed.hand_counts))
        lines.append(_assumed(f"{count} opponents holding tiles: {each} (--players, --hand-count)"))
    return lines


def _assumed(words: str) -> Styled:
    return text(("assumed: ", "bold"), words)


def with_assumed(solved: Solved, assumed: Assumed, position: Position) -> Solved:
    """The answer with what was assumed: lines under its heading, or the ``assumed`` key."""
    data = {**solved.data, "assumed": assumed.to_data()} if solved.data is not None else None
    lines = solved.lines
    if lines:
        lines = (lines[0], *assumed_lines(assumed, position), *lines[1:])
    return replace(solved, data=data, lines=lines)
