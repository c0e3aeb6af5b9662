"""The start-up floor of ``rummy best``: from the process's start to the search, previous version against current.

    python benchmarks/startup.py [--base f05161e] [--current-tree PATH] [--runs 20] [--time-limit 0.5]
        [--no-bytecode] [--report benchmarks/results/startup.md] [POSITION ...]

Issue 28 counts "the best turn found within 100 ms" from the process's start, as ``--time-limit`` counts
(``rummy.deadline.process_age``): whatever ``rummy best`` does before its search is paid on every answer.

- Each run is one ``rummy best POSITION --time-limit T --json`` process (the console script's two lines,
  ``from rummy.cli.app import main``, run by the venv's python, with ``rummy`` imported from that version's
  tree through PYTHONPATH). Before the command starts, ``benchmarks/startup_probe/sitecustomize.py`` notes
  the wall clock at each step (see there; it changes nothing of rummy); times count from just before the
  process is spawned, so they include the interpreter's own start.
- Steps: ``site`` (the interpreter is up), ``cli`` (rummy.cli.app imported), ``read`` (the position read),
  ``cp_model`` (OR-Tools' cp_model imported), ``search`` (the family's solver called: the first search starts),
  ``solve_start`` / ``solve_end`` (the first CP-SAT solve), ``exit``. The floor is ``search`` and ``solve_end``.
- "previous" is a git revision (``--base``, default f05161e: today's version for issue 28), checked out
  as a temporary ``git worktree``; "current" is the working tree. The versions alternate run by run (which
  goes first alternates too), position by position, so the load of a shared machine falls on both.
  A bare ``python -c pass`` (with the probe) is run in the same rotation: the interpreter's own floor.
- Both trees' modules are compiled first (``compileall``), as pip's install compiles them: this project's
  sessions run with PYTHONDONTWRITEBYTECODE=1, under which a source tree compiles every rummy module at every
  start (about 100 ms more on a quiet machine); ``--no-bytecode`` measures that instead.
- The load: ``os.getloadavg()`` before each run; the report gives its median and range. The CPU time the
  process has used at each step (``time.process_time``) is given too: the work itself, whatever the load.

Prints markdown (median, p90, max per step and version, ratios of medians) and writes it to ``--report``.
p90 is the nearest-rank 90th percentile: the ceil(0.9 n)-th smallest.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "startup_probe"
DEFAULT_POSITIONS = [ROOT / "benchmarks/positions/house" / name for name in
                     ("house-20-00.toml", "house-40-03.toml", "house-50-06.toml")] + \
                    [ROOT / "benchmarks/positions/house-real/real-3p-02.toml"]
STEPS = ("site", "cli", "read", "cp_model", "search", "solve_start", "solve_end", "exit")
STEP_WORDS = {
    "site": "interpreter up (site)",
    "cli": "rummy.cli.app imported",
    "read": "position read",
    "cp_model": "OR-Tools cp_model imported",
    "search": "**first search starts**",
    "solve_start": "first CP-SAT solve starts",
    "solve_end": "**first CP-SAT solve returns**",
    "exit": "process exits",
}
CONSOLE_SCRIPT = "import sys; from rummy.cli.app import main; sys.exit(main())"


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


class BaseTree:
    """``git worktree add --detach`` of the revision under /tmp, removed on exit."""

    def __init__(self, rev: str) -> None:
        self.commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
        self.subject = git("log", "-1", "--format=%h %s", self.commit)
        self.path = Path(tempfile.mkdtemp(prefix=f"rummy-startup-{self.commit[:10]}-"))

    def __enter__(self) -> BaseTree:
        git("worktree", "add", "--detach", "--force", str(self.path), self.commit)
        return self

    def __exit__(self, *exc: object) -> None:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(self.path)], capture_output=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True)


def one_run(tree: Path | None, command: list[str], marks_file: Path) -> dict[str, Any]:
    """One process: its marks in milliseconds since just before it was spawned, its exit code, the load."""
    env = dict(os.environ, RUMMY_STARTUP_MARKS=str(marks_file), PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join([str(PROBE)] + ([str(tree)] if tree is not None else []))
    marks_file.unlink(missing_ok=True)
    load = os.getloadavg()[0]
    spawned = time.time()
    done = subprocess.run([sys.executable, *command], env=env, capture_output=True, text=True, cwd=marks_file.parent)
    marks = json.loads(marks_file.read_text(encoding="utf-8")) if marks_file.exists() else {}
    if tree is not None and marks.get("tree") != str(tree):
        raise SystemExit(f"the process ran rummy from {marks.get('tree')!r}, not {tree}: {done.stderr[-500:]}")
    row = {step: (marks[step] - spawned) * 1000 for step in STEPS if step in marks}
    cpu = {step: seconds * 1000 for step, seconds in marks.get("cpu", {}).items()}
    failure = done.stderr[-300:] if done.returncode else ""
    return {"ms": row, "cpu": cpu, "code": done.returncode, "load": load, "stderr": failure}


def compile_tree(folder: Path) -> None:
    """Each module's bytecode written beside it (``__pycache__``), as pip's install writes it: a source tree
    run with PYTHONDONTWRITEBYTECODE=1 (as this project's sessions run) compiles every module at every start."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder)], env=environment, check=True,
                   capture_output=True)


