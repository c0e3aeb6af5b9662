"""Self-play: whole hands dealt from a seeded deck and played by the engine in every seat (issue 27 §3).

Each hand starts from ``rummy.deal.deal`` (hand 1 from the seed itself, hand k
from ``hand_seed(seed, k)``) and is played on the full-knowledge position, in
which every hand is known and the stock is listed. A seat sees only its own
hand: ``seat_view`` hides the others' hands (``hand_count``) and the stock's
order (a count), and ``rummy.answer.best`` answers that view:

- in the draw phase (House, Robber, lay-off rummy) the draw advice chooses the
  draw; a random one (the stock, a demand from a hidden hand) is then made on
  the full position, where the stock's listed top card is the card drawn and
  the hand asked holds the card or not; the play after it is the best turn of
  the seat's new view, unless the draw was certain and its answer already
  holds the turn;
- in tile rummy a seat that plays nothing draws the pool's top tile.

Every turn is one text (``rummy.turn_text``: the draw's words, then the
play's steps) carried out by ``rummy.reports.play.play_turn``, the code
``check`` and ``play`` share: every turn is judged by the checker as it is
made, and a turn it refuses is a bug in rummy (``SelfPlayBug``), never a
normal ending. A draw with nothing legal after it (House's pass, a failed
demand) is a normal turn. The hand ends where ``rummy.hand_end.hand_end``
says (``play_turn``'s ``ending``), its scores the hand's result; the game
record (``rummy.games.record``) holds each hand's seed, start, turns and
result, so replaying it rebuilds every position.

Choices the rules leave to the players, made here:

- House's opening of the stock: if every other player passes the upcard, the
  dealer must take it (seeds/house-rummy.txt §7); draw advice may still
  advise the dealer to pass, so self-play opens for them.
- House Epic: a demand is said aloud, so one that failed is not made again
  this hand by any seat (the view has no key for a card a hand lacks, and
  two seats could otherwise ask each other forever); first out re-enters
  by the draw advice's choice, and a stock draw then takes three (the
  advice values it as one card: rules.md §5 leaves re-entry out of it).
- A hand whose position comes round a third time (seats taking each other's
  discards) is stopped, unfinished (``SelfPlayed.stopped``): the engine's
  answers depend on the position alone, so it would go round for ever.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rummy.answer import Answer, best
from rummy.cards import Card
from rummy.checker.draw_apply import reentry_draw_count
from rummy.deal import deal
from rummy.draw_words import draw_text
from rummy.errors import RummyError
from rummy.games.record import GameRecord, HandRecord, TurnRecord, hand_seed
from rummy.games.views import as_seen_by
from rummy.hand_end import HandEnd, next_hand
from rummy.position import DrawTaken, Position
from rummy.reports.play import PlayedTurn, play_turn
from rummy.rules import Ruleset
from rummy.solution import SolverConfig
from rummy.turn_text import answer_turn_text, turn_text_or_none
from rummy.vocabulary import DrawSource, Phase, Status

DEFAULT_TIME_LIMIT = 2.0  # seconds per answer; a feasible answer at the limit is fine for self-play
RETRY_FACTOR = 4  # an answer with no turn at the limit is asked again with this many times the time...
MAX_RETRY_SECONDS = 120.0  # ...up to this long
MAX_TURNS_PER_HAND = 1_000  # a hand still going after this many turns is stopped (House hands take under 200)
CYCLE_REPEATS = 3  # a hand whose position comes round this often is stopped: the seats go round in a cycle
PLAYER_NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")


class SelfPlayBug(RuntimeError):
    """A turn the engine chose that the checker refused, or that did not carry out: a bug in rummy, not
    bad input (the command exits 3). ``game`` is the game up to that turn."""

    def __init__(self, message: str, game: GameRecord | None = None) -> None:
        super().__init__(message)
        self.game = game


@dataclass(frozen=True)
class TurnTiming:
    """How long one seat's turn took to choose and carry out, and whether an answer stopped at the limit."""

    hand: int
    turn: int
    player: str
    seconds: float
    at_limit: bool


