"""rummy: a constraint-solver assistant for rummy games where the table can be rearranged.

The library in a few names, as python-chess has them::

    import rummy

    position = rummy.Position.from_file("puzzles/examples/house-classic.toml")
    answer = rummy.best(position)            # the best turn, proven (rummy.answer)
    verdict = rummy.check(position, answer.solution.after)   # the independent judge
    report = rummy.generate(request)         # unique, verified puzzles (rummy.generator)

``best``, ``check`` and ``generate`` import their machinery (OR-Tools, the
checker, the generator) only when called, so importing rummy stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .cards import JOKER, Card, cards_notation, parse_cards
from .errors import NotationError, PositionError, RulesError, RummyError
from .plays import Play, Reading, is_whole, readings
from .position import Attached, Player, Position, Replacement, Turn
from .rules import PRESETS, Ruleset, preset
from .solution import Solution, SolverConfig

if TYPE_CHECKING:
    from .answer import Answer
    from .checker import Verdict
    from .generator import Outcome, Report, Request


def best(position: Position, config: SolverConfig | None = None) -> Answer:
    """The best turn of ``position`` and the plan that carries it out (see ``rummy.answer.best``)."""
    from .answer import best as solve_and_plan

    return solve_and_plan(position, config)


def check(before: Position, after: Position) -> Verdict:
    """Is the turn from ``before`` to ``after`` legal? Every breach, with the reading used (``rummy.checker``)."""
    from .checker import check as judge

    return judge(before, after)


def generate(request: Request, on_outcome: Callable[[Outcome, Report], None] | None = None) -> Report:
    """Puzzles with a unique, verified best answer, as ``request`` asks (see ``rummy.generator.generate``)."""
    from .generator import generate as make_puzzles

    return make_puzzles(request, on_outcome)


__all__ = [
    "JOKER", "PRESETS", "Attached", "Card", "NotationError", "Play", "Player", "Position", "PositionError",
    "Reading", "Replacement", "RulesError", "Ruleset", "RummyError", "Solution", "SolverConfig", "Turn", "best",
    "cards_notation", "check", "generate", "is_whole", "parse_cards", "preset", "readings",
]
