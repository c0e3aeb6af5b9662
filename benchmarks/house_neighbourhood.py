"""House large-neighbourhood search (rummy.model.house.neighbourhood) against plain CP-SAT, same start, same time.

    python benchmarks/house_neighbourhood.py [--seconds 1.0] [--start greedy,quick,stalled:S] [--reference 20]
        [--json FILE] [--optima FILE] [SET_OR_FILE ...]

- Positions: the play-phase positions of benchmarks/positions/house,
  house-real and house-selfplay by default (draw-phase ones are skipped: their
  searches are play-phase searches after each draw), or the sets/files given.
  Each position's model is the one ``rummy.model.house`` solves (the melded
  mover's, or the meld branch's of an unmelded mover; the no-meld branch is
  listed, not searched), with the same objective (house/objective
  ``maximize_turn``).
- The optimum: a plain CP-SAT run with 2 workers for up to ``--reference``
  seconds (or the one an earlier run's ``--json`` file gives, ``--optima``);
  positions it does not prove are listed and left out of the shares.
- Starts: ``greedy`` = house/__init__ ``_greedy_start`` (the greedy turn
  completed by CP-SAT); ``quick`` = a 0.1 s one-worker run hinted with the
  table as it is (the schedule's first run, shortened); ``stalled:S`` = the
  greedy start, then S seconds of CP-SAT's one worker (where the exact search
  stands when it stalls). Its cost is reported apart; the arms' clocks start
  when the start is ready.
- Arms, on the same start with the same ``--seconds``, interleaved (the order
  alternates position by position, so the load falls on both):
  ``lns`` = ``improve``; ``cp-sat`` = one CP-SAT run with one worker and the
  house parameters, hinted with the start (what the schedule's one-worker
  run does), its solutions timed by a callback; ``lns+cp-sat`` = ``improve``
  for 0.1 s, then that CP-SAT run from its answer for the rest. Each arm
  stops once it holds the optimum.
- Reported per start and arm: time to the optimum (median, p90, max over the
  positions it reached; a position not reached counts as ``--seconds`` in
  the median/p90/max, marked), and the share of positions at the optimum
  within 0.1, 0.25, 0.5 s and at the end; the load average before and after.

p90 is the nearest-rank 90th percentile.
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
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from rummy.model.clock import Clock  # noqa: E402
from rummy.model.cpsat import cp_model  # noqa: E402
from rummy.model.house import HOUSE_TUNING, _branch_model, _greedy_start, neighbourhood  # noqa: E402
from rummy.model.house.context import build_context  # noqa: E402
from rummy.model.house.neighbourhood import improve  # noqa: E402
from rummy.model.house.objective import gain_terms, maximize_turn  # noqa: E402
from rummy.model.house.replacement import replacement_options  # noqa: E402
from rummy.model.house.state import HouseModel  # noqa: E402
from rummy.model.house.warm_start import table_hint  # noqa: E402
from rummy.model.run import RunResult, run  # noqa: E402
from rummy.position import Position  # noqa: E402
from rummy.solution import SolverConfig  # noqa: E402
from rummy.vocabulary import Phase, SearchStatus  # noqa: E402

DEFAULT_SETS = ("house", "house-real", "house-selfplay")
WITHIN = (0.1, 0.25, 0.5)
QUICK_SECONDS = 0.1
ARMS = ("lns", "cp-sat", "lns+cp-sat")
BURST_SECONDS = 0.1  # the mixed arm's neighbourhood search before CP-SAT takes over


@dataclass
class Case:
    file: str
    optimum: Fraction | None  # the model's proven best gain
    reference_seconds: float
    starts: dict[str, dict[str, Any]] = field(default_factory=dict)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def paths(items: list[str]) -> list[Path]:
    found: list[Path] = []
    for item in items or DEFAULT_SETS:
        path = Path(item)
        if not path.exists():
            path = HERE / "positions" / item
        found += sorted(path.glob("*.toml")) if path.is_dir() else [path]
    return found


def model_of(position: Position) -> HouseModel | None:
    ctx = build_context(position)
    m = _branch_model(ctx, replacement_options(ctx), ())
    if m is not None:
        maximize_turn(m)
    return m


def gain_reader(m: HouseModel) -> Callable[[Callable[[cp_model.IntVar], int]], Fraction]:
    terms, constant = gain_terms(m)
    return lambda value: Fraction(round(sum(value(v) * c for v, c in terms) + constant), m.ctx.scale)


def reference(m: HouseModel, seconds: float) -> tuple[Fraction | None, float]:
    result = run(m.model.clone(), seconds, HOUSE_TUNING, workers=2)
    if result.status != SearchStatus.OPTIMAL:
        return None, result.wall_time
    return gain_reader(m)(result.value), result.wall_time


def start_of(kind: str, m: HouseModel) -> tuple[RunResult | None, float]:
    began = time.perf_counter()
    found: RunResult | None
    if kind == "quick":
        found = run(m.model.clone(), QUICK_SECONDS, HOUSE_TUNING, hint=table_hint(m))
        return (found if found.found else None), time.perf_counter() - began
    found = _greedy_start(m, SolverConfig(time_limit=10, workers=1), Clock.from_now(10))
    if kind.startswith("stalled") and found is not None:
        # Where the exact search stands after a while: CP-SAT's one worker from the greedy start.
        later = run(m.model.clone(), float(kind.split(":")[1]), HOUSE_TUNING, hint=found.as_hint())
        found = later if later.found and later.objective > found.objective else found
    return found, time.perf_counter() - began


# Which kind of neighbourhood ("hand", "suit", "space", "suits", "rank", "random") found each better turn:
# kind -> [better turns, gain points won]. The search's last neighbourhood is read off its fixing.
PAID: dict[str, list[float]] = {}
_LAST: list[frozenset[int]] = [frozenset()]
_free_of = neighbourhood._Fixing.free_of


def _watched_free_of(self: Any, cards: frozenset[int], values: tuple[int, ...]) -> set[int]:
    _LAST[0] = cards
    return _free_of(self, cards, values)


neighbourhood._Fixing.free_of = _watched_free_of  # type: ignore[method-assign]


def kind_of(m: HouseModel, best: RunResult, cards: frozenset[int]) -> str:
    names = {hood.cards: hood.name for hood in neighbourhood.listed_neighbourhoods(m, best)}
    return names.get(cards, "random").split()[0]


def arm_lns(m: HouseModel, start: RunResult, seconds: float, optimum: Fraction | None) -> list[tuple[float, float]]:
    gain = gain_reader(m)
    clock = Clock.from_now(seconds + 1)
    began = time.perf_counter()
    found = [(0.0, float(gain(start.value)))]
    before = [start]

    def tell(result: RunResult, source: str) -> None:
        kind = kind_of(m, before[0], _LAST[0])
        paid = PAID.setdefault(kind, [0, 0.0])
        paid[0] += 1
        paid[1] += float(gain(result.value)) - found[-1][1]
        before[0] = result
        found.append((time.perf_counter() - began, float(gain(result.value))))
        if optimum is not None and gain(result.value) >= optimum:
            clock.deadline = 0.0  # improve reads the clock before each neighbourhood

    LAST_BEST[0] = improve(m, start, seconds, SolverConfig(time_limit=seconds, workers=1, seed=0), clock, tell)
    return found


LAST_BEST: list[RunResult | None] = [None]  # the last lns arm's answer, for the mixed arm


def arm_mixed(m: HouseModel, start: RunResult, seconds: float, optimum: Fraction | None) -> list[tuple[float, float]]:
    """``improve`` for BURST_SECONDS, then CP-SAT's one worker from its answer for the rest of the time."""
    began = time.perf_counter()
    found = arm_lns(m, start, min(BURST_SECONDS, seconds), optimum)
    best = LAST_BEST[0]
    spent = time.perf_counter() - began
    if best is None or (optimum is not None and found[-1][1] >= float(optimum)) or spent >= seconds:
        return found
    later = arm_cpsat(m, best, seconds - spent, optimum)
    return found + [(spent + t, g) for t, g in later[1:]]


