"""Turns judged from the draw phase: House Rummy and lay-off rummy (rules.md §5 "Draw advice", §8).

``check`` hands a draw-phase BEFORE here when its family lists its draws
(``Family.draw_sources``; Robber Rummy reads its own draw, checker/robber.py).
The draw is applied first: the result is the play-phase position right after
it, the cards drawn in the mover's hand with their temperatures, the piles
updated. The rest of the turn is judged from there by the family's own judge,
exactly as ``check`` judges a play-phase turn. Breaches of the draw itself
come first in the verdict.

**Which draw.** ``[turn] draw`` (``after.turn.draw``) declares it; where it
leaves out the depth taken from the discard pile, or a demand's card or
player, the end state fills them in. Without a declaration, every draw the
end state may follow from is a reading, and the turn is legal when one of
them is (``reading["draw"]`` says which, ``inferred`` that it was read):
the stock (not while the upcard shows), ``open`` and ``pass`` (only while it
shows), every depth of the discard pile that leaves the pile after the turn
(with at most the discard on top), and a demand from each player whose hand
lost one card. Readings are tried in the order of draw advice (stock, open,
discard, demand, pass); the first legal one wins, else the one with the
fewest breaches. A failed demand (the turn ends with nothing moved) is read
only when declared, and, like an undeclared pass, only where nothing moved.

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

**Gain.** The family's gain of the play phase, measured from the position
right after the draw, minus what the cards drawn cost in hand
(``Family.hand_cost``): the draw option's value of rules.md §5, as ``best``
measures it. A pass or a failed demand is worth 0.

**A random draw answered alone** (``best --json`` with ``after`` null: a stock
of unknown cards, a demand from a hidden hand): ``judge_random_draw`` judges
the draw by itself.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable, Iterator

from ..cards import Card, cards_notation, cards_without
from ..errors import PositionError, quote
from ..position import DrawTaken, Player, Position
from ..vocabulary import DrawSource, Phase
from .facts import PILE_CHANGED, check_same_game, gather_facts, plain_counter
from .gain import breakdown, turn_gain
from .verdict import Breach, Verdict, dedupe, json_number

__all__ = ["AppliedDraw", "apply_draw_taken", "draw_candidates", "judge_drawn_turn", "judge_random_draw", "no_such_draw",
           "random_draw_sources"]

Stock = int | tuple[Card, ...] | None


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


# ------------------------------------------------------------------ the turn
def judge_drawn_turn(before: Position, after: Position) -> Verdict:
    """Judge the turn from the draw-phase ``before`` to ``after``: the draw, then the play phase."""
    _draw_sources(before)
    declared = after.turn.draw if after.turn is not None else None
    readings = _declared_readings(before, after, declared) if declared is not None else _inferred_readings(before, after)
    best: tuple[list[Breach], dict[str, Any]] | None = None
    for applied in readings:
        if applied.if_unchanged and best is not None and _changes(before, after, applied):
            continue
        breaches, reading = _judge(before, after, applied)
        if best is None or len(breaches) < len(best[0]):
            best = (breaches, reading)
        if not breaches:
            break
    assert best is not None, "every draw-phase turn has at least one reading"
    return Verdict(not best[0], tuple(best[0]), best[1])


def _judge(before: Position, after: Position, applied: AppliedDraw) -> tuple[list[Breach], dict[str, Any]]:
    rules = before.rules
    family = rules.family
    draw = _draw_data(before, applied)
    if applied.start is None:  # the draw ended the turn
        check_same_game(replace(before, phase=Phase.PLAY, turn=None), after)
        breaches = dedupe([*applied.breaches, *_unchanged_breaches(before, after, applied)])
        return breaches, {"draw": draw, "inferred": list(applied.inferred), "gain": 0}
    facts = gather_facts(applied.start, after)
    if applied.pile_explained:
        facts.breaches = [b for b in facts.breaches if b.message != PILE_CHANGED]
    judge = family.judge_function()
    family_breaches, family_reading = judge(facts)
    # JSON data whose keys depend on the family (Verdict.reading), the draw read added.
    reading: dict[str, Any] = dict(family_reading)
    reading["draw"] = draw
    if applied.inferred:
        reading["inferred"] = [*applied.inferred, *reading.get("inferred", [])]
    breaches = dedupe([*applied.breaches, *facts.breaches, *family_breaches])
    cost = family.hand_cost(applied.drawn, rules)
    gain = turn_gain(applied.start, after) - cost
    reading["gain"] = json_number(gain)
    lines = breakdown(applied.start, after, drawn=applied.drawn)
    reading["breakdown"] = [{"what": what, "points": json_number(points)} for what, points in lines]
    return breaches, reading


def _draw_data(before: Position, applied: AppliedDraw) -> dict[str, Any]:
    """The draw as the verdict's reading shows it: ``from`` (and ``draw``, as Robber's), the
    declaration's fields, the cards drawn (top first) and their temperatures."""
    deck = before.rules.deck
    data: dict[str, Any] = {"draw": applied.taken.source, **applied.taken.to_data(deck)}
    data["from"] = applied.taken.source
    if applied.drawn:
        data["cards"] = [c.notation(deck) for c in applied.drawn]
    if applied.hot:
        data["hot"] = [c.notation(deck) for c in applied.hot]
    if applied.warm:
        data["warm"] = [c.notation(deck) for c in applied.warm]
    if applied.failed:
        data["failed"] = True
    return data


