"""Throughput of the parallel modes: ``rummy best`` and ``rummy generate`` with --jobs and --cluster.

    python benchmarks/run_parallel.py [--repeats 3] [--bodies puzzles bench] [--no-generate]
                                      [--gen-count 4] [--overhead-count 200] [--out FILE]

Run it with the project's virtualenv (``.venv/bin/python``, with the ``test``
or ``cluster`` extra: it needs dask ``distributed``). Everything is measured
in one run, on this machine:

1. ``rummy best --json`` over a fixed body of positions, as subprocesses, four
   ways: ``--jobs 1 --workers 1`` (one process, one CP-SAT thread: the
   reference), ``--jobs 1`` (one process, 2 threads a search), ``--jobs 2``
   (two processes, one thread each) and ``--cluster`` against a
   ``distributed.LocalCluster`` of two one-thread worker processes started
   here (started once: its workers are warm after the first run, the
   ``--jobs 2`` pool is started by every run). The bodies: ``puzzles``
   (puzzles/house, puzzles/tiles, puzzles/robber: ~370 positions of a few
   milliseconds) and ``bench`` (benchmarks/positions/house, tiles,
   house-real: 150 positions, a few of several seconds). Wall seconds,
   positions a second, the client's peak memory (RSS), and the scaling
   efficiency: throughput at 2 / (2 x throughput of ``--jobs 1 --workers 1``).
   Every run's status and gain per file must equal the first reference
   run's: the mismatch count must be 0.
2. ``rummy generate`` puzzles a minute with ``--jobs 1``, ``--jobs 2`` and
   ``--cluster``, each into a fresh folder; the puzzle .toml files must be
   byte-identical whatever the runner.
3. Dask's per-task overhead: ``--overhead-count`` copies of the smallest
   puzzle through ``rummy best`` with ``--cluster`` and ``--jobs 2``, and
   no-op tasks (``len`` of a position's text) straight through
   ``rummy.parallel``'s runners (no process start, no solving), and all
   submitted to Dask at once (``client.map``: the scheduler's own cost).
4. Task sizes: the pickled task (position text and config) and the pickled
   result (the --json object) of every position of the bodies.

Every measurement notes the load average (1 min) before and after. Medians
over the repeats, with min and max. Prints markdown tables and writes
benchmarks/results/parallel.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import pickle
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

BODIES = {
    "puzzles": ["puzzles/house", "puzzles/tiles", "puzzles/robber"],
    "bench": ["benchmarks/positions/house", "benchmarks/positions/tiles", "benchmarks/positions/house-real"],
}
BEST_MODES = {  # name: options (CLUSTER is replaced by the LocalCluster's address)
    "--jobs 1 --workers 1": ["--jobs", "1", "--workers", "1"],
    "--jobs 1 (2 threads)": ["--jobs", "1"],
    "--jobs 2": ["--jobs", "2"],
    "--cluster (2 workers)": ["--cluster", "CLUSTER"],
}
REFERENCE = "--jobs 1 --workers 1"
GEN_MODES = {
    "--jobs 1": ["--jobs", "1"],
    "--jobs 2": ["--jobs", "2"],
    "--cluster (2 workers)": ["--cluster", "CLUSTER"],
}
OVERHEAD_MODES = {
    "--jobs 1 --workers 1": ["--jobs", "1", "--workers", "1"],
    "--jobs 2": ["--jobs", "2"],
    "--cluster (2 workers)": ["--cluster", "CLUSTER"],
}
RUMMY = [str(Path(sys.executable).parent / "rummy")]


def load() -> float:
    return round(os.getloadavg()[0], 2)


def run(command: list[str], cwd: Path, timeout: float) -> dict[str, Any]:
    """One subprocess: wall seconds, its peak RSS (MB), exit code, stdout; the load before and after."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("RUMMY_CLUSTER", None)
    before = load()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err, env=env)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.005)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    return {"seconds": seconds, "rss_mb": usage.ru_maxrss / 1024, "code": process.returncode, "stdout": stdout,
            "stderr": stderr, "load_before": before, "load_after": load(), "timed_out": seconds > timeout}


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def fmt(stats: dict[str, float], digits: int = 1) -> str:
    if stats["min"] == stats["max"]:
        return f"{stats['median']:.{digits}f}"
    return f"{stats['median']:.{digits}f} ({stats['min']:.{digits}f}-{stats['max']:.{digits}f})"


