"""A small puzzles folder made from the shipped ones, each puzzle tagged with themes, for the tests of
the list's filters and the statement (the shipped collections are remade now and then: these tests
must not hang on their puzzles, their counts or their themes).

``themed_root(tmp)`` copies the two first examples, the first puzzles of the shipped ``house`` index
and of ``tiles``' (the latter into a folder of another name, ``extra``, whose index.json gives its own
title: a folder the server was never told of). Each puzzle gets themes from rummy.themes.THEMES (in
its ``[puzzle]`` and its index entry, as the contract writes them) and the first house puzzle a
``rules_note``.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from tests.support.paths import REPO_ROOT

SHIPPED = REPO_ROOT / "puzzles"
EXTRA = "extra"  # a collection folder no code names
EXTRA_TITLE = "Puzzles from a folder nobody announced"
RULES_NOTE = "QC is warm: it cannot be discarded"
PER_FOLDER = 6


def theme_names() -> list[str]:
    from rummy.themes import THEMES

    return list(THEMES)


def themes_for(index: int) -> list[str]:
    """Puzzle ``index``'s themes: one of the first three, and the fourth on every other puzzle."""
    names = theme_names()
    return [names[index % 3]] + ([names[3]] if index % 2 == 0 else [])


def themed_root(tmp: Path) -> Path:
    root = tmp / "puzzles"
    examples = root / "examples"
    examples.mkdir(parents=True)
    for example in sorted((SHIPPED / "examples").glob("*.toml"))[:2]:
        shutil.copy(example, examples / example.name)
    _themed_copy(SHIPPED / "house", root / "house", first_note=True)
    _themed_copy(SHIPPED / "tiles", root / EXTRA, title=EXTRA_TITLE)
    (root / ".hidden").mkdir()  # neither listed (not a plain name) nor an error
    shutil.copytree(examples, root / ".hidden" / "examples")
    return root


def index_entries(folder: Path) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads((folder / "index.json").read_text(encoding="utf-8"))["puzzles"]
    return entries


def _themed_copy(source: Path, target: Path, first_note: bool = False, title: str | None = None) -> None:
    target.mkdir()
    entries = []
    for number, entry in enumerate(index_entries(source)[:PER_FOLDER]):
        data = tomllib.loads((source / entry["position"]).read_text(encoding="utf-8"))
        themes = themes_for(number)
        data["puzzle"]["themes"] = themes
        if first_note and number == 0:
            data["puzzle"]["rules_note"] = RULES_NOTE
        (target / entry["position"]).write_text(tomli_w.dumps(data), encoding="utf-8")
        if entry.get("solution") and (source / entry["solution"]).is_file():
            shutil.copy(source / entry["solution"], target / entry["solution"])
        entries.append({**entry, "themes": themes})
    index: dict[str, Any] = {"puzzles": entries}
    if title is not None:
        index["title"] = title
    (target / "index.json").write_text(json.dumps(index, indent=1), encoding="utf-8")


def first_shipped(folder: str = "house") -> str:
    """The id (``house/NAME``) of the first puzzle a shipped folder's index lists with a stored answer: the
    tests that need a shipped puzzle take it from the index, as the collections are remade now and then."""
    for entry in index_entries(SHIPPED / folder):
        if entry.get("solution") and (SHIPPED / folder / entry["solution"]).is_file():
            return f"{folder}/{entry['name']}"
    raise LookupError(f"no puzzle with a stored answer in puzzles/{folder}")
