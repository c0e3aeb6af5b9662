"""Positions several test files start from, written as their files would be."""

from __future__ import annotations

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