def answers(stdout: str) -> dict[str, tuple[Any, Any]]:
    found = {}
    for line in stdout.splitlines():
        if line.startswith("{"):
            data = json.loads(line)
            found[data["file"]] = (data.get("status"), data.get("gain"))
    return found


def measure_best(args: argparse.Namespace, address: str, results: dict[str, Any]) -> None:
    for body in args.bodies:
        paths = BODIES[body]
        rows: dict[str, list[dict[str, Any]]] = {mode: [] for mode in BEST_MODES}
        reference: dict[str, tuple[Any, Any]] | None = None
        solver_seconds: list[float] = []
        mismatches: list[str] = []
        for repeat in range(args.repeats):
            for mode, options in BEST_MODES.items():
                options = [address if o == "CLUSTER" else o for o in options]
                command = RUMMY + ["best", *paths, "--json", "--time-limit", str(args.time_limit), *options]
                result = run(command, ROOT, args.timeout)
                found = answers(result["stdout"])
                if reference is None and mode == REFERENCE:
                    reference = found
                    solver_seconds = [json.loads(line)["seconds"] for line in result["stdout"].splitlines()
                                      if line.startswith("{")]
                assert reference is not None
                bad = [f"{body} {mode} run {repeat + 1}: {name}: {found.get(name)} != {want}"
                       for name, want in reference.items() if found.get(name) != want]
                bad += [f"{body} {mode} run {repeat + 1}: {name}: not in the reference"
                        for name in found if name not in reference]
                if result["code"] not in (0, 1) or result["timed_out"]:
                    bad.append(f"{body} {mode} run {repeat + 1}: exit {result['code']}"
                               f"{' (timed out)' if result['timed_out'] else ''}: {result['stderr'][-500:]}")
                mismatches += bad
                rows[mode].append({"seconds": result["seconds"], "positions": len(found), "rss_mb": result["rss_mb"],
                                   "code": result["code"], "load_before": result["load_before"],
                                   "load_after": result["load_after"], "mismatches": len(bad)})
                print(f"  best {body} {mode} run {repeat + 1}: {len(found)} positions in {result['seconds']:.1f} s, "
                      f"load {result['load_before']}->{result['load_after']}, {len(bad)} mismatches", flush=True)
        results["best"][body] = {"paths": paths, "runs": rows, "mismatches": mismatches,
                                 "solver_seconds": spread(solver_seconds) if solver_seconds else None,
                                 "solver_seconds_mean": statistics.mean(solver_seconds) if solver_seconds else None}


