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

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .answer import Answer
    from .cards import JOKER, Card, cards_notation, parse_cards
    from .checker import Verdict
    from .errors import NotationError, PositionError, RulesError, RummyError
    from .generator import Outcome, Report, Request
    from .plays import Play, Reading, is_whole, readings
    from .position import Attached, Player, Position, Replacement, Turn
    from .rules import PRESETS, Ruleset, preset
    from .solution import Solution, SolverConfig

# The names above are loaded when first asked for (PEP 562): ``import rummy`` runs no module of the package,
# so ``python -m rummy`` reaches the program's Ctrl-C guard (rummy/__main__.py) at once.
_HOMES = {
    "JOKER": "cards", "Card": "cards", "cards_notation": "cards", "parse_cards": "cards",
    "NotationError": "errors", "PositionError": "errors", "RulesError": "errors", "RummyError": "errors",
    "Play": "plays", "Reading": "plays", "is_whole": "plays", "readings": "plays",
    "Attached": "position", "Player": "position", "Position": "position", "Replacement": "position",
    "Turn": "position", "PRESETS": "rules", "Ruleset": "rules", "preset": "rules",
    "Solution": "solution", "SolverConfig": "solution",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


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
