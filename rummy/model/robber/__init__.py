"""Robber Rummy: the best turn (rules.md §7), in the play phase and the draw phase.

``solve_robber`` is the family's model (``rummy.family.Robber``). The play
phase (``play``) chooses which plays grow, which are stolen and which new
plays are laid, through the extend-only selection (``rummy.model.extend``);
the draw phase (``draw``) compares the discard pile with the stock, each
valued by solving the play phase after it.
"""


from __future__ import annotations

import time

from ...draw_advice.options import stock_draws
from ...errors import RummyError
from ...family import ROBBER
from ...position import Position
from ...solution import Solution, SolverConfig
from ...vocabulary import Phase, Status
from ..clock import Clock
from ..extend.select import NoTurnInTime
from .draw import pile_openings, solve_draw
from .play import excluded_counts, final_table, no_turn_reason, robber_gain, robber_problem, solve_play

__all__ = ["excluded_counts", "final_table", "pile_openings", "robber_gain", "robber_problem", "solve_robber",
           "stock_draws"]


def solve_robber(position: Position, config: SolverConfig) -> Solution:
    ROBBER.require(position.rules, "solve_robber")
    started = time.perf_counter()
    if position.phase == Phase.DRAW:
        if config.exclude:
            raise RummyError("excluding final tables applies to play-phase Robber positions, not the draw phase")
        return solve_draw(position, config, started)
    clock = Clock(started + config.time_limit)
    try:
        answer = solve_play(position, clock, exclude=tuple(config.exclude))
    except NoTurnInTime as error:
        return Solution(Status.UNKNOWN, 0, 0, None, 0, str(error), time.perf_counter() - started, clock.stats())
    if answer is None:
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, no_turn_reason(position, bool(config.exclude)),
                        time.perf_counter() - started, clock.stats())
    return Solution(
        Status.OPTIMAL if answer.optimal else Status.FEASIBLE, answer.gain, answer.bound, answer.after,
        answer.cards_played, None, time.perf_counter() - started, clock.stats(),
    )