# ---------------------------------------------------------------- readings
def _declared_readings(before: Position, after: Position, declared: DrawTaken) -> Iterator[AppliedDraw]:
    _check_declared(before, declared)
    source = declared.source
    if source == DrawSource.DISCARD and declared.take is None:
        for take in _pile_takes(before, after) or [1]:
            yield apply_draw_taken(before, replace(declared, take=take), after, ("draw take inferred",))
        return
    if source == DrawSource.DEMAND and (declared.card is None or declared.player is None):
        matches = [c for c in _demand_candidates(before, after)
                   if (declared.card is None or c.card == declared.card.plain())
                   and (declared.player is None or c.player == declared.player)]
        if not matches:
            raise PositionError("after: turn.draw", "a demand names the card and the player asked; the end state "
                                "shows no player's hand short of one card to read them from")
        for match in matches:
            yield apply_draw_taken(before, match, after, ("draw card and player inferred",))
        return
    yield apply_draw_taken(before, declared, after)
    if source == DrawSource.DEMAND:
        yield _failed_demand(before, declared)


def _inferred_readings(before: Position, after: Position) -> Iterator[AppliedDraw]:
    for taken in draw_candidates(before, after):
        applied = apply_draw_taken(before, taken, after, ("draw inferred",))
        yield replace(applied, if_unchanged=True) if applied.start is None else applied


def draw_candidates(before: Position, after: Position) -> list[DrawTaken]:
    """The draws ``after`` may follow from, in the order they are read (module docstring).

    Where none fits the end state, every draw the rules give (the stock, each
    depth of the pile), so that the breaches say why none fits.
    """
    family = before.rules.family
    sources = _draw_sources(before)
    shows_upcard = before.upcard is not None
    found: list[DrawTaken] = []
    if DrawSource.STOCK in sources and not shows_upcard and not _empty(before.stock):
        found.append(DrawTaken(DrawSource.STOCK))
    if DrawSource.OPEN in sources and shows_upcard:
        found.append(DrawTaken(DrawSource.OPEN))
    if DrawSource.DISCARD in sources:
        found += [DrawTaken(DrawSource.DISCARD, take=take) for take in _pile_takes(before, after)]
    if DrawSource.DEMAND in sources and before.rules.demand:
        found += _demand_candidates(before, after)
    if DrawSource.PASS in sources and shows_upcard:
        found.append(DrawTaken(DrawSource.PASS))
    if found:
        return found
    fallback: list[DrawTaken] = []
    if DrawSource.STOCK in sources:
        fallback.append(DrawTaken(DrawSource.STOCK))
    if DrawSource.DISCARD in sources:
        most = min(len(before.discard_pile), family.discard_take_max or len(before.discard_pile))
        fallback += [DrawTaken(DrawSource.DISCARD, take=take) for take in range(1, most + 1)]
    return fallback or [DrawTaken(sources[0])]


