"""Self-play benchmark (issue 27 §3): whole games played by rummy in every seat, every one replayed.

    python benchmarks/run_selfplay.py [--time-limit 2] [--quick] [--no-readme]

Plays the games of issue 27's "done when" with ``rummy.games.selfplay.selfplay``
(each seat answering its own view with ``best``, every turn carried out and
judged by the checker as it is made): 3 House Classic hands for 3 players and
3 for 4, 2 House Epic hands (3 players), 3 Rummikub games (2, 3 and 4
players) to the end, a Robber deal (3 players) and a Straight deal (2
players). Each game is written to benchmarks/results/selfplay/NAME.toml, read
back from that file and replayed (``rummy.games.replay``: every turn judged
again), and the replay must give the very positions self-play made.

Reports the time per turn by family (median, p90, max; a turn is one seat's
draw and play: choosing it on the seat's view and carrying it out), the turns
whose answer stopped at the time limit, the hands and turns; writes
benchmarks/results/selfplay.json and the table into benchmarks/README.md
between the selfplay markers (unless ``--no-readme``). ``--quick`` plays one
short game per family (a smoke run: nothing kept, nothing written). A game that fails (a turn the checker
refuses, a replay that differs, a hand stopped in a cycle) is reported and makes the exit code 1.

p90 is the nearest-rank 90th percentile: the ceil(0.9 n)-th smallest.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from rummy.games.record import GameRecord  # noqa: E402
from rummy.games.replay import replay  # noqa: E402
from rummy.games.selfplay import PLAYER_NAMES, SelfPlayBug, selfplay  # noqa: E402
from rummy.rules import preset  # noqa: E402
from run import load_average, machine, replace_readme_block  # noqa: E402

RESULTS = HERE / "results"
GAMES_DIR = RESULTS / "selfplay"
START, END = "<!-- selfplay:start -->", "<!-- selfplay:end -->"


@dataclass(frozen=True)
class Game:
    name: str
    rules: str
    players: int
    seed: int
    hands: int = 1


GAMES = (
    Game("house-classic-3p", "house-classic", 3, 1, 3),
    Game("house-classic-4p", "house-classic", 4, 2, 3),
    Game("house-epic-3p", "house-epic", 3, 3, 2),
    Game("rummikub-2p", "rummikub", 2, 4),
    Game("rummikub-3p", "rummikub", 3, 5),
    Game("rummikub-4p", "rummikub", 4, 6),
    Game("robber-3p", "robber", 3, 7),
    Game("straight-2p", "straight", 2, 8),
)
QUICK = (
    Game("house-classic-2p", "house-classic", 2, 1),
    Game("rummikub-2p", "rummikub", 2, 4),
    Game("robber-3p", "robber", 3, 7),
    Game("straight-2p", "straight", 2, 8),
)


def play(game: Game, time_limit: float, folder: Path, log=sys.stderr) -> dict:
    """One game played, written into ``folder``, read back and replayed; its figures."""
    rules = preset(game.rules)
    started = time.perf_counter()
    out = folder / f"{game.name}.toml"
    row: dict = {"name": game.name, "rules": game.rules, "family": str(rules.family), "players": game.players,
                 "seed": game.seed, "hands": game.hands}
    try:
        played = selfplay(rules, PLAYER_NAMES[:game.players], game.seed, game.hands, time_limit)
    except SelfPlayBug as bug:
        row["error"] = f"a turn refused: {bug}"
        return row
    played.game.save(out)
    row["wall"] = time.perf_counter() - started
    row["file"] = str(out.relative_to(ROOT)) if ROOT in out.parents else out.name
    row["turns"] = [t.seconds for t in played.timings]
    row["at_limit"] = sum(t.at_limit for t in played.timings)
    row["records"] = sum(len(hand.turns) for hand in played.game.hands)
    row["results"] = [dict(hand.result) if hand.result is not None else None for hand in played.game.hands]
    replayed = replay(GameRecord.from_file(out), str(out))
    row["replayed"] = [hand.positions for hand in replayed] == list(played.positions)
    row["endings"] = [ending.summary() for ending in played.endings]
    if not row["replayed"]:
        row["error"] = "the replay from the game file gives other positions"
    elif played.stopped is not None or len(played.endings) < game.hands:
        row["error"] = played.stopped or f"the game is over after {len(played.endings)} hands: {played.game_over}"
    print(f"{game.name}: {len(row['turns'])} turns in {row['wall']:.1f} s, replayed "
          f"{'to the same positions' if row['replayed'] else 'DIFFERENTLY'}", file=log, flush=True)
    return row


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def report(rows: list[dict], command: str, time_limit: float, load: tuple[str, str], wall: float) -> str:
    lines = [
        f"Run {dt.date.today().isoformat()} with `{command}` on {machine()}; load average before/after: "
        f"{load[0]} / {load[1]}; {wall:.0f} s in all. Every answer had `--time-limit {time_limit:g}` "
        "(SolverConfig(workers=1)); a turn is one seat's draw and play, chosen on the seat's view and carried "
        "out (and judged) on the full position.",
        "",
        "| game | family | players | hands | turns | at the limit | seconds | replayed |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        if "turns" not in row:
            lines.append(f"| {row['name']} | {row['family']} | {row['players']} | {row['hands']} | - | - | - | "
                         f"FAILED: {row['error']} |")
            continue
        lines.append(f"| {row['name']} | {row['family']} | {row['players']} | {row['hands']} | {len(row['turns'])} "
                     f"| {row['at_limit']} | {row['wall']:.1f} | "
                     f"{'same positions' if row['replayed'] else 'DIFFERENT'} |")
    lines += ["", "Time per turn by family (seconds):", "",
              "| family | turns | median | p90 | max |", "|---|---:|---:|---:|---:|"]
    for family in dict.fromkeys(row["family"] for row in rows):
        turns = [s for row in rows if row["family"] == family for s in row.get("turns", [])]
        if turns:
            lines.append(f"| {family} | {len(turns)} | {statistics.median(turns):.3f} | {p90(turns):.3f} | "
                         f"{max(turns):.3f} |")
    failed = [row for row in rows if "error" in row]
    lines += ["", f"Failed: {', '.join(row['name'] for row in failed)}." if failed
              else "Every turn accepted by the checker as it was made, every game replayed from its file to the "
                   "same positions."]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=2.0, help="seconds per answer (default 2)")
    parser.add_argument("--quick", action="store_true", help="one short game per family")
    parser.add_argument("--no-readme", action="store_true", help="print the tables only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:  # a quick run's games are not kept
        folder = Path(scratch) if args.quick else GAMES_DIR
        folder.mkdir(parents=True, exist_ok=True)
        load_before, started = load_average(), time.perf_counter()
        rows = [play(game, args.time_limit, folder) for game in (QUICK if args.quick else GAMES)]
    wall = time.perf_counter() - started
    command = "python benchmarks/run_selfplay.py" + (f" --time-limit {args.time_limit:g}" if args.time_limit != 2
                                                     else "") + (" --quick" if args.quick else "")
    text = report(rows, command, args.time_limit, (load_before, load_average()), wall)
    print(text)
    data = {"date": dt.date.today().isoformat(), "machine": machine(), "command": command,
            "time_limit": args.time_limit, "wall": wall, "games": rows}
    if not args.quick:
        (RESULTS / "selfplay.json").write_text(json.dumps(data, indent=1))
    if not args.no_readme and not args.quick:
        replace_readme_block(START, END, f"{START}\n{text}\n{END}", "Self-play (issue 27)")
    return 1 if any("error" in row for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
