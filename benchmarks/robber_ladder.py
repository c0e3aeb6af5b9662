"""Who solves a Robber collection: each rung of the ladder and each simple greedy player, by tier.

Every rung is climbed on every puzzle (each given what the rungs below found, as ``climb`` does), and a
rung or a player solves a puzzle when its turn reaches the stored optimal gain. The simple greedy players
are tests/ladder/greedy_players.py's ``robber_*`` (first-fit in ``--orders`` random card orders, the best
of them). Prints one line a puzzle, then a Markdown table of shares by tier and each rung's seconds.

    python benchmarks/robber_ladder.py puzzles/robber [--orders 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rummy.checker import check, turn_gain  # noqa: E402
from rummy.ladder import Effort, best_found, ladder_of  # noqa: E402
from rummy.position import Position  # noqa: E402
from tests.ladder.greedy_players import ROBBER_PLAYERS, ROBBER_SEEDED  # noqa: E402

TIERS = ("easy", "medium", "hard", "expert")


def main(folder: Path, orders: int) -> None:
    solved: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[str, int] = defaultdict(int)
    seconds: dict[str, list[float]] = defaultdict(list)
    names: list[str] = []
    for path in sorted(folder.glob("*.toml")):
        stored = json.loads(path.with_name(path.stem + ".solution.json").read_text(encoding="utf-8"))
        position, optimum, tier = Position.from_file(path), Fraction(stored["gain"]), stored["tier"]
        counts[tier] += 1
        below, line = None, []
        for rung in ladder_of(position):
            start = time.perf_counter()
            below = best_found(rung, position, Effort(), below)
            seconds[rung.name].append(time.perf_counter() - start)
            reached = below.gain is not None and below.gain >= optimum
            solved[tier][rung.name] += reached
            line.append(f"{rung.name}={'yes' if reached else 'no'}")
            if rung.name not in names:
                names.append(rung.name)
        for name, player in ROBBER_PLAYERS.items():
            best = max(turn_gain(position, after) for seed in range(orders if name in ROBBER_SEEDED else 1)
                       if check(position, (after := player(position, seed))).legal)
            solved[tier][name] += best >= optimum
            line.append(f"{name}={'yes' if best >= optimum else 'no'}")
        print(path.stem, tier, optimum, " ".join(line), flush=True)
    columns = names + list(ROBBER_PLAYERS)
    print()
    print("| tier | puzzles | " + " | ".join(columns) + " |")
    print("|---|---:|" + "---:|" * len(columns))
    for tier in TIERS:
        if counts[tier]:
            print(f"| {tier} | {counts[tier]} | "
                  + " | ".join(f"{solved[tier][c]}/{counts[tier]}" for c in columns) + " |")
    print()
    for name in names:
        values = sorted(seconds[name])
        print(f"{name}: median {statistics.median(values):.3f} s, 90th percentile "
              f"{values[int(0.9 * (len(values) - 1))]:.3f} s, max {values[-1]:.3f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--orders", type=int, default=20)
    arguments = parser.parse_args()
    main(arguments.folder, arguments.orders)
