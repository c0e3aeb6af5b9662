"""The fixed sets of words rummy reads and writes, one ``StrEnum`` each.

Every set lives here once; the modules that use one import it from here
(``rummy.rules`` the ruleset options, ``rummy.position`` the phase,
``rummy.plan`` the step actions, ``rummy.solution`` the statuses and the
draw sources, ``rummy.generator`` the puzzle kinds and tiers, the command
line the choices of its options). tests/core/test_vocabulary.py holds each set to
the lists of the specification and docs/.

A member *is* its word (``Ace.LOW == "low"``): it prints, formats and
serialises (JSON, TOML) as the word, and its ``repr`` is the word's too, so
files, ``best --json``, messages and reprs read exactly as with plain strings.

Only the standard library is imported: the command line loads this module on
every start (its option choices), before any command runs.
"""

from __future__ import annotations

from enum import StrEnum


class Word(StrEnum):
    """A word of rummy's formats: equal to, printed and repr'd as its text."""

    def __repr__(self) -> str:
        return repr(self.value)


# ------------------------------------------------------- ruleset options (rules.md §2)
class Ace(Word):
    LOW = "low"
    HIGH_OR_LOW = "high_or_low"
    CIRCULAR = "circular"


class JokerMode(Word):
    FLEXIBLE = "flexible"
    FIXED = "fixed"


class Rearrange(Word):
    FREE = "free"
    EXTEND_ONLY = "extend_only"


class InitialMeldJoker(Word):
    STANDS_FOR = "stands_for"
    ZERO = "zero"


class FirstOutBonus(Word):
    NONE = "none"
    FIXED = "fixed"
    HANDS = "hands"


class GoingRummy(Word):
    NONE = "none"
    DOUBLE = "double"
    BONUS10 = "bonus10"


class Target(Word):
    WINNER_COLLECTS = "winner_collects"
    PENALTY_POINTS = "penalty_points"


# ------------------------------------------------------------- positions and answers
class Phase(Word):
    """Where the mover's turn stands: ``play`` (after the draw) or ``draw`` (before it)."""

    PLAY = "play"
    DRAW = "draw"


class Action(Word):
    """The ``action`` of a step of ``best``'s move plan (formats.md)."""

    REPLACE_JOKER = "replace-joker"
    MELD = "meld"
    PLAY = "play"
    MOVE = "move"
    STEAL = "steal"
    LAY_OFF = "lay-off"
    DISCARD = "discard"
    DRAW = "draw"  # the draw phase's first step


class Status(Word):
    """An answer's ``status`` (formats.md); ``unknown``: the time limit passed before any turn was found."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    DRAW = "draw"  # tile rummy: nothing can be played, draw a tile
    NO_LEGAL_TURN = "no-legal-turn"
    UNKNOWN = "unknown"


class SearchStatus(Word):
    """How one CP-SAT search ended (a model's step towards an answer's ``Status``)."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


class DrawSource(Word):
    """Where a draw takes cards from: a draw option's ``from`` (formats.md, rules.md §5 "Draw advice")."""

    STOCK = "stock"  # the top stock card
    DISCARD = "discard"  # House, lay-off: the top ``take`` cards of the discard pile
    OPEN = "open"  # House: the stock's face-up top card (the upcard), opening the stock
    PASS = "pass"  # House: leave the upcard; the turn ends at gain 0
    DEMAND = "demand"  # House Epic: a named card from another player
    PILE = "pile"  # Robber: the whole discard pile


class Objective(Word):
    """What ``best`` maximises (``--objective``); only tile rummy has more than its default."""

    DEFAULT = "default"
    TILES = "tiles"
    VALUE = "value"


# ------------------------------------------------------------------ puzzles (docs/generate.md)
class PuzzleKind(Word):
    """``rummy generate --kind``: what the puzzle asks; each kind fits some families."""

    PLAY_ALL = "play-all"
    MAX = "max"
    STEAL = "steal"
    REPLACE_MELD = "replace-meld"
    MELD_STEAL = "meld-steal"
    ACROSS = "across"
    DRAW_OR_PILE = "draw-or-pile"  # Robber's draw: the stock or the whole discard pile, then the turn
    GO_OUT = "go-out"
    MOST_POINTS = "most-points"
    MINED = "mined"  # a position of a self-played game (House, tile rummy: docs/generate.md)


class Tier(Word):
    """A puzzle's measured difficulty (``--difficulty``), easiest first."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"
