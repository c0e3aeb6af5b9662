"""Time of ``rummy review`` per turn, by family (issue 27 §4).

    python benchmarks/review_time.py [--turns 9] [--seeds 1 2] [--time-limit 5] [GAME ...]

Without GAME files, each family's game is played here from a seeded deal (``rummy.deal``) with
``best`` in every seat on the full position (2 s a turn; a tile drawn from the pool where best
draws), then reviewed by ``rummy.games.review.review_game`` in this process (``--jobs 1``) at
``--time-limit``. Given GAME files (``rummy selfplay``'s), those are reviewed instead. Prints, per
family: turns reviewed, the search time per turn (median, p90, max), the review's wall time per turn
(replay and searches) and the turns left unanswered at the limit. Every best answer is judged by the
checker (outside the timing).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from rummy.answer import answer_from_data, verify_answer
from rummy.deal import deal
from rummy.games.record import GameRecord, HandRecord, TurnRecord
from rummy.games.review import GameReview, review_game
from rummy.reports.play import best_turn_text, play_turn
from rummy.rules import ruleset_from_spec

FAMILIES = ("house-classic", "house-epic", "rummikub", "straight", "traditional", "robber")


def played_game(preset: str, seed: int, turns: int) -> GameRecord:
    rules = ruleset_from_spec(preset)
    players = ("ann", "bob", "cat")
    start = deal(rules, players, seed)
    pool = list(start.stock) if rules.family.name == "tile" and isinstance(start.stock, tuple) else None
    if pool is not None:  # a tile is drawn by name from an unlisted pool (play refuses one drawn from a listed one)
        start = replace(start, stock=len(pool))
    game = GameRecord(rules, players, (HandRecord(start, deal=seed),))
    position = start
    for _ in range(turns):
        answer = json.loads(best_turn_text(position, 2.0))
        text = answer.get("turn") or ("draw" if answer.get("status") == "draw" else None)
        if text == "draw" and pool:
            text = f"draw {pool.pop(0).notation(rules.deck)}"
        if not text:
            break
        played = play_turn(position, text, "turn", "toml", "benchmark")
        if played.position is None:
            break
        game = game.with_turn(TurnRecord(position.to_move, text))
        position = played.position
        if not position.mover.hand:
            break
    return game


def judged(review: GameReview) -> int:
    count = 0
    for turn in review.turns:
        if turn.best_answer is not None and turn.searched is not None:
            verdict = verify_answer(answer_from_data(turn.searched, turn.best_answer, "benchmark"))
            if verdict is not None:
                assert verdict.legal, (turn.hand, turn.turn, verdict.breaches)
                count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path)
    parser.add_argument("--turns", type=int, default=9)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--time-limit", type=float, default=5.0)
    args = parser.parse_args()
    games: dict[str, list[GameRecord]] = {}
    if args.games:
        for path in args.games:
            game = GameRecord.from_file(path)
            games.setdefault(game.rules.name, []).append(game)
    else:
        for preset in FAMILIES:
            games[preset] = [played_game(preset, seed, args.turns) for seed in args.seeds]
    print("| rules | turns | search s/turn median | p90 | max | review wall s/turn | no answer in time | judged |")
    print("|---|---|---|---|---|---|---|---|")
    for name, found in games.items():
        seconds: list[float] = []
        wall = 0.0
        turns = unanswered = checked = 0
        for game in found:
            started = time.perf_counter()
            review = review_game(game, time_limit=args.time_limit)
            wall += time.perf_counter() - started
            turns += len(review.turns)
            seconds += [turn.seconds for turn in review.turns if turn.reviewed]
            unanswered += sum(1 for turn in review.turns if not turn.reviewed)
            checked += judged(review)
        if not seconds:
            print(f"| {name} | {turns} | - | - | - | - | {unanswered} | {checked} |")
            continue
        ordered = sorted(seconds)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(f"| {name} | {turns} | {statistics.median(ordered):.3f} | {p90:.3f} | {ordered[-1]:.3f} | "
              f"{wall / max(turns, 1):.3f} | {unanswered} | {checked} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
