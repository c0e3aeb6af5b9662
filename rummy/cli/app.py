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
None for 0) and raises ``RummyError`` for bad input; then name it in
``COMMANDS`` below with one line.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Annotated, Any

import typer

from rummy.cli._output import run_guarded
from rummy.errors import PROGRAM
from rummy.reports.exit_codes import EXIT_INTERRUPTED

# Each command, as "module:function" (a typer app for a group), in the order of --help. Running one
# command imports its module alone and builds typer's command for it alone: importing every command
# module and building all sixteen click commands cost about 30 ms of each start (benchmarks/startup.py).
COMMANDS = {
    "best": "rummy.cli.best:best",
    "check": "rummy.cli.check:check",
    "play": "rummy.cli.play:play",
    "selfplay": "rummy.cli.selfplay:selfplay",
    "review": "rummy.cli.review:review",
    "show": "rummy.cli.show:show",
    "rules": "rummy.cli.rules:rules",
    "generate": "rummy.cli.generate:generate",
    "sheets": "rummy.cli.sheets:sheets",
    "variety": "rummy.cli.variety:variety",
    "hint": "rummy.cli.hint:hint",
    "serve": "rummy.cli.serve:serve",
    "game": "rummy.cli.game:game_app",
}


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


def root(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=print_version, help="Print rummy's version and exit."),
    ] = False,
) -> None:
    """Best moves, turn checks and puzzles for rummy games where the table can be rearranged."""


def make_app(names: list[str] | None = None) -> typer.Typer:
    """The ``rummy`` app with the commands named (default: every command, in ``COMMANDS``' order)."""
    made = typer.Typer(
        name=PROGRAM,
        help="Best moves, turn checks and puzzles for rummy games where the table can be rearranged.",
        add_completion=True,  # --install-completion, --show-completion (docs/cli.md)
        no_args_is_help=True,
        pretty_exceptions_enable=False,
    )
    made.callback()(root)  # a callback keeps even a one-command app a group: 'rummy best ...' as always
    for name in COMMANDS if names is None else names:
        module_name, _, attribute = COMMANDS[name].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if isinstance(command, typer.Typer):
            made.add_typer(command, name=name)
        else:
            made.command(name)(command)
    return made


def __getattr__(name: str) -> Any:
    """``rummy.cli.app.app``: the whole app (every command), made on first use (tests, completion, help)."""
    if name == "app":
        globals()["app"] = whole = make_app()
        return whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Shell completion (docs/cli.md): 'rummy --install-completion' sets it up for the shell in use;
# click answers the shell when this variable is set, e.g. eval "$(_RUMMY_COMPLETE=source_bash rummy)".
COMPLETE_VARIABLE = "_RUMMY_COMPLETE"


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: runs one command and returns its exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    if COMPLETE_VARIABLE in os.environ:
        from typer.completion import completion_init

        completion_init()  # the shells typer completes for, loaded only when a shell asks
    # A command's own name first: only that command is loaded (its --help and errors read as in the whole
    # app); anything else (--help, --version, a mistyped name, shell completion) gets the whole app.
    wanted = [args[0]] if args and args[0] in COMMANDS and COMPLETE_VARIABLE not in os.environ else None

    def invoke() -> int | None:
        command = typer.main.get_command(make_app(wanted))  # loads the command's module: Ctrl-C is guarded
        code: int | None = command.main(args=args, prog_name=PROGRAM, standalone_mode=False)
        if code == EXIT_INTERRUPTED:  # typer turns Ctrl-C into exit code 130, silently: say it as for any interrupt
            raise KeyboardInterrupt
        return code

    return run_guarded(invoke)
