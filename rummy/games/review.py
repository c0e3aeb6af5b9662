"""Reviewing a game, as chess tools review one: every turn against the best turn from the same position.

Each turn of a replayed game (rummy.games.replay) is compared with ``rummy.answer.best`` on the
position before it **as its player saw it** (``as_seen_by``: the other hands hidden behind their
counts, an unlisted stock), so the advice is what the player could have known, not what a
self-played record knows. The played turn's gain is the checker's (``check``'s reading); the points
lost are the best gain minus it, never below 0: a played turn that beats the search (stopped at its
time limit) says so (``beat_search``). A draw-phase turn is judged by its draw too, where the family
advises draws: the value of the draw chosen against the best draw's, both from the draw advice's
options (each looks one turn ahead from before the draw). Marks (``MARKS``) follow chess's ``?!``,
``?`` and ``??``, with thresholds per family (``MarkScale``, docs/cli.md "Review").

The searches are the slow part; ``review_game`` hands them (a position and the time limit each) to
``solve``, a ``rummy.parallel`` runner's ``ordered`` over ``solve_view``, and puts the answers
together. A turn whose mover's hand is hidden (an opponent at a real table) cannot be reviewed: it
is listed, with why, and skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rummy.games.record import GameRecord
from rummy.games.replay import HandReplay, replay_hand
from rummy.games.views import as_seen_by
from rummy.position import Position
from rummy.vocabulary import Phase, Status

# Seconds a review's search may take per position when not told: modest, a game has many turns.
REVIEW_TIME_LIMIT = 5.0
# Gains and values are compared to 4 decimals, as best --json writes them.
EPSILON = 1e-4
MARKS = ("?!", "?", "??")  # inaccuracy, mistake, blunder (chess's)
MARK_NAMES = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}
# Draws whose cards are known before they are made (the discard pile, Robber's pile, House's upcard, a pass).
CERTAIN_DRAWS = ("discard", "pile", "open", "pass")


@dataclass(frozen=True)
class MarkScale:
    """When a loss earns a mark: ``absolute[i]`` points (tiles, for tile rummy) *and* ``relative[i]``
    of the best gain, for ``?!``, ``?``, ``??`` in turn. Both must be reached: a small loss on a big
    turn is no mistake, nor a big share of a turn worth next to nothing."""

    absolute: tuple[float, float, float]
    relative: tuple[float, float, float] = (0.10, 0.25, 0.50)

    def mark(self, lost: float, best_gain: float) -> str | None:
        found = None
        for mark, points, share in zip(MARKS, self.absolute, self.relative):
            if lost + EPSILON >= points and lost + EPSILON >= share * max(best_gain, 0.0):
                found = mark
        return found


# Card families count points (a card is worth 5 to 15 in House, a few to 10 in lay-off and Robber);
# tile rummy counts tiles played (its default objective), where one tile is already a real loss.
CARD_SCALE = MarkScale((5.0, 10.0, 20.0))
SCALES: Mapping[str, MarkScale] = {"house": CARD_SCALE, "robber": CARD_SCALE, "layoff": CARD_SCALE,
                                   "tile": MarkScale((1.0, 3.0, 6.0))}


def mark_scale(family: str) -> MarkScale:
    return SCALES.get(family, CARD_SCALE)


@dataclass(frozen=True)
class DrawReview:
    """The draw chosen against the best draw: each as best's options give it (``--json``'s draw
    objects) and its value; ``played_value`` None where the draw advice did not value it."""

    played: dict[str, Any]
    played_value: float | None
    best: dict[str, Any]
    best_value: float

    @property
    def lost(self) -> float:
        return 0.0 if self.played_value is None else max(0.0, self.best_value - self.played_value)


@dataclass(frozen=True)
class TurnReview:
    """One turn reviewed; ``hand`` and ``turn`` count from 1 as replay's messages do. ``skipped``
    says why a turn was not reviewed (its other figures are then None). ``gain`` is the checker's
    gain of the play (None for a draw alone), ``best_gain`` the best turn's from the same position,
    ``status`` how that search ended (``feasible``: stopped at the time limit). ``lost`` is the play's
    loss plus the draw's."""

    hand: int
    turn: int
    player: str
    text: str
    phase: Phase
    skipped: str | None = None
    gain: float | None = None
    best_gain: float | None = None
    status: Status | None = None
    best_text: str | None = None
    draw: DrawReview | None = None
    lost: float = 0.0
    # A whole draw-phase turn: the best turn after the draw made, on ``gain``'s scale: after a certain
    # draw (discard pile, upcard) the draw advice's value of that draw and the whole turn's gain, both
    # from before the draw; after a random one (stock, demand) a search from where the draw led and the
    # play's gain from there. The play lost ``play_best_gain - gain``, the draw ``draw.lost``.
    play_best_gain: float | None = None
    beat_search: bool = False
    mark: str | None = None
    seconds: float = 0.0
    best_answer: dict[str, Any] | None = None  # best --json's object, for pictures and re-judging
    # For pictures: the position the best answer was searched from, as the player saw it, and the
    # position the search of the play began from with the end state played (a draw alone: none).
    searched: Position | None = field(default=None, compare=False, repr=False)
    play_start: Position | None = field(default=None, compare=False, repr=False)
    played_after: Position | None = field(default=None, compare=False, repr=False)

    @property
    def reviewed(self) -> bool:
        return self.skipped is None

    @property
    def played_best(self) -> bool:
        return self.reviewed and self.lost <= EPSILON


