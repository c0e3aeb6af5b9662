"""Input files: their text, read bounded, and the positions a folder stands for.

``read_text`` reads a regular file, a pipe or FIFO, or stdin (``-``), at most
``MAX_FILE_BYTES`` + 1 bytes of it, never a device; with ``wait`` a pipe must
deliver within that many seconds (``rummy best`` reads many positions in turn,
and one pipe whose writer sends nothing must not hold up the others).
``iter_position_files`` lists what the paths of a command line stand for, a
folder for its positions, and gives a problem of one entry (a link loop, a
FIFO, a folder named ``x.toml``, a folder that cannot be listed) in its place
as a ``PositionError``, so that a batch reports it and goes on (formats.md
"Position files").
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import PositionError, quote

MAX_FILE_BYTES = 1 << 20  # 1 MiB; the largest real position is a few KB
STDIN = "-"
# How long ``rummy best`` waits for a pipe or FIFO named on its command line to deliver its
# position; long enough for any writer that has the position at hand, short enough for a batch.
PIPE_WAIT_SECONDS = 10.0
# What ``rummy generate`` writes beside its positions: a folder of puzzles stands for its positions alone.
PUZZLE_INDEX = "index.json"
SOLUTION_SUFFIX = ".solution.json"


CODE_SOURCE = "<code>"  # where error lines say a position code given in place of a file came from


def source_name(path: str | Path) -> str:
    return "<stdin>" if str(path) == STDIN else argument_name(path)


def argument_name(path: str | Path) -> str:
    """A command line's file argument as messages name it: as given, a position code as ``<code>``."""
    return CODE_SOURCE if is_code_argument(path) else str(path)


def is_code_argument(path: str | Path) -> bool:
    """Whether a command line's POSITION is a position code given in its place (docs/formats.md
    "Position codes"): no file of that name, and the text starts as a code does."""
    from .position_code import looks_like_code

    name = str(path)
    return looks_like_code(name) and not os.path.lexists(name)


def text_kind(path: str | Path, text: str) -> str:
    """``code``, ``json`` or ``toml``: a position code by its start (``rummy1_``, whatever the file is
    named), else by the suffix, else by the content (a TOML file never starts with ``{``)."""
    from .position_code import looks_like_code

    if looks_like_code(text):
        return "code"
    suffix = Path(str(path)).suffix.lower()
    if suffix in (".json", ".toml"):
        return suffix[1:]
    return "json" if text.lstrip().startswith("{") else "toml"


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES, wait: float | None = None) -> str:
    """The text of a position file, a pipe, or stdin (``-``), refused when it is no such thing.

    Only regular files and pipes are read, and at most ``limit`` + 1 bytes of
    them: a device (``/dev/zero``) or a folder is refused before it is opened,
    and a FIFO nobody writes to is refused without waiting. ``wait``: a pipe
    or FIFO must deliver all it holds within that many seconds, else it is
    refused (None: as long as it takes, as stdin is read).
    """
    source = source_name(path)
    if str(path) == STDIN:
        return _decode(_read_stdin(source, limit), source)
    if is_code_argument(path):  # the argument is the position's text (its length is bounded as it is read)
        return str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise PositionError(source, "no such file") from None
    except (OSError, ValueError) as error:
        raise PositionError(source, f"cannot read: {reason(error)}") from None
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise PositionError(source, "a folder, not a position file")
    if stat.S_ISREG(mode):
        if info.st_size > limit:
            raise PositionError(source, _too_large(info.st_size, limit))
    elif not stat.S_ISFIFO(mode):
        raise PositionError(source,
                            f"not a regular file (a {_file_kind(mode)}); give a position file, or '-' for stdin")
    try:
        # O_NONBLOCK: opening a FIFO never waits for a writer (nor a file swapped for one).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise PositionError(source, "no such file") from None
    except OSError as error:
        raise PositionError(source, f"cannot read: {reason(error)}") from None
    try:
        opened = os.fstat(fd).st_mode
        if not (stat.S_ISREG(opened) or stat.S_ISFIFO(opened)):
            raise PositionError(source, f"not a regular file (a {_file_kind(opened)})")
        if stat.S_ISFIFO(opened) and wait is not None:
            data = _read_pipe(fd, source, limit, wait)
        else:
            # A pipe with a writer is read like stdin; one without ends at once.
            os.set_blocking(fd, True)
            data = _read_fd(fd, source, limit)
    except OSError as error:
        raise PositionError(source, f"cannot read: {reason(error)}") from None
    finally:
        os.close(fd)
    if not data and stat.S_ISFIFO(opened):
        raise PositionError(source, "nothing to read (a pipe or FIFO that nobody writes to)")
    return _decode(data, source)


