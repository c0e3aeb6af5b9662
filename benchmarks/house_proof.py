"""House Rummy proof levers (issue 28 §2): each lever alone and together, against the model without, in one run.

    python benchmarks/house_proof.py [--cap 10] [--variants base,branching,cuts,...] [--json FILE] [SET_OR_FILE ...]

For every play-phase position of the sets (default house, house-real,
house-selfplay; draw-phase positions are skipped and counted), the branch
model CP-SAT proves (the melded mover's, or the meld branch's) is built once
per variant, with the levers of that variant switched on (house/branching,
house/cuts, house/paid_total, house/redundant) and the others off, and solved the way
``_solve_model`` starts: one worker, ``HOUSE_TUNING`` (plus the variant's
parameters), hinted with the table as it is, the same objective, capped at
``--cap`` seconds. The variants run position by position in a rotating
order (the load of a shared machine falls on all of them).

Per solve: the status, the wall time to the end (the proof where
"optimal"), CP-SAT's branches and deterministic time (load-independent
work), the root bound (a separate solve stopped before its first conflict: the
root's propagation and LP) and the last bound, as gains (the root gap is
root bound - optimum), and the gain found. Gains of two proven variants
that differ are a correctness alarm. Prints one markdown table per set, for
the unmelded-10-11 and real-4p-late groups, per branch (melded or unmelded
mover) and overall: proven, median / p90 / max seconds (a capped solve counts as
the cap), median ratio to base, median branches, median root gap.

p90 is the nearest-rank 90th percentile: the ceil(0.9 n)-th smallest.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from rummy.model.cpsat import cp_model  # noqa: E402
from rummy.model.house import HOUSE_TUNING, _branch_model, branching, cuts, paid_total, redundant, solve_house  # noqa: E402
from rummy.model.house.context import build_context  # noqa: E402
from rummy.model.house.objective import gain_ceiling, gain_terms, tiebreak_terms  # noqa: E402
from rummy.model.house.replacement import replacement_options  # noqa: E402
from rummy.model.house.warm_start import table_hint  # noqa: E402
from rummy.position import Position  # noqa: E402
from rummy.solution import SolverConfig  # noqa: E402
from rummy.vocabulary import Phase  # noqa: E402

POSITIONS = HERE / "positions"
DEFAULT_SETS = ("house", "house-real", "house-selfplay")

LEVERS = {"branching": branching, "cuts": cuts, "paid": paid_total, "redundant": redundant}
FIXED = {"search_branching": cp_model.FIXED_SEARCH}
# name -> (the levers on, extra CP-SAT parameters); every other lever is off.
VARIANTS: dict[str, tuple[frozenset[str], dict[str, object]]] = {
    "base": (frozenset(), {}),
    "branching": (frozenset({"branching"}), dict(branching.BRANCHING_PARAMETERS)),
    "branching-min": (frozenset({"branching"}), {**FIXED, "_min": 1}),
    "branching-auto": (frozenset({"branching"}), {}),
    "branching-partial": (frozenset({"branching"}), {"search_branching": cp_model.PARTIAL_FIXED_SEARCH}),
    "portfolio": (frozenset(), {"search_branching": cp_model.PORTFOLIO_SEARCH}),
    "cuts": (frozenset({"cuts"}), {}),
    "paid": (frozenset({"paid"}), {}),
    "redundant": (frozenset({"redundant"}), {}),
    "cuts+redundant": (frozenset({"cuts", "redundant"}), {}),
    "cuts+paid+redundant": (frozenset({"cuts", "paid", "redundant"}), {}),
    "paid+redundant": (frozenset({"paid", "redundant"}), {}),
    "all": (frozenset(LEVERS), dict(branching.BRANCHING_PARAMETERS)),
}


def position_paths(items: list[str]) -> list[Path]:
    found: list[Path] = []
    for item in items or list(DEFAULT_SETS):
        path = Path(item)
        if not path.exists() and (POSITIONS / item).is_dir():
            path = POSITIONS / item
        found += sorted(path.glob("*.toml")) if path.is_dir() else [path]
    return found


def group_of(path: Path) -> str:
    head, _, tail = path.stem.rpartition("-")
    return head if head and tail.isdigit() else path.stem


def solve_whole(position: Position, variant: str, cap: float) -> dict[str, object]:
    """``--whole``: the full House search (``solve_house``, workers=2, time limit ``cap``) with the variant's levers."""
    levers, extra = VARIANTS[variant]
    if extra:
        raise SystemExit(f"{variant}: --whole runs the schedule's own parameters; choose a variant without any")
    for name, lever in LEVERS.items():
        lever.ENABLED = name in levers
    solution = solve_house(position, SolverConfig(time_limit=cap, workers=2))
    return {"status": str(solution.status), "seconds": solution.seconds, "gain": float(solution.gain),
            "bound": float(solution.bound), "first_bound": None, "branches": solution.stats.get("branches", 0),
            "dtime": 0.0}


