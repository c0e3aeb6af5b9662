"""``rummy play``'s answer: the turn read and judged as ``check`` reads and judges it, then carried out.

One code path with ``check`` (issue 27): the turn is read by
``rummy.reports.check.answer_from_text`` (an after-position, a ``best --json``
answer, steps, a draw in words: ``draw 7H``, ``take 3``, ``open``, ``pass``,
``demand QS from bob``) and judged by ``rummy.reports.check.turn_report``; a legal
turn gives ``rummy.next_position.next_position`` of the very after-position judged,
or for a draw in words the position ``turn_report`` judged (the checker's draw code
carried it out: rummy.next_position.drawn_position). The word ``best`` stands for
the best turn: ``best``'s answer as ``best --json`` writes it, read back through the
same reader. Where the turn ended the hand, ``PlayedTurn.ending`` says why and scores it
(``rummy.hand_end``): what ``rummy play`` reports on stderr and a game record keeps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from rummy.errors import NoTurnInAnswer, RummyError
from rummy.hand_end import HandEnd, hand_end
from rummy.next_position import next_position
from rummy.position import Position
from rummy.reports.check import TurnReport, answer_from_text, turn_report
from rummy.vocabulary import Phase

BEST_TURN = "best"  # TURN naming no file but this word: the best turn


@dataclass(frozen=True)
class PlayedTurn:
    """A turn played: check's report on it, and the next position (None when the turn is illegal)."""

    report: TurnReport
    after: Position
    position: Position | None
    ending: HandEnd | None = None  # the hand ended with this turn: why, and its scores (rummy.hand_end)


def best_turn_text(before: Position, time_limit: float) -> str:
    """The best turn as ``best --json`` prints it, for the turn reader (an answer with no turn raises
    NoTurnInAnswer there, as ``check`` says it)."""
    from rummy.answer import answer_data, best
    from rummy.draw_words import DRAW_WORDS
    from rummy.solution import SolverConfig

    reentry = _reentry_best(before, time_limit)
    if reentry is not None:
        return reentry
    data = answer_data(best(before, SolverConfig(time_limit=time_limit)))
    if data.get("status") == "draw" and before.rules.family.draw_judge is None:
        # Tile rummy's best is to play nothing, so the tile is drawn: the turn in words (where the pool is
        # not listed, the reader asks for the tile's name, as for 'draw' typed).
        return DRAW_WORDS[0]
    return json.dumps(data)


def _reentry_best(before: Position, time_limit: float) -> str | None:
    """House Epic's first out re-entering (rules.md §5) has no choice of draw: the stock's top cards, three.
    The best turn is that draw, then the best play from the position it leads to, as one text
    (``draw 3; play ...``). The draw advice does not model the re-entry, so ``best`` from the draw phase is
    not asked. None when the mover is not re-entering."""
    from rummy.answer import answer_data, best
    from rummy.checker.draw_apply import reentry_draw_count
    from rummy.draw_words import read_draw
    from rummy.next_position import drawn_position
    from rummy.solution import SolverConfig

    count = reentry_draw_count(before) if before.phase == Phase.DRAW else 0
    if not count:
        return None
    draw = f"draw {count}"
    start, breaches = drawn_position(before, read_draw(draw, "best"))
    if breaches or start.phase != Phase.PLAY:  # the checker's breaches say why, when the text is judged
        return draw
    data = answer_data(best(start, SolverConfig(time_limit=time_limit)))
    steps = data.get("turn")
    if not isinstance(steps, str) or not steps:
        raise NoTurnInAnswer("best", str(data.get("status", "unknown")))
    return f"{draw}; {steps}"


def play_turn(before: Position, text: str, source: str, kind: str, where: str) -> PlayedTurn:
    """Read the turn from ``text`` as ``check`` reads AFTER, judge it as ``check`` does, and carry out a
    legal one. Bad input (and a turn ``play`` cannot carry out yet) raises RummyError prefixed by ``where``."""
    turn = answer_from_text(text, source, kind, before)
    if turn.after is None and turn.written is None:  # only a draw-phase BEFORE reads a random draw
        raise RummyError(f"{where}: the answer is a random draw alone (its card is not known), which 'play' does "
                         "not carry out yet: draw, then play the turn from the play-phase position")
    report = turn_report(before, turn, where)
    judged = report.judged
    assert judged is not None  # turn_report: an after-position, or the position a draw in words gives
    if not report.verdict.legal:
        return PlayedTurn(report, judged, None)
    if turn.written is not None:  # the draw carried out is the next position
        return PlayedTurn(report, judged, judged, hand_end(judged, before))
    try:
        position = next_position(before, judged, report.verdict.reading)
    except RummyError as error:
        raise RummyError(f"{where}: {error}") from None
    return PlayedTurn(report, judged, position, hand_end(position, before))


__all__ = ["BEST_TURN", "NoTurnInAnswer", "PlayedTurn", "best_turn_text", "play_turn"]
