"""House Rummy, previous version against current, on the same positions in the same run.

    python benchmarks/house_versions.py [--base REV] [--time-limit 60] [--repeats 3] [--no-readme]
        [--json FILE] [SET_OR_FILE ...]

- "previous" is a git revision (``--base``; default ``git merge-base HEAD
  main``, which is HEAD itself on main), checked out as a temporary ``git
  worktree`` under /tmp; "current" is the working tree. Each runs in its own
  process (this script with ``--serve``, ``rummy`` imported from that
  version's root through PYTHONPATH, the venv's editable-install finder taken
  off so no module falls back to the working tree); the two never share a
  process.
- The positions: benchmarks/positions/house (generate_house.py),
  benchmarks/positions/house-real (generate_house_real.py) and
  benchmarks/positions/house-selfplay (generate_house_selfplay.py: taken
  from self-played hands, the play and the draw phase) by default, or
  the sets (folder names under benchmarks/positions) or files given. A
  position's group is its file name without the trailing number
  (``real-4p-late-03`` -> ``real-4p-late``, ``house-40-07`` -> ``house-40``).
- Each position is solved by both versions in turn (previous then current,
  the next position current then previous: the noise of a shared machine
  falls on both), ``--repeats`` times each, the median counting; a position
  that took more than ``--repeat-under`` seconds in either version is
  solved once. Before the first position each process solves one untimed.
- The time is ``solution.seconds`` of ``rummy.answer.best`` (model building
  and solving) with SolverConfig(time_limit, workers=2). Statuses, gains and
  bounds are compared: gains that differ are a correctness alarm when both
  are proven optimal; any status but ``optimal`` is listed. Every answer's
  end state is judged by the current checker (outside the timing).
- Prints markdown tables (per group and overall: median, p90, max for both,
  the ratio of medians) and writes them into benchmarks/README.md between
  the house-versions markers unless ``--no-readme``. benchmarks/run_families.py
  (and so benchmarks/run.py) runs this comparison as its House section.

p90 is the nearest-rank 90th percentile: the ceil(0.9 n)-th smallest.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
POSITIONS = HERE / "positions"
DEFAULT_SETS = ("house", "house-real", "house-selfplay")
README = HERE / "README.md"
START, END = "<!-- house-versions:start -->", "<!-- house-versions:end -->"
GOAL_MEDIAN, GOAL_MAX = 0.050, 1.0
REPEAT_UNDER = 1.0  # seconds: a position slower than this in either version is solved once


# ------------------------------------------------------------------ the solving process (one per version)
def serve(root: Path, time_limit: float, workers: int) -> None:
    """Read a position path a line, answer a JSON line; rummy is the one under ``root``."""
    where = import_rummy_from(root)
    from rummy.answer import best
    from rummy.position import Position
    from rummy.solution import SolverConfig

    config = SolverConfig(time_limit=time_limit, workers=workers)
    print(json.dumps({"rummy": str(where)}), flush=True)
    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        try:
            position = Position.from_file(path)
            answer = best(position, config)
            solution = answer.solution
            after = solution.after
            reply = {
                "status": str(getattr(solution.status, "value", solution.status)),
                "gain": None if solution.gain is None else float(solution.gain),
                "bound": None if solution.bound is None else float(solution.bound),
                "seconds": solution.seconds,
                "after": after.to_data() if after is not None else None,
            }
        except Exception as error:  # noqa: BLE001 - reported as the position's row, the run goes on
            reply = {"status": "error", "error": f"{type(error).__name__}: {error}",
                     "trace": traceback.format_exc(limit=3)}
        print(json.dumps(reply), flush=True)


def import_rummy_from(root: Path) -> Path:
    """Import ``rummy`` from ``root`` alone (in a process of its own); the package's folder."""
    # The venv installs the working tree as an editable package through a meta-path finder; it
    # would fill in any module the other version lacks, so it goes, and PYTHONPATH alone decides.
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "")]
    sys.path.insert(0, str(root))
    import rummy

    where = Path(rummy.__file__).resolve()
    if root.resolve() not in where.parents:
        raise SystemExit(f"rummy imported from {where}, not from {root}")
    return where.parent


