"""A shared-table (tile) position written inline, in a few words, as the command line gives it.

``inline_position(InlineParts(rules="rummikub", table="R1 R2 R3 B5 B6 B7",
hand="R4 K4 *", melded=True))`` is the position of
``rummy best --rules rummikub --table "..." --hand "..." --melded``: the
table is a bag (rummy.table_bag lays it out), the hand is the mover's, and
what the words leave out is assumed and said (``Assumed``): who moves, whether
they have melded, the opponents and the tiles each holds.

The parts become the data of a position file and are read by the reader,
so an inline position is checked exactly as a file is; each error's place
is the option that gave the value (``--hand: unknown card 'X9' ...``).
Reading is linear in the text: names and counts are split at most
``MAX_PLAYERS`` + 1 times, cards as the reader splits them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from .errors import PositionError, PositionErrors, RulesError, RummyError, quote
from .position import Position
from .reader import MAX_CARDS, MAX_PLAYERS, first_words, name_problem, read_position
from .rules import dealt, preset

DEFAULT_RULES = "rummikub"
MOVER = "you"  # the mover's name when --players gives none
OPPONENT = "opp"  # opponents are opp1, opp2, ... when --players gives a count
RACK = 14  # tiles each opponent is assumed to hold where the preset's deal is not known (rules.DEALS)
SOURCE = "inline position"


@dataclass(frozen=True)
class InlineParts:
    """What the command line gave; None where an option was left out."""

    rules: str | None = None
    table: str | None = None
    hand: str | None = None
    melded: bool = False
    to_move: str | None = None
    players: str | None = None  # names ("ann bob cat") or a count ("3")
    hand_count: str | None = None  # one count for every opponent, or one each in order

    def given(self) -> bool:
        return self.melded or any(v is not None for v in (self.rules, self.table, self.hand, self.to_move,
                                                          self.players, self.hand_count))


@dataclass(frozen=True)
class Assumed:
    """What an inline position takes for granted, said with its answer (human lines and --json)."""

    rules: str
    rules_given: bool
    to_move: str
    melded: bool
    opponents: tuple[str, ...]
    hand_counts: tuple[int, ...]  # per opponent
    counts_given: bool

    def to_data(self) -> dict[str, Any]:
        return {"rules": self.rules, "to_move": self.to_move, "melded": self.melded,
                "opponents": len(self.opponents), "hand_counts": dict(zip(self.opponents, self.hand_counts))}


# Where each place of the position's data came from on the command line.
def _option_of(place: str, mover: str) -> str:
    if place == "table" or place.startswith("table["):
        return "--table"
    if place == f"players.{mover}.hand":
        return "--hand"
    if place.endswith(".hand_count"):
        return "--hand-count"
    if place.startswith("players"):
        return "--players"
    return {"rules": "--rules", "to_move": "--to-move"}.get(place, SOURCE)


def inline_position(parts: InlineParts) -> tuple[Position, Assumed]:
    """The position the parts describe, and what was assumed; ``PositionError`` naming the option."""
    rules_name = parts.rules or DEFAULT_RULES
    try:
        rules = preset(rules_name)
    except RulesError as error:
        raise PositionError("--rules", str(error)) from None
    if not rules.family.shared_table:
        raise PositionError("--rules", f"{rules.name} lays plays in players' spaces; an inline position is for "
                                       f"the shared-table (tile) games: write a position file for it")
    if parts.hand is None:
        raise PositionError("--hand", "missing: the tiles of the player to move, e.g. --hand \"R4 K4 *\"")
    names = _players(parts.players, parts.to_move)
    mover = parts.to_move or names[0]
    if mover not in names:
        raise PositionError("--to-move", f"{quote(mover)} is not one of --players ({' '.join(names)})")
    opponents = tuple(name for name in names if name != mover)
    counts = _counts(parts.hand_count, len(opponents))
    data: dict[str, Any] = {"rules": rules.name, "to_move": mover,
                            "players": {mover: {"melded": parts.melded, "hand": parts.hand}}}
    if parts.table is not None:
        data["table"] = parts.table
    for name, count in zip(opponents, counts or [0] * len(opponents)):
        # No option gives an opponent's melding (it does not change the mover's turn): stated, so that
        # no warning asks for a key an inline position cannot give.
        data["players"][name] = {"hand_count": count, "melded": False}
    try:
        position = read_position(data, SOURCE)
    except PositionError as error:
        raise _from_options(error, mover) from None
    if counts is None:  # as many as the preset deals (as the warnings count), as long as the deck holds them
        free = len(position.rules.deck_cards) - len(position.known_cards())
        deal = dealt(position.rules, len(names)) or RACK
        counts = tuple([min(deal, free // len(opponents))] * len(opponents)) if opponents else ()
        position = replace(position, players=tuple(
            player if player.name == mover else replace(player, hand_count=counts[0]) for player in position.players))
    assumed = Assumed(rules.name, parts.rules is not None, mover, parts.melded, opponents, counts,
                      parts.hand_count is not None)
    return position, assumed


def _from_options(error: PositionError, mover: str) -> PositionError:
    """The reader's error with its place named as the option that gave the value."""
    def renamed(one: PositionError) -> PositionError:
        place = one.place.removeprefix(SOURCE).removeprefix(": ")
        return type(one)(_option_of(place, mover), one.problem)

    if isinstance(error, PositionErrors):
        return PositionErrors([renamed(one) for one in error.errors])
    return renamed(error)


