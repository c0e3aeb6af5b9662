"""The position after a turn: what ``rummy play`` prints (issue 27 §1).

``next_position(before, after)`` takes a position and the end state of a
legal turn (from the draw phase: the draw, then the play), exactly as ``check`` judged it (``rummy.reports.check``
reads the turn, ``rummy.checker.check`` judges it), and gives the position
the next player starts from:

- the table and every hand as the turn left them (the mover's hand, the
  plays, the lay-offs: the end state's own);
- the discard on the pile: the discard as the checker reads it
  (``rummy.checker.facts``: the pile's new top, the ``[turn]`` declaration,
  or the one card gone from the hand), put on the pile before the turn, so an
  end state that left its pile as it was gives the same next position as one
  that put the discard on it;
- hot and warm marks cleared (they hold for the turn they were drawn in);
- the mover melded when they were, or when the turn melded (the checker's
  reading lists the plays melded);
- going out recorded: a mover whose hand is empty is ``first_out`` unless
  someone already is;
- the turn passed to the next player in seating order (the order of
  ``[players]``) who still holds cards, in the draw phase where the family has
  one (``Family.draw_judge``), else in the play phase; no ``[turn]`` and no
  ``[puzzle]`` table (a puzzle's statement is about the position before).

A player with no cards is passed over: House Classic's first out plays no
more this hand; Epic's first out comes back once, for their re-entry turn
(three stock cards, ``rummy.checker.draw_apply.reentry_draw_count``). A turn
from the draw phase starts its play where the draw the checker read leads
(``turn_start``); a draw given alone, in words, is carried out by
``drawn_position``. Whether the turn ended the hand, and its scores, is
``rummy.hand_end``'s question.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .cards import Card, cards_notation
from .checker.draw_apply import Stock, empty_stock, first_out_reenters, reenters, reentry_draw_count
from .checker.facts import gather_facts
from .checker.hidden import hidden_witness
from .checker.verdict import Breach
from .draw_words import WrittenDraw
from .errors import PositionError
from .hand_end import first_out_points, full_out_side
from .position import DrawTaken, Player, Position
from .vocabulary import DrawSource, Phase


def next_position(before: Position, after: Position, reading: Mapping[str, Any] | None = None) -> Position:
    """The position after the legal turn from ``before`` to ``after``, the next player to move.
    ``reading`` is the checker's reading of the turn (its ``meld``; from the draw phase, its ``draw``).

    Whether the turn is legal is the caller's question (``rummy.checker.check``): this only carries it out.
    """
    reading = reading or {}
    start = turn_start(before, after, reading)
    if start is None:  # a pass or a failed demand: nothing moved, the turn passes
        return _passed_on(before, before, before.players, before.discard_pile, before.first_out, reenters(before))
    if start.mover.hand is None:  # a hidden mover: the checker reads the discard through its witness hand
        witness = hidden_witness(start, after)
        facts = gather_facts(witness.before, witness.after)
    else:
        facts = gather_facts(start, after)  # the discard exactly as the checker read it
    mover_after = after.player(start.to_move)
    if not start.rules.discard and mover_after.hand_size >= start.mover.hand_size:
        # Tile rummy: a player who plays nothing draws a tile, which this turn does not name.
        raise PositionError("turn", f"{start.to_move} plays nothing, so they draw a tile instead: "
                            "give the turn as the tile drawn ('draw R7')")
    melded = start.mover.melded or mover_after.melded or bool(reading.get("meld"))
    if start.rules.family.plays_change_owner:  # Robber: no initial meld; a player who owns a play has melded
        melded = melded or bool(mover_after.plays)
    players = tuple(replace(p, melded=melded) if p.name == start.to_move else p for p in after.players)
    first_out = start.first_out
    if first_out is None:  # a demand for another's last card comes first (the draw), then the mover's own
        emptied = [p.name for p in after.players if p.name != start.to_move and p.hand_size == 0
                   and before.player(p.name).hand_size > 0]
        first_out = emptied[0] if emptied else (start.to_move if mover_after.hand_size == 0 else None)
    passed = _passed_on(start, after, players, start.discard_pile + tuple(facts.discards), first_out, start.reentered)
    if first_out is not None and start.first_out is None:
        passed = replace(passed, first_out_points=first_out_points(passed))
    closed = mover_after.hand_size == 0 and bool(facts.discards)  # went out by discarding: the pile is closed
    return passed if closed else _last_round(start, passed)


def _last_round(start: Position, passed: Position) -> Position:
    """House, the seed's rule 20: a turn that made full out without closing the discard pile (the last card
    played, not discarded) gives every player still in the hand one more turn (``last_turns``), in seating
    order from the mover; ``rummy.hand_end`` ends the hand once they are played (or the stock runs out)."""
    if start.rules.family.name != "house" or start.last_turns is not None or full_out_side(start) is not None:
        return passed
    if full_out_side(passed) is None:
        return passed
    names = [p.name for p in passed.players]
    at = names.index(start.to_move)
    order = names[at + 1:] + names[:at]
    comes_back = passed.first_out if first_out_reenters(passed.rules) and not passed.reentered else None
    still = tuple(name for name in order if passed.player(name).hand_size > 0 or name == comes_back)
    return replace(passed, last_turns=still, to_move=still[0] if still else passed.to_move)


def turn_start(before: Position, after: Position, reading: Mapping[str, Any]) -> Position | None:
    """The play-phase position the turn's play starts from: ``before`` itself, or in the draw phase the
    position its draw led to, the draw the checker read (``reading["draw"]``) carried out by the same
    code the checker uses (``rummy.checker.draw_apply``; Robber Rummy's ``rummy.checker.robber``).
    None where the draw ended the turn (a pass, a failed demand)."""
    if before.phase == Phase.PLAY:
        return before
    family = before.rules.family
    if family.answers_draw_phase:  # Robber: the draw read back from the end state, as its judge reads it
        from .checker.robber import apply_draw

        return apply_draw(before, after)[0]
    taken, failed = reading_draw(reading)
    if failed:
        return None
    from .checker.draw_apply import apply_draw_taken

    return apply_draw_taken(before, taken, after).start


def reading_draw(reading: Mapping[str, Any]) -> tuple[DrawTaken, bool]:
    """The draw the checker's reading of a draw-phase turn names (House and lay-off: ``from``, ``take``,
    ``card``, ``player``, ``failed``; Robber: ``from``, stock or pile), and whether it failed."""
    draw = reading.get("draw")
    if not isinstance(draw, Mapping):
        raise PositionError("turn", "the checker's reading names no draw for this draw-phase turn")
    card = draw.get("card")
    taken = DrawTaken(DrawSource(draw["from"]), draw.get("take"),
                      Card.from_notation(card) if isinstance(card, str) else None, draw.get("player"))
    return taken, bool(draw.get("failed"))


def drawn_position(before: Position, written: WrittenDraw) -> tuple[Position, tuple[Breach, ...]]:
    """The position after a draw written as words (``rummy.draw_words``) and the draw's breaches
    (none: legal), the draw carried out by the checker's own code: from the draw phase, the
    play-phase position of the same mover with the cards drawn (hot and warm as the draw makes
    them), or the next player's after a pass or a failed demand; in tile rummy (no draw phase), a
    player who plays nothing draws a tile and the turn passes. Bad input (a draw the family has not,
    a stock card not named where the stock is not listed) is a PositionError."""
    family = before.rules.family
    taken = written.taken
    if before.phase == Phase.PLAY:
        if family.draw_judge is None and taken.source in (DrawSource.STOCK, DrawSource.PASS) \
                and empty_stock(before.stock if before.stock is not None else 1):
            # Tile rummy with the pool empty: a player who cannot (or will not) play passes; no tile to draw.
            if written.card is not None or written.cards:
                raise PositionError("draw", "the pool is empty: there is no tile to draw; write 'pass'")
            return _passed_on(before, before, before.players, before.discard_pile, before.first_out), ()
        if family.draw_judge is not None or taken.source != DrawSource.STOCK:
            raise PositionError("draw", f"{before.to_move} is in the play phase: the draw is made; play the turn "
                                "(steps, a position or an answer)")
        if (taken.take or 1) > 1:
            raise PositionError("draw", f"a player who plays nothing draws one tile, not {taken.take}")
        after = _stock_drawn(before, written)
        breaches = _unseen_breaches(before, after, written.card)
        return _passed_on(before, after, after.players, before.discard_pile, before.first_out), breaches
    if family.answers_draw_phase and taken.source in (DrawSource.DISCARD, DrawSource.PILE):
        raise PositionError("draw", "taking the pile melds its top card at once: give the whole turn, "
                            "e.g. 'take; play KD to new/1 ...; discard 4C'")
    start, breaches = draw_start(before, written)
    if start is None:  # a pass or a failed demand: nothing moves, the turn passes
        return (_passed_on(before, before, before.players, before.discard_pile, before.first_out, reenters(before)),
                breaches)
    return start, breaches


def draw_start(before: Position, written: WrittenDraw) -> tuple[Position | None, tuple[Breach, ...]]:
    """The play-phase position a draw in words leads to from the draw-phase ``before`` (None where the
    draw ends the turn: a pass, a failed demand) and the draw's breaches, carried out by the checker's
    own code (``rummy.checker.draw_apply``; Robber Rummy's ``rummy.checker.robber``). Robber's pile taken
    (``take``): the whole pile in the hand, the pile empty; its top card must be melded at once, which
    the checker judges on the whole turn."""
    family = before.rules.family
    taken = written.taken
    from .checker.draw_apply import apply_draw_taken, failed_demand, no_such_draw

    if family.answers_draw_phase and taken.source in (DrawSource.DISCARD, DrawSource.PILE):
        return _robber_pile_taken(before, written), ()
    if taken.source not in family.draw_sources:
        raise no_such_draw(before, taken.source)
    if family.answers_draw_phase:  # Robber: its stock draw alone, read as its judge reads a turn
        from .checker.robber import apply_draw

        start, _, robber_breaches = apply_draw(before, _stock_drawn(before, written))
        return start, tuple(robber_breaches)
    if written.failed:
        failed = failed_demand(before, taken)
        return None, failed.breaches
    end = _stock_drawn(before, written) if taken.source == DrawSource.STOCK else None
    applied = apply_draw_taken(before, taken, end)
    return applied.start, applied.breaches


def _robber_pile_taken(before: Position, written: WrittenDraw) -> Position:
    """Robber Rummy's pile taken (rules.md §7): every card of it in the mover's hand, the pile empty."""
    pile = before.discard_pile
    take = written.taken.take
    if not pile:
        raise PositionError("draw", "the discard pile is empty: there is no pile to take")
    if take not in (None, 1, len(pile)):
        raise PositionError("draw", f"taking the pile takes all {len(pile)} of its cards: write 'take'")
    mover = before.mover
    taker = replace(mover, hand=(mover.hand or ()) + tuple(c.plain() for c in pile), hot=(), warm=())
    return replace(before.replace_player(taker), phase=Phase.PLAY, turn=None, discard_pile=())


def _stock_drawn(before: Position, written: WrittenDraw) -> Position:
    """``before`` in the play phase with the stock's top cards in the mover's hand: the cards named, or
    the stock's listed top ones; the stock that many cards shorter. One card, or as many as the words
    say (``draw 3``, ``draw 7H 8C 2S``: House Epic's re-entry, judged by the checker's draw code)."""
    stock = before.stock
    count = len(written.cards) or written.taken.take or reentry_draw_count(before) or 1
    if not written.cards and isinstance(stock, (tuple, int)):  # "draw 3" from a stock of 2 draws both
        count = max(min(count, len(stock) if isinstance(stock, tuple) else stock), 1)
    listed = tuple(c.plain() for c in stock[:count]) if isinstance(stock, tuple) else ()
    named = written.cards or ((written.card,) if written.card is not None else ())
    deck = before.rules.deck
    mover = before.mover
    if named and isinstance(stock, int) and len(named) > max(stock, 0):
        raise PositionError("draw", f"{cards_notation(named, deck)}: {len(named)} cards named, but the stock holds "
                            f"{stock}")
    if mover.hand is None:  # a hidden hand: that many cards more, none kept as known (formats.md "A hidden mover")
        if listed and named and tuple(named) != listed:
            raise PositionError("draw", f"the stock's top {'card is' if count == 1 else f'{count} cards are'} "
                                f"{cards_notation(listed, deck)}, not {cards_notation(named, deck)}")
        drawer = replace(mover, hand_count=mover.hand_size + count, hot=(), warm=())
        return replace(before.replace_player(drawer), phase=Phase.PLAY, turn=None, stock=_fewer(stock, count))
    cards = named or listed
    if len(cards) < count:
        raise PositionError("draw", f"the stock's cards are not listed: name the card{'s' if count > 1 else ''} "
                            f"drawn ({'draw 7H 8C 2S' if count > 1 else 'draw 7H'})")
    if listed and tuple(cards) != listed:
        raise PositionError("draw", f"the stock's top {'card is' if count == 1 else f'{count} cards are'} "
                            f"{cards_notation(listed, deck)}, not {cards_notation(cards, deck)}")
    drawer = replace(mover, hand=(mover.hand or ()) + tuple(cards), hot=(), warm=())
    return replace(before.replace_player(drawer), phase=Phase.PLAY, turn=None, stock=_fewer(stock, count))


def _fewer(stock: Stock, count: int) -> Stock:
    """The stock after its top ``count`` cards are drawn (a count never below 0)."""
    if isinstance(stock, tuple):
        return stock[count:]
    if isinstance(stock, int) and stock > 0:
        return max(stock - count, 0)
    return stock


def _unseen_breaches(before: Position, after: Position, named: Card | None) -> tuple[Breach, ...]:
    """A tile drawn must be one the position does not show (tile rummy has no draw judge to say it);
    a hidden hand's tile is the one named, if any. A listed pool's top tile is the tile drawn (``_stock_drawn``
    holds the draw to it), and the listed pool shows every copy: nothing to check."""
    if isinstance(before.stock, tuple) and before.stock:
        return ()
    if before.mover.hand is None:
        card = named.plain() if named is not None else None
    else:
        drawn = Counter(c.plain() for c in after.mover.hand or ()) - Counter(c.plain() for c in before.mover.hand or ())
        card = next(iter(drawn))
    if card is None or before.unseen_cards()[card] > 0:
        return ()
    shown = card.notation(before.rules.deck)
    return (Breach("conservation", f"{shown} cannot have come from the pool: every copy is accounted for",
                   (shown,)),)


def _passed_on(start: Position, after: Position, players: tuple[Player, ...], pile: tuple[Card, ...],
               first_out: str | None, reentered: bool = False) -> Position:
    """``after`` with the turn passed to the next player, in the family's first phase, no card hot or warm.
    ``reentered``: House Epic's first out has taken their re-entry turn (kept once set)."""
    family = start.rules.family
    players = tuple(_cleared(p) for p in players)
    reentered = reentered or start.reentered
    comes_back = first_out if first_out is not None and not reentered and first_out_reenters(start.rules) else None
    last_turns = start.last_turns
    if last_turns is not None:  # the mover's one more turn is played
        last_turns = tuple(name for name in last_turns if name != start.to_move)
    return replace(
        after,
        players=players,
        to_move=last_turns[0] if last_turns else _next_player(start.to_move, players, comes_back),
        last_turns=last_turns,
        first_out_points=start.first_out_points,
        phase=Phase.DRAW if family.draw_judge is not None else Phase.PLAY,
        first_out=first_out,
        reentered=reentered,
        discard_pile=pile,
        turn=None,
        puzzle=None,
        table_bag=None,
        reading=None,
    )


def _cleared(player: Player) -> Player:
    """A player with no hot or warm cards: temperatures last only for the turn they were drawn in."""
    return replace(player, hot=(), warm=()) if player.hot or player.warm else player


def _next_player(mover: str, players: tuple[Player, ...], comes_back: str | None = None) -> str:
    """The next player after ``mover`` in seating order who holds a card, or who comes back into the hand
    (``comes_back``: House Epic's first out before their re-entry turn); the mover again when nobody else does."""
    names = [p.name for p in players]
    start = names.index(mover)
    for step in range(1, len(players)):
        player = players[(start + step) % len(players)]
        if player.hand_size > 0 or player.name == comes_back:
            return player.name
    return mover
