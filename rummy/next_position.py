"""The position after a turn: what ``rummy play`` prints (issue 27 §1).

``next_position(before, after)`` takes a play-phase position and the end
state of a legal turn, exactly as ``check`` judged it (``rummy.reports.check``
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
more this hand; Epic's re-entry draw of three cards is left out here as in
draw advice (docs/draw.md). Draw turns and the end of a hand are not applied
yet (docs/notes-i27-play.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .checker.facts import gather_facts
from .errors import PositionError
from .position import Player, Position
from .vocabulary import Phase


def next_position(before: Position, after: Position, reading: Mapping[str, Any] | None = None) -> Position:
    """The position after the legal turn from the play-phase ``before`` to ``after``, the next player
    to move. ``reading`` is the checker's reading of the turn (its ``meld``, where the family reads one).

    Whether the turn is legal is the caller's question (``rummy.checker.check``): this only carries it out.
    """
    if before.phase != Phase.PLAY:
        raise PositionError("before: phase", f"{before.phase!r}: 'play' applies play-phase turns (draw turns are "
                            "not applied yet)")
    facts = gather_facts(before, after)  # the discard exactly as the checker read it
    mover_after = after.player(before.to_move)
    if not before.rules.discard and len(mover_after.hand or ()) >= before.mover.hand_size:
        # Tile rummy: a player who plays nothing draws a tile, which this turn does not name.
        raise PositionError("turn", f"{before.to_move} plays nothing, so they draw a tile instead; "
                            "draw turns are not carried out yet")
    melded = before.mover.melded or mover_after.melded or bool((reading or {}).get("meld"))
    players = tuple(_cleared(p) for p in after.players)
    players = tuple(replace(p, melded=melded) if p.name == before.to_move else p for p in players)
    first_out = before.first_out
    if first_out is None and not mover_after.hand:
        first_out = before.to_move
    family = before.rules.family
    result = replace(
        after,
        players=players,
        to_move=_next_player(before.to_move, players),
        phase=Phase.DRAW if family.draw_judge is not None else Phase.PLAY,
        first_out=first_out,
        discard_pile=before.discard_pile + tuple(facts.discards),
        turn=None,
        puzzle=None,
        table_bag=None,
        reading=None,
    )
    return result


def _cleared(player: Player) -> Player:
    """A player with no hot or warm cards: temperatures last only for the turn they were drawn in."""
    return replace(player, hot=(), warm=()) if player.hot or player.warm else player


def _next_player(mover: str, players: tuple[Player, ...]) -> str:
    """The next player after ``mover`` in seating order who holds a card; the mover again when nobody else does."""
    names = [p.name for p in players]
    start = names.index(mover)
    for step in range(1, len(players)):
        player = players[(start + step) % len(players)]
        if player.hand_size > 0:
            return player.name
    return mover
