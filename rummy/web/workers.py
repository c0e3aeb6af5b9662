"""Solves in worker processes, off the server's event loop, each within its time limit.

CP-SAT releases the GIL while it searches, but planning, checking and draw
advice are Python: in threads they would slow every other request. So every
solve (``best``, ``check``, ``hint``) runs in a worker process, while
``show`` answers in the server's own process.

Workers of our own, not a ``ProcessPoolExecutor``: an executor can only stop
a running task by breaking the whole pool, and every other visitor's solve
with it. Here each worker is one spawned process (never forked: OR-Tools
keeps threads) with a pipe of its own, served by a thread of its own in the
server, so one worker can be killed and replaced alone:

- A solve waits in the pool's queue until a worker is free and warm; its
  clock (its time limit plus ``grace``) starts when a worker takes it.
- A solve that overruns its limit and grace kills its worker (503 "took
  longer"); a worker that dies under a solve is replaced, and only that
  solve gets a 503 ("stopped unexpectedly"). A worker found dead while idle
  is replaced before it is given a solve.
- A solve withdrawn by its caller (its client hung up, its task was
  cancelled) is dropped if it is still queued, and never reaches a worker;
  if it is running, its worker is killed (CP-SAT cannot be told to stop from
  another process, and planning is plain Python) and replaced.
- A replacement warms up (imports the solver and the checker) in the
  background; the other workers keep solving meanwhile.
- At most ``max_waiting`` solves run or wait at once, and at most
  ``max_per_client`` from one client address; more are refused with
  "busy", never left to pile up.
- A solve may stream (``POST /api/best`` with ``progress``): the report
  function is given a ``Relay`` that sends its better answers to the server
  on the same pipe before the answer, from a thread of the worker's own, at
  most ``PROGRESS_PER_SECOND`` a second (a newer one replaces the one
  waiting) and ``MAX_PROGRESS`` in all; the server puts them in the solve's
  ``lines`` queue. The solve's clock is the same.
- ``close()`` kills every worker, solving or not. A worker whose server
  went without closing it sees its pipe close and exits.
- Workers ignore Ctrl-C: a terminal's Ctrl-C reaches the whole process
  group, and stopping the workers is the server's to do.

The pool's state (queue, workers, counts) changes under one lock, from the
event loop and from the workers' threads; an answer reaches its event loop
through ``call_soon_threadsafe``, so the pool serves any loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

# Planning, the after-position and JSON after the search stops; and starting a process.
GRACE_SECONDS = 15.0
MAX_PER_CLIENT = 8  # solves one client address may have running or waiting
READY = "ready"  # a worker's first message: warm, waiting for a task
RESTART_PAUSE = 1.0  # before replacing a worker that died before it was ready: no tight loop of spawns
JOIN_SECONDS = 5.0
# A streamed solve's progress lines (docs/serve.md "Best so far"): each one is a whole answer (a few KB to
# tens of KB) that the page draws, so few: what is found within 1 / PROGRESS_PER_SECOND s of the last line
# sent waits, and a better one found meanwhile takes its place.
PROGRESS_PER_SECOND = 5
MAX_PROGRESS = 100  # lines of one solve; past them only its answer comes


class Busy(Exception):
    """More solves are waiting than the pool takes: try again shortly."""


class TookTooLong(Exception):
    """A solve ran past its time limit and grace, or its worker died, or the server is stopping."""


@dataclass(frozen=True)
class Outcome:
    """What a worker sends back: the report, or the bad-input lines, or an internal error."""

    report: Any = None
    bad_input: tuple[str, ...] = ()
    internal: str | None = None
    trace: str | None = None  # the worker's traceback of an internal error (printed with RUMMY_DEBUG=1)


@dataclass(frozen=True)
class Progress:
    """What a streaming worker sends before its ``Outcome``: one progress line (a JSON object)."""

    line: dict[str, Any]


class Relay:
    """In a worker: the progress lines of one solve, sent to the server from a thread of their own.

    ``offer`` is called from the searching thread and only keeps the line's maker: the line (a whole
    answer, planned and checked) is made in this thread, at most ``per_second`` times a second; a maker
    offered while another waits replaces it (only the newest counts), and after ``most`` lines nothing
    more is sent. ``close`` stops it, dropping a line still waiting (the answer comes next), and returns
    once nothing more is being sent: the answer never overtakes a line.
    """

    def __init__(self, send: Callable[[Progress], None], per_second: float = PROGRESS_PER_SECOND,
                 most: int = MAX_PROGRESS) -> None:
        self._send = send
        self._gap = 1.0 / per_second
        self._left = most
        self._waiting: Callable[[], dict[str, Any]] | None = None
        self._closed = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._relay, name="rummy-progress", daemon=True)
        self._thread.start()

    def offer(self, make: Callable[[], dict[str, Any]]) -> None:
        with self._changed:
            self._waiting = make
            self._changed.notify()

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        self._thread.join()

    def _next(self, last_sent: float) -> Callable[[], dict[str, Any]] | None:
        """The next maker once its time has come; None once closed."""
        with self._changed:
            while not self._closed:
                pause = last_sent + self._gap - time.monotonic()
                if self._waiting is not None and pause <= 0:
                    make, self._waiting = self._waiting, None
                    return make
                self._changed.wait(pause if self._waiting is not None else None)
        return None

    def _relay(self) -> None:
        last_sent = -math.inf
        while self._left > 0 and (make := self._next(last_sent)) is not None:
            try:
                line = make()
            except Exception:  # noqa: BLE001 - a line that cannot be made is left out: the answer is made again
                continue
            try:
                self._send(Progress(line))
            except (OSError, EOFError):
                return  # the server is gone: the worker sees it too
            except Exception:  # noqa: BLE001 - a line that cannot be pickled: nothing was sent
                continue
            last_sent = time.monotonic()
            self._left -= 1


@dataclass(frozen=True)
class PoolCounts:
    """What the pool has done since it was made."""

    processes: int = 0  # worker processes started, replacements included
    answered: int = 0  # solves a worker answered
    dropped: int = 0  # queued solves withdrawn before a worker took them
    stopped: int = 0  # running solves withdrawn: their worker killed
    overran: int = 0  # solves past their limit and grace: their worker killed
    died: int = 0  # solves whose worker died under them


def run_report(function: Callable[..., Any], kwargs: dict[str, Any]) -> Outcome:
    """In a worker: one report; errors come back as data (a RummyError is not always picklable)."""
    from rummy.errors import RummyError, error_lines

    try:
        return Outcome(report=function(**kwargs))
    except RummyError as error:
        return Outcome(bad_input=tuple(error_lines(error)))
    except Exception as error:  # noqa: BLE001 - reported to the client as a bug in rummy, never a traceback
        import traceback

        return Outcome(internal=f"{type(error).__name__}: {error}", trace=traceback.format_exc())


def _warm_up() -> None:
    """Load the solver and the checker once per worker, not on its first request."""
    import rummy.answer
    import rummy.checker
    import rummy.model.cpsat  # OR-Tools: a second or two
    import rummy.reports.page  # noqa: F401


def _worker_main(connection: Connection) -> None:
    """A worker process: warm up, say so, then answer one task at a time until the server's end closes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a replacement is started from a thread: it did not inherit it
    # not fatal: the same import fails again in the solve, as its internal error
    with contextlib.suppress(Exception):
        _warm_up()
    try:
        connection.send(READY)
    except (OSError, EOFError):
        return  # the server closed its end while this one warmed up
    while True:
        try:
            function, kwargs, streams = connection.recv()
        except (EOFError, OSError):
            return  # the server closed its end, or is gone
        except Exception as error:  # noqa: BLE001 - a task that cannot be unpickled here
            outcome = Outcome(internal=f"{type(error).__name__}: {error}")
        else:
            relay = Relay(connection.send) if streams else None
            try:
                outcome = run_report(function, {**kwargs, "stream": relay} if relay is not None else kwargs)
            finally:
                if relay is not None:
                    relay.close()
        try:
            try:
                connection.send(outcome)
            except (OSError, EOFError):
                raise
            except Exception as error:  # noqa: BLE001 - an answer that cannot be pickled (nothing was sent)
                connection.send(Outcome(internal=f"{type(error).__name__}: {error}"))
        except (OSError, EOFError):
            return


