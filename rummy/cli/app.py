"""The ``rummy`` program: one typer app, one module per command.

The command modules are thin: they parse options, read files, ask
rummy.reports for the answer and print it through ``_output``. Modules whose
names begin with ``_`` (``_options``, ``_output``, ``_picture``) are the
commands' shared helpers, no command of their own.

Start-up time matters (``rummy best`` is timed against a bare import of
OR-Tools), so this module and the command modules import only typer, the
standard library, rummy.vocabulary (the choices of options) and the cheap
modules of rummy.reports (``lines``, ``exit_codes``) at the top; rich, the
reports, the solver and OR-Tools are imported inside the command functions
that need them.

Adding a command: write ``rummy/cli/NAME.py`` with a function whose parameters use
the shared definitions of ``rummy/cli/_options.py``, returns an exit code (or
None for 0) and raises ``RummyError`` for bad input; then register it below
with one line.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from rummy.cli._output import run_guarded
from rummy.cli.best import best
from rummy.cli.check import check
from rummy.cli.game import game_app
from rummy.cli.generate import generate
from rummy.cli.hint import hint
from rummy.cli.play import play
from rummy.cli.review import review
from rummy.cli.rules import rules
from rummy.cli.selfplay import selfplay
from rummy.cli.serve import serve
from rummy.cli.sheets import sheets
from rummy.cli.show import show
from rummy.errors import PROGRAM
from rummy.reports.exit_codes import EXIT_INTERRUPTED

app = typer.Typer(
    name=PROGRAM,
    help="Best moves, turn checks and puzzles for rummy games where the table can be rearranged.",
    add_completion=True,  # --install-completion, --show-completion (docs/cli.md)
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

app.command("best")(best)
app.command("check")(check)
app.command("play")(play)
app.command("selfplay")(selfplay)
app.command("review")(review)
app.command("show")(show)
app.command("rules")(rules)
app.command("generate")(generate)
app.command("sheets")(sheets)
app.command("hint")(hint)
app.command("serve")(serve)
app.add_typer(game_app, name="game")


def print_version(value: bool) -> None:
    if not value:
        return
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        number = installed_version("rummy")
    except PackageNotFoundError:
        number = "(not installed)"
    typer.echo(f"{PROGRAM} {number}")
    raise typer.Exit(0)


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=print_version, help="Print rummy's version and exit."),
    ] = False,
) -> None:
    """Best moves, turn checks and puzzles for rummy games where the table can be rearranged."""


# Shell completion (docs/cli.md): 'rummy --install-completion' sets it up for the shell in use;
# click answers the shell when this variable is set, e.g. eval "$(_RUMMY_COMPLETE=source_bash rummy)".
COMPLETE_VARIABLE = "_RUMMY_COMPLETE"


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: runs one command and returns its exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    if COMPLETE_VARIABLE in os.environ:
        from typer.completion import completion_init

        completion_init()  # the shells typer completes for, loaded only when a shell asks
    command = typer.main.get_command(app)

    def invoke() -> int | None:
        code: int | None = command.main(args=args, prog_name=PROGRAM, standalone_mode=False)
        if code == EXIT_INTERRUPTED:  # typer turns Ctrl-C into exit code 130, silently: say it as for any interrupt
            raise KeyboardInterrupt
        return code

    return run_guarded(invoke)
