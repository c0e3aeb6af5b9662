"""Writing puzzles: a position file, a solution file, and the collection's index.

``DIR/NAME.toml`` is the position (formats.md) with a comment saying the
task and its ``[puzzle]`` table (kind, tier, task, target: the best gain),
nothing of the answer; ``DIR/NAME.solution.json`` is the ``best --json``
answer (so ``rummy check DIR/NAME.toml DIR/NAME.solution.json`` judges it)
plus ``puzzle``, ``kind``, ``tier``, ``unique``, ``margin`` and
``difficulty``. ``DIR/index.json`` lists every puzzle of the folder; writing
more puzzles into the folder adds to it.

Every file is written through ``rummy.files`` (atomically, never through a
symbolic link). A puzzle file is never overwritten: a run whose names are
already taken in the folder is refused before any work (``Collection``),
and a name taken while it runs (another run making the same puzzles) stops
it. The index is read, merged and replaced under an exclusive lock on
``DIR/.index.lock``, so runs writing into one folder at once keep every
puzzle of each other's.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import RummyError
from ..files import FileKept, Folder, UnsafePath
from ..rules import preset
from .candidate_search import Puzzle
from .kinds import kind_for

INDEX = "index.json"
LOCK = ".index.lock"  # the lock of the index's read-merge-write; left in the folder (removing it would race)
INDEX_LIMIT = 16 * 1024 * 1024  # bytes of index.json read at most (about 50,000 puzzles)
PUZZLE_SUFFIXES = (".toml", ".solution.json")


def puzzle_files(puzzle: Puzzle, command: str) -> dict[str, str]:
    """The puzzle's files by name: the position, then the solution."""
    rules = preset(puzzle.rules)
    task = kind_for(puzzle.kind, rules).task_for(rules)
    header = (
        f"# {puzzle.name}: {task}.\n"
        f"# {puzzle.rules}, kind {puzzle.kind}, tier {puzzle.tier}; made by: {command}\n"
        f"# The answer is in {puzzle.name}.solution.json.\n"
    )
    solution = json.dumps(puzzle.solution_data(), indent=2, ensure_ascii=False) + "\n"
    # The position states its puzzle ([puzzle]: kind, tier, task, target); the answer stays in its own file.
    stated = replace(puzzle.position, puzzle=puzzle.statement())
    return {f"{puzzle.name}.toml": header + stated.to_toml(), f"{puzzle.name}.solution.json": solution}


def write_puzzle(folder: Folder | Path, puzzle: Puzzle, command: str) -> None:
    """Write the puzzle's two files; FileKept (nothing of the puzzle left) if either name is taken."""
    with _opened(folder, create=True) as opened:
        written = []
        try:
            for name, text in puzzle_files(puzzle, command).items():
                written.append((name, opened.write(name, text)))
        except BaseException:
            for name, identity in written:
                opened.remove_own(name, identity)
            raise


def index_entry(puzzle: Puzzle) -> dict[str, Any]:
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
        "themes": list(puzzle.themes),
    }


def read_index(folder: Folder | Path, advice: str = "; move it away first") -> dict[str, dict[str, Any]]:
    """The folder's index entries by name, in the index's order (none if there is no index or no
    folder); RummyError if it cannot be read, ending in ``advice``. At most ``INDEX_LIMIT`` bytes are
    read, and a nesting too deep for Python's reader is that one error too."""
    if isinstance(folder, Path) and not os.path.lexists(folder):
        return {}
    with _opened(folder) as opened:
        data = opened.read(INDEX, INDEX_LIMIT)
        return {} if data is None else _parse_index(data, opened.path / INDEX, advice)


