"""A turn's meld declared as it stays on the table, where the rules allow it (issue 29 §5).

The solver declares a meld (``[turn] meld``) that is legal but may be taken
apart later in the same turn: House lets meld cards move on once laid, so an
answer may "meld 7S 8S 9S", then move 7S and 8S onto a run of its own space.
A person lays as the meld plays that stay: here the book of nines that ends
on the table. ``meld_as_laid(before, after)`` declares the meld so when the
checker accepts it (the meld cost reached with hand cards only, and no meld
card needed as a steal's payment): the same final table, the same gain, a
plan without the detour. Where no such meld is legal the declaration is kept:
the rules then need the meld laid and moved on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

from .cards import JOKER, Card
from .checker import check
from .plays import Play
from .position import Position
from .scoring import meld_value

# Final plays of the mover's space tried together as the meld, at most (the meld of a House turn
# is one to three plays; a bound keeps the checker calls few).
MOST_MELD_PLAYS = 3


def _cards(plays: tuple[Play, ...] | list[Play]) -> Counter[Card]:
    return Counter(c.plain() for play in plays for c in play.cards)


def meld_as_laid(before: Position, after: Position) -> Position:
    """``after`` with its meld declared as final plays of the mover's space, where one such meld is
    legal; else ``after`` itself (also when the meld already stays as laid, or there is none)."""
    turn = after.turn
    rules = before.rules
    if turn is None or not turn.meld or rules.family.shared_table or rules.family.layoffs_attached \
            or rules.family.plays_change_owner:
        return after
    final = list(after.player(before.to_move).plays)
    if all(any(Counter(p.cards) == Counter(m.cards) for p in final) for m in turn.meld):
        return after
    # Hand cards only: the hand before the turn and the jokers it freed before melding.
    hand = Counter(c.plain() for c in before.mover.hand or ()) + Counter({JOKER: len(turn.replaced or ())})
    candidates = [p for p in final if not _cards([p]) - hand]
    cost = rules.meld_threshold(before.hand_number)
    declared = _cards(list(turn.meld))
    options: list[tuple[int, int, tuple[int, ...]]] = []
    for size in range(1, min(MOST_MELD_PLAYS, len(candidates)) + 1):
        for chosen in combinations(range(len(candidates)), size):
            plays = [candidates[i] for i in chosen]
            cards = _cards(plays)
            if cards - hand or sum(meld_value(p.cards, rules) for p in plays) < cost:
                continue
            # Fewest plays first, then the meld closest to the solver's own.
            options.append((size, -sum((cards & declared).values()), chosen))
    for _, _, chosen in sorted(options):
        trial = replace(after, turn=replace(turn, meld=tuple(candidates[i] for i in chosen)))
        if check(before, trial).legal:
            return trial
    return after
