"""The shipped positions and puzzle collections, listed once and served read-only.

They come with the package (``rummy/puzzles``, the repository's ``puzzles/``
folder). The list is made when the server starts; a request names an entry
by its id (``house/house-classic-steal-hard-s1-0001``) and only ids on the
list are read, so no path a visitor writes ever reaches the disk.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXAMPLES = "examples"
# What each folder holds, in the order the page lists them.
COLLECTIONS = {
    EXAMPLES: "Examples: one position per game, and draw-phase positions",
    "tiles": "Tile rummy puzzles",
    "house": "House Rummy puzzles",
    "robber": "Robber Rummy puzzles",
    "layoff": "Straight and traditional Rummy puzzles",
}
SOLUTION_SUFFIX = ".solution.json"
MAX_LISTED = 5000  # positions listed per folder at most


@dataclass(frozen=True)
class Entry:
    id: str
    collection: str
    name: str
    path: Path
    solution: Path | None
    facts: dict[str, Any]

    def to_data(self) -> dict[str, Any]:
        return {"id": self.id, "collection": self.collection, "name": self.name, **self.facts,
                "has_solution": self.solution is not None}


def default_root() -> Path | None:
    """``rummy/puzzles`` as installed (a link to the repository's ``puzzles/`` in a checkout)."""
    from importlib.resources import files

    root = Path(str(files("rummy") / "puzzles"))
    return root if root.is_dir() else None


class Shipped:
    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.entries: dict[str, Entry] = {}
        if root is not None:
            for collection in COLLECTIONS:
                folder = root / collection
                if folder.is_dir():
                    for entry in _entries(folder, collection):
                        self.entries[entry.id] = entry

    def listing(self) -> dict[str, Any]:
        return {"collections": [
            {"name": name, "title": title,
             "positions": [e.to_data() for e in self.entries.values() if e.collection == name]}
            for name, title in COLLECTIONS.items()
            if any(e.collection == name for e in self.entries.values())]}

    def get(self, entry_id: str) -> Entry | None:
        return self.entries.get(entry_id)

    def text(self, entry: Entry) -> str:
        return entry.path.read_text(encoding="utf-8")

    def solution_text(self, entry: Entry) -> str | None:
        if entry.solution is None:
            return None
        return entry.solution.read_text(encoding="utf-8")


def _entries(folder: Path, collection: str) -> list[Entry]:
    index = folder / "index.json"
    if index.is_file():
        data = json.loads(index.read_text(encoding="utf-8"))
        found = []
        for item in data.get("puzzles", [])[:MAX_LISTED]:
            position = folder / str(item.get("position", ""))
            if position.parent != folder or not position.is_file():
                continue
            solution = folder / str(item.get("solution", ""))
            facts = {key: item[key] for key in ("rules", "kind", "tier", "gain") if key in item}
            name = str(item.get("name", position.stem))
            found.append(Entry(f"{collection}/{name}", collection, name, position,
                               solution if solution.parent == folder and solution.is_file() else None, facts))
        return found
    found = []
    for position in sorted(folder.glob("*.toml"))[:MAX_LISTED]:
        solution = position.with_name(position.stem + SOLUTION_SUFFIX)
        found.append(Entry(f"{collection}/{position.stem}", collection, position.stem, position,
                           solution if solution.is_file() else None, _example_facts(position)))
    return found


def _example_facts(path: Path) -> dict[str, Any]:
    """The rules and phase of an example, read from its first lines (cheap: no position is built)."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    rules = data.get("rules")
    return {"rules": rules if isinstance(rules, str) else (rules or {}).get("preset", "custom"),
            "phase": data.get("phase", "play")}
