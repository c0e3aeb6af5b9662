"""Draw advice for House Rummy: how long `best` takes on draw-phase positions (issue 13).

    python benchmarks/run_draw.py [--time-limit 60] [--workers 2] [--no-baseline] [--no-readme] [FILE ...]

The positions: benchmarks/positions/house-draw (generate_house_draw.py: the
House benchmark positions switched to the draw phase, a discard pile of 1-5
cards), or the files given. Each is answered by ``rummy.answer.best`` with
SolverConfig(time_limit, workers); the time is ``solution.seconds`` (every
search, model building included).

The baseline, measured in the same run on the same positions (taking turns
with the current code, position by position): the same advice without two
of its savings, the idle-card shortcut (one search per distinct unseen card)
and the threads (one search at a time; each search runs one CP-SAT worker
either way). Values must agree; a difference is an alarm.

Every certain answer's turn is judged by the checker (outside the timing).
Prints a markdown table (median, p90, max, searches) and writes it into
benchmarks/README.md between the draw-advice markers unless ``--no-readme``.
Goal (issue 13): median <= 2 s and max <= 10 s on 2 cores.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import rummy.draw_advice as draw_advice  # noqa: E402
from rummy.answer import Answer, best, verify_answer  # noqa: E402
from rummy.errors import RummyError  # noqa: E402
from rummy.position import Position  # noqa: E402
from rummy.solution import SolverConfig  # noqa: E402
from run import machine, replace_readme_block  # noqa: E402

POSITIONS = HERE / "positions" / "house-draw"
README = HERE / "README.md"
START, END = "<!-- draw-advice:start -->", "<!-- draw-advice:end -->"
GOAL_MEDIAN, GOAL_MAX = 2.0, 10.0


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def answer(position: Position, config: SolverConfig, baseline: bool) -> Answer:
    if not baseline:
        return best(position, config)
    saved = draw_advice.idle_key
    draw_advice.idle_key = lambda position, card: None  # type: ignore[assignment]
    try:
        return best(position, replace(config, workers=1))
    finally:
        draw_advice.idle_key = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--no-readme", action="store_true")
    args = parser.parse_args()
    paths = args.files or sorted(POSITIONS.glob("*.toml"))
    config = SolverConfig(time_limit=args.time_limit, workers=args.workers)
    started = time.perf_counter()
    rows = []
    alarms: list[str] = []
    for index, path in enumerate(paths):
        position = Position.from_file(path)
        order = [False, True] if index % 2 == 0 else [True, False]
        timings: dict[bool, Answer] = {}
        for baseline in order if not args.no_baseline else [False]:
            timings[baseline] = answer(position, config, baseline)
        current = timings[False]
        solution = current.solution
        try:
            verdict = verify_answer(current)
        except RummyError as error:
            alarms.append(f"{path.name}: the checker cannot judge the answer ({error})")
            verdict = None
        if verdict is not None and not verdict.legal:
            alarms.append(f"{path.name}: the checker rejects the answer ({', '.join(verdict.codes)})")
        base = timings.get(True)
        if base is not None and base.solution.draw and solution.draw:
            ours = [(o.source, o.take, o.card, o.player, o.exact) for o in solution.draw.options]
            theirs = [(o.source, o.take, o.card, o.player, o.exact) for o in base.solution.draw.options]
            if sorted(ours, key=str) != sorted(theirs, key=str) \
                    and solution.status == base.solution.status == "optimal":
                alarms.append(f"{path.name}: option values differ from the baseline's")
        rows.append({
            "name": path.name, "seconds": solution.seconds, "status": str(solution.status),
            "solves": solution.stats.get("solves", 0), "options": len(solution.draw.options) if solution.draw else 0,
            "base_seconds": base.solution.seconds if base else None,
            "base_solves": base.solution.stats.get("solves", 0) if base else None,
        })
        print(f"{path.name}: {solution.status} {solution.seconds:.2f}s, {rows[-1]['solves']} searches"
              + (f"; baseline {base.solution.seconds:.2f}s, {rows[-1]['base_solves']} searches" if base else ""),
              flush=True)
    text = report(rows, alarms, args, time.perf_counter() - started, len(paths))
    print(text)
    if not args.no_readme:
        replace_readme_block(START, END, f"{START}\n{text}\n{END}", "Draw advice (House Rummy)")


def report(rows: list[dict], alarms: list[str], args: argparse.Namespace, took: float, count: int) -> str:
    times = [r["seconds"] for r in rows]
    solves = [r["solves"] for r in rows]
    lines = [
        f"Run {dt.date.today().isoformat()} with `python benchmarks/run_draw.py` on {machine()}; "
        f"SolverConfig(time_limit={args.time_limit:g}, workers={args.workers}); {count} positions of "
        f"`positions/house-draw`; the whole run took {took:.0f} s.",
        "",
        "| version | median s | p90 s | max s | searches: median | max | not optimal |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| current | **{statistics.median(times):.2f}** | {p90(times):.2f} | **{max(times):.2f}** | "
        f"{statistics.median(solves):.0f} | {max(solves)} | {sum(r['status'] != 'optimal' for r in rows)} |",
    ]
    base = [r for r in rows if r["base_seconds"] is not None]
    if base:
        bt = [r["base_seconds"] for r in base]
        bs = [r["base_solves"] for r in base]
        lines.append(f"| baseline (no idle-card shortcut, one search at a time) | {statistics.median(bt):.2f} "
                     f"| {p90(bt):.2f} | {max(bt):.2f} | {statistics.median(bs):.0f} | {max(bs)} | |")
        ratios = [r["seconds"] / r["base_seconds"] for r in base if r["base_seconds"]]
        lines += ["", f"Median ratio current / baseline, position by position: **{statistics.median(ratios):.2f}**."]
    goal = "met" if statistics.median(times) <= GOAL_MEDIAN and max(times) <= GOAL_MAX else "MISSED"
    lines += ["", f"Goal (median <= {GOAL_MEDIAN:g} s, max <= {GOAL_MAX:g} s): {goal}.",
              "Slowest: " + ", ".join(f"`{r['name']}` {r['seconds']:.1f} s ({r['solves']} searches)"
                                     for r in sorted(rows, key=lambda r: -r["seconds"])[:5]) + "."]
    lines += ["", "Alarms: " + ("; ".join(alarms) if alarms else "none (every value agrees with the baseline; "
                                "every certain answer accepted by the checker).")]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
