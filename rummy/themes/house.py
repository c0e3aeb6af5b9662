"""House Rummy's theme detectors (docs/themes.md, "House")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..checker.gain import turn_gain
from ..family import House
from ..plays import readings
from ..scoring import penalty, play_score
from ..vocabulary import Ace, Action, FirstOutBonus, PuzzleKind
from .rearranging import reshaped, split_run, table_jokers_moved
from .turn import TurnView, going_out, took_pile


def joker_reuse(view: TurnView) -> bool:
    # A replace-meld puzzle's task is to free a joker and meld: only a joker laid outside the meld counts.
    return table_jokers_moved(view, outside_meld=view.kind == PuzzleKind.REPLACE_MELD) > 0


def steal_chain(view: TurnView) -> bool:
    """Two steals build on each other: cards stolen from two different plays end in one play, or a
    stolen card ends in a space other than the mover's (given where it pays for what another steal took)."""
    steals = [arrival for arrival in view.arrivals if arrival.stolen]
    if len(steals) < 2:
        return False
    sources: dict[str, set[str]] = {}
    for arrival in steals:
        sources.setdefault(arrival.target, set()).add(arrival.source)
    if any(len(found) >= 2 for found in sources.values()):
        return True
    return any(view.final_space.get(arrival.target) != view.mover for arrival in steals)


def space_scores(view: TurnView) -> tuple[Counter[str], Counter[str]]:
    """Each space's play score before and after the turn."""
    before: Counter[str] = Counter()
    after: Counter[str] = Counter()
    for name, cards in view.before_plays.items():
        before[view.space_of_before(name)] += play_score(cards, view.rules)
    for name, cards in view.final_plays.items():
        after[view.final_space[name]] += play_score(cards, view.rules)
    return before, after


def sacrifice(view: TurnView) -> bool:
    """The turn gives points away: an opponent's space ends worth more than before, or the mover's
    side's spaces end worth less (cards of its own plays given up)."""
    before, after = space_scores(view)
    side = view.side(view.mover)
    ours = [p.name for p in view.before.players if p.side == side]
    theirs = [p.name for p in view.before.players if p.side != side]
    if any(after[name] > before[name] for name in theirs):
        return True
    return sum(after[name] for name in ours) < sum(before[name] for name in ours)



def round_the_corner(view: TurnView) -> bool:
    """A play the turn made or changed reads, every way it reads, as a run through K-A-2."""
    if view.rules.ace != Ace.CIRCULAR:
        return False
    for name, cards in view.final_plays.items():
        was = view.before_plays.get(name)
        if was is not None and Counter(c.plain() for c in was) == Counter(c.plain() for c in cards):
            continue
        found = readings(cards, view.rules)
        if found and all(r.kind == "run" and min(r.positions) <= 13 and max(r.positions) >= 15 for r in found):
            return True
    return False


def warm_or_hot(view: TurnView) -> bool:
    """A hot card had to be played, or a warm card stays in the hand that outweighs the card discarded
    (or stops the discard: only warm cards are left)."""
    mover = view.before.mover
    if mover.hot:
        return True
    return warm_kept(view)


def warm_kept(view: TurnView) -> bool:
    warm = Counter(c.plain() for c in view.before.mover.warm)
    kept = [card for card in view.hand_after if warm[card] > 0]
    if not kept:
        return False
    if not view.discards:
        return bool(view.hand_after) and all(warm[card] > 0 for card in view.hand_after)
    top = max(penalty(card, view.rules) for card in kept)
    return any(top >= penalty(card, view.rules) for card in view.discards)


def first_out_bonus(view: TurnView) -> bool:
    """The turn goes out first and the bonus is at least half of what it gains."""
    rules = view.rules
    if rules.first_out_bonus == FirstOutBonus.NONE or view.before.first_out is not None or not view.went_out:
        return False
    if not isinstance(rules.family, House):
        return False
    bonus = rules.family.first_out_bonus(view.before)
    return bonus > 0 and 2 * bonus >= turn_gain(view.before, view.after)


def meld_steal(view: TurnView) -> bool:
    turn = view.after.turn
    melded = bool(turn and turn.meld) or bool(view.steps(Action.MELD))
    return melded and not view.before.mover.melded and any(arrival.stolen for arrival in view.arrivals)


def into_their_space(view: TurnView) -> bool:
    """Hand cards, or cards of the mover's own space, end in a play of another player's space."""
    for card_target in view.played:
        if view.final_space.get(card_target[1], view.mover) != view.mover:
            return True
    return any(view.space_of_before(a.source) == view.mover and view.final_space.get(a.target) != view.mover
               for a in view.arrivals)


def partner_play(view: TurnView) -> bool:
    """A partner's plays give cards to the turn or take them."""
    partners = view.partners
    if not partners:
        return False
    if any(view.space_of_before(a.source) in partners for a in view.arrivals):
        return True
    return any(view.final_space.get(target) in partners for _, target in view.played)


DETECTORS: dict[str, Callable[[TurnView], bool]] = {
    "joker-reuse": joker_reuse,
    "runs-into-groups": lambda view: reshaped(view, "run", "book"),
    "groups-into-runs": lambda view: reshaped(view, "book", "run"),
    "split-and-insert": split_run,
    "steal-chain": steal_chain,
    "sacrifice": sacrifice,
    "going-out": going_out,
    "round-the-corner": round_the_corner,
    "warm-or-hot-card": warm_or_hot,
    "first-out-bonus": first_out_bonus,
    "meld-steal": meld_steal,
    "into-their-space": into_their_space,
    "partner-play": partner_play,
    "take-the-pile": took_pile,
}

# Themes that only restate a kind's task (docs/themes.md): never given to that kind.
TASK_THEMES: dict[str, frozenset[str]] = {
    PuzzleKind.MELD_STEAL: frozenset({"meld-steal"}),
}
