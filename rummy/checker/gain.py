"""What a turn is worth, computed from the two end states alone (rules.md §5, §6).

Kept apart from the model so that the solver's claimed gain can be checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from ..cards import Card
from ..family import HOUSE
from ..position import Position
from ..scoring import hand_penalty, penalty, play_score
from ..vocabulary import Objective
from .facts import tiles_played


def side_table_points(position: Position) -> Counter[str]:
    points: Counter[str] = Counter()
    for player in position.players:
        points[player.side] += sum(play_score(p.cards, position.rules) for p in player.plays)
    return points


def house_gain(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Fraction:
    """Change of (mover's side score - opposing sides' scores) as if the hand ended now."""
    rules = before.rules
    mover_side = before.mover.side
    old, new = side_table_points(before), side_table_points(after)
    gain = Fraction(0)
    for side in set(old) | set(new):
        change = new[side] - old[side]
        gain += change if side == mover_side else -change
    hand_after = after.player(before.to_move).hand or ()
    if rules.hand_penalty_at_end:
        gain += hand_penalty(before.mover.hand or (), rules) - hand_penalty(hand_after, rules)
    if not hand_after and before.first_out is None:
        gain += HOUSE.first_out_bonus(before)
    return gain


def tiles_gain(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> int:
    """Tiles played (or, with the objective ``value``, their numbers)."""
    played = tiles_played(before, after)
    if objective == Objective.VALUE:
        return sum(penalty(card, before.rules) * n for card, n in played.items())
    return sum(played.values())


def robber_gain(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> int:
    """Change of (owned points - hand penalty) of the mover's side minus each other side's."""
    def standing(position: Position) -> Counter[str]:
        points = side_table_points(position)
        for player in position.players:
            if player.hand is not None:
                points[player.side] -= hand_penalty(player.hand, position.rules)
        return points

    old, new = standing(before), standing(after)
    mover_side = before.mover.side
    return sum((new[s] - old[s]) * (1 if s == mover_side else -1) for s in set(old) | set(new))


def layoff_gain(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> int:
    """Penalty value of the cards that left the mover's hand (played or discarded)."""
    gone = Counter(c.plain() for c in before.mover.hand or ()) \
        - Counter(c.plain() for c in after.player(before.to_move).hand or ())
    return sum(penalty(card, before.rules) * n for card, n in gone.items())


# Where a gain comes from (formats.md ``breakdown``): lines (what, points) that add up to the gain.
Breakdown = list[tuple[str, Fraction | int]]


def _side_lines(before: Position, after: Position) -> Breakdown:
    """Table points the mover's side won, and what each opposing side lost (House, Robber)."""
    old, new = side_table_points(before), side_table_points(after)
    mover_side = before.mover.side
    lines: Breakdown = [("table points won", new[mover_side] - old[mover_side])]
    for side in sorted((set(old) | set(new)) - {mover_side}):
        names = "+".join(p.name for p in before.players if p.side == side)
        if new[side] != old[side]:
            lines.append((f"taken from {names}" if new[side] < old[side] else f"given to {names}",
                          old[side] - new[side]))
    return lines


def house_breakdown(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Breakdown:
    lines = _side_lines(before, after)
    rules = before.rules
    hand_after = after.player(before.to_move).hand or ()
    if rules.hand_penalty_at_end:
        lines.append(("hand penalty", hand_penalty(before.mover.hand or (), rules) - hand_penalty(hand_after, rules)))
    if not hand_after and before.first_out is None:
        lines.append(("first out", HOUSE.first_out_bonus(before)))
    return lines


def robber_breakdown(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Breakdown:
    lines = _side_lines(before, after)
    rules = before.rules
    hand_after = after.player(before.to_move).hand or ()
    lines.append(("hand penalty", hand_penalty(before.mover.hand or (), rules) - hand_penalty(hand_after, rules)))
    return lines


def tiles_breakdown(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Breakdown:
    what = "value of the tiles played" if objective == Objective.VALUE else "tiles played"
    return [(what, tiles_gain(before, after, objective))]


def layoff_breakdown(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Breakdown:
    rules = before.rules
    discard = after.turn.discard if after.turn is not None else None
    gone = layoff_gain(before, after)
    discarded = penalty(discard, rules) if discard is not None and gone else 0
    return [("cards played from the hand", gone - discarded), ("the discard", discarded)]


def breakdown(before: Position, after: Position, objective: Objective = Objective.DEFAULT,
              drawn: Iterable[Card] = ()) -> Breakdown:
    """Where the turn's gain comes from, by the family's measure: lines that add up to ``turn_gain``.

    A turn that began with a draw is measured from the position right after
    it (``before``), plus one line for what the ``drawn`` cards cost in hand
    (rules.md §5 "Draw advice": the value counts from before the draw).
    """
    rules = before.rules
    lines: Breakdown = list(rules.family.gain_breakdown(before, after, objective))
    cost = rules.family.hand_cost(drawn, rules)
    if cost:
        lines.append(("the drawn cards' penalty", -cost))
    return lines


def turn_gain(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Fraction | int:
    """What the turn from ``before`` to ``after`` is worth, by the family's measure."""
    return before.rules.family.turn_gain(before, after, objective)
