"""The positions a benchmark runner solves: files and folders named on its command line, or paths on stdin.

Plain Python only: peer_runner.py imports it inside the peer's own virtualenv,
where this project is not installed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path


def position_paths(arguments: list[str], serve: bool) -> Iterator[Path]:
    """With ``serve``, one path a line from stdin, as the lines come (run.py sends the next
    when the last is answered); else the files named, a folder standing for its .toml files, sorted."""
    if serve:
        return (Path(line.strip()) for line in sys.stdin if line.strip())
    found: list[Path] = []
    for raw in arguments:
        path = Path(raw)
        found.extend(sorted(path.glob("*.toml")) if path.is_dir() else [path])
    return iter(found)