def _players(text: str | None, to_move: str | None) -> list[str]:
    """The players' names: given, or made from a count (the mover first)."""
    mover = to_move or MOVER
    problem = name_problem(mover)
    if problem:  # told here, or the reader would blame --players, which may not be given
        raise PositionError("--to-move", problem)
    if text is None:
        return [mover, f"{OPPONENT}1"]
    words = first_words(text, MAX_PLAYERS)
    if len(words) == 1 and words[0].isdigit() and words[0].isascii():
        if len(words[0]) > 2 or not 1 <= int(words[0]) <= MAX_PLAYERS:
            raise PositionError("--players", f"{quote(words[0])} players; a position has 1 to {MAX_PLAYERS}")
        return [mover] + [f"{OPPONENT}{k}" for k in range(1, int(words[0]))]
    if not words:
        raise PositionError("--players", "expected names (\"ann bob\") or a count (\"3\"), got nothing")
    if len(words) > MAX_PLAYERS:
        raise PositionError("--players", f"more than {MAX_PLAYERS} players; a position has at most {MAX_PLAYERS}")
    for name in words:
        problem = name_problem(name)
        if problem:
            raise PositionError("--players", problem)
    twice = [name for name, n in Counter(words).items() if n > 1]
    if twice:
        raise PositionError("--players", f"{quote(twice[0])} is named twice")
    return words


def _counts(text: str | None, opponents: int) -> tuple[int, ...] | None:
    """Each opponent's tile count: one number for all, or one each (None: not given)."""
    if text is None:
        return None
    words = first_words(text, MAX_PLAYERS)
    counts = []
    for word in words:
        if not (word.isdigit() and word.isascii() and len(word) <= 4 and int(word) <= MAX_CARDS):
            raise PositionError("--hand-count", f"{quote(word)} is not a tile count (0 to {MAX_CARDS})")
        counts.append(int(word))
    if len(counts) == 1:
        return tuple(counts * opponents)
    if len(counts) != opponents:
        raise PositionError("--hand-count", f"{len(counts)} counts for {opponents} opponent"
                                            f"{'s' if opponents != 1 else ''}: give one for all, or one each")
    return tuple(counts)


def check_inline_alone(parts: InlineParts, positions: int) -> None:
    """A position is given inline or as POSITION, never both (nor neither)."""
    if parts.given() and positions:
        raise RummyError("a position is given either inline (--rules, --table, --hand, --melded, --to-move, "
                         "--players, --hand-count) or as POSITION, not both")
    if not parts.given() and not positions:
        raise RummyError("POSITION: missing: give a position file (or - for stdin), or a tile position inline "
                         "(--table, --hand, ...)")
