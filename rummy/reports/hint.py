"""``rummy hint``'s answer: the turn to hint from (a stored answer the checker accepts, or the
best turn found) and the hints up to a level (rummy.puzzle_hints), as JSON and lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from rummy.errors import RummyError
from rummy.reports.exit_codes import EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_OK
from rummy.reports.lines import Styled, text
from rummy.vocabulary import Phase, Status

if TYPE_CHECKING:
    from rummy.position import Position
    from rummy.puzzle_hints import Hint

# Why there is no hint when the search found no turn in time (exit 4, as best's "unknown").
NO_TURN_IN_TIME = "no turn found within the time limit (try a longer --time-limit)"

# The turn hinted at: its after-position and gain; or why there is none.
Found: TypeAlias = tuple["Position", float | int] | str


def check_hintable(position: Position, source: str) -> None:
    """Hints are for play-phase puzzles and Robber's draw (the pile's take and the turn it leads to):
    RummyError naming ``source`` otherwise."""
    if position.phase != Phase.PLAY and not position.rules.family.answers_draw_phase:
        raise RummyError(f"{source}: hints are for play-phase puzzles (and Robber Rummy's draw); this position is "
                         f"in the {position.phase} phase")


def hint_list(position: Position, found: Found, level: int) -> list[Hint]:
    """The hints up to ``level`` from the answer ``found`` (none when ``found`` says why there is no answer)."""
    from rummy.puzzle_hints import hints

    if isinstance(found, str):
        return []
    after, gain = found
    return hints(position, after, gain, level)


def hint_lines(found: Found, given: list[Hint]) -> list[Styled | str]:
    """The hints, one a line after its level; or why there is none."""
    if isinstance(found, str):
        return [text(f"no hint: {found}")]
    return [text((f"{h.level}. ", "bold"), h.text) for h in given]


def hint_exit_code(found: Found) -> int:
    """0 with hints, 4 when no turn was found in time, 1 when there is none to hint at."""
    if found == NO_TURN_IN_TIME:
        return EXIT_NO_ANSWER
    return EXIT_NEGATIVE if isinstance(found, str) else EXIT_OK


def stored_answer_from_text(text: str, source: str, position: Position) -> tuple[Position, float | int] | None:
    """A stored answer (``best --json``) read from its text: its after-position and gain, if it is a
    legal turn from ``position`` that reaches the puzzle's target; None (solve instead) otherwise."""
    from rummy.checker import check
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


def solved_answer(position: Position, time_limit: float) -> Found:
    """The best turn's after-position and gain; or why there is none to hint at."""
    from rummy.answer import best
    from rummy.solution import SolverConfig

    solution = best(position, SolverConfig(time_limit=time_limit)).solution
    if solution.status == Status.DRAW:
        return "nothing can be played; draw"
    if solution.status == Status.UNKNOWN:
        return NO_TURN_IN_TIME
    if position.phase == Phase.DRAW and solution.after is None and solution.status in (Status.OPTIMAL, Status.FEASIBLE):
        return "the best draw is the stock: the turn after it depends on the card drawn"
    if solution.status not in (Status.OPTIMAL, Status.FEASIBLE) or solution.after is None:
        return "no legal turn"
    gain = solution.gain
    return solution.after, gain if isinstance(gain, int) else float(gain)
