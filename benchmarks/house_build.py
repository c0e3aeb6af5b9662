"""House: the model's set-up time (``build_context`` + the branch's model), two trees against each other in one run.

    python benchmarks/house_build.py [--old DIR] [--repeat N] [--digests FILE] [SET_OR_FILE ...]

Each tree (``--old``, a checkout such as ``git worktree add /tmp/prev 3965bc7``,
and this working tree) runs in its own worker process; the positions go to
both in turn (the order turned round on every other position, so a shared
machine's noise falls on both). Per position a worker builds the model
``--repeat`` times and answers the fastest build's seconds, then the greedy
start's seconds (``_greedy_start``, 10 s allowed) and its objective, and the SHA-256 of
the model's proto (its text format): the two trees must build the
identical model, and any position where they differ is listed.

``--digests FILE`` instead writes the digests of the positions to FILE (JSON,
the test data of tests/model/test_house_build.py), of ``--old``'s models if
given, else of this tree's, and times nothing. The golden file was written by
``--old`` at commit 3965bc7 (before the set-up was made faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SETS = ("house", "house-real", "house-selfplay")

# The worker: reads a path a line, answers "seconds digest" (or "- none" where no model is built).
WORKER = """
import hashlib, sys, time
from rummy.position import Position
from rummy.model.clock import Clock
from rummy.model.house import _branch_model, _greedy_start
from rummy.model.house.objective import maximize_turn
from rummy.solution import SolverConfig
from rummy.model.house.context import build_context
from rummy.model.house.replacement import replacement_options
repeat = int(sys.argv[1])
for line in sys.stdin:
    position = Position.from_file(line.strip())
    if position.phase != "play":
        print("0 draw-phase 0 none", flush=True)
        continue
    fastest, digest = float("inf"), "none"
    for _ in range(repeat):
        started = time.perf_counter()
        ctx = build_context(position)
        m = _branch_model(ctx, replacement_options(ctx), ())
        fastest = min(fastest, time.perf_counter() - started)
        if m is not None:
            digest = hashlib.sha256(str(m.model.proto).encode()).hexdigest()
    greedy, objective = 0.0, "none"
    if m is not None:
        maximize_turn(m)
        started = time.perf_counter()
        start = _greedy_start(m, SolverConfig(time_limit=10.0), Clock(started + 10.0))
        greedy = time.perf_counter() - started
        objective = "none" if start is None else str(start.objective)
    print(f"{fastest:.6f} {digest} {greedy:.6f} {objective}", flush=True)
"""


class Worker:
    def __init__(self, tree: Path, repeat: int) -> None:
        environment = dict(os.environ, PYTHONPATH=str(tree))
        self.process = subprocess.Popen([sys.executable, "-c", WORKER, str(repeat)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=environment, cwd=tree)

    def build(self, path: Path) -> tuple[float, str, float, str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{path.resolve()}\n")
        self.process.stdin.flush()
        seconds, digest, greedy, objective = self.process.stdout.readline().split()
        return float(seconds), digest, float(greedy), objective

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def positions(arguments: list[str]) -> list[Path]:
    found: list[Path] = []
    for raw in arguments or [str(HERE / "positions" / name) for name in DEFAULT_SETS]:
        path = Path(raw)
        found.extend(sorted(path.glob("*.toml")) if path.is_dir() else [path])
    return found


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1000:.1f} ms  p90 {p90 * 1000:.1f} ms  "
            f"max {ordered[-1] * 1000:.1f} ms  mean {statistics.fmean(ordered) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--digests", type=Path)
    parser.add_argument("paths", nargs="*")
    arguments = parser.parse_args()
    paths = positions(arguments.paths)
    if arguments.digests is not None:
        tree = Worker(arguments.old or HERE.parent, arguments.repeat)
        digests = {str(p.resolve().relative_to(HERE.parent)): tree.build(p)[1] for p in paths}
        digests = {path: digest for path, digest in digests.items() if digest != "draw-phase"}
        arguments.digests.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        tree.close()
        return
    new = Worker(HERE.parent, arguments.repeat)
    if arguments.old is None:
        parser.error("--old DIR is needed to compare")
    old = Worker(arguments.old, arguments.repeat)
    print(f"load {os.getloadavg()}  {len(paths)} positions  repeat {arguments.repeat}")
    times: dict[str, list[float]] = {"old": [], "new": []}
    greedy: dict[str, list[float]] = {"old": [], "new": []}
    differ: list[str] = []
    other_greedy: list[str] = []
    started = time.perf_counter()
    for n, path in enumerate(paths):
        order = [("old", old), ("new", new)]
        answers = {name: worker.build(path) for name, worker in (order if n % 2 == 0 else order[::-1])}
        if answers["new"][1] == "draw-phase":
            continue  # no model to build
        for name, (seconds, _, greedy_seconds, objective) in answers.items():
            times[name].append(seconds)
            if objective != "none":
                greedy[name].append(greedy_seconds)
        if answers["old"][1] != answers["new"][1]:
            differ.append(path.name)
        if answers["old"][3] != answers["new"][3]:
            other_greedy.append(path.name)
    for name, values in times.items():
        print(f"build {name}: {summary(values)}")
    for name, values in greedy.items():
        print(f"greedy start {name}: {summary(values)}")
    ratios = [o / n for o, n in zip(times["old"], times["new"])]
    print(f"old/new per position: median {statistics.median(ratios):.2f}  min {min(ratios):.2f}  max {max(ratios):.2f}")
    print(f"identical models: {len(times['new']) - len(differ)}/{len(times['new'])}"
          + (f"  DIFFER: {differ}" if differ else ""))
    print(f"greedy starts of equal objective: {len(times['new']) - len(other_greedy)}/{len(times['new'])}"
          + (f"  DIFFER: {other_greedy}" if other_greedy else ""))
    print(f"load {os.getloadavg()}  {time.perf_counter() - started:.0f} s")
    old.close()
    new.close()


if __name__ == "__main__":
    main()
