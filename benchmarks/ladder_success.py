"""How often each human-like player (rummy.ladder) solves the shipped puzzles, by kind and tier.

Every rung is climbed on every puzzle (``climb(position, None)``: none stops early), and a
rung solves a puzzle when its turn reaches the stored optimal gain. The rungs are cumulative,
so the table reads: a tier's puzzles are solved by every rung at or above it and by none below.
Also printed: each rung's median and largest seconds a puzzle (on this machine).

    python benchmarks/ladder_success.py                 # every folder under puzzles/ with an index.json
    python benchmarks/ladder_success.py puzzles/tiles   # one collection

Prints a Markdown table (docs/generate.md, "Who solves the puzzles").
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from rummy.ladder import Effort, best_found, ladder_of
from rummy.position import Position
from rummy.vocabulary import Tier

ROOT = Path(__file__).resolve().parents[1]
TOLERANCE = Fraction(1, 1000)  # solution files round Epic's fractional gains to 4 decimals


def main(folders: list[Path]) -> None:
    solved: dict[tuple[str, str, str], list[int]] = defaultdict(list)  # (family, kind, tier) -> per rung
    counts: dict[tuple[str, str, str], int] = defaultdict(int)
    rung_names: dict[str, list[str]] = {}
    seconds: dict[str, list[float]] = defaultdict(list)
    for folder in folders:
        entries = json.loads((folder / "index.json").read_text(encoding="utf-8"))["puzzles"]
        for entry in entries:
            position = Position.from_file(folder / entry["position"])
            stored = json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))
            optimum = Fraction(str(stored["gain"])) - TOLERANCE
            family = position.rules.family.name
            rungs = ladder_of(position)
            rung_names[family] = [rung.name for rung in rungs]
            key = (family, entry["kind"], entry["tier"])
            counts[key] += 1
            row = solved.setdefault(key, [0] * len(rungs))
            below = None
            for index, rung in enumerate(rungs):
                started = time.perf_counter()
                below = best_found(rung, position, Effort(), below)
                seconds[f"{family} {rung.name}"].append(time.perf_counter() - started)
                if below.gain is not None and below.gain >= optimum:
                    row[index] += 1
    tiers = [tier.value for tier in Tier]
    print("| family | kind | tier | puzzles | " + " | ".join(f"rung {k}" for k in (1, 2, 3)) + " |")
    print("|---|---|---|---:|---:|---:|---:|")
    for family, kind, tier in sorted(counts, key=lambda k: (k[0], k[1], tiers.index(k[2]))):
        n = counts[family, kind, tier]
        shares = [f"{name} {100 * hits / n:.0f}%" for name, hits in zip(rung_names[family], solved[family, kind, tier])]
        print(f"| {family} | {kind} | {tier} | {n} | " + " | ".join(shares) + " |")
    print()
    print("| rung | median s | max s |")
    print("|---|---:|---:|")
    for name, values in sorted(seconds.items()):
        print(f"| {name} | {statistics.median(values):.3f} | {max(values):.2f} |")


if __name__ == "__main__":
    chosen = [Path(arg) for arg in sys.argv[1:]] or sorted(p.parent for p in (ROOT / "puzzles").glob("*/index.json"))
    main(chosen)
