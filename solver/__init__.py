"""rummy: a constraint-solver assistant for rummy games where the table can be rearranged."""

from .cards import JOKER, Card, cards_notation, parse_cards
from .errors import NotationError, PositionError, RulesError, RummyError
from .plays import Play, Reading, is_whole, readings
from .position import Attached, Player, Position, Replacement, Turn
from .rules import PRESETS, Ruleset, preset

__all__ = [
    "JOKER", "Attached", "Card", "NotationError", "PRESETS", "Play", "Player", "Position", "PositionError",
    "Reading", "Replacement", "RulesError", "Ruleset", "RummyError", "Turn", "cards_notation", "is_whole",
    "parse_cards", "preset", "readings",
]
