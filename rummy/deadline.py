"""How long this process has run, so that ``--time-limit`` can bound the whole command.

The solver's own clock starts after the interpreter, typer, the position
reader and OR-Tools have loaded (about 0.3 s); a limit that a user reads as
"answer within S seconds" must count that too.
"""

from __future__ import annotations

import os
import time

# What printing an answer takes after the search stops (planning, the after
# position, JSON or text): measured at 20-60 ms on 50-card House positions.
AFTER_SEARCH_SECONDS = 0.1
# The search always gets at least this long, however little the limit leaves.
LEAST_SEARCH_SECONDS = 0.05


def process_age() -> float:
    """Seconds since this process started (0.0 where the system does not say)."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as uptime:
            now = float(uptime.read().split()[0])
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22 of proc(5), after pid and comm
        return max(0.0, now - started)
    except (OSError, ValueError, IndexError):
        return 0.0


class Deadline:
    """Each answer within ``limit`` seconds of its start; the first one counts from the process's start."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.started = time.perf_counter() - process_age()

    def search_seconds(self) -> float:
        """The solver's time limit for the position about to be searched."""
        left = self.started + self.limit - time.perf_counter() - AFTER_SEARCH_SECONDS
        return max(left, LEAST_SEARCH_SECONDS)

    def next_answer(self) -> None:
        self.started = time.perf_counter()
