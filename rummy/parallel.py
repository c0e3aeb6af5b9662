"""Many tasks at once: in this process, in a pool of processes, or on a Dask cluster.

``runner(jobs, cluster)`` gives the one ``Runner`` that ``rummy best`` and
``rummy generate`` hand their tasks to. A task is a picklable function and
its arguments (position *text*, never a path: a cluster's workers do not
share this machine's disk), and its result is plain data. Tasks are
submitted a window at a time, so a million inputs never sit in memory, and
come back either in the order they were given (``ordered``) or as each one
is done (``as_done``).

Stopping: when the caller stops iterating (Ctrl-C, or it has enough) the
tasks not yet started are cancelled and the worker processes are stopped;
whatever came back before is the caller's to keep.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from .errors import RummyError

R = TypeVar("R")
# Tasks in flight per worker: enough to keep every worker busy while results are read.
WINDOW_PER_WORKER = 3
MAX_JOBS = 256
CLUSTER_VARIABLE = "RUMMY_CLUSTER"
RECOUNT_SECONDS = 5.0  # how often a cluster's worker threads are counted again


class Runner(Protocol):
    workers: int
    where: str  # "this process", "4 processes", "the Dask cluster at tcp://..."

    def ordered(self, function: Callable[..., R], tasks: Iterable[tuple[Any, ...]]) -> Generator[R, None, None]: ...

    def as_done(self, function: Callable[..., R],
                tasks: Iterable[tuple[Any, ...]]) -> Generator[tuple[int, R], None, None]: ...

    def close(self) -> None: ...


def cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs_for(jobs: int) -> int:
    """``--jobs``: 0 is one a core; never more than MAX_JOBS."""
    if jobs < 0:
        raise RummyError(f"--jobs: {jobs} is not a number of processes (0 is one a core)")
    return min(MAX_JOBS, cores() if jobs == 0 else jobs)


def cluster_address(given: str | None) -> str | None:
    """``--cluster``'s address: as given (``""``: none, this machine), else ``$RUMMY_CLUSTER``'s, if set."""
    if given is not None:
        return given or None
    return os.environ.get(CLUSTER_VARIABLE) or None


def runner(jobs: int = 1, cluster: str | None = None) -> Runner:
    """The runner for ``--jobs N`` / ``--cluster ADDRESS``."""
    if cluster:
        return DaskRunner(cluster)
    count = jobs_for(jobs)
    return InProcess() if count == 1 else Processes(count)


class InProcess:
    """One task after another, here (``--jobs 1``)."""

    workers = 1
    where = "this process"

    def ordered(self, function: Callable[..., R], tasks: Iterable[tuple[Any, ...]]) -> Generator[R, None, None]:
        for task in tasks:
            yield function(*task)

    def as_done(self, function: Callable[..., R],
                tasks: Iterable[tuple[Any, ...]]) -> Generator[tuple[int, R], None, None]:
        for index, task in enumerate(tasks):
            yield index, function(*task)

    def close(self) -> None:
        pass


# Imported by the fork server before it starts any worker (rummy.worker_start says why).
WORKER_START = "rummy.worker_start"


class Processes:
    """A pool of worker processes on this machine (``--jobs N``). Workers start from a fork server,
    a clean process, not from this one (which may run threads: a progress bar, OR-Tools)."""

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        self.where = f"{workers} processes"
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))
        _start_fork_server()

    def ordered(self, function: Callable[..., R], tasks: Iterable[tuple[Any, ...]]) -> Generator[R, None, None]:
        pending: deque[Any] = deque()
        feed = (self.pool.submit(function, *task) for task in tasks)
        try:
            for future in _in_order(pending, feed, lambda: WINDOW_PER_WORKER * self.workers):
                yield future.result()
        finally:
            for future in pending:
                future.cancel()

    def as_done(self, function: Callable[..., R],
                tasks: Iterable[tuple[Any, ...]]) -> Generator[tuple[int, R], None, None]:
        from concurrent.futures import FIRST_COMPLETED, wait

        running: dict[Any, int] = {}
        submitted = enumerate(tasks)
        window = WINDOW_PER_WORKER * self.workers
        try:
            while True:
                for index, task in submitted:
                    running[self.pool.submit(function, *task)] = index
                    if len(running) >= window:
                        break
                if not running:
                    return
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()
        finally:
            for future in running:
                future.cancel()

    def close(self) -> None:
        """Stop at once: tasks not started are cancelled, the workers are stopped (a task running
        on one is abandoned: its result was not asked for)."""
        stop_pool(self.pool)


def _start_fork_server() -> None:
    """Start the fork server with Ctrl-C ignored, and so its workers; it preloads
    rummy.worker_start, so a worker started after rummy was interrupted ends quietly."""
    from multiprocessing import forkserver

    forkserver.set_forkserver_preload([WORKER_START])
    with ctrl_c_ignored_by_children():
        forkserver.ensure_running()


@contextmanager
def ctrl_c_ignored_by_children() -> Iterator[None]:
    """Processes started in this block ignore Ctrl-C (an ignored signal stays ignored through exec):
    a terminal's Ctrl-C goes to the whole process group, and is this process's to handle (it stops
    its children); a child still importing would print a traceback of its own. Only the main thread
    may set a signal's handler; elsewhere the block changes nothing."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_pool(pool: Any) -> None:
    """Stop a ``ProcessPoolExecutor`` now: tasks not started are cancelled, its processes killed
    (running or idle: the executor itself has no public way to stop a running task)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(5)


class DaskRunner:
    """Tasks on a Dask distributed cluster (``--cluster tcp://HOST:8786``; the ``rummy[cluster]`` extra).
    Every worker must have rummy installed, the same version as here."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise RummyError("--cluster needs the cluster extra (dask distributed is not installed): "
                             "pip install \"rummy[cluster]\"") from None
        try:
            self.client = Client(address, timeout=10)
        except (OSError, TimeoutError, ValueError) as error:
            raise RummyError(f"--cluster {address}: no Dask scheduler answers there ({error})") from None
        self.workers = self._threads()
        self._counted = time.monotonic()
        self.where = f"the Dask cluster at {address}"

    def _threads(self) -> int:
        threads: dict[str, int] = self.client.nthreads()  # distributed's API is untyped
        return max(1, sum(threads.values()))

    def _window(self) -> int:
        """Tasks in flight: a few a worker thread, counted again now and then (workers may join late)."""
        if time.monotonic() - self._counted > RECOUNT_SECONDS:
            self.workers, self._counted = self._threads(), time.monotonic()
        return WINDOW_PER_WORKER * self.workers

    def _submit(self, function: Callable[..., Any], task: tuple[Any, ...]) -> Any:
        return self.client.submit(function, *task, pure=False)  # the same text twice is two tasks

    def _cancel(self, futures: Iterable[Any]) -> None:
        """Tasks no one will read, cancelled (those already running on a worker finish there)."""
        if self.client.status == "running":
            self.client.cancel(list(futures))

    def ordered(self, function: Callable[..., R], tasks: Iterable[tuple[Any, ...]]) -> Generator[R, None, None]:
        pending: deque[Any] = deque()
        feed = (self._submit(function, task) for task in tasks)
        try:
            for future in _in_order(pending, feed, self._window):
                yield future.result()
        finally:
            self._cancel(pending)

    def as_done(self, function: Callable[..., R],
                tasks: Iterable[tuple[Any, ...]]) -> Generator[tuple[int, R], None, None]:
        from distributed import as_completed

        indexes: dict[Any, int] = {}
        submitted = enumerate(tasks)
        completed = as_completed()

        def top_up() -> None:
            for index, task in submitted:
                future = self._submit(function, task)
                indexes[future] = index
                completed.add(future)
                if len(indexes) >= self._window():
                    break

        try:
            top_up()
            for future in completed:
                yield indexes.pop(future), future.result()
                top_up()
        finally:
            self._cancel(indexes)

    def close(self) -> None:
        self.client.close()


def _in_order(pending: deque[Any], feed: Iterator[Any], window: Callable[[], int]) -> Iterator[Any]:
    """The futures of ``feed`` in order, keeping up to ``window()`` submitted ahead of the one awaited."""
    for future in feed:
        pending.append(future)
        if len(pending) >= window():
            yield pending.popleft()
    while pending:
        yield pending.popleft()
