"""Positions several test files start from, written as their files would be."""

from __future__ import annotations

from typing import Any

from rummy.position import Position

# House Epic: bob to move with a hand (``{hand}``) and its hot and warm cards to fill in.
EPIC_BOB = """
rules = "house-epic"
hand_number = 1
to_move = "bob"
[players.ann]
melded = true
hand = "KS"
space = ["5H 6H 7H"]
[players.bob]
melded = true
hand = "{hand}"
hot = "{hot}"
warm = "{warm}"
[piles]
discard = "3D"
stock = 20
"""

# Robber's draw phase: ann to move, the stock's size (``STOCK``) to fill in.
DRAW_BEFORE = """rules = "robber"
to_move = "ann"
phase = "draw"

[players.ann]
hand = "2C 9D"
plays = ["5H 6H 7H"]

[players.bob]
hand_count = 9

[piles]
discard = "QS"
stock = STOCK
"""


def two_players(rules: str, ann: dict[str, Any], bob: dict[str, Any], strict: bool = True, **piles: Any) -> Position:
    """ann to move against bob; House positions are in their first hand."""
    data: dict[str, Any] = {"rules": rules, "to_move": "ann", "players": {"ann": ann, "bob": bob}, "piles": piles}
    if rules.startswith("house"):
        data["hand_number"] = 1
    return Position.from_data(data, strict=strict)


def hidden_hand(rules: str) -> Position:
    """bob's hand of three is hidden; ann sees nine cards."""
    return two_players(rules, {"melded": True, "hand": "KS *", "space": ["5H 6H 7H"]},
                       {"melded": True, "hand_count": 3, "space": ["2C 3C 4C"]}, discard="9D")
