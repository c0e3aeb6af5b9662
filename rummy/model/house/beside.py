"""The large-neighbourhood search on a thread of its own, beside the exact search's one-worker run.

House's schedule proves with one worker first (house/__init__): where two
workers may work, the second core would wait. The neighbourhood search
(house/neighbourhood ``improve``) uses it meanwhile, from the best turn
found so far: each better turn it finds is told at once (``tell``) and the
best it holds when stopped is kept and hinted to the next run. CP-SAT
releases the interpreter while it solves, so both searches go on together.

The search works on its own copy of the model, made before the thread
starts: the exact search rewrites the model's hint before each run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from time import perf_counter

from ...solution import SolverConfig
from ..clock import Clock
from ..run import RunResult
from .neighbourhood import improve
from .state import HouseModel


class Beside:
    """``improve`` from ``start`` for at most ``seconds`` on a daemon thread, until stopped."""

    def __init__(self, m: HouseModel, start: RunResult, seconds: float, config: SolverConfig,
                 tell: Callable[[RunResult, str], None] | None) -> None:
        self.clock = Clock.from_now(seconds)
        self.best = start
        own = replace(m, model=m.model.clone())
        self.thread = threading.Thread(target=self._search, args=(own, start, seconds, config, tell), daemon=True,
                                       name="house-neighbourhood")
        self.thread.start()

    def _search(self, m: HouseModel, start: RunResult, seconds: float, config: SolverConfig,
                tell: Callable[[RunResult, str], None] | None) -> None:
        self.best = improve(m, start, seconds, config, self.clock, tell)

    def stop(self, wait: bool) -> RunResult:
        """Ends the search after its current run; with ``wait``, the best turn it found (else the start's best so far)."""
        self.clock.deadline = perf_counter()
        if wait:
            self.thread.join()
        return self.best