def version_env(root: Path) -> dict[str, str]:
    """The environment of a process that runs the version at ``root`` (PYTHONPATH that root alone)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(root)
    return env


class Solver:
    """One version's solving process (``script --serve ROOT``: this script's, or another's with the same protocol)."""

    def __init__(self, label: str, root: Path, time_limit: float, workers: int, script: Path | None = None) -> None:
        self.label = label
        env = version_env(root)
        command = [sys.executable, str((script or Path(__file__)).resolve()), "--serve", str(root),
                   "--time-limit", str(time_limit), "--workers", str(workers)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        env=env, cwd=root)
        self.hello = self._read()  # the process's first line: where its rummy is, and what else it says
        self.rummy = self.hello["rummy"]

    def _read(self) -> dict:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the {self.label} solver stopped (exit {self.process.poll()})")
            if line.startswith("{"):
                return json.loads(line)

    def solve(self, path: Path) -> dict:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait()


# ------------------------------------------------------------------ the previous version's tree
def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


def default_base() -> str:
    try:
        return git("merge-base", "HEAD", "main")
    except subprocess.CalledProcessError:
        return "HEAD"


class BaseTree:
    """``git worktree add --detach`` of the revision under /tmp, removed on exit."""

    def __init__(self, rev: str) -> None:
        self.commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
        self.subject = git("log", "-1", "--format=%h %s", self.commit)
        self.path = Path(tempfile.mkdtemp(prefix=f"rummy-base-{self.commit[:10]}-"))

    def __enter__(self) -> BaseTree:
        git("worktree", "add", "--detach", "--force", str(self.path), self.commit)
        if not (self.path / "rummy" / "__init__.py").exists():
            raise SystemExit(f"{self.commit[:10]} has no rummy/ package at its root")
        return self

    def __exit__(self, *exc: object) -> None:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(self.path)], capture_output=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True)


# ------------------------------------------------------------------ running
@dataclass
class Row:
    path: Path
    set_name: str
    group: str
    runs: dict[str, list[dict]] = field(default_factory=lambda: {"previous": [], "current": []})
    breaches: dict[str, list[str] | None] = field(default_factory=dict)  # the checker's codes; None: nothing judged

    def seconds(self, version: str) -> float:
        return statistics.median(r.get("seconds", math.nan) for r in self.runs[version])

    def first(self, version: str) -> dict:
        return self.runs[version][0]

    def statuses(self, version: str) -> set[str]:
        return {r["status"] for r in self.runs[version]}

    def gains(self, version: str) -> set[float | None]:
        return {r.get("gain") for r in self.runs[version]}


def group_of(path: Path) -> str:
    stem = path.stem
    head, _, tail = stem.rpartition("-")
    return head if head and tail.isdigit() else stem


def position_paths(items: list[str]) -> list[tuple[str, Path]]:
    """(set name, path) for every position: a set is a folder under benchmarks/positions, or a folder or file."""
    found = []
    for item in items or list(DEFAULT_SETS):
        path = Path(item)
        if not path.exists() and (POSITIONS / item).is_dir():
            path = POSITIONS / item
        if path.is_dir():
            found += [(path.name, p.resolve()) for p in sorted(path.glob("*.toml"))]
        elif path.is_file():
            found.append((path.parent.name, path.resolve()))
        else:
            raise SystemExit(f"{item}: no such set, folder or file")
    return found


def judge(path: Path, reply: dict) -> list[str] | None:
    """The current checker's breach codes for a reply's end state ([]: legal; None: nothing to judge)."""
    sys.path.insert(0, str(ROOT))
    from rummy.checker import check
    from rummy.position import Position

    if reply.get("after") is None:
        return None
    try:
        position = Position.from_file(path)
        after = Position.from_data(reply["after"], str(path), strict=False)
    except Exception as error:  # noqa: BLE001 - an end state the current reader refuses is a finding too
        return [f"unreadable: {type(error).__name__}: {error}"]
    if after.phase != "play":
        return None
    return [str(b.code) for b in check(position, after).breaches]


