"""Robber Rummy turns (rules.md §7): owned plays that only grow, stolen by adding to them.

A turn that starts in the draw phase (``judge_robber_drawn_turn``, Robber's
``Family.draw_judge``) is first turned into a play-phase turn
(``apply_draw``): taking the pile puts the whole pile into the hand, and its
top card must be melded at once, with hand cards only or onto a table play;
drawing from the stock adds one card (the listed top card, or the one card
that appears in the end state) and leaves the stock one card shorter.
Hot and warm cards listed before the draw do not outlive it (as in ``best``).
A random draw answered alone (``best``'s answer with ``after`` null) is
judged by its draw only (``judge_draw_alone``, a wrapper of ``draw_judge.judge_random_draw``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from itertools import combinations
from typing import NotRequired, TypedDict

from ..cards import Card, Deck
from ..plays import PlayName, is_whole
from ..position import DrawTaken, Position
from ..vocabulary import DrawSource, Phase
from .draw_apply import no_such_draw
from .draw_judge import judge_random_draw, random_draw_sources
from .extend import discard_breaches, match_growth
from .facts import TurnFacts, plain_counter
from .play_phase import judge_play_phase
from .verdict import Breach, Verdict

# The draw in a verdict's reading (docs/checker.md): ``from`` the pile with its ``top`` card, or
# the stock with the card ``drawn`` (none when a random draw is judged alone). ``from`` is a keyword.
DrawReading = TypedDict("DrawReading", {
    "draw": DrawSource, "from": DrawSource, "top": NotRequired[str], "drawn": NotRequired[list[str]],
})


class RobberReading(TypedDict):
    """The reading a Robber Rummy verdict reports (with ``draw`` added for a draw-phase turn)."""

    laid: list[PlayName]
    extended: list[PlayName]
    stolen: list[str]
    discard: str | None


def judge_robber(facts: TurnFacts) -> tuple[list[Breach], RobberReading]:
    mover = facts.mover
    before_plays = {name: play.cards for name, play in facts.before.named_plays().items()}
    after_plays = {name: play.cards for name, play in facts.after.named_plays().items()}
    breaches = list(table_card_breaches(facts, before_plays, after_plays))
    growth = match_growth(facts, before_plays, after_plays, same_owner=False)
    breaches += growth.breaches
    steals: list[str] = []
    extended: list[PlayName] = []
    laid: list[PlayName] = []
    for after_name, (origin, added) in growth.grew.items():
        owner = PlayName(after_name).owner
        if origin is None:
            laid.append(after_name)
            if owner != mover:
                breaches.append(Breach("wrong-owner",
                                       f"{after_name} is a new play of the mover's cards, so it belongs to {mover}",
                                       plays=(after_name,)))
            continue
        before_owner = PlayName(origin).owner
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


def table_card_breaches(facts: TurnFacts, before_plays: Mapping[PlayName, tuple[Card, ...]],
                        after_plays: Mapping[PlayName, tuple[Card, ...]]) -> list[Breach]:
    before_cards = plain_counter(c for cards in before_plays.values() for c in cards)
    after_cards = plain_counter(c for cards in after_plays.values() for c in cards)
    left = before_cards - after_cards
    if not left:
        return []
    cards = sorted(left.elements())
    return [Breach("table-card-to-hand", f"{facts.show(cards)} left the table; cards laid down stay in their play",
                   tuple(c.notation(facts.deck) for c in cards))]


# ------------------------------------------------------------------ the draw
def judge_robber_drawn_turn(before: Position, after: Position) -> Verdict:
    """Judge the turn from the draw-phase ``before``: the draw read from the end state
    (``apply_draw``), then the play phase as ``check`` judges it, its gain counted from before the draw."""
    start, draw, draw_breaches = apply_draw(before, after)
    return judge_play_phase(start, after, gain_from=before, draw=draw, draw_breaches=draw_breaches)


def apply_draw(before: Position, after: Position) -> tuple[Position, DrawReading, list[Breach]]:
    """The play-phase position the draw led to, what was drawn, and breaches of the draw itself.

    Which draw: the pile was taken when the pile in ``after`` does not start
    with the pile before (the taker's discard starts a new pile). The one
    ambiguous end state, a pile of one card and a discard of its twin, is
    read by counting: taking the pile adds no card to the mover's hand,
    the table and the pile together; a stock card adds one.
    """
    mover = before.mover
    deck = before.rules.deck
    pile = before.discard_pile
    after_pile = after.discard_pile
    hand = list(mover.hand or ())
    breaches: list[Breach] = []
    took_pile = bool(pile) and (tuple(after_pile[: len(pile)]) != tuple(pile)
                                or _mover_cards(after, before.to_move) == _mover_cards(before, before.to_move))
    if took_pile:
        drawn = list(pile)
        info: DrawReading = {"draw": DrawSource.PILE, "from": DrawSource.PILE, "top": pile[-1].notation(deck)}
        new_pile: tuple[Card, ...] = ()
        stock = before.stock
    else:
        info = {"draw": DrawSource.STOCK, "from": DrawSource.STOCK}
        new_pile = pile
        if before.stock == 0 or before.stock == ():
            breaches.append(Breach("empty-stock",
                                   "the stock is empty: no card can be drawn from it, and the pile was not taken"))
        if isinstance(before.stock, tuple) and before.stock:
            drawn, stock = [before.stock[0]], before.stock[1:]
        else:
            stock = before.stock - 1 if isinstance(before.stock, int) and before.stock > 0 else before.stock
            now = Counter(c.plain() for c in after.table_cards()) \
                + Counter(c.plain() for c in after.player(before.to_move).hand or ()) \
                + Counter(c.plain() for c in after.discard_pile)
            before_mover = Counter(c.plain() for c in before.table_cards()) + Counter(c.plain() for c in hand) \
                + Counter(c.plain() for c in pile)
            appeared = now - before_mover
            drawn = sorted(appeared.elements())[:1]
            allowed = before.unseen_cards()
            if drawn and allowed[drawn[0]] <= 0:
                breaches.append(Breach("conservation", f"{drawn[0].notation(deck)} cannot have come from the stock: "
                                       "every copy is accounted for", (drawn[0].notation(deck),)))
        info["drawn"] = [c.notation(deck) for c in drawn]
        if after.stock != stock:
            breaches.append(Breach("conservation",
                                   f"after drawing one card the stock holds {_stock_text(stock, deck)}, "
                                   f"but the position after the turn shows {_stock_text(after.stock, deck)}"))
            stock = after.stock  # reported here, not again as a change in the play phase
    # Hot and warm are what this turn's draw brought (rules.md §5): before the draw
    # no card of the hand was drawn this turn, and Robber's draws bring none, so
    # temperatures a draw-phase position lists do not carry into the play phase.
    if mover.hand is None:  # a hidden hand: one card more from the stock (seen or not), the pile's cards
        new_mover = replace(mover, hand_count=mover.hand_size + (len(drawn) if took_pile else 1), hot=(), warm=())
    else:
        new_mover = replace(mover, hand=tuple(hand + drawn), hot=(), warm=())
    played = replace(before, phase=Phase.PLAY, discard_pile=new_pile, stock=stock,
                     players=tuple(new_mover if p.name == mover.name else p for p in before.players))
    if took_pile:
        breaches += _top_card_breaches(before, after, pile[-1])
    return played, info, breaches


def _mover_cards(position: Position, mover: str) -> int:
    """Cards on the table, in the mover's hand and in the discard pile."""
    return len(position.table_cards()) + position.player(mover).hand_size + len(position.discard_pile)


def _stock_text(stock: int | tuple[Card, ...] | None, deck: Deck) -> str:
    if isinstance(stock, tuple):
        return " ".join(c.notation(deck) for c in stock) if stock else "no card"
    return "an unknown number of cards" if stock is None else f"{stock} card{'s' if stock != 1 else ''}"


def judge_draw_alone(before: Position, source: object) -> Verdict:
    """A random draw answered without the turn after it, given by its ``from`` alone.

    ``source`` is a ``DrawSource``, or whatever an answer read from a file
    gives there (anything else is bad input). The judging is
    ``rummy.checker.draw_judge.judge_random_draw``, every family's: legal unless the
    stock is empty; a certain draw (the pile, a listed stock) without the turn
    after it is bad input.
    """
    if isinstance(source, str) and source in set(DrawSource):
        return judge_random_draw(before, DrawTaken(DrawSource(source)))
    random_draw_sources(before)  # a position with no draw to judge is bad input first
    raise no_such_draw(before, source)


def _top_card_breaches(before: Position, after: Position, top: Card) -> list[Breach]:
    """The pile's top card is melded at once: with hand cards only, or onto a table play."""
    rules = before.rules
    deck = rules.deck
    hand = Counter(c.plain() for c in before.mover.hand or ())
    before_plays = {name: play.cards for name, play in before.named_plays().items()}
    for play in after.named_plays().values():
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
