"""Tile rummy's theme detectors (docs/themes.md, "Tile rummy")."""

from __future__ import annotations

from collections.abc import Callable

from ..vocabulary import Action, JokerMode, PuzzleKind
from .rearranging import reshaped, split_run, table_jokers_moved
from .turn import TurnView, going_out


def joker_reuse(view: TurnView) -> bool:
    """A joker of the table ends in another play, moved there (a joker freed by a tile from the rack
    in a fixed-joker game is ``fixed-joker-swap``)."""
    freed = len(view.steps(Action.REPLACE_JOKER)) if view.rules.joker_mode == JokerMode.FIXED else 0
    return table_jokers_moved(view) > freed


def fixed_joker_swap(view: TurnView) -> bool:
    return view.rules.joker_mode == JokerMode.FIXED and bool(view.steps(Action.REPLACE_JOKER))


def sacrifice(view: TurnView) -> bool:
    """A rack tile that fits a play of the table before the turn on its own stays in the rack: the turn
    gives up that sure play for more tiles elsewhere (not when the turn plays as many tiles as it may)."""
    if not view.before.mover.melded or not view.hand_after:
        return False
    cap = view.rules.max_cards_per_turn
    if cap is not None and len(view.played) >= cap:
        return False
    return any(view.fits(cards, tile) for tile in set(view.hand_after) for cards in view.before_plays.values())



DETECTORS: dict[str, Callable[[TurnView], bool]] = {
    "joker-reuse": joker_reuse,
    "fixed-joker-swap": fixed_joker_swap,
    "runs-into-groups": lambda view: reshaped(view, "run", "book"),
    "groups-into-runs": lambda view: reshaped(view, "book", "run"),
    "split-and-insert": split_run,
    "sacrifice": sacrifice,
    "going-out": going_out,
}

TASK_THEMES: dict[str, frozenset[str]] = {
    PuzzleKind.PLAY_ALL: frozenset({"going-out"}),  # its task is emptying the rack
}