def solve(position: Position, variant: str, cap: float) -> dict[str, object]:
    levers, extra = VARIANTS[variant]
    for name, lever in LEVERS.items():
        lever.ENABLED = name in levers
    built = time.perf_counter()
    ctx = build_context(position)
    m = _branch_model(ctx, replacement_options(ctx), ())
    if m is None:
        return {"status": "no-model"}
    if extra.get("_min"):  # the strategy tried at 0 first: is going out worth trying first?
        m.model.proto.search_strategy.clear()
        m.model.add_decision_strategy(branching.decision_literals(m), cp_model.CHOOSE_FIRST,
                                      cp_model.SELECT_MIN_VALUE)
    terms, constant = gain_terms(m)
    gain = cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [c for _, c in terms]) + constant
    tiebreak, most = tiebreak_terms(m)
    weight = most + 1
    m.model.maximize(weight * gain - tiebreak)
    build_seconds = time.perf_counter() - built
    scale, ceiling = ctx.scale, gain_ceiling(m)

    def gain_bound(objective: float) -> float:
        if math.isinf(objective):
            return float(ceiling)
        return float(min(Fraction((math.floor(objective + 1e-6) + weight - 1) // weight, scale), ceiling))

    def solver_for(seconds: float) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        parameters = solver.parameters
        parameters.max_time_in_seconds = seconds
        parameters.num_workers = 1
        parameters.catch_sigint_signal = False
        for name, value in {**HOUSE_TUNING.parameters, **extra}.items():
            if not name.startswith("_"):
                setattr(parameters, name, value)
        return solver

    # The root bound: the search stopped before its first conflict (the root's propagation and LP done).
    root = solver_for(cap)
    root.parameters.max_number_of_conflicts = 0
    root.solve(m.model)
    root_bound = gain_bound(root.best_objective_bound)
    solver = solver_for(cap)
    parameters = solver.parameters
    m.model.clear_hints()
    hint = table_hint(m)
    m.model.proto.solution_hint.vars.extend(hint.keys())
    m.model.proto.solution_hint.values.extend(hint.values())
    bounds: list[tuple[float, float]] = []
    started = time.perf_counter()
    solver.best_bound_callback = lambda bound: bounds.append((time.perf_counter() - started, bound))
    if os.environ.get("PROOF_LOG"):
        parameters.log_search_progress = True
    status = solver.solve(m.model)
    seconds = time.perf_counter() - started
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    achieved = None
    if found:
        achieved = float(Fraction(round(sum(solver.value(v) * c for v, c in terms) + constant), scale))
    return {
        "status": solver.status_name(status).lower(), "seconds": seconds, "build": build_seconds,
        "branches": solver.num_branches, "dtime": solver.deterministic_time,
        "first_bound": root_bound, "root_seconds": root.wall_time,
        "bounds": [(round(t, 3), gain_bound(b)) for t, b in bounds],
        "bound": gain_bound(solver.best_objective_bound), "gain": achieved,
        "strategy": len(m.model.proto.search_strategy) > 0, "constraints": len(m.model.proto.constraints),
    }


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def table(rows: list[dict], variants: list[str], cap: float, title: str) -> str:
    lines = [f"### {title} ({len(rows)} positions)", "",
             "| variant | proven | median s | p90 s | max s | median ratio to base | median branches | "
             "median / max det. time | median root gap | root gap 0 |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for v in variants:
        secs = [min(r[v]["seconds"], cap) for r in rows]
        proven = sum(str(r[v]["status"]) == "optimal" for r in rows)
        ratios = [r[v]["seconds"] / r["base"]["seconds"] for r in rows if "base" in r and r["base"]["seconds"] > 0]
        gaps = [r[v]["first_bound"] - r["optimum"] for r in rows
                if r.get("optimum") is not None and r[v].get("first_bound") is not None]
        lines.append(f"| {v} | {proven}/{len(rows)} | {statistics.median(secs):.3f} | {p90(secs):.3f} | "
                     f"{max(secs):.3f} | {statistics.median(ratios):.2f} | "
                     f"{statistics.median(r[v]['branches'] for r in rows):.0f} | "
                     f"{statistics.median(r[v]['dtime'] for r in rows):.2f} / {max(r[v]['dtime'] for r in rows):.2f} | "
                     f"{statistics.median(gaps) if gaps else math.nan:.1f} | {sum(g <= 0 for g in gaps)}/{len(gaps)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("items", nargs="*")
    parser.add_argument("--cap", type=float, default=10.0)
    parser.add_argument("--variants", default="base,branching,cuts,redundant,all")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--whole", action="store_true",
                        help="time the whole search (solve_house, 2 workers) instead of one CP-SAT run of the model")
    args = parser.parse_args(argv)
    variants = args.variants.split(",")
    if variants[0] != "base":
        variants.insert(0, "base")
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; known: {sorted(VARIANTS)}")
    load = os.getloadavg()
    rows: list[dict] = []
    skipped = 0
    wall = time.perf_counter()
    log: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    for i, path in enumerate(position_paths(args.items)):
        position = Position.from_file(path)
        if position.phase != Phase.PLAY:
            skipped += 1
            continue
        row: dict = {"path": path.name, "group": group_of(path), "set": path.parent.name,
                     "branch": "melded mover" if position.mover.melded else "unmelded mover"}
        for k in range(len(variants)):
            v = variants[(i + k) % len(variants)]
            row[v] = (solve_whole if args.whole else solve)(position, v, args.cap)
        if any(row[v]["status"] == "no-model" for v in variants):
            skipped += 1
            continue
        proven = {row[v]["gain"] for v in variants if str(row[v]["status"]) == "optimal"}
        row["optimum"] = next(iter(proven)) if len(proven) == 1 else None
        if len(proven) > 1:
            log(f"ALARM {path.name}: proven gains differ {[(v, row[v]['gain']) for v in variants]}")
        rows.append(row)
        log(f"{path.name}: " + ", ".join(f"{v} {str(row[v]['status'])[:3]} {row[v]['seconds']:.2f}s "
                                         f"fb {row[v]['first_bound']}" for v in variants) + f" opt {row['optimum']}")
    how = "the whole search (solve_house), 2 workers" if args.whole else "one CP-SAT run, one worker"
    report = [f"cap {args.cap} s, {how}, load before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
              f"after {os.getloadavg()[0]:.2f}; {len(rows)} positions, {skipped} skipped (draw phase or no model); "
              f"wall {time.perf_counter() - wall:.0f} s", ""]
    groups = sorted({r["set"] for r in rows}) + ["unmelded-10-11", "real-4p-late", "melded mover", "unmelded mover"]
    for g in groups:
        members = [r for r in rows if g in (r["set"], r["group"], r["branch"])]
        if members:
            report.append(table(members, variants, args.cap, g))
    report.append(table(rows, variants, args.cap, "all"))
    print("\n".join(report))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "cap": args.cap, "load": load}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
