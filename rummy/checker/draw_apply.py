"""A draw applied: the play-phase position one draw leads to (House Rummy and lay-off rummy, rules.md §5, §8).

``apply_draw_taken(before, taken, after)`` takes the draw-phase ``before``
and the draw ``taken`` and gives the position right after it: the cards
drawn in the mover's hand with their temperatures, the piles updated, and
the breaches of the draw itself (and, given the end state ``after``, where
that does not follow from the draw). The checker judges the rest of the turn
from there (``rummy.checker.draw_judge``); ``best`` plans a draw-phase answer
read back from a file from there (``rummy.answer``). Robber Rummy applies its
own draw (``rummy.checker.robber.apply_draw``).

**What each draw does** (rules.md §5, §8):

- ``stock``: the top stock card, cold: the first listed card, or, for a
  stock of unknown cards, the one card that appears (it must be unseen before
  the turn). The stock shows one card fewer after the turn.
- ``discard``, taking N: the top N cards of the pile go to the hand. House:
  the bottom one taken is hot; the top one, when N >= 2, is warm; the others
  are warm with ``middle_discards_warm`` (Epic), cold otherwise. Lay-off
  rummy takes the top card only, and it may not be discarded again this turn
  (warm). The discard goes on top of what is left of the pile.
- ``open``: the upcard goes to the hand, warm; the position after the turn
  shows no upcard. A stock written as a count may count the upcard or not,
  so the count may stay or drop by one.
- ``pass``: the turn ends at gain 0 and nothing moves: every card is where it
  was, and the upcard stays face up on the stock (the next player may take it
  or pass, seeds/house-rummy.txt §7).
- ``demand`` (``rules.demand``, Epic): card C from player P (a partner
  included, never the mover). P must hold C: a known hand loses C; a hidden
  hand loses one card, and C must be unseen before the turn. A player's last
  card is not demanded. C is hot. A declared demand may also read as failed:
  the turn ends with nothing moved (possible only when P's hand is hidden).

Hot and warm cards a draw-phase position lists do not carry into the play
phase (as with Robber Rummy, docs/checker.md): the hand holds no card drawn
this turn before the draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..cards import Card, cards_notation, cards_without
from ..errors import PositionError, quote
from ..position import DrawTaken, Position
from ..rules import Ruleset
from ..vocabulary import DrawSource, FirstOutBonus, Phase
from .facts import plain_counter
from .verdict import Breach

__all__ = ["REENTRY_DRAW", "AppliedDraw", "apply_draw_taken", "first_out_reenters", "no_such_draw", "reenters",
           "reentry_draw_count"]

Stock = int | tuple[Card, ...] | None
REENTRY_DRAW = 3  # House Epic: first out re-enters drawing three stock cards (rules.md §5)


@dataclass(frozen=True)
class AppliedDraw:
    """One reading of the draw: what it was, and where it leads.

    ``start`` is the play-phase position right after the draw; None where the
    draw ended the turn (a pass, a failed demand). ``drawn`` are the cards it
    put in the mover's hand, top first, ``hot`` and ``warm`` their
    temperatures. ``breaches`` are the draw's own. ``pile_explained``: a
    breach already says that the pile after the turn does not follow from the
    draw (so the play phase does not say it again). ``if_unchanged``: a reading of a
    draw that ends the turn which is read only where nothing moved (an inferred pass, a
    failed demand), so that it never stands in for a turn that did move cards.
    """

    taken: DrawTaken
    start: Position | None
    drawn: tuple[Card, ...] = ()
    hot: tuple[Card, ...] = ()
    warm: tuple[Card, ...] = ()
    breaches: tuple[Breach, ...] = ()
    pile_explained: bool = False
    failed: bool = False
    inferred: tuple[str, ...] = ()
    if_unchanged: bool = False


# -------------------------------------------------------------- each draw
def apply_draw_taken(before: Position, taken: DrawTaken, after: Position | None = None,
                     inferred: tuple[str, ...] = ()) -> AppliedDraw:
    """The draw ``taken`` applied to the draw-phase ``before``: the play-phase position it leads to,
    the cards drawn and their temperatures, and the breaches of the draw itself.

    With ``after``, the end state of the turn: also where it does not follow from the draw (the
    stock, the upcard, the pile left), and the card a stock of unknown cards gave (the one that
    appears); the position after the draw then takes the stock as ``after`` shows it, so that a
    wrong stock is reported once. Without it, a stock of unknown cards is bad input."""
    source = taken.source
    if source == DrawSource.STOCK:
        applied = _stock(before, after, taken)
    elif source == DrawSource.DISCARD:
        applied = _discard(before, after, taken)
    elif source == DrawSource.OPEN:
        applied = _open(before, after, taken)
    elif source == DrawSource.DEMAND:
        applied = _demand(before, after, taken)
    elif source == DrawSource.PASS:
        applied = AppliedDraw(taken, None, breaches=tuple(upcard_rule_breaches(before, source)))
    else:
        raise no_such_draw(before, source, "after: turn.draw.from")
    if applied.start is not None and reenters(before):  # first out is back in the hand (rules.md §5)
        applied = replace(applied, start=replace(applied.start, reentered=True))
    return replace(applied, inferred=inferred) if inferred else applied


def _stock(before: Position, after: Position | None, taken: DrawTaken) -> AppliedDraw:
    """One card from the stock; for House Epic's first out on their re-entry turn, three (or what is left)."""
    deck = before.rules.deck
    breaches = stock_rule_breaches(before)
    stock = before.stock
    count = reentry_draw_count(before)
    breaches += _stock_take_breaches(before, taken, count)
    count = count or 1
    if isinstance(stock, tuple) and stock:
        drawn: tuple[Card, ...] = tuple(c.plain() for c in stock[:count])
        expected: Stock = stock[count:]
    else:
        if isinstance(stock, int) and stock > 0:
            count = min(count, stock)
        expected = stock - count if isinstance(stock, int) and stock > 0 else stock
        if before.mover.hand is None:  # a hidden hand draws cards nobody sees: that many more, none named
            drew = f"after drawing {count} card{'s' if count > 1 else ''}"
            breaches += _stock_breaches(before, after, (expected,), drew)
            breaches += _upcard_breaches(before, after, before.upcard)
            start = _with_drawn(before, (), unseen=count, stock=_stock_of(after, expected))
            return AppliedDraw(taken, start, (), breaches=tuple(breaches))
        if after is None:
            raise PositionError("after", "is needed to judge a draw from a stock of unknown cards: the card drawn "
                                "is the one that appears in it")
        drawn = appeared_cards(before, after, count)
        if len(drawn) < count:
            breaches.append(Breach("conservation",
                                   f"{count} card{'s' if count != 1 else ''} drawn from the stock, but "
                                   f"{len(drawn) or 'no'} card{'s' if len(drawn) != 1 else ''} new to the mover's "
                                   "hand, the table or the discard pile show after the turn"))
        unseen = before.unseen_cards()
        for card, copies in Counter(drawn).items():
            if unseen[card] < copies:
                breaches.append(Breach("conservation", f"{card.notation(deck)} cannot have come from the stock: every "
                                       "copy is accounted for", (card.notation(deck),)))
    what = "after drawing one card" if count == 1 else f"after drawing {count} cards"
    breaches += _stock_breaches(before, after, (expected,), what)
    breaches += _upcard_breaches(before, after, before.upcard)
    start = _with_drawn(before, drawn, stock=_stock_of(after, expected))
    if reentry_draw_count(before):
        taken = replace(taken, take=REENTRY_DRAW)
    return AppliedDraw(taken, start, drawn, breaches=tuple(breaches))