@dataclass(frozen=True)
class PlayerSummary:
    player: str
    turns: int
    skipped: int
    lost: float
    best_turns: int
    marks: dict[str, int]

    @property
    def lost_per_turn(self) -> float | None:
        return self.lost / self.turns if self.turns else None

    @property
    def best_share(self) -> float | None:
        return self.best_turns / self.turns if self.turns else None


@dataclass(frozen=True)
class GameReview:
    game: GameRecord
    turns: tuple[TurnReview, ...]
    time_limit: float

    def summaries(self) -> tuple[PlayerSummary, ...]:
        players = [name for name in self.game.players if any(t.player == name for t in self.turns)]
        return tuple(summary(name, [t for t in self.turns if t.player == name]) for name in players)

    def worst(self, count: int = 3) -> tuple[TurnReview, ...]:
        """The ``count`` turns that lost most (those that lost anything), the worst first."""
        lost = [turn for turn in self.turns if turn.reviewed and turn.lost > EPSILON]
        return tuple(sorted(lost, key=lambda t: (-t.lost, t.hand, t.turn))[:count])


def summary(player: str, turns: list[TurnReview]) -> PlayerSummary:
    reviewed = [turn for turn in turns if turn.reviewed]
    marks = {mark: sum(1 for turn in reviewed if turn.mark == mark) for mark in MARKS}
    return PlayerSummary(player, len(reviewed), len(turns) - len(reviewed), sum(t.lost for t in reviewed),
                         sum(1 for t in reviewed if t.played_best), marks)


# ------------------------------------------------------------------ the view
def solve_view(position: Position, time_limit: float) -> dict[str, Any]:
    """One review search, for a runner: the best turn of the position (the Position itself, pickled to
    a ``--jobs`` process: written as data and read back, a table joker that could stand for several
    cards would not read), as ``best --json`` gives it."""
    from rummy.answer import answer_data, best
    from rummy.solution import SolverConfig

    return answer_data(best(position, SolverConfig(time_limit=time_limit, workers=1)))