@dataclass(frozen=True)
class SelfPlayed:
    """A self-played game: its record, the time each turn took, and each hand's positions as they were
    played (the start, then the position after each of the hand's turn records, as a replay gives them)."""

    game: GameRecord
    timings: tuple[TurnTiming, ...]
    positions: tuple[tuple[Position, ...], ...] = ()
    endings: tuple[HandEnd, ...] = ()  # how each hand ended (rummy.hand_end), scored where it could be
    totals: Mapping[str, int] | None = None  # the running totals after the last hand (rummy.hand_end.next_hand)
    game_over: str | None = None  # why the game ended before the hands asked for, if it did
    stopped: str | None = None  # why the last hand was stopped before its end (a cycle), if it was

    def summary(self) -> str:
        """``3 hands, 112 turns in 41.2 s (median 0.31 s a turn, slowest 2.05 s; 4 at the time limit)``."""
        seconds = sorted(t.seconds for t in self.timings)
        if not seconds:
            return f"{len(self.game.hands)} hands, no turn"
        at_limit = sum(t.at_limit for t in self.timings)
        totals = ", ".join(f"{name} {points}" for name, points in (self.totals or {}).items())
        return (f"{len(self.game.hands)} hand{'s' * (len(self.game.hands) != 1)}, {len(seconds)} turns in "
                f"{sum(seconds):.1f} s (median {seconds[len(seconds) // 2]:.2f} s a turn, slowest "
                f"{seconds[-1]:.2f} s; {at_limit} at the time limit)" + (f"; totals {totals}" if totals else "")
                + (f"; the game is over: {self.game_over}" if self.game_over else "")
                + (f"; {self.stopped}" if self.stopped else ""))


Progress = Callable[[int, int, str, float], None]  # hand, turn, player, seconds of the turn


def seat_view(position: Position) -> Position:
    """What the mover sees: their own hand; the others' as counts; the stock as a count."""
    return as_seen_by(position, position.to_move)


def selfplay(rules: Ruleset, players: Sequence[str], seed: int, hands: int = 1,
             time_limit: float = DEFAULT_TIME_LIMIT, progress: Progress | None = None) -> SelfPlayed:
    """Deal and play ``hands`` whole hands with the engine in every seat (fewer where the game is over first:
    ``rummy.hand_end.next_hand``). RulesError where the rules deal no such game (``rummy.deal.deal``);
    SelfPlayBug where a turn of the engine is refused."""
    game = GameRecord(rules, tuple(players))
    timings: list[TurnTiming] = []
    positions: list[tuple[Position, ...]] = []
    endings: list[HandEnd] = []
    totals: Mapping[str, int] | None = None
    for number in range(1, hands + 1):
        seed_k = hand_seed(seed, number)
        start = deal(rules, players, seed_k, number)
        game = game.with_hand(HandRecord(start, deal=seed_k))
        game, played, hand_positions, ending = _play_hand(game, number, start, time_limit, progress)
        timings += played
        positions.append(hand_positions)
        if isinstance(ending, str):  # stopped: no end, no next hand
            return SelfPlayed(game, tuple(timings), tuple(positions), tuple(endings), totals, stopped=ending)
        endings.append(ending)
        names = [p.name for p in start.players]
        following = next_hand(ending, rules, names, number, names[names.index(start.to_move) - 1], totals)
        totals = following.totals
        if following.game_over is not None:
            return SelfPlayed(game, tuple(timings), tuple(positions), tuple(endings), totals, following.game_over)
    return SelfPlayed(game, tuple(timings), tuple(positions), tuple(endings), totals)


