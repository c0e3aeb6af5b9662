"""Puzzles per minute of ``rummy generate``, by preset, kind and tier.

    python benchmarks/run_generate.py [--count 10] [--workers 2] [--seed 1] [--time-limit 10]
                                      [--rules PRESET ...] [--kinds KIND ...] [--tiers TIER ...]

By default every preset that has kinds (tile, House, Robber), every kind of
its family and every tier the kind reaches.

For every preset, kind and tier it makes ``--count`` puzzles exactly as the
command does (``rummy.generator.generate``, ``--workers`` processes, one
solver worker each), timing the whole run: dealing, solving, checking,
uniqueness, the near count and the margin; no files are written. It prints
one markdown table: puzzles a minute, candidates dealt per puzzle kept, and
the commonest reasons for rejecting a candidate. The issue's goal: at least
30 a minute for ``medium`` tile puzzles on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rummy.generator import KINDS, TIERS, Request, generate
from rummy.rules import preset

PRESETS = ["rummikub-lenient", "rummikub", "house-classic", "house-epic", "robber"]

GOAL = 30.0  # medium tile puzzles a minute


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles per preset, kind and tier")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve, as the command's option")
    parser.add_argument("--rules", nargs="+", default=PRESETS)
    parser.add_argument("--kinds", nargs="+", default=None, help="default: every kind of the preset's family")
    parser.add_argument("--tiers", nargs="+", default=list(TIERS))
    args = parser.parse_args()

    print(f"`rummy generate` on {os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), "
          f"Python {platform.python_version()}; {args.count} puzzles a row, --workers {args.workers}, "
          f"seed {args.seed}.")
    print()
    print("| preset | kind | tier | puzzles | seconds | puzzles a minute | candidates a puzzle "
          "| commonest rejections |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    medium_rates = []
    for rules in args.rules:
        family = preset(rules).family
        kinds = [kind for (f, name), kind in KINDS.items()
                 if f == family and (args.kinds is None or name in args.kinds)]
        for kind_spec in kinds:
            kind = kind_spec.name
            for tier in [t for t in args.tiers if t in kind_spec.tiers]:
                report = generate(Request(rules, kind, args.count, tier, seed=args.seed, workers=args.workers,
                                          time_limit=args.time_limit))
                made = len(report.puzzles)
                rate = made / report.seconds * 60 if report.seconds else 0.0
                if tier == "medium" and family == "tile":
                    medium_rates.append(rate)
                per = report.candidates / made if made else float("inf")
                common = ", ".join(f"{reason} {n}" for reason, n in report.rejected.most_common(3))
                print(f"| {rules} | {kind} | {tier} | {made} | {report.seconds:.1f} | {rate:.1f} | {per:.1f} "
                      f"| {common} |", flush=True)
    if medium_rates:
        worst = min(medium_rates)
        verdict = "ok" if worst >= GOAL else "MISSED"
        print()
        print(f"Slowest medium tile row: {worst:.1f} puzzles a minute (goal >= {GOAL:g}): {verdict}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