def measure_generate(args: argparse.Namespace, address: str, results: dict[str, Any]) -> None:
    spec = ["--rules", args.gen_rules, "--kind", args.gen_kind, "--difficulty", args.gen_difficulty,
            "--count", str(args.gen_count), "--seed", str(args.gen_seed)]
    rows: dict[str, list[dict[str, Any]]] = {mode: [] for mode in GEN_MODES}
    first: dict[str, bytes] | None = None
    differences: list[str] = []
    for repeat in range(args.repeats):
        for mode, options in GEN_MODES.items():
            options = [address if o == "CLUSTER" else o for o in options]
            folder = Path(tempfile.mkdtemp(prefix="rummy-parallel-gen-"))
            try:
                out = folder / "out"
                result = run(RUMMY + ["generate", *spec, "--out", str(out), *options], ROOT, args.timeout)
                files = {p.name: p.read_bytes() for p in sorted(out.glob("*.toml"))} if out.exists() else {}
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            if first is None:
                first = files
            bad = []
            if files != first:
                bad.append(f"{mode} run {repeat + 1}: puzzles differ: {sorted(files)} against {sorted(first)}"
                           " (same names, different bytes: "
                           f"{[n for n in files if n in first and files[n] != first[n]]})")
            if result["code"] != 0 or result["timed_out"]:
                bad.append(f"{mode} run {repeat + 1}: exit {result['code']}: {result['stderr'][-500:]}")
            differences += bad
            made = len(files)
            rows[mode].append({"seconds": result["seconds"], "puzzles": made,
                               "per_minute": made / result["seconds"] * 60, "load_before": result["load_before"],
                               "load_after": result["load_after"], "summary": result["stderr"].splitlines()[:1]})
            print(f"  generate {mode} run {repeat + 1}: {made} puzzles in {result['seconds']:.1f} s, "
                  f"load {result['load_before']}->{result['load_after']}, {len(bad)} differences", flush=True)
    results["generate"] = {"options": spec, "runs": rows, "differences": differences}


