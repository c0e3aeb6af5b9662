"""``rummy play``'s answer: the turn read and judged as ``check`` reads and judges it, then carried out.

One code path with ``check`` (issue 27): the turn is read by
``rummy.reports.check.answer_from_text`` (an after-position, a ``best --json``
answer, steps) and judged by ``rummy.reports.check.turn_report``; a legal turn
gives ``rummy.next_position.next_position`` of the very after-position judged.
The word ``best`` stands for the best turn: ``best``'s answer as ``best --json``
writes it, read back through the same reader. A draw written as words (``draw 7H``,
``take 3``, ``open``, ``pass``, ``demand QS from bob``: rummy.draw_words) is carried out by
the checker's draw code (rummy.next_position.drawn_position); ``check`` does not read
those words yet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from rummy.checker.verdict import Verdict
from rummy.draw_words import WrittenDraw, looks_like_draw, read_draw
from rummy.errors import NoTurnInAnswer, RummyError, with_prefix
from rummy.next_position import drawn_position, next_position
from rummy.position import Position
from rummy.reports.check import TurnReport, answer_from_text, turn_report, verdict_lines

BEST_TURN = "best"  # TURN naming no file but this word: the best turn


@dataclass(frozen=True)
class PlayedTurn:
    """A turn played: check's report on it, and the next position (None when the turn is illegal)."""

    report: TurnReport
    after: Position
    position: Position | None


def best_turn_text(before: Position, time_limit: float) -> str:
    """The best turn as ``best --json`` prints it, for the turn reader (an answer with no turn raises
    NoTurnInAnswer there, as ``check`` says it)."""
    from rummy.answer import answer_data, best
    from rummy.solution import SolverConfig

    return json.dumps(answer_data(best(before, SolverConfig(time_limit=time_limit))))


def play_turn(before: Position, text: str, source: str, kind: str, where: str) -> PlayedTurn:
    """Read the turn from ``text`` as ``check`` reads AFTER, judge it as ``check`` does, and carry out a
    legal one. Bad input (and a turn ``play`` cannot carry out yet) raises RummyError prefixed by ``where``."""
    if looks_like_draw(text):
        return _drawn(before, read_draw(text, source), where)
    after, draw = answer_from_text(text, source, kind, before)
    if after is None:  # only a draw-phase BEFORE reads a random draw
        raise RummyError(f"{where}: the answer is a random draw alone (its card is not known), which 'play' does "
                         "not carry out yet: draw, then play the turn from the play-phase position")
    report = turn_report(before, after, draw, where)
    if not report.verdict.legal:
        return PlayedTurn(report, after, None)
    try:
        position = next_position(before, after, report.verdict.reading)
    except RummyError as error:
        raise RummyError(f"{where}: {error}") from None
    return PlayedTurn(report, after, position)


def _drawn(before: Position, written: WrittenDraw, where: str) -> PlayedTurn:
    """A draw in words carried out (rummy.next_position.drawn_position); illegal: its breaches, in
    check's lines and JSON."""
    try:
        position, breaches = drawn_position(before, written)
    except RummyError as error:
        raise with_prefix(error, where) from None
    verdict = Verdict(not breaches, breaches, {"draw": written.taken.to_data(before.rules.deck)})
    report = TurnReport(verdict, verdict.to_data(), verdict_lines(verdict))
    return PlayedTurn(report, position, position if verdict.legal else None)


__all__ = ["BEST_TURN", "NoTurnInAnswer", "PlayedTurn", "best_turn_text", "play_turn"]
