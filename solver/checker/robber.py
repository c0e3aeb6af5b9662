"""Robber Rummy turns (rules.md §7): owned plays that only grow, stolen by adding to them.

A turn that starts in the draw phase is first turned into a play-phase turn
(``apply_draw``): taking the pile puts the whole pile into the hand, and its
top card must be melded at once, with hand cards only or onto a table play.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

from ..cards import Card
from ..plays import is_whole
from ..position import Position
from .extend import discard_breaches, match_growth
from .facts import TurnFacts, plain_counter
from .verdict import Breach


def judge_robber(facts: TurnFacts) -> tuple[list[Breach], dict]:
    mover = facts.mover
    before_plays = {name: play.cards for name, play in facts.before.named_plays().items()}
    after_plays = {name: play.cards for name, play in facts.after.named_plays().items()}
    breaches = list(table_card_breaches(facts, before_plays, after_plays))
    growth = match_growth(facts, before_plays, after_plays, same_owner=False)
    breaches += growth.breaches
    steals, extended, laid = [], [], []
    for after_name, (origin, added) in growth.grew.items():
        owner = after_name.split("/")[0]
        if origin is None:
            laid.append(after_name)
            if owner != mover:
                breaches.append(Breach("wrong-owner", f"{after_name} is a new play of the mover's cards, so it belongs to {mover}",
                                       plays=(after_name,)))
            continue
        before_owner = origin.split("/")[0]
        if added:
            extended.append(after_name)
            if before_owner != mover and before_owner != owner:
                steals.append(f"{origin} -> {after_name}")
            if owner != mover:
                breaches.append(Breach("wrong-owner",
                                       f"{origin} gained {facts.show(sorted(added.elements()))} from {mover}'s hand, "
                                       f"so {mover} owns it now, not {owner}", plays=(origin, after_name)))
        elif owner != before_owner:
            breaches.append(Breach("wrong-owner", f"{origin} changed owner to {owner} without a card added to it",
                                   plays=(origin, after_name)))
    must_discard = bool(facts.hand_after())
    breaches += discard_breaches(facts, must_discard)
    return breaches, {"laid": laid, "extended": extended, "stolen": steals,
                      "discard": facts.discards[0].notation(facts.deck) if len(facts.discards) == 1 else None}


def table_card_breaches(facts: TurnFacts, before_plays, after_plays) -> list[Breach]:
    before_cards = plain_counter(c for cards in before_plays.values() for c in cards)
    after_cards = plain_counter(c for cards in after_plays.values() for c in cards)
    left = before_cards - after_cards
    if not left:
        return []
    cards = sorted(left.elements())
    return [Breach("table-card-to-hand", f"{facts.show(cards)} left the table; cards laid down stay in their play",
                   tuple(c.notation(facts.deck) for c in cards))]


# ------------------------------------------------------------------ the draw
def apply_draw(before: Position, after: Position) -> tuple[Position, dict, list[Breach]]:
    """The play-phase position the draw led to, what was drawn, and breaches of the draw itself."""
    mover = before.mover
    pile = before.discard_pile
    after_pile = after.discard_pile
    hand = list(mover.hand or ())
    breaches: list[Breach] = []
    took_pile = bool(pile) and tuple(after_pile[: len(pile)]) != tuple(pile)
    if took_pile:
        drawn = list(pile)
        info = {"draw": "pile", "top": pile[-1].notation(before.rules.deck)}
        new_pile: tuple[Card, ...] = ()
        stock = before.stock
    else:
        info = {"draw": "stock"}
        new_pile = pile
        if isinstance(before.stock, tuple) and before.stock:
            drawn, stock = [before.stock[0]], before.stock[1:]
        else:
            stock = before.stock - 1 if isinstance(before.stock, int) and before.stock > 0 else before.stock
            seen = Counter(c.plain() for c in before.known_cards())
            now = Counter(c.plain() for c in after.table_cards()) + Counter(c.plain() for c in after.player(before.to_move).hand or ()) \
                + Counter(c.plain() for c in after.discard_pile)
            before_mover = Counter(c.plain() for c in before.table_cards()) + Counter(c.plain() for c in hand) \
                + Counter(c.plain() for c in pile)
            appeared = now - before_mover
            drawn = sorted(appeared.elements())[:1]
            allowed = Counter(c.plain() for c in before.rules.deck_cards) - seen
            if drawn and allowed[drawn[0]] <= 0:
                breaches.append(Breach("conservation", f"{drawn[0].notation(before.rules.deck)} cannot have come from the stock: "
                                       "every copy is accounted for", (drawn[0].notation(before.rules.deck),)))
        info["drawn"] = [c.notation(before.rules.deck) for c in drawn]
    new_mover = replace(mover, hand=tuple(hand + drawn), warm=mover.warm)
    played = replace(before, phase="play", discard_pile=new_pile, stock=stock,
                     players=tuple(new_mover if p.name == mover.name else p for p in before.players))
    if took_pile:
        breaches += _top_card_breaches(before, after, pile[-1])
    return played, info, breaches


def _top_card_breaches(before: Position, after: Position, top: Card) -> list[Breach]:
    """The pile's top card is melded at once: with hand cards only, or onto a table play."""
    rules = before.rules
    deck = rules.deck
    hand = Counter(c.plain() for c in before.mover.hand or ())
    before_plays = {name: play.cards for name, play in before.named_plays().items()}
    for name, play in after.named_plays().items():
        cards = Counter(c.plain() for c in play.cards)
        if not cards[top.plain()]:
            continue
        for old in before_plays.values():
            old_cards = Counter(c.plain() for c in old)
            added = cards - old_cards
            if old_cards - cards or not added[top.plain()]:
                continue
            # The top card goes onto the play at once, alone or with hand cards (no other pile card).
            helpers = list(((added - Counter([top.plain()])) & hand).elements())
            for size in range(0, len(helpers) + 1):
                if any(is_whole(tuple(old) + (top,) + combo, rules) for combo in combinations(helpers, size)):
                    return []
        others = list(((cards - Counter([top.plain()])) & hand).elements())
        for size in range(2, len(others) + 1):
            for combo in combinations(others, size):
                if is_whole(tuple(combo) + (top,), rules):
                    return []
    return [Breach("pile-top-not-melded",
                   f"the pile was taken but its top card {top.notation(deck)} was not melded at once "
                   "(in a new play with hand cards only, or onto a play on the table)", (top.notation(deck),))]