def _pile_takes(before: Position, after: Position) -> list[int]:
    """The depths N whose taking leaves the pile after the turn: what was left, at most the discard on top."""
    pile = [c.plain() for c in before.discard_pile]
    now = [c.plain() for c in after.discard_pile]
    most = before.rules.family.discard_take_max or len(pile)
    takes = []
    for take in range(1, min(most, len(pile)) + 1):
        rest = pile[: len(pile) - take]
        if now[: len(rest)] == rest and len(rest) <= len(now) <= len(rest) + 1:
            takes.append(take)
    return takes


def _demand_candidates(before: Position, after: Position) -> list[DrawTaken]:
    """A demand from each other player whose hand lost exactly one card: that card (a known hand),
    or the one card that came to the mover's side (a hidden hand)."""
    found: list[DrawTaken] = []
    for player in before.players:
        if player.name == before.to_move:
            continue
        now = after.player(player.name)
        if player.hand is not None and now.hand is not None:
            lost = plain_counter(player.hand) - plain_counter(now.hand)
            if sum(lost.values()) == 1 and not plain_counter(now.hand) - plain_counter(player.hand):
                found.append(DrawTaken(DrawSource.DEMAND, card=next(iter(lost)), player=player.name))
        elif now.hand_size == player.hand_size - 1:
            card = _appeared_card(before, after)
            if card is not None:
                found.append(DrawTaken(DrawSource.DEMAND, card=card, player=player.name))
    return found


def _check_declared(before: Position, declared: DrawTaken) -> None:
    """A declaration that names no draw of the family, or fields of another draw, is bad input."""
    family = before.rules.family
    if declared.source not in family.draw_sources:
        raise no_such_draw(before, declared.source, "after: turn.draw.from")
    if declared.take is not None and declared.source != DrawSource.DISCARD:
        raise PositionError("after: turn.draw.take", f"only a draw from the discard pile takes a number of cards, "
                            f"not {quote(declared.source)}")
    if (declared.card is not None or declared.player is not None) and declared.source != DrawSource.DEMAND:
        raise PositionError("after: turn.draw", f"only a demand names a card and a player, not {quote(declared.source)}")
    if declared.player is not None and declared.player not in {p.name for p in before.players}:
        raise PositionError("after: turn.draw.player", f"{quote(declared.player)} is not a player")


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
        applied = AppliedDraw(taken, None, breaches=tuple(_upcard_rule_breaches(before, source)))
    else:
        raise no_such_draw(before, source, "after: turn.draw.from")
    return replace(applied, inferred=inferred) if inferred else applied


def _stock(before: Position, after: Position | None, taken: DrawTaken) -> AppliedDraw:
    deck = before.rules.deck
    breaches = _stock_rule_breaches(before)
    stock = before.stock
    if isinstance(stock, tuple) and stock:
        drawn: tuple[Card, ...] = (stock[0].plain(),)
        expected: Stock = stock[1:]
    else:
        expected = stock - 1 if isinstance(stock, int) and stock > 0 else stock
        if after is None:
            raise PositionError("after", "is needed to judge a draw from a stock of unknown cards: the card drawn "
                                "is the one that appears in it")
        card = _appeared_card(before, after)
        drawn = (card,) if card is not None else ()
        if card is None:
            breaches.append(Breach("conservation", "a card was drawn from the stock, but no card new to the mover's hand, "
                                   "the table or the discard pile shows after the turn"))
        elif before.unseen_cards()[card] <= 0:
            breaches.append(Breach("conservation", f"{card.notation(deck)} cannot have come from the stock: every copy "
                                   "is accounted for", (card.notation(deck),)))
    breaches += _stock_breaches(before, after, (expected,), "after drawing one card")
    breaches += _upcard_breaches(before, after, before.upcard)
    start = _with_drawn(before, drawn, stock=_stock_of(after, expected))
    return AppliedDraw(taken, start, drawn, breaches=tuple(breaches))


