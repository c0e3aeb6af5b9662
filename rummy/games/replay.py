"""Replaying a game record: every position of every hand, each turn read and judged as ``check`` does.

A turn is carried out by ``rummy.reports.play.play_turn`` (the one code path ``check`` and
``play`` share), so a replayed game is judged turn by turn; the first turn that does not
replay (illegal, unreadable, or played by someone not to move) is named in one line:
``game.toml: hand 2, turn 7 (bob: 'play 7H 8H...'): <why>``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rummy.errors import RummyError, quote
from rummy.games.record import GameRecord, HandRecord, TurnRecord
from rummy.position import Position
from rummy.reports.check import TurnReport


class GameReplayError(RummyError):
    """A turn of a game record that does not replay; ``hand`` and ``turn`` count from 1."""

    def __init__(self, message: str, hand: int, turn: int) -> None:
        super().__init__(message)
        self.hand = hand
        self.turn = turn


@dataclass(frozen=True)
class HandReplay:
    """A hand replayed: ``positions[i]`` is the position before turn i + 1 (the last one, after the
    hand's last turn), ``reports[i]`` check's report on turn i + 1."""

    record: HandRecord
    positions: tuple[Position, ...]
    reports: tuple[TurnReport, ...]

    @property
    def last(self) -> Position:
        return self.positions[-1]


def turn_label(hand: int, turn: int, record: TurnRecord) -> str:
    """How a turn is named in messages: ``hand 2, turn 7 (bob: 'play 7H 8H 9H...')``."""
    return f"hand {hand}, turn {turn} ({record.player}: {quote(record.turn)})"


def replay_hand(hand: HandRecord, number: int, source: str = "<game>",
                progress: Callable[[int], None] | None = None) -> HandReplay:
    """Replay one hand (``number`` counts from 1, for messages) from its start; ``progress`` is told
    each turn as it is replayed."""
    from rummy.hand_end import hand_end
    from rummy.reports.play import play_turn

    position = hand.start
    positions = [position]
    reports = []
    ended = None
    for index, record in enumerate(hand.turns, start=1):
        where = f"{source}: {turn_label(number, index, record)}"
        if ended is not None:
            raise GameReplayError(f"{where}: the hand ended at turn {index - 1} ({ended.reason})", number, index)
        if record.player != position.to_move:
            raise GameReplayError(f"{where}: {position.to_move} is to move, not {record.player}", number, index)
        try:
            played = play_turn(position, record.turn, "turn", "toml", where)
        except RummyError as error:
            message = str(error)
            raise GameReplayError(message if message.startswith(where) else f"{where}: {message}",
                                  number, index) from None
        if played.position is None:
            breaches = "; ".join(breach.message for breach in played.report.verdict.breaches) or "illegal"
            raise GameReplayError(f"{where}: the turn is illegal: {breaches}", number, index)
        ended = hand_end(played.position, position)
        position = played.position
        positions.append(position)
        reports.append(played.report)
        if progress is not None:
            progress(1)
    return HandReplay(hand, tuple(positions), tuple(reports))


def replay(game: GameRecord, source: str = "<game>", progress: Callable[[int], None] | None = None
           ) -> tuple[HandReplay, ...]:
    """Every hand of the game replayed, in order (each from its own start); ``progress`` is told each
    turn as it is replayed (the game's ``turn_count`` in all)."""
    return tuple(replay_hand(hand, number, source, progress) for number, hand in enumerate(game.hands, start=1))


__all__ = ["GameReplayError", "HandReplay", "replay", "replay_hand", "turn_label"]