def _read_stdin(source: str, limit: int) -> bytes:
    stream = sys.stdin
    if stream is None:
        raise PositionError(source, "no stdin to read")
    binary = getattr(stream, "buffer", None)
    try:
        # No buffer: a text stream (tests), read as characters and bounded alike.
        data = stream.read(limit + 1).encode("utf-8", "surrogatepass") if binary is None else binary.read(limit + 1)
    except OSError as error:
        raise PositionError(source, f"cannot read: {reason(error)}") from None
    if len(data) > limit:
        raise PositionError(source, _too_large(None, limit))
    if not data:
        raise PositionError(source, "nothing to read on stdin")
    return data


def _read_fd(fd: int, source: str, limit: int) -> bytes:
    from .files import read_at_most

    data = read_at_most(fd, limit)
    if len(data) > limit:
        raise PositionError(source, _too_large(None, limit))
    return data


def _read_pipe(fd: int, source: str, limit: int, wait: float) -> bytes:
    """A pipe's bytes (``fd`` non-blocking) until its writer closes it, at most ``limit`` + 1 of them,
    within ``wait`` seconds: a writer that holds the pipe open and sends nothing is given up on."""
    import select

    deadline = time.monotonic() + wait
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        try:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
        except BlockingIOError:  # a writer, but nothing written yet
            left = deadline - time.monotonic()
            if left <= 0 or not poller.poll(max(1, int(left * 1000))):
                what = "nothing to read" if not size else "the position did not end"
                raise PositionError(
                    source, f"{what} after {wait:g} s (a pipe or FIFO whose writer sends nothing more)") from None
            continue
        if not chunk:  # every writer has closed it
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise PositionError(source, _too_large(None, limit))
    return b"".join(chunks)


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise PositionError(source,
                            f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})") from None


def _too_large(size: int | None, limit: int) -> str:
    what = f"{size:,} bytes" if size is not None else f"more than {limit:,} bytes"
    return f"too large: {what}; a position file is at most {limit:,} bytes (1 MiB)"


def too_large(limit: int = MAX_FILE_BYTES) -> str:
    """Why text over ``limit`` bytes is refused."""
    return _too_large(None, limit)


def reason(error: BaseException) -> str:
    """An error's reason as a message gives it: the system's words for an OSError, else quoted."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return quote(str(error))


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISCHR, "device"), (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISDIR, "folder"), (stat.S_ISFIFO, "pipe")):
        if test(mode):
            return name
    return "special file"


# ------------------------------------------------------------- folders
def is_position_name(name: str) -> bool:
    """Whether a file found in a folder is a position: a .toml or .json file, but not a puzzle
    folder's ``index.json`` nor a ``NAME.solution.json`` answer (a file named outright is always read)."""
    lower = name.lower()
    if lower == PUZZLE_INDEX or lower.endswith(SOLUTION_SUFFIX):
        return False
    return lower.endswith((".toml", ".json"))


def position_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files ``paths`` name, a folder standing for its .toml and .json positions (sorted;
    a puzzle folder's ``index.json`` and ``*.solution.json`` are skipped); the first problem
    ``iter_position_files`` finds (a folder with none, an entry that is no file) is raised."""
    found = []
    for item in iter_position_files(paths):
        if isinstance(item, PositionError):
            raise item
        found.append(item)
    return found


def iter_position_files(paths: Iterable[str | Path]) -> Iterator[Path | PositionError]:
    """``position_files`` one at a time: a folder's names are listed (and sorted), never its positions
    read ahead, so a folder of a million positions streams. A problem comes in its place, as the
    PositionError that says it: a folder that cannot be listed or holds no position, and, in a
    folder, an entry named as a position that is not a regular file (a FIFO, a device, a folder,
    a broken or looping link: a folder's positions are its files, and none is opened to find out).
    A path named outright is given as it is: reading it says what is wrong with it."""
    for raw in paths:
        path = Path(raw)
        try:
            is_folder = stat.S_ISDIR(os.stat(path).st_mode)
        except (OSError, ValueError):
            is_folder = False  # reading it says why
        if not is_folder:
            yield path
            continue
        try:
            with os.scandir(path) as entries:
                names = sorted(entry.name for entry in entries if is_position_name(entry.name))
        except OSError as error:
            yield PositionError(str(path), f"cannot list the folder: {reason(error)}")
            continue
        if not names:
            yield PositionError(str(path), "a folder with no .toml or .json positions")
        for name in names:
            entry = path / name
            problem = _not_a_file(entry)
            yield entry if problem is None else PositionError(str(entry), problem)


def _not_a_file(path: Path) -> str | None:
    """Why a folder's entry is not read as a position (None: it is a regular file)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a symbolic link to nothing" if os.path.islink(path) else "no such file"
    except OSError as error:
        return f"cannot read: {reason(error)}"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not a position file"
    return f"not a regular file (a {_file_kind(mode)}); a folder's positions are read from its regular files only"