def _discard(before: Position, after: Position | None, taken: DrawTaken) -> AppliedDraw:
    rules = before.rules
    family = rules.family
    take = taken.take or 1
    breaches = _discard_rule_breaches(before, take)
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
        show = _shower(before)
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
    breaches = _upcard_rule_breaches(before, DrawSource.OPEN)
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
    breaches = _demand_rule_breaches(before, card, name)
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
            breaches.append(Breach("demand-not-held", f"{shown} cannot be in {name}'s hand: every copy of it is in sight "
                                   "(the mover's hand, the table, the piles or a known hand)", (shown,)))
        position = before.replace_player(replace(asked, hand_count=max(asked.hand_size - 1, 0)))
    breaches += _stock_breaches(before, after, (before.stock,), "nothing is drawn from the stock:")
    breaches += _upcard_breaches(before, after, before.upcard)
    start = _with_drawn(position, drawn, drawn, (), stock=_stock_of(after, before.stock))
    return AppliedDraw(DrawTaken(DrawSource.DEMAND, card=card, player=name), start, drawn, drawn, (), tuple(breaches))


def _failed_demand(before: Position, taken: DrawTaken) -> AppliedDraw:
    """The declared demand read as failed: the turn ends with nothing moved (only a hidden hand may lack the card)."""
    card, name = _demanded(taken)
    breaches = _demand_rule_breaches(before, card, name)
    asked = before.player(name)
    if name != before.to_move and asked.hand is not None and plain_counter(asked.hand)[card] > 0:
        shown = card.notation(before.rules.deck)
        breaches.append(Breach("draw-mismatch", f"{name} holds {shown}, so the demand succeeds: {shown} goes to "
                               f"{before.to_move}'s hand (hot) and the turn goes on", (shown,)))
    return AppliedDraw(DrawTaken(DrawSource.DEMAND, card=card, player=name), None, breaches=tuple(breaches), failed=True,
                       if_unchanged=True)


def _demanded(taken: DrawTaken) -> tuple[Card, str]:
    if taken.card is None or taken.player is None:
        raise PositionError("after: turn.draw", "a demand names the card and the player asked")
    return taken.card.plain(), taken.player


# ------------------------------------------------------ the draw's own rules
def _stock_rule_breaches(before: Position) -> list[Breach]:
    breaches: list[Breach] = []
    if before.upcard is not None:
        shown = before.upcard.notation(before.rules.deck)
        breaches.append(Breach("stock-not-opened", f"the stock is not opened yet: its upcard {shown} is taken first "
                               "('open') or passed ('pass'); no card is drawn from under it", (shown,)))
    if _empty(before.stock):
        breaches.append(Breach("empty-stock", "the stock is empty: no card can be drawn from it"))
    return breaches


def _discard_rule_breaches(before: Position, take: int) -> list[Breach]:
    family = before.rules.family
    pile = before.discard_pile
    breaches: list[Breach] = []
    if take > len(pile):
        held = f"holds {len(pile)}: {_shower(before)(pile)}" if pile else "is empty"
        breaches.append(Breach("pile-too-short", f"{take} card{'s' if take != 1 else ''} taken from the discard pile, "
                               f"which {held}", tuple(c.notation(before.rules.deck) for c in pile)))
    most = family.discard_take_max
    if most is not None and take > most:
        breaches.append(Breach("too-many-taken", f"{take} cards taken from the discard pile; {family.long_name} takes "
                               f"{'only its top card' if most == 1 else f'at most {most}'}"))
    return breaches


def _upcard_rule_breaches(before: Position, source: DrawSource) -> list[Breach]:
    if before.upcard is not None:
        return []
    what = "take the upcard ('open')" if source == DrawSource.OPEN else "pass"
    return [Breach("no-upcard", f"the stock is already opened (no upcard shows), so there is no upcard to {what}: "
                   "draw from the stock or the discard pile")]


def _demand_rule_breaches(before: Position, card: Card, name: str) -> list[Breach]:
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
    if after is None or any(_same_stock(after.stock, stock) for stock in accepted):
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
    if after is None or _same_card(after.upcard, expected):
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


def _ending(before: Position, applied: AppliedDraw) -> str:
    taken = applied.taken
    if taken.source == DrawSource.PASS:
        return "a pass"
    return f"the failed demand for {_shower(before)([taken.card] if taken.card else [])} from {taken.player}"