def _stock_take_breaches(before: Position, taken: DrawTaken, reentry: int) -> list[Breach]:
    """``draw N``: a stock draw takes one card, but first out's re-entry draw takes three (rules.md §5)."""
    if taken.take is None or taken.take in ((REENTRY_DRAW, reentry) if reentry else (1,)):
        return []  # re-entering: 3, or the cards left when fewer are
    if reentry:
        return [Breach("reentry-draw", f"{before.to_move} re-enters the hand (first out, House Epic): a draw from the "
                       f"stock takes {REENTRY_DRAW} cards ({reentry} left), not {taken.take}")]
    return [Breach("too-many-taken", f"{taken.take} cards drawn from the stock; a draw from the stock takes one card "
                   f"(only House Epic's first out, re-entering, draws {REENTRY_DRAW})")]


def first_out_reenters(rules: Ruleset) -> bool:
    """House Epic: first out plays on, re-entering on their next turn (rules.md §5); Classic's plays no more."""
    return rules.first_out_bonus == FirstOutBonus.HANDS


def reenters(position: Position) -> bool:
    """The mover is House Epic's first out, back for their re-entry turn (no card, not re-entered yet): they
    draw three from the stock, or by demand, or from the discard pile (rules.md §5)."""
    return (first_out_reenters(position.rules) and position.first_out == position.to_move
            and position.mover.hand_size == 0 and not position.reentered)


