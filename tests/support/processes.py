"""Processes a test started, and whether they are still there (Linux: /proc)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for its parent."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def children(pid: int) -> set[int]:
    """The processes ``pid`` started (Linux: /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with suppress(OSError):
            found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def descendants(pid: int) -> set[int]:
    """Every process ``pid`` started, and the ones they started, down the tree."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children(todo.pop()) - found:
            found.add(child)
            todo.append(child)
    return found