def _changes(before: Position, after: Position, applied: AppliedDraw) -> list[str]:
    """What moved, where a draw that ends the turn (a pass, a failed demand) moves nothing."""
    show = _shower(before)
    mover = before.to_move
    changed: list[str] = []
    was, now = plain_counter(before.mover.hand or ()), plain_counter(after.player(mover).hand or ())
    if was != now:
        parts = [f"{word} {show(sorted(cards.elements()))}" for word, cards in (("gained", now - was), ("lost", was - now))
                 if cards]
        changed.append(f"{mover}'s hand ({' and '.join(parts)})")
    if before.table_key() != after.table_key() or _layoffs(before) != _layoffs(after):
        changed.append("the table")
    if [c.plain() for c in before.discard_pile] != [c.plain() for c in after.discard_pile]:
        changed.append("the discard pile")
    if not _same_stock(before.stock, after.stock):
        changed.append("the stock")
    if not _same_card(before.upcard, after.upcard):
        upcard = before.upcard
        changed.append(f"the upcard ({show([upcard])} stays face up on the stock)" if upcard is not None else "the upcard")
    for player in before.players:
        if player.name != mover and _hand_changed(player, after.player(player.name)):
            changed.append(f"{player.name}'s hand")
    turn = after.turn
    if turn is not None and turn.discard is not None:
        changed.append(f"the turn declares the discard {turn.discard.notation(before.rules.deck)}")
    if turn is not None and turn.meld:
        changed.append("the turn declares a meld")
    return changed


def _unchanged_breaches(before: Position, after: Position, applied: AppliedDraw) -> list[Breach]:
    """A pass or a failed demand ends the turn with no card moved: the end state is the position before."""
    changed = _changes(before, after, applied)
    if not changed:
        return []
    return [Breach("draw-mismatch", f"{_ending(before, applied)} ends the turn with no card moved and no discard, but "
                   f"the end state differs: {'; '.join(changed)}")]


# --------------------------------------------------------- a random draw alone
def judge_random_draw(before: Position, draw: DrawTaken) -> Verdict:
    """A random draw answered without the turn after it (``best --json``'s ``after`` null).

    Only a draw whose outcome is unknown is answered that way: the stock when
    its cards are not listed, a demand from a hidden hand. Its turn cannot be
    judged before the card is known, so the draw alone is: legal unless the
    draw itself is not (an empty stock, a stock not opened, a demand the rules
    do not allow or for a player's last card). A certain draw without the
    turn after it (the discard pile, Robber's pile, the upcard, a pass, a
    listed stock, a demand from a known hand) is bad input, as is a draw the
    family does not have.
    """
    family = before.rules.family
    sources = random_draw_sources(before)
    source = draw.source
    if source not in sources:
        raise no_such_draw(before, source)
    deck = before.rules.deck
    data: dict[str, Any] = {"draw": source, **draw.to_data(deck)}
    data["from"] = source
    if source == DrawSource.PILE:
        raise PositionError("after", "is null, but taking the pile is a certain draw: give the position after the "
                            "turn (its top card is melded at once) to have it judged")
    if source == DrawSource.STOCK:
        breaches = _stock_rule_breaches(before)
        stock = before.stock
        if not breaches and isinstance(stock, tuple) and stock:
            raise PositionError("after", f"is null, but the stock is listed: its top card {stock[0].notation(deck)} "
                                "is a certain draw; give the position after the turn to have it judged")
        judged = "the draw alone: the stock's card is unknown, so the turn after it is not judged"
    elif source == DrawSource.DEMAND:
        if draw.card is None or draw.player is None:
            raise PositionError("draw", "a demand names the card and the player asked")
        card, name = draw.card.plain(), draw.player
        if name not in {p.name for p in before.players}:
            raise PositionError("draw.player", f"{quote(name)} is not a player")
        breaches = _demand_rule_breaches(before, card, name)
        shown = card.notation(deck)
        if not breaches:
            asked = before.player(name)
            if asked.hand is not None:
                raise PositionError("after", f"is null, but {name}'s hand is known, so the demand for {shown} is a "
                                    "certain draw; give the position after the turn to have it judged")
            unseen = before.unseen_cards()
            if unseen[card] <= 0:
                raise PositionError("after", f"is null, but {shown} is in sight, so it cannot be in {name}'s hand: "
                                    "the demand surely fails; give the position after the turn to have it judged")
            chance = min(Fraction(asked.hand_size * unseen[card], sum(unseen.values())), Fraction(1))
            data["probability"] = round(float(chance), 4)
        judged = f"the draw alone: whether {name} holds {shown} is unknown, so the turn after it is not judged"
    else:
        if source == DrawSource.DISCARD:
            breaches = _discard_rule_breaches(before, draw.take or 1)
            what = f"taking {draw.take or 1} from the discard pile"
        else:
            breaches = _upcard_rule_breaches(before, source)
            what = "opening the stock" if source == DrawSource.OPEN else "a pass"
        if not breaches:
            raise PositionError("after", f"is null, but {what} is a certain draw: give the position after the turn "
                                f"({family.long_name}) to have it judged")
        judged = "the draw alone"
    return Verdict(not breaches, tuple(breaches), {"draw": data, "judged": judged})


