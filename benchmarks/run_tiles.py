"""Solve the benchmark positions with our tile model; one JSON line per position.

    python benchmarks/run_tiles.py [--workers 2] [--time-limit 60] FILE_OR_DIR...
    python benchmarks/run_tiles.py --serve      # paths on stdin, one a line

Each line: {"file", "tiles_played", "seconds", "status", "legal", "plays",
"tiles_moved", "branches"}; ``seconds`` is the whole of ``solve_tiles``
(reading the position's counts, building both CP-SAT models, solving,
decoding), ``legal`` the independent checker's verdict on the answer. A last
line {"summary": true, "max_rss_kb"} gives the process's peak memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from position_paths import position_paths  # noqa: E402
from rummy.position import Position  # noqa: E402
from rummy.solution import SolverConfig  # noqa: E402

WARM_UP = """
rules = "rummikub-lenient"
to_move = "ann"
table = ["R1 R2 R3"]
[players.ann]
melded = true
hand = "R4"
"""


def judge(before: Position, after: Position | None) -> bool | None:
    """The checker's verdict, when the checker exists (it is written apart from the model)."""
    if after is None:
        return None
    try:
        from rummy.checker import check
    except ImportError:
        return None
    return check(before, after).legal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--serve", action="store_true", help="read position paths from stdin")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    from rummy.model.tile import solve_tiles

    config = SolverConfig(time_limit=args.time_limit, workers=args.workers)
    warm = Position.from_toml(WARM_UP)
    solve_tiles(warm, config)  # untimed: imports and first-call caches, as the peer's warm-up
    for path in position_paths(args.paths, args.serve):
        position = Position.from_file(path)
        started = time.perf_counter()
        solution = solve_tiles(position, config)
        seconds = time.perf_counter() - started
        after = solution.after
        row = {
            "file": str(path),
            "tiles_played": solution.cards_played,
            "seconds": seconds,
            "status": solution.status,
            "legal": judge(position, after),
            "plays": [p.notation(position.rules) for p in after.table] if after is not None else [],
            "tiles_moved": solution.stats.get("tiles_moved"),
            "branches": solution.stats.get("branches"),
        }
        print(json.dumps(row), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"summary": True, "max_rss_kb": peak}), flush=True)


if __name__ == "__main__":
    main()
