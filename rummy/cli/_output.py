"""The command line's one output layer: human views on a terminal, JSON, and the bad-input handler.

Every command prints through here, so colours, JSON layout and error lines
are the same everywhere. What is printed is built below, in rummy.reports
(``Styled`` lines, ``--json`` objects, the exit codes of
rummy.reports.exit_codes); this module only writes it out. Loading it is
cheap: rich is imported only to draw colours on a terminal, typer only to
classify an error.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

from rummy.errors import DEBUG_VARIABLE, RummyError, debugging, error_lines, print_error
from rummy.reports.exit_codes import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK
from rummy.reports.lines import ORANGE, Styled

if TYPE_CHECKING:
    from rich.console import Console

ORANGE_ON_16_COLOURS = "yellow"


# ------------------------------------------------------------------- JSON
def print_json(data: Any) -> None:
    """One JSON document, indented, on stdout (no colours, nothing else)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def print_json_line(data: Any) -> None:
    """One JSON object on one line (several positions: one line each)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def print_answer(data: Any, lines: Iterable[Styled | str], json_output: bool) -> None:
    """``--json``: the JSON document; else the human lines."""
    if json_output:
        print_json(data)
    else:
        print_lines(lines)


# ------------------------------------------------------------------ human
def print_lines(lines: Iterable[Styled | str]) -> None:
    """Human output: coloured on a terminal, plain text anywhere else."""
    if not wants_colour():
        sys.stdout.write("".join(str(line) + "\n" for line in lines))
        return
    out = console()
    basic = out.color_system in ("standard", "windows")
    from rich.text import Text

    for line in lines:
        segments = line.segments if isinstance(line, Styled) else ((line, ""),)
        out.print(Text.assemble(*((t, _for_basic_colours(style) if basic else style) for t, style in segments)))


def wants_colour() -> bool:
    """Colours on a terminal only; NO_COLOR turns them off, FORCE_COLOR on (the usual conventions)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


@lru_cache(maxsize=1)
def console() -> Console:
    """The stdout console for coloured output; never wraps lines."""
    from rich.console import Console

    class QuietOnBrokenPipe(Console):
        # rich exits 1 when the reader leaves (``| head``); 1 means "no" here.
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError

    return QuietOnBrokenPipe(highlight=False, markup=False, emoji=False, soft_wrap=True)


def _for_basic_colours(style: str) -> str:
    # With only 16 colours orange would fall to bright red, too close to red.
    return style.replace(ORANGE, ORANGE_ON_16_COLOURS)


# ----------------------------------------------------------- warnings
def print_warnings(lines: Iterable[str]) -> None:
    """Warnings on a position (rummy.reports.position_warnings): ``rummy: warning: LINE`` on stderr, one
    each. They change no answer and no exit code."""
    for line in lines:
        print_error(f"warning: {line}")


# ----------------------------------------------------------- bad input
def print_bad_input(error: BaseException) -> None:
    """A RummyError: one line a problem (a file with several independent problems gives several)."""
    for line in error_lines(error):
        print_error(line)


def run_guarded(invoke: Callable[[], int | None]) -> int:
    """Run a command and turn every failure into one stderr line and an exit code.

    Bad input (a ``RummyError``, an unreadable file, a usage mistake) is 2,
    never a traceback; anything else is a bug in rummy: 3, with the
    traceback only when RUMMY_DEBUG=1.
    """
    try:
        result = invoke()
        sys.stdout.flush()
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except SystemExit as leaving:
        # click turns a reader gone mid-command (``best --progress | head -1``) into a silent exit 1,
        # which reads as "no legal turn": the reader leaving is no failure
        if isinstance(leaving.__context__, BrokenPipeError):
            return _quiet_broken_pipe()
        raise
    except KeyboardInterrupt:
        print_error("interrupted")
        return EXIT_INTERRUPTED
    except Exception as error:  # noqa: BLE001 - this is the one place that classifies failures
        if _interrupted(error):
            print_error("interrupted")
            return EXIT_INTERRUPTED
        if debugging():
            traceback.print_exc()
        try:
            return _report(error)
        except Exception as failure:  # noqa: BLE001 - the reporter itself must never print a traceback
            print_error(f"internal error: {type(error).__name__}: {error} (then {type(failure).__name__}: {failure})")
            return EXIT_INTERNAL
    return EXIT_OK if result is None else int(result)


def _interrupted(error: BaseException) -> bool:
    """Whether Ctrl-C caused the error: one that lands while a C extension initialises (OR-Tools, at
    start-up) comes back as ``ImportError: initialization failed``, the KeyboardInterrupt as its cause."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _report(error: Exception) -> int:
    if isinstance(error, RummyError):
        print_bad_input(error)
        return EXIT_BAD_INPUT
    usage = _usage_error_code(error)
    if usage is not None:
        return usage
    if isinstance(error, OSError):
        where = error.filename if error.filename is not None else ""
        reason = error.strerror or str(error)
        print_error(f"{where}: {reason}" if where else reason)
        return EXIT_BAD_INPUT
    print_error(f"internal error: {type(error).__name__}: {error} (set {DEBUG_VARIABLE}=1 for the traceback)")
    return EXIT_INTERNAL


def _usage_error_code(error: Exception) -> int | None:
    """Click's usage errors, raised by typer when the command line is wrong."""
    import typer

    if isinstance(error, typer.Abort):
        print_error("interrupted")
        return EXIT_INTERRUPTED
    if not _is_click_error(error):
        return None
    message = error.format_message()
    if not message:
        # "rummy" alone: click has already printed the help.
        return EXIT_BAD_INPUT
    context = getattr(error, "ctx", None)
    if context is not None:
        message = f"{message} (see '{context.command_path} --help')"
    print_error(message)
    return EXIT_BAD_INPUT


class _ClickError(Protocol):
    """What is read of click's ClickException, whose class is only found at run time."""

    def format_message(self) -> str: ...


def _is_click_error(error: Exception) -> TypeGuard[_ClickError]:
    return isinstance(error, _click_exception_class())


def _click_exception_class() -> type:
    """Recent typer ships its own copy of click, older typer uses the click
    package: find the base class through a public name either way."""
    import typer

    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return typer.BadParameter


def _quiet_broken_pipe() -> int:
    """``rummy show x | head``: the reader left; say nothing more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return EXIT_OK