def no_such_draw(before: Position, source: object, place: str = "draw") -> PositionError:
    """``source`` is no draw of the position's family (bad input)."""
    family = before.rules.family
    names = [quote(s) for s in family.draw_sources]
    listed = " or ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " or " + names[-1]
    return PositionError(place, f"{quote(source)} is no draw of {family.long_name}: {listed}")


def random_draw_sources(before: Position) -> tuple[DrawSource, ...]:
    """The draws of ``before``'s family; bad input where ``before`` has no draw to judge alone."""
    sources = before.rules.family.draw_sources
    if before.phase != Phase.DRAW or not sources:
        raise PositionError("after", "has no position after the turn; only a random draw from a draw-phase position "
                            "(a stock of unknown cards, a demand from a hidden hand) is judged without one")
    return sources


def _draw_sources(before: Position) -> tuple[DrawSource, ...]:
    sources = before.rules.family.draw_sources
    if before.phase != Phase.DRAW or not sources:
        raise PositionError("before: phase", f"{before.phase!r}: the draw is judged from a draw-phase position "
                            f"(phase = \"draw\") of a game with draws, not {before.rules.name}")
    return sources


# ----------------------------------------------------------------- helpers
def _with_drawn(position: Position, drawn: tuple[Card, ...], hot: tuple[Card, ...] = (), warm: tuple[Card, ...] = (),
                **changes: Any) -> Position:
    """``position`` in the play phase with ``drawn`` added to the mover's hand, hot and warm as given
    (temperatures listed before the draw do not carry over: module docstring)."""
    mover = position.mover
    drawer = replace(mover, hand=(mover.hand or ()) + drawn, hot=hot, warm=warm)
    return replace(position.replace_player(drawer), phase=Phase.PLAY, turn=None, **changes)


def _stock_of(after: Position | None, expected: Stock) -> Stock:
    """The stock right after the draw: as the end state shows it (a wrong one is reported by the draw)."""
    return after.stock if after is not None else expected


def _appeared_card(before: Position, after: Position) -> Card | None:
    """The card new to the mover's side after the turn (hand, table, discard pile): one that was
    unseen before it where there is one."""
    def side(position: Position) -> Counter[Card]:
        return (plain_counter(position.table_cards()) + plain_counter(position.player(before.to_move).hand or ())
                + plain_counter(position.discard_pile))

    appeared = sorted((side(after) - side(before)).elements())
    unseen = before.unseen_cards()
    return next((card for card in appeared if unseen[card] > 0), appeared[0] if appeared else None)


def _empty(stock: Stock) -> bool:
    return stock == 0 or stock == ()


def _same_stock(a: Stock, b: Stock) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return [c.plain() for c in a] == [c.plain() for c in b]
    return a == b


def _same_card(a: Card | None, b: Card | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a.plain() == b.plain())


def _layoffs(position: Position) -> list[tuple[str, str, tuple[Card, ...]]]:
    return sorted((p.name, a.target, tuple(sorted(c.plain() for c in a.cards))) for p in position.players for a in p.layoffs)


def _hand_changed(was: Player, now: Player) -> bool:
    if was.hand is not None and now.hand is not None:
        return plain_counter(was.hand) != plain_counter(now.hand)
    return was.hand_size != now.hand_size


def _shower(position: Position) -> Callable[[Any], str]:
    deck = position.rules.deck

    def show(cards: Any) -> str:
        return cards_notation(cards, deck)

    return show
