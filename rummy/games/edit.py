"""Changing a game record turn by turn: a new game, a turn added (read and judged as ``check`` does), the last
turn taken back. What ``rummy game new/add/undo`` do, without the terminal (rummy.cli.game prints it).

A turn is stored as one text that replays to the very position it gave (docs/formats.md "Game records"):
steps or draw words as they were typed when they replay identically, else (a position, a ``best --json``
answer, ``best``) the canonical text of the turn, ``rummy.turn_text.turn_text``. When the turn ends the hand
(``rummy.hand_end``) its result is written and, in a dealt game, the next hand is dealt from the seed derived
from the first hand's (``rummy.games.record.hand_seed``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummy.draw_words import looks_like_draw
from rummy.errors import PositionError, RummyError, quote
from rummy.games.record import (
    MAX_COMMENT_CHARS,
    MAX_TURN_CHARS,
    GameRecord,
    HandRecord,
    TurnRecord,
    hand_seed,
    read_players,
    read_title,
)
from rummy.games.replay import HandReplay, replay
from rummy.position import Position
from rummy.reports.play import PlayedTurn, play_turn
from rummy.rules import Ruleset
from rummy.steps_notation import looks_like_steps

if TYPE_CHECKING:
    from rummy.hand_end import HandEnd, NextHand

# How a stored turn is read back on replay (rummy.games.replay): the same call, the same source and kind.
STORED_SOURCE, STORED_KIND = "turn", "toml"


@dataclass(frozen=True)
class ReplayedGame:
    """A game record with every hand replayed."""

    record: GameRecord
    hands: tuple[HandReplay, ...]

    @property
    def position(self) -> Position:
        """The position the game is at: after the last hand's last turn."""
        return self.hands[-1].last

    @property
    def over(self) -> bool:
        """The last hand is over (its result is written) and no hand follows it."""
        return self.record.hands[-1].result is not None


def replayed(record: GameRecord, source: str, progress: Callable[[int], None] | None = None) -> ReplayedGame:
    """The record replayed (GameReplayError names the first turn that does not replay)."""
    return ReplayedGame(with_a_hand(record, source), replay(record, source, progress))


def with_a_hand(record: GameRecord, source: str) -> GameRecord:
    """The record, which the commands need to have a hand (a file may have none)."""
    if not record.hands:
        raise PositionError(source, "the game has no hand (a game record needs at least one [[hands]])")
    return record


# ------------------------------------------------------------------ a new game
def dealt_hand(rules: Ruleset, players: tuple[str, ...], seed: int, hand_number: int = 1) -> HandRecord:
    """A hand dealt by ``rummy.deal`` from ``seed``: every hand known, the stock listed."""
    from rummy.deal import deal

    return HandRecord(deal(rules, players, seed, hand_number), deal=seed)


def new_game(rules: Ruleset, players: tuple[str, ...], start: Position | None, seed: int | None,
             title: str | None = None, where: str = "--position") -> GameRecord:
    """A game of one hand not yet played: dealt from ``seed``, or from a given ``start`` (whose rules and
    players must be the game's; ``where`` names it in messages)."""
    game = GameRecord(rules, read_players(list(players), "--players"), (), read_title(title, "--title"))
    if start is None:
        if seed is None:
            raise RummyError("a new game needs a deal's seed or a starting position")
        return game.with_hand(dealt_hand(rules, game.players, seed))
    return _with_start(game, start, where)


def _with_start(game: GameRecord, start: Position, where: str) -> GameRecord:
    try:
        return game.with_hand(HandRecord(start))
    except PositionError as error:
        raise PositionError(where, error.problem) from None


def begin_next_hand(game: ReplayedGame, start: Position | None, seed: int | None, where: str) -> GameRecord:
    """The game with its next hand begun, once the last is over: dealt from ``seed`` or from ``start``."""
    number = len(game.record.hands) + 1
    if not game.over:
        raise RummyError(f"{where}: hand {number - 1} is not over (it has no result yet): "
                         "play it to its end before the next hand")
    if start is None:
        if seed is None:
            raise RummyError("the next hand needs a deal's seed or a starting position")
        return game.record.with_hand(dealt_hand(game.record.rules, game.record.players, seed, number))
    return _with_start(game.record, start, where)


# ------------------------------------------------------------------ a turn added
@dataclass(frozen=True)
class AddedTurn:
    """A turn given to a game: check's judgement of it, and for a legal one the game with it added (``turn``
    as stored), the position after it; when it ended the hand, how (``ending``), the result written (empty
    when the hand could not be scored) and the next hand dealt, or why the game is over."""

    played: PlayedTurn
    game: GameRecord | None = None
    turn: TurnRecord | None = None
    ending: HandEnd | None = None
    result: Mapping[str, float] | None = None
    next_hand: HandRecord | None = None
    game_over: str | None = None  # why no hand follows, in a dealt game whose last hand this turn ended

    @property
    def position(self) -> Position | None:
        return self.played.position


