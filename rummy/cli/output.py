"""The one output layer: human views, JSON, and the bad-input handler.

Every command prints through here, so colours, JSON layout and error lines
are the same everywhere. Loading this module is cheap: rich is imported
only to draw colours on a terminal, the solver only to classify an error.

Exit codes (formats.md): 0 done, 1 a negative answer (no legal turn, an
illegal turn), 2 bad input or usage, 3 a bug in rummy itself, 4 no answer
(the time limit passed before any turn was found; an answer with no turn to
judge).
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol, TypeGuard

if TYPE_CHECKING:
    from rich.console import Console

    from rummy.cards import Card, Deck

PROGRAM = "rummy"
EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_NO_ANSWER = 4
EXIT_INTERRUPTED = 130
# Many answers (rummy best on several positions) exit with the worst code seen, in this order:
# no answer is worse than a negative one, and better than input that must be mended.
_EXIT_SEVERITY = (EXIT_OK, EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_BAD_INPUT, EXIT_INTERNAL)
DEBUG_VARIABLE = "RUMMY_DEBUG"

# Hearts and diamonds red, spades and clubs in the terminal's own colour.
# Tiles by their colour; K is drawn in the default colour (black on a light
# terminal) because literal black vanishes on dark ones.
CARD_SUIT_STYLES = {"S": "", "H": "red", "D": "red", "C": ""}
ORANGE = "dark_orange"
ORANGE_ON_16_COLOURS = "yellow"
TILE_SUIT_STYLES = {"S": "bold", "C": "bold blue", "H": "bold red", "D": f"bold {ORANGE}"}
JOKER_STYLE = "bold magenta"
HOT_STYLE = "underline"
WARM_STYLE = "italic"


def worse(code: int, other: int) -> int:
    """The worse of two exit codes (``_EXIT_SEVERITY``; a code not in it is the worst)."""
    def rank(value: int) -> int:
        return _EXIT_SEVERITY.index(value) if value in _EXIT_SEVERITY else len(_EXIT_SEVERITY)

    return code if rank(code) >= rank(other) else other


# ------------------------------------------------------------------- JSON
def print_json(data: Any) -> None:
    """One JSON document, indented, on stdout (no colours, nothing else)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def print_json_line(data: Any) -> None:
    """One JSON object on one line (several positions: one line each)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


# ------------------------------------------------------------------ human
@dataclass(frozen=True)
class Styled:
    """A line of text in styled pieces (rich style names such as ``"bold red"``).

    Commands build these; only ``print_lines`` decides whether styles become
    colours, so rich is never imported when output goes to a file or a pipe.
    """

    segments: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, *parts: str | tuple[str, str] | Styled) -> Styled:
        segments: list[tuple[str, str]] = []
        for part in parts:
            if isinstance(part, Styled):
                segments.extend(part.segments)
            elif isinstance(part, tuple):
                segments.append(part)
            else:
                segments.append((part, ""))
        return cls(tuple(segments))

    def __add__(self, other: str | tuple[str, str] | Styled) -> Styled:
        return Styled.of(self, other)

    def join(self, pieces: Iterable[Styled]) -> Styled:
        """The pieces with this text between them (like ``str.join``)."""
        segments: list[tuple[str, str]] = []
        for i, piece in enumerate(pieces):
            if i:
                segments.extend(self.segments)
            segments.extend(piece.segments)
        return Styled(tuple(segments))

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.segments)

    def __str__(self) -> str:
        return self.plain


def text(*parts: str | tuple[str, str] | Styled) -> Styled:
    """A line from plain strings, ``(string, style)`` pairs and Styled pieces."""
    return Styled.of(*parts)


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


def card_style(card: Card, deck: Deck) -> str:
    if card.is_joker:
        return JOKER_STYLE
    styles = TILE_SUIT_STYLES if deck == "tiles" else CARD_SUIT_STYLES
    return styles[card.suit]


def card_text(card: Card, deck: Deck, extra_style: str = "") -> Styled:
    style = " ".join(s for s in (card_style(card, deck), extra_style) if s)
    return Styled(((card.notation(deck), style),))


def cards_text(
    cards: Iterable[Card], deck: Deck, hot: Iterable[Card] = (), warm: Iterable[Card] = ()
) -> Styled:
    """Cards space-separated and coloured; hot cards underlined, warm in italics."""
    hot_left, warm_left = list(hot), list(warm)
    pieces = []
    for card in cards:
        extra = ""
        if card in hot_left:
            hot_left.remove(card)
            extra = HOT_STYLE
        elif card in warm_left:
            warm_left.remove(card)
            extra = WARM_STYLE
        pieces.append(card_text(card, deck, extra))
    return text(" ").join(pieces)


def words_text(words: Iterable[str | tuple[Card, ...]], deck: Deck, style: str = "", strong: str = "bold") -> Styled:
    """``rummy.words`` pieces as a line: cards coloured, ``Strong`` words in ``strong``, the rest in ``style``."""
    from rummy.words import Strong

    parts: list[Styled] = []
    for piece in words:
        if isinstance(piece, str):
            parts.append(text((piece, " ".join(filter(None, (style, strong if isinstance(piece, Strong) else ""))))))
        else:
            parts.append(text(" ").join(card_text(card, deck, style) for card in piece))
    return text(*parts)


# ----------------------------------------------------------- bad input
# An error line never runs longer than this, whatever it quotes (values are
# already quoted shortened; this is the last guard).
ERROR_LINE_LIMIT = 500


def one_line(message: str) -> str:
    """Messages are printed on exactly one line, whatever they quote, and never too long."""
    text = str(message)
    if len(text) > 4 * ERROR_LINE_LIMIT:
        text = text[: 4 * ERROR_LINE_LIMIT]
    line = " ".join(text.split())
    return line if len(line) <= ERROR_LINE_LIMIT else line[: ERROR_LINE_LIMIT - 1] + "…"


def print_error(message: str) -> None:
    line = f"{PROGRAM}: {one_line(message)}\n"
    # Never fail on what a message quotes (a lone surrogate, a terminal that is not UTF-8).
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    try:
        line.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        line = line.encode("ascii", "backslashreplace").decode("ascii")
    sys.stderr.write(line)
    sys.stderr.flush()


def print_bad_input(error: BaseException) -> None:
    """A RummyError: one line a problem (a file with several independent problems gives several)."""
    from rummy.errors import error_lines

    for line in error_lines(error):
        print_error(line)


def debugging() -> bool:
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


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
    except KeyboardInterrupt:
        print_error("interrupted")
        return EXIT_INTERRUPTED
    except Exception as error:  # noqa: BLE001 - this is the one place that classifies failures
        if debugging():
            traceback.print_exc()
        try:
            return _report(error)
        except Exception as failure:  # noqa: BLE001 - the reporter itself must never print a traceback
            print_error(f"internal error: {type(error).__name__}: {error} (then {type(failure).__name__}: {failure})")
            return EXIT_INTERNAL
    return EXIT_OK if result is None else int(result)


def _report(error: Exception) -> int:
    from rummy.errors import RummyError

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
