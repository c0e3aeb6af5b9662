"""House: how soon the best turn is found, schedule choices against each other in one run (issue 28).

    python benchmarks/house_found.py [--variants today,greedy-first,...] [--limits 0.12,0.62]
        [--proof-limit 10] [--every N] [--json FILE] [SET_OR_FILE ...]

A tool for deciding the levers of House's schedule (``rummy.model.house``'s
constants), not the official per-version benchmark (that is
benchmarks/house_anytime.py). Every variant is the working tree's code with
some constants set otherwise (``VARIANTS``; ``today`` is f05161e's
schedule), all in this one process, interleaved position by position
(the order turned round on every other position, so a shared machine's noise
falls on all). Per position and variant:

- one run with ``--proof-limit`` and a listener (``SolverConfig.on_better``):
  the seconds (library, from the search's start) at which a turn of the
  reference gain was first told ("found"), and the seconds to the answer
  when it is proven ("proof");
- one run per library limit in ``--limits`` without a listener: the answer's
  share of the reference gain. The command line's ``--time-limit`` counts
  from the process start (about 0.3 s of imports) and keeps 0.1 s for the
  printing: ``--time-limit 0.5`` leaves the library about 0.12 s, ``1``
  about 0.62 s, the defaults here.

The reference gain is the best any run of any variant reached (proven or
not; the proven optimum wherever one run proved it). A share is gain /
reference for positive references (1 when both are equal, so a reference of
0 or below counts an equal answer as 100%). Positions go through
``rummy.answer.best`` (draw-phase positions through draw advice).
Workers 2, as the command line.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from rummy.answer import best  # noqa: E402
from rummy.model import house  # noqa: E402
from rummy.position import Position  # noqa: E402
from rummy.solution import Improvement, SolverConfig  # noqa: E402

DEFAULT_SETS = ("house", "house-real", "house-selfplay")
# Each variant is the working tree with some of rummy.model.house's constants set otherwise.
VARIANTS: dict[str, dict[str, float]] = {
    "current": {},
    "today": {"ONE_RUN_UNDER": 0.0},  # f05161e's schedule: the quick run first under any limit
    "one-run-under-1": {"ONE_RUN_UNDER": 1.0},
    "quick-0.1": {"QUICK_SECONDS": 0.1},
}
DEFAULTS = {name: getattr(house, name) for name in {n for v in VARIANTS.values() for n in v}}


def paths(items: list[str], every: int) -> list[Path]:
    found: list[Path] = []
    for item in items or list(DEFAULT_SETS):
        path = Path(item)
        if not path.exists():
            path = HERE / "positions" / item
        found += sorted(path.glob("*.toml")) if path.is_dir() else [path]
    # Draw advice tells each option's value as it is found, not better turns of one search: play phase only.
    return [p for p in found if "-draw-" not in p.stem][::every]


def solve(position: Position, constants: dict[str, float], limit: float, listen: bool) -> dict[str, Any]:
    for name, value in {**DEFAULTS, **constants}.items():
        setattr(house, name, value)
    heard: list[Improvement] = []
    config = SolverConfig(time_limit=limit, workers=2, on_better=heard.append if listen else None)
    started = time.perf_counter()
    solution = best(position, config).solution
    return {"status": str(solution.status), "gain": solution.gain, "seconds": time.perf_counter() - started,
            "told": [(e.seconds, e.gain, e.source) for e in heard]}


def share(gain: float | None, reference: float) -> float:
    if gain is None:
        return 0.0
    if gain == reference:
        return 1.0
    return gain / reference if reference > 0 else 0.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("items", nargs="*")
    parser.add_argument("--variants", default="today,current")
    parser.add_argument("--limits", default="0.12,0.62")
    parser.add_argument("--proof-limit", type=float, default=10.0)
    parser.add_argument("--every", type=int, default=1, help="every N-th position only")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    names = args.variants.split(",")
    schedules = {name: VARIANTS[name] for name in names}  # checked before the first position
    limits = [float(x) for x in args.limits.split(",")]
    rows: list[dict[str, Any]] = []
    positions = paths(args.items, args.every)
    warm = Position.from_file(str(positions[0]))
    solve(warm, {}, 1.0, True)
    for n, path in enumerate(positions):
        position = Position.from_file(str(path))
        order = names if n % 2 == 0 else names[::-1]
        row: dict[str, Any] = {"file": str(path), "runs": {name: {} for name in names}}
        for name in order:
            row["runs"][name]["proof"] = solve(position, schedules[name], args.proof_limit, True)
        for limit in limits:
            for name in order:
                row["runs"][name][str(limit)] = solve(position, schedules[name], limit, False)
        gains = [r["gain"] for runs in row["runs"].values() for r in runs.values() if r["gain"] is not None]
        row["reference"] = max(gains) if gains else None
        rows.append(row)
        print(path.stem, row["reference"],
              " ".join(f"{name}:{_found(runs['proof'], row['reference'])}" for name, runs in row["runs"].items()),
              file=sys.stderr, flush=True)
    report(rows, names, limits)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


def _found(run: dict[str, Any], reference: float | None) -> float:
    """Seconds until a turn of the reference gain was told (inf where none was)."""
    if reference is None:
        return math.inf
    told = [s for s, gain, *_ in run["told"] if gain >= reference]
    return round(min(told), 4) if told else math.inf


def report(rows: list[dict[str, Any]], names: list[str], limits: list[float]) -> None:
    print(f"{len(rows)} positions; times in library seconds (from the search's start)")
    head = ["variant", "found median", "p90", "max", "proof median", "p90", "max", "unproven"]
    for limit in limits:
        head += [f"@{limit} >=95%", f"@{limit} >=80%", f"@{limit} =opt", f"@{limit} worst"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in names:
        found = [_found(r["runs"][name]["proof"], r["reference"]) for r in rows]
        proven = [r["runs"][name]["proof"] for r in rows]
        proof = [p["seconds"] if p["status"] == "optimal" else math.inf for p in proven]
        cells = [name, f"{statistics.median(found):.3f}", f"{pct(found, 0.9):.3f}", f"{max(found):.3f}",
                 f"{statistics.median(proof):.3f}", f"{pct(proof, 0.9):.3f}", f"{max(proof):.3f}",
                 str(sum(p == math.inf for p in proof))]
        for limit in limits:
            shares = [share(r["runs"][name][str(limit)]["gain"], r["reference"]) for r in rows]
            n = len(shares)
            cells += [f"{sum(s >= 0.95 for s in shares) / n:.0%}", f"{sum(s >= 0.8 for s in shares) / n:.0%}",
                      f"{sum(s >= 1 for s in shares) / n:.0%}", f"{min(shares):.2f}"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