def compare(positions: list[tuple[str, Path]], base: str, time_limit: float, repeats: int, repeat_under: float,
            workers: int = 2, log=sys.stderr) -> dict:
    """Run both versions over the positions; the raw results and what the report needs."""
    started = time.perf_counter()
    load_before = load_average()
    changed = len(git("status", "--porcelain", "--", "rummy").splitlines())
    current = f"{ROOT} at {git('rev-parse', '--short', 'HEAD')}" + \
        (f" with uncommitted changes in {changed} file(s) under rummy/" if changed else ", rummy/ unchanged")
    with BaseTree(base) as tree:
        solvers = {"previous": Solver("previous", tree.path, time_limit, workers),
                   "current": Solver("current", ROOT, time_limit, workers)}
        try:
            for solver in solvers.values():  # one untimed solve each: first-call costs out of the figures
                solver.solve(positions[0][1])
            rows = []
            for i, (set_name, path) in enumerate(positions):
                row = Row(path, set_name, group_of(path))
                order = ("previous", "current") if i % 2 == 0 else ("current", "previous")
                for r in range(repeats):
                    for version in order:
                        row.runs[version].append(solvers[version].solve(path))
                    if r == 0 and max(row.runs[v][0].get("seconds", 0.0) for v in order) > repeat_under:
                        break
                for version in order:
                    row.breaches[version] = judge(path, row.first(version))
                rows.append(row)
                print(f"{path.name}: previous {row.first('previous')['status']} {row.first('previous').get('gain')} "
                      f"{row.seconds('previous'):.3f}s, current {row.first('current')['status']} "
                      f"{row.first('current').get('gain')} {row.seconds('current'):.3f}s", file=log, flush=True)
        finally:
            for solver in solvers.values():
                solver.close()
        roots = {v: s.rummy for v, s in solvers.items()}
    return {"rows": rows, "base": tree.commit, "base_subject": tree.subject, "roots": roots, "current": current,
            "time_limit": time_limit, "repeats": repeats, "repeat_under": repeat_under, "workers": workers,
            "wall": time.perf_counter() - started, "load": (load_before, load_average())}


# ------------------------------------------------------------------ report
def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def figures(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} | {p90(values):.3f} | {max(values):.3f}"


def alarms(row: Row) -> list[str]:
    notes: list[str] = []
    for version in ("previous", "current"):
        for status in sorted(row.statuses(version)):
            if status != "optimal":
                error = next((r.get("error") for r in row.runs[version] if r.get("error")), None)
                notes.append(f"{version} {status}" + (f" ({error})" if error else ""))
        if len(row.gains(version)) > 1:
            notes.append(f"{version} gains differ between repeats {sorted(row.gains(version), key=str)}")
        codes = row.breaches.get(version)
        if codes:
            notes.append(f"{version} answer rejected by the checker ({', '.join(codes)})")
    old, new = row.first("previous").get("gain"), row.first("current").get("gain")
    if old is None or new is None or abs(old - new) > 1e-6:
        proven = row.statuses("previous") == {"optimal"} and row.statuses("current") == {"optimal"}
        notes.append(f"gains differ: previous {old}, current {new}"
                     + (" (both proven optimal: ALARM)" if proven else ""))
    return notes


