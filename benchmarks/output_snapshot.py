"""Every output a refactoring must keep, written by one `rummy` into a folder, to compare two versions.

    python benchmarks/output_snapshot.py --rummy OLD/.venv/bin/rummy --out /tmp/old
    python benchmarks/output_snapshot.py --rummy .venv/bin/rummy --out /tmp/new
    diff -r /tmp/old /tmp/new

It runs, from the repository root of the version being compared (the current folder):
``rules`` and ``rules PRESET`` for every preset; ``show`` and ``show --json`` for every shipped
example, puzzle and benchmark position; ``best --json --workers 1`` on every such folder (one
process a folder; ``seconds`` and ``stats`` are dropped, the only fields that change from run to
run); ``check --json`` on every check case of tests/data/check_cases and the shared examples. Each
command's exit code is kept beside its output. A search stopped by its time limit
(status ``feasible``) may legitimately differ between runs: those lines are listed in
``feasible.txt`` so that a difference there is read as timing, not a change.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
POSITION_FOLDERS = sorted(
    [path for path in (REPO / "puzzles").iterdir() if path.is_dir() and not path.name.endswith(".old")]
    + [path for path in (REPO / "benchmarks" / "positions").iterdir() if path.is_dir()]
    + [SHARED / "examples" / "best"]
)
CHECK_FOLDERS = [REPO / "tests" / "data" / "check_cases", SHARED / "examples" / "check"]
VOLATILE = ("seconds", "stats")


def run(rummy: str, args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    done = subprocess.run([rummy, *args], capture_output=True, text=True, cwd=REPO, input=stdin, timeout=3600)
    return done.returncode, done.stdout, done.stderr


def record(out: Path, name: str, result: tuple[int, str, str]) -> None:
    code, stdout, stderr = result
    path = out / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}")


def steady(line: str) -> str:
    """A JSON answer line without its timing."""
    try:
        data = json.loads(line)
    except ValueError:
        return line
    if isinstance(data, dict):
        for key in VOLATILE:
            data.pop(key, None)
    return json.dumps(data, sort_keys=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rummy", required=True, help="the rummy executable to snapshot")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--jobs", type=int, default=2, help="commands run at once")
    parser.add_argument("--time-limit", default="120")
    options = parser.parse_args()
    out: Path = options.out
    out.mkdir(parents=True, exist_ok=True)
    rummy = options.rummy

    presets = [line.split()[0] for line in run(rummy, ["rules"])[1].splitlines()[1:] if line.strip()]
    jobs: list[tuple[str, list[str]]] = [("rules/list", ["rules"])]
    jobs += [(f"rules/{preset}", ["rules", preset]) for preset in presets if not preset.startswith("-")]
    positions = sorted(path for folder in POSITION_FOLDERS for path in folder.rglob("*.toml"))
    for path in positions:
        name = path.relative_to(REPO.parent).as_posix()
        jobs.append((f"show/{name}", ["show", str(path)]))
        jobs.append((f"show-json/{name}", ["show", "--json", str(path)]))
    for folder in CHECK_FOLDERS:
        for after in sorted(folder.rglob("*-after.toml")):
            before = after.with_name(after.name.replace("-after.toml", "-before.toml"))
            name = after.relative_to(REPO.parent).as_posix()
            jobs.append((f"check/{name}", ["check", "--json", str(before), str(after)]))

    def one(job: tuple[str, list[str]]) -> None:
        record(out, job[0], run(rummy, job[1]))

    with ThreadPoolExecutor(options.jobs) as pool:
        list(pool.map(one, jobs))
        print(f"{len(jobs)} show/check/rules outputs", file=sys.stderr)

        def best(folder: Path) -> None:
            code, stdout, stderr = run(rummy, ["best", "--json", "--workers", "1", "--time-limit", options.time_limit,
                                               str(folder)])
            lines = [steady(line) for line in stdout.splitlines()]
            name = folder.relative_to(REPO.parent).as_posix()
            record(out, f"best/{name}", (code, "".join(line + "\n" for line in lines), stderr))
            feasible = [json.loads(line).get("file", "?") for line in lines
                        if line.startswith("{") and json.loads(line).get("status") != "optimal"]
            with (out / "feasible.txt").open("a") as listing:
                listing.writelines(f"{file}\n" for file in feasible)

        list(pool.map(best, POSITION_FOLDERS))
    print(f"best on {len(POSITION_FOLDERS)} folders ({len(positions)} positions)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
