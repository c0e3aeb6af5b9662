"""The shipped positions and puzzle collections, listed once and served read-only.

They come with the package (``rummy/puzzles``, the repository's ``puzzles/``
folder). The list is made when the server starts; a request names an entry
by its id (``house/house-classic-steal-hard-s1-0001``) and only ids on the
list are read, so no path a visitor writes ever reaches the disk. Only
regular files that lie in their collection's folder are listed and read: a
symbolic link there (``examples/zz-link.toml -> /etc/hostname``) is
neither listed nor followed, nor is a collection folder that is a link.

Every folder of ``puzzles/`` is a collection (a folder added later, such as
``mined/``, is listed without a change here): the folders named in
``TITLES`` first, in that order, then any other in the order of their
names, titled by their ``index.json``'s ``title`` or by their name. Each
entry carries the facts the page filters on (rules, family, kind, tier,
themes); ``ListFilter`` narrows the list as ``GET /api/positions?theme=...``
asks (docs/serve.md).
"""

from __future__ import annotations

import json
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from rummy.inputs import MAX_FILE_BYTES

EXAMPLES = "examples"
# What each known folder holds, in the order the page lists them; other folders follow.
TITLES = {
    EXAMPLES: "Examples: one position per game, and draw-phase positions",
    "tiles": "Tile rummy puzzles",
    "house": "House Rummy puzzles",
    "robber": "Robber Rummy puzzles",
    "robber-draw": "Robber Rummy: take the pile or the stock?",
    "layoff": "Straight and traditional Rummy puzzles",
    "mined": "Puzzles mined from played games (House, tiles)",
}
# A folder is listed when its name is a plain word (no hidden or tool folders: .git, __pycache__).
FOLDER_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
MAX_FOLDERS = 64  # collections listed at most
MAX_TITLE = 100  # characters of a title read from an index.json
SOLUTION_SUFFIX = ".solution.json"
MAX_LISTED = 5000  # positions listed per folder at most
MAX_INDEX_BYTES = 16 << 20  # a collection's index.json (5000 puzzles are about 1 MB)
MAX_THEMES = 8  # themes of one puzzle (docs/formats.md: 1 to 8)


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
        self.titles: dict[str, str] = {}
        if self.root is not None:
            for collection in _collections(self.root):
                folder = self.root / collection
                title, entries = _entries(folder, collection)
                if entries:
                    self.titles[collection] = title
                    for entry in entries:
                        self.entries[entry.id] = entry

    def listing(self, narrowed: ListFilter | None = None) -> dict[str, Any]:
        """Every collection with the entries ``narrowed`` keeps (all of them by default; a collection left
        with none is still listed, empty), and every theme with its title and idea (the page's filter)."""
        from rummy.reports.page import theme_catalog

        keep = narrowed or ListFilter()
        return {"collections": [
            {"name": name, "title": title,
             "positions": [e.to_data() for e in self.entries.values() if e.collection == name and keep.matches(e)]}
            for name, title in self.titles.items()],
            "themes": theme_catalog()}

    def get(self, entry_id: str) -> Entry | None:
        return self.entries.get(entry_id)

    def text(self, entry: Entry) -> str:
        return _read_regular(entry.path)

    def solution_text(self, entry: Entry) -> str | None:
        if entry.solution is None:
            return None
        return _read_regular(entry.solution)


def _collections(root: Path) -> list[str]:
    """The collection folders under ``root``: real folders (not links) with plain names, the known first."""
    try:
        names = sorted(path.name for path in root.iterdir() if FOLDER_NAME.fullmatch(path.name))
    except OSError:
        return []
    ordered = [name for name in TITLES if name in names] + [name for name in names if name not in TITLES]
    return [name for name in ordered if _is_real(root / name, stat.S_ISDIR)][:MAX_FOLDERS]