def measure_overhead(args: argparse.Namespace, address: str, results: dict[str, Any]) -> None:
    from rummy.parallel import DaskRunner, InProcess, Processes

    smallest = min((p for body in args.bodies for folder in BODIES[body] for p in (ROOT / folder).glob("*.toml")),
                   key=lambda p: p.stat().st_size)
    folder = Path(tempfile.mkdtemp(prefix="rummy-parallel-overhead-"))
    rows: dict[str, list[dict[str, Any]]] = {mode: [] for mode in OVERHEAD_MODES}
    try:
        for index in range(args.overhead_count):
            shutil.copy(smallest, folder / f"p{index:05d}.toml")
        for repeat in range(args.repeats):
            for mode, options in OVERHEAD_MODES.items():
                options = [address if o == "CLUSTER" else o for o in options]
                result = run(RUMMY + ["best", str(folder), "--json", *options], ROOT, args.timeout)
                found = answers(result["stdout"])
                rows[mode].append({"seconds": result["seconds"], "positions": len(found), "code": result["code"],
                                   "load_before": result["load_before"], "load_after": result["load_after"]})
                print(f"  overhead best {mode} run {repeat + 1}: {len(found)} in {result['seconds']:.2f} s, "
                      f"load {result['load_before']}->{result['load_after']}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    # No-op tasks straight through the runners: what a task costs beyond its work.
    text = smallest.read_text()
    noop: dict[str, list[float]] = {}
    for name, make in (("in process", InProcess), ("2 processes", lambda: Processes(2)),
                       ("Dask, 2 workers", lambda: DaskRunner(address))):
        noop[name] = []
        for _ in range(args.repeats):
            runner = make()
            try:
                list(runner.as_done(len, [(text,)] * 20))  # warm: the pool's processes are started
                started = time.perf_counter()
                done = sum(1 for _ in runner.as_done(len, [(text,)] * args.noop_count))
                seconds = time.perf_counter() - started
            finally:
                runner.close()
            assert done == args.noop_count
            noop[name].append(seconds / args.noop_count * 1000)
        print(f"  no-op tasks {name}: {fmt(spread(noop[name]), 3)} ms a task (load {load()})", flush=True)
    # The same no-op tasks all submitted at once (client.map, no window): the scheduler's own cost a task.
    from distributed import Client, wait

    name = "Dask, 2 workers, all submitted at once (client.map)"
    noop[name] = []
    with Client(address) as client:
        for _ in range(args.repeats):
            wait(client.map(len, [text] * 20, pure=False))
            started = time.perf_counter()
            futures = client.map(len, [text] * args.noop_count, pure=False)
            wait(futures)
            seconds = time.perf_counter() - started
            del futures
            noop[name].append(seconds / args.noop_count * 1000)
    print(f"  no-op tasks {name}: {fmt(spread(noop[name]), 3)} ms a task (load {load()})", flush=True)
    results["overhead"] = {"position": str(smallest.relative_to(ROOT)), "count": args.overhead_count, "runs": rows,
                           "noop_count": args.noop_count, "noop_ms_per_task": {k: spread(v) for k, v in noop.items()}}


def measure_sizes(args: argparse.Namespace, results: dict[str, Any], stdout_by_body: dict[str, str]) -> None:
    """Pickled task (what the client sends) and pickled result (what a worker sends back), per position."""
    from rummy.cli.best import _task
    from rummy.reports.best import Solved
    from rummy.solution import SolverConfig

    config = SolverConfig(time_limit=args.time_limit, workers=1)
    sizes: dict[str, Any] = {}
    for body, stdout in stdout_by_body.items():
        tasks, outs, texts = [], [], []
        for folder in BODIES[body]:
            for path in sorted((ROOT / folder).glob("*.toml")):
                task = _task(path.relative_to(ROOT), config, True, False)
                texts.append(len(task[1].encode()))
                tasks.append(len(pickle.dumps(task)))
        for line in stdout.splitlines():
            if line.startswith("{"):
                data = json.loads(line)
                outs.append(len(pickle.dumps(Solved(data["file"], 0, data))))
        sizes[body] = {"text_bytes": spread(texts), "task_bytes": spread(tasks), "result_bytes": spread(outs),
                       "result_bytes_mean": statistics.mean(outs)}
    results["sizes"] = sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--bodies", nargs="+", default=list(BODIES), choices=list(BODIES))
    parser.add_argument("--time-limit", type=float, default=30.0, help="rummy best --time-limit")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds any one command may take")
    parser.add_argument("--no-best", action="store_true")
    parser.add_argument("--no-generate", action="store_true")
    parser.add_argument("--no-overhead", action="store_true")
    parser.add_argument("--gen-rules", default="house-classic")
    parser.add_argument("--gen-kind", default="meld-steal")
    parser.add_argument("--gen-difficulty", default="expert")
    parser.add_argument("--gen-count", type=int, default=4)
    parser.add_argument("--gen-seed", type=int, default=7)
    parser.add_argument("--overhead-count", type=int, default=200)
    parser.add_argument("--noop-count", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "parallel.json")
    args = parser.parse_args()

    from distributed import LocalCluster

    started = time.perf_counter()
    results: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "processor": platform.processor() or platform.machine(),
                    "python": platform.python_version()},
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "best": {}, "load_start": load(),
    }
    import distributed

    results["machine"]["distributed"] = distributed.__version__
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    address = cluster.scheduler_address
    print(f"LocalCluster at {address}; load {load()}", flush=True)
    try:
        if not args.no_best:
            measure_best(args, address, results)
        if not args.no_generate:
            measure_generate(args, address, results)
        if not args.no_overhead:
            measure_overhead(args, address, results)
    finally:
        cluster.close()
    if not args.no_best:
        stdout_by_body = {}
        for body in args.bodies:
            result = run(RUMMY + ["best", *BODIES[body], "--json", "--jobs", "2"], ROOT, args.timeout)
            stdout_by_body[body] = result["stdout"]
        measure_sizes(args, results, stdout_by_body)
    results["seconds"] = time.perf_counter() - started
    results["load_end"] = load()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    print()
    print(tables(results))
    print(f"\n(whole run {results['seconds']:.0f} s; results in {args.out})")
    bad = sum(len(b["mismatches"]) for b in results["best"].values()) \
        + len(results.get("generate", {}).get("differences", []))
    return 1 if bad else 0


