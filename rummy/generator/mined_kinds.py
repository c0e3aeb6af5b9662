"""Puzzles mined from self-played games, as Lichess mines its puzzles (issue 29 §4): the kind ``mined``.

A candidate is one hand of a self-played game (``rummy.games.selfplay``: the
engine in every seat, each seat seeing only its own hand), dealt from a seed
drawn from the candidate's ``random.Random``. Every turn of the hand is looked
at from where its play begins (after the draw, where the family draws first),
as the mover saw it (``seat_view``: the other hands and the stock as counts):

- the best turn (``rummy.answer.best``, proven optimal within
  ``SCREEN_SECONDS``; a turn not proven is skipped);
- the best turn the *greedy* human-like players find (every rung of the
  family's ladder with ``greedy = True``, cumulative, as the ladder climbs);

and the turn is a candidate when the best beats the greedy players by
``MARGINS[family]`` at least (House: 10 points, tile rummy: 1 tile;
docs/generate.md "Puzzles mined from games" argues them). The maker returns
the candidates of the hand, the widest gap first (at most ``MINED_PER_GAME``);
the generator keeps the first that passes its tests (proven again with
``--time-limit``, the margin over the greedy players again on the proven
optimum, the ladder's tier, unique, the margin over the second best, themes).

The game's own turns are searched briefly (``GAME_TURN_SECONDS``): a mined
position depends only on the seed where every turn before it was proven within
that limit; a turn stopped at its limit may be played otherwise on another
machine, as generate's "timeout" rejections may differ.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from ..answer import Answer, best
from ..errors import RummyError, quote, with_prefix
from ..ladder import Effort, Found, best_found, ladder_of
from ..position import Position
from ..rules import Ruleset
from ..solution import SolverConfig
from ..vocabulary import Phase, PuzzleKind, Status, Tier
from .house_kinds import house_task
from .kinds import Kind, register_kind
from .tile_kinds import MAX_TASK

if TYPE_CHECKING:
    from ..games.replay import HandReplay

GAME_TURN_SECONDS = 0.5  # the game's own turns: self-play's per-answer limit (a turn, not a puzzle)
SCREEN_SECONDS = 2.0  # each play-phase position of the hand: its best turn, proven within this (else skipped)
MINED_PER_GAME = 5  # candidates of one hand handed to the generator, the widest gap first
# How far the best turn must beat the greedy players: House 10 points (two low cards in plays, or a face
# card and the card it saves; the review's "mistake", `?`, and the House hard tier's bar over the second
# best); tile rummy 1 tile, the unit of its gain (the review's inaccuracy; a tile every greedy order
# leaves in the rack).
MARGINS = {"house": Fraction(10), "tile": Fraction(1)}
# Players at the table, drawn per game. House: three, never four: partners score a play alike in either
# partner's space, so nearly every four-player position has a rival table as good (not unique).
PLAYERS = {"house": (3,), "tile": (2, 3, 4)}
# Families whose best turn can beat the greedy rungs only by moving table cards: a tile turn that moves
# none lays rack tiles on plays' ends, in groups and in new plays, each step leaving every play whole,
# which the extend rung searches in every order. Skipping such turns spares the screen most positions
# of a tile hand (the greedy rungs are its slow part: about a second a position on a busy machine).
TABLE_MOVES_NEEDED = ("tile",)
GAME_SEEDS = 2**31  # a game's seed is drawn below this
MAX_RECORDS = 10_000  # game records a --games folder may hold


@dataclass(frozen=True)
class MinedTurn:
    """One turn of a self-played hand that beats the greedy players: where its play began, as the mover
    saw it, the best gain and the greedy players' best."""

    turn: int  # from 1, in the hand
    player: str
    position: Position
    best_gain: Fraction
    greedy_gain: Fraction

    @property
    def gap(self) -> Fraction:
        return self.best_gain - self.greedy_gain


