"""Choosing the best turn on an extend-only table: growths, new plays and the discard.

Both extend-only families (Robber, lay-off rummy) reduce a turn to the same
choice: at most one growth per table play, any number of new plays (each
candidate possibly several times, two-pack decks), every hand card used at
most once, then exactly one discard unless the hand is empty. Each choice
carries a fixed value, so the objective is linear; the families differ only
in the values and in a few limits (``TurnProblem``).

The answer maximises, lexicographically (``Selection.key``):

1. the family's objective (``value`` of the choices plus the discard's),
2. cards leaving the hand (fewer left means closer to going out),
3. new plays laid, where ``prefer_more_plays`` (Robber: two short melds are
   harder to steal than one long one, the source's own tip),
4. the discard's place in ``discard_order`` (a fixed order, so equal
   discards are settled the same way every time).

Small problems are searched exhaustively in Python (a proof of optimality
too, and far cheaper than building a CP-SAT model for a handful of
choices); larger ones go to CP-SAT with one worker, which makes its answer
deterministic.

``TurnProblem.forbidden`` (puzzle uniqueness): count vectors, one entry per
choice, that no answer may take, whatever its discard. The exhaustive search
skips those leaves; CP-SAT gets a no-good per vector (at least one count
differs). The family turns an excluded final table into the vectors that
produce it (``robber.excluded_counts``); with none, nothing changes.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ...cards import Card, cards_within, cards_without
from ...plays import Play
from ...position import Player
from ...vocabulary import SearchStatus
from ..cpsat import cp_model
from ..run import Tuning, run

Cards = tuple[Card, ...]
# How leaves of the exhaustive search compare: value, cards leaving the hand, new plays, the discard's order.
SelectionKey = tuple[int, int, int, int]

ENUMERATION_LIMIT = 400  # leaves of the exhaustive search before CP-SAT is cheaper
# No tuning: CP-SAT's own parameters and seed.
SELECT_TUNING = Tuning(least_seconds=0.05)


class NoTurnInTime(Exception):
    """The time limit passed before CP-SAT found any legal turn (status "unknown")."""


@dataclass(frozen=True)
class Choice:
    """Hand cards ``added`` to table play number ``target``, or a new play (``target`` None)."""

    target: int | None
    added: Cards
    value: int
    copies: int = 1  # how many times an identical new play may be laid


@dataclass(frozen=True)
class TurnProblem:
    hand: Counter[Card]
    choices: tuple[Choice, ...]
    discard_value: Mapping[Card, int]
    discard_order: Mapping[Card, int]
    warm: Counter[Card] = field(default_factory=Counter)
    hot: Counter[Card] = field(default_factory=Counter)
    keep_one: bool = False
    max_new: int | None = None
    growth_needs_new: bool = False
    prefer_more_plays: bool = False
    # Count vectors (times each choice is taken) no answer may repeat, whatever the discard.
    forbidden: frozenset[tuple[int, ...]] = frozenset()


@dataclass(frozen=True)
class Selection:
    counts: tuple[int, ...]  # times each choice is taken
    discard: Card | None
    value: int
    bound: int
    optimal: bool
    method: str
    seconds: float


@dataclass(frozen=True)
class Applied:
    """A selection read back: new plays, cards added to each table play, the mover after."""

    laid: tuple[Play, ...]
    added: dict[int, tuple[Card, ...]]  # table play index -> cards added to it
    cards_played: int
    mover: Player  # hand, hot and warm after the play and the discard; plays untouched


def apply_selection(problem: TurnProblem, selection: Selection, mover: Player) -> Applied:
    laid: list[Play] = []
    added: dict[int, tuple[Card, ...]] = {}
    used: Counter[Card] = Counter()
    for choice, times in zip(problem.choices, selection.counts):
        if not times:
            continue
        used.update({c: n * times for c, n in Counter(choice.added).items()})
        if choice.target is None:
            laid.extend(Play(choice.added) for _ in range(times))
        else:
            added[choice.target] = choice.added
    gone = used + (Counter([selection.discard]) if selection.discard else Counter())
    hand = cards_without(mover.hand or (), gone)
    held = Counter(c.plain() for c in hand)
    after = replace(mover, hand=hand, hot=cards_within(mover.hot, held), warm=cards_within(mover.warm, held),
                    melded=mover.melded or bool(laid))
    return Applied(tuple(laid), added, sum(used.values()), after)


def select(problem: TurnProblem, time_limit: float, force_cp_sat: bool = False) -> Selection | None:
    """The best legal turn, or None when no turn is legal."""
    started = time.perf_counter()
    if not force_cp_sat and _leaf_estimate(problem) <= ENUMERATION_LIMIT:
        return _enumerate(problem, started)
    return _cp_sat(problem, time_limit, started)


def hand_size(problem: TurnProblem) -> int:
    return sum(problem.hand.values())


def _discardable(problem: TurnProblem, card: Card) -> bool:
    # With two copies only the warm copy is barred; the other may go.
    return problem.hand[card] > problem.warm[card]


def _leaf_estimate(problem: TurnProblem) -> int:
    groups: Counter[int] = Counter()
    estimate = 1
    for choice in problem.choices:
        if choice.target is None:
            estimate *= choice.copies + 1
        else:
            groups[choice.target] += 1
        if estimate > ENUMERATION_LIMIT:
            return estimate
    for n in groups.values():
        estimate *= n + 1
        if estimate > ENUMERATION_LIMIT:
            return estimate
    return estimate


# ---------------------------------------------------------------- exhaustive
def _enumerate(problem: TurnProblem, started: float) -> Selection | None:
    by_target: dict[int, list[int]] = {}
    new_indices: list[int] = []
    for i, choice in enumerate(problem.choices):
        if choice.target is None:
            new_indices.append(i)
        else:
            by_target.setdefault(choice.target, []).append(i)
    slots: list[list[tuple[int, int]]] = [[(i, 1) for i in group] for group in by_target.values()]
    for i in new_indices:
        slots.append([(i, n) for n in range(1, problem.choices[i].copies + 1)])
    remaining = Counter(problem.hand)
    counts = [0] * len(problem.choices)
    # The best leaf so far, kept in a list the walk's closures update: its key and (counts, discard, value).
    best: list[tuple[SelectionKey, tuple[tuple[int, ...], Card | None, int]]] = []
    total = hand_size(problem)

    def leaf(value: int, new_count: int, grew: bool, played: int) -> None:
        if problem.forbidden and tuple(counts) in problem.forbidden:
            return
        if problem.growth_needs_new and grew and new_count == 0:
            return
        if problem.max_new is not None and new_count > problem.max_new:
            return
        if any(remaining[c] > problem.hand[c] - n for c, n in problem.hot.items()):
            return
        left = total - played
        if problem.keep_one and left == 0:
            return
        discard = None
        if left:
            options = [c for c in remaining if remaining[c] > 0 and _discardable(problem, c)]
            if not options:
                return
            discard = max(options, key=lambda c: (problem.discard_value[c], problem.discard_order[c]))
            value += problem.discard_value[discard]
        key = _key(problem, value, played + (1 if discard else 0), new_count, discard)
        if not best or key > best[0][0]:
            best[:] = [(key, (tuple(counts), discard, value))]

    def walk(slot: int, value: int, new_count: int, grew: bool, played: int) -> None:
        if slot == len(slots):
            leaf(value, new_count, grew, played)
            return
        walk(slot + 1, value, new_count, grew, played)
        for index, times in slots[slot]:
            choice = problem.choices[index]
            need = Counter(choice.added)
            if any(remaining[c] < n * times for c, n in need.items()):
                continue
            for c, n in need.items():
                remaining[c] -= n * times
            counts[index] = times
            is_new = choice.target is None
            walk(slot + 1, value + choice.value * times, new_count + (times if is_new else 0),
                 grew or not is_new, played + len(choice.added) * times)
            counts[index] = 0
            for c, n in need.items():
                remaining[c] += n * times

    walk(0, 0, 0, False, 0)
    if not best:
        return None
    chosen, discard, value = best[0][1]
    return Selection(chosen, discard, value, value, True, "enumeration", time.perf_counter() - started)


def _key(problem: TurnProblem, value: int, leaving: int, new_count: int, discard: Card | None) -> SelectionKey:
    return (
        value,
        leaving,
        new_count if problem.prefer_more_plays else 0,
        problem.discard_order[discard] + 1 if discard is not None else 0,
    )


# --------------------------------------------------------------------- CP-SAT
def _forbid(model: cp_model.CpModel, problem: TurnProblem, take: list[cp_model.IntVar]) -> None:
    """A no-good per forbidden vector: some choice is taken a different number of times."""
    for vector in sorted(problem.forbidden):
        differs: list[cp_model.BoolVarT] = []  # ortools: a Boolean variable or its negation
        for i, (var, choice, times) in enumerate(zip(take, problem.choices, vector)):
            if choice.copies > 1:
                other = model.new_bool_var(f"x{i}")
                model.add(var != times).only_enforce_if(other)
                differs.append(other)
            else:
                differs.append(~var if times else var)
        model.add_bool_or(differs)  # empty (no choices at all): the one turn is forbidden


def _cp_sat(problem: TurnProblem, time_limit: float, started: float) -> Selection | None:
    model = cp_model.CpModel()
    total = hand_size(problem)
    take = [
        model.new_int_var(0, c.copies, f"c{i}") if c.copies > 1 else model.new_bool_var(f"c{i}")
        for i, c in enumerate(problem.choices)
    ]
    by_target: dict[int, list[cp_model.IntVar]] = {}
    new_vars = []
    growth_vars = []
    for var, choice in zip(take, problem.choices):
        if choice.target is None:
            new_vars.append(var)
        else:
            by_target.setdefault(choice.target, []).append(var)
            growth_vars.append(var)
    for group in by_target.values():
        if len(group) > 1:
            model.add_at_most_one(group)
    uses: dict[Card, list[cp_model.LinearExpr]] = {card: [] for card in problem.hand}
    for var, choice in zip(take, problem.choices):
        for card, n in Counter(choice.added).items():
            uses[card].append(n * var)
    discard = {card: model.new_bool_var(f"d{card}") for card in problem.hand if _discardable(problem, card)}
    played_terms = []
    for card, count in problem.hand.items():
        used = sum(uses[card]) if uses[card] else 0
        model.add(used + discard.get(card, 0) <= count)
        if problem.hot[card]:
            model.add(used >= problem.hot[card])
        played_terms.extend(uses[card])
    played = sum(played_terms) if played_terms else 0
    emptied = model.new_bool_var("emptied")
    model.add(played == total).only_enforce_if(emptied)
    model.add(played <= total - 1).only_enforce_if(~emptied)
    if discard:
        model.add(sum(discard.values()) == 1 - emptied)
    else:
        model.add(emptied == 1)  # nothing may be discarded, so everything must be played
    if problem.keep_one:
        model.add(emptied == 0)
    new_count = sum(new_vars) if new_vars else 0
    if problem.max_new is not None and new_vars:
        model.add(new_count <= problem.max_new)
    if problem.growth_needs_new:
        for var in growth_vars:
            model.add(var <= new_count)
    _forbid(model, problem, take)

    value = sum(c.value * v for c, v in zip(problem.choices, take)) + sum(
        problem.discard_value[c] * v for c, v in discard.items()
    )
    leaving = played + sum(discard.values())
    order = sum((problem.discard_order[c] + 1) * v for c, v in discard.items())
    r1 = total + 2
    r2 = total + 2
    r3 = max(problem.discard_order.values(), default=0) + 2
    plays_term = new_count if problem.prefer_more_plays else 0
    model.maximize(((value * r1 + leaving) * r2 + plays_term) * r3 + order)

    # One worker: the answer is then the same on every run (ties included).
    result = run(model, time_limit, SELECT_TUNING, workers=1)
    seconds = time.perf_counter() - started
    if not result.found:
        if result.status == SearchStatus.INFEASIBLE:
            return None
        raise NoTurnInTime(f"CP-SAT found no turn within {time_limit:g} s")
    counts = tuple(result.value(v) for v in take)
    chosen_discard = next((c for c, v in discard.items() if result.value(v)), None)
    found_value = sum(c.value * n for c, n in zip(problem.choices, counts)) + (
        problem.discard_value[chosen_discard] if chosen_discard is not None else 0)
    bound = int(result.bound) // (r1 * r2 * r3)
    optimal = result.status == SearchStatus.OPTIMAL
    return Selection(counts, chosen_discard, found_value, found_value if optimal else max(bound, found_value),
                     optimal, "cp-sat", seconds)