def add_turn(game: ReplayedGame, text: str, source: str, kind: str, where: str,
             comment: str | None = None) -> AddedTurn:
    """Read ``text`` as ``play`` reads TURN from the game's last position, judge it, and add a legal turn."""
    if game.over:
        hand = len(game.record.hands)
        raise RummyError(f"{where}: hand {hand} is over (its result is written) and no hand follows it: "
                         "begin the next with 'rummy game hand'")
    if comment is not None and len(comment) > MAX_COMMENT_CHARS:
        raise RummyError(f"--comment: at most {MAX_COMMENT_CHARS:,} characters, got {len(comment):,}")
    before = game.position
    played = play_turn(before, text, source, kind, where)
    if played.position is None:
        return AddedTurn(played)
    stored = TurnRecord(before.to_move, stored_text(before, text, played), comment or None)
    record = game.record.with_turn(stored)
    ending = hand_end_of(played.position, before)
    if ending is None:
        return AddedTurn(played, record, stored)
    result = dict(ending.scores or {})  # an empty result: the hand is over, not scored (a hidden hand)
    record = record.with_result(result)
    next_hand, game_over = None, None
    first_seed = record.hands[0].deal
    if first_seed is not None and record.hands[-1].deal is not None:  # a dealt game deals the next hand
        following = following_hand(record, ending)
        game_over = following.game_over
        if game_over is None:
            seed = hand_seed(first_seed, following.hand_number)
            next_hand = dealt_hand(record.rules, record.players, seed, following.hand_number)
            record = record.with_hand(next_hand)
    return AddedTurn(played, record, stored, ending, result, next_hand, game_over)


def hand_end_of(position: Position, before: Position) -> HandEnd | None:
    """The end of the hand ``position`` is at, the position the turn from ``before`` led to (rummy.hand_end)."""
    from rummy.hand_end import hand_end

    return hand_end(position, before)


def following_hand(record: GameRecord, ending: HandEnd) -> NextHand:
    """What comes after the record's last hand, which ``ending`` ended: the next hand's number, or why the
    game is over (rummy.hand_end.next_hand, with the totals of the hands before)."""
    from rummy.hand_end import next_hand

    number = len(record.hands)
    names = record.players
    dealer = names[(number - 2) % len(names)]  # rummy.deal: hand 1's dealer is the last seat, then to the left
    totals = {name: int(score) for name, score in record.totals(number - 1).items()}
    return next_hand(ending, record.rules, names, number, dealer, totals)


def stored_text(before: Position, typed: str, played: PlayedTurn) -> str:
    """The turn's text for the record: steps or draw words as typed when they replay to the same position
    (and fit a record's bound), else the turn's canonical text (which must replay so)."""
    assert played.position is not None  # only a legal turn is stored
    typed = typed.strip()
    if (looks_like_draw(typed) or looks_like_steps(typed)) and len(typed) <= MAX_TURN_CHARS \
            and _replays_to(before, typed, played.position):
        return typed
    from rummy.turn_text import turn_text

    text = turn_text(before, played.after, played.report.verdict.reading)
    if not _replays_to(before, text, played.position):
        # turn_text's promise broken: a bug of rummy's, not the user's input.
        raise RuntimeError(f"the turn's text {text!r} does not replay to the position the turn gave")
    return text


def _replays_to(before: Position, text: str, position: Position) -> bool:
    try:
        again = play_turn(before, text, STORED_SOURCE, STORED_KIND, "turn")
    except RummyError:
        return False
    return again.position == position


# ------------------------------------------------------------------ a turn taken back
def undo(game: GameRecord) -> tuple[GameRecord, int, TurnRecord]:
    """The game with its last turn taken back; the hand it was in (from 1) and the turn."""
    smaller = game.without_last_turn()
    hand = len(smaller.hands)
    last = game.hands[hand - 1].turns[-1]
    return smaller, hand, last


def named_players(text: str) -> tuple[str, ...]:
    """``--players ann,bob,cat`` read (commas, spaces around them allowed)."""
    names = tuple(name.strip() for name in text.split(","))
    if any(not name for name in names):
        raise RummyError(f"--players {quote(text)}: give the names separated by commas, e.g. ann,bob,cat")
    return names


__all__ = [
    "AddedTurn",
    "ReplayedGame",
    "add_turn",
    "begin_next_hand",
    "dealt_hand",
    "following_hand",
    "hand_end_of",
    "named_players",
    "new_game",
    "replayed",
    "stored_text",
    "undo",
    "with_a_hand",
]