def greedy_found(position: Position, effort: Effort | None = None, enough: Fraction | None = None) -> Found | None:
    """The best turn of the family's greedy rungs (cumulative, weakest first, as ``rummy.ladder.climb``
    climbs them), stopping at the first whose gain reaches ``enough``; None where the family's ladder has
    no greedy rung."""
    found: Found | None = None
    for rung in ladder_of(position):
        if rung.greedy:
            found = best_found(rung, position, effort or Effort(), found)
            if enough is not None and found.gain is not None and found.gain >= enough:
                break
    return found


def exact_gain(before: Position, after: Position) -> Fraction:
    """The checker's gain of a turn, exact (House Epic's are fractions; the answer's number is rounded)."""
    return Fraction(before.rules.family.turn_gain(before, after))


def greedy_gap(position: Position, optimum: Fraction | int | float, effort: Effort | None = None) -> Fraction | None:
    """How far ``optimum`` beats the greedy players' best turn, measured until it is plainly under the
    family's margin (a cheap rung coming within it settles the question: the screen's many positions are
    mostly such); None where they find no legal turn (a rule they do not model, not an insight: such a
    turn is not mined)."""
    optimum = Fraction(optimum)
    found = greedy_found(position, effort, enough=optimum - MARGINS[position.rules.family] + Fraction(1, 10**6))
    if found is None or found.gain is None:
        return None
    return optimum - found.gain


def play_starts(replayed: HandReplay) -> Iterator[tuple[int, str, Position]]:
    """Every turn of a replayed hand: its number (from 1), its player and the full position its play
    began from (a draw-phase turn's, once the draw is made; a turn that only drew, or passed, has none)."""
    from ..games.review import drawn_start

    for index, record in enumerate(replayed.record.turns):
        before = replayed.positions[index]
        if before.phase == Phase.PLAY:
            yield index + 1, record.player, before
            continue
        judged = replayed.reports[index].judged
        if judged is None or judged.phase != Phase.PLAY:
            continue
        start = drawn_start(before, judged)
        if start is not None and start.phase == Phase.PLAY and start.to_move == record.player:
            yield index + 1, record.player, start


def mine_replayed(replayed: HandReplay) -> list[MinedTurn]:
    """The turns of a replayed hand whose best beats the greedy players by the family's margin."""
    from ..games.views import as_seen_by

    mined = []
    for turn, player, start in play_starts(replayed):
        view = as_seen_by(start, player)
        margin = MARGINS[view.rules.family]
        answer = best(view, SolverConfig(time_limit=SCREEN_SECONDS, workers=1, seed=0))
        after = answer.solution.after
        if answer.solution.status != Status.OPTIMAL or after is None:
            continue  # not proven (or nothing to play)
        optimum = exact_gain(view, after)
        if optimum < margin:
            continue  # no greedy turn can be that far below (a turn that plays nothing gains 0)
        if view.rules.family in TABLE_MOVES_NEEDED and answer.plan is not None and not answer.plan.cards_moved:
            continue  # rack tiles laid where they fit, no table tile moved: the extend rung's own turn
        gap = greedy_gap(view, optimum)
        if gap is not None and gap >= margin:
            mined.append(MinedTurn(turn, player, view, optimum, optimum - gap))
    return mined


def widest_first(mined: list[MinedTurn]) -> tuple[MinedTurn, ...]:
    return tuple(sorted(mined, key=lambda m: (-m.gap, m.turn)))


def mine_hand(rules: Ruleset, players: tuple[str, ...], seed: int) -> tuple[MinedTurn, ...]:
    """The turns of hand 1 of a game self-played from ``seed`` that beat the greedy players by the
    family's margin, the widest gap first (then the earliest)."""
    from ..games.replay import replay_hand
    from ..games.selfplay import selfplay

    played = selfplay(rules, players, seed, 1, time_limit=GAME_TURN_SECONDS)
    return widest_first(mine_replayed(replay_hand(played.game.hands[0], 1)))


