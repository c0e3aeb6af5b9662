"""The shipped positions and puzzle collections, listed once and served read-only.

They come with the package (``rummy/puzzles``, the repository's ``puzzles/``
folder). The list is made when the server starts; a request names an entry
by its id (``house/house-classic-steal-hard-s1-0001``) and only ids on the
list are read, so no path a visitor writes ever reaches the disk. Only
regular files that lie in their collection's folder are listed and read: a
symbolic link there (``examples/zz-link.toml -> /etc/hostname``) is
neither listed nor followed, nor is a collection folder that is a link.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummy.inputs import MAX_FILE_BYTES

EXAMPLES = "examples"
# What each folder holds, in the order the page lists them.
COLLECTIONS = {
    EXAMPLES: "Examples: one position per game, and draw-phase positions",
    "tiles": "Tile rummy puzzles",
    "house": "House Rummy puzzles",
    "robber": "Robber Rummy puzzles",
    "layoff": "Straight and traditional Rummy puzzles",
    "mined": "Puzzles mined from self-played games (House Rummy, tile rummy)",
}
SOLUTION_SUFFIX = ".solution.json"
MAX_LISTED = 5000  # positions listed per folder at most
MAX_INDEX_BYTES = 16 << 20  # a collection's index.json (5000 puzzles are about 1 MB)


class NotShipped(LookupError):
    """A listed file that is no longer a regular file in its collection (replaced since the listing)."""


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
        # The root itself may be a link (rummy/puzzles is one to the repository's puzzles/, in a checkout).
        self.root = root.resolve() if root is not None else None
        self.entries: dict[str, Entry] = {}
        if self.root is not None:
            for collection in COLLECTIONS:
                folder = self.root / collection
                if _is_real(folder, stat.S_ISDIR):
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
        return _read_regular(entry.path)

    def solution_text(self, entry: Entry) -> str | None:
        if entry.solution is None:
            return None
        return _read_regular(entry.solution)


def _entries(folder: Path, collection: str) -> list[Entry]:
    index = folder / "index.json"
    if _is_file_in(index, folder):
        data = json.loads(_read_regular(index, MAX_INDEX_BYTES))
        found = []
        for item in data.get("puzzles", [])[:MAX_LISTED]:
            position = folder / str(item.get("position", ""))
            if not _is_file_in(position, folder):
                continue
            solution = folder / str(item.get("solution", ""))
            facts = {key: item[key] for key in ("rules", "kind", "tier", "gain") if key in item}
            name = str(item.get("name", position.stem))
            found.append(Entry(f"{collection}/{name}", collection, name, position,
                               solution if _is_file_in(solution, folder) else None, facts))
        return found
    found = []
    for position in sorted(path for path in folder.glob("*.toml") if _is_file_in(path, folder))[:MAX_LISTED]:
        solution = position.with_name(position.stem + SOLUTION_SUFFIX)
        found.append(Entry(f"{collection}/{position.stem}", collection, position.stem, position,
                           solution if _is_file_in(solution, folder) else None, _example_facts(position)))
    return found


def _is_file_in(path: Path, folder: Path) -> bool:
    """Is ``path`` a regular file (not a link) directly in ``folder``?"""
    return path.parent == folder and _is_real(path, stat.S_ISREG)


def _is_real(path: Path, kind: Callable[[int], bool]) -> bool:
    """Is ``path`` there, of this kind (``stat.S_ISREG``, ``stat.S_ISDIR``), and not a symbolic link?"""
    try:
        return kind(path.lstat().st_mode)
    except OSError:
        return False


def _read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file, read without following a link in its place (listed files may change later)."""
    from rummy.errors import RummyError
    from rummy.files import Folder

    try:
        with Folder(path.parent) as folder:
            data = folder.read(path.name, limit)
        if data is not None:
            return data.decode("utf-8")
    except (RummyError, UnicodeDecodeError):
        pass
    raise NotShipped(f"{path.parent.name}/{path.name}")  # its name alone: the folder's path is nobody's business


def _example_facts(path: Path) -> dict[str, Any]:
    """The rules and phase of an example, read from its first lines (cheap: no position is built)."""
    import tomllib

    try:
        data = tomllib.loads(_read_regular(path))
    except (LookupError, OSError, ValueError):
        return {}
    rules = data.get("rules")
    return {"rules": rules if isinstance(rules, str) else (rules or {}).get("preset", "custom"),
            "phase": data.get("phase", "play")}