def _entries(folder: Path, collection: str) -> tuple[str, list[Entry]]:
    """The folder's title and entries: its index.json's puzzles, or (without one) its ``*.toml`` files."""
    title = TITLES.get(collection, collection.replace("-", " ").replace("_", " ").capitalize())
    index = folder / "index.json"
    if _is_file_in(index, folder):
        try:
            data = json.loads(_read_regular(index, MAX_INDEX_BYTES))
        except (NotShipped, ValueError):
            return title, []  # an index that cannot be read lists nothing (the server still starts)
        if not isinstance(data, dict):
            return title, []
        named = data.get("title")
        if collection not in TITLES and isinstance(named, str) and named.strip():
            title = " ".join(named.split())[:MAX_TITLE]
        found = []
        items = data.get("puzzles")
        for item in (items if isinstance(items, list) else [])[:MAX_LISTED]:
            if not isinstance(item, dict):
                continue
            position = folder / str(item.get("position", ""))
            if not _is_file_in(position, folder):
                continue
            solution = folder / str(item.get("solution", ""))
            facts = {key: item[key] for key in ("rules", "kind", "tier", "gain") if key in item}
            facts.update(_family_and_themes(item.get("rules"), item.get("themes")))
            name = str(item.get("name", position.stem))
            found.append(Entry(f"{collection}/{name}", collection, name, position,
                               solution if _is_file_in(solution, folder) else None, facts))
        return title, found
    found = []
    for position in sorted(path for path in folder.glob("*.toml") if _is_file_in(path, folder))[:MAX_LISTED]:
        solution = position.with_name(position.stem + SOLUTION_SUFFIX)
        found.append(Entry(f"{collection}/{position.stem}", collection, position.stem, position,
                           solution if _is_file_in(solution, folder) else None, _example_facts(position)))
    return title, found


def _family_and_themes(rules: Any, themes: Any) -> dict[str, Any]:
    """An entry's family (its preset's; none for a custom ruleset) and its themes (the known names it lists,
    at most ``MAX_THEMES``), as the list's filter reads them."""
    from rummy.reports.page import theme_names
    from rummy.rules import PRESETS

    facts: dict[str, Any] = {}
    if isinstance(rules, str) and rules in PRESETS:
        facts["family"] = str(PRESETS[rules].family)
    if isinstance(themes, list):
        known = theme_names()
        facts["themes"] = [theme for theme in themes if isinstance(theme, str) and theme in known][:MAX_THEMES]
    return facts


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
    """The rules and phase of an example, and its puzzle's kind, tier and themes where it states a puzzle
    (cheap: the TOML is read, no position is built)."""
    import tomllib

    try:
        data = tomllib.loads(_read_regular(path))
    except (LookupError, OSError, ValueError):
        return {}
    rules = data.get("rules")
    preset = rules if isinstance(rules, str) else (rules or {}).get("preset", "custom")
    facts: dict[str, Any] = {"rules": preset, "phase": data.get("phase", "play")}
    puzzle = data.get("puzzle")
    if isinstance(puzzle, dict):
        facts.update({key: puzzle[key] for key in ("kind", "tier") if isinstance(puzzle.get(key), str)})
    facts.update(_family_and_themes(preset, puzzle.get("themes") if isinstance(puzzle, dict) else None))
    return facts


# ------------------------------------------------------------------ the list's filter
@dataclass(frozen=True)
class ListFilter:
    """What ``GET /api/positions`` narrows the list to: each field given must be the entry's (``theme``: one of
    its themes). Read from the query by ``from_query``, which refuses an unknown key, a key given twice, and
    an unknown theme, tier or family (RummyError naming it)."""

    theme: str | None = None
    tier: str | None = None
    kind: str | None = None
    family: str | None = None
    collection: str | None = None

    def matches(self, entry: Entry) -> bool:
        facts = entry.facts
        return ((self.theme is None or self.theme in facts.get("themes", ()))
                and (self.tier is None or facts.get("tier") == self.tier)
                and (self.kind is None or facts.get("kind") == self.kind)
                and (self.family is None or facts.get("family") == self.family)
                and (self.collection is None or entry.collection == self.collection))

    @classmethod
    def from_query(cls, query: Sequence[tuple[str, str]], shipped: Shipped) -> ListFilter:
        from rummy.errors import RummyError, quote
        from rummy.family import FAMILIES
        from rummy.reports.page import theme_names
        from rummy.vocabulary import PuzzleKind, Tier

        keys = [field.name for field in fields(cls)]
        known: dict[str, Sequence[str]] = {
            "theme": list(theme_names()), "tier": [str(tier) for tier in Tier],
            # a hand-written puzzle may name a kind of its own: the kinds listed count too
            "kind": list(dict.fromkeys([str(kind) for kind in PuzzleKind] + [
                str(entry.facts["kind"]) for entry in shipped.entries.values() if "kind" in entry.facts])),
            "family": list(FAMILIES), "collection": list(shipped.titles)}
        given: dict[str, str] = {}
        for key, value in query:
            if key not in keys:
                raise RummyError(f"query: unknown key {quote(key)} (known: {', '.join(keys)})")
            if key in given:
                raise RummyError(f"{key}: given twice (one {key} at a time)")
            if value not in known[key]:
                raise RummyError(f"{key}: no {key} {quote(value)} (known: {', '.join(known[key])})")
            given[key] = value
        return cls(**given)
