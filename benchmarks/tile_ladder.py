"""Each tile rung's share of a collection's stored tiers, and its seconds a puzzle (issue 29).

    python benchmarks/tile_ladder.py [DIR]    # DIR: puzzles/tiles by default

Every rung is climbed on every puzzle (no stopping at the first that solves), each rung
given what the rungs below found (as grading does); prints one table of shares per kind
and stored tier, and the median / p90 / max seconds of each rung.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from rummy.ladder import Effort, Found, best_found, ladder_of
from rummy.position import Position


def main(root: Path) -> None:
    solved: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    seconds: dict[str, list[float]] = defaultdict(list)
    names: list[str] = []
    for entry in json.loads((root / "index.json").read_text())["puzzles"]:
        position = Position.from_file(root / entry["position"])
        optimum = Fraction(json.loads((root / entry["solution"]).read_text())["gain"])
        key = (entry["kind"], entry["tier"])
        counts[key] += 1
        below: Found | None = None
        line = []
        for rung in ladder_of(position):
            names = names if rung.name in names else names + [rung.name]
            start = time.perf_counter()
            below = best_found(rung, position, Effort(), below)
            seconds[rung.name].append(time.perf_counter() - start)
            if below.gain is not None and below.gain >= optimum:
                solved[key][rung.name] += 1
                line.append(rung.name)
        print(entry["position"], entry["tier"], "solved by", line[0] if line else "none", flush=True)
    print("| kind | stored tier | puzzles | " + " | ".join(names) + " |")
    print("|---|---|---:|" + "---:|" * len(names))
    for key in sorted(counts):
        shares = " | ".join(f"{solved[key][n]}/{counts[key]}" for n in names)
        print(f"| {key[0]} | {key[1]} | {counts[key]} | {shares} |")
    for name in names:
        values = sorted(seconds[name])
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        print(f"{name}: median {statistics.median(values):.3f} s, p90 {p90:.3f} s, max {values[-1]:.3f} s")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "puzzles/tiles"))