def reentry_draw_count(before: Position) -> int:
    """How many stock cards the mover draws to re-enter the hand (House Epic's first out on their next turn:
    three, or as many as are left, rules.md §5); 0 when the mover is not re-entering."""
    if not reenters(before):
        return 0
    stock = before.stock
    left = len(stock) if isinstance(stock, tuple) else stock
    return REENTRY_DRAW if left is None else min(REENTRY_DRAW, left)


def _discard(before: Position, after: Position | None, taken: DrawTaken) -> AppliedDraw:
    rules = before.rules
    family = rules.family
    take = taken.take or 1
    breaches = discard_rule_breaches(before, take)
    pile = before.discard_pile
    take = min(take, len(pile))
    cards = tuple(c.plain() for c in reversed(pile[len(pile) - take:]))  # top first
    rest = pile[: len(pile) - take]
    hot: tuple[Card, ...] = ()
    warm: tuple[Card, ...] = ()
    if cards:
        bottom = cards[-1]
        hot, warm = ((bottom,), ()) if family.discard_bottom_hot else ((), (bottom,))
        if len(cards) >= 2:
            warm += (cards[0],)
        if rules.middle_discards_warm:
            warm += cards[1:-1]
    now = [c.plain() for c in after.discard_pile] if after is not None else []
    explained = after is not None and now[: len(rest)] != [c.plain() for c in rest]
    if after is not None and explained:
        show = notation_in(before)
        breaches.append(Breach(
            "draw-mismatch",
            f"taking {take} card{'s' if take != 1 else ''} ({show(cards)}) from the discard pile leaves "
            f"{show(rest) or 'it empty'}, but the pile after the turn is {show(after.discard_pile) or 'empty'}: "
            "it must be what was left, with the discard on top",
            tuple(c.notation(rules.deck) for c in after.discard_pile)))
    breaches += _stock_breaches(before, after, (before.stock,), "nothing is drawn from the stock:")
    breaches += _upcard_breaches(before, after, before.upcard)
    start = _with_drawn(before, cards, hot, warm, discard_pile=rest, stock=_stock_of(after, before.stock))
    return AppliedDraw(replace(taken, take=taken.take or 1), start, cards, hot, warm, tuple(breaches), explained)


def _open(before: Position, after: Position | None, taken: DrawTaken) -> AppliedDraw:
    breaches = upcard_rule_breaches(before, DrawSource.OPEN)
    upcard = before.upcard.plain() if before.upcard is not None else None
    drawn: tuple[Card, ...] = (upcard,) if upcard is not None else ()
    stock = before.stock
    # A stock written as a count may count the face-up card or not: it stays, or drops by one.
    accepted: tuple[Stock, ...] = (stock, stock - 1) if isinstance(stock, int) and stock > 0 else (stock,)
    breaches += _stock_breaches(before, after, accepted, "opening the stock takes only its upcard:")
    if upcard is not None and after is not None and after.upcard is not None:
        shown = after.upcard.notation(before.rules.deck)
        breaches.append(Breach("draw-mismatch", f"{before.to_move} opened the stock, taking its upcard "
                               f"{upcard.notation(before.rules.deck)} into the hand, but the position after the turn "
                               f"still shows an upcard ({shown}); an opened stock shows none", (shown,)))
    elif upcard is None:
        breaches += _upcard_breaches(before, after, None)
    start = _with_drawn(before, drawn, (), drawn, stock=_stock_of(after, stock), upcard=None)
    return AppliedDraw(taken, start, drawn, (), drawn, tuple(breaches))


def _demand(before: Position, after: Position | None, taken: DrawTaken) -> AppliedDraw:
    deck = before.rules.deck
    card, name = _demanded(taken)
    breaches = demand_rule_breaches(before, card, name)
    shown = card.notation(deck)
    asked = before.player(name)
    drawn: tuple[Card, ...] = (card,)
    if name == before.to_move:
        drawn, position = (), before
    elif asked.hand is not None:
        if plain_counter(asked.hand)[card] <= 0:
            breaches.append(Breach("demand-not-held", f"{name} does not hold {shown}: the demand fails, so {shown} "
                                   f"cannot come to {before.to_move}'s hand", (shown,)))
            position = before
        else:
            position = before.replace_player(replace(asked, hand=cards_without(asked.hand, Counter([card]))))
    else:
        if before.unseen_cards()[card] <= 0:
            breaches.append(Breach("demand-not-held",
                                   f"{shown} cannot be in {name}'s hand: every copy of it is in sight "
                                   "(the mover's hand, the table, the piles or a known hand)", (shown,)))
        position = before.replace_player(replace(asked, hand_count=max(asked.hand_size - 1, 0)))
    breaches += _stock_breaches(before, after, (before.stock,), "nothing is drawn from the stock:")
    breaches += _upcard_breaches(before, after, before.upcard)
    start = _with_drawn(position, drawn, drawn, (), stock=_stock_of(after, before.stock))
    return AppliedDraw(DrawTaken(DrawSource.DEMAND, card=card, player=name), start, drawn, drawn, (), tuple(breaches))


