"""Every command in the docs runs (issue 24, section 5): each ``rummy ...`` command of a fenced code
block in README.md and docs/*.md, run as a user would type it, exits as the docs say.

The rules (docs/cli.md "Commands in the docs"):

- A command is a statement of a fenced block (``sh``, ``bash``, ``console``'s ``$`` lines, or a
  block with no language) that runs ``rummy`` (``.venv/bin/rummy`` too); lines ending in ``|``,
  ``\\`` or ``&&`` go on to the next. ``text`` blocks are synopses (``--count N``), never run.
- Parts of a statement that are not rummy (``python3 -m venv``, ``pip install``) are set-up for
  the installed rummy this test runs, and are left out.
- A trailing ``# needs: server`` or ``# needs: cluster`` skips the command, with that reason;
  ``# exits N`` expects exit code N (else 0).
- Commands run through bash (``set -o pipefail``) in a sandbox per block: a temporary folder that
  links to a copy of the repository's ``puzzles/`` and ``benchmarks/positions/`` (so
  ``puzzles/house`` is there, and nothing is written into the repository) and holds the files the docs
  name as placeholders, ``before.toml`` (a position), ``after.toml`` (a legal turn from it) and
  ``game.toml``; what a command writes (``answers.jsonl``, ``my-puzzles/``) stays there, for the
  commands after it in the same block.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from rummy.position import Position
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT

DOCS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
SKIPPED_NEEDS = {"server", "cluster"}  # what a command may need that this test does not start
RUN_LANGUAGES = {"", "sh", "bash", "shell", "console"}
COMMAND_SECONDS = 300  # generous: liveness, not speed (generate and --jobs 0 run for seconds here)
FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w-]*)")
# rummy in a command's place: at the start, after a pipe, ;, &&, ( or $(, after VAR=value settings.
RUMMY = re.compile(r"(?:^|[|;&(]|\$\()\s*(?:\w+=\S*\s+)*(?:\S*/)?rummy(?=\s|$|\))")
NEEDS = re.compile(r"\bneeds:\s*([\w-]+)")
EXITS = re.compile(r"#\s*exits\s+(\d+)")
# Paths into the shipped collections, wherever the docs name them (inline code too).
SHIPPED_PATH = re.compile(
    r"(?<![\w/.-])((?:puzzles/(?:examples|house|tiles|robber|layoff)|benchmarks/positions|examples/games)/[\w./-]*\w)")


@dataclass(frozen=True)
class Command:
    doc: str  # README.md, docs/cli.md
    block: int  # the line of the block's fence
    line: int  # the line the command starts on
    text: str  # as the docs write it
    run: str  # what is run: the rummy parts of the statement

    @property
    def needs(self) -> str | None:
        found = NEEDS.search(self.text.split("#", 1)[1]) if "#" in self.text else None
        return found.group(1) if found else None

    @property
    def exit_code(self) -> int:
        found = EXITS.search(self.text)
        return int(found.group(1)) if found else 0


def statements(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A block's lines joined into statements (a line ending in |, \\, && or || goes on)."""
    found: list[tuple[int, str]] = []
    start, pending = 0, ""
    for number, line in lines:
        if not pending:
            start = number
        pending = f"{pending}\n{line}" if pending else line
        code = pending.split(" #", 1)[0].rstrip()
        if code.endswith(("|", "\\", "&&", "||")):
            continue
        if pending.strip():
            found.append((start, pending))
        pending = ""
    if pending.strip():
        found.append((start, pending))
    return found


def rummy_part(statement: str) -> str | None:
    """The statement's rummy commands (``&&`` parts without rummy left out), with ``.venv/bin/rummy``
    as plain ``rummy``; None when it runs no rummy."""
    code = re.sub(r"(^|\s)#[^\n]*", "", statement)  # shell comments (no doc command quotes a '#')
    parts = [part.strip() for part in code.split("&&")]
    kept = [re.sub(r"(?<![\w/])\S*/rummy(?=\s|$)", "rummy", part) for part in parts if RUMMY.search(part)]
    return " && ".join(kept) if kept else None


def doc_commands() -> list[Command]:
    commands: list[Command] = []
    for doc in DOCS:
        name = str(doc.relative_to(REPO_ROOT))
        block_lines: list[tuple[int, str]] = []
        fence, language, opened = "", "", 0
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            match = FENCE.match(line)
            if not fence:
                if match:
                    fence, language, opened, block_lines = match.group(1), match.group(2).lower(), number, []
                continue
            if match and match.group(1).startswith(fence) and not match.group(2):
                commands += block_commands(name, opened, language, block_lines)
                fence = ""
                continue
            block_lines.append((number, line))
    return commands


def block_commands(doc: str, opened: int, language: str, lines: list[tuple[int, str]]) -> list[Command]:
    if language not in RUN_LANGUAGES:
        return []
    if language == "console":  # "$ command" lines; the others are what it prints
        lines = [(number, line.strip()[2:]) for number, line in lines if line.strip().startswith("$ ")]
    found = []
    for number, statement in statements(lines):
        run = rummy_part(statement)
        if run is not None:
            found.append(Command(doc, opened, number, statement.strip(), run))
    return found


