"""Hints for a puzzle, from its answer, four levels deep, each telling a little more.

1. what to aim for: the target gain (or "play all N tiles") and how many hand
   cards the best turn plays;
2. which kinds of move the best turn needs (a steal, freeing a joker,
   splitting a play or moving table cards, new plays, lay-offs), in words;
3. which plays of the table it touches (named as before the turn);
4. its first step, in the notation of turns written as steps (rummy.turn_steps).

``hints(position, after, gain, level)`` gives the levels up to ``level``,
never more. The answer comes from the caller (``rummy hint`` reads the
puzzle's ``NAME.solution.json``, checked by the checker, or solves).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import cards_notation
from .plan import HAND, Plan, make_plan
from .plays import PlayName, readings
from .position import Position
from .turn_steps import step_text
from .vocabulary import Action, PuzzleKind
from .words import number

LEVELS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Hint:
    level: int
    text: str

    def to_data(self) -> dict[str, object]:
        return {"level": self.level, "text": self.text}


def hints(before: Position, after: Position, gain: float | int, level: int) -> list[Hint]:
    """The hints of levels 1 to ``level`` for the best turn from ``before`` to ``after``."""
    if level not in LEVELS:
        raise ValueError(f"a hint level is 1 to 4, got {level}")
    plan = make_plan(before, after)
    makers = (_aim, _moves, _plays_touched, _first_step)
    return [Hint(k, makers[k - 1](before, after, plan, gain)) for k in LEVELS[:level]]


def hand_cards_played(before: Position, after: Position) -> int:
    """Hand cards (jokers freed into the hand included) that the turn puts on the table."""
    turn = after.turn
    freed = len(turn.replaced or ()) if turn is not None else 0
    discarded = 1 if turn is not None and turn.discard is not None else 0
    return len(before.mover.hand or ()) + freed - len(after.mover.hand or ()) - discarded


def _aim(before: Position, after: Position, plan: Plan, gain: float | int) -> str:
    unit = "tiles" if before.rules.deck == "tiles" else "cards"
    held = len(before.mover.hand or ())
    played = hand_cards_played(before, after)
    statement = before.puzzle
    target = statement.target if statement is not None else gain
    if statement is not None and statement.kind == PuzzleKind.PLAY_ALL:
        return f"Aim: play all {held} {unit} of your hand."
    if before.rules.family.shared_table:
        aim = f"Aim: play {number(target)} {unit}, the most any turn plays"
    else:
        aim = f"Aim: a gain of {number(target)}, the most any turn scores"
    return f"{aim}; the best turn plays {played} of your {held} hand {unit}."


def _moves(before: Position, after: Position, plan: Plan, gain: float | int) -> str:
    family = before.rules.family
    card = "tile" if before.rules.deck == "tiles" else "card"
    words: list[str] = []

    def say(text: str) -> None:
        if text not in words:
            words.append(text)

    actions = {step.action for step in plan.steps}
    if Action.REPLACE_JOKER in actions:
        say(f"freeing a joker from the table (your {card} takes its place)")
    if Action.STEAL in actions:
        if family.plays_change_owner:
            say("a steal (growing another player's play so that it becomes yours)")
        else:
            say(f"a steal (a {card} from another player's space, paid with a {card} from your hand)")
    moves = [step for step in plan.steps if step.action == Action.MOVE]
    if moves:
        split = _split_plays(before, plan)
        if split:
            say(f"splitting {split} on the table")
        say(f"moving {card}s that are already on the table to another play")
    if Action.MELD in actions:
        say("melding: laying new plays from your hand" + ("" if before.mover.melded else " (your first meld)"))
    melds = {step.target for step in plan.steps if step.action == Action.MELD}
    new_plays = {step.target for step in plan.steps
                 if step.action == Action.PLAY and (step.target or "").startswith("new/") and step.target not in melds}
    if new_plays:
        count = len(new_plays)
        more = " more" if melds else ""
        say(f"{('one more' if melds else 'a') + ' new play' if count == 1 else f'{count}{more} new plays'}"
            " from your hand")
    if any(step.action == Action.PLAY and not (step.target or "").startswith("new/") for step in plan.steps):
        say(f"adding {card}s from your hand to plays already on the table")
    if Action.LAY_OFF in actions:
        say(f"laying off {card}s from your hand on plays on the table")
    if not words:
        return "Moves needed: none on the table; the best turn only " + (
            "discards." if Action.DISCARD in actions else "passes.")
    if Action.DISCARD in actions:
        words.append("then a discard")
    return "Moves needed: " + "; ".join(words) + "."


def _split_plays(before: Position, plan: Plan) -> str:
    """``a run``, ``a book``, ``2 plays``: before-plays split up, their cards ending in two or more plays
    with at least two of them each (a card taken off a play does not split it); or ''."""
    sent: dict[str, Counter[str]] = {}
    for step in plan.steps:
        if step.action in (Action.MOVE, Action.STEAL) and step.source and step.source != HAND and step.target:
            sent.setdefault(step.source, Counter())[step.target] += len(step.cards)
    named = before.named_plays()
    split = []
    for source, targets in sent.items():
        play = named.get(PlayName(source))
        if play is None:
            continue
        places = Counter(targets)
        places[source] += len(play.cards) - sum(targets.values())
        if sum(1 for n in places.values() if n >= 2) >= 2:
            split.append(play)
    if not split:
        return ""
    if len(split) > 1:
        return f"{len(split)} plays"
    found = readings(split[0].cards, before.rules)
    return f"a {found[0].kind}" if found else "a play"


def _plays_touched(before: Position, after: Position, plan: Plan, gain: float | int) -> str:
    # Each play of the table before the turn, in the order the plan touches them, with its cards as the
    # step that first names it carries them (make_plan): a real table has no numbers on its plays.
    deck = before.rules.deck
    touched = [f"{name} ({cards_notation(cards, deck)})" for step in plan.steps for name, cards in step.named]
    if not touched:
        return "Plays to touch: none of the table's; the best turn lays only new plays from your hand."
    return "Plays to touch: " + ", ".join(touched) + " (as rummy show names them)."


def _first_step(before: Position, after: Position, plan: Plan, gain: float | int) -> str:
    if not plan.steps:
        return "First step: none; the best turn makes no move."
    return f"First step: {step_text(plan.steps[0], before)}"
