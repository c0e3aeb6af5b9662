"""Tables whose plays only grow (rearrange = extend_only): Robber, Straight, traditional.

Every play before the turn must lie whole inside exactly one play after it
(plays are never split), and no play after may hold two plays from before
(never merged). What a play gained came from the mover's hand. A reading
here is a matching of the plays before to the plays after.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import networkx as nx

from ..cards import Card
from .facts import TurnFacts, plain_counter
from .verdict import Breach


@dataclass(frozen=True)
class Growth:
    """What happened to the plays: ``grew[after] = (before or None, cards added)``."""

    grew: dict[str, tuple[str | None, Counter]]
    breaches: tuple[Breach, ...]

    def new_plays(self) -> list[str]:
        return [name for name, (origin, _) in self.grew.items() if origin is None]

    def extended(self) -> list[tuple[str, str, Counter]]:
        return [(name, origin, added) for name, (origin, added) in self.grew.items() if origin is not None and added]


def match_growth(facts: TurnFacts, before_plays: dict[str, tuple[Card, ...]], after_plays: dict[str, tuple[Card, ...]],
                 same_owner: bool) -> Growth:
    """Match each play before to the play after that contains it."""
    show = facts.show
    before_cards = {name: plain_counter(cards) for name, cards in before_plays.items()}
    after_cards = {name: plain_counter(cards) for name, cards in after_plays.items()}
    graph = nx.Graph()
    for b, bc in before_cards.items():
        for a, ac in after_cards.items():
            if same_owner and b.split("/")[0] != a.split("/")[0]:
                continue
            if not bc - ac:
                graph.add_edge(("before", b), ("after", a))
    matching = nx.bipartite.maximum_matching(graph, top_nodes=[n for n in graph if n[0] == "before"]) if graph else {}
    grew: dict[str, tuple[str | None, Counter]] = {}
    matched_before: set[str] = set()
    for a, ac in after_cards.items():
        partner = matching.get(("after", a))
        if partner is None:
            grew[a] = (None, Counter(ac))
        else:
            matched_before.add(partner[1])
            grew[a] = (partner[1], ac - before_cards[partner[1]])
    breaches: list[Breach] = []
    for b in before_cards:
        if b in matched_before:
            continue
        bc = before_cards[b]
        holders = [a for a, ac in after_cards.items() if bc & ac]
        if len(holders) > 1:
            breaches.append(Breach("play-split", f"{b} ({show(sorted(bc.elements()))}) was split over {', '.join(holders)}; plays only grow",
                                   tuple(c.notation(facts.deck) for c in bc.elements()), (b, *holders)))
        else:
            breaches.append(Breach("play-merged" if holders and _holds_other_play(holders[0], b, before_cards, after_cards) else "play-split",
                                   f"{b} ({show(sorted(bc.elements()))}) does not lie whole in one play after the turn"
                                   + (f"; {holders[0]} merges it with another play" if holders else ""),
                                   tuple(c.notation(facts.deck) for c in bc.elements()), (b, *holders)))
    for a, ac in after_cards.items():
        inside = [b for b, bc in before_cards.items() if not bc - ac and (not same_owner or b.split("/")[0] == a.split("/")[0])]
        if len(inside) > 1:
            breaches.append(Breach("play-merged", f"{a} holds the plays {', '.join(inside)}; plays are never merged",
                                   plays=(a, *inside)))
    return Growth(grew, tuple(breaches))


def _holds_other_play(after_name, before_name, before_cards, after_cards) -> bool:
    ac = after_cards[after_name]
    return any(b != before_name and before_cards[b] & ac for b in before_cards)


def discard_breaches(facts: TurnFacts, must_discard: bool) -> list[Breach]:
    """One discard when the hand is not empty after playing; warm and hot cards are not discarded."""
    show = facts.show
    breaches: list[Breach] = []
    mover = facts.before.mover
    warm = plain_counter(mover.warm)
    hot = plain_counter(mover.hot)
    hand_before = plain_counter(mover.hand or ())
    if len(facts.discards) > 1:
        breaches.append(Breach("extra-discard", f"{len(facts.discards)} cards discarded ({show(facts.discards)}); a turn ends with one",
                               tuple(c.notation(facts.deck) for c in facts.discards)))
    for card in facts.discards:
        plain = card.plain()
        if hot[plain] and hot[plain] >= hand_before[plain]:
            breaches.append(Breach("hot-discard", f"{show([card])} must be played, not discarded", (card.notation(facts.deck),)))
        elif warm[plain] and warm[plain] >= hand_before[plain]:
            breaches.append(Breach("warm-discard", f"{show([card])} was just taken from the discard pile and may not be discarded this turn",
                                   (card.notation(facts.deck),)))
    if must_discard and not facts.discards:
        left = plain_counter(facts.hand_after()) - warm
        if left:
            breaches.append(Breach("missing-discard", f"the hand still holds {show(sorted(left.elements()))}, so the turn ends with a discard",
                                   tuple(c.notation(facts.deck) for c in left.elements())))
    return breaches
