"""The tile-rummy benchmark against rummikub-solver, in one command.

    python benchmarks/run.py [--repeats 3] [--workers 2] [--time-limit 60] [--regenerate] [--no-readme] [--tiles-only]

Then runs benchmarks/run_families.py (House Rummy, Robber Rummy, cold start).

1. Writes the positions (generate_tiles.py) if benchmarks/positions/tiles is empty.
2. Creates the peer's virtualenv (benchmarks/.peer-venv: python3 -m venv,
   pip install "rummikub-solver[highs]") if it is missing. The peer runs in
   its own process and venv: highspy and ortools crash in one process.
3. Starts both runners once (peer_runner.py in the peer's venv, run_tiles.py
   here) and feeds them the same positions in turn, peer then ours, each
   position ``--repeats`` times; a position's time is the median of its
   repeats. Taking turns spreads the noise of a shared machine over both.
4. Compares the optima, prints one markdown table per table size, and writes
   it into benchmarks/README.md between the benchmark markers (rerunning
   replaces it).

Goals (from the issue): our median at most 1/5 of the peer's at every size,
our maximum at most the peer's median, the same optimum on every position.
A position where the peer plays fewer tiles while our answer is legal (the
checker's verdict) is the peer's miss, not our error; where our answer holds
a play with a joker placement that the peer's candidate plays leave out, it
is listed as such.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
POSITIONS = HERE / "positions" / "tiles"
SPECIAL = HERE / "positions" / "tiles-special"  # built to show the peer's missing joker placements
PEER_VENV = HERE / ".peer-venv"
PEER_PYTHON = PEER_VENV / "bin" / "python"
README = HERE / "README.md"
START, END = "<!-- tiles-benchmark:start -->", "<!-- tiles-benchmark:end -->"
PEER_PACKAGE = "rummikub-solver[highs]"


def ensure_positions(regenerate: bool) -> list[Path]:
    if regenerate or not list(POSITIONS.glob("*.toml")):
        subprocess.run([sys.executable, str(HERE / "generate_tiles.py"), "--out", str(POSITIONS)], check=True)
    return sorted(POSITIONS.glob("*.toml"))


def ensure_peer() -> None:
    if PEER_PYTHON.exists():
        check = subprocess.run([str(PEER_PYTHON), "-c", "import rummikub_solver, highspy"], capture_output=True)
        if check.returncode == 0:
            return
    print(f"creating {PEER_VENV} with {PEER_PACKAGE} ...", file=sys.stderr)
    subprocess.run(["python3", "-m", "venv", str(PEER_VENV)], check=True)
    subprocess.run([str(PEER_PYTHON), "-m", "pip", "install", "--quiet", PEER_PACKAGE], check=True)


class Runner:
    """One solver process that reads a position path a line and answers a JSON line."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                        cwd=ROOT)

    def solve(self, path: Path) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        line = self._json_line()
        if not line:
            raise RuntimeError(f"{self.process.args[1]} stopped on {path}")
        return json.loads(line)

    def finish(self) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        summary = json.loads(self._json_line())
        self.process.wait()
        return summary

    def _json_line(self) -> str:
        """The next JSON line; HiGHS 1.16 prints its banner on stdout from C, so other lines are skipped."""
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line or line.startswith("{"):
                return line


def run(paths: list[Path], repeats: int, workers: int, time_limit: float) -> tuple[list[dict], dict]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    peer = Runner([str(PEER_PYTHON), str(HERE / "peer_runner.py"), "--serve"], env=env)
    ours = Runner([sys.executable, str(HERE / "run_tiles.py"), "--serve", "--workers", str(workers),
                   "--time-limit", str(time_limit)])
    rows = []
    for path in paths:
        peer_runs, our_runs = [], []
        for _ in range(repeats):
            peer_runs.append(peer.solve(path))
            our_runs.append(ours.solve(path))
        rows.append({
            "file": path.name,
            "size": int(path.name[1:4]) if path.parent == POSITIONS else None,
            "peer": peer_runs[0],
            "ours": our_runs[0],
            "peer_seconds": statistics.median(r["seconds"] for r in peer_runs),
            "our_seconds": statistics.median(r["seconds"] for r in our_runs),
            "peer_tiles": {r["tiles_played"] for r in peer_runs},
            "our_tiles": {r["tiles_played"] for r in our_runs},
        })
        print(f"{path.name}: peer {rows[-1]['peer_tiles']} in {rows[-1]['peer_seconds']:.4f}s, "
              f"ours {rows[-1]['our_tiles']} in {rows[-1]['our_seconds']:.4f}s", file=sys.stderr)
    memory = {"peer": peer.finish()["max_rss_kb"], "ours": ours.finish()["max_rss_kb"]}
    return rows, memory


