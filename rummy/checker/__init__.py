"""The checker: is a proposed turn legal? Pure Python, never calls the solver.

``check(before, after)`` judges the end state ``after`` against ``before``
under every rule of rules.md and returns a ``Verdict`` with every breach.
Where the ``[turn]`` declarations are absent, it searches for a reading
that makes the turn legal and says which one it used. A ``before`` in the
draw phase is judged with its draw: Robber Rummy's by ``robber.apply_draw``,
every other family with draws (``Family.draw_sources``) by ``draw``.
"""

from __future__ import annotations

from typing import Any

from ..position import Position
from ..vocabulary import Phase
from .facts import gather_facts
from .gain import breakdown, turn_gain
from .robber import DrawReading, apply_draw
from .codes import BreachCode
from .verdict import Breach, Verdict, dedupe, json_number

__all__ = ["Breach", "BreachCode", "Verdict", "check", "turn_gain"]


def check(before: Position, after: Position) -> Verdict:
    """Judge the turn from ``before`` to ``after``. Bad input raises RummyError."""
    family = before.rules.family
    if before.phase == Phase.DRAW and not family.answers_draw_phase and family.draw_sources:
        from .draw import judge_drawn_turn

        return judge_drawn_turn(before, after)
    original = before
    draw_breaches: list[Breach] = []
    draw: DrawReading | None = None
    if before.phase == Phase.DRAW and family.answers_draw_phase:
        before, draw, draw_breaches = apply_draw(before, after)
    facts = gather_facts(before, after)
    judge = family.judge_function()
    family_breaches, family_reading = judge(facts)
    # The verdict's reading is JSON data whose keys and values depend on the family (Verdict.reading).
    reading: dict[str, Any] = dict(family_reading)
    if draw is not None:
        reading["draw"] = draw
    breaches = dedupe(draw_breaches + facts.breaches + family_breaches)
    reading["gain"] = json_number(turn_gain(original, after))
    reading["breakdown"] = [{"what": what, "points": json_number(points)} for what, points in breakdown(original, after)]
    return Verdict(not breaches, tuple(breaches), reading)