# ------------------------------------------------------------ what to search
@dataclass(frozen=True)
class _Pending:
    """A turn to review: where it is, and the positions its searches start from."""

    hand: int
    turn: int
    player: str
    text: str
    phase: Phase
    skipped: str | None = None
    gain: float | None = None
    draw: dict[str, Any] | None = None  # the draw chosen, as the checker read it
    view: Position | None = None  # the position searched for the turn (the draw's, in the draw phase)
    play_view: Position | None = None  # a draw-phase turn that also played: its play, searched apart
    play_gain: float | None = None
    whole_gain: float | None = None  # a whole turn after a certain draw: the checker's gain, from before the draw
    play_start: Position | None = None  # where the play began, as the player saw it (for pictures)
    after: Position | None = None  # the end state played (None for a draw alone)


def _pending(replayed: HandReplay, number: int, player: str | None) -> Iterator[_Pending]:
    for index, record in enumerate(replayed.record.turns):
        if player is not None and record.player != player:
            continue
        before = replayed.positions[index]
        verdict = replayed.reports[index].verdict
        where = (number, index + 1, record.player, record.turn, before.phase)
        if before.mover.hand is None:
            yield _Pending(*where, skipped="the mover's hand is hidden: what they could have played is unknown")
            continue
        view = as_seen_by(before, record.player)
        judged = replayed.reports[index].judged
        gain = _number(verdict.reading.get("gain"))
        if gain is not None and judged is not None:
            # Judged again as the player saw it, the measure the search uses (Epic's going-out bonus counts
            # the mean of the unseen cards, not the hands a self-played record knows).
            gain = _seen_gain(view, judged, record.player, gain)
        if gain is None and before.phase == Phase.PLAY and "draw" in verdict.reading:
            gain = 0.0  # tile rummy's draw: a turn that plays nothing
        if before.phase != Phase.DRAW:
            yield _Pending(*where, gain=gain, view=view, after=replayed.reports[index].judged)
            continue
        if not before.rules.family.advises_draws:
            yield _Pending(*where, skipped=f"{before.rules.name} has no draw advice to review a draw against")
            continue
        draw = _draw_read(verdict.reading.get("draw"))
        if gain is None or judged is None or judged.phase != Phase.PLAY or judged == replayed.positions[index + 1]:
            yield _Pending(*where, draw=draw, view=view)  # the draw alone (or the pass): its play comes next
            continue
        start = drawn_start(before, judged)
        played = _without_draw(judged)
        seen_start = as_seen_by(start, record.player) if start is not None else None
        if draw is not None and draw.get("from") in CERTAIN_DRAWS:
            # Cards known before the draw: the draw advice's value of this draw is the best whole turn
            # after it, measured as the checker measures this turn (from before the draw): they compare.
            yield _Pending(*where, draw=draw, view=view, whole_gain=gain, play_start=seen_start, after=played)
            continue
        # A random draw (the stock, a demand): the play is compared with a search from where the draw led
        # (the card drawn is known by then), as a play-phase turn.
        play_gain = _seen_gain(seen_start, played, record.player) if seen_start is not None else None
        if seen_start is None or play_gain is None:  # the draw alone is reviewed, not the play
            yield _Pending(*where, draw=draw, view=view)
            continue
        yield _Pending(*where, draw=draw, view=view, play_view=seen_start, play_gain=play_gain,
                       play_start=seen_start, after=played)


def drawn_start(before: Position, after: Position) -> Position | None:
    """The play-phase position a whole draw-phase turn's draw led to (None where it cannot be told)."""
    from rummy.checker.draw_apply import apply_draw_taken
    from rummy.errors import RummyError

    taken = after.turn.draw if after.turn is not None else None
    try:
        if before.rules.family.answers_draw_phase:  # Robber: the draw is read back from the end state
            from rummy.checker.robber import apply_draw

            return apply_draw(before, after)[0]
        if taken is None:
            return None
        return apply_draw_taken(before, taken, after).start
    except (RummyError, KeyError, ValueError):
        return None


