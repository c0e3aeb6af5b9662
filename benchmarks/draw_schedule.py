"""Draw advice within its time (issue 28): previous version against current, real CLI runs, interleaved.

    python benchmarks/draw_schedule.py [--base REV] [--time-limit 10] [--reference-limit 120]
        [--reference-dir DIR] [--json FILE] [--markdown FILE] [FILE ...]

The positions: benchmarks/positions/house-draw (90 draw-phase House
positions), or the files given. For each position:

- the **reference**: an unlimited run's answer, ``rummy best FILE --json
  --time-limit R`` (``--reference-limit``, default 120 s) of the current
  version, or read from ``--reference-dir`` (``NAME.json``, any version's
  ``best --json``; or a JSON file of them by name, as
  results/draw_reference.json keeps the last run's: status, gain, bound,
  draw, options; what is missing there is run and stored; with
  ``--wait-reference S`` it waits up to S s for another process to write it);
- then ``rummy best FILE --time-limit T --json`` by each version, previous
  (``--base``, default f05161e: a detached git worktree under /tmp) and
  current (the working tree, or ``--current REV`` likewise), one after the other, the order alternating
  position by position so the noise of a shared machine falls on both. Each
  is a process of its own (``python -m rummy`` with PYTHONPATH naming its
  root); its wall time counts from before the process starts to its exit.

Per version: positions with **every option valued** (``stats``'
``draws_not_valued_in_time`` 0, and an answer at all), positions whose
**chosen draw is the reference's** (the same draw, or one the reference
values exactly as its choice: an equal-valued tie), and the wall time's
median, p90 (nearest rank) and max. Writes the table to ``--markdown``
(default benchmarks/results/draw_schedule.md) and every row to ``--json``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from house_versions import BaseTree  # noqa: E402

POSITIONS = HERE / "positions" / "house-draw"
RESULTS = HERE / "results"


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def cli(root: Path, path: Path, limit: float) -> tuple[dict[str, Any] | None, float, str]:
    """One ``rummy best --json`` process of the version under ``root``: its answer, wall seconds, stderr."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(root)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rummy", "best", str(path), "--json", "--time-limit", f"{limit:g}"],
                          capture_output=True, text=True, env=env, cwd="/tmp")
    seconds = time.perf_counter() - started
    try:
        return json.loads(done.stdout), seconds, done.stderr.strip()
    except json.JSONDecodeError:
        return None, seconds, (done.stderr.strip() or done.stdout.strip())[-300:]


def draw_of(answer: dict[str, Any] | None) -> str | None:
    return json.dumps(answer["draw"], sort_keys=True) if answer and answer.get("draw") else None


def option_key(option: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in option.items() if k in ("from", "take", "card", "player")}, sort_keys=True)