def drop_bytecode(folder: Path) -> None:
    """No module of the tree compiled (its ``__pycache__`` folders removed; the runs write none)."""
    for cache in sorted(folder.rglob("__pycache__")):
        shutil.rmtree(cache)


def percentile90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[math.ceil(0.9 * len(ordered)) - 1]


def summary(rows: list[dict[str, Any]], step: str, key: str = "ms") -> tuple[float, float, float, int] | None:
    values = [r[key][step] for r in rows if step in r[key]]
    if not values:
        return None
    return statistics.median(values), percentile90(values), max(values), len(values)


def report(result: dict[str, Any]) -> str:
    runs = result["runs"]
    loads = [r["load"] for rows in runs.values() for r in rows]
    lines = [
        f"Run {result['date']} on {os.cpu_count()} CPUs, Python {platform.python_version()}: "
        f"`python benchmarks/startup.py --runs {result['runs_each']} --time-limit {result['time_limit']}`.",
        "",
        f"- previous: `{result['base_subject']}` (a git worktree); current: {result['current']}.",
        f"- positions: {', '.join(result['positions'])}; each `rummy best POSITION --time-limit "
        f"{result['time_limit']} --json`, {result['runs_each']} runs per version and position, versions "
        "alternating run by run.",
        f"- load (1-minute average before each run): median {statistics.median(loads):.1f}, "
        f"{min(loads):.1f} to {max(loads):.1f}, on {os.cpu_count()} cores: every figure is inflated by the "
        "other processes' share of the CPUs.",
        "- milliseconds from just before the process was spawned (the interpreter's start included); "
        + ("both trees' modules compiled beforehand (`compileall`), as an installed package has them."
           if result["bytecode"] else "the trees' modules NOT compiled (`--no-bytecode`): every start compiles "
           "rummy's modules from source, as a source tree does under PYTHONDONTWRITEBYTECODE=1."),
        "",
        "| step | previous median | p90 | max | current median | p90 | max | current / previous (medians) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for step in STEPS:
        before, after = summary(runs["previous"], step), summary(runs["current"], step)
        if before is None or after is None:
            continue
        lines.append(f"| {STEP_WORDS[step]} | {before[0]:.0f} | {before[1]:.0f} | {before[2]:.0f} | "
                     f"{after[0]:.0f} | {after[1]:.0f} | {after[2]:.0f} | {after[0] / before[0]:.2f} |")
    lines += ["", "The CPU time the process had used at each step (all its threads; median ms, previous -> current): "
                  "less sensitive to the load than the wall clock, blind to what runs in parallel.", ""]
    cpu_steps = []
    for step in STEPS[:-1]:
        before, after = summary(runs["previous"], step, "cpu"), summary(runs["current"], step, "cpu")
        if before is not None and after is not None:
            cpu_steps.append(f"{STEP_WORDS[step].strip('*')} {before[0]:.0f} -> {after[0]:.0f}")
    lines.append("; ".join(cpu_steps) + ".")
    bare = summary(runs["python"], "exit")
    if bare is not None:
        lines += ["", f"A bare `python -c pass` (the same interpreter, with the probe) in the same rotation: "
                      f"median {bare[0]:.0f} ms, p90 {bare[1]:.0f}, max {bare[2]:.0f}."]
    lines += ["", "Per position, the first search's start (median ms, previous -> current):", ""]
    for name in result["positions"]:
        pair = [summary([r for r in runs[v] if r["position"] == name], "search") for v in ("previous", "current")]
        if pair[0] and pair[1]:
            lines.append(f"- {name}: {pair[0][0]:.0f} -> {pair[1][0]:.0f}")
    failed = [r for rows in runs.values() for r in rows if r["code"] not in (0, 4)]
    if failed:
        lines += ["", f"Runs that failed: {len(failed)}, e.g. `{failed[0]['stderr']}`"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", nargs="*", type=Path, help="House positions (default: four of benchmarks/)")
    parser.add_argument("--base", default="f05161e", help="the previous version: a git revision (f05161e)")
    parser.add_argument("--current-tree", type=Path, default=ROOT, help="the current version's tree (this one)")
    parser.add_argument("--runs", type=int, default=20, help="runs per version and position (20)")
    parser.add_argument("--time-limit", type=float, default=0.5, help="each command's --time-limit (0.5)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="leave the trees' modules uncompiled (as PYTHONDONTWRITEBYTECODE=1 leaves a source tree)")
    parser.add_argument("--report", type=Path, help="write the markdown here too")
    parser.add_argument("--json", type=Path, help="write every run's marks here")
    args = parser.parse_args()
    positions = [p.resolve() for p in args.positions] or DEFAULT_POSITIONS
    current = args.current_tree.resolve()
    status = subprocess.run(["git", "-C", str(current), "status", "--porcelain", "rummy"], capture_output=True,
                            text=True).stdout.strip()
    head = subprocess.run(["git", "-C", str(current), "log", "-1", "--format=%h %s"], capture_output=True,
                          text=True).stdout.strip()
    result: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "time_limit": args.time_limit,
        "runs_each": args.runs, "positions": [p.name for p in positions], "bytecode": not args.no_bytecode,
        "current": f"`{head}`" + (" with uncommitted changes" if status else ""),
        "runs": {"previous": [], "current": [], "python": []},
    }
    with BaseTree(args.base) as base, tempfile.TemporaryDirectory() as scratch:
        result["base_subject"] = base.subject
        marks = Path(scratch) / "marks.json"
        trees = {"previous": base.path, "current": current}
        for tree in trees.values():
            if args.no_bytecode:
                drop_bytecode(tree / "rummy")
            else:
                compile_tree(tree / "rummy")
        for run in range(args.runs):
            for index, position in enumerate(positions):
                command = ["-c", CONSOLE_SCRIPT, "best", str(position), "--time-limit", str(args.time_limit),
                           "--json"]
                order = ["previous", "current"] if (run + index) % 2 == 0 else ["current", "previous"]
                for version in order:
                    row = one_run(trees[version], command, marks)
                    row["position"] = position.name
                    result["runs"][version].append(row)
                bare = one_run(None, ["-c", "pass"], marks)
                bare["position"] = ""
                result["runs"]["python"].append(bare)
            print(f"run {run + 1}/{args.runs}: load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    text = report(result)
    print(text)
    if args.report:
        args.report.write_text(text, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(result), encoding="utf-8")


if __name__ == "__main__":
    main()
