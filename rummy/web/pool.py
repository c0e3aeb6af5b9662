"""Solves in worker processes, off the server's event loop, each within its time limit.

CP-SAT releases the GIL while it searches, but planning, checking and draw
advice are Python: in threads they would slow every other request. So every
solve (``best``, ``check``, ``hint``) runs in a small pool of processes
(spawned, never forked: OR-Tools keeps threads), while ``show`` answers in
the server's own process. The pool is bounded: a solve waits at most its
time limit plus ``GRACE_SECONDS`` (then the pool is replaced, its processes
killed), and at most ``max_waiting`` solves queue at once (more are refused
with "busy", never left to pile up).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from rummy.parallel import stop_pool
from dataclasses import dataclass
from typing import Any, Callable

# Planning, the after-position and JSON after the search stops; and starting a process.
GRACE_SECONDS = 15.0


class Busy(Exception):
    """More solves are waiting than the pool takes: try again shortly."""


class TookTooLong(Exception):
    """A solve ran past its time limit and grace: its worker was stopped."""


@dataclass(frozen=True)
class Outcome:
    """What a worker sends back: the report, or the bad-input lines, or an internal error."""

    report: Any = None
    bad_input: tuple[str, ...] = ()
    internal: str | None = None


def run_report(function: Callable[..., Any], kwargs: dict[str, Any]) -> Outcome:
    """In a worker: one report; errors come back as data (a RummyError is not always picklable)."""
    from rummy.errors import RummyError, error_lines

    try:
        return Outcome(report=function(**kwargs))
    except RummyError as error:
        return Outcome(bad_input=tuple(error_lines(error)))
    except Exception as error:  # noqa: BLE001 - reported to the client as a bug in rummy, never a traceback
        return Outcome(internal=f"{type(error).__name__}: {error}")


def _warm_up() -> None:
    """Load the solver and the checker once per worker, not on its first request."""
    import rummy.answer  # noqa: F401
    import rummy.checker  # noqa: F401
    import rummy.web.reports  # noqa: F401


class SolvePool:
    def __init__(self, workers: int, max_waiting: int) -> None:
        self.workers = max(1, workers)
        self.max_waiting = max(1, max_waiting)
        self.in_flight = 0
        self._gate: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up)

    async def run(self, function: Callable[..., Any], seconds: float, **kwargs: Any) -> Outcome:
        if self.in_flight >= self.max_waiting:
            raise Busy(f"busy: {self.in_flight} solves are running or waiting; try again shortly")
        self.in_flight += 1
        try:
            # Waiting here, never in the executor's queue: the clock below counts a solve's own time only.
            async with self._slots():
                return await self._run(function, seconds, kwargs)
        finally:
            self.in_flight -= 1

    def _slots(self) -> asyncio.Semaphore:
        """One slot a worker, made in the running event loop (a semaphore belongs to one)."""
        loop = asyncio.get_running_loop()
        if self._gate is None or self._gate[0] is not loop:
            self._gate = (loop, asyncio.Semaphore(self.workers))
        return self._gate[1]

    async def _run(self, function: Callable[..., Any], seconds: float, kwargs: dict[str, Any]) -> Outcome:
        executor = self._executor
        try:  # a pool broken by a worker that died is refused at submit, as well as while waiting
            future = asyncio.wrap_future(executor.submit(run_report, function, kwargs))
            return await asyncio.wait_for(future, seconds + GRACE_SECONDS)
        except asyncio.TimeoutError:
            self._replace(executor)
            raise TookTooLong(f"the solve took longer than {seconds:g} s and was stopped") from None
        except BrokenProcessPool:
            self._replace(executor)
            raise TookTooLong("a solver process stopped unexpectedly; try again") from None

    def _replace(self, executor: ProcessPoolExecutor) -> None:
        """A worker that overran its limit is killed with its pool; the next solve gets a fresh one."""
        if executor is not self._executor:
            return  # already replaced by another overrun
        self._executor = self._new_executor()
        stop_pool(executor)

    def warm(self) -> None:
        """Start every worker now, without waiting for them (the first visitor should not wait for imports)."""
        for _ in range(self.workers):
            self._executor.submit(_warm_up)

    def close(self) -> None:
        """Stop every worker, solving or not: a server stopped by SIGTERM leaves no process behind
        (a spawned worker holds both ends of its queue, so it never sees the server go)."""
        stop_pool(self._executor)
