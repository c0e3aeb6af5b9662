"""House Rummy anytime: how soon the best turn is found, when it is proven, and what a time limit gets (issue 28 §4).

    python benchmarks/house_anytime.py [--base f05161e] [--current REV] [--cap 30] [--limits 0.25 0.5 1]
        [--sample N] [--group NAME ...] [--draw | --draw-only] [--output STEM] [SET_OR_FILE ...]
    python benchmarks/house_anytime.py --from-json RUN.json --output STEM   (the report again)

Two versions in one run: "previous" (``--base``, default f05161e, the version
before issue 28) and "current" (the working tree, or ``--current REV``), each
a git worktree under /tmp where it is a revision (house_versions.BaseTree).
Per position, the two take turns (previous first on even positions, current
first on odd ones) at every step:

1. **Found and proven** (the library, ``rummy.answer.best`` with
   SolverConfig(time_limit=cap, workers) in a process per version,
   ``--serve``): the better turns as they are found, the answer's status and
   time. A version whose SolverConfig has ``on_better`` is heard through it
   (``Improvement.seconds``, from the search's start); an older one (f05161e)
   is instrumented: every CP-SAT run gets a solution callback (a CpSolver
   subclass put in ortools' module) recording (time, objective) and the
   objective becomes the gain as house._solve_model defines it (objective =
   weight * scaled gain - tie-break with 0 <= tie-break < weight, so scaled
   gain = ceil(objective / weight) and gain = that / ctx.scale; weight = the
   tie-break's ``most`` + 1, read where house.tiebreak_terms returns it); the
   greedy start is a CP-SAT run too, and House's no-meld turns are recorded
   when _no_meld_branch returns. Times there count from the call of ``best``.
   Draw-phase positions of an older version: nothing is recorded while the
   advice runs (its searches value different draws), so its turn counts as
   found when the answer is given (its whole time).
   *Time to best found*: the first event whose gain reaches the optimum
   (else the answer's time, where the answer reaches it). *Time to proof*:
   the answer's time where its status is ``optimal``; else capped.
2. **Share of the optimum at a time limit**: real command lines, ``python -m
   rummy best FILE --time-limit X --json`` run inside each version's tree
   (PYTHONPATH that tree), so the limit counts from the process start. Share
   = gain / optimum (an optimum <= 0: 100 % when the gain reaches it, else 0;
   no answer: 0).
3. **The optimum**: the proven gain of step 1 (both versions must agree: an
   ALARM otherwise); where neither proves it within the cap, the best gain
   seen in any run, flagged "unproven".
4. **From the process start**: the time of step 1 plus the version's
   start-up floor, measured once per version: the median over
   ``--floor-runs`` command lines answering a small House position
   (puzzles/examples/house-classic.toml) of the process's age
   (rummy.deadline.process_age, 10 ms ticks) when its search starts
   (START_TIMER: ``rummy best`` with rummy.answer.solver_for wrapped):
   interpreter start, imports, reading the position, importing the model.
   What follows the search (planning, printing, exit) is kept apart
   (``after_search``), not added.

Every answer (library and command line) is judged by the working tree's
checker (rummy.answer.answer_from_data + verify_answer); a rejected answer
is an ALARM. A non-optimal answer must say ``feasible`` with a bound >= its
gain.

``--draw`` (or ``--draw-only``) also runs draw advice on
benchmarks/positions/house-draw: ``best --json --time-limit 10`` against an
almost unlimited ``--draw-reference 120`` (the current version; ``--draw-versions``
for both): is every option valued (stats ``draws_not_valued_in_time`` 0 and
the same options as the reference lists), is the chosen draw the reference's.

Writes STEM.md and STEM.json (default benchmarks/results/house-anytime).
p90 is the nearest-rank 90th percentile.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from house_anytime_report import VERSIONS, evaluate, write_results  # noqa: E402
from house_versions import ROOT, BaseTree, Solver, group_of, import_rummy_from, position_paths, version_env  # noqa: E402

DEFAULT_BASE = "f05161e"
DEFAULT_SETS = ("house", "house-real", "house-selfplay")
DRAW_SET = "house-draw"
FLOOR_POSITION = ROOT / "puzzles" / "examples" / "house-classic.toml"
# Answers print gains rounded to 4 decimals (best --json); distinct gains differ by far more (a 1/13 point at least).
EPSILON = 1e-3


# ------------------------------------------------------------------ the library process (one per version)
class CpSatRecorder:
    """Better gains of a version without ``on_better``, heard from inside CP-SAT and House's no-meld branch."""

    def __init__(self) -> None:
        import importlib

        # Any: the previous version's modules, whose functions are wrapped in place (looked up there at each call).
        house: Any = importlib.import_module("rummy.model.house")
        cp_model: Any = importlib.import_module("ortools.sat.python.cp_model")

        self.events: list[list[Any]] | None = None  # None: not recording (the draw phase)
        self.started = 0.0
        local = threading.local()
        recorder = self
        tiebreak_terms, no_meld_branch = house.tiebreak_terms, house._no_meld_branch

        def scaled_tiebreak(m: Any) -> Any:
            expression, most = tiebreak_terms(m)
            local.scaling = (most + 1, m.ctx.scale)  # the weight of the gain in the objective, the gain's scale
            return expression, most

        def heard_no_meld(*args: Any, **kwargs: Any) -> Any:
            result = no_meld_branch(*args, **kwargs)
            if result.plan is not None:
                recorder.tell(float(result.plan.gain), "no-meld")
            return result

        class Heard(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
            def __init__(self, weight: int, scale: int) -> None:
                super().__init__()
                self.weight, self.scale = weight, scale

            def on_solution_callback(self) -> None:
                objective = round(self.objective_value)
                recorder.tell(-(-objective // self.weight) / self.scale, "cp-sat")

        class RecordingSolver(cp_model.CpSolver):  # type: ignore[misc]
            def solve(self, model: Any, solution_callback: Any = None) -> Any:
                scaling = getattr(local, "scaling", None)
                if solution_callback is None and scaling is not None and recorder.events is not None:
                    solution_callback = Heard(*scaling)
                return super().solve(model, solution_callback)

        house.tiebreak_terms = scaled_tiebreak
        house._no_meld_branch = heard_no_meld
        cp_model.CpSolver = RecordingSolver  # rummy.model.run makes each run's solver from there
        self.local = local

    def start(self, events: list[list[Any]] | None) -> None:
        self.local.scaling = None
        self.events = events
        self.started = time.perf_counter()

    def tell(self, gain: float, source: str) -> None:
        if self.events is not None:
            self.events.append([round(time.perf_counter() - self.started, 6), gain, source])


def listener(events: list[list[Any]]) -> Any:
    """An ``on_better`` that notes each Improvement as (seconds since the search start, gain, source)."""
    def heard(improvement: Any) -> None:
        events.append([improvement.seconds, float(improvement.gain), improvement.source])

    return heard


def serve(root: Path, time_limit: float, workers: int) -> None:
    """Read a position path a line, answer a JSON line (the answer, its events); rummy is the one under ``root``."""
    import dataclasses

    where = import_rummy_from(root)
    from rummy.answer import answer_data, best
    from rummy.position import Position
    from rummy.solution import SolverConfig

    listens = "on_better" in {f.name for f in dataclasses.fields(SolverConfig)}
    recorder = None if listens else CpSatRecorder()
    print(json.dumps({"rummy": str(where), "heard": "on_better" if listens else "cp-sat callbacks"}), flush=True)
    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        events: list[list[Any]] = []
        try:
            position = Position.from_file(path)
            draw_phase = str(getattr(position.phase, "value", position.phase)) == "draw"
            if listens:
                config = SolverConfig(time_limit=time_limit, workers=workers, on_better=listener(events))
            else:
                config = SolverConfig(time_limit=time_limit, workers=workers)
                assert recorder is not None
                recorder.start(None if draw_phase else events)
            answer = best(position, config)
            if recorder is not None:
                recorder.start(None)
            reply = {"answer": json.loads(json.dumps(answer_data(answer), default=str)), "events": events,
                     "draw_phase": draw_phase}
        except Exception as error:  # noqa: BLE001 - reported as the position's row, the run goes on
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


# ------------------------------------------------------------------ command lines
def cli_best(root: Path, path: Path, time_limit: float, timed_start: bool = False) -> dict[str, Any]:
    """``python -m rummy best PATH --time-limit X --json`` of the version at ``root``: its answer and wall time.

    ``timed_start``: the same command through START_TIMER, which also says how long the process had run when
    the search began (``search_start``).
    """
    run_rummy = ["-c", START_TIMER] if timed_start else ["-m", "rummy"]
    command = [sys.executable, *run_rummy, "best", str(path), "--time-limit", f"{time_limit:g}", "--json"]
    started = time.perf_counter()
    try:  # a generous bound: the limit counts from the process start, so only a hang can pass it
        done = subprocess.run(command, capture_output=True, text=True, env=version_env(root), cwd=root,
                              timeout=2 * time_limit + 60)
    except subprocess.TimeoutExpired:
        return {"error": f"no answer within {2 * time_limit + 60:g} s", "wall": time.perf_counter() - started}
    wall = time.perf_counter() - started
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}", "wall": wall}
    reply = {"answer": answer, "wall": wall, "exit": done.returncode}
    if timed_start:
        said = [line.split()[1] for line in done.stderr.splitlines() if line.startswith("search-start ")]
        reply["search_start"] = float(said[0]) if said else math.nan
    return reply


# ``rummy best`` as ``python -m rummy`` runs it, telling on stderr the process's age when the first search
# starts (rummy.answer.best calls the solver that solver_for gives, after importing the family's model).
START_TIMER = """
import sys
import rummy.answer as answer
from rummy.deadline import process_age
chosen = answer.solver_for
def solver_for(position, config):
    solve = chosen(position, config)
    def timed(position, config):
        sys.stderr.write(f"search-start {process_age():.4f}\\n")
        sys.stderr.flush()
        return solve(position, config)
    return timed
answer.solver_for = solver_for
sys.argv[0] = "rummy"
from rummy.cli.app import main
raise SystemExit(main())
"""


def start_up_floor(root: Path, runs: int) -> dict[str, Any]:
    """How long ``rummy best`` of the version has run when its search starts (median), and what follows the search."""
    replies = [cli_best(root, FLOOR_POSITION, 10.0, timed_start=True) for _ in range(runs)]
    found = [r for r in replies if "answer" in r and not math.isnan(r["search_start"])]
    if not found:
        raise SystemExit(f"{root}: rummy best told no search start: {replies[0].get('error')}")
    starts = sorted(r["search_start"] for r in found)
    after = sorted(r["wall"] - r["search_start"] - float(r["answer"]["seconds"]) for r in found)
    return {"seconds": starts[len(starts) // 2], "runs": [round(s, 4) for s in starts],
            "after_search": round(after[len(after) // 2], 4),
            "walls": [round(r["wall"], 4) for r in found]}


def which_rummy(root: Path) -> str:
    done = subprocess.run([sys.executable, "-c", "import rummy; print(rummy.__file__)"], capture_output=True,
                          text=True, env=version_env(root), cwd=root, check=True)
    where = Path(done.stdout.strip()).resolve()
    if root.resolve() not in where.parents:
        raise SystemExit(f"python -m rummy under {root} imports {where}")
    return str(where.parent)


# ------------------------------------------------------------------ judging
def judge(path: Path, answer: dict[str, Any] | None) -> list[str] | None:
    """The working tree's checker on an answer: [] legal, breach codes, or None (nothing to judge)."""
    from rummy.answer import answer_from_data, verify_answer
    from rummy.position import Position

    if answer is None or answer.get("after") is None:
        return None
    try:
        verdict = verify_answer(answer_from_data(Position.from_file(path), answer, str(path)))
    except Exception as error:  # noqa: BLE001 - an answer the checker cannot read is a finding too
        return [f"unreadable: {type(error).__name__}: {error}"]
    return None if verdict is None else [str(code) for code in verdict.codes]


def run_summary(path: Path, reply: dict[str, Any]) -> dict[str, Any]:
    """What the report keeps of one answer (library or command line), judged."""
    answer = reply.get("answer")
    if answer is None:
        return {"error": reply.get("error", "no answer"), "status": "error", "gain": None}
    kept = {k: answer.get(k) for k in ("status", "gain", "bound", "seconds", "draw")}
    kept["breaches"] = judge(path, answer)
    stats = answer.get("stats") or {}
    for key in ("draws_not_valued_in_time", "solves"):
        if key in stats:
            kept[key] = stats[key]
    if "options" in answer:
        kept["options"] = [{k: o.get(k) for k in ("from", "take", "cards", "card", "player", "value")}
                           for o in answer["options"]]
    for key in ("wall", "exit"):
        if key in reply:
            kept[key] = round(reply[key], 4)
    if "events" in reply:
        kept["events"] = reply["events"]
        kept["draw_phase"] = reply.get("draw_phase", False)
    return kept


# ------------------------------------------------------------------ the run
def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def pick(positions: list[tuple[str, Path]], groups: list[str], sample: int | None) -> list[tuple[str, Path]]:
    """The positions of the groups named (all without), then ``sample`` per set spread evenly over it."""
    if groups:
        positions = [(s, p) for s, p in positions if group_of(p) in groups]
    if not sample:
        return positions
    chosen: list[tuple[str, Path]] = []
    for set_name in dict.fromkeys(s for s, _ in positions):
        members = [item for item in positions if item[0] == set_name]
        step = len(members) / min(sample, len(members))
        chosen += [members[int(i * step)] for i in range(min(sample, len(members)))]
    return chosen


def measure(args: argparse.Namespace, roots: dict[str, Path], log: Any = sys.stderr) -> dict[str, Any]:
    positions = pick(position_paths(args.sets or list(DEFAULT_SETS)), args.group, args.sample) \
        if not args.draw_only else []
    rows: list[dict[str, Any]] = []
    result: dict[str, Any] = {"uptime_before": uptime(), "rows": rows, "draw_rows": [], "floors": {}, "heard": {},
                              "roots": {v: which_rummy(r) for v, r in roots.items()}}
    started = time.perf_counter()
    if positions:
        for version in VERSIONS:
            result["floors"][version] = start_up_floor(roots[version], args.floor_runs)
            print(f"start-up floor {version}: {result['floors'][version]['seconds']:.3f} s", file=log, flush=True)
        solvers = {v: Solver(v, roots[v], args.cap, args.workers, script=Path(__file__)) for v in VERSIONS}
        try:
            for version, solver in solvers.items():
                result["heard"][version] = solver.hello.get("heard")
                solver.solve(positions[0][1])  # untimed: first-call costs out of the figures
            for index, (set_name, path) in enumerate(positions):
                order = VERSIONS if index % 2 == 0 else VERSIONS[::-1]
                row: dict[str, Any] = {"file": str(path.relative_to(ROOT)) if ROOT in path.parents else str(path),
                                       "set": set_name, "group": group_of(path),
                                       "library": {}, "limits": {v: {} for v in VERSIONS}}
                for version in order:
                    row["library"][version] = run_summary(path, solvers[version].solve(path))
                for limit in args.limits:
                    for version in order:
                        row["limits"][version][f"{limit:g}"] = run_summary(path, cli_best(roots[version], path, limit))
                rows.append(row)
                print(progress_line(row, args.limits), file=log, flush=True)
        finally:
            for solver in solvers.values():
                solver.close()
    if args.draw or args.draw_only:
        draw_paths = pick(position_paths([args.draw_set]), [], args.draw_sample)
        for index, (_, path) in enumerate(draw_paths):
            row = {"file": str(path.relative_to(ROOT)) if ROOT in path.parents else str(path), "group": group_of(path),
                   "runs": {}}
            for version in args.draw_versions:
                pair = [args.draw_limit, args.draw_reference]
                for limit in pair if index % 2 == 0 else pair[::-1]:
                    row["runs"][f"{version} {limit:g}"] = run_summary(path, cli_best(roots[version], path, limit))
            result["draw_rows"].append(row)
            print(f"draw {path.name}: " + ", ".join(f"{k} {r.get('status')} {r.get('gain')} {r.get('draw')}"
                                                     for k, r in row["runs"].items()), file=log, flush=True)
    result["uptime_after"] = uptime()
    result["wall"] = round(time.perf_counter() - started, 1)
    return result


def progress_line(row: dict[str, Any], limits: list[float]) -> str:
    parts = []
    for version in VERSIONS:
        run = row["library"][version]
        shares = " ".join(f"{limit:g}s:{row['limits'][version][f'{limit:g}'].get('gain')}" for limit in limits)
        parts.append(f"{version} {run.get('status')} {run.get('gain')} {run.get('seconds')}s "
                     f"({len(run.get('events', []))} events) {shares}")
    return f"{Path(row['file']).name}: " + "; ".join(parts)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("sets", nargs="*",
                        help=f"sets under benchmarks/positions, folders or files (default: {' '.join(DEFAULT_SETS)})")
    parser.add_argument("--base", default=DEFAULT_BASE, help=f"the previous version, a git revision ({DEFAULT_BASE})")
    parser.add_argument("--current", help="the current version, a git revision (default: the working tree)")
    parser.add_argument("--cap", type=float, default=30.0, help="time limit of the search to proof, s (30)")
    parser.add_argument("--limits", type=float, nargs="+", default=[0.25, 0.5, 1.0],
                        help="the command lines' --time-limit values (0.25 0.5 1)")
    parser.add_argument("--workers", type=int, default=2, help="of the library's search (2, the CLI's default)")
    parser.add_argument("--sample", type=int, help="only N positions per set, spread evenly over it")
    parser.add_argument("--group", action="append", default=[], help="only this group (repeatable): real-4p-late ...")
    parser.add_argument("--floor-runs", type=int, default=5, help="command lines measuring the start-up floor (5)")
    parser.add_argument("--draw", action="store_true", help="also draw advice on benchmarks/positions/house-draw")
    parser.add_argument("--draw-only", action="store_true", help="draw advice alone")
    parser.add_argument("--draw-set", default=DRAW_SET, help=argparse.SUPPRESS)
    parser.add_argument("--draw-limit", type=float, default=10.0, help="draw advice's --time-limit (10)")
    parser.add_argument("--draw-reference", type=float, default=120.0, help="the almost unlimited run's (120)")
    parser.add_argument("--draw-sample", type=int, help="only N draw positions, spread evenly")
    parser.add_argument("--draw-versions", nargs="+", choices=VERSIONS, default=["current"])
    parser.add_argument("--output", type=Path, default=HERE / "results" / "house-anytime",
                        help="write OUTPUT.md and OUTPUT.json (benchmarks/results/house-anytime)")
    parser.add_argument("--from-json", type=Path, metavar="FILE",
                        help="measure nothing: the report again from a run's JSON (written to --output)")
    parser.add_argument("--serve", type=Path, metavar="ROOT", help=argparse.SUPPRESS)
    parser.add_argument("--time-limit", type=float, default=30.0, help=argparse.SUPPRESS)  # the served cap
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    if args.serve is not None:
        serve(args.serve, args.time_limit, args.workers)
        return
    if args.from_json is not None:
        result = json.loads(args.from_json.read_text(encoding="utf-8"))
        evaluate(result, EPSILON)
        print(write_results(result, args.output))
        return
    with ExitStack() as stack:
        base = stack.enter_context(BaseTree(args.base))
        current = stack.enter_context(BaseTree(args.current)) if args.current else None
        roots = {"previous": base.path, "current": current.path if current else ROOT}
        result = measure(args, roots)
        result["previous"] = {"commit": base.commit, "subject": base.subject}
        result["current"] = {"commit": current.commit, "subject": current.subject} if current else \
            {"tree": str(ROOT), "head": subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h %s"],
                                                       capture_output=True, text=True).stdout.strip()}
    result["command"] = "python benchmarks/house_anytime.py " + " ".join(argv if argv is not None else sys.argv[1:])
    result["settings"] = {"cap": args.cap, "limits": args.limits, "workers": args.workers,
                          "draw_limit": args.draw_limit, "draw_reference": args.draw_reference}
    evaluate(result, EPSILON)
    text = write_results(result, args.output)
    print(text)


if __name__ == "__main__":
    main()
