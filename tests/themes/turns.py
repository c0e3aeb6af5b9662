"""Hand-made turns for the theme detectors: a before and an after position, judged legal first."""

from __future__ import annotations

from typing import Any

import tomli_w

from rummy.checker import check
from rummy.position import Position
from rummy.themes import themes_of


def position(rules: str, players: dict[str, dict[str, Any]], *, table: list[str] | None = None,
             discard: str = "", turn: dict[str, Any] | None = None, strict: bool = True, stock: int = 20,
             **top: Any) -> Position:
    data: dict[str, Any] = {"rules": rules, "to_move": "ann", **top}
    if rules.startswith("house") and "hand_number" not in data:
        data["hand_number"] = 1
    if table is not None:
        data["table"] = table
    data["players"] = players
    data["piles"] = {"discard": discard, "stock": stock}
    if turn is not None:
        data["turn"] = turn
    return Position.from_toml(tomli_w.dumps(data), strict=strict)


def themes(before: Position, after: Position, kind: str | None = None) -> tuple[str, ...]:
    """The turn's themes; the turn is legal (a theme of an illegal turn would mean nothing)."""
    verdict = check(before, after)
    assert verdict.legal, verdict
    return themes_of(before, after, kind)