def arm_cpsat(m: HouseModel, start: RunResult, seconds: float, optimum: Fraction | None) -> list[tuple[float, float]]:
    gain = gain_reader(m)
    model = m.model.clone()
    model.clear_hints()
    model.proto.solution_hint.vars.extend(range(len(start.solution or ())))
    model.proto.solution_hint.values.extend(start.solution or ())
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    for name, value in HOUSE_TUNING.parameters.items():
        setattr(solver.parameters, name, value)
    found = [(0.0, float(gain(start.value)))]
    began = time.perf_counter()

    class Timed(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            reached = gain(self.value)
            if reached > found[-1][1]:
                found.append((time.perf_counter() - began, float(reached)))
            if optimum is not None and reached >= optimum:
                self.stop_search()

    solver.solve(model, Timed())
    return found


def reached_at(found: list[tuple[float, float]], optimum: Fraction) -> float | None:
    return next((t for t, g in found if g >= float(optimum) - 1e-9), None)


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def summary(cases: list[Case], kind: str, seconds: float, title: str = "") -> list[str]:
    lines = [f"#### start: {kind}{title}", "",
             "| arm | positions | median s to optimum | p90 | max | " + " | ".join(f"within {w} s" for w in WITHIN)
             + f" | within {seconds} s | mean share of optimum at {seconds} s |",
             "|---|---:|---:|---:|---:|" + "---:|" * (len(WITHIN) + 2)]
    proven = [c for c in cases if c.optimum is not None and kind in c.starts and c.starts[kind].get("found")]
    for arm in [a for a in ARMS if any(a in c.starts[kind] for c in proven)]:
        times: list[float] = []
        shares: list[float] = []
        for case in proven:
            assert case.optimum is not None
            found = case.starts[kind][arm]
            assert isinstance(found, list)
            at = reached_at(found, case.optimum)
            times.append(at if at is not None else math.inf)
            if case.optimum > 0:
                shares.append(min(1.0, found[-1][1] / float(case.optimum)))
        if not times:
            continue
        finite = [min(t, seconds) for t in times]
        reached = [sum(t <= w for t in times) for w in (*WITHIN, seconds)]
        missed = "" if all(t < math.inf for t in times) else " (not all reached)"
        lines.append(f"| {arm} | {len(times)} | {statistics.median(finite):.3f}{missed} | {p90(finite):.3f} | "
                     f"{max(finite):.3f} | " + " | ".join(f"{r}/{len(times)}" for r in reached)
                     + f" | {statistics.mean(shares) if shares else 1:.3f} |")
    at_start = sum(1 for c in proven if c.optimum is not None and reached_at(c.starts[kind]["lns"], c.optimum) == 0.0)
    cost = [float(c.starts[kind]["seconds"]) for c in proven]
    if cost:
        lines += ["", f"{len(proven)} positions with a proven optimum and a {kind} start; {at_start} start at the "
                  f"optimum; the start itself took median {statistics.median(cost):.3f} s, max {max(cost):.3f} s.", ""]
    return lines


def by_set(cases: list[Case], kind: str, seconds: float) -> list[str]:
    sets = sorted({Path(c.file).parent.name for c in cases})
    lines: list[str] = []
    for name in sets if len(sets) > 1 else []:
        lines += summary([c for c in cases if Path(c.file).parent.name == name], kind, seconds, f", set {name}")
    return lines


def report(path: Path) -> None:
    """The tables of an earlier run's --json file."""
    data = json.loads(path.read_text())
    cases = [Case(c["file"], None if c["optimum"] is None else Fraction(c["optimum"]).limit_denominator(1000),
                  c["reference_seconds"], c["starts"]) for c in data["cases"]]
    kinds = sorted({kind for c in cases for kind in c.starts})
    lines = [f"load average before/after: {' / '.join(data['loads'])}", ""]
    for kind in kinds:
        lines += summary(cases, kind, data["seconds"]) + by_set(cases, kind, data["seconds"])
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--start", default="greedy,quick",
                        help="starts, comma-separated: greedy, quick, stalled:S (default greedy,quick)")
    parser.add_argument("--reference", type=float, default=20.0)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--report", type=Path, help="print the tables of an earlier run's --json file, and stop")
    parser.add_argument("--optima", type=Path,
                        help="a --json file of an earlier run: its proven optima are taken instead of solving again")
    args = parser.parse_args()
    if args.report:
        report(args.report)
        return
    known: dict[str, float] = {}
    if args.optima:
        earlier = json.loads(args.optima.read_text())
        known = {c["file"]: c["optimum"] for c in earlier["cases"] if c["optimum"] is not None}
    kinds = tuple(args.start.split(","))
    loads = [load_average()]
    began = time.perf_counter()
    cases: list[Case] = []
    skipped: list[str] = []
    for k, path in enumerate(paths(args.sets)):
        position = Position.from_file(str(path))
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        if position.phase != Phase.PLAY:
            skipped.append(f"{name} (draw phase)")
            continue
        m = model_of(position)
        if m is None:
            skipped.append(f"{name} (no meld reaches the cost: no model)")
            continue
        optimum: Fraction | None
        if name in known:
            optimum, ref_seconds = Fraction(known[name]).limit_denominator(1000), 0.0
        else:
            optimum, ref_seconds = reference(m, args.reference)
        case = Case(name, optimum, ref_seconds)
        for kind in kinds:
            start, cost = start_of(kind, m)
            entry: dict[str, Any] = {"found": start is not None, "seconds": cost}
            if start is not None:
                order = ARMS if k % 2 == 0 else ARMS[::-1]
                for arm in order:
                    go = {"lns": arm_lns, "cp-sat": arm_cpsat, "lns+cp-sat": arm_mixed}[arm]
                    entry[arm] = go(m, start, args.seconds, optimum)
            case.starts[kind] = entry
        cases.append(case)
        print(json.dumps({"file": name, "optimum": None if optimum is None else float(optimum),
                          "reference_s": round(ref_seconds, 3),
                          **{kind: {arm: (v[-1] if isinstance(v, list) else v) for arm, v in e.items()}
                             for kind, e in case.starts.items()}}), file=sys.stderr, flush=True)
    loads.append(load_average())
    lines = [f"`python benchmarks/house_neighbourhood.py --seconds {args.seconds} --start {args.start} "
             f"{' '.join(args.sets)}` on {os.cpu_count()} CPUs; load average before/after: {' / '.join(loads)}; "
             f"{time.perf_counter() - began:.0f} s in all.", ""]
    unproven = [c.file for c in cases if c.optimum is None]
    for kind in kinds:
        lines += summary(cases, kind, args.seconds)
        lines += by_set(cases, kind, args.seconds)
    lines += ["Better turns found by each kind of neighbourhood (lns arm, every start): "
              + ", ".join(f"{kind} {int(n)} (+{points:.0f} points)" for kind, (n, points) in sorted(PAID.items())), ""]
    lines += [f"Skipped: {len(skipped)} ({', '.join(skipped)})" if skipped else "Skipped: none",
              f"No proven optimum within {args.reference} s: {', '.join(unproven) or 'none'}"]
    print("\n".join(lines))
    if args.json:
        data = {"loads": loads, "seconds": args.seconds,
                "cases": [{"file": c.file, "optimum": None if c.optimum is None else float(c.optimum),
                           "reference_seconds": c.reference_seconds, "starts": c.starts} for c in cases]}
        args.json.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
