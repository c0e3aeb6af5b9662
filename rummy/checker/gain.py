"""What a turn is worth, computed from the two end states alone (rules.md §5, §6).

Kept apart from the model so that the solver's claimed gain can be checked.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ..position import Position
from ..scoring import first_out_bonus, hand_penalty, penalty, play_score
from ..vocabulary import Objective


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
        gain += first_out_bonus(before)
    return gain


def tiles_gain(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> int:
    """Tiles played (or, with the objective ``value``, their numbers)."""
    played = Counter(c.plain() for p in after.table for c in p.cards) - Counter(c.plain() for p in before.table for c in p.cards)
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
    gone = Counter(c.plain() for c in before.mover.hand or ()) - Counter(c.plain() for c in after.player(before.to_move).hand or ())
    return sum(penalty(card, before.rules) * n for card, n in gone.items())


def turn_gain(before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Fraction | int:
    """What the turn from ``before`` to ``after`` is worth, by the family's measure."""
    return before.rules.family.turn_gain(before, after, objective)
