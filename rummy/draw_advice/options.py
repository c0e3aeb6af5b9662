"""Every draw a player may make, and where each leads (rules.md §5 "Draw advice").

A ``Draw`` is one option of formats.md's ``options``: what is taken, and its
``outcomes``, the play-phase positions it may lead to with their weights
(one for a certain draw, one per distinct unseen card for the stock, none
for a pass). A demand's ``probability`` is the chance that it succeeds; on
failure the turn ends at gain 0.

Temperatures (rules.md §5): a stock card is cold; from the discard pile the
bottom card taken is hot, the top one (of two or more) warm, the others warm
where ``middle_discards_warm`` (Epic), else cold; lay-off rummy takes only
the top card, which may not be discarded again (warm); the opened upcard is
warm; a demanded card is hot.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

from ..cards import Card, cards_without
from ..position import DrawTaken, Player, Position
from ..vocabulary import DrawSource, Phase


@dataclass(frozen=True)
class Outcome:
    start: Position  # the play-phase position right after the draw
    drawn: tuple[Card, ...]  # the cards it put in the mover's hand
    weight: int = 1  # the stock: the unseen copies of its card


@dataclass(frozen=True)
class Draw:
    taken: DrawTaken
    cards: tuple[Card, ...]  # known before drawing, top first (a demand names its card in ``taken``)
    outcomes: tuple[Outcome, ...]
    probability: Fraction = Fraction(1)  # a demand's chance of success

    @property
    def random(self) -> bool:
        """The card is unknown until drawn: an unlisted stock, or a demand that may fail."""
        return len(self.outcomes) > 1 or (self.taken.source == DrawSource.STOCK and not self.cards) \
            or self.probability < 1


def house_draws(position: Position) -> list[Draw]:
    """House Rummy: the stock (or, while it shows its upcard, open and pass), every depth of the
    discard pile, and in Epic (``demand``) every card another player may hold."""
    rules = position.rules
    draws: list[Draw] = []
    if position.upcard is not None:
        upcard = position.upcard.plain()
        opened = _with_drawn(replace(position, upcard=None), (upcard,), warm=(upcard,))
        draws.append(Draw(DrawTaken(DrawSource.OPEN), (upcard,), (Outcome(opened, (upcard,)),)))
        draws.append(Draw(DrawTaken(DrawSource.PASS), (), ()))
    else:
        stock = stock_draw(position)
        if stock is not None:
            draws.append(stock)
    pile = position.discard_pile
    for take in range(1, len(pile) + 1):
        taken = tuple(c.plain() for c in reversed(pile[-take:]))  # top first
        bottom, top, middle = taken[-1], taken[0] if take > 1 else None, taken[1:-1]
        warm = ((top,) if top is not None else ()) + (middle if rules.middle_discards_warm else ())
        start = _with_drawn(replace(position, discard_pile=pile[:-take]), taken, hot=(bottom,), warm=warm)
        draws.append(Draw(DrawTaken(DrawSource.DISCARD, take=take), taken, (Outcome(start, taken),)))
    if rules.demand:
        draws += demand_draws(position)
    return draws


def layoff_draws(position: Position) -> list[Draw]:
    """Lay-off rummy: the stock, or the discard pile's top card (which may not be discarded again)."""
    draws: list[Draw] = []
    stock = stock_draw(position)
    if stock is not None:
        draws.append(stock)
    if position.discard_pile:
        top = position.discard_pile[-1].plain()
        start = _with_drawn(replace(position, discard_pile=position.discard_pile[:-1]), (top,), warm=(top,))
        draws.append(Draw(DrawTaken(DrawSource.DISCARD, take=1), (top,), (Outcome(start, (top,)),)))
    return draws


def stock_draw(position: Position) -> Draw | None:
    """The top stock card: known where the stock is listed, else any unseen card (weighted by its copies)."""
    draws = stock_draws(position)
    if not draws:
        return None
    outcomes = tuple(Outcome(after_stock_draw(position, card), (card,), weight) for card, weight in draws)
    known = (draws[0][0],) if isinstance(position.stock, tuple) else ()
    return Draw(DrawTaken(DrawSource.STOCK), known, outcomes)


def stock_draws(position: Position) -> list[tuple[Card, int]]:
    """The cards the stock may give, each with its weight (unseen copies)."""
    stock = position.stock
    if isinstance(stock, tuple):
        return [(stock[0].plain(), 1)] if stock else []
    if stock == 0:
        return []
    return sorted(position.unseen_cards().items())


def after_stock_draw(position: Position, card: Card) -> Position:
    """The play-phase position after drawing ``card`` from the stock: in the hand
    (cold), and the stock one card shorter (a listed stock loses its top card)."""
    stock = position.stock
    if isinstance(stock, tuple):
        stock = stock[1:]
    elif isinstance(stock, int) and stock > 0:
        stock -= 1
    return _with_drawn(replace(position, stock=stock), (card,))


def demand_draws(position: Position) -> list[Draw]:
    """Every demand with a chance of success: a card of a known hand (certain), or any unseen
    card from a hidden hand, with probability hand size x unseen copies / unseen cards.
    A player's last card is not demanded (rules.md §5)."""
    draws: list[Draw] = []
    unseen = position.unseen_cards()
    total = sum(unseen.values())
    for player in position.players:
        if player.name == position.to_move or player.hand_size <= 1:
            continue
        if player.hand is not None:
            chances = {card: Fraction(1) for card in sorted({c.plain() for c in player.hand})}
        elif total:
            chances = {card: Fraction(player.hand_size * copies, total) for card, copies in sorted(unseen.items())}
        else:
            chances = {}
        for card, chance in chances.items():
            if chance > 0:
                asked = _without_card(player, card)
                start = _with_drawn(position.replace_player(asked), (card,), hot=(card,))
                draws.append(Draw(DrawTaken(DrawSource.DEMAND, card=card, player=player.name), (),
                                  (Outcome(start, (card,)),), min(chance, Fraction(1))))
    return draws


def _without_card(player: Player, card: Card) -> Player:
    if player.hand is not None:
        return replace(player, hand=cards_without(player.hand, Counter([card])))
    return replace(player, hand_count=(player.hand_count or 0) - 1)


def _with_drawn(position: Position, cards: tuple[Card, ...], hot: tuple[Card, ...] = (),
                warm: tuple[Card, ...] = ()) -> Position:
    """``position`` in the play phase with ``cards`` added to the mover's hand, hot and warm as given."""
    mover = position.mover
    # Temperatures are this turn's: any a draw-phase position lists are from before and lapse.
    drawn = replace(mover, hand=(mover.hand or ()) + cards, hot=hot, warm=warm)
    return replace(position.replace_player(drawn), phase=Phase.PLAY, turn=None)
