"""One text for a whole turn (issue 27; docs/formats.md "Turn text"): what game records store,
what ``check`` and ``play`` read, what ``best`` prints to be copied.

A play-phase turn is its steps (``play 7H 8H 9H to new/1; discard KS``: rummy.turn_steps). A
draw-phase turn is the draw's words (rummy.draw_words) as its first step, then the play's steps::

    take 2; play 5D 5H 5S to new/1; discard QC
    draw 7H; meld 7H 7S 7C; discard 2D
    take; steal 8D from bob/2; discard 4C        (Robber Rummy: the pile taken, its top melded at once)

A draw that ends the turn stands alone: ``pass``, ``demand QS from bob failed``, a tile drawn in
tile rummy (``draw R7``).

``read_whole_turn`` reads a draw followed by steps into the after-position the checker judges as
one draw-phase turn (``[turn] draw`` set, as an after-position from the draw phase); ``turn_text``
writes the text of a legal turn from the after-position and the checker's reading, such that
``rummy.reports.play.play_turn`` reads it back to the same next position. The reader and the
writer live side by side, so they agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .cards import Card, cards_without
from .checker.facts import gather_facts
from .draw_words import WrittenDraw, draw_text
from .errors import PositionError, RummyError
from .next_position import draw_start, reading_draw, turn_start
from .plan import Plan, make_plan
from .plays import Play
from .position import Position, Replacement, Turn
from .turn_steps import read_steps, steps_text
from .vocabulary import Action, DrawSource, Phase, Status

if TYPE_CHECKING:
    from .answer import Answer


def read_whole_turn(before: Position, written: WrittenDraw, steps: str, source: str) -> Position:
    """The after-position of a whole draw-phase turn: the draw ``written`` carried out from
    ``before`` by the checker's own code (rummy.next_position.draw_start), then ``steps`` (the
    second step on) applied from where it leads, with ``[turn] draw`` set to the draw so that the
    checker judges the draw and the play as one turn. Bad input is a PositionError naming ``source``."""
    if before.phase != Phase.DRAW:
        if written.taken.source == DrawSource.STOCK and before.rules.family.draw_judge is None:
            raise PositionError(source, "a tile drawn ends the turn: no step comes after it")
        raise PositionError(source, f"{before.to_move} is in the play phase: the draw is made; give the play's "
                            "steps alone")
    start, _ = draw_start(before, written)  # the draw's breaches: the checker judges the whole turn again
    if start is None:
        ending = "a failed demand" if written.failed else f"'{written.taken.source}'"
        raise PositionError(source, f"{ending} ends the turn: no step comes after it")
    after = read_steps(start, steps, source, first_number=2)
    if before.rules.family.answers_draw_phase:  # Robber: its judge reads the draw back from the end state
        return after
    taken = written.taken
    return replace(after, turn=replace(after.turn or Turn(), draw=taken))


def turn_text(before: Position, after: Position, reading: Mapping[str, Any]) -> str:
    """The canonical one-line text of the legal turn from ``before`` to ``after`` as the checker
    judged it (``reading``: its verdict's reading, the draw it read in the draw phase): the draw's
    words, then the plan's steps (rummy.plan.make_plan, rummy.turn_steps.steps_text), ``; ``
    between them. ``play_turn(before, turn_text(...))`` gives the same next position as the turn."""
    deck = before.rules.deck
    if before.phase == Phase.PLAY:
        return _steps(before, _as_read(before, after, reading))
    start = turn_start(before, after, reading)
    taken, failed = reading_draw(reading)
    if start is None:  # a pass, a failed demand: the draw is the whole turn
        return draw_text(taken, deck, failed=failed)
    after = _as_read(start, after, reading)
    card = None
    if taken.source == DrawSource.STOCK:
        drawn = cards_without(tuple(c.plain() for c in start.mover.hand or ()),
                              Counter(c.plain() for c in before.mover.hand or ()))
        card = drawn[0] if len(drawn) == 1 else None
        if len(drawn) > 1:  # House Epic's re-entry: the three stock cards drawn, named
            return f"{draw_text(taken, deck, cards=tuple(drawn))}; {_steps(start, after)}"
    return f"{draw_text(taken, deck, card)}; {_steps(start, after)}"


def judged_turn_text(before: Position, after: Position) -> str:
    """``turn_text`` of an after-position not judged yet (``best``'s answer, a page's "my move"): the
    checker judges it first; an illegal turn has no text (RummyError naming its breaches)."""
    from .checker import check

    verdict = check(before, after)
    if not verdict.legal:
        raise RummyError("the turn is not legal (" + ", ".join(verdict.codes) + "): it has no turn text")
    return turn_text(before, after, verdict.reading)


def answer_turn_text(answer: Answer) -> str | None:
    """``best``'s answer as one turn text (its ``turn``: formats.md "Turn text"): the draw and the plan
    written as ``play`` reads them back. None where the answer has no turn (no answer in time, no legal
    turn, a random draw alone) or, which would be a bug the checker reports elsewhere, no legal one."""
    solution = answer.solution
    if solution.after is None or solution.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return None
    try:
        return judged_turn_text(answer.position, solution.after)
    except RummyError:
        return None


def turn_text_or_none(before: Position, after: Position, reading: Mapping[str, Any]) -> str | None:
    """``turn_text``, or None for a legal turn that has no text of its own (tile rummy's turn that plays
    nothing is a tile drawn, written ``draw R7`` once the tile is known): ``check``'s ``turn`` key."""
    try:
        return turn_text(before, after, reading)
    except RummyError:
        return None


def _as_read(start: Position, after: Position, reading: Mapping[str, Any]) -> Position:
    """``after`` with its ``[turn]`` declarations as the checker read them where it inferred them (the
    discard, House's meld and jokers replaced before it), so that the plan makes the steps of the very
    turn judged, not another reading of the same end state."""
    turn = after.turn or Turn()
    if not turn.discard_declared:
        discards = gather_facts(start, after).discards
        turn = replace(turn, discard=discards[0] if len(discards) == 1 else None, discard_declared=True)
    meld = reading.get("meld")
    if turn.meld is None and isinstance(meld, list):
        turn = replace(turn, meld=tuple(Play.from_notation(str(play)) for play in meld))
    replaced = reading.get("replaced")
    if turn.replaced is None and isinstance(replaced, list):
        pairs = (str(item).rsplit(" ", 1) for item in replaced)
        turn = replace(turn, replaced=tuple(Replacement(play, Card.from_notation(card)) for play, card in pairs))
    return replace(after, turn=turn)


def _steps(start: Position, after: Position) -> str:
    text = steps_text(_declared_jokers(make_plan(start, after), after), start)
    if not text:
        raise RummyError(f"{start.to_move} plays nothing and discards nothing: no steps to write")
    return text


def _declared_jokers(plan: Plan, after: Position) -> Plan:
    """The plan with each joker a step places written as the after-position declares it (``*=K2``:
    a fixed joker's card, which ``* K3 K4`` leaves open), so that the steps read back to the same
    table; the plan's own steps name jokers plain."""
    declared: dict[str, list[Card]] = {}
    for after_name, plan_name in plan.names.items():
        jokers = [c for c in after.play_with_layoffs(after_name) if c.is_joker and c.stands_for is not None]
        if jokers:
            declared[plan_name] = jokers
    if not declared:
        return plan
    steps = []
    for step in plan.steps:
        queue = declared.get(step.target or "")
        if queue and step.action in _PLACING:
            step = replace(step, cards=tuple(queue.pop(0) if c.is_joker and c.stands_for is None and queue else c
                                             for c in step.cards))
        steps.append(step)
    return replace(plan, steps=tuple(steps))


_PLACING = (Action.MELD, Action.PLAY, Action.MOVE, Action.STEAL)  # steps that put cards into their target


__all__ = ["answer_turn_text", "judged_turn_text", "read_whole_turn", "turn_text", "turn_text_or_none"]