def failed_demand(before: Position, taken: DrawTaken) -> AppliedDraw:
    """The declared demand read as failed: the turn ends with nothing moved (only a hidden hand may lack the card)."""
    card, name = _demanded(taken)
    breaches = demand_rule_breaches(before, card, name)
    asked = before.player(name)
    if name != before.to_move and asked.hand is not None and plain_counter(asked.hand)[card] > 0:
        shown = card.notation(before.rules.deck)
        breaches.append(Breach("draw-mismatch", f"{name} holds {shown}, so the demand succeeds: {shown} goes to "
                               f"{before.to_move}'s hand (hot) and the turn goes on", (shown,)))
    return AppliedDraw(DrawTaken(DrawSource.DEMAND, card=card, player=name), None, breaches=tuple(breaches),
                       failed=True, if_unchanged=True)


def _demanded(taken: DrawTaken) -> tuple[Card, str]:
    if taken.card is None or taken.player is None:
        raise PositionError("after: turn.draw", "a demand names the card and the player asked")
    return taken.card.plain(), taken.player


# ------------------------------------------------------ the draw's own rules
def stock_rule_breaches(before: Position) -> list[Breach]:
    breaches: list[Breach] = []
    if before.upcard is not None:
        shown = before.upcard.notation(before.rules.deck)
        breaches.append(Breach("stock-not-opened", f"the stock is not opened yet: its upcard {shown} is taken first "
                               "('open') or passed ('pass'); no card is drawn from under it", (shown,)))
    if empty_stock(before.stock):
        breaches.append(Breach("empty-stock", "the stock is empty: no card can be drawn from it"))
    return breaches


def discard_rule_breaches(before: Position, take: int) -> list[Breach]:
    family = before.rules.family
    pile = before.discard_pile
    breaches: list[Breach] = []
    if take > len(pile):
        held = f"holds {len(pile)}: {notation_in(before)(pile)}" if pile else "is empty"
        breaches.append(Breach("pile-too-short", f"{take} card{'s' if take != 1 else ''} taken from the discard pile, "
                               f"which {held}", tuple(c.notation(before.rules.deck) for c in pile)))
    most = family.discard_take_max
    if most is not None and take > most:
        breaches.append(Breach("too-many-taken", f"{take} cards taken from the discard pile; {family.long_name} takes "
                               f"{'only its top card' if most == 1 else f'at most {most}'}"))
    return breaches


def upcard_rule_breaches(before: Position, source: DrawSource) -> list[Breach]:
    if before.upcard is not None:
        return []
    what = "take the upcard ('open')" if source == DrawSource.OPEN else "pass"
    return [Breach("no-upcard", f"the stock is already opened (no upcard shows), so there is no upcard to {what}: "
                   "draw from the stock or the discard pile")]


def demand_rule_breaches(before: Position, card: Card, name: str) -> list[Breach]:
    rules = before.rules
    shown = card.notation(rules.deck)
    mover = before.to_move
    if name not in {p.name for p in before.players}:
        raise PositionError("after: turn.draw.player", f"{quote(name)} is not a player")
    breaches: list[Breach] = []
    if not rules.demand:
        breaches.append(Breach("demand-not-allowed", f"{rules.name} has no draw by demand: {mover} may not demand "
                               f"{shown} from {name}", (shown,)))
    if name == mover:
        breaches.append(Breach("demand-not-allowed", f"{mover} demanded {shown} from themselves; a demand asks "
                               "another player (a partner included)", (shown,)))
    elif before.player(name).hand_size <= 1:
        holds = "only one card" if before.player(name).hand_size == 1 else "no card"
        breaches.append(Breach("demand-last-card", f"{name} holds {holds}: a demand for a player's last card "
                               f"({shown}) is not allowed", (shown,)))
    return breaches