def _seen_gain(before: Position, after: Position, player: str, otherwise: float | None = None) -> float | None:
    """The checker's gain of the turn from ``before`` (already as ``player`` saw it) to ``after`` seen
    the same way; ``otherwise`` where it cannot judge it so."""
    from rummy.checker import check
    from rummy.errors import RummyError

    try:
        verdict = check(before, as_seen_by(after, player))
    except (RummyError, KeyError, ValueError):
        return otherwise
    gain = _number(verdict.reading.get("gain")) if verdict.legal else None
    return otherwise if gain is None else gain


def _without_draw(after: Position) -> Position:
    return replace(after, turn=replace(after.turn, draw=None)) if after.turn is not None else after


def _draw_read(value: object) -> dict[str, Any] | None:
    """The draw the checker read, as the keys that name a draw (from, take, card, player)."""
    if isinstance(value, Mapping):
        return {key: value[key] for key in ("from", "take", "card", "player") if value.get(key) is not None}
    if isinstance(value, str):
        return {"from": value}
    return None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


# --------------------------------------------------------------- the review
def review_game(game: GameRecord, player: str | None = None, time_limit: float = REVIEW_TIME_LIMIT,
                source: str = "<game>", solve: Callable[[Iterable[tuple[Position, float]]],
                                                         Iterable[dict[str, Any]]] | None = None,
                progress: Callable[[int, int], None] | None = None,
                replays: Sequence[HandReplay] | None = None) -> GameReview:
    """Replay the game and review every turn of ``player`` (every player's: None); ``replays``: its
    hands already replayed (rummy.games.replay.replay), not replayed again. ``solve`` answers
    the searches in order (a runner's ``ordered`` over ``solve_view``; here, one after another);
    ``progress(done, total)`` is told after each search. A turn that does not replay raises
    rummy.games.replay.GameReplayError naming it."""
    from rummy.errors import RummyError

    if player is not None and player not in game.players:
        raise RummyError(f"--player {player}: not a player of this game ({', '.join(game.players)})")
    if replays is None:
        replays = [replay_hand(hand, number, source) for number, hand in enumerate(game.hands, start=1)]
    pending = [turn for number, replayed in enumerate(replays, start=1) for turn in _pending(replayed, number, player)]
    tasks = [(view, time_limit) for turn in pending for view in (turn.view, turn.play_view)
             if view is not None]
    answers: Iterable[dict[str, Any]] = (solve or _one_by_one)(tasks)
    reviewed = []
    done = 0
    found = iter(answers)
    for turn in pending:
        searched = [next(found) for view in (turn.view, turn.play_view) if view is not None]
        done += len(searched)
        if progress is not None and searched:
            progress(done, len(tasks))
        reviewed.append(_reviewed(turn, searched))
    return GameReview(game, tuple(reviewed), time_limit)


def _one_by_one(tasks: Iterable[tuple[Position, float]]) -> Iterator[dict[str, Any]]:
    for task in tasks:
        yield solve_view(*task)


