"""Tables whose plays only grow (rearrange = extend_only): Robber, Straight, traditional.

Every play before the turn must lie whole inside exactly one play after it
(plays are never split), and no play after may hold two plays from before
(never merged). What a play gained came from the mover's hand. A reading
here is a matching of the plays before to the plays after.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..assignment import max_weight_assignment
from ..cards import Card
from ..plays import PlayName
from .facts import TurnFacts, plain_counter
from .verdict import Breach


@dataclass(frozen=True)
class Growth:
    """What happened to the plays: ``grew[after] = (before or None, cards added)``."""

    grew: dict[PlayName, tuple[PlayName | None, Counter[Card]]]
    breaches: tuple[Breach, ...]

    def new_plays(self) -> list[PlayName]:
        return [name for name, (origin, _) in self.grew.items() if origin is None]

    def extended(self) -> list[tuple[PlayName, PlayName, Counter[Card]]]:
        return [(name, origin, added) for name, (origin, added) in self.grew.items() if origin is not None and added]


def match_growth(facts: TurnFacts, before_plays: dict[PlayName, tuple[Card, ...]],
                 after_plays: dict[PlayName, tuple[Card, ...]], same_owner: bool,
                 prefer: Callable[[PlayName, PlayName], bool] | None = None) -> Growth:
    """Match each play before to the play after that contains it.

    ``prefer(before, after)``: among matchings of as many plays, those whose
    pairs it approves win (lay-off games: pairs whose cards kept their layers).
    """
    show = facts.show
    before_cards = {name: plain_counter(cards) for name, cards in before_plays.items()}
    after_cards = {name: plain_counter(cards) for name, cards in after_plays.items()}
    matching = _contain_matching(before_cards, after_cards, same_owner, facts.mover, prefer)
    grew: dict[PlayName, tuple[PlayName | None, Counter[Card]]] = {}
    partner_of = {a: b for b, a in matching.items()}
    for a, ac in after_cards.items():
        b = partner_of.get(a)
        grew[a] = (None, Counter(ac)) if b is None else (b, ac - before_cards[b])
    breaches: list[Breach] = []
    for b, bc in before_cards.items():
        if b in matching:
            continue
        holders = [a for a, ac in after_cards.items() if bc & ac]
        merged_into = [a for a in holders
                       if a in partner_of and not bc - (after_cards[a] - before_cards[partner_of[a]])]
        cards = tuple(c.notation(facts.deck) for c in bc.elements())
        if merged_into:
            a = merged_into[0]
            breaches.append(Breach("play-merged", f"{a} holds {b} ({show(sorted(bc.elements()))}) together with "
                                   f"{partner_of[a]}; plays are never merged", cards, (a, b, partner_of[a])))
        else:
            breaches.append(Breach("play-split", f"{b} ({show(sorted(bc.elements()))}) does not lie whole in one play "
                                   "after the turn"
                                   f"{' (its cards are in ' + ', '.join(holders) + ')' if holders else ''}; "
                                   "plays only grow", cards, (b, *holders)))
    return Growth(grew, tuple(breaches))


def _contain_matching(before_cards: dict[PlayName, Counter[Card]], after_cards: dict[PlayName, Counter[Card]],
                      same_owner: bool, mover: str,
                      prefer: Callable[[PlayName, PlayName], bool] | None = None) -> dict[PlayName, PlayName]:
    """Before play -> after play containing it: as many plays matched as possible, then the
    readings whose owners are right (a grown play is the mover's, an untouched one keeps its owner)."""
    def owner(name: str) -> str:
        return PlayName(name).owner

    befores, afters = sorted(before_cards), sorted(after_cards)
    # In tenths, so that every weight is a whole number and sums are exact. A pair's preferences
    # below move its weight by less than 320 (up to 100 + 10 + 200 up, 9 down); a base of 320
    # times the most pairs a matching holds makes one more matched play outweigh them all.
    most = min(len(befores), len(afters))
    base = 10_000 + 320 * most
    # Among equally good matchings, plays alike keep their order (the first before play grew
    # into the first after play): the sum of i * j is largest for pairs in order, and stays
    # below ``order`` so it never outweighs a tenth.
    order = len(befores) * len(afters) * most + 1
    weights: list[list[float]] = [[0] * len(afters) for _ in befores]  # whole numbers (above); the method takes floats
    for i, b in enumerate(befores):
        bc = before_cards[b]
        for j, a in enumerate(afters):
            ac = after_cards[a]
            if bc - ac or (same_owner and owner(a) != owner(b)):
                continue
            grown = ac != bc
            rightful = owner(a) == mover if grown else owner(a) == owner(b)
            weight = base + 100 * rightful + 10 * (owner(a) == owner(b)) - min(sum((ac - bc).values()), 9)
            if prefer is not None and prefer(b, a):
                weight += 200
            weights[i][j] = weight * order + i * j
    return {befores[i]: afters[j] for i, j in max_weight_assignment(weights)}


def discard_breaches(facts: TurnFacts, must_discard: bool) -> list[Breach]:
    """Hot and warm cards and the discard on an extend-only table (rules.md §7, §8; docs/rules.md §7, §8 Decisions).

    - Every hot card ends on the table (``hot-card-unplayed``); it is not
      discarded (``hot-discard``).
    - A warm card is not discarded (``warm-discard``).
    - ``must_discard`` (the hand is not empty after playing): the turn ends
      with exactly one discard, whatever the hand still holds
      (``missing-discard``). Unlike House Rummy, a hand of only warm cards is
      no excuse: such a turn is not legal, the warm cards had to be played.
    - Never more than one card (``extra-discard``).

    Duplicates (two packs): a card counts as hot (warm) only when every copy
    of it in the hand is, so of two copies of which one is hot, one must be
    played and the other may be discarded.
    """
    show = facts.show
    breaches: list[Breach] = []
    mover = facts.before.mover
    warm = plain_counter(mover.warm)
    hot = plain_counter(mover.hot)
    hand_before = plain_counter(mover.hand or ())
    played = (hand_before - plain_counter(facts.hand_after())) & (
        plain_counter(facts.after.table_cards()) - plain_counter(facts.before.table_cards()))
    for card, count in sorted(hot.items()):
        if played[card] < min(count, hand_before[card]):
            breaches.append(Breach("hot-card-unplayed", f"the hot card {show([card])} did not end on the table; "
                                   "a hot card must be played this turn", (card.notation(facts.deck),)))
    if len(facts.discards) > 1:
        breaches.append(Breach("extra-discard",
                               f"{len(facts.discards)} cards discarded ({show(facts.discards)}); a turn ends with one",
                               tuple(c.notation(facts.deck) for c in facts.discards)))
    for card in facts.discards:
        plain = card.plain()
        if hot[plain] and hot[plain] >= hand_before[plain]:
            breaches.append(Breach("hot-discard", f"{show([card])} is hot: it must be played, not discarded",
                                   (card.notation(facts.deck),)))
        elif warm[plain] and warm[plain] >= hand_before[plain]:
            breaches.append(Breach("warm-discard", f"{show([card])} is warm (just taken from the discard pile): "
                                   "it may not be discarded this turn", (card.notation(facts.deck),)))
    if must_discard and not facts.discards:
        left = plain_counter(facts.hand_after())
        shown = show(sorted(left.elements()))
        barred = Counter({card: n for card, n in left.items() if warm[card] and warm[card] >= hand_before[card]})
        if barred and not left - barred:
            why = (f"the hand still holds {shown}, so the turn ends with a discard; {shown} may not be discarded "
                   "(warm), so a turn that keeps only warm cards is not legal: they had to be played")
        else:
            why = f"the hand still holds {shown}, so the turn ends with a discard"
        breaches.append(Breach("missing-discard", why, tuple(c.notation(facts.deck) for c in left.elements())))
    return breaches