# ------------------------------------------------------------------ judging
def peer_can_lay(play: str) -> bool:
    """Whether the peer's candidate plays (rummikub_solver RuleSet.sets) can make up this play.

    The peer lists runs of 3 to 5 tiles and books of 3 or 4; jokers may take
    any place in a play of 3, only inner places in a run of 4 or 5, and no
    place in a book of 4. A longer run is several of its runs end to end.
    """
    cards = play.split()  # a run is printed in order, its jokers where they stand
    jokers = [i for i, c in enumerate(cards) if c.startswith("*")]
    naturals = [c for c in cards if not c.startswith("*")]
    if len(cards) == 3:
        return True
    if len(naturals) > 1 and len({c[1:] for c in naturals}) == 1:
        return not jokers  # a book of 4
    return _splits(len(cards), set(jokers))


def _splits(length: int, jokers: set[int], start: int = 0) -> bool:
    """Can places start..length-1 of a run be cut into the peer's runs?"""
    if start == length:
        return True
    for size in (3, 4, 5):
        end = start + size
        if end > length:
            break
        if size > 3 and (start in jokers or end - 1 in jokers):
            continue
        if _splits(length, jokers, end):
            return True
    return False


def classify(row: dict) -> str:
    ours, peer = row["ours"]["tiles_played"], row["peer"]["tiles_played"]
    if len(row["our_tiles"]) > 1 or len(row["peer_tiles"]) > 1:
        return "unstable"
    if ours == peer:
        return "same"
    if ours > peer and row["ours"].get("legal") is not False:
        if not all(peer_can_lay(p) for p in row["ours"]["plays"]):
            return "peer-missed-joker"
        return "peer-missed-other"
    return "ours-wrong"


def table(rows: list[dict]) -> str:
    lines = [
        ("| table tiles | positions | our median s | our max s | peer median s | peer max s "
         "| median ratio (goal <= 0.20) | our max / peer median (goal <= 1) | same optimum "
         "| peer missed (joker placement) | our errors |"),
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size in sorted({r["size"] for r in rows if r["size"] is not None}):
        group = [r for r in rows if r["size"] == size]
        ours = [r["our_seconds"] for r in group]
        peer = [r["peer_seconds"] for r in group]
        kinds = [classify(r) for r in group]
        ratio = statistics.median(ours) / statistics.median(peer)
        max_ratio = max(ours) / statistics.median(peer)
        missed = [r["file"] for r, k in zip(group, kinds) if k.startswith("peer-missed")]
        missed_note = f"{len(missed)}" + (f" ({', '.join(missed)})" if missed else "")
        errors = [r["file"] for r, k in zip(group, kinds) if k in ("ours-wrong", "unstable")]
        lines.append(
            f"| {size} | {len(group)} | {statistics.median(ours):.4f} | {max(ours):.4f} | "
            f"{statistics.median(peer):.4f} | {max(peer):.4f} | {ratio:.2f} {'ok' if ratio <= 0.2 else 'MISSED'} | "
            f"{max_ratio:.2f} {'ok' if max_ratio <= 1 else 'MISSED'} | {kinds.count('same')}/{len(group)} | "
            f"{missed_note} | {len(errors)}" + (f" ({', '.join(errors)})" if errors else "") + " |"
        )
    return "\n".join(lines)


def machine() -> str:
    cpus = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpus} CPUs ({model}), Python {platform.python_version()}"


