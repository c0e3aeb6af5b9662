"""Shared fixtures: where the repository's and the shared examples live (tests/support/paths.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import REPO_ROOT, SHARED_DIR


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