def mine_record(path: str, rules: Ruleset) -> tuple[MinedTurn, ...]:
    """The turns of every hand of a game record (a file ``validate_records`` accepted) that beat the
    greedy players by the margin, the widest gap first; GameReplayError where a turn does not replay."""
    from ..games.record import GameRecord
    from ..games.replay import replay

    game = GameRecord.from_file(path)
    return widest_first([m for hand in replay(game, path) for m in mine_replayed(hand)])


def game_records(folder: Path) -> tuple[str, ...]:
    """The game records of a folder (``*.toml``, ``*.json``; regular files, by name): ``--games``."""
    if not folder.is_dir():
        raise RummyError(f"--games: {quote(str(folder))} is not a folder of game records")
    found = tuple(str(path) for path in sorted(folder.iterdir())
                  if path.suffix in (".toml", ".json") and path.is_file() and not path.is_symlink())
    if not found:
        raise RummyError(f"--games: {quote(str(folder))} holds no game record (*.toml, *.json)")
    if len(found) > MAX_RECORDS:
        raise RummyError(f"--games: {quote(str(folder))} holds {len(found):,} files; at most {MAX_RECORDS:,}")
    return found


def validate_records(paths: tuple[str, ...], rules: Ruleset) -> None:
    """Each record read (its format, bounds) and of the preset asked for; else one RummyError."""
    from ..games.record import GameRecord

    for path in paths:
        try:
            game = GameRecord.from_file(path)
        except RummyError as error:
            raise with_prefix(error, "--games") from None
        if game.rules.name != rules.name:
            raise RummyError(f"--games: {path}: a {game.rules.name} game, not {rules.name}")


def make_mined(rng: random.Random, rules: Ruleset, tier: Tier | None) -> tuple[Position, ...] | None:
    """A hand self-played from a seed drawn from ``rng``; its most instructive play-phase positions (the
    widest gaps over the greedy players first), or None when none beats them by the margin."""
    from ..games.selfplay import PLAYER_NAMES, SelfPlayBug

    count = rng.choice(PLAYERS[rules.family])
    seed = rng.randrange(GAME_SEEDS)
    try:
        mined = mine_hand(rules, PLAYER_NAMES[:count], seed)
    except (RummyError, SelfPlayBug):
        return None  # a game rummy could not play through is no source of puzzles (selfplay's tests hunt those)
    return tuple(m.position for m in mined[:MINED_PER_GAME]) or None


def from_record(path: str, rules: Ruleset) -> tuple[Position, ...] | None:
    """A game record's most instructive play-phase positions (``--games``), or None where none beats the
    greedy players by the margin; GameReplayError (a RummyError) where a turn of it does not replay."""
    return tuple(m.position for m in mine_record(path, rules)[:MINED_PER_GAME]) or None


def accept_mined(position: Position, answer: Answer) -> str | None:
    """The proven best beats the greedy players by the margin (the screen's solve had only its own limit)."""
    margin = MARGINS[position.rules.family]
    after = answer.solution.after
    gap = None if after is None else greedy_gap(position, exact_gain(position, after))
    if gap is None:
        return "the greedy players find no legal turn"
    if gap < margin:
        return f"the greedy players come within {margin} of the best"
    return None


# Never easy: the easy rung is greedy, and a mined turn beats every greedy rung.
MINED_TIERS = (Tier.MEDIUM, Tier.HARD, Tier.EXPERT)
register_kind(Kind(PuzzleKind.MINED, ("house",), house_task(" (a position from a game)"), make_mined,
                   accept_mined, tiers=MINED_TIERS, from_game=from_record))
register_kind(Kind(PuzzleKind.MINED, ("tile",), f"{MAX_TASK} (a position from a game)",
                   make_mined, accept_mined, tiers=MINED_TIERS, from_game=from_record))