class Solve:
    """One solve, from its admission to its answer. ``answer`` is resolved in the caller's event loop
    with an ``Outcome``, or with ``TookTooLong``. Its state changes under the pool's lock only."""

    QUEUED, RUNNING, DONE, WITHDRAWN = "queued", "running", "done", "withdrawn"

    def __init__(self, function: Callable[..., Any], kwargs: dict[str, Any], seconds: float, client: str,
                 streams: bool = False) -> None:
        self.loop = asyncio.get_running_loop()
        self.answer: asyncio.Future[Outcome] = self.loop.create_future()
        self.task = (function, kwargs, streams)
        # A streaming solve's progress lines, in the order sent, each put before the answer is settled.
        self.lines: asyncio.Queue[dict[str, Any]] | None = asyncio.Queue() if streams else None
        self._lines_left = MAX_PROGRESS
        self.seconds = seconds
        self.client = client
        self.state = Solve.QUEUED
        self.worker: _Worker | None = None

    def tell(self, line: dict[str, Any]) -> None:
        """From the worker's thread: a progress line for the caller (at most ``MAX_PROGRESS``, whatever
        the worker sends), unless the caller has its answer or stopped waiting."""
        lines = self.lines
        if lines is None or self._lines_left <= 0:
            return
        self._lines_left -= 1

        def put() -> None:
            if not self.answer.done():
                lines.put_nowait(line)

        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            self.loop.call_soon_threadsafe(put)

    def settle(self, result: Outcome | TookTooLong) -> None:
        """From any thread: resolve ``answer`` unless the caller stopped waiting."""

        def settle() -> None:
            if self.answer.done():
                return
            if isinstance(result, Outcome):
                self.answer.set_result(result)
            else:
                self.answer.set_exception(result)

        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            self.loop.call_soon_threadsafe(settle)


