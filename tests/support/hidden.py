"""A position's mover hidden, as an opponent's turn is entered: the hand given by ``hand_count`` alone."""

from __future__ import annotations

from dataclasses import replace

from rummy.position import Position


def hidden_mover(position: Position) -> Position:
    """``position`` with the mover's hand replaced by its count (hot and warm kept: cards seen taken)."""
    mover = position.mover
    assert mover.hand is not None
    return position.replace_player(replace(mover, hand=None, hand_count=len(mover.hand)))