def _play_hand(game: GameRecord, number: int, start: Position, time_limit: float, progress: Progress | None
               ) -> tuple[GameRecord, list[TurnTiming], tuple[Position, ...], HandEnd | str]:
    """One hand played to its end (``rummy.hand_end.hand_end`` of the position a turn led to), its result
    written in the game where the hand is scored; or stopped, and why, where it goes round in a cycle (the
    same position a third time: players who keep taking each other's discard) or runs too long."""
    names = [p.name for p in start.players]
    dealer = names[names.index(start.to_move) - 1]
    position = start
    positions = [start]
    timings: list[TurnTiming] = []
    failed_demands: set[tuple[Card | None, str | None]] = set()
    seen = Counter([start])
    for turn in range(1, MAX_TURNS_PER_HAND + 1):
        began = time.perf_counter()
        mover = position.to_move
        where = f"hand {number}, turn {turn} ({mover})"
        seat = _SeatTurn(position, time_limit, where, mover == dealer, failed_demands)
        try:
            text, played = seat.play()
        except SelfPlayBug as bug:
            raise SelfPlayBug(str(bug), game) from None
        seconds = time.perf_counter() - began
        game = game.with_turn(TurnRecord(mover, text, seat.comment()))
        assert played.position is not None  # _SeatTurn._carry: a refused turn is a SelfPlayBug
        position = played.position
        positions.append(position)
        timings.append(TurnTiming(number, turn, mover, seconds, bool(seat.at_limit)))
        if progress is not None:
            progress(number, turn, mover, seconds)
        if played.ending is not None:
            if played.ending.scores is not None:
                game = game.with_result(played.ending.scores)
            return game, timings, tuple(positions), played.ending
        seen[position] += 1
        if seen[position] >= CYCLE_REPEATS:
            return (game, timings, tuple(positions),
                    f"hand {number} stopped after turn {turn}: the same position came round {CYCLE_REPEATS} times")
    return game, timings, tuple(positions), f"hand {number} stopped: no end after {MAX_TURNS_PER_HAND} turns"