def _reviewed(turn: _Pending, answers: list[dict[str, Any]]) -> TurnReview:
    base = TurnReview(turn.hand, turn.turn, turn.player, turn.text, turn.phase, turn.skipped)
    if turn.view is not None:
        base = replace(base, searched=turn.view, play_start=turn.play_start or turn.view, played_after=turn.after)
    if turn.skipped is not None or turn.view is None:
        return base
    answer = answers[0]
    scale = mark_scale(turn.view.rules.family.name)
    seconds = sum(float(a.get("seconds", 0)) for a in answers)
    if turn.phase == Phase.DRAW and "options" in answer:
        draw = _draw_review(turn.draw, answer)
        play_answer = answers[1] if len(answers) > 1 else None
        play_lost, beat, play_best, gain = 0.0, False, None, turn.play_gain
        if play_answer is not None and turn.play_gain is not None and _solved(play_answer):
            play_best = float(play_answer["gain"])
            play_lost, beat = _loss(play_best, turn.play_gain)
        elif turn.whole_gain is not None and draw is not None and draw.played_value is not None:
            play_best, gain = draw.played_value, turn.whole_gain
            play_lost, beat = _loss(play_best, gain)
        lost = (draw.lost if draw is not None else 0.0) + play_lost
        best_value = draw.best_value if draw is not None else float(answer["gain"])
        return replace(base, gain=gain, best_gain=_number(answer["gain"]), status=Status(answer["status"]),
                       best_text=_best_text(answer, turn.view), draw=draw, play_best_gain=play_best,
                       lost=round(lost, 4), beat_search=beat, mark=scale.mark(lost, best_value), seconds=seconds,
                       best_answer=answer, searched=turn.view)
    status = Status(answer["status"])
    if not _solved(answer) or turn.gain is None:
        return replace(base, gain=turn.gain, status=status, seconds=seconds, best_answer=answer,
                       skipped=None if _solved(answer) else _unanswered(answer, status))
    best_gain = float(answer["gain"])
    lost, beat = _loss(best_gain, turn.gain)
    return replace(base, gain=turn.gain, best_gain=best_gain, status=status,
                   best_text=_best_text(answer, turn.view), lost=lost, beat_search=beat,
                   mark=scale.mark(lost, best_gain), seconds=seconds, best_answer=answer)


def _unanswered(answer: Mapping[str, Any], status: Status) -> str:
    if status == Status.UNKNOWN:
        return "the search found no turn within its time limit: give more --time-limit"
    return f"the search found no turn ({status}{': ' + str(answer['reason']) if answer.get('reason') else ''})"


def _solved(answer: Mapping[str, Any]) -> bool:
    return answer.get("status") in (Status.OPTIMAL, Status.FEASIBLE, Status.DRAW)


def _loss(best_gain: float, gain: float) -> tuple[float, bool]:
    """Points lost, and whether the played turn beat the search (which stopped at its limit)."""
    short = best_gain - gain
    return (round(short, 4), False) if short > EPSILON else (0.0, short < -EPSILON)


def _draw_review(played: dict[str, Any] | None, answer: Mapping[str, Any]) -> DrawReview | None:
    options = answer.get("options") or []
    if not options:
        return None
    best = options[0]
    chosen = next((option for option in options if played is not None and _same_draw(option, played)), None)
    return DrawReview(played or {}, None if chosen is None else float(chosen["value"]),
                      _draw_only(best), float(best["value"]))


def _same_draw(option: Mapping[str, Any], played: Mapping[str, Any]) -> bool:
    return all(option.get(key) == played.get(key) for key in ("from", "take", "card", "player"))


def _draw_only(option: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in option.items() if key not in ("value", "scores_chance")}


def _best_text(answer: Mapping[str, Any], view: Position | None) -> str | None:
    """The best turn in the notation a game record holds (formats.md "Turn text"), or None: the
    answer's ``turn``, or for a random draw alone (no turn to write) its draw in words."""
    if answer.get("turn"):
        return str(answer["turn"])
    if view is not None and answer.get("draw"):
        return draw_words(answer["draw"])
    return None


def draw_words(draw: Mapping[str, Any]) -> str:
    """A draw of best --json (or as the checker read it) in rummy.draw_words' notation: ``take 2``,
    ``draw``, ``open``, ``pass``, ``demand QS from bob``."""
    from rummy.draw_words import draw_text
    from rummy.end_states import read_answer_draws

    try:
        taken = read_answer_draws([dict(draw)], "review", "draw")[0][0]
    except (ValueError, KeyError, TypeError):
        return str(draw.get("from", "draw"))
    return draw_text(taken)


__all__ = ["MARKS", "MARK_NAMES", "REVIEW_TIME_LIMIT", "DrawReview", "GameReview", "MarkScale", "PlayerSummary",
           "TurnReview", "as_seen_by", "draw_words", "drawn_start", "mark_scale", "review_game", "solve_view"]
