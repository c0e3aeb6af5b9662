"""The checker: is a proposed turn legal? Pure Python, never calls the solver.

``check(before, after)`` judges the end state ``after`` against ``before``
under every rule of rules.md and returns a ``Verdict`` with every breach.
Where the ``[turn]`` declarations are absent, it searches for a reading
that makes the turn legal and says which one it used. A ``before`` in the
draw phase goes to the family's draw judge (``Family.draw_judge``), which
applies the draw and judges the rest of the turn: House Rummy's and lay-off
rummy's is ``draw_judge.judge_drawn_turn``, Robber Rummy's
``robber.judge_robber_drawn_turn``.
"""

from __future__ import annotations

from ..position import Position
from ..vocabulary import Phase
from .codes import BreachCode
from .gain import turn_gain
from .play_phase import judge_play_phase
from .verdict import Breach, Verdict

__all__ = ["Breach", "BreachCode", "Verdict", "check", "turn_gain"]


def check(before: Position, after: Position) -> Verdict:
    """Judge the turn from ``before`` to ``after``. Bad input raises RummyError."""
    draw_judge = before.rules.family.draw_judge_function() if before.phase == Phase.DRAW else None
    if draw_judge is not None:
        return draw_judge(before, after)
    return judge_play_phase(before, after)