def _parse_index(data: bytes, path: Path, advice: str) -> dict[str, dict[str, Any]]:
    try:
        document = json.loads(data.decode("utf-8"))
        entries = document["puzzles"]
        if not isinstance(entries, list) \
                or not all(isinstance(e, dict) and isinstance(e.get("name"), str) for e in entries):
            raise TypeError("puzzles is not a list of entries with a name")
        return {entry["name"]: entry for entry in entries}
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError) as error:
        reason = "nested too deeply" if isinstance(error, RecursionError) else f"{type(error).__name__}: {error}"
        raise RummyError(f"{path}: not a puzzle index ({reason}){advice}") from None


def update_index(folder: Folder | Path, puzzles: list[Puzzle]) -> Path:
    """Add the puzzles to the folder's index (sorted by name) and return its path.

    Read, merge and write happen under the folder's index lock, and the new
    index replaces the old in one step: runs into one folder at once lose
    none of each other's entries, and a reader never sees half an index.
    """
    with _opened(folder, create=True) as opened:
        with opened.lock(LOCK):
            entries = read_index(opened)
            for puzzle in puzzles:
                entries[puzzle.name] = index_entry(puzzle)
            data = {"puzzles": [entries[name] for name in sorted(entries)]}
            opened.write(INDEX, json.dumps(data, indent=2, ensure_ascii=False) + "\n", replace=True)
        return opened.path / INDEX


class Collection:
    """The folder one run writes its puzzles into, checked before the run starts.

    Refused at once (RummyError): a folder that is a symbolic link or a
    file, an index that cannot be read, and a folder already holding files
    of the run's names (``prefix``: the same options and seed make the same
    puzzles again, and a puzzle file is never overwritten). The folder is
    created at the first puzzle.
    """

    def __init__(self, path: Path, prefix: str) -> None:
        self.path = path
        self.folder: Folder | None = None
        if os.path.lexists(path):
            self.folder = Folder(path)
            try:
                self._check(prefix)
            except BaseException:
                self.close()
                raise

    def _check(self, prefix: str) -> None:
        assert self.folder is not None
        for name in (INDEX, LOCK):
            if self.folder.kind(name) == "link":
                raise RummyError(f"{self.path / name}: a symbolic link; rummy never writes through one nor replaces it")
        read_index(self.folder)
        taken = sorted({n[: -len(suffix)] for n in self.folder.names() for suffix in PUZZLE_SUFFIXES
                        if n.startswith(prefix) and n.endswith(suffix)})
        for name in taken:
            for suffix in PUZZLE_SUFFIXES:
                what = self.folder.kind(name + suffix)
                if what == "link":
                    raise UnsafePath(f"{self.path / (name + suffix)}: a symbolic link; rummy never writes through one "
                                     "nor replaces it: move it away")
                if what == "other":
                    raise UnsafePath(f"{self.path / (name + suffix)}: not a regular file; move it away")
        if taken:
            more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
            raise FileKept(
                f"{self.path} already holds puzzles of these options and seed ({taken[0]}{more}); the seed would make "
                "them again and a puzzle file is never overwritten: use another --seed or folder, or move them away"
            )

    def add(self, puzzle: Puzzle, command: str) -> None:
        """Write the puzzle's files, then add it to the index."""
        if self.folder is None:
            self.folder = Folder(self.path, create=True)
        try:
            write_puzzle(self.folder, puzzle, command)
        except FileKept as error:
            raise FileKept(f"{error} (another run making the same puzzles into this folder?)") from None
        update_index(self.folder, [puzzle])

    def close(self) -> None:
        if self.folder is not None:
            self.folder.close()
            self.folder = None

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _opened:
    """A Folder given, used as is; or a path, opened for the block."""

    def __init__(self, folder: Folder | Path, create: bool = False) -> None:
        self.folder = folder if isinstance(folder, Folder) else Path(folder)
        self.create = create
        self.opened: Folder | None = None

    def __enter__(self) -> Folder:
        if isinstance(self.folder, Folder):
            return self.folder
        self.opened = Folder(self.folder, create=self.create)
        return self.opened

    def __exit__(self, *exc: object) -> None:
        if self.opened is not None:
            self.opened.close()