class _SeatTurn:
    """One seat's turn: chosen on the seat's view, carried out on the full position as one turn text."""

    def __init__(self, position: Position, time_limit: float, where: str, must_open: bool,
                 failed_demands: set[tuple[Card | None, str | None]]) -> None:
        self.position = position
        self.time_limit = time_limit
        self.where = where
        self.must_open = must_open
        self.failed_demands = failed_demands  # this hand's, heard by every seat: not asked again
        self.at_limit: list[str] = []  # the answers that stopped at the time limit, said in the comment

    def comment(self) -> str | None:
        if not self.at_limit:
            return None
        return f"at the {self.time_limit:g} s limit: " + "; ".join(self.at_limit)

    def play(self) -> tuple[str, PlayedTurn]:
        """The turn's text (as the game record keeps it) and the turn played (the position after it, the end
        of the hand where it ended there)."""
        position = self.position
        if position.phase == Phase.DRAW:
            return self._draw_phase()
        answer = self._answer(position)
        text = answer_turn_text(answer) if answer.solution.cards_played or position.rules.discard else None
        if text is None:
            if position.rules.discard:
                raise SelfPlayBug(f"{self.where}: no legal turn ({answer.solution.status}: "
                                  f"{answer.solution.reason or 'no reason given'})")
            text = self._stock_draw(position)  # tile rummy: nothing played, the pool's top tile drawn
        return self._carry(position, text)

    def _draw_phase(self) -> tuple[str, PlayedTurn]:
        position = self.position
        answer = self._answer(position)
        draw = answer.solution.draw
        options = [option for option in (draw.options if draw is not None else ())
                   if (option.card, option.player) not in self.failed_demands]
        if not options:
            raise SelfPlayBug(f"{self.where}: draw advice chose no draw ({answer.solution.status}: "
                              f"{answer.solution.reason or 'no reason given'})")
        chosen = options[0]
        if chosen.source == DrawSource.PASS and self.must_open:
            return self._then_play("open")
        if draw is not None and chosen is draw.chosen:  # a certain draw: the answer holds the whole turn
            whole = answer_turn_text(answer)
            if whole is not None:
                return self._carry(position, whole)
        taken = chosen.taken()
        deck = position.rules.deck
        if taken.source == DrawSource.STOCK:
            return self._then_play(self._stock_draw(position))
        if taken.source == DrawSource.DEMAND and taken.card is not None and taken.player is not None:
            held = (c.plain() for c in position.player(taken.player).hand or ())
            if taken.card.plain() not in held:  # the hand asked has no such card: the turn ends
                self.failed_demands.add((taken.card, taken.player))
                return self._carry(position, draw_text(taken, deck, failed=True))
        return self._then_play(draw_text(taken, deck))

    def _then_play(self, words: str) -> tuple[str, PlayedTurn]:
        """The draw made on the full position, then the best turn of the seat's new view: one text."""
        drawn = self._judged(self.position, words).position
        if drawn is None or drawn.to_move != self.position.to_move or drawn.phase != Phase.PLAY:
            return self._carry(self.position, words)  # a pass (or a draw refused: said by the checker there)
        answer = self._answer(drawn)
        steps = answer_turn_text(answer)
        if steps is None:
            raise SelfPlayBug(f"{self.where}: no legal turn after {words!r} "
                              f"({answer.solution.status}: {answer.solution.reason or 'no reason given'})")
        return self._carry(self.position, f"{words}; {steps}")

    def _stock_draw(self, position: Position) -> str:
        """The stock's real top card: a random draw in the seat's view is this card on the full position. House
        Epic's first out re-entering draws three (draw advice values the stock as one card: it leaves re-entry out)."""
        stock = position.stock
        if not isinstance(stock, tuple) or not stock:
            raise SelfPlayBug(f"{self.where}: the stock is empty or not listed, so nothing can be drawn")
        reentry = reentry_draw_count(position) if position.phase == Phase.DRAW else 0
        if reentry:
            return f"draw {reentry}"
        return draw_text(DrawTaken(DrawSource.STOCK), position.rules.deck, stock[0])

    def _answer(self, position: Position) -> Answer:
        """``best`` on the seat's view, asked again with more time when the limit left it with no turn."""
        view = seat_view(position)
        limit = self.time_limit
        while True:
            answer = best(view, SolverConfig(time_limit=limit, workers=1))
            status = answer.solution.status
            if status != Status.UNKNOWN or limit >= MAX_RETRY_SECONDS:
                break
            self.at_limit.append(f"no turn in {limit:g} s, asked again")
            limit = min(max(limit * RETRY_FACTOR, 1.0), MAX_RETRY_SECONDS)  # --time-limit 0 too
        if status == Status.FEASIBLE:
            self.at_limit.append(f"gain {answer.solution.gain:g}, bound {answer.solution.bound:g}")
        return answer

    def _carry(self, position: Position, text: str) -> tuple[str, PlayedTurn]:
        """The turn carried out on the full position and judged by the checker (``play_turn``), recorded as
        its canonical text (``rummy.turn_text.turn_text``), which must carry out to the same position."""
        played = self._judged(position, text)
        if played.position is None:
            breaches = "; ".join(b.message for b in played.report.verdict.breaches) or "illegal"
            raise SelfPlayBug(f"{self.where}: the checker refused the engine's turn {text!r}: {breaches}")
        canonical = turn_text_or_none(position, played.after, played.report.verdict.reading) or text
        if canonical != text and self._judged(position, canonical).position != played.position:
            raise SelfPlayBug(f"{self.where}: the turn {text!r} written as {canonical!r} does not carry out "
                              "to the same position")
        return canonical, played

    def _judged(self, position: Position, text: str) -> PlayedTurn:
        """``play_turn`` of the text on the full position; text it cannot read is a bug here, not bad input."""
        try:
            return play_turn(position, text, "turn", "toml", self.where)
        except RummyError as error:
            message = str(error)
            where = "" if message.startswith(self.where) else f"{self.where}: "
            raise SelfPlayBug(f"{where}{message} (the turn was {text!r})") from None


__all__ = ["DEFAULT_TIME_LIMIT", "PLAYER_NAMES", "SelfPlayBug", "SelfPlayed", "TurnTiming", "hand_seed",
           "seat_view", "selfplay"]
