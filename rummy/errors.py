"""Errors raised for bad input. All subclass ValueError and quote what was wrong.

Quoted input is shortened (``quote``): a message names the place and shows
enough of the value to find it, never a whole 50 MB line. An error is
reported as ``rummy: place: problem`` on one line (``one_line``,
``print_error``), by the command line and by the server alike.
"""

from __future__ import annotations

import os
import reprlib
import sys
from typing import Any

PROGRAM = "rummy"
DEBUG_VARIABLE = "RUMMY_DEBUG"
# An error line never runs longer than this, whatever it quotes (values are
# already quoted shortened; this is the last guard).
ERROR_LINE_LIMIT = 500

# Quoted values are cut to this many characters, an ellipsis marking the cut.
QUOTE_LIMIT = 40


class RummyError(ValueError):
    """Bad input: the message names the place and quotes the offending text."""


class NotationError(RummyError):
    """A card, tile or play could not be read."""


class RulesError(RummyError):
    """An unknown preset or option, or an impossible combination of options."""


class PositionError(RummyError):
    """A position file that is malformed or inconsistent.

    ``place`` is where the problem is (``file: players.ann.hand``), so the
    command line can print one line that a user can act on.
    """

    def __init__(self, place: str, problem: str) -> None:
        self.place = place
        self.problem = problem
        super().__init__(f"{place}: {problem}" if place else problem)


class PlayNotWhole(PositionError):
    """A play that is not a whole play: refused in a position to play from, but what
    an after-position may hold (``check`` reports it; ``rummy show --after`` draws it)."""


class NoTurnInAnswer(PositionError):
    """A ``best --json`` answer that holds no turn (status ``unknown`` or ``no-legal-turn``): there is
    nothing in it to judge or draw. ``rummy check`` says so plainly (exit 4), not as bad input."""

    def __init__(self, place: str, status: str) -> None:
        self.status = status
        super().__init__(place, f"the answer found no turn (status {status})")


class PositionErrors(PositionError):
    """Several independent problems in one file (every unknown card, say): one line each.

    ``errors`` are the single problems; ``str`` gives one per line.
    """

    def __init__(self, errors: list[PositionError]) -> None:
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.place, first.problem)
        self.args = ("\n".join(str(error) for error in self.errors),)

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


def with_prefix(error: RummyError, prefix: str) -> RummyError:
    """The error with ``prefix`` (a file, an option) before what it says: before each of its
    lines, so that a ``PositionErrors`` still reports one problem a line."""
    if isinstance(error, PositionErrors):
        return PositionErrors([_prefixed(one, prefix) for one in error.errors])
    if isinstance(error, PositionError):
        return _prefixed(error, prefix)
    return RummyError(f"{prefix}: {error}")


def _prefixed(error: PositionError, prefix: str) -> PositionError:
    return type(error)(f"{prefix}: {error.place}" if error.place else prefix, error.problem)


def error_lines(error: BaseException) -> list[str]:
    """The lines an error is reported in: one a problem (``PositionErrors`` holds several)."""
    if isinstance(error, PositionErrors):
        return [str(one) for one in error.errors]
    return [str(error)]


def one_line(message: str) -> str:
    """Messages are printed on exactly one line, whatever they quote, and never too long."""
    text = str(message)
    if len(text) > 4 * ERROR_LINE_LIMIT:
        text = text[: 4 * ERROR_LINE_LIMIT]
    line = " ".join(text.split())
    # A control character quoted from the input (an escape sequence typed as a turn, a file's name) is
    # shown escaped, never sent to the terminal, which would obey it.
    line = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in line)
    return line if len(line) <= ERROR_LINE_LIMIT else line[: ERROR_LINE_LIMIT - 1] + "…"


def print_error(message: str) -> None:
    """``rummy: message`` on stderr, on one line."""
    line = f"{PROGRAM}: {one_line(message)}\n"
    # Never fail on what a message quotes (a lone surrogate, a terminal that is not UTF-8).
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    try:
        line.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        line = line.encode("ascii", "backslashreplace").decode("ascii")
    sys.stderr.write(line)
    sys.stderr.flush()


def debugging() -> bool:
    """RUMMY_DEBUG=1: a bug's traceback is printed too."""
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


class _ShortRepr(reprlib.Repr):
    """``repr`` that stays short and cheap whatever the value (huge numbers, deep nesting)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 4
        self.maxstring = QUOTE_LIMIT
        self.maxlong = QUOTE_LIMIT
        self.maxother = QUOTE_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4 * QUOTE_LIMIT:  # never convert a huge number to text
            return f"<a {x.bit_length() * 30103 // 100000 + 1}-digit number>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return quote_text(x)


_SHORT = _ShortRepr()


def quote_text(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut to about ``limit`` characters with an ellipsis."""
    shown = repr(text[:limit])
    mark, body = shown[0], shown[1:-1]
    if len(text) > limit or len(body) > limit:
        return mark + body[: limit - 1] + "…" + mark
    return shown


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A value as a message quotes it: its ``repr``, at most about ``limit`` characters."""
    if isinstance(value, str):
        return quote_text(value, limit)
    try:
        shown = _SHORT.repr(value)
    except Exception:  # noqa: BLE001 - any exception: a message must never fail on what it quotes
        shown = f"<{type(value).__name__}>"
    return shown if len(shown) <= limit + 2 else shown[: limit - 1] + "…"
