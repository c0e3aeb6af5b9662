"""Imported by the fork server that starts ``--jobs`` workers (multiprocessing's preload): a worker
whose parent has already gone when it starts ends without a traceback.

A terminal's Ctrl-C can land while the pool is still starting its workers: rummy stops and exits
("rummy: interrupted"), and a worker the fork server was still starting then finds its parent's
semaphores gone (FileNotFoundError) or its task pipe closed (EOFError, a broken pipe).
multiprocessing's fork server reports such an error with ``sys.excepthook``, so the terminal showed a
traceback under rummy's last line, from a process nobody waits for. Any other error keeps its
traceback (a real failure to start must be seen).
"""

from __future__ import annotations

import sys
from types import TracebackType

# A starting worker's errors when the process that asked for it has left.
PARENT_GONE = (FileNotFoundError, EOFError, BrokenPipeError, ConnectionResetError)

_report = sys.excepthook


def quiet_when_parent_gone(kind: type[BaseException], error: BaseException,
                           traceback: TracebackType | None) -> None:
    if issubclass(kind, PARENT_GONE):
        return
    _report(kind, error, traceback)


sys.excepthook = quiet_when_parent_gone