COMMANDS = doc_commands()


# ------------------------------------------------------------------ the sandboxes
@pytest.fixture(scope="module")
def placeholders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The files the docs name as placeholders: a position, a legal turn from it written as an
    after-position with its [turn] table, and a game to pipe best's steps back from."""
    before = (PUZZLE_EXAMPLES / "house-classic.toml").read_text(encoding="utf-8")
    answer = subprocess.run([sys.executable, "-m", "rummy", "best", PUZZLE_EXAMPLES / "house-classic.toml", "--json"],
                            capture_output=True, text=True, timeout=COMMAND_SECONDS, check=True)
    after = Position.from_data(json.loads(answer.stdout)["after"], "after", strict=False).to_toml()
    return {"before.toml": before, "after.toml": after, "game.toml": before}


# The repository's folders the docs' commands read, copied once (a command never writes into the repository).
SHIPPED = ("puzzles", "benchmarks/positions", "examples")


class Sandboxes:
    """A folder per block, made on first use, and the commands already run in it."""

    def __init__(self, root: Path, placeholders: dict[str, str]) -> None:
        self.root = root
        self.placeholders = placeholders
        self.done: dict[Command, subprocess.CompletedProcess[str]] = {}
        self.shipped = root / "shipped"
        for name in SHIPPED:
            shutil.copytree(REPO_ROOT / name, self.shipped / name, symlinks=True)

    def folder(self, command: Command) -> Path:
        folder = self.root / f"{command.doc.replace('/', '_')}-{command.block}"
        if not folder.exists():
            folder.mkdir()
            for entry in self.shipped.iterdir():
                (folder / entry.name).symlink_to(entry, target_is_directory=True)
            for name, text in self.placeholders.items():
                (folder / name).write_text(text, encoding="utf-8")
        return folder

    def run(self, command: Command) -> subprocess.CompletedProcess[str]:
        """Run the command, after the block's commands before it (once each)."""
        if command not in self.done:
            for earlier in COMMANDS:
                if (earlier.doc, earlier.block) == (command.doc, command.block) and earlier.line < command.line \
                        and earlier.needs is None:
                    self.run(earlier)
            env = {key: value for key, value in os.environ.items() if key not in ("RUMMY_CLUSTER", "FORCE_COLOR")}
            env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
            self.done[command] = subprocess.run(["bash", "-c", f"set -o pipefail\n{command.run}"], capture_output=True,
                                                text=True, timeout=COMMAND_SECONDS, cwd=self.folder(command), env=env)
        return self.done[command]


@pytest.fixture(scope="module")
def sandboxes(tmp_path_factory: pytest.TempPathFactory, placeholders: dict[str, str]) -> Sandboxes:
    return Sandboxes(tmp_path_factory.mktemp("docs"), placeholders)


# ------------------------------------------------------------------ the tests
@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c.doc}:{c.line}" for c in COMMANDS])
def test_the_command_runs_as_the_docs_say(command: Command, sandboxes: Sandboxes) -> None:
    if command.needs is not None:
        assert command.needs in SKIPPED_NEEDS, f"{command.doc}:{command.line}: unknown need {command.needs!r}"
        pytest.skip(f"needs a {command.needs}")
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    result = sandboxes.run(command)
    assert result.returncode == command.exit_code, (
        f"{command.doc}:{command.line}: {command.run!r} exited {result.returncode}\n{result.stderr[-2000:]}")
    assert "Traceback" not in result.stderr


def test_the_docs_have_commands_and_each_kind_of_block_is_read() -> None:
    """The extraction itself: a console line, a piped statement over two lines, a chain, a skip."""
    texts = {(c.doc, c.run) for c in COMMANDS}
    assert len(COMMANDS) >= 15
    assert ("docs/cli.md", "rummy hint puzzles/house/house-classic-steal-medium-s1-0004.toml --level 4") in texts
    assert ("README.md", "rummy best puzzles/examples/house-classic.toml") in texts  # the quick start's rummy part
    piped = [c for c in COMMANDS if c.run.startswith("echo ")]  # turns written as steps, piped into rummy
    assert all("| rummy " in " ".join(c.run.split()) for c in piped)
    assert any(c.doc == "README.md" and "|\n" in c.run and "rummy check" in c.run for c in piped)  # over two lines
    assert {c.needs for c in COMMANDS} >= {"server", "cluster", None}
    assert not any("POSITIONS..." in c.run or "--kind KIND" in c.run for c in COMMANDS)  # synopses are text


def test_every_shipped_path_the_docs_name_exists() -> None:
    """Inline code too: `puzzles/house/NAME.toml` in a sentence drifts as a command does."""
    missing = []
    for doc in DOCS:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for path in SHIPPED_PATH.findall(line):
                if not (REPO_ROOT / path).exists():
                    missing.append(f"{doc.relative_to(REPO_ROOT)}:{number}: {path}")
    assert missing == []