# ---------------------------------------------------- what the end state shows
def _stock_breaches(before: Position, after: Position | None, accepted: tuple[Stock, ...], what: str) -> list[Breach]:
    if after is None or any(same_stock(after.stock, stock) for stock in accepted):
        return []
    deck = before.rules.deck

    def text(stock: Stock) -> str:
        if isinstance(stock, tuple):
            return cards_notation(stock, deck) if stock else "no card"
        return "an unknown number of cards" if stock is None else f"{stock} card{'s' if stock != 1 else ''}"

    return [Breach("conservation", f"{what} the stock holds {' or '.join(text(s) for s in accepted)}, but the "
                   f"position after the turn shows {text(after.stock)}")]


def _upcard_breaches(before: Position, after: Position | None, expected: Card | None) -> list[Breach]:
    """The upcard stays face up on the stock unless the stock is opened."""
    if after is None or same_card(after.upcard, expected):
        return []
    deck = before.rules.deck
    if expected is None:
        assert after.upcard is not None
        shown = after.upcard.notation(deck)
        return [Breach("draw-mismatch", f"an upcard ({shown}) shows after the turn, but the stock was opened before it",
                       (shown,))]
    kept = expected.notation(deck)
    now = f"shows {after.upcard.notation(deck)} instead" if after.upcard is not None else "is gone"
    return [Breach("draw-mismatch", f"the upcard {kept} {now} after the turn; only opening the stock takes it, "
                   "and this draw did not", (kept,))]


def no_such_draw(before: Position, source: object, place: str = "draw") -> PositionError:
    """``source`` is no draw of the position's family (bad input)."""
    family = before.rules.family
    names = [quote(s) for s in family.draw_sources]
    listed = " or ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " or " + names[-1]
    return PositionError(place, f"{quote(source)} is no draw of {family.long_name}: {listed}")


# ----------------------------------------------------------------- helpers
def _with_drawn(position: Position, drawn: tuple[Card, ...], hot: tuple[Card, ...] = (), warm: tuple[Card, ...] = (),
                unseen: int = 0, **changes: Any) -> Position:
    """``position`` in the play phase with ``drawn`` added to the mover's hand, hot and warm as given
    (temperatures listed before the draw do not carry over: module docstring). A hidden hand
    (``hand_count``) counts the cards drawn (and ``unseen`` ones nobody saw) and keeps only the hot and
    warm ones as known (the others are unseen again: docs/formats.md "A hidden mover")."""
    mover = position.mover
    if mover.hand is None:
        drawer = replace(mover, hand_count=mover.hand_size + len(drawn) + unseen, hot=hot, warm=warm)
    else:
        drawer = replace(mover, hand=mover.hand + drawn, hot=hot, warm=warm)
    return replace(position.replace_player(drawer), phase=Phase.PLAY, turn=None, **changes)


def _stock_of(after: Position | None, expected: Stock) -> Stock:
    """The stock right after the draw: as the end state shows it (a wrong one is reported by the draw)."""
    return after.stock if after is not None else expected


def appeared_card(before: Position, after: Position) -> Card | None:
    """The card new to the mover's side after the turn (hand, table, discard pile): one that was
    unseen before it where there is one."""
    found = appeared_cards(before, after, 1)
    return found[0] if found else None


def appeared_cards(before: Position, after: Position, count: int) -> tuple[Card, ...]:
    """Up to ``count`` cards new to the mover's side after the turn (hand, table, discard pile), those
    unseen before it first."""
    def side(position: Position) -> Counter[Card]:
        return (plain_counter(position.table_cards()) + plain_counter(position.player(before.to_move).hand or ())
                + plain_counter(position.discard_pile))

    appeared = sorted((side(after) - side(before)).elements())
    unseen = before.unseen_cards()
    fresh = [card for card in appeared if unseen[card] > 0]
    others = list((Counter(appeared) - Counter(fresh)).elements())
    return tuple((fresh + others)[:count])


def empty_stock(stock: Stock) -> bool:
    return stock == 0 or stock == ()


def same_stock(a: Stock, b: Stock) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return [c.plain() for c in a] == [c.plain() for c in b]
    return a == b


def same_card(a: Card | None, b: Card | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a.plain() == b.plain())


def notation_in(position: Position) -> Callable[[Any], str]:
    deck = position.rules.deck

    def show(cards: Any) -> str:
        return cards_notation(cards, deck)

    return show