def tables(results: dict[str, Any]) -> str:
    lines = [f"Measured {results['date']} on {results['machine']['cpus']} CPUs ({results['machine']['processor']}), "
             f"Python {results['machine']['python']}, distributed {results['machine']['distributed']}; "
             f"`{results['command']}`. Medians of the repeats (min-max); load = 1-minute load average before/after "
             f"each run (min-max over the runs)."]
    for body, data in results["best"].items():
        runs = data["runs"]
        ref = statistics.median(r["positions"] / r["seconds"] for r in runs[REFERENCE])
        solver = data["solver_seconds"]
        lines += ["", f"`rummy best --json` on {body} ({' '.join(data['paths'])}; {runs[REFERENCE][0]['positions']} "
                  f"positions; solver seconds a position, --workers 1: median {solver['median'] * 1000:.1f} ms, "
                  f"mean {data['solver_seconds_mean'] * 1000:.1f} ms, max {solver['max']:.2f} s)", "",
                  ("| mode | runs | wall s | positions/s | scaling efficiency | client peak RSS MB | load "
                   "| mismatches |"),
                  "|---|---:|---:|---:|---:|---:|---|---:|"]
        for mode, rows in runs.items():
            rate = spread([r["positions"] / r["seconds"] for r in rows])
            workers = 2 if mode in ("--jobs 2", "--cluster (2 workers)") else 1
            efficiency = f"{rate['median'] / (workers * ref):.2f}" if workers == 2 else "-"
            loads = [r["load_before"] for r in rows] + [r["load_after"] for r in rows]
            lines.append(f"| `{mode}` | {len(rows)} | {fmt(spread([r['seconds'] for r in rows]), 2)} | {fmt(rate)} | "
                         f"{efficiency} | {statistics.median(r['rss_mb'] for r in rows):.0f} | "
                         f"{min(loads):.2f}-{max(loads):.2f} | {sum(r['mismatches'] for r in rows)} |")
        lines.append(f"\nMismatches in status or gain against the first `{REFERENCE}` run: {len(data['mismatches'])}.")
        for line in data["mismatches"][:10]:
            lines.append(f"- {line}")
    if "generate" in results:
        gen = results["generate"]
        lines += ["", f"`rummy generate {' '.join(gen['options'])}`", "",
                  "| mode | runs | wall s | puzzles | puzzles a minute | load |", "|---|---:|---:|---:|---:|---|"]
        for mode, rows in gen["runs"].items():
            loads = [r["load_before"] for r in rows] + [r["load_after"] for r in rows]
            lines.append(f"| `{mode}` | {len(rows)} | {fmt(spread([r['seconds'] for r in rows]))} | "
                         f"{rows[0]['puzzles']} | {fmt(spread([r['per_minute'] for r in rows]), 2)} | "
                         f"{min(loads):.2f}-{max(loads):.2f} |")
        lines.append(f"\nPuzzle files byte-identical across every run and mode: "
                     f"{'yes' if not gen['differences'] else 'NO'} ({len(gen['differences'])} differences).")
        for line in gen["differences"][:10]:
            lines.append(f"- {line}")
    if "overhead" in results:
        over = results["overhead"]
        lines += ["", f"Per-task overhead: {over['count']} copies of {over['position']} through `rummy best --json`",
                  "",
                  "| mode | wall s | ms a position (wall / count) |", "|---|---:|---:|"]
        for mode, rows in over["runs"].items():
            lines.append(f"| `{mode}` | {fmt(spread([r['seconds'] for r in rows]), 2)} | "
                         f"{fmt(spread([r['seconds'] / over['count'] * 1000 for r in rows]), 2)} |")
        lines += ["", f"No-op tasks (`len` of the position's text), {over['noop_count']} through the runner's "
                  "windowed `as_done` (last row: all at once), pool already started:", "", "| runner | ms a task |",
                  "|---|---:|"]
        for name, stats in over["noop_ms_per_task"].items():
            lines.append(f"| {name} | {fmt(stats, 3)} |")
    if "sizes" in results:
        lines += ["", "Task sizes (bytes; median, min-max):", "",
                  "| body | position text | pickled task | pickled result (--json object) |", "|---|---:|---:|---:|"]
        for body, s in results["sizes"].items():
            lines.append(f"| {body} | {fmt(s['text_bytes'], 0)} | {fmt(s['task_bytes'], 0)} | "
                         f"{fmt(s['result_bytes'], 0)} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
