"""Solver configuration and answers as plain data (position -> model -> solution)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .position import Position

Status = Literal["optimal", "feasible", "draw", "no-legal-turn", "unknown"]


@dataclass(frozen=True)
class SolverConfig:
    time_limit: float = 30.0
    workers: int = 2
    objective: str = "default"  # tile rummy: "tiles" (default) or "value"
    seed: int = 0
    hint: bool = True
    # Final arrangements (after-positions) no answer may repeat: the model adds a
    # no-good per arrangement (tile rummy; puzzles check uniqueness with it).
    exclude: tuple = ()


@dataclass(frozen=True)
class Solution:
    """The best turn found.

    ``after`` is the full position after the turn, with every ``[turn]``
    declaration written, so the checker can judge it. ``gain`` is rules.md's
    objective for the family (tile rummy: tiles played, or their value with
    ``objective="value"``); ``bound`` the best proven upper bound. "No move"
    is a result: status ``draw`` (tile rummy) or ``no-legal-turn`` with a
    ``reason``; ``after`` is then the position unchanged (or None).
    """

    status: Status
    gain: float
    bound: float
    after: Position | None
    cards_played: int = 0
    reason: str | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
