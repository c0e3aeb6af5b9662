"""Detectors for the ideas of free rearrangement, shared by House and tile rummy (docs/themes.md):
runs into groups and back, a run split, a joker taken from the table and laid again."""

from __future__ import annotations

from collections import Counter

from ..vocabulary import Action
from .turn import TurnView


def reshaped(view: TurnView, was: str, becomes: str) -> bool:
    """A play of shape ``becomes`` after the turn holds natural cards taken from two or more
    different plays that had shape ``was`` before it (two runs feed one group, or two groups one run)."""
    feeders: dict[str, set[str]] = {}
    for arrival in view.arrivals:
        if arrival.card.is_joker or view.shape(view.before_plays[arrival.source]) != was:
            continue
        if view.shape(view.final_plays.get(arrival.target, ())) == becomes:
            feeders.setdefault(arrival.target, set()).add(arrival.source)
    return any(len(sources) >= 2 for sources in feeders.values())


def split_run(view: TurnView) -> bool:
    """A run of the table before whose natural cards end in two or more runs after the turn, at least
    two of them in each: the run was split (to let a card in, or to take a middle card out)."""
    where: dict[str, Counter[str]] = {}
    for name, cards in view.before_plays.items():
        if view.shape(cards) == "run":
            where[name] = Counter()
    if not where:
        return False
    left = {name: Counter(c.plain() for c in cards if not c.is_joker) for name, cards in view.before_plays.items()
            if name in where}
    for arrival in view.arrivals:
        if arrival.source in where and not arrival.card.is_joker:
            where[arrival.source][arrival.target] += 1
            left[arrival.source][arrival.card.plain()] -= 1
    for name, targets in where.items():
        stayed = sum(n for n in left[name].values() if n > 0)
        if name in view.final_plays and view.shape(view.final_plays[name]) == "run" and stayed >= 2:
            targets[name] += stayed
        runs = [target for target, n in targets.items()
                if n >= 2 and view.shape(view.final_plays.get(target, ())) == "run"]
        if len(runs) >= 2:
            return True
    return False


def table_jokers_moved(view: TurnView, outside_meld: bool = False) -> int:
    """Jokers that lay on the table before the turn and end in another play (freed by a replacement,
    moved or stolen). ``outside_meld``: only those that end in a play other than the turn's meld."""
    before = {name: sum(c.is_joker for c in cards) for name, cards in view.before_plays.items()}
    after = {name: sum(c.is_joker for c in cards) for name, cards in view.final_plays.items()}
    left_table = sum(max(0, n - after.get(name, 0)) for name, n in before.items())
    if not outside_meld or not left_table:
        return left_table
    landed = {name: n - before.get(name, 0) for name, n in after.items() if n > before.get(name, 0)}
    from_hand = max(0, sum(landed.values()) - left_table)  # jokers the hand held: they land somewhere too
    meld_plays = {step.target for step in view.steps(Action.MELD)}
    outside = sum(n for name, n in landed.items() if name not in meld_plays)
    return max(0, min(left_table, outside - from_hand))
