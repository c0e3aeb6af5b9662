"""Writing puzzles: a position file, a solution file, and the collection's index.

``DIR/NAME.toml`` is the position (formats.md) with a comment saying the
task, nothing of the answer; ``DIR/NAME.solution.json`` is the ``best --json``
answer (so ``rummy check DIR/NAME.toml DIR/NAME.solution.json`` judges it)
plus ``puzzle``, ``kind``, ``tier``, ``unique``, ``margin`` and
``difficulty``. ``DIR/index.json`` lists every puzzle of the folder; writing
more puzzles into the folder adds to it (a puzzle of the same name is
replaced).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import RummyError
from .generator import Puzzle
from ..rules import preset
from .kinds import kind_for

INDEX = "index.json"


def write_puzzle(folder: Path, puzzle: Puzzle, command: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    task = kind_for(puzzle.kind, preset(puzzle.rules)).task
    header = (
        f"# {puzzle.name}: {task}.\n"
        f"# {puzzle.rules}, kind {puzzle.kind}, tier {puzzle.tier}; made by: {command}\n"
        f"# The answer is in {puzzle.name}.solution.json.\n"
    )
    (folder / f"{puzzle.name}.toml").write_text(header + puzzle.position.to_toml(), encoding="utf-8")
    solution = json.dumps(puzzle.solution_data(), indent=2, ensure_ascii=False) + "\n"
    (folder / f"{puzzle.name}.solution.json").write_text(solution, encoding="utf-8")


def index_entry(puzzle: Puzzle) -> dict:
    return {
        "name": puzzle.name,
        "position": f"{puzzle.name}.toml",
        "solution": f"{puzzle.name}.solution.json",
        "kind": puzzle.kind,
        "tier": puzzle.tier,
        "rules": puzzle.rules,
        "gain": puzzle.answer["gain"],
        "margin": puzzle.margin,
        "seed": puzzle.seed,
    }


def read_index(folder: Path) -> dict[str, dict]:
    """The folder's index entries by name (none if there is no index); RummyError if it cannot be read."""
    path = folder / INDEX
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {entry["name"]: entry for entry in data["puzzles"]}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise RummyError(f"{path}: not a puzzle index ({type(error).__name__}: {error}); move it away first") from None


def update_index(folder: Path, puzzles: list[Puzzle]) -> Path:
    """Add the puzzles to the folder's index (sorted by name) and return its path."""
    entries = read_index(folder)
    for puzzle in puzzles:
        entries[puzzle.name] = index_entry(puzzle)
    path = folder / INDEX
    data = {"puzzles": [entries[name] for name in sorted(entries)]}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
