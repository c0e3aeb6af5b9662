"""Shared fixtures: where the repository's and the shared examples live."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PUZZLE_EXAMPLES = REPO_ROOT / "puzzles" / "examples"
MALFORMED_DIR = Path(__file__).resolve().parent / "malformed"
SCHEMA_PATH = REPO_ROOT / "docs" / "position.schema.json"


def _shared_dir() -> Path:
    configured = os.environ.get("RUMMY_SHARED")
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared"


SHARED_DIR = _shared_dir()


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared spec, seeds and examples (``RUMMY_SHARED`` overrides); skips when absent."""
    if not SHARED_DIR.is_dir():
        pytest.skip(f"shared folder not found at {SHARED_DIR} (set RUMMY_SHARED)")
    return SHARED_DIR


@pytest.fixture(scope="session")
def shared_examples(shared_dir: Path) -> Path:
    examples = shared_dir / "examples"
    if not examples.is_dir():
        pytest.skip(f"no shared examples at {examples}")
    return examples


def shared_example_files() -> list[Path]:
    """Every shared example position (empty when the shared folder is absent)."""
    examples = SHARED_DIR / "examples"
    return sorted(examples.rglob("*.toml")) if examples.is_dir() else []


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


def load_data(path: Path) -> dict:
    """A position file as plain data (TOML or JSON), unvalidated."""
    import json

    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