class _Worker:
    """One spawned process, its end of the pipe, and the server thread that feeds it."""

    def __init__(self, context: Any) -> None:
        self.connection, self._child_end = context.Pipe()
        # daemonic: a server (or a test) that exits without closing its pool has its workers stopped at exit,
        # where multiprocessing would otherwise wait for ever on a worker that waits for its next task
        self.process = context.Process(target=_worker_main, args=(self._child_end,), name="rummy-solver",
                                       daemon=True)
        self.ready = False

    def start(self) -> None:
        from rummy.parallel import ctrl_c_ignored_by_children

        try:
            with ctrl_c_ignored_by_children():
                self.process.start()
        finally:
            self._child_end.close()  # the child has its copy: the pipe ends when the child does

    def started(self) -> bool:
        return self.process.pid is not None

    def kill(self) -> None:
        if self.started():
            self.process.kill()

    def wait_ready(self) -> bool:
        try:
            self.ready = self.connection.recv() == READY
        except (EOFError, OSError):
            self.ready = False
        return self.ready

    def stop(self) -> None:
        """Kill it (if still there) and reap it."""
        self.kill()
        if self.started():
            self.process.join(JOIN_SECONDS)
        self.connection.close()


class SolvePool:
    def __init__(self, workers: int, max_waiting: int, max_per_client: int = MAX_PER_CLIENT,
                 grace: float = GRACE_SECONDS) -> None:
        self.workers = max(1, workers)
        self.max_waiting = max(1, max_waiting)
        self.max_per_client = max(1, max_per_client)
        self.grace = grace
        self.in_flight = 0  # solves running or waiting
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Condition()
        self._queue: deque[Solve] = deque()
        self._per_client: Counter[str] = Counter()
        self._workers: dict[_Worker, threading.Thread | None] = {}
        self._counts: Counter[str] = Counter()
        self._closed = False

    # ------------------------------------------------------------------ the event loop's side
    async def run(self, function: Callable[..., Any], seconds: float, client: str = "", **kwargs: Any) -> Outcome:
        """One solve: queued, run within ``seconds`` plus grace, withdrawn if this task is cancelled."""
        solve = self.submit(function, seconds, client, **kwargs)
        try:
            return await solve.answer
        finally:
            self.withdraw(solve)

    def submit(self, function: Callable[..., Any], seconds: float, client: str = "", streams: bool = False,
               **kwargs: Any) -> Solve:
        """Queue a solve (``Busy`` if the pool or this client has too many); the caller must ``withdraw``
        it once it has its answer or stops waiting for one. ``streams``: ``function`` takes a ``stream``
        (a ``Relay``), and the solve's ``lines`` get what it sends."""
        with self._lock:
            if self._closed:
                raise Busy("busy: the server is stopping")
            if self.in_flight >= self.max_waiting:
                raise Busy(f"busy: {self.in_flight} solves are running or waiting; try again shortly")
            if self._per_client[client] >= self.max_per_client:
                raise Busy(f"busy: {self._per_client[client]} solves from {client or 'this client'} are running "
                           "or waiting; try again when one is answered")
            solve = Solve(function, kwargs, seconds, client, streams)
            self.in_flight += 1
            self._per_client[client] += 1
            self._queue.append(solve)
            self._lock.notify_all()
        self._fill()
        return solve

    def withdraw(self, solve: Solve) -> None:
        """The caller is done with ``solve``: a queued one is dropped, a running one has its worker
        killed (and replaced); an answered one only frees its place. Safe to call twice."""
        with self._lock:
            if solve.state == Solve.WITHDRAWN:
                return
            if solve.state == Solve.QUEUED:
                self._queue.remove(solve)
                self._counts["dropped"] += 1
            elif solve.state == Solve.RUNNING and solve.worker is not None:
                solve.worker.kill()  # its thread sees the pipe close, and replaces it
                self._counts["stopped"] += 1
            solve.state = Solve.WITHDRAWN
            self.in_flight -= 1
            self._per_client[solve.client] -= 1
            if not self._per_client[solve.client]:
                del self._per_client[solve.client]
        if not solve.answer.cancel() and not solve.answer.cancelled():
            solve.answer.exception()  # an answer nobody reads is not logged as lost

    def warm(self) -> None:
        """Start every worker now, without waiting for them (the first visitor should not wait for imports)."""
        with self._lock:
            self._closed = False
        self._fill()

    def counts(self) -> PoolCounts:
        with self._lock:
            return PoolCounts(**self._counts)

    def pids(self) -> set[int]:
        """The worker processes now (started ones)."""
        with self._lock:
            return {worker.process.pid for worker in self._workers if worker.process.pid is not None}

    def close(self) -> None:
        """Stop every worker, solving or not, and refuse new solves; the ones waiting get "stopping"."""
        with self._lock:
            self._closed = True
            waiting = list(self._queue)
            self._queue.clear()
            for solve in waiting:
                solve.state = Solve.DONE
            workers = dict(self._workers)
            for worker in workers:
                worker.kill()
            self._lock.notify_all()
        for solve in waiting:
            solve.settle(TookTooLong("the server is stopping"))
        for thread in workers.values():
            if thread is not None:  # None: still starting; its starter sees the pool closed
                thread.join(JOIN_SECONDS)

    # ------------------------------------------------------------------ the workers' side
    def _fill(self) -> None:
        while self._start_worker():
            pass

    def _start_worker(self) -> bool:
        """One more worker, if the pool is short of one. The process is started outside the lock
        (about 25 ms); ``close`` kills any process started before it looks, and this one after."""
        with self._lock:
            if self._closed or len(self._workers) >= self.workers:
                return False
            worker = _Worker(self._context)
            self._workers[worker] = None
        try:
            worker.start()
        except OSError:
            worker.connection.close()
            with self._lock:  # no process (out of memory, of processes): the next submit tries again
                del self._workers[worker]
            return False
        thread = threading.Thread(target=self._feed, args=(worker,), name="rummy-solver-feed", daemon=True)
        with self._lock:
            if self._closed:
                worker.kill()
            self._workers[worker] = thread
            self._counts["processes"] += 1
        thread.start()
        return True

    def _feed(self, worker: _Worker) -> None:
        """A worker's thread: wait until it is warm, then feed it one solve after another until it dies,
        is killed, or the pool closes; then replace it."""
        try:
            if worker.wait_ready():
                while (solve := self._take(worker)) is not None and self._solve(worker, solve):
                    pass
        finally:
            worker.stop()
            self._replace(worker)

    def _take(self, worker: _Worker) -> Solve | None:
        """The next queued solve, once there is one; None when the pool closes or the worker has died."""
        with self._lock:
            while not self._closed:
                if self._queue:
                    if not worker.process.is_alive():
                        return None  # left in the queue for a live worker
                    solve = self._queue.popleft()
                    solve.state, solve.worker = Solve.RUNNING, worker
                    return solve
                self._lock.wait()
        return None

    def _solve(self, worker: _Worker, solve: Solve) -> bool:
        """Run one solve on ``worker``; whether the worker is still fit for the next."""
        try:
            worker.connection.send(solve.task)
        except (OSError, EOFError):
            return self._finish(solve, TookTooLong("a solver process stopped unexpectedly; try again"), "died")
        except Exception as error:  # noqa: BLE001 - a task that cannot be pickled: nothing was sent
            return self._finish(solve, Outcome(internal=f"{type(error).__name__}: {error}"), "answered", fit=True)
        deadline = time.monotonic() + solve.seconds + self.grace
        try:
            while True:  # progress lines (a streaming solve), then the outcome
                if not worker.connection.poll(max(0.0, deadline - time.monotonic())):
                    worker.kill()
                    return self._finish(solve, TookTooLong(f"the solve took longer than {solve.seconds:g} s and "
                                                           "was stopped"), "overran")
                message = worker.connection.recv()
                if not isinstance(message, Progress):
                    outcome = message
                    break
                solve.tell(message.line)
        except (OSError, EOFError):  # killed (withdrawn, or the pool closed) or died
            return self._finish(solve, TookTooLong("a solver process stopped unexpectedly; try again"), "died")
        except Exception as error:  # noqa: BLE001 - a message that cannot be unpickled here: it was read whole
            # a streaming worker may still be sending (that was perhaps a progress line): it is not fit for the next
            streaming = solve.lines is not None
            return self._finish(solve, Outcome(internal=f"{type(error).__name__}: {error}"), "answered",
                                fit=not streaming)
        return self._finish(solve, outcome, "answered", fit=True)

    def _finish(self, solve: Solve, result: Outcome | TookTooLong, count: str, fit: bool = False) -> bool:
        """Settle a solve its worker is done with; whether that worker may take the next one."""
        with self._lock:
            if solve.state != Solve.RUNNING:
                return False  # withdrawn while it ran: nobody waits, and its worker was killed
            solve.state, solve.worker = Solve.DONE, None
            if self._closed and not isinstance(result, Outcome):  # killed by close, not dead of itself
                result, count = TookTooLong("the server is stopping"), "stopped"
            self._counts[count] += 1
            solve.settle(result)
            return fit and not self._closed

    def _replace(self, worker: _Worker) -> None:
        with self._lock:
            self._workers.pop(worker, None)
            if self._closed:
                return
        if not worker.ready:
            time.sleep(RESTART_PAUSE)
        self._fill()