def judged_row(name: str, answer: dict[str, Any] | None, seconds: float, reference: dict[str, Any] | None,
               error: str) -> dict[str, Any]:
    stats = (answer or {}).get("stats", {})
    valued = answer is not None and stats.get("draws_not_valued_in_time", 0) == 0 and bool(answer.get("options"))
    same = False
    if answer and reference and answer.get("draw") and reference.get("draw"):
        chosen = option_key(answer["draw"])
        values = {option_key(o): o["value"] for o in reference.get("options", [])}
        same = chosen == option_key(reference["draw"]) or values.get(chosen) == reference["options"][0]["value"]
    return {"name": name, "seconds": round(seconds, 3), "status": (answer or {}).get("status"),
            "all_valued": valued, "same_draw": same, "draw": draw_of(answer), "gain": (answer or {}).get("gain"),
            "not_valued": stats.get("draws_not_valued_in_time"), "solves": stats.get("solves"),
            "error": error if answer is None else ""}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--base", default="f05161e")
    parser.add_argument("--current", default=None,
                        help="a git revision to measure as current (default: the working tree)")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--reference-limit", type=float, default=120.0)
    parser.add_argument("--reference-dir", type=Path, default=None)
    parser.add_argument("--wait-reference", type=float, default=0.0,
                        help="seconds to wait for a reference another process is writing into --reference-dir")
    parser.add_argument("--json", type=Path, default=RESULTS / "draw_schedule.json")
    parser.add_argument("--markdown", type=Path, default=RESULTS / "draw_schedule.md")
    args = parser.parse_args()
    paths = [p.resolve() for p in (args.files or sorted(POSITIONS.glob("*.toml")))]
    loads = [os.getloadavg()[0]]
    started = time.perf_counter()
    rows: dict[str, list[dict[str, Any]]] = {"previous": [], "current": []}
    references: dict[str, dict[str, Any] | None] = {}
    with BaseTree(args.base) as base, contextlib.ExitStack() as stack:
        current = stack.enter_context(BaseTree(args.current)) if args.current else None
        roots = {"previous": base.path, "current": current.path if current else ROOT}
        for index, path in enumerate(paths):
            name = path.stem
            reference = read_reference(args.reference_dir, name)
            waited = time.perf_counter()
            while reference is None and time.perf_counter() - waited < args.wait_reference:
                time.sleep(5)
                reference = read_reference(args.reference_dir, name)
            if reference is None:
                reference, _, _ = cli(ROOT, path, args.reference_limit)
                if args.reference_dir is not None and not args.reference_dir.is_file() and reference is not None:
                    args.reference_dir.mkdir(parents=True, exist_ok=True)
                    (args.reference_dir / f"{name}.json").write_text(json.dumps(reference))
            references[name] = reference
            order = ["previous", "current"] if index % 2 == 0 else ["current", "previous"]
            for version in order:
                answer, seconds, error = cli(roots[version], path, args.time_limit)
                rows[version].append(judged_row(name, answer, seconds, reference, error))
            loads.append(os.getloadavg()[0])
            print(name, "  ".join(f"{v}: {r[-1]['seconds']:.1f}s valued={r[-1]['all_valued']} "
                                  f"same={r[-1]['same_draw']}" for v, r in rows.items()), flush=True)
        subject = base.subject
        current_subject = current.subject if current else "the working tree"
    text = report(rows, references, args, subject, current_subject, loads, time.perf_counter() - started)
    print(text)
    args.markdown.parent.mkdir(parents=True, exist_ok=True)
    args.markdown.write_text(text + "\n")
    args.json.write_text(json.dumps({"time_limit": args.time_limit, "reference_limit": args.reference_limit,
                                     "base": subject, "loads": loads, "rows": rows}, indent=1) + "\n")


def read_reference(folder: Path | None, name: str) -> dict[str, Any] | None:
    """``NAME.json`` in the folder, or the entry NAME of a JSON file (results/draw_reference.json)."""
    if folder is not None and folder.is_file():
        entry: dict[str, Any] | None = json.loads(folder.read_text()).get(name)
        return entry
    if folder is None or not (folder / f"{name}.json").is_file():
        return None
    try:
        data: dict[str, Any] = json.loads((folder / f"{name}.json").read_text())
        return data
    except json.JSONDecodeError:
        return None


def report(rows: dict[str, list[dict[str, Any]]], references: dict[str, dict[str, Any] | None],
           args: argparse.Namespace, subject: str, current: str, loads: list[float], took: float) -> str:
    count = len(rows["current"])
    unproven = [n for n, r in references.items() if r is None or r.get("status") != "optimal"]
    lines = [
        f"Run {dt.date.today().isoformat()} with `python benchmarks/draw_schedule.py --time-limit {args.time_limit:g}` "
        f"on {os.cpu_count()} CPUs; load average (1 min) median {statistics.median(loads):.1f}, max {max(loads):.1f} "
        f"(a shared machine); {count} positions; the whole run took {took:.0f} s. Previous: `{subject}`; current: "
        f"`{current}`. Reference: `rummy best --time-limit {args.reference_limit:g}`"
        + (f" ({len(unproven)} not proven optimal: {', '.join(unproven)})" if unproven else " (every one optimal)")
        + ".",
        "",
        "| version | every option valued | chosen draw = reference's | wall median s | p90 s | max s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for version, found in rows.items():
        times = [r["seconds"] for r in found]
        lines.append(f"| {version} | {sum(r['all_valued'] for r in found)}/{count} | "
                     f"{sum(r['same_draw'] for r in found)}/{count} | {statistics.median(times):.2f} | "
                     f"{p90(times):.2f} | {max(times):.2f} |")
    ratios = [c["seconds"] / p["seconds"] for p, c in zip(rows["previous"], rows["current"]) if p["seconds"]]
    lines += ["", f"Median wall ratio current / previous, position by position: {statistics.median(ratios):.2f}."]
    for version, found in rows.items():
        missed = [f"{r['name']}" + (" (options unvalued)" if not r["all_valued"] else "")
                  + (" (other draw)" if not r["same_draw"] else "") for r in found
                  if not (r["all_valued"] and r["same_draw"])]
        lines.append(f"{version} misses: " + (", ".join(missed) if missed else "none") + ".")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
