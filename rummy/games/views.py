"""What one player sees of a position: the one definition self-play, review and the page's rummy seats use."""

from __future__ import annotations

from dataclasses import replace

from rummy.position import Position


def as_seen_by(position: Position, name: str) -> Position:
    """The position as ``name`` sees it: every other hand hidden behind its count (its hot and warm
    cards forgotten: they mark that hand's duty, not this player's knowledge), and a listed stock
    as its count."""
    players = tuple(player if player.name == name or player.hand is None
                    else replace(player, hand=None, hand_count=len(player.hand), hot=(), warm=())
                    for player in position.players)
    stock = len(position.stock) if isinstance(position.stock, tuple) else position.stock
    return replace(position, players=players, stock=stock)


__all__ = ["as_seen_by"]
