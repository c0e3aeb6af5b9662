"""Lay-off rummy: the share of each kind and tier's shipped puzzles that each rung and each simple greedy player solves.

Rungs are climbed cumulatively (each given what the ones below found, default ``Effort()``); a simple
greedy player (``tests/ladder/greedy_players.py``, ``layoff_*``) solves a puzzle when one of its first
20 random orders reaches the stored optimum. Also each rung's median and largest seconds a puzzle.

    python benchmarks/layoff_greedy_shares.py [puzzles/layoff]

Prints a Markdown table (docs/ladder.md, "Measured on the remade puzzles/layoff").
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the greedy players live with the tests

from rummy.ladder import Effort, Found, best_found, ladder_of  # noqa: E402
from rummy.position import Position  # noqa: E402
from tests.ladder.greedy_players import LAYOFF_PLAYERS  # noqa: E402

ORDERS = 20
TIERS = ("easy", "medium", "hard", "expert")


def main(folder: Path) -> None:
    solved: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    seconds: dict[str, list[float]] = defaultdict(list)
    names: list[str] = []
    for entry in json.loads((folder / "index.json").read_text(encoding="utf-8"))["puzzles"]:
        position = Position.from_file(folder / entry["position"])
        optimum = Fraction(json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))["gain"])
        key = (entry["kind"], entry["tier"])
        counts[key] += 1
        below: Found | None = None
        rungs = ladder_of(position)
        names = [rung.name for rung in rungs]
        for rung in rungs:
            start = time.perf_counter()
            below = best_found(rung, position, Effort(), below)
            seconds[rung.name].append(time.perf_counter() - start)
            if below.gain is not None and below.gain >= optimum:
                solved[key][rung.name] += 1
        for player in LAYOFF_PLAYERS:
            turns = (player(position, random.Random(order)) for order in range(ORDERS))
            if any(after is not None and position.rules.family.turn_gain(position, after) >= optimum
                   for after in turns):
                solved[key][player.__name__] += 1
    columns = names + [player.__name__ for player in LAYOFF_PLAYERS]
    print("| kind | tier | puzzles | " + " | ".join(columns) + " |")
    print("|---|---|---:|" + "---:|" * len(columns))
    for key in sorted(counts, key=lambda k: (k[0], TIERS.index(k[1]))):
        shares = [f"{round(100 * solved[key][column] / counts[key])}%" for column in columns]
        print(f"| {key[0]} | {key[1]} | {counts[key]} | " + " | ".join(shares) + " |")
    for name in names:
        print(f"{name}: median {statistics.median(seconds[name]):.3f} s, max {max(seconds[name]):.3f} s")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "puzzles" / "layoff")
