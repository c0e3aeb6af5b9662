"""Where the tests' files live: the repository, its examples, the tests' own data, the shared folder.

Every test names these constants instead of counting ``Path(__file__).parents``, so a test file
can move between the layer folders of tests/ without its paths changing meaning.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
TESTS_DIR = REPO_ROOT / "tests"
DATA_DIR = TESTS_DIR / "data"
CHECK_CASES = DATA_DIR / "check_cases"
PUZZLE_CASES = DATA_DIR / "puzzle_cases"
MALFORMED_DIR = DATA_DIR / "malformed"
PUZZLE_EXAMPLES = REPO_ROOT / "puzzles" / "examples"
SCHEMA_PATH = REPO_ROOT / "docs" / "position.schema.json"


def _shared_dir() -> Path:
    configured = os.environ.get("RUMMY_SHARED")
    return Path(configured) if configured else REPO_ROOT.parent / "shared"


# The shared spec, seeds and examples, beside the repository (``RUMMY_SHARED`` overrides).
SHARED_DIR = _shared_dir()


def shared_example_files() -> list[Path]:
    """Every shared example position (empty when the shared folder is absent)."""
    examples = SHARED_DIR / "examples"
    return sorted(examples.rglob("*.toml")) if examples.is_dir() else []


def shared_best_examples() -> list[Path]:
    """The shared positions with known best answers (empty when the shared folder is absent)."""
    folder = SHARED_DIR / "examples" / "best"
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def puzzle_example_files() -> list[Path]:
    return sorted(PUZZLE_EXAMPLES.glob("*.toml")) + sorted(PUZZLE_EXAMPLES.glob("*.json"))


def is_after_file(path: Path) -> bool:
    """After-positions of check cases may hold non-whole plays for the checker to judge."""
    return path.name.endswith("-after.toml") or path.name.endswith("-after.json")


def header_lines(path: Path) -> list[str]:
    """The leading comment lines of a file, without the ``#``."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].strip())
    return lines


def load_data(path: Path) -> dict[str, Any]:
    """A position file as plain data (TOML or JSON), unvalidated."""
    text = path.read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    return data
