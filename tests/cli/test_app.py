"""The program as a whole: a position on standard input, the help texts, shell completion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import feed_stdin, run_main
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT


@pytest.mark.parametrize("kind", ["toml", "json"])
def test_best_show_and_check_read_a_position_on_stdin(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummy.position import Position

    path = PUZZLE_EXAMPLES / "rummikub.toml"
    text = path.read_text() if kind == "toml" else json.dumps(Position.from_file(path).to_data())
    feed_stdin(monkeypatch, text)
    code, out, err = run_main(capsys, "best", "-", "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["status"] == "optimal"
    feed_stdin(monkeypatch, text)
    code, out, err = run_main(capsys, "show", "-")
    assert (code, err) == (0, "") and "to move: ann" in out
    answer_file = tmp_path / "answer.json"
    answer_file.write_text(json.dumps(answer))
    feed_stdin(monkeypatch, text)
    code, out, err = run_main(capsys, "check", "-", answer_file)
    assert (code, err) == (0, "") and out.startswith("legal")


def test_every_help_text_escapes_its_square_brackets() -> None:
    """Help is rich markup: a bare [word] is taken for a tag and vanishes."""
    import re

    import typer

    from rummy.cli.app import app

    root = typer.main.get_command(app)
    commands = getattr(root, "commands", {})
    assert commands
    for name, command in commands.items():
        texts = [command.help or ""] + [getattr(param, "help", None) or "" for param in command.params]
        for text in texts:
            assert not re.search(r"(?<!\\)\[[a-z]", text), (name, text)


def test_shell_completion_can_be_installed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_main(capsys, "--help")
    assert code == 0 and "--install-completion" in out and "--show-completion" in out
    import os
    import subprocess
    import sys

    # The shell named, not the one the tests happen to run under (typer otherwise detects the parent
    # shell, and refuses `sh`: the suite run from `sh -c` failed here).
    quiet_detection = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    shown = subprocess.run([sys.executable, "-m", "rummy", "--show-completion", "bash"], capture_output=True, text=True,
                           cwd=REPO_ROOT, timeout=60, env=quiet_detection)
    assert shown.returncode == 0 and "_RUMMY_COMPLETE=complete_bash" in shown.stdout, shown.stderr


def test_ctrl_c_while_a_c_extension_initialises_is_an_interrupt_not_a_bug(capsys: pytest.CaptureFixture[str]) -> None:
    """OR-Tools' module init turns a Ctrl-C at start-up into ``ImportError: initialization failed`` (the
    KeyboardInterrupt its cause): that is the user's Ctrl-C, exit 130, never 'internal error'."""
    from rummy.cli._output import EXIT_INTERRUPTED, run_guarded

    def importing() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise ImportError("initialization failed") from interrupt

    def a_bug() -> None:
        raise ImportError("initialization failed")

    assert run_guarded(importing) == EXIT_INTERRUPTED
    assert capsys.readouterr().err.strip().endswith("interrupted")
    assert run_guarded(a_bug) == 3
    assert "internal error" in capsys.readouterr().err


def test_a_command_loads_its_own_module_and_the_whole_app_lists_every_command() -> None:
    """``rummy rules`` imports rummy.cli.rules alone (start-up time: rummy/cli/app.py COMMANDS); the
    root's --help still lists every command, as does the whole app the tests and completion use."""
    import os
    import subprocess
    import sys

    from rummy.cli.app import COMMANDS

    code = ("import sys; from rummy.cli.app import main; main(['rules']); "
            "print(' '.join(m for m in sys.modules if m.startswith('rummy.cli.')), file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT)
    loaded = set(run.stderr.split())
    assert "rummy.cli.rules" in loaded and "house-classic" in run.stdout
    assert not loaded & {"rummy.cli.best", "rummy.cli.game", "rummy.cli.serve", "rummy.cli.check"}
    run = subprocess.run([sys.executable, "-m", "rummy", "--help"], capture_output=True, text=True, cwd=REPO_ROOT,
                         env={**os.environ, "COLUMNS": "200"})
    assert all(name in run.stdout for name in COMMANDS)