def versions() -> str:
    from importlib.metadata import version

    peer = subprocess.run(
        [str(PEER_PYTHON), "-c",
         "from importlib.metadata import version as v; print(v('rummikub-solver'), v('highspy'))"],
        capture_output=True, text=True,
    ).stdout.split()
    return (f"ortools {version('ortools')}; rummikub-solver {peer[0] if peer else '?'} "
            f"with highspy {peer[1] if len(peer) > 1 else '?'}")


def report(rows: list[dict], memory: dict, args: argparse.Namespace, load: tuple[str, str]) -> str:
    special = [r for r in rows if r["size"] is None]
    rows = [r for r in rows if r["size"] is not None]
    notes = []
    for row in rows:
        kind = classify(row)
        if kind != "same":
            notes.append(f"- `{row['file']}`: {kind}: ours {row['ours']['tiles_played']}, "
                         f"peer {row['peer']['tiles_played']}; our plays: {'; '.join(row['ours']['plays'])}")
    illegal = [r["file"] for r in rows if r["ours"].get("legal") is False]
    command = "python benchmarks/run.py" + (f" --repeats {args.repeats}" if args.repeats != 3 else "") + \
        (f" --workers {args.workers}" if args.workers != 2 else "")
    return "\n".join([
        START,
        f"Run on {dt.date.today().isoformat()} with `{command}` on {machine()}; {versions()}.",
        f"Our solver: `solve_tiles` with workers={args.workers}, time limit {args.time_limit:g} s (all proven optimal: "
        f"{sum(r['ours']['status'] == 'optimal' for r in rows)}/{len(rows)}). "
        f"Each time is the median of {args.repeats} runs of the position, the two solvers taking turns. "
        f"Load average before/after: {load[0]} / {load[1]}.",
        "",
        table(rows),
        "",
        f"Peak memory (ru_maxrss of the solving process): ours {memory['ours'] / 1024:.0f} MB, "
        f"peer {memory['peer'] / 1024:.0f} MB.",
        f"Answers judged illegal by the checker: {len(illegal)}"
        + (f" ({', '.join(illegal)})" if illegal else "") + ".",
        "",
        *(["Positions where the optima differ:", "", *notes, ""] if notes
          else ["The optima agree on every position.", ""]),
        *(["Positions built to show the peer's missing joker placements (`positions/tiles-special`, "
           "not in the table):", ""]
          + [f"- `{r['file']}`: ours {r['ours']['tiles_played']} ({'; '.join(r['ours']['plays'])}; checker: "
             f"{'legal' if r['ours'].get('legal') else r['ours'].get('legal')}), "
             f"peer {r['peer']['tiles_played']}: {classify(r)}"
             for r in special] + [""] if special else []),
        END,
    ])


def write_readme(block: str) -> None:
    replace_readme_block(START, END, block)


def replace_readme_block(start: str, end: str, block: str, heading: str = "") -> None:
    """Put ``block`` (which begins with ``start`` and ends with ``end``) into benchmarks/README.md in place of
    the block between those markers, or at the end under ``heading`` where there is none yet."""
    text = README.read_text(encoding="utf-8") if README.exists() else ""
    if start in text and end in text:
        before, rest = text.split(start, 1)
        text = before + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + (f"## {heading}\n\n" if heading else "") + block + "\n"
    README.write_text(text, encoding="utf-8")


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--regenerate", action="store_true", help="write the positions again")
    parser.add_argument("--no-readme", action="store_true", help="print the table only")
    parser.add_argument("--tiles-only", action="store_true", help="skip the House, Robber and cold-start benchmarks")
    args = parser.parse_args()
    paths = ensure_positions(args.regenerate) + sorted(SPECIAL.glob("*.toml"))
    ensure_peer()
    before = load_average()
    rows, memory = run(paths, args.repeats, args.workers, args.time_limit)
    block = report(rows, memory, args, (before, load_average()))
    print(block)
    if not args.no_readme:
        write_readme(block)
    if not args.tiles_only:
        # House Rummy, Robber Rummy, cold start and memory: benchmarks/run_families.py.
        extra = ["--repeats", str(args.repeats)] + (["--no-readme"] if args.no_readme else [])
        subprocess.run([sys.executable, str(HERE / "run_families.py"), *extra], check=True)


if __name__ == "__main__":
    main()
