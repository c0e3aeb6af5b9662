"""Solve the benchmark positions with the peer, rummikub-solver (MILP on HiGHS).

Runs inside the peer's own virtualenv (benchmarks/.peer-venv): it must not
import this project or ortools (highspy and ortools crash in one process).
It reads the position TOML itself and prints one JSON line per position:
{"file", "tiles_played", "seconds", "placed", "sets", "backend"}, then a
summary line {"summary": true, "max_rss_kb": ...}. ``seconds`` is the
peer's ``RuleSet.solve`` alone (the state is built before the clock starts;
one untimed solve first compiles the peer's problems).

    benchmarks/.peer-venv/bin/python benchmarks/peer_runner.py FILE_OR_DIR...
    benchmarks/.peer-venv/bin/python benchmarks/peer_runner.py --serve   # paths on stdin, one a line
"""

from __future__ import annotations

import json
import resource
import sys
import time
import tomllib
from pathlib import Path

from rummikub_solver import Colour, GameState, MILPSolver, RuleSet

from position_paths import position_paths

# The peer numbers its tiles colour by colour in Colour's order (black, blue,
# orange, red), 1..13 each; the joker is the last tile.
PEER_COLOUR_ORDER = {"K": Colour.BLACK, "B": Colour.BLUE, "O": Colour.ORANGE, "R": Colour.RED}
OUR_COLOUR = {colour: letter for letter, colour in PEER_COLOUR_ORDER.items()}


def make_ruleset() -> RuleSet:
    backend = MILPSolver.HIGHS if MILPSolver.HIGHS in MILPSolver.supported() else None
    return RuleSet(numbers=13, repeats=2, colours=4, jokers=2, min_len=3, min_initial_value=30, solver_backend=backend)


def tile_index(ruleset: RuleSet, text: str) -> int:
    token = text.strip().upper()
    if token in ("*", "JK", "JO"):
        return int(ruleset.tiles[-1])
    colour = PEER_COLOUR_ORDER[token[0]]
    number = int(token[1:])
    colour_index = list(Colour).index(colour)
    return colour_index * ruleset.numbers + number


def tile_text(ruleset: RuleSet, tile: int) -> str:
    obj = ruleset.tiles[int(tile) - 1]
    if not hasattr(obj, "colour"):
        return "*"
    return f"{OUR_COLOUR[obj.colour]}{obj.value}"


def read_position(path: Path) -> tuple[list[str], list[str], bool]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    mover = data["players"][data["to_move"]]
    table = [tile for play in data.get("table", []) for tile in play.split()]
    rack = mover["hand"].split()
    return table, rack, bool(mover.get("melded", False))


def solve(ruleset: RuleSet, path: Path) -> dict:
    table, rack, melded = read_position(path)
    state = ruleset.new_game()
    state.add_table(*(tile_index(ruleset, t) for t in table))
    state.add_rack(*(tile_index(ruleset, t) for t in rack))
    state.initial = not melded
    started = time.perf_counter()
    proposal = ruleset.solve(state)
    seconds = time.perf_counter() - started
    if proposal is None:
        return {"file": str(path), "tiles_played": 0, "seconds": seconds, "sets": [], "placed": []}
    return {
        "file": str(path),
        "tiles_played": len(proposal.tiles),
        "seconds": seconds,
        "placed": [tile_text(ruleset, t) for t in proposal.tiles],
        "sets": [" ".join(tile_text(ruleset, t) for t in s) for s in proposal.sets],
        "free_jokers": proposal.free_jokers,
    }


def warm_up(ruleset: RuleSet) -> None:
    """One untimed solve, so the peer's one-time problem compilation is not charged to a position."""
    state: GameState = ruleset.new_game()
    state.add_table(*(tile_index(ruleset, t) for t in ["R1", "R2", "R3"]))
    state.add_rack(tile_index(ruleset, "R4"))
    state.initial = False
    ruleset.solve(state)


def main() -> None:
    ruleset = make_ruleset()
    warm_up(ruleset)
    for path in position_paths(sys.argv[1:], serve=sys.argv[1:] == ["--serve"]):
        result = solve(ruleset, path)
        result["backend"] = str(ruleset.backend)
        print(json.dumps(result), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"summary": True, "max_rss_kb": peak}), flush=True)


if __name__ == "__main__":
    main()