def table(rows: list[Row]) -> list[str]:
    lines = [
        ("| group | positions | previous median s | p90 | max | current median s | p90 | max "
         "| median ratio (current / previous) | not optimal (prev / cur) | gains differ |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    groups = sorted({r.group for r in rows})
    for name in [*groups, None]:
        group = [r for r in rows if name is None or r.group == name]
        old = [r.seconds("previous") for r in group]
        new = [r.seconds("current") for r in group]
        not_optimal = [sum(r.statuses(v) != {"optimal"} for r in group) for v in ("previous", "current")]
        differ = sum(any(a.startswith("gains differ:") for a in alarms(r)) for r in group)
        ratio = statistics.median(new) / statistics.median(old) if statistics.median(old) > 0 else math.nan
        label = f"**all ({group[0].set_name})**" if name is None else name
        lines.append(f"| {label} | {len(group)} | {figures(old)} | {figures(new)} | {ratio:.2f} | "
                     f"{not_optimal[0]} / {not_optimal[1]} | {differ} |")
    return lines


def report(result: dict, command: str) -> str:
    rows: list[Row] = result["rows"]
    sets = list(dict.fromkeys(r.set_name for r in rows))
    lines = [
        f"Run {dt.date.today().isoformat()} with `{command}` on {machine()}; load average before/after: "
        f"{result['load'][0]} / {result['load'][1]}; the whole comparison took {result['wall']:.0f} s.",
        f"Previous: `{result['base_subject']}` (a git worktree of {result['base'][:10]}); current: the working tree "
        f"({result['current']}, as the run started). "
        f"`best` with SolverConfig(time_limit={result['time_limit']:g}, workers={result['workers']}), "
        f"time = `solution.seconds` (building and solving); each position solved by both in turn, "
        f"median of {result['repeats']} (once when a solve took over {result['repeat_under']:g} s). "
        f"Goal (issue 12): current median <= {1000 * GOAL_MEDIAN:.0f} ms and max <= {GOAL_MAX:g} s, proven optimal.",
        "",
    ]
    for set_name in sets:
        subset = [r for r in rows if r.set_name == set_name]
        new = [r.seconds("current") for r in subset]
        median_ok = statistics.median(new) <= GOAL_MEDIAN
        max_ok = max(new) <= GOAL_MAX
        optimal = sum(r.statuses("current") == {"optimal"} for r in subset)
        lines += [
            f"#### `positions/{set_name}` ({len(subset)} position{'s' if len(subset) != 1 else ''})", "",
            *table(subset), "",
            f"Current against the goal: median {statistics.median(new):.3f} s {'ok' if median_ok else 'MISSED'}, "
            f"max {max(new):.3f} s {'ok' if max_ok else 'MISSED'}, proven optimal {optimal}/{len(subset)}.",
            "",
        ]
    slowest = sorted(rows, key=lambda r: -max(r.seconds("previous"), r.seconds("current")))[:8]
    lines += ["Slowest positions (seconds, previous / current):", ""]
    lines += [f"- `{r.set_name}/{r.path.name}`: {r.seconds('previous'):.2f} / {r.seconds('current'):.2f}"
              for r in slowest]
    flagged = [(r, alarms(r)) for r in rows]
    flagged = [(r, a) for r, a in flagged if a]
    lines += [""]
    if flagged:
        lines += ["Flagged (status not optimal, gains that differ, answers the checker rejects):", ""]
        lines += [f"- `{r.set_name}/{r.path.name}`: {'; '.join(a)}" for r, a in flagged]
    else:
        lines += ["Every answer proven optimal in both versions, the same gain, accepted by the checker."]
    return "\n".join(lines)


def write_readme(text: str) -> None:
    from run import replace_readme_block

    replace_readme_block(START, END, f"{START}\n{text}\n{END}", "House Rummy: previous and current version")


def dump(result: dict, path: Path) -> None:
    data = {k: v for k, v in result.items() if k != "rows"}
    data["positions"] = [{
        "file": str(r.path.relative_to(ROOT)) if ROOT in r.path.parents else str(r.path), "set": r.set_name,
        "group": r.group,
        **{v: {"seconds": r.seconds(v), "runs": [{k: x.get(k) for k in ("status", "gain", "bound", "seconds", "error")}
                                               for x in r.runs[v]], "breaches": r.breaches.get(v)}
           for v in ("previous", "current")},
        "alarms": alarms(r),
    } for r in result["rows"]]
    path.write_text(json.dumps(data, indent=1))


def machine() -> str:
    sys.path.insert(0, str(HERE))
    from run import machine as describe

    return describe()


def load_average() -> str:
    sys.path.insert(0, str(HERE))
    from run import load_average as average

    return average()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*",
                        help=f"sets under benchmarks/positions, folders or files (default: {' '.join(DEFAULT_SETS)})")
    parser.add_argument("--base", help="the previous version: a git revision (default: git merge-base HEAD main)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="per solve, seconds (default 60)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--repeat-under", type=float, default=REPEAT_UNDER,
                        help="repeat only positions faster than this (s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-readme", action="store_true", help="print the tables only")
    parser.add_argument("--json", type=Path, help="also write every position's results here")
    parser.add_argument("--serve", type=Path, metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.time_limit, args.workers)
        return
    base = args.base or default_base()
    result = compare(position_paths(args.sets), base, args.time_limit, args.repeats, args.repeat_under, args.workers)
    command = "python benchmarks/house_versions.py" + (f" --base {args.base}" if args.base else "") + \
        (f" --time-limit {args.time_limit:g}" if args.time_limit != 60 else "") + \
        (f" --repeats {args.repeats}" if args.repeats != 3 else "") + (" " + " ".join(args.sets) if args.sets else "")
    text = report(result, command)
    print(text)
    if args.json:
        dump(result, args.json)
    if not args.no_readme:
        write_readme(text)


if __name__ == "__main__":
    main()
