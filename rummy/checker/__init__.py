"""The checker: is a proposed turn legal? Pure Python, never calls the solver.

``check(before, after)`` judges the end state ``after`` against ``before``
under every rule of rules.md and returns a ``Verdict`` with every breach.
Where the ``[turn]`` declarations are absent, it searches for a reading
that makes the turn legal and says which one it used.
"""

from __future__ import annotations

from fractions import Fraction

from ..position import Position
from ..vocabulary import Phase
from .facts import gather_facts
from .gain import turn_gain
from .robber import apply_draw
from .codes import BreachCode
from .verdict import Breach, Verdict

__all__ = ["Breach", "BreachCode", "Verdict", "check", "turn_gain"]


def check(before: Position, after: Position) -> Verdict:
    """Judge the turn from ``before`` to ``after``. Bad input raises RummyError."""
    original = before
    draw_breaches: list[Breach] = []
    draw: dict = {}
    if before.phase == Phase.DRAW and before.rules.family.answers_draw_phase:
        before, draw, draw_breaches = apply_draw(before, after)
    facts = gather_facts(before, after)
    family_breaches, reading = before.rules.family.judge_function()(facts)
    if draw:
        reading["draw"] = draw
    breaches = _dedupe(draw_breaches + facts.breaches + family_breaches)
    gain = turn_gain(original, after)
    if gain is not None:
        reading["gain"] = _number(gain)
    return Verdict(not breaches, tuple(breaches), reading)


def _dedupe(breaches: list[Breach]) -> list[Breach]:
    seen: set[tuple] = set()
    result = []
    for breach in breaches:
        key = (breach.code, breach.message)
        if key not in seen:
            seen.add(key)
            result.append(breach)
    return result


def _number(value) -> int | float:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 4)
    return value
