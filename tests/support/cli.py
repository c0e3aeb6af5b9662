"""The program run as a user runs it: ``python -m rummy ARGS`` in a subprocess, or ``main`` in this process."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from rummy.cli.app import main
from tests.support.paths import REPO_ROOT


def run_cli(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``rummy ARGS`` with output to pipes (no terminal), as CI does."""
    clean = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "RUMMY_DEBUG")}
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "rummy", *map(str, args)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        env=clean,
        timeout=60,
    )


def run_main(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``rummy ARGS`` in this process: (exit code, stdout, stderr). It runs as a fresh process would:
    ``--time-limit`` counts from the process's start (rummy.deadline), and this one may be old."""
    with mock.patch("rummy.deadline.process_age", return_value=0.0):
        code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def feed_stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """What the next ``run_main`` reads on standard input."""
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
